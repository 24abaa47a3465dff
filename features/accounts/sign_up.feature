Feature: Signing up and recovering a password
  A new customer signs up with a user name, a password and a code sent to their phone (or e-mail
  internationally); the code is good for ten minutes and once. A forgotten password is reset with
  a code and ends every session opened with the old one.

  Scenario: A new customer signs up with an SMS code
    When a code for signing up is sent to 13912345678
    And "carol_01" signs up with that code and the password "Fresh#Pass2026"
    Then "carol_01" is logged in as a personal customer
    And the same code does not work a second time

  Scenario Outline: Sign-up input is checked field by field
    When someone signs up as "<user name>" with the password "<password>"
    Then the answer has HTTP 422 with an error for <field>

    Examples:
      | user name | password       | field           |
      | 1carol    | Fresh#Pass2026 | userName        |
      | carol     | Fresh#Pass2026 | userName        |
      | carol_01  | fresh#pass2026 | accountPassword |
      | carol_01  | Fresh#Pass     | accountPassword |

  Scenario: A forgotten password is reset with a code and old sessions end
    Given the demo accounts exist
    And alice has logged in
    When a code for resetting the password is sent to 13800000001
    And the password of 13800000001 is reset with that code to "Fresh#Pass2026"
    Then a call with alice's token is refused with HTTP 401 and code 2010
    And "alice" can log in with the password "Fresh#Pass2026"
