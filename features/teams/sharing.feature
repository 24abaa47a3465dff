Feature: Sharing a device under a permission template
  An owner shares devices with another account under a permission template that says, for each
  element of a device (real-time data, chart, alarm records, push configuration, map, basic
  information, parameters, recharge, energy, operation log, maintenance records), whether it is
  visible and whether it is operable. The server checks the template on every call: a sharee never
  sees or does more than it grants, and loses the device the moment the share is revoked or ends.

  Background:
    Given the demo accounts and the service catalogue exist
    And alice has logged in
    And bob has logged in

  Scenario: bob reads a device shared view-only and can change nothing
    When alice shares her Dock cold room with bob under "View only"
    Then bob's device list shows the Dock cold room shared by alice
    And bob can read the Dock cold room's chart
    But every change bob tries on the Dock cold room is refused as read-only

  Scenario: a template shows only what it grants, and a change of it applies at once
    Given alice has a template "Chart only" granting the chart visible
    When alice shares her Dock cold room with bob under "Chart only"
    Then bob can read the Dock cold room's chart
    But bob is refused the Dock cold room's alarm records and parameters
    When alice changes "Chart only" to grant the parameters operable too
    Then bob can read the Dock cold room's parameters

  Scenario: revoking takes the device away at once
    Given alice shares her Dock cold room with bob under "View only"
    When alice revokes her share of the Dock cold room with bob
    Then bob does not see the Dock cold room

  Scenario: a share ends at its end time
    Given alice shares her Dock cold room with bob under "View only" for 1 day
    Then bob can read the Dock cold room's chart
    When the day of the share has passed
    Then bob does not see the Dock cold room
    And alice's shares list it as ended
