Feature: Waybills
  A waybill is the record of one shipment: its goods, its sender and receiver, the temperature limits
  the goods need and the devices travelling with them. It is not started, then in progress, then
  finished, and never goes back. While it runs, its limits take precedence over its devices' own alarm
  limits. A receiver sees the trip through a share link or the public quick query, never the owner's
  private data.

  alice's vaccine fridge logger has a rule allowing 2 to 8 °C with a 5-minute delay.

  Background:
    Given the demo accounts exist
    And alice has logged in
    And alice has made the waybill WB-7 for the vaccine fridge with limits -5 to 15 °C

  Scenario: A waybill goes from not started to in progress to finished
    Then the waybill WB-7 is not started
    When alice starts the waybill WB-7
    Then the waybill WB-7 is in progress
    When alice finishes the waybill WB-7
    Then the waybill WB-7 is finished
    And alice cannot start the waybill WB-7 again

  Scenario: The waybill's limits take precedence over the device's while it runs
    Given alice has started the waybill WB-7
    When 10 minutes pass
    And the vaccine fridge reads 10 °C for 6 minutes
    Then alice's message centre shows no alarm
    When alice finishes the waybill WB-7
    And 10 minutes pass
    And the vaccine fridge reads 10 °C for 6 minutes
    Then alice's message centre shows 1 untreated alarm of the vaccine fridge at level 1

  Scenario: A share link works until it expires, and a revoked one stops at once
    Given alice has started the waybill WB-7
    When alice shares the waybill WB-7 for 8 hours
    Then the receiver opening the link sees the trip of WB-7 without phones or addresses
    When 9 hours pass
    Then the receiver opening the link is told it has expired or been revoked
    When alice shares the waybill WB-7 for 1 day
    And alice revokes the link
    Then the receiver opening the link is told it has expired or been revoked

  Scenario: The public quick query shows a trip and nothing private, and a made-up number nothing
    Given alice has started the waybill WB-7
    When someone looks up the waybill number WB-7
    Then they see the trip of WB-7 without phones or addresses
    When someone looks up the waybill number WB-404
    Then they see no trip
