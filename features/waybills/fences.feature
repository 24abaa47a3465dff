Feature: Waybills started and finished by geofences
  A waybill may name an origin and a destination among its owner's geofences. Its devices are then
  watched against both: the trip starts when they leave the origin and finishes when they enter the
  destination, each at the first reading on the new side (three readings in a row confirm a
  crossing). The readings that confirmed the departure are judged by the waybill's limits, though
  they arrived before it started.

  Background:
    Given the demo accounts exist
    And alice has logged in
    And alice has drawn a depot fence and a clinic fence 11 km north of it
    And alice has made the waybill WB-9 for her truck logger from the depot to the clinic with limits 2 to 8 °C

  Scenario: Leaving the depot starts the waybill and entering the clinic finishes it
    When the truck logger reports 3 fixes in the depot, then 3 fixes 2 km north of it at 5 °C
    Then the trip of WB-9 started at the first fix north of the depot
    When the truck logger reports 3 fixes in the clinic
    Then the trip of WB-9 finished at the first fix in the clinic

  Scenario: The readings that confirmed the departure are judged by the waybill's limits
    When the truck logger reports 3 fixes in the depot, then 3 fixes 2 km north of it at 11 °C
    Then the waybill WB-9 counts 1 alarm, from the first fix north of the depot

  Scenario: Another account's fence cannot be a waybill's origin
    Given bob has drawn a yard fence of his own
    When alice makes a waybill from bob's yard fence
    Then the answer has HTTP 422 with an error for originFenceId
