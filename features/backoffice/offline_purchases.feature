Feature: Offline purchases are approved by a second operator
  An operator records service bought by contract or bank transfer for a customer's devices, listed
  or uploaded as a sheet of GUIDs that is checked row by row. Nothing is recharged until another
  operator approves it; then every device is recharged at once, each marked recharged or, when it
  cannot be (deleted since), recharge failed with the reason, and a paid order of the offline pay
  type records the purchase. The operator who recorded it cannot approve it.

  Background:
    Given the demo accounts and the service catalogue exist

  Scenario: Two of alice's devices recharged on approval
    When the operator records a year of Basic for alice's "RCW360A0000001" and "RCW360A0000002" paid by bank transfer
    Then the purchase awaits review and both devices are not recharged
    When the operator approves the purchase
    Then the review is refused with code 1134
    When the administrator approves the purchase
    Then both devices are recharged, their service running at least a year from now
    And alice's orders show a paid bank-transfer order for both devices

  Scenario: A device deleted before the approval fails with its reason
    When the operator records a year of Basic for alice's "RCW360A0000001" and "RCW360A0000002" paid by bank transfer
    And alice deletes her device "RCW360A0000002"
    And the administrator approves the purchase
    Then "RCW360A0000001" is recharged and "RCW360A0000002" failed because it was deleted

  Scenario: A sheet with another customer's device is refused row by row
    When the operator checks a sheet of "RCW360A0000001", "RCW360A0000001" and acme's "RCW360B0000001" for alice
    Then row 3 is listed twice and row 4 is not the customer's
    And recording the purchase with those rows is refused and records nothing
