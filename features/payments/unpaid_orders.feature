Feature: Unpaid orders do not pile up
  The paying drawer asks for a new order each time the customer changes the duration, the payment
  method or the invoice option (500 ms after the change). Each new order supersedes the customer's
  earlier unpaid order of the same kind for exactly the same devices: the console withdraws its
  payment at the provider first, so its QR code or payment page takes no money any more, then
  closes it; My orders does not list superseded orders (unless their payment was taken all the
  same). An unpaid order lasts as long as its provider's payment: 2 hours for WeChat Pay, Alipay
  and card wallets, 3 hours for PayPal; then reconciliation closes it with its provider. The
  customer may cancel an unpaid order, or pay it again from My orders while it lasts. A genuine
  payment the provider took for a closed order is the customer's money: the order is settled and
  the notification recorded. Here every provider is its local sandbox; alice's "Cold room A
  logger" has 基础版 (Basic) until 200 days from now.

  Background:
    Given the domestic console pays through the provider sandboxes

  Scenario: Three changes in the paying drawer leave one order to pay, and paying it settles only it
    When alice opens the paying drawer for 12 months of the device's current level paying by WeChat Pay
    And she changes the duration to 24 months
    And she changes the payment method to Alipay
    And she asks for an invoice
    Then My orders lists 1 unpaid order: the last one
    And the providers refuse the QR codes of the 3 earlier orders
    When alice pays on the payer page the QR code opens
    Then My orders lists 1 paid order and nothing unpaid
    And the device's service is extended by 24 months only

  Scenario: alice cancels an unpaid order
    Given alice has ordered 12 months of the device's current level paying by WeChat Pay
    When alice cancels the order in My orders
    Then the console shows the order closed, cancelled
    And WeChat Pay refuses the order's QR code

  Scenario: Another customer cannot cancel alice's order
    Given alice has ordered 12 months of the device's current level paying by WeChat Pay
    When acme cancels alice's order
    Then acme is told there is no such order
    And the console shows the order still unpaid

  Scenario: An unpaid order expires with its QR code
    Given alice has ordered 12 months of the device's current level paying by Alipay
    When 121 minutes pass and the console reconciles its payments
    Then the console shows the order closed, expired
    And Alipay refuses the order's QR code

  Scenario: A payment taken as the order was cancelled is settled, not lost
    Given alice has ordered 12 months of the device's current level paying by WeChat Pay
    And alice has cancelled the order in My orders
    When WeChat Pay notifies that it took the order's payment all the same
    Then the console answers WeChat Pay with a success
    And the console shows the order paid
    And the device's service runs 12 months longer, once
