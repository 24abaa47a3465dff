Feature: Durations and lifelong service
  A year option's duration is shown in months under a year, otherwise in years and the remaining
  months. An option of 1200 months or more is lifelong service, and so is a service expiring in the
  year 2099 or later: the console reads "lifelong" instead of a date.

  Scenario Outline: A duration under a year is shown in months
    When a year option of <months> months is shown
    Then its duration reads <months> month(s)

    Examples:
      | months |
      | 1      |
      | 3      |
      | 6      |
      | 11     |

  Scenario Outline: A duration of a year or more is shown in years and months
    When a year option of <months> months is shown
    Then its duration reads <years> year(s) and <rest> month(s)

    Examples:
      | months | years | rest |
      | 12     | 1     | 0    |
      | 13     | 1     | 1    |
      | 24     | 2     | 0    |
      | 30     | 2     | 6    |
      | 36     | 3     | 0    |
      | 1199   | 99    | 11   |

  Scenario Outline: A very long year option is lifelong
    When a year option of <months> months is shown
    Then its duration reads lifelong
    And the year option is lifelong service

    Examples:
      | months |
      | 1200   |
      | 1500   |

  Scenario Outline: Whether a year option is lifelong
    When a year option of <months> months is shown
    Then the year option <is or is not> lifelong service

    Examples:
      | months | is or is not |
      | 12     | is not       |
      | 1199   | is not       |
      | 1200   | is           |
      | 2400   | is           |

  Scenario Outline: A service expiring in 2099 or later reads lifelong
    When a service expiring at <expiry> is shown
    Then the expiry <reads> lifelong

    Examples:
      | expiry                    | reads         |
      | 2099-12-31T23:59:59+00:00 | reads         |
      | 2099-01-01T00:00:00+00:00 | reads         |
      | 2150-06-30T00:00:00+00:00 | reads         |
      | 2098-12-31T23:59:59+00:00 | does not read |
      | 2030-01-01T00:00:00+00:00 | does not read |
