Feature: The operation log
  Every change made through the console is recorded with it: who made it, when, from which address,
  what it changed and each field's old and new value. A refused attempt is recorded too, with nothing
  changed. Nobody can alter or remove an entry. A customer reads the log of what they did and own;
  an operator reads everybody's.

  Background:
    Given the demo accounts exist
    And alice has logged in
    And bob has logged in
    And operator has logged in

  Scenario: Renaming a device leaves an entry with the old and the new name
    When alice renames cold room A to "Cold room A east" from 10.0.0.7
    Then alice's operation log shows "Device.update" by alice from 10.0.0.7
    And that entry changed the device's name from "Cold room A logger" to "Cold room A east"
    And the device's log tab shows the same entry to alice

  Scenario: A refused change is recorded and changes nothing
    When bob renames cold room A to "Bob's now" from 10.0.0.8
    Then the answer is refused
    And cold room A is still named "Cold room A logger"
    And bob's operation log shows "Device.update" refused, with nothing changed

  Scenario: Reading leaves no trace
    When alice lists her devices and her alarms
    Then alice's operation log has no new entry

  Scenario: Each reader sees their own part, the operator sees all
    When alice renames cold room A to "Cold room A north" from 10.0.0.7
    Then bob's operation log does not show alice's entry
    And the operator's operation log shows alice's entry

  Scenario: An entry cannot be altered or removed
    When alice renames cold room A to "Cold room A south" from 10.0.0.7
    Then changing or removing the entry in the database is refused
