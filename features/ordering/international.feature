Feature: Ordering on the international console
  The international console charges US dollars through PayPal, Google Pay or a card button, from
  the catalogue's dollar price list: it never reads the yuan prices of the domestic console, which
  the same catalogue holds. It sells the SMS and voice packages priced in dollars (country code 1
  in the demo). A wallet payment is charged at once: the order is paid as soon as the payment is
  confirmed, or stays unpaid when the card is declined. Its 12-month Professional option is in the
  Winter sale: 80 % with 2 bonus months.

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
    And the prices are in USD

  Scenario: The year options in dollars
    When alice lists the year options of Professional for "Cold room A logger"
    Then the year options read:
      | months | listed | price | bonus months | lifelong |
      | 12     | 3990   | 3192  | 2            | no       |
      | 24     | 7590   | 5693  | 3            | no       |
      | 1200   | 19900  | 19900 | 0            | yes      |
    And the prices are in USD

  Scenario Outline: A wallet pays the order at once
    Given the service of "Cold room A logger" expires in 200 days
    When alice orders Professional for 12 months for "Cold room A logger" paying 3192 cents by <wallet>
    Then the order is placed with a wallet to confirm
    And the order charges 3192 cents in USD
    When alice confirms the payment with her wallet <times> time(s)
    Then the order is paid
    And "Cold room A logger" has what the order promised

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

  Scenario: The packages of country code 1, in dollars
    When alice lists the SMS and voice packages of country code 1
    Then the SMS packages read:
      | package       | count | listed | price |
      | SMS 100 (+1)  | 100   | 500    | 500   |
      | SMS 500 (+1)  | 500   | 2000   | 1800  |
      | SMS 1000 (+1) | 1000  | 3500   | 3150  |
    And the voice packages read:
      | package        | count | listed | price |
      | Voice 50 (+1)  | 50    | 800    | 800   |
      | Voice 200 (+1) | 200   | 2500   | 2500  |
    And the prices are in USD

  Scenario: The packages priced in yuan are not sold in dollars
    When alice lists the SMS and voice packages of country code 86
    Then there are no SMS and no voice packages
    Given the country code of "Cold room A logger" is 86
    When alice buys SMS 500 (+86) for "Cold room A logger" paying 4000 cents by Google Pay
    Then the order is refused with HTTP 409 and code 1109
    And alice has no orders

  Scenario: SMS packages of the device's country code, paid with a wallet
    Given "Cold room A logger" has 120 SMS and 30 voice calls
    When alice buys SMS 500 (+1) for "Cold room A logger" paying 1800 cents by the card button
    Then the order charges 1800 cents in USD
    When alice confirms the payment with her wallet 1 time
    Then the order is paid
    And "Cold room A logger" has 620 SMS and 30 voice calls
    And alice's order list shows 1 paid order of 1800 cents in USD

  Scenario: A package of another country code than the device's
    Given the country code of "Cold room A logger" is 44
    When alice buys SMS 500 (+1) for "Cold room A logger" paying 1800 cents by Google Pay
    Then the order is refused with HTTP 409 and code 1104
    And alice has no orders

  Scenario: A batch of package orders holds devices of one country code
    Given the country code of "Cold room B logger" is 44
    When alice buys SMS 500 (+1) for "Cold room A logger" and "Cold room B logger" paying 3600 cents by Google Pay
    Then the order is refused with HTTP 409 and code 1104
    And alice has no orders
