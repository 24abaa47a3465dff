Feature: Changing the level of a device, as the customer sees and gets it
  Before paying, the paying drawer asks the server what each device will have once paid (the
  quote), from the device's own level and expiry, by the rule of features/pricing/level_changes.feature:
  the same level is extended; another level converts the remaining time at its value into days of
  the new level, then adds the months bought; nothing is converted from a free level or an expired
  service. The order placed keeps that result as its promise for each device, and the device gets
  exactly it when the order is paid, provided the device is still as it was quoted (same level,
  same expiry). A device that changed in between (another order of it paid first: one for other
  devices too, since a new order for exactly the same devices closes the earlier one) gets the rule
  applied to it as it is at the payment, and the order line records that it was computed anew.

  The demo catalogue: 基础版 99 yuan for 12 months, 188 for 24; 专业版 199 for 12 months, which the
  双11促销 activity sells at 80 % with 2 bonus months, and 999 for life. A day of 专业版 is worth
  19900/9900 days of 基础版. Every instant is at 10:00 in Shanghai, the console's time zone.

  Background:
    Given the console's clock reads 2030-03-01 10:00 in Shanghai
    And the demo accounts and the service catalogue exist
    And alice has logged in

  Scenario Outline: The drawer says what the device will have, and the device gets exactly that
    Given "<device>" is on <from> until <expiry>
    When alice asks what <level> for <months> months gives "<device>"
    Then the quote for "<device>" says <change>: <from> until <expiry>, <remaining> days become <converted>, then <level> until <until>, for <price> cents
    When alice orders <level> for <months> months for "<device>" at the price shown
    Then the order promises "<device>" <level> until <until>
    When the payment notification arrives 1 time
    Then the order is paid
    And "<device>" is on <level> until <until>
    And the order says "<device>" got <level> until <until> as promised

    Examples: An upgrade converts the remaining days of 基础版 into fewer days of 专业版
      | device             | from   | expiry     | level  | months | change    | remaining | converted | until      | price |
      | Cold room A logger | 基础版 | 2031-04-01 | 专业版 | 12     | converted | 396       | 197       | 2031-11-14 | 15900 |
      | Cold room B logger | 基础版 | 2030-09-17 | 专业版 | 12     | converted | 200       | 99        | 2031-08-08 | 15900 |

    Examples: A downgrade converts the remaining days of 专业版 into more days of 基础版
      | device             | from   | expiry     | level  | months | change    | remaining | converted | until      | price |
      | Cold room A logger | 专业版 | 2031-04-01 | 基础版 | 12     | converted | 396       | 796       | 2033-05-05 | 9900  |
      | Cold room A logger | 专业版 | 2030-06-09 | 基础版 | 24     | converted | 100       | 201       | 2032-09-18 | 17800 |

    Examples: The same level is extended from its expiry
      | device             | from   | expiry     | level  | months | change   | remaining | converted | until      | price |
      | Cold room A logger | 基础版 | 2031-04-01 | 基础版 | 24     | extended | 0         | 0         | 2033-04-01 | 17800 |
      | Cold room A logger | 专业版 | 2030-04-15 | 专业版 | 12     | extended | 0         | 0         | 2031-06-15 | 15900 |

    Examples: From a free level, or an expired service, the term starts now
      | device                | from   | expiry     | level  | months | change    | remaining | converted | until      | price |
      | Vaccine fridge logger | 免费版 | 2030-05-01 | 基础版 | 12     | fromFree  | 61        | 0         | 2031-03-01 | 9900  |
      | Vaccine fridge logger | 免费版 | 2030-02-14 | 专业版 | 12     | startsNow | 0         | 0         | 2031-05-01 | 15900 |
      | Cold room A logger    | 专业版 | 2030-02-14 | 基础版 | 12     | startsNow | 0         | 0         | 2031-03-01 | 9900  |

    Examples: A lifelong option
      | device             | from   | expiry     | level  | months | change   | remaining | converted | until      | price |
      | Cold room A logger | 基础版 | 2031-04-01 | 专业版 | 1200   | lifelong | 0         | 0         | 2099-12-31 | 99900 |

  Scenario: A batch of devices with different levels and expiries: each device gets its own result
    Given "Cold room A logger" is on 基础版 until 2031-04-01
    And "Cold room B logger" is on 基础版 until 2030-09-17
    And "Vaccine fridge logger" is on 免费版 until 2030-02-14
    When alice asks what 专业版 for 12 months gives "Cold room A logger", "Cold room B logger" and "Vaccine fridge logger"
    Then the quote reads:
      | device                | change    | from   | expiry     | remaining | converted | level  | until      | price |
      | Cold room A logger    | converted | 基础版 | 2031-04-01 | 396       | 197       | 专业版 | 2031-11-14 | 15900 |
      | Cold room B logger    | converted | 基础版 | 2030-09-17 | 200       | 99        | 专业版 | 2031-08-08 | 15900 |
      | Vaccine fridge logger | startsNow | 免费版 | 2030-02-14 | 0         | 0         | 专业版 | 2031-05-01 | 15900 |
    When alice orders 专业版 for 12 months for "Cold room A logger", "Cold room B logger" and "Vaccine fridge logger" paying 47700 cents by WeChat
    And the payment notification arrives 2 times
    Then the order is paid
    And "Cold room A logger" is on 专业版 until 2031-11-14
    And "Cold room B logger" is on 专业版 until 2031-08-08
    And "Vaccine fridge logger" is on 专业版 until 2031-05-01

  Scenario: A device that changed between the quote and the payment is computed again as it is then
    Given "Cold room A logger" is on 基础版 until 2031-04-01
    And alice has ordered 专业版 for 12 months for "Cold room A logger", as "the upgrade"
    And "the upgrade" promises "Cold room A logger" 专业版 until 2031-11-14
    And alice has ordered 基础版 for 12 months for "Cold room A logger" and "Cold room B logger", as "the renewal"
    And "the renewal" promises "Cold room A logger" 基础版 until 2032-04-01
    When "the renewal" is paid
    Then "Cold room A logger" is on 基础版 until 2032-04-01
    When "the upgrade" is paid
    Then "Cold room A logger" is on 专业版 until 2032-05-15
    And "the upgrade" says "Cold room A logger" got 专业版 until 2032-05-15, computed anew
    And "the renewal" says "Cold room A logger" got 基础版 until 2032-04-01 as promised

  Scenario Outline: The device gets what the order promised however late the payment arrives
    Given "Cold room B logger" is on 基础版 until 2030-03-21
    When alice orders 专业版 for 12 months for "Cold room B logger" at the price shown
    Then the order promises "Cold room B logger" 专业版 until 2031-05-10
    When <days> days pass
    And the payment notification arrives 1 time
    And alice logs in again
    Then the order is paid
    And "Cold room B logger" is on 专业版 until 2031-05-10
    And the order says "Cold room B logger" got 专业版 until 2031-05-10 as promised

    Examples: Paid before the expiry
      | days |
      | 10   |

    Examples: Paid after the expiry, and after the activity ended: the bonus months were ordered
      | days |
      | 25   |

  Scenario: A free level is neither quoted nor ordered
    When alice asks what 免费版 for 12 months gives "Cold room A logger"
    Then the answer is refused with HTTP 409 and code 1102
    When alice orders 免费版 for 12 months for "Cold room A logger" paying 0 cents by WeChat
    Then the order is refused with HTTP 409 and code 1102
    And alice has no orders

  Scenario Outline: A device with lifelong service keeps it
    When alice asks what <level> for <months> months gives "Truck 12 tracker"
    Then the answer has HTTP 409, code 1124 and the message "<message>"
    When alice orders <level> for <months> months for "Truck 12 tracker" paying <price> cents by WeChat
    Then the order is refused with HTTP 409 and code 1124
    And alice has no orders
    And "Truck 12 tracker" is on 专业版 until 2099-12-31

    Examples:
      | level  | months | price | message                                                                     |
      | 基础版 | 12     | 9900  | This device has lifelong service: another level can only be bought for life |
      | 专业版 | 12     | 15900 | This device already has lifelong service at this level                      |
      | 专业版 | 1200   | 99900 | This device already has lifelong service at this level                      |
