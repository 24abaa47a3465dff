Feature: Prices and stock of SMS and voice packages
  SMS and voice packages are sold per country code. Their price follows the same discount rule as
  a year option, with one exception: a voice package ignores an activity discount of 100 (it says
  nothing there, so the normal discount stands). A device with 50 SMS or voice calls left or fewer
  shows the count in red, above 50 in green. The prices here are in dollars, charged to the cent.

  Background:
    Given the price list is in USD

  Scenario Outline: What one device pays for a package
    Given <kind> package listed at <fee> cents with a normal discount of <normal> and <activity>
    Then one device pays <price> cents for the package

    Examples: The normal discount
      | kind    | fee  | normal | activity             | price |
      | an SMS  | 1000 | 100    | no activity discount | 1000  |
      | an SMS  | 4500 | 90     | no activity discount | 4050  |
      | an SMS  | 8000 | 90     | no activity discount | 7200  |
      | a voice | 1500 | 100    | no activity discount | 1500  |
      | a voice | 5000 | 90     | no activity discount | 4500  |

    Examples: An activity discount takes precedence
      | kind    | fee  | normal | activity                   | price |
      | an SMS  | 5000 | 90     | an activity discount of 80 | 4000  |
      | a voice | 5000 | 90     | an activity discount of 80 | 4000  |
      | an SMS  | 5000 | 80     | an activity discount of 90 | 4500  |

    Examples: Voice ignores an activity discount of 100, SMS does not
      | kind    | fee  | normal | activity                    | price |
      | an SMS  | 5000 | 90     | an activity discount of 100 | 5000  |
      | a voice | 5000 | 90     | an activity discount of 100 | 4500  |
      | a voice | 5000 | 100    | an activity discount of 100 | 5000  |

  Scenario Outline: Few SMS or voice calls left show in red
    When a device with <count> <what> left is shown
    Then the count shows in <colour>

    Examples:
      | count | what        | colour |
      | 0     | SMS         | red    |
      | 10    | SMS         | red    |
      | 50    | SMS         | red    |
      | 51    | SMS         | green  |
      | 800   | SMS         | green  |
      | 50    | voice calls | red    |
      | 51    | voice calls | green  |
