Feature: Signed data exports (21 CFR Part 11)
  Where FDA mode is on for a device's organization (else its owner), who asks for an export of the
  device's readings signs it, meaning "authored", in the call that asks for it. Every file of the
  export states the signature's printed name, date and time with the signer's time zone, and
  meaning, and whether the audit trail verified when the file was written, with the trail's newest
  hash. The device list is not signed, and with FDA mode off nothing is asked.

  Acme Cold Chain is acme's organization: carol administers it.

  Background:
    Given the demo teams exist
    And carol's real name is "Carol Chen"
    And Acme Cold Chain has FDA mode on

  Scenario: An export under FDA mode is signed and says whether the trail verified
    When carol exports the warehouse cold room's readings as XLSX without a signature
    Then the signing is refused with HTTP 428 saying "This change needs your electronic signature"
    When carol exports the warehouse cold room's readings as XLSX signed with a wrong password
    Then the signing is refused with HTTP 403
    And carol has asked for no export
    When carol exports the warehouse cold room's readings as XLSX signed with her user name and password
    Then the export's file states the signature of "Carol Chen (carol)" meaning "Authored"
    And the export's file states that the audit trail verified, with its newest hash
    And the export shows 1 valid signature of carol
    When a superuser edits the first entry of Acme Cold Chain's audit trail
    And carol exports the warehouse cold room's readings as PDF signed with her password
    Then the export's file states the signature of "Carol Chen (carol)" meaning "Authored"
    And the export's file states that the audit trail is broken at entry 1
