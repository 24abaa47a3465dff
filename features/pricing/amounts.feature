Feature: Amounts on the price cards
  Prices are kept in cents of their currency and shown divided by 100: yuan (CNY, the domestic
  console's) whole, cut off rather than rounded up; dollars (USD, the international console's) with
  two decimals. An amount is shown by its own currency: an order placed in yuan reads in yuan
  whatever the edition. An amount of 0, or anything that is not a number, shows "--" instead of a
  price. (Prices are computed in what their currency shows, so nothing is ever cut off a price:
  see shown_prices.feature.)

  Scenario Outline: An amount as its currency shows it
    When <cents> cents in <currency> are shown
    Then the price reads "<shown>"

    Examples: Yuan are whole, never rounded up
      | currency | cents | shown |
      | CNY      | 9900  | 99    |
      | CNY      | 9999  | 99    |
      | CNY      | 15920 | 159   |
      | CNY      | 99900 | 999   |
      | CNY      | 101   | 1     |
      | CNY      | 99    | 0     |

    Examples: Dollars keep two decimals
      | currency | cents | shown  |
      | USD      | 9900  | 99.00  |
      | USD      | 1990  | 19.90  |
      | USD      | 15920 | 159.20 |
      | USD      | 9999  | 99.99  |
      | USD      | 5     | 0.05   |

    Examples: No amount shows two dashes
      | currency | cents | shown |
      | CNY      | 0     | --    |
      | USD      | 0     | --    |

  Scenario Outline: Something that is not an amount shows two dashes
    When <something> is shown as a price in <currency>
    Then the price reads "--"

    Examples:
      | something                 | currency |
      | a missing amount          | CNY      |
      | a missing amount          | USD      |
      | the text "99"             | CNY      |
      | the text "free"           | USD      |
      | a value that is no number | CNY      |
      | an endless value          | USD      |
      | a yes-or-no value         | CNY      |
