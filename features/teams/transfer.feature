Feature: Transferring a device to another account
  A device can be handed over to another account, with its history, alarm rules and service. The
  owner is told first what the transfer drops (its shares); after it, the old owner and everyone it
  was shared with lose the device at once.

  Background:
    Given the demo accounts and the service catalogue exist
    And alice has logged in
    And bob has logged in
    And acme has logged in

  Scenario: alice transfers her cold room to bob
    Given alice shares her Dock cold room with acme under "View only"
    When alice asks what a transfer of her Dock cold room would drop
    Then she is told it drops 1 share
    When alice transfers her Dock cold room to bob
    Then alice does not see the Dock cold room
    And acme does not see the Dock cold room
    And bob owns the Dock cold room with all its readings
