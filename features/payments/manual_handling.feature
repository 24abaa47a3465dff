Feature: An operator handles an order whose payment notification never came
  The back office's order list (/operation/recharge) offers manual handling for an order that is
  unpaid (or closed) here. The console asks the order's provider how its payment stands: only if the
  provider says it was paid, in the order's amount and currency, is the order settled, exactly as
  the lost notification would have settled it (once, however often it is asked), and the operator
  and the reason they gave are kept in the order's history and the operation log. Otherwise the
  operator is told what the provider answered and nothing changes. An order paid, refunded or paid
  by recharge card cannot be handled ("order cannot be refunded or manually handled", 1114). Here
  every provider is its local sandbox; alice's "Cold room A logger" has 基础版 (Basic).

  Scenario Outline: A payment the provider took without telling the console is settled once
    Given the <edition> console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by <method>
    When alice pays on the payer page but the provider's notification is lost
    And the operator handles the order manually because "paid at the provider, notification lost"
    Then the console shows the order paid
    And the device's service runs 12 months longer, once
    And the order's history says the operator settled it because "paid at the provider, notification lost"
    When the operator handles the order manually again
    Then the operator is refused with code 1114
    And the device's service runs 12 months longer, once

    Examples:
      | edition       | method                       |
      | domestic      | WeChat Pay                   |
      | international | the payment-request button   |

  Scenario: The provider says the order is not paid: nothing changes
    Given the domestic console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by WeChat Pay
    When the operator handles the order manually because "the customer says she paid"
    Then the operator is refused with code 1131, told the provider says the order is not paid
    And the console shows the order still unpaid
    And the device's service is as it was
    And the order's history is empty

  Scenario: A customer cannot handle an order
    Given the domestic console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by WeChat Pay
    When alice pays on the payer page but the provider's notification is lost
    And alice handles her own order manually
    Then alice is refused with status 403
    And the console shows the order still unpaid
