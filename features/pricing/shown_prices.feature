Feature: The price charged is the price shown
  Every catalogue price names its currency (ISO 4217), and the console shows an amount by its
  currency: yuan (CNY) whole, dollars (USD) to the cent. Whatever the console shows is what the
  customer pays, so a price is computed in what its currency shows: a discounted yuan price is cut
  down to a whole yuan, in the customer's favour (never rounded up, also not 99.995 to 100); a dollar
  price is rounded half up to the cent. The drawer's quote, the order, the request to WeChat Pay,
  Alipay, Stripe or PayPal and the invoice all carry that amount, and an order's total is the sum of
  the prices shown. (tests/integration/test_shown_equals_charged.py compares, for the whole demo
  catalogue, the drawer's figures with what the payment sandbox was asked to charge.)

  Scenario Outline: A year option costs what its currency shows
    Given the price list is in <currency>
    And a year option of 12 months listed at <listed> cents with a normal discount of <normal>
    And <activity>
    When the year option is priced for a device without a SIM
    Then one device pays <price> cents
    And the price reads "<shown>" on the console

    Examples: Yuan are whole, cut down
      | currency | listed | normal | activity                                                    | price | shown | exactly |
      | CNY      | 19900  | 100    | an activity in force offering 80 percent and 2 bonus months | 15900 | 159   | 159.20  |
      | CNY      | 37800  | 95     | an activity in force offering 75 percent and 3 bonus months | 28300 | 283   | 283.50  |
      | CNY      | 18800  | 95     | no activity                                                 | 17800 | 178   | 178.60  |
      | CNY      | 26900  | 90     | no activity                                                 | 24200 | 242   | 242.10  |
      | CNY      | 9900   | 100    | no activity                                                 | 9900  | 99    | 99      |
      | CNY      | 9950   | 100    | no activity                                                 | 9900  | 99    | 99.50   |
      | CNY      | 19999  | 50     | no activity                                                 | 9900  | 99    | 99.995  |

    Examples: Dollars are to the cent, rounded half up
      | currency | listed | normal | activity                                                    | price | shown | exactly |
      | USD      | 3990   | 100    | an activity in force offering 80 percent and 2 bonus months | 3192  | 31.92 | 31.92   |
      | USD      | 7590   | 95     | an activity in force offering 75 percent and 3 bonus months | 5693  | 56.93 | 56.925  |
      | USD      | 3790   | 95     | no activity                                                 | 3601  | 36.01 | 36.005  |
      | USD      | 1990   | 100    | no activity                                                 | 1990  | 19.90 | 19.90   |

  Scenario Outline: The data fee is part of the price cut down
    Given the price list is in CNY
    And a year option of 12 months listed at 9900 cents with a normal discount of 95
    And the year option adds a data fee of 2050 cents
    And no activity
    When the year option is priced for a device with <sim>
    Then one device pays <price> cents
    And the price reads "<shown>" on the console

    Examples:
      | sim                            | price | shown | exactly |
      | no SIM                         | 9400  | 94    | 94.05   |
      | a SIM with an active data plan | 11300 | 113   | 113.525 |

  Scenario Outline: A batch costs the sum of the prices shown
    Given the price list is in <currency>
    And a year option of 12 months listed at 19900 cents with a normal discount of 100
    And an activity in force offering 80 percent and 2 bonus months
    When the year option is priced for <count> devices without a SIM
    Then the order costs <total> cents
    And the total reads "<shown>" on the console

    Examples: Yuan
      | currency | count | total | shown |
      | CNY      | 1     | 15900 | 159   |
      | CNY      | 2     | 31800 | 318   |
      | CNY      | 3     | 47700 | 477   |

    Examples: Dollars
      | currency | count | total | shown  |
      | USD      | 1     | 15920 | 159.20 |
      | USD      | 2     | 31840 | 318.40 |

  Scenario Outline: An SMS or voice package costs what its currency shows
    Given the price list is in <currency>
    And <kind> package listed at <fee> cents with a normal discount of <normal> and no activity discount
    Then one device pays <price> cents for the package
    And the package's price reads "<shown>" on the console

    Examples:
      | currency | kind    | fee  | normal | price | shown | exactly |
      | CNY      | an SMS  | 4500 | 90     | 4000  | 40    | 40.50   |
      | CNY      | an SMS  | 8000 | 90     | 7200  | 72    | 72      |
      | CNY      | a voice | 1550 | 100    | 1500  | 15    | 15.50   |
      | USD      | an SMS  | 2000 | 90     | 1800  | 18.00 | 18      |
      | USD      | an SMS  | 4500 | 90     | 4050  | 40.50 | 40.50   |

  Scenario: Prices of two currencies are never added up
    Then a price in CNY cannot be added to one in USD
    And a price in USD cannot be added to one in CNY
