Feature: Sessions
  A customer logs in with a user name and password and receives a token that opens the console
  for seven days. Logging out ends the token at once. A call with an expired or revoked token is
  answered with code 2010, "Logon timeout, please login again", in the caller's language.

  Background:
    Given the demo accounts exist

  Scenario: A token opens the console for seven days and no longer
    Given alice has logged in
    When 6 days and 23 hours pass
    Then alice's token opens her account information
    When 1 more hour passes
    Then a call with alice's token is refused with HTTP 401 and code 2010

  Scenario Outline: Logging out revokes the token at once
    Given alice has logged in
    When alice logs out with <call>
    Then a call with alice's token is refused with HTTP 401 and code 2010
    And a new login of alice still works

    Examples:
      | call                            |
      | GET /base/BaseAccount/loginOut  |
      | POST /base/auth/logout          |

  Scenario Outline: The login timeout message follows the caller's language
    Given alice has logged in
    And alice has logged out
    When alice calls her account information in <language>
    Then the answer has HTTP 401, code 2010 and the message "<message>"

    Examples:
      | language | message                           |
      | zh-CN    | 登录超时，请重新登录                  |
      | en-US    | Logon timeout, please login again |
      | zh-TW    | 登入逾時，請重新登入                  |

  Scenario: A call without a token is refused the same way
    When someone calls the account information without a token
    Then the answer has HTTP 401, code 2010 and the message "Logon timeout, please login again"
