Feature: Login throttling
  Repeated failures slow an attacker down without telling them which user names exist: after 5
  failures for one name within 15 minutes that name is refused for 15 minutes, and after 50
  failures from one address that address is refused for 15 minutes.

  Background:
    Given the demo accounts exist

  Scenario: Five failures lock the name for fifteen minutes
    When someone fails to log in as "alice" 5 times
    Then logging in as "alice" with the right password is refused with HTTP 429
    And the answer asks to retry within 900 seconds
    When 15 minutes pass
    Then "alice" can log in with the right password

  Scenario: A success in between starts the count again
    When someone fails to log in as "alice" 4 times
    And "alice" logs in with the right password
    And someone fails to log in as "alice" 4 times
    Then "alice" can log in with the right password

  Scenario: The answer does not tell whether the user exists
    When someone fails to log in as "alice" once
    And someone fails to log in as "nobody_here" once
    Then both failures got the same answer with HTTP 401 and code 1001

  Scenario: A name nobody has is locked like a real one
    When someone fails to log in as "nobody_here" 5 times
    Then logging in as "nobody_here" is refused with HTTP 429

  Scenario: Fifty failures from one address lock that address
    When 50 logins with wrong passwords come from 203.0.113.7
    Then logging in as "alice" with the right password from 203.0.113.7 is refused with HTTP 429
    But "alice" can log in with the right password from 198.51.100.2
