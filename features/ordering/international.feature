Feature: Ordering on the international console
  The international console charges US dollars through PayPal, Google Pay or a card button, and
  sells SMS and voice packages of any country code (1 by default). A wallet payment is charged at
  once: the order is paid as soon as the payment is confirmed, or stays unpaid when the card is
  declined. Its 12-month Professional option is in the Winter sale: 80 % with 2 bonus months.

  Background:
    Given the international console with the demo accounts
    And alice has logged in to the international console

  Scenario: The level cards in dollars
    When alice opens the recharge drawer of "Cold room A logger"
    Then the level cards read:
      | level        | price | button   | current | free | badge   |
      | Free         | 0     | on order | no      | yes  |         |
      | Basic        | 1990  | renew    | yes     | no   |         |
      | Professional | 3192  | buy      | no      | no   | 20% OFF |

  Scenario Outline: A wallet pays the order at once
    Given the service of "Cold room A logger" expires in 200 days
    When alice orders Professional for 12 months for "Cold room A logger" paying 3192 cents by <wallet>
    Then the order is placed with a wallet to confirm
    When alice confirms the payment with her wallet <times> time(s)
    Then the order is paid
    And "Cold room A logger" is on Professional for 14 months from its expiry

    Examples:
      | wallet          | times |
      | Google Pay      | 1     |
      | the card button | 2     |

  Scenario: A declined card leaves the order unpaid, says so, and the same order can be paid again
    When alice orders Basic for 12 months for "Cold room A logger" paying 1990 cents by Google Pay
    And alice's card is declined
    Then the answer is refused with HTTP 409 and code 1112
    And the answer says the payment was declined
    And the order is unpaid
    And the order says its attempt number 1 was declined
    And "Cold room A logger" is still on Basic, expiring in 200 days
    When alice confirms the payment with her wallet 1 time
    Then the order is paid

  Scenario: A wallet confirmation for another amount is refused
    When alice orders Basic for 12 months for "Cold room A logger" paying 1990 cents by Google Pay
    And alice confirms the payment with her wallet for 1 cent
    Then the answer is refused with HTTP 409 and code 1101
    And the order is unpaid

  Scenario Outline: Only the payment methods of the international console
    When alice orders Basic for 12 months for "Cold room A logger" paying 1990 cents by <method>
    Then the order is refused with HTTP 409 and code 1108
    And alice has no orders

    Examples:
      | method |
      | WeChat |
      | Alipay |

  Scenario: SMS packages of the device's country code, paid with a wallet
    Given "Cold room A logger" has 120 SMS and 30 voice calls
    When alice buys SMS 500 (+1) for "Cold room A logger" paying 1800 cents by the card button
    And alice confirms the payment with her wallet 1 time
    Then the order is paid
    And "Cold room A logger" has 620 SMS and 30 voice calls

  Scenario: A package of another country code than the device's
    When alice buys SMS 500 (+86) for "Cold room A logger" paying 1800 cents by Google Pay
    Then the order is refused with HTTP 409 and code 1104
    And alice has no orders

  Scenario: A batch of package orders holds devices of one country code
    Given the country code of "Cold room B logger" is 44
    When alice buys SMS 500 (+1) for "Cold room A logger" and "Cold room B logger" paying 3600 cents by Google Pay
    Then the order is refused with HTTP 409 and code 1104
    And alice has no orders
