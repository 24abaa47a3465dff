Feature: Electronic signatures (21 CFR Part 11)
  Where FDA mode is on, a change that matters is signed: the signer gives the password again, says what
  the signature means, and the signature binds the record as it is. The console shows each signature's
  printed name, date and time with the signer's time zone, and meaning.

  Acme Cold Chain is acme's organization: carol administers it, dave is a plain member who only reads.
  Its waybill "WB-1" carries the warehouse cold room.

  Background:
    Given the demo teams exist
    And Acme Cold Chain has the waybill "WB-1"

  Scenario: The first signature of a session takes the user name and the password, later ones the password
    When carol signs the waybill "WB-1" as reviewed with her password alone
    Then the signing is refused with HTTP 400 saying "Sign with your user name and password"
    When carol signs the waybill "WB-1" as reviewed with her user name and password
    Then the waybill "WB-1" shows 1 valid signature
    When 10 minutes pass
    And carol signs the waybill "WB-1" as approved with her password alone
    Then the waybill "WB-1" shows 2 valid signatures
    When 16 minutes pass
    And carol signs the waybill "WB-1" as approved with her password alone
    Then the signing is refused with HTTP 400 saying "Sign with your user name and password"

  Scenario: Five wrong passwords lock signing and the organization's administrators are told
    When carol signs the waybill "WB-1" as reviewed with a wrong password 4 times
    Then the signing is refused with HTTP 403 saying "The user name or password is wrong. Attempts left before signing is locked: 1"
    When carol signs the waybill "WB-1" as reviewed with a wrong password 1 time
    Then the signing is refused with HTTP 423
    And carol is told that her electronic signing is locked
    And acme is told that electronic signing is locked for carol
    And dave is told nothing
    When carol signs the waybill "WB-1" as reviewed with her user name and password
    Then the signing is refused with HTTP 423
    When acme unlocks carol's signing
    And carol signs the waybill "WB-1" as reviewed with her user name and password
    Then the waybill "WB-1" shows 1 valid signature

  Scenario: A signature shows the printed name, the local time with its zone and the meaning
    Given carol's real name is "Carol Chen"
    When carol signs the waybill "WB-1" as approved in Asia/Shanghai with the reason "Released for shipping"
    Then the waybill "WB-1" shows a signature of "Carol Chen" meaning "Approved" with the reason "Released for shipping" at a local time of offset +08:00
    And read in zh-CN its meaning is "已批准"

  Scenario: The second signer must be another person when the endorsement says so
    Given Acme Cold Chain's endorsement "QA release" approves waybills with a second signer who must differ
    When acme signs the waybill "WB-1" under "QA release"
    And acme signs the waybill "WB-1" under "QA release"
    Then the signing is refused with HTTP 409 saying "This record needs the signature of another person: you have already signed it"
    When carol signs the waybill "WB-1" under "QA release"
    Then the waybill "WB-1" shows 2 valid signatures

  Scenario: A read-only member signs only as an endorsement names them
    When dave signs the waybill "WB-1" as reviewed with his user name and password
    Then the signing is refused with HTTP 403 saying "You may sign only records you may change, or as an endorsement names you"
    Given Acme Cold Chain's endorsement "Reviewers" lets its plain members review waybills
    When dave signs the waybill "WB-1" under "Reviewers"
    Then the waybill "WB-1" shows 1 valid signature

  Scenario: Changing the alarm limits makes the parameters' earlier signature no longer valid
    Given the warehouse cold room watches 2 to 8 °C
    And Acme Cold Chain has FDA mode on
    When acme saves the warehouse cold room's parameters signed with her user name and password
    Then the warehouse cold room's parameters show 1 valid signature
    When acme changes the warehouse cold room's upper limit to 6 °C without a signature
    Then the signing is refused with HTTP 428 saying "This change needs your electronic signature"
    And the warehouse cold room's parameters show 1 valid signature
    When acme changes the warehouse cold room's upper limit to 6 °C signed with her password
    Then the warehouse cold room's parameters show a signature no longer valid, then a valid one

  Scenario: A changed waybill shows its signatures as no longer valid
    When acme signs the waybill "WB-1" as approved with her user name and password
    And acme renames the waybill "WB-1" to "WB-1A"
    Then the waybill "WB-1A" shows 1 signature no longer valid

  Scenario: Handling an alarm is signed, and a wrong password changes nothing
    Given the warehouse cold room has an alarm waiting to be handled
    And Acme Cold Chain has FDA mode on
    When carol approves the alarm with the result "Door closed" without a signature
    Then the signing is refused with HTTP 428 saying "This change needs your electronic signature"
    When carol approves the alarm with the result "Door closed" signed with a wrong password
    Then the signing is refused with HTTP 403
    And the alarm is still untreated
    When carol approves the alarm with the result "Door closed" signed with her user name and password
    Then the alarm is treated and shows carol's signature meaning "Responsible" with the reason "Door closed"

  Scenario: A stranger neither reads nor signs the organization's records, a sharee signs none of the owner's
    When alice signs the waybill "WB-1" as approved with her user name and password
    Then the signing is refused with HTTP 404 saying "Not found"
    When bob signs the parameters of alice's cold room A, which she shares with him, with his user name and password
    Then the signing is refused with HTTP 403 saying "You may sign only records you may change, or as an endorsement names you"
