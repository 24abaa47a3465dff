Feature: A coupon at checkout, used once
  An operator issues coupons; a customer enters one in the paying drawer. The server prices it
  on the order's total, the order charges what is shown and holds the coupon while it is unpaid,
  the payment spends it in the same transaction that settles the order, and an order that closes
  unpaid gives it back. alice's "Cold room A logger" has 基础版 (Basic); paying goes through the
  WeChat Pay sandbox.

  Scenario: alice pays with a coupon by WeChat Pay, and the coupon is spent once
    Given the domestic console pays through the provider sandboxes
    And the operator has issued 10 coupons of 20 yuan off
    When alice orders 12 months of the device's current level with a coupon, paying by WeChat Pay
    Then the order charges 20 yuan less than the year option's price
    And the coupon is held by alice's order
    When alice pays on the payer page the QR code opens
    Then the console shows the order paid
    And the device's service runs 12 months longer, once
    And the coupon is used by alice's order
    And the operator sees the coupon used by alice on that order
    And another order with the same coupon is refused: the coupon has already been used

  Scenario: A coupon comes back when its order is cancelled unpaid
    Given the domestic console pays through the provider sandboxes
    And the operator has issued 10 coupons of 20 yuan off
    When alice orders 12 months of the device's current level with a coupon, paying by WeChat Pay
    And alice cancels the order
    Then the coupon is unused again

  Scenario: Two customers order at the same moment with one coupon: one order gets it
    Given the domestic console pays through the provider sandboxes
    And the operator has issued 1 coupon of 20 yuan off
    When alice and acme each order with that coupon at the same moment
    Then exactly one order holds the coupon and the other is refused: held by another unpaid order

  Scenario: A coupon worth the whole order is refused, never a free or negative price
    Given the domestic console pays through the provider sandboxes
    And the operator has issued 10 coupons of 100000 yuan off
    When alice orders 12 months of the device's current level with a coupon, paying by WeChat Pay
    Then she is told the coupon is worth the whole order or more
