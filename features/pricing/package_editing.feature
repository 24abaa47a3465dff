Feature: An operator edits the catalogue and customers see it
  Operators run the service catalogue: a package of levels for some device types, each level with
  its durations priced per currency. A package is created stopped; one enabled package serves a
  device type at a time, so the demo's standard plan must be stopped before a new one for the same
  type is enabled. A customer's level cards and quotes then show the new package's levels, named
  in the customer's language. What was sold is never changed: a new price for a sold duration
  retires it and adds another, and the order keeps what it bought.

  Background:
    Given the demo accounts and the service catalogue exist
    And operator has logged in
    And alice has logged in

  Scenario: A new package with two levels for a device type reaches the customer's cards and quotes
    When operator creates the package "Cold plan" coded 20000001 for the RCW-360 type
    And operator adds the level "Silver" at 50.00 yuan for 12 months to "Cold plan"
    And operator adds the level "Gold" at 120.00 yuan for 12 months to "Cold plan"
    And operator enables "Cold plan"
    Then the operator is told the type already has the enabled package "Standard cloud plan"
    When operator stops the standard plan
    And operator enables "Cold plan"
    Then alice's cold room A shows the levels "Silver, Gold"
    And a year of "Gold" for alice's new device is quoted at 12000 cents

  Scenario: A sold duration keeps its price in the order
    Given alice has ordered a year of "Basic" for her cold room A
    When operator sets the "Basic" year to 159.00 yuan
    Then alice's cold room A is offered a year of "Basic" at 15900 cents
    And alice's order still costs 9900 cents for 12 months
