Feature: Ordering a service level
  A customer recharges a device by choosing a level and one of its year options, then paying by
  WeChat or Alipay. The server prices every order from its own catalogue: the figures the console
  sends are only compared with it, and an order whose figures differ is refused and never stored.
  Once paid, and only once however many payment notifications arrive, each device gets what the
  order promised: its level renewed from its expiry (from now once expired), or another level with
  its remaining time converted (features/ordering/level_changes.feature).

  alice's demo devices: "Cold room A logger" (Wi-Fi logger, 基础版, service expires in 200 days),
  "Cold room B logger" (Wi-Fi logger, 基础版, expires in 20 days, a SIM with an active data plan),
  "Vaccine fridge logger" (Wi-Fi logger, 免费版, expired 15 days ago), "Truck 12 tracker" (4G
  logger, 专业版 for life), "Pharmacy freezer" (freezer monitor, 专业版 renewed automatically) and
  "Dock cold room" (cold room monitor, 基础版, a SIM without an active data plan). acme owns
  "Warehouse 1 cold room" and "Warehouse 1 door logger". 基础版 costs 99 yuan for 12 months, 188 for
  24 months at 95 % and 269 for 36 months at 90 %; 专业版 199 for 12 months, 378 for 24 months and 999
  for life, and its 12- and 24-month options are in the 双11促销 activity: 80 % with 2 bonus months,
  75 % with 3 bonus months. The console shows yuan whole and the customer pays what it shows, so a
  discounted price is cut down to a whole yuan: 80 % of 199 yuan is 159 yuan (not 159.20). The
  catalogue also holds the international console's dollar prices, which this console never reads.
  Levels and items are named here as the domestic catalogue writes them; alice reads in English, so
  her cards show the English names the catalogue also holds (Free, Basic, Professional).

  Background:
    Given the demo accounts and the service catalogue exist
    And alice has logged in

  Scenario: The level cards of a device
    When alice opens the recharge drawer of "Cold room A logger"
    Then the level cards read:
      | level  | price | button   | current | free | badge |
      | 免费版 | 0     | on order | no      | yes  |       |
      | 基础版 | 9900  | renew    | yes     | no   |       |
      | 专业版 | 15900 | buy      | no      | no   | 8折   |
    And the prices are in CNY
    And the 专业版 card shows an activity from 10 days ago until 20 days from now with 2 bonus months
    And the items under the cards read:
      | item              | title                 | detail                             | in levels              |
      | DATA_QUERY_EXPORT | Data query and export | up to 3 years of history           | 免费版, 基础版, 专业版 |
      | ALARM_SMS         | SMS alarms            | text message on every limit breach | 基础版, 专业版         |
      | ALARM_VOICE       | Voice alarms          | phone call on every limit breach   | 专业版                 |
      | AI_QA             | AI Q&A                | ask questions about your data      | 专业版                 |

  Scenario: The year options of a level, with the activity in force
    When alice lists the year options of 专业版 for "Cold room A logger"
    Then the year options read:
      | months | listed | price | bonus months | lifelong |
      | 12     | 19900  | 15900 | 2            | no       |
      | 24     | 37800  | 28300 | 3            | no       |
      | 1200   | 99900  | 99900 | 0            | yes      |
    And the prices are in CNY

  Scenario Outline: A paid order extends the service of the device
    Given the service of "<device>" expires <when>
    When alice orders <level> for <months> months for "<device>" paying <price> cents by <method>
    Then the order is placed with a QR code to scan
    When the payment notification arrives 1 time
    Then the order is paid
    And "<device>" is on <level> for <extension> months from <from>

    Examples: Renewing before the expiry continues from the expiry
      | device             | when        | level  | months | price | method | extension | from       |
      | Cold room A logger | in 200 days | 基础版 | 12     | 9900  | WeChat | 12        | its expiry |
      | Cold room A logger | in 200 days | 基础版 | 36     | 24200 | Alipay | 36        | its expiry |
      | Cold room B logger | in 20 days  | 基础版 | 24     | 17800 | Alipay | 24        | its expiry |

    Examples: An expired service starts again from now
      | device                | when        | level  | months | price | method | extension | from |
      | Vaccine fridge logger | 15 days ago | 基础版 | 24     | 17800 | WeChat | 24        | now  |
      | Vaccine fridge logger | 15 days ago | 专业版 | 12     | 15900 | Alipay | 14        | now  |

  Scenario Outline: Lifelong service
    When alice orders 专业版 for <months> months for "<device>" paying <price> cents by Alipay
    And the payment notification arrives 1 time
    Then the order is paid
    And "<device>" is on 专业版 for life
    And the service expiry of "<device>" reads 2099-12-31

    Examples: A lifelong year option
      | device             | months | price |
      | Cold room A logger | 1200   | 99900 |

  Scenario Outline: An order is settled once however many payment notifications arrive
    Given the service of "Cold room A logger" expires in 200 days
    When alice orders 基础版 for 12 months for "Cold room A logger" paying 9900 cents by WeChat
    And the payment notification arrives <times> time(s)
    Then the order is paid
    And "Cold room A logger" is on 基础版 for 12 months from its expiry
    And alice's order list shows 1 paid order of 9900 cents in CNY

    Examples:
      | times |
      | 1     |
      | 2     |
      | 5     |

  Scenario: The service is extended when the order is paid, not when it is placed
    Given the service of "Cold room B logger" expires in 20 days
    When alice orders 基础版 for 12 months for "Cold room B logger" paying 9900 cents by WeChat
    And 10 days pass
    And alice logs in again
    Then "Cold room B logger" is still on 基础版, expiring in 10 days
    When the payment notification arrives 1 time
    Then the order is paid
    And "Cold room B logger" is on 基础版 for 12 months from its expiry

  Scenario: Once the activity has ended its price and bonus months are gone
    Given the service of "Cold room A logger" expires in 200 days
    When 21 days pass
    And alice logs in again
    And alice opens the recharge drawer of "Cold room A logger"
    Then the level cards read:
      | level  | price | button   | current | free | badge |
      | 免费版 | 0     | on order | no      | yes  |       |
      | 基础版 | 9900  | renew    | yes     | no   |       |
      | 专业版 | 19900 | buy      | no      | no   |       |
    When alice orders 专业版 for 12 months for "Cold room A logger" paying 15900 cents by WeChat
    Then the order is refused with HTTP 409 and code 1101
    When alice orders 专业版 for 12 months for "Cold room A logger" paying 19900 cents by WeChat
    And the payment notification arrives 1 time
    Then the order is paid
    And "Cold room A logger" has what the order promised

  Scenario: A forged payment notification changes nothing
    When alice orders 专业版 for 12 months for "Cold room A logger" paying 15900 cents by WeChat
    And a payment notification of 1 cent arrives for the order
    Then the answer is refused with HTTP 403 and code 403
    And the order is unpaid
    And "Cold room A logger" is still on 基础版, expiring in 200 days

  Scenario: Another customer cannot see alice's order
    Given acme has logged in
    When alice orders 专业版 for 12 months for "Cold room A logger" paying 15900 cents by WeChat
    Then acme is refused the order with HTTP 404 and code 404
    And acme has no orders
    And alice's order list shows 1 unpaid order of 15900 cents

  Scenario: An unpaid order changes nothing
    When alice orders 专业版 for 12 months for "Cold room A logger" paying 15900 cents by WeChat
    Then the order is placed with a QR code to scan
    And the order charges 15900 cents in CNY
    And the order is unpaid
    And "Cold room A logger" is still on 基础版, expiring in 200 days
    And alice's order list shows 1 unpaid order of 15900 cents

  Scenario Outline: The server's price, not the console's
    When alice orders 专业版 for 12 months for "Cold room A logger" saying <figure>
    Then the order is refused with HTTP 409 and code 1101
    And alice has no orders
    And "Cold room A logger" is still on 基础版, expiring in 200 days

    Examples:
      | figure                                |
      | the order costs 19900 cents           |
      | the order costs 15899 cents           |
      | the order costs 0 cents               |
      | the listed service fee is 15900 cents |
      | the listed service fee is 0 cents     |
      | the activity gives 3 bonus months     |
      | the order is in another activity      |

  Scenario: A batch of devices of one type costs the price of each device added up
    When alice asks the price of 基础版 for 24 months for "Cold room A logger", "Cold room B logger" and "Vaccine fridge logger"
    Then each device costs 17800 cents
    And the prices are in CNY
    When alice orders 基础版 for 24 months for "Cold room A logger", "Cold room B logger" and "Vaccine fridge logger" paying 53400 cents by WeChat
    And the payment notification arrives 2 times
    Then the order is paid
    And "Cold room A logger" is on 基础版 for 24 months from its expiry
    And "Cold room B logger" is on 基础版 for 24 months from its expiry
    And "Vaccine fridge logger" is on 基础版 for 24 months from now

  Scenario: A batch priced for one device is refused
    When alice orders 基础版 for 24 months for "Cold room A logger" and "Cold room B logger" paying 17800 cents by WeChat
    Then the order is refused with HTTP 409 and code 1101
    And alice has no orders

  Scenario Outline: A batch the server refuses
    When alice orders <level> for 12 months for <devices> at the price shown
    Then the order is refused with HTTP <status> and code <code>
    And alice has no orders

    Examples: Devices of different types
      | devices                                     | level  | status | code |
      | "Cold room A logger" and "Truck 12 tracker" | 基础版 | 409    | 1103 |
      | "Cold room A logger" and "Dock cold room"   | 基础版 | 409    | 1103 |
      | "Pharmacy freezer" and "Dock cold room"     | 专业版 | 409    | 1103 |

    Examples: A free level
      | devices                                          | level  | status | code |
      | "Cold room A logger" and "Vaccine fridge logger" | 免费版 | 409    | 1102 |

    Examples: Another customer's device
      | devices                                            | level  | status | code |
      | "Cold room A logger" and "Warehouse 1 door logger" | 基础版 | 404    | 404  |

  Scenario Outline: The price of a batch the server refuses
    When alice asks the price of 基础版 for 12 months for <devices>
    Then the answer is refused with HTTP <status> and code <code>

    Examples:
      | devices                                            | status | code |
      | "Cold room A logger" and "Truck 12 tracker"        | 409    | 1103 |
      | "Cold room A logger" and "Warehouse 1 door logger" | 404    | 404  |

  Scenario Outline: A free level cannot be ordered
    When alice orders 免费版 for 12 months for "<device>" paying 0 cents by WeChat
    Then the order is refused with HTTP 409 and code 1102
    And alice has no orders

    Examples:
      | device                |
      | Vaccine fridge logger |
      | Cold room A logger    |
      | Dock cold room        |
      | Cold room B logger    |

  Scenario: Another customer's device
    When alice orders 基础版 for 12 months for "Warehouse 1 cold room" paying 9900 cents by WeChat
    Then the order is refused with HTTP 404 and code 404
    And alice has no orders

  Scenario: A change of level waits until the automatic renewal is cancelled
    Given "Pharmacy freezer" renews 专业版 automatically for 19900 cents
    When alice orders 基础版 for 12 months for "Pharmacy freezer" paying 9900 cents by WeChat
    Then the order is refused with HTTP 409 and code 1107
    When alice orders 专业版 for 12 months for "Pharmacy freezer" paying 15900 cents by WeChat
    Then the order is placed with a QR code to scan
    When alice cancels the automatic renewal of "Pharmacy freezer"
    Then "Pharmacy freezer" renews nothing automatically
    When alice orders 基础版 for 12 months for "Pharmacy freezer" paying 9900 cents by WeChat
    Then the order is placed with a QR code to scan
    When alice cancels the automatic renewal of "Pharmacy freezer"
    Then the answer is refused with HTTP 409 and code 1110

  Scenario: An invoice needs saved invoice details
    When alice orders 基础版 for 12 months for "Cold room A logger" paying 9900 cents by WeChat with an invoice but no invoice details
    Then the order is refused with HTTP 409 and code 1105
    And alice has no orders
    Given alice has saved personal invoice details sent by e-mail to alice@example.com
    When alice orders 基础版 for 12 months for "Cold room A logger" paying 9900 cents by WeChat with an invoice to her saved details
    Then the order is placed with a QR code to scan
    And the order asks for an invoice

  Scenario: Another customer's invoice details
    Given acme has logged in
    And acme has saved personal invoice details sent by e-mail to it@acme.example
    When alice orders 基础版 for 12 months for "Cold room A logger" paying 9900 cents by WeChat with an invoice to acme's saved details
    Then the order is refused with HTTP 404 and code 404
    And alice has no orders

  Scenario Outline: Only the payment methods of the domestic console
    When alice orders 基础版 for 12 months for "Cold room A logger" paying 9900 cents by <method>
    Then the order is refused with HTTP 409 and code 1108
    And alice has no orders

    Examples:
      | method          |
      | PayPal          |
      | Google Pay      |
      | the card button |
