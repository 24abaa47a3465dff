Feature: A device renews itself automatically, charged on its date
  A customer paying a year of a level for one device may ask to renew automatically: the payment
  also authorises the provider to charge again. Once paid, the agreement is signed; a day before
  the service runs out the level is charged again with no one touching anything, the device gets
  a year more, and the customer is told before and after. A charge the provider declines is tried
  again a day later, then two days later; after the third failure the agreement ends and the
  customer is told. Cancelling it ends it at the provider too and nothing more is charged. Here
  the console's development gateway stands in for the provider (each provider's own recurring
  mechanism is tested against its sandbox).

  Background:
    Given the demo accounts and the service catalogue exist
    And alice has paid a year for "RCW360A0000001" asking to renew automatically

  Scenario: The renewal is charged on its date
    When the day before the service runs out comes and the renewal job runs
    Then the device's service runs a year longer
    And alice was told of the charge before and after it

  Scenario: Declined three times, the agreement ends
    Given the provider declines the next 3 charges
    When the day before the service runs out comes and the renewal job runs
    Then alice is told the renewal failed and will be tried again
    When a day passes and the renewal job runs
    And two days pass and the renewal job runs
    Then the automatic renewal has ended and alice is told
    And the device's service is as it was after her payment

  Scenario: Cancelled, nothing more is charged
    When alice turns off the automatic renewal of "RCW360A0000001"
    And the day before the service runs out comes and the renewal job runs
    Then the device's service is as it was after her payment
