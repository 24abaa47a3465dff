Feature: Prepaid recharge cards, redeemed once
  An operator issues recharge cards of a level and a number of months; each card has a number
  and a secret, shown once. A customer redeems a card for one of their devices of a type the level
  is sold for: the device gets the service as a paid order would give it, and an order of pay type
  "recharge card" with fee 0 records it. alice's "Cold room A logger" has 基础版 (Basic).

  Scenario: alice redeems a card and the device's service runs 6 months longer, once
    Given the domestic console pays through the provider sandboxes
    And the operator has issued 10 recharge cards of 基础版 for 6 months
    When alice redeems the first card for the device
    Then the device's service runs 6 months longer
    And alice's orders show a paid recharge-card order of fee 0
    And the operator sees the card used by alice for the device
    When alice redeems the first card for the device
    Then she is told the card has already been used
    And the device's service still runs 6 months longer, no more

  Scenario: Five wrong secrets lock the card number for 15 minutes
    Given the domestic console pays through the provider sandboxes
    And the operator has issued 10 recharge cards of 基础版 for 6 months
    When alice tries the first card with a wrong secret 5 times
    Then she is told the card number is locked
    And even the right secret is refused while it is locked
    When the 15 minutes of the lock have passed
    And alice redeems the first card for the device
    Then the device's service runs 6 months longer

  Scenario: Two redemptions of one card at the same moment: one wins
    Given the domestic console pays through the provider sandboxes
    And the operator has issued 1 recharge card of 基础版 for 6 months
    When alice redeems the first card for two of her devices at the same moment
    Then exactly one device got the service and one redemption was refused as used
