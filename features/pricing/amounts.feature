Feature: Amounts on the price cards
  Prices are kept in cents and shown divided by 100. The domestic console shows whole yuan, cut
  off rather than rounded up; the international console shows dollars with two decimals. An
  amount of 0, or anything that is not a number, shows "--" instead of a price.

  Scenario Outline: An amount as each edition shows it
    When <cents> cents are shown on the <edition> console
    Then the price reads "<shown>"

    Examples: Domestic prices are whole yuan, never rounded up
      | edition  | cents | shown |
      | domestic | 9900  | 99    |
      | domestic | 9999  | 99    |
      | domestic | 15920 | 159   |
      | domestic | 99900 | 999   |
      | domestic | 101   | 1     |
      | domestic | 99    | 0     |

    Examples: International prices keep two decimals
      | edition       | cents | shown  |
      | international | 9900  | 99.00  |
      | international | 1990  | 19.90  |
      | international | 15920 | 159.20 |
      | international | 9999  | 99.99  |
      | international | 5     | 0.05   |

    Examples: No amount shows two dashes
      | edition       | cents | shown |
      | domestic      | 0     | --    |
      | international | 0     | --    |

  Scenario Outline: Something that is not an amount shows two dashes
    When <something> is shown as a price on the <edition> console
    Then the price reads "--"

    Examples:
      | something                 | edition       |
      | a missing amount          | domestic      |
      | a missing amount          | international |
      | the text "99"             | domestic      |
      | the text "free"           | international |
      | a value that is no number | domestic      |
      | an endless value          | international |
      | a yes-or-no value         | domestic      |
