Feature: Login throttling
  Failed logins slow an attacker down without locking the owner out, and without telling which
  user names exist. From one address, a second failure for a name makes that address wait before
  trying the name again (1 second, doubling, at most 5 minutes). After 3 failures for a name from
  anywhere, a login needs the image code as well, and so does every login from an address where
  10 names failed; the failure that brings it in tells the login page to show it, and from then on
  it stays needed for 15 minutes after it was last asked for. Failures from many addresses protect the account: the password alone is then
  refused for an hour, and the owner gets in with the image code or a code sent to them, and is
  told of the failures.

  Background:
    Given the demo accounts exist

  Scenario: Three failures ask for the image code instead of locking the owner out
    When someone fails to log in as "alice" from 3 addresses
    Then logging in as "alice" with the right password is refused with HTTP 409 and code 1014
    But "alice" can log in with the right password and the image code
    When 15 minutes pass
    Then "alice" can log in with the right password

  Scenario: Once the image code has been asked for, a login without it is refused for 15 minutes
    When someone fails to log in as "alice" from 3 addresses
    And 14 minutes pass
    Then logging in as "alice" with the right password is refused with HTTP 409 and code 1014
    # the failures are now out of their 15-minute window; the last ask is not
    When 14 minutes pass
    Then logging in as "alice" with the right password is refused with HTTP 409 and code 1014
    When 15 minutes pass
    Then "alice" can log in with the right password

  Scenario: The attacker's address is slowed, not the owner's
    When someone fails to log in as "alice" 2 times
    Then logging in as "alice" with the right password is refused with HTTP 429
    And the answer asks to retry within 1 seconds
    But "alice" can log in with the right password from 198.51.100.2

  Scenario: The answer does not tell whether the user exists
    When someone fails to log in as "alice" once
    And someone fails to log in as "nobody_here" once
    Then both failures got the same answer with HTTP 401 and code 1001

  Scenario: A name nobody has asks for the image code like a real one
    When someone fails to log in as "nobody_here" from 3 addresses
    Then logging in as "nobody_here" is refused with HTTP 409

  Scenario: Failures of many names from one address ask it for the image code, and refuse nobody
    When 10 logins with wrong passwords come from 203.0.113.7
    Then logging in as "alice" with the right password from 203.0.113.7 is refused with HTTP 409
    But "alice" can log in with the right password and the image code from 203.0.113.7
    And "alice" can log in with the right password from 198.51.100.2

  Scenario: A distributed attack protects the account; its owner gets in with a code sent to her
    When someone with the image code fails to log in as "alice" from 10 addresses
    Then logging in as "alice" with the right password is refused with HTTP 409 and code 1015
    And "alice" can log in with the right password and the image code
    When "alice" asks for a login code
    Then "alice" can log in with the code sent to "alice@example.com"
    And "alice@example.com" has been told of the failed logins
