Feature: Activities run by the operator, their precedence and the package's prices coming back
  An operator runs activities on year options of a service package: public ones for every
  customer, directional ones for target accounts only. While an activity is enabled and in force
  its discount takes precedence over the option's normal discount; once it is stopped or deleted,
  the customer's drawers show and charge the package's own price again at once. Two enabled
  activities never offer the same option at overlapping moments: the operator is told which one
  is in the way.

  The basic level of the demo package sells 12 months at its listed price (normal discount 100)
  and 24 months at a normal discount of 95.

  Background:
    Given the demo accounts and the service catalogue exist
    And operator has logged in
    And alice has logged in
    And bob has logged in with a device of his own

  Scenario: A directional activity is seen by its target alone
    When the operator runs a 20 % directional activity for alice on the basic 12-month option
    Then alice is offered the basic 12-month option at 80 % of its listed price
    And bob is offered the basic 12-month option at 100 % of its listed price

  Scenario: A public activity takes precedence over the normal discount
    When the operator runs a 20 % public activity on the basic 24-month option
    Then alice is offered the basic 24-month option at 80 % of its listed price
    And bob is offered the basic 24-month option at 80 % of its listed price

  Scenario Outline: Stopping or deleting an activity restores the package's own price
    Given the operator has run a 20 % public activity on the basic 24-month option
    When the operator <action> the activity
    Then alice is offered the basic 24-month option at 95 % of its listed price
    And alice's level card of basic shows no activity

    Examples:
      | action  |
      | stops   |
      | deletes |

  Scenario: Enabling a stopped activity brings its price back
    Given the operator has run a 20 % public activity on the basic 12-month option
    And the operator has stopped the activity
    When the operator turns the activity back on
    Then alice is offered the basic 12-month option at 80 % of its listed price

  Scenario: An overlapping activity is refused and changes nothing
    Given the operator has run a 20 % public activity on the basic 12-month option
    When the operator runs a 50 % public activity on the basic 12-month option
    Then the operator is told that the activity "Spring sale" already offers that option
    And alice is offered the basic 12-month option at 80 % of its listed price

  Scenario: An activity that has not started offers nothing yet
    When the operator runs a 20 % public activity on the basic 12-month option starting tomorrow
    Then alice is offered the basic 12-month option at 100 % of its listed price
    When 1 days and 1 hours pass
    Then alice is offered the basic 12-month option at 80 % of its listed price
