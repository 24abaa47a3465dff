Feature: Asset state
  An asset is a thing kept cold, watched by up to five devices. It is enabled or disabled, which
  sets all its devices and their alarm settings alike: disabling an asset disables its devices and
  switches their alarm rules off, so they raise no alarm and alert nobody; enabling it switches back
  on the rules that disabling switched off. A rule its user had switched off stays off.

  alice's demo asset, the pharmacy vaccine store, is watched by the vaccine fridge and the pharmacy
  freezer. The vaccine fridge's rule allows 2 to 8 °C with a 5-minute delay.

  Background:
    Given the demo accounts exist
    And alice has logged in

  Scenario: Disabling an asset disables its devices' alarms
    When alice disables the pharmacy vaccine store
    Then the pharmacy vaccine store shows as disabled
    And the vaccine fridge is disabled and its alarm rule is off
    When the vaccine fridge reads 9.5 °C for 6 minutes
    Then alice's message centre shows no alarm
    And nothing is sent

  Scenario: Enabling an asset restores its devices' alarms
    Given alice has disabled the pharmacy vaccine store
    When alice enables the pharmacy vaccine store
    Then the pharmacy vaccine store shows as enabled
    And the vaccine fridge is enabled and its alarm rule is on
    When the vaccine fridge reads 9.5 °C for 6 minutes
    Then alice's message centre shows 1 untreated alarm of the vaccine fridge at level 1

  Scenario: A rule switched off by hand stays off after the asset is enabled again
    Given alice has bound the cold room A to the pharmacy vaccine store
    When alice switches off the rule of the cold room A
    And alice disables the pharmacy vaccine store
    And alice enables the pharmacy vaccine store
    Then the vaccine fridge is enabled and its alarm rule is on
    And the cold room A is enabled and its alarm rule is off

  Scenario: A device bound to a disabled asset is disabled alike
    Given alice has disabled the pharmacy vaccine store
    When alice binds the cold room A to the pharmacy vaccine store
    Then the cold room A is disabled and its alarm rule is off
    When alice unbinds the cold room A from the pharmacy vaccine store
    Then the cold room A is enabled and its alarm rule is on
