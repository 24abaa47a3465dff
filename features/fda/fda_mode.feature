Feature: FDA mode on and off
  FDA mode is switched per account (its own records) or per organization (by its creator and
  administrators). Switching it on again, or off again, changes nothing and says so. Switching it
  off takes a signature meaning "approved" with a reason, and stays in the operation log.

  Background:
    Given the demo teams exist

  Scenario: Switching on twice warns that the second time is not needed
    When acme switches FDA mode on for Acme Cold Chain
    Then FDA mode is on for Acme Cold Chain
    When carol switches FDA mode on for Acme Cold Chain
    Then the switch answers "FDA mode is already on: nothing to do" and nothing changed

  Scenario: A plain member may not switch the organization's FDA mode
    When dave switches FDA mode on for Acme Cold Chain
    Then the switch is refused with HTTP 403
    And FDA mode is off for Acme Cold Chain

  Scenario: Switching off needs a signed approval with a reason
    Given Acme Cold Chain has FDA mode on
    When acme switches FDA mode off for Acme Cold Chain without a signature
    Then the switch is refused with HTTP 428
    And FDA mode is on for Acme Cold Chain
    When acme switches FDA mode off for Acme Cold Chain signed without a reason
    Then the switch is refused with HTTP 422
    When acme switches FDA mode off for Acme Cold Chain signed with the reason "Validation ended"
    Then FDA mode is off for Acme Cold Chain
    And Acme Cold Chain's switch shows acme's approval with the reason "Validation ended"
    And the operation log of Acme Cold Chain holds the switch-off
    When acme switches FDA mode off for Acme Cold Chain without a signature
    Then the switch answers "FDA mode is already off: nothing to do" and nothing changed
