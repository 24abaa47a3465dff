Feature: What an order costs
  Money is whole cents, never a fraction: a discount is applied to the listed price and rounded
  half up to the cent, as dollar prices are charged (a yuan price is then cut down to a whole yuan:
  shown_prices.feature). The total of an order is the per-device price times the number of devices.

  Background:
    Given the price list is in USD

  Scenario Outline: A discounted price is rounded half up to the cent
    When <percent> percent of <listed> cents is charged
    Then the charge is <charged> cents

    Examples:
      | listed | percent | charged | exactly |
      | 19900  | 80      | 15920   | 15920   |
      | 18800  | 95      | 17860   | 17860   |
      | 37800  | 75      | 28350   | 28350   |
      | 1990   | 75      | 1493    | 1492.5  |
      | 999    | 95      | 949     | 949.05  |
      | 1      | 50      | 1       | 0.5     |
      | 3      | 50      | 2       | 1.5     |
      | 149    | 1       | 1       | 1.49    |
      | 150    | 1       | 2       | 1.5     |
      | 9999   | 1       | 100     | 99.99   |
      | 0      | 80      | 0       | 0       |
      | 26900  | 100     | 26900   | 26900   |

  Scenario Outline: A batch costs the per-device price times the number of devices
    Given a year option of 24 months listed at 37800 cents with a normal discount of 95
    And an activity in force offering 75 percent and 3 bonus months
    When the year option is priced for <count> devices without a SIM
    Then the order costs <total> cents

    Examples:
      | count | total   |
      | 1     | 28350   |
      | 2     | 56700   |
      | 3     | 85050   |
      | 200   | 5670000 |

  Scenario: A price is a whole number of cents
    Then a price of 99.5 cents is refused
    And a price of 99 cents in CNY plus 1 cent in CNY is 100 cents in CNY
    And a price in CNY cannot be added to one in USD

  Scenario Outline: A discount outside 1 to 100 percent is a catalogue error
    When <percent> percent of 9900 cents is charged
    Then the discount is refused as a catalogue error

    Examples:
      | percent |
      | 0       |
      | 101     |
      | 120     |
      | -5      |
