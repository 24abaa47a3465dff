Feature: Geofence crossings
  A fence is an area on the map, up to ten circles and polygons, that devices are watched against.
  When a watched device's positions show it has left or entered the fence for long enough (three
  readings in a row), the crossing is recorded at the time of its first reading on the new side and
  the fence's owner is told in the message centre. A fix near the edge that wobbles in and out, or
  one too vague to tell, is no crossing.

  alice's truck logger is watched against her depot: a circle of 500 m around 31.23 N 121.47 E.

  Background:
    Given the demo accounts exist
    And alice has logged in
    And alice has drawn a depot fence watching her truck logger

  Scenario: Leaving the depot is one crossing, told to its owner
    When the truck logger reports 3 fixes in the depot, then 3 fixes 2 km north of it
    Then the depot fence shows one crossing: left, at the first fix north of it
    And alice's message centre tells that the truck logger left the depot

  Scenario: Jitter at the depot's edge is no crossing
    When the truck logger reports 3 fixes in the depot, then 6 fixes wobbling 20 m either side of its edge
    Then the depot fence shows no crossing

  Scenario: A read-only member cannot change an organization's fence
    Given acme has drawn a yard fence for Acme Cold Chain
    And bob has logged in
    When bob renames the yard fence
    Then the answer has HTTP 403, code 403 and the message "You may only read this fence: its organization's administrators change it"
