Feature: SMS and voice packages the operator sells per country code
  A country code has at most 5 SMS packages and 5 voice packages. The operator adds them one by
  one or imports them from a spreadsheet, whose report says for every row whether it was added
  and, if not, which cell was refused and why. Customers see the packages as the operator leaves them.

  Background:
    Given the demo accounts and the service catalogue exist
    And operator has logged in
    And alice has logged in

  Scenario: A sixth SMS package of a country code is refused
    Given the operator has added 5 SMS packages for country code 44
    When the operator adds an SMS package for country code 44
    Then the operator is told "A country code may have at most 5 SMS packages and 5 voice packages"
    And country code 44 has 5 SMS packages and 0 voice packages

  Scenario: Voice packages and other country codes are counted apart
    Given the operator has added 5 SMS packages for country code 44
    When the operator adds a voice package for country code 44
    And the operator adds an SMS package for country code 49
    Then country code 44 has 5 SMS packages and 1 voice packages
    And country code 49 has 1 SMS packages and 0 voice packages

  Scenario: An import adds up to the limit and reports the rest
    Given the operator has added 4 SMS packages for country code 44
    When the operator imports 3 SMS packages for country code 44
    Then the import report adds 1 row and refuses 2 rows on the country code
    And country code 44 has 5 SMS packages and 0 voice packages

  Scenario Outline: An import row breaking a rule is refused with its reason
    When the operator imports the row "<row>"
    Then the import report refuses the row on <field> saying "<reason>"

    Examples:
      | row                              | field       | reason                                                 |
      | fax,44,Fax,100,CNY,10,100        | kind        | The kind is SMS or voice                               |
      | SMS,044,SMS,100,CNY,10,100       | countryCode | A country code is 1 to 4 digits, not starting with 0   |
      | SMS,44,SMS,lots,CNY,10,100       | packageFee  | The fee must be a whole number of cents from 0         |
      | SMS,44,SMS,100,XYZ,10,100        | currency    | Unknown currency                                       |
      | SMS,44,SMS,100,CNY,0,100         | smsCount    | The count must be at least 1                           |
      | SMS,44,SMS,100,CNY,10,101        | discount    | A discount is a percentage from 1 to 100               |
      | SMS,44,An SMS package name too long,100,CNY,10,100 | packageName | At most 20 characters              |

  Scenario: The customer no longer sees a package the operator turned off
    When the operator turns off the first SMS package of country code 86
    Then alice is not offered that SMS package for country code 86
