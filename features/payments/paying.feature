Feature: Paying for a device's service through the payment providers
  The console never takes a client's word that an order is paid: the provider says so, in a
  notification it signs, or when the console asks it. Here every provider is its local sandbox,
  whose payer page stands in for the payer's phone or wallet: Pay completes the payment, Fail
  declines it. alice's "Cold room A logger" has 基础版 (Basic) until 200 days from now.

  Scenario Outline: A domestic customer scans the QR code and pays
    Given the domestic console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by <method>
    When alice pays on the payer page the QR code opens
    Then the console shows the order paid
    And the device's service runs 12 months longer, once

    Examples:
      | method     |
      | WeChat Pay |
      | Alipay     |

  Scenario Outline: A declined payment changes nothing
    Given the domestic console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by <method>
    When alice declines on the payer page the QR code opens
    Then the console shows the order still unpaid
    And the device's service is as it was

    Examples:
      | method     |
      | WeChat Pay |
      | Alipay     |

  Scenario: A lost notification is made good by reconciliation
    Given the domestic console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by WeChat Pay
    When alice pays on the payer page but the provider's notification is lost
    Then the console shows the order still unpaid
    When 4 minutes pass and the console reconciles its payments
    Then the console shows the order paid
    And the device's service runs 12 months longer, once

  Scenario: A forged notification is refused and changes nothing
    Given the domestic console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by WeChat Pay
    When a notification that the order is paid arrives signed with another key
    Then the console answers WeChat Pay with a failure
    And the console shows the order still unpaid
    And the device's service is as it was

  Scenario: The back office refunds a paid order once
    Given the domestic console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by Alipay
    And alice has paid on the payer page the QR code opens
    When the operator refunds the order
    Then the console shows the order refunded
    And a second refund of the order is refused with code 1114

  Scenario Outline: An international customer pays with a card wallet
    Given the international console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by <wallet>
    When alice confirms the payment with the card "<card>"
    Then <outcome>

    Examples:
      | wallet                     | card                   | outcome                                          |
      | Google Pay                 | pm_card_visa           | the console shows the order paid                 |
      | the payment-request button | pm_card_mastercard     | the console shows the order paid                 |
      | Google Pay                 | pm_card_chargeDeclined | the payment is refused with code 1112 and unpaid |

  Scenario: An international customer pays with PayPal
    Given the international console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by PayPal
    When alice approves the payment on PayPal's page and comes back to the console
    Then she lands on the console's PayPal page with the order paid
    And the device's service runs 12 months longer, once

  Scenario: An international customer cancels on PayPal's page
    Given the international console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by PayPal
    When alice cancels on PayPal's page
    Then she lands on the console's PayPal cancel page
    And the console shows the order still unpaid
