Feature: Buying SMS and voice packages
  Alarm SMS and voice calls are prepaid per device, in packages sold per country code (86 on the
  domestic console, where it cannot be changed). An order holds an SMS package, a voice package or
  both, for one device or for several devices sharing a country code; it costs the packages' price
  times the number of devices. When it is paid, once however many payment notifications arrive,
  each device's SMS and voice counts grow by the packages' counts.

  "Cold room A logger" has 120 SMS and 30 voice calls left, "Cold room B logger" 60 SMS and 10 voice
  calls. Packages of 500 SMS or more are sold at 90 %, cut down to a whole yuan as the console shows
  them (90 % of 45 yuan is 40 yuan, not 40.50), voice packages at their listed price.

  Background:
    Given the demo accounts and the service catalogue exist
    And alice has logged in

  Scenario: The packages of country code 86
    When alice lists the SMS and voice packages of country code 86
    Then the SMS packages read:
      | package        | count | listed | price |
      | SMS 100 (+86)  | 100   | 1000   | 1000  |
      | SMS 500 (+86)  | 500   | 4500   | 4000  |
      | SMS 1000 (+86) | 1000  | 8000   | 7200  |
    And the voice packages read:
      | package         | count | listed | price |
      | Voice 50 (+86)  | 50    | 1500   | 1500  |
      | Voice 200 (+86) | 200   | 5000   | 5000  |
    And the prices are in CNY

  Scenario Outline: A paid package order adds its counts once
    Given "Cold room A logger" has 120 SMS and 30 voice calls
    When alice buys <packages> for "Cold room A logger" paying <price> cents by <method>
    Then the order is placed with a QR code to scan
    When the payment notification arrives <times> time(s)
    Then the order is paid
    And "Cold room A logger" has <sms> SMS and <voice> voice calls

    Examples:
      | packages                           | price | method | times | sms  | voice |
      | SMS 500 (+86)                      | 4000  | WeChat | 1     | 620  | 30    |
      | Voice 200 (+86)                    | 5000  | Alipay | 2     | 120  | 230   |
      | SMS 100 (+86) and Voice 50 (+86)   | 2500  | WeChat | 3     | 220  | 80    |
      | SMS 1000 (+86) and Voice 200 (+86) | 12200 | Alipay | 2     | 1120 | 230   |

  Scenario: A batch of devices pays the packages once per device
    Given "Cold room A logger" has 120 SMS and 30 voice calls
    And "Cold room B logger" has 60 SMS and 10 voice calls
    When alice buys SMS 500 (+86) and Voice 50 (+86) for "Cold room A logger" and "Cold room B logger" paying 11000 cents by WeChat
    And the payment notification arrives 2 times
    Then the order is paid
    And "Cold room A logger" has 620 SMS and 80 voice calls
    And "Cold room B logger" has 560 SMS and 60 voice calls
    And alice's order list shows 1 paid order of 11000 cents

  Scenario Outline: A package order the server refuses
    When alice buys <packages> for <devices> paying <price> cents by WeChat
    Then the order is refused with HTTP <status> and code <code>
    And alice has no orders
    And "Cold room A logger" has 120 SMS and 30 voice calls

    Examples: The server's price, not the console's
      | packages      | devices                                       | price | status | code |
      | SMS 500 (+86) | "Cold room A logger"                          | 4500  | 409    | 1101 |
      | SMS 500 (+86) | "Cold room A logger"                          | 3999  | 409    | 1101 |
      | SMS 500 (+86) | "Cold room A logger" and "Cold room B logger" | 4000  | 409    | 1101 |

    Examples: Nothing to buy
      | packages   | devices              | price | status | code |
      | no package | "Cold room A logger" | 0     | 409    | 1106 |

    Examples: Another customer's device
      | packages      | devices                                            | price | status | code |
      | SMS 500 (+86) | "Cold room A logger" and "Warehouse 1 door logger" | 8000  | 404    | 404  |
      | SMS 500 (+86) | "Warehouse 1 cold room"                            | 4000  | 404    | 404  |

  Scenario: The console's count of a package is checked too
    When alice buys SMS 500 (+86) for "Cold room A logger" paying 4000 cents by WeChat, saying it holds 1000 SMS
    Then the order is refused with HTTP 409 and code 1101
    And alice has no orders

  Scenario: A batch of package orders holds devices of one country code
    Given the country code of "Cold room B logger" is 44
    When alice buys SMS 500 (+86) for "Cold room A logger" and "Cold room B logger" paying 8000 cents by WeChat
    Then the order is refused with HTTP 409 and code 1104
    And alice has no orders

  Scenario: The domestic country code is 86
    When alice buys SMS 100 (+1) for "Cold room A logger" paying 1000 cents by WeChat
    Then the order is refused with HTTP 422 and code 422
    And the answer has HTTP 422 with an error for countryCode
    And alice has no orders

  Scenario: An invoice needs saved invoice details
    When alice buys SMS 500 (+86) for "Cold room A logger" paying 4000 cents by WeChat with an invoice but no invoice details
    Then the order is refused with HTTP 409 and code 1105
    Given alice has saved personal invoice details sent by e-mail to alice@example.com
    When alice buys SMS 500 (+86) for "Cold room A logger" paying 4000 cents by WeChat with an invoice to her saved details
    Then the order is placed with a QR code to scan
    And the order asks for an invoice

  Scenario Outline: Only the payment methods of the domestic console
    When alice buys SMS 500 (+86) for "Cold room A logger" paying 4000 cents by <method>
    Then the order is refused with HTTP 409 and code 1108

    Examples:
      | method     |
      | PayPal     |
      | Google Pay |
