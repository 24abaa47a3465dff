Feature: Which discount a year option gets
  Every year option of a level has a normal discount, in percent of its listed price: 100 means
  none, 95 means the customer pays 95 %. A public activity may offer a year option at an activity
  discount, often with bonus months. While the activity is in force its discount takes precedence
  over the normal one, even when it is 100; before it starts and once it has ended the activity
  offers nothing, neither its discount nor its bonus months. The examples are dollar prices, charged
  to the cent; how yuan prices are cut to whole yuan is in shown_prices.feature.

  Background:
    Given the price list is in USD

  Scenario Outline: The activity in force takes precedence over the normal discount
    Given a year option of 12 months listed at 19900 cents with a normal discount of <normal>
    And <activity>
    When the year option is priced for a device without a SIM
    Then the device is charged <charged> percent of the listed price
    And one device pays <price> cents
    And the order gives <bonus> bonus months

    Examples: Without an activity the normal discount applies
      | normal | activity    | charged | price | bonus |
      | 100    | no activity | 100     | 19900 | 0     |
      | 95     | no activity | 95      | 18905 | 0     |
      | 90     | no activity | 90      | 17910 | 0     |

    Examples: An activity in force wins
      | normal | activity                                                              | charged | price | bonus |
      | 100    | an activity in force offering 80 percent and 2 bonus months           | 80      | 15920 | 2     |
      | 95     | an activity in force offering 75 percent and 3 bonus months           | 75      | 14925 | 3     |
      | 90     | an activity in force offering 100 percent and 2 bonus months          | 100     | 19900 | 2     |
      | 95     | an activity starting right now offering 80 percent and 2 bonus months | 80      | 15920 | 2     |

    Examples: An activity not in force counts for nothing
      | normal | activity                                                                | charged | price | bonus |
      | 95     | an activity that ended yesterday offering 80 percent and 2 bonus months | 95      | 18905 | 0     |
      | 95     | an activity starting tomorrow offering 80 percent and 2 bonus months    | 95      | 18905 | 0     |
      | 100    | an activity ending right now offering 75 percent and 3 bonus months     | 100     | 19900 | 0     |

  Scenario Outline: The discount badge of a price card
    When a discount of <discount> percent is shown on the <edition> console
    Then the badge reads "<badge>"

    Examples: Domestically the share charged, in tenths
      | discount | edition  | badge |
      | 80       | domestic | 8折   |
      | 75       | domestic | 7.5折 |
      | 95       | domestic | 9.5折 |
      | 90       | domestic | 9折   |
      | 50       | domestic | 5折   |
      | 5        | domestic | 0.5折 |

    Examples: Internationally the share taken off
      | discount | edition       | badge   |
      | 80       | international | 20% OFF |
      | 75       | international | 25% OFF |
      | 95       | international | 5% OFF  |
      | 1        | international | 99% OFF |

  Scenario Outline: No badge without a discount
    When a discount of 100 percent is shown on the <edition> console
    Then no badge is shown

    Examples:
      | edition       |
      | domestic      |
      | international |
