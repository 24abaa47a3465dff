Feature: A new customer's first day
  A company that has never used the console signs up, adds its first logger by the GUID printed on
  it, and connects the logger with the broker login the console shows once. The logger reports to
  the console's Mosquitto, where each device logs in as itself and publishes only under its own
  GUID. The customer limits the logger to 2-8 °C and buys SMS for its alarms; a reading outside the
  limits that lasts the rule's delay becomes an alarm in the message centre and an SMS, taken from
  the logger's prepaid count.

  Background:
    Given the demo accounts and the service catalogue exist
    And the console's broker and an ingest worker are running
    And a code for signing up is sent to 13912345678
    And "nina_01" signs up with that code and the password "Fresh#Pass2026"

  Scenario: From sign-up to the first alarm
    When nina_01 adds her logger NINA00000001 by its GUID
    Then her logger has two months of service free and no SMS
    And she was shown her logger's broker login once
    When her logger logs in with that login over MQTT 5 and publishes 5.0 °C
    Then nina_01's device list shows her logger at 5.0 °C
    When nina_01 limits her logger to 2-8 °C with a 5-minute delay, texting 13912345678 at level 1
    And nina_01 buys 100 SMS for her logger and the payment notification arrives
    Then her logger has 100 SMS to spend
    When her logger publishes 9.5 °C for 6 minutes
    Then nina_01's message centre shows 1 untreated alarm of her logger
    And an SMS about her logger goes to 13912345678
    And her logger has 99 SMS to spend

  Scenario: A logger's login is its own
    When nina_01 adds her logger NINA00000001 by its GUID
    Then the broker refuses her logger without its password
    And a reading her logger publishes under another device's GUID is not stored
