Feature: What buying a service level gives a device
  Buying the level a device already has extends its term from its expiry (from today once it has
  expired). Buying another level, up or down, never loses paid time nor gives it away: the unused
  remainder of the current level, from now to its expiry, is converted at its value into time at
  the new level (credit proration), and the months bought, with any bonus months, follow:

    converted days = remaining time x current daily price / new daily price, rounded down to whole days

  so the customer loses less than one day of the new level to rounding. A level's daily price is
  the list price, before any discount, of its 12-month option (else of its first option, else of
  its first other option with a term), with the data fee when the device's SIM has an active data
  plan, spread over that option's term. The paying drawer shows the result for each device before
  payment, and the order keeps it as its promise (features/ordering/level_changes.feature).

  Nothing is converted, and the new term starts today, when the service has expired, or when the
  device has no level or a free one (its time was never paid for). A lifelong option gives
  lifelong service at its level. A device with lifelong service keeps it: another level can only
  be bought for life, and its own level cannot be bought again, since it would add nothing. A
  current level the catalogue no longer offers cannot be valued, so the change is refused rather
  than its remainder lost. A free level cannot be ordered at all.

  Every instant is at 10:00 in Shanghai.

  Background:
    Given the levels of the device's type:
      | level        | months | listed | data fee |
      | Free         | 12     | 0      | 0        |
      | Basic        | 12     | 9900   | 1000     |
      | Basic        | 24     | 18800  | 2000     |
      | Professional | 12     | 19900  | 1000     |
      | Professional | 24     | 37800  | 2000     |
      | Professional | 1200   | 99900  | 0        |
      | Fleet        | 24     | 30000  | 0        |
      | Fleet        | 1200   | 90000  | 0        |
    And today is 2030-03-01

  Scenario Outline: The daily price of a level
    Then the daily price of <level> for a device with <sim> is <listed> cents for <months> months

    Examples: The 12-month option, before any discount
      | level        | sim                               | listed | months |
      | Basic        | no SIM                            | 9900   | 12     |
      | Professional | no SIM                            | 19900  | 12     |
      | Professional | a SIM without an active data plan | 19900  | 12     |

    Examples: The data fee counts with an active data plan
      | level        | sim                            | listed | months |
      | Basic        | a SIM with an active data plan | 10900  | 12     |
      | Professional | a SIM with an active data plan | 20900  | 12     |

    Examples: Without a 12-month option, the first option with a term
      | level | sim    | listed | months |
      | Fleet | no SIM | 30000  | 24     |

  Scenario: A free level's time is worth nothing
    Then a free level has no daily price

  Scenario Outline: Another level converts the remaining time at its value, then adds the months bought
    Given a device with <sim> on <from> until <expiry>
    When it buys <months> months of <to> with <bonus> bonus months
    Then its <remaining> remaining days of <from> become <converted> days of <to>
    And it is on <to> until <until>

    Examples: Upgrades: the remainder becomes fewer days of the dearer level
      | sim    | from  | expiry     | to           | months | bonus | remaining | converted | until      |
      | no SIM | Basic | 2031-04-01 | Professional | 12     | 2     | 396       | 197       | 2031-11-14 |
      | no SIM | Basic | 2031-04-01 | Professional | 24     | 3     | 396       | 197       | 2032-12-14 |
      | no SIM | Basic | 2030-09-17 | Professional | 12     | 0     | 200       | 99        | 2031-06-08 |
      | no SIM | Basic | 2031-03-01 | Fleet        | 24     | 0     | 365       | 240       | 2032-10-27 |

    Examples: Downgrades: the remainder becomes more days of the cheaper level
      | sim    | from         | expiry     | to    | months | bonus | remaining | converted | until      |
      | no SIM | Professional | 2031-04-01 | Basic | 12     | 0     | 396       | 796       | 2033-05-05 |
      | no SIM | Professional | 2031-08-14 | Basic | 12     | 0     | 531       | 1067      | 2034-01-31 |
      | no SIM | Professional | 2030-06-09 | Basic | 24     | 0     | 100       | 201       | 2032-09-18 |
      | no SIM | Fleet        | 2032-03-01 | Basic | 12     | 0     | 731       | 1107      | 2034-03-12 |

    Examples: Rounded down to whole days: less than a day of the new level is lost
      | sim    | from         | expiry     | to           | months | bonus | remaining | converted | until      |
      | no SIM | Basic        | 2030-03-02 | Professional | 12     | 0     | 1         | 0         | 2031-03-01 |
      | no SIM | Professional | 2030-03-02 | Basic        | 12     | 0     | 1         | 2         | 2031-03-03 |

    Examples: The data fee counts in both daily prices of a device with an active data plan
      | sim                               | from         | expiry     | to           | months | bonus | remaining | converted | until      |
      | a SIM with an active data plan    | Basic        | 2030-09-17 | Professional | 12     | 0     | 200       | 104       | 2031-06-13 |
      | a SIM with an active data plan    | Professional | 2030-06-09 | Basic        | 12     | 0     | 100       | 191       | 2031-09-08 |
      | a SIM without an active data plan | Professional | 2030-06-09 | Basic        | 12     | 0     | 100       | 201       | 2031-09-18 |

  Scenario Outline: The same level is extended from its expiry, or from today once expired
    Given a device with no SIM on <level> until <expiry>
    When it buys <months> months of <level> with <bonus> bonus months
    Then its term is extended, nothing converted
    And it is on <level> until <until>

    Examples:
      | level        | expiry     | months | bonus | until      |
      | Basic        | 2031-04-01 | 12     | 0     | 2032-04-01 |
      | Basic        | 2031-01-31 | 24     | 1     | 2033-02-28 |
      | Professional | 2030-04-15 | 12     | 2     | 2031-06-15 |
      | Basic        | 2030-02-14 | 12     | 0     | 2031-03-01 |

  Scenario Outline: Nothing to convert: the new term starts today
    Given a device with no SIM on <from> until <expiry>
    When it buys <months> months of <to> with <bonus> bonus months
    Then its term starts today: <reason>
    And it is on <to> until <until>

    Examples: The service has expired
      | from         | expiry     | to           | months | bonus | reason          | until      |
      | Basic        | 2030-02-14 | Professional | 12     | 2     | nothing is left | 2031-05-01 |
      | Professional | 2030-03-01 | Basic        | 12     | 0     | nothing is left | 2031-03-01 |

    Examples: A free level, or none: its time was never paid for
      | from     | expiry     | to           | months | bonus | reason                           | until      |
      | Free     | 2030-05-01 | Basic        | 12     | 0     | 61 days of Free are worth nothing | 2031-03-01 |
      | no level | 2030-05-01 | Professional | 24     | 3     | 61 days of no level are worth nothing | 2032-06-01 |

  Scenario Outline: A lifelong option gives lifelong service at its level
    Given a device with no SIM on <from> until <expiry>
    When it buys 1200 months of <to> with 0 bonus months
    Then it is on <to> for life

    Examples:
      | from         | expiry     | to           |
      | Basic        | 2031-04-01 | Professional |
      | Free         | 2030-02-14 | Professional |
      | Professional | for life   | Fleet        |

  Scenario Outline: A device with lifelong service keeps it
    Given a device with no SIM on Professional until for life
    When it buys <months> months of <to> with 0 bonus months
    Then the purchase is refused with code 1124: "<message>"

    Examples:
      | to           | months | message                                                                |
      | Basic        | 12     | This device has lifelong service: another level can only be bought for life |
      | Fleet        | 24     | This device has lifelong service: another level can only be bought for life |
      | Professional | 12     | This device already has lifelong service at this level                 |
      | Professional | 1200   | This device already has lifelong service at this level                 |

  Scenario Outline: A current level the catalogue no longer offers cannot be valued
    Given a device with no SIM on a withdrawn level until <expiry>
    When it buys 12 months of Basic with 0 bonus months
    Then <outcome>

    Examples:
      | expiry     | outcome                                                                       |
      | 2031-04-01 | the purchase is refused with code 1125: "The device's current level is no longer offered, so its remaining time cannot be converted: please contact customer service" |
      | 2030-02-14 | it is on Basic until 2031-03-01                                               |
