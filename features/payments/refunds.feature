Feature: An operator refunds an order and the service it gave is taken back
  A refund pays back all or part of a paid order through the provider it was paid with, with the
  operator's reason. The service the order gave is taken back in the same proportion: a refunded
  half of a year moves the expiry back six months (never below now); SMS and voice counts are taken
  back as far as they are unused. The operator sees what a refund takes back before confirming. A
  refund above the approval amount waits for a second operator; the one who asked cannot approve
  it. A provider that refuses the refund leaves the money and the service as they were. WeChat Pay
  only accepts a refund at first: the refund is processing at the provider, the service already
  taken back, until WeChat's refund notification says how it ended. Here the
  provider is WeChat Pay's local sandbox; alice's "Cold room A logger" renews its level for a year.

  Background:
    Given the domestic console pays through the provider sandboxes
    And alice has ordered 12 months of the device's current level paying by WeChat Pay
    And alice has paid on the payer page the QR code opens

  Scenario: Half refunded, then the rest
    When the operator previews a refund of half the order
    Then the preview takes 6 months back from the device and changes nothing
    When the operator refunds half the order because "the customer returned one logger"
    Then the console shows the order partially refunded
    And the device's service runs 6 months longer than before the order
    And WeChat Pay has paid back half the order
    When the operator refunds the rest of the order because "the customer cancelled"
    Then the console shows the order refunded
    And the device's service is back to before the order, or now
    And a second refund of the order is refused with code 1114

  Scenario: A large refund needs a second operator
    Given refunds above 10.00 need a second operator
    When the operator refunds half the order because "goodwill"
    Then the refund awaits approval and nothing is taken yet
    When the operator approves the refund
    Then the approval is refused with code 1134
    When the administrator approves the refund
    Then the console shows the order partially refunded
    And the device's service runs 6 months longer than before the order

  Scenario: The provider refuses the refund
    Given WeChat Pay has already paid the whole order back
    When the operator refunds half the order because "the customer asked"
    Then the refund is refused with code 1137
    And the console shows the order paid
    And the device's service runs 12 months longer, once

  Scenario: The provider confirms the refund later
    When the operator refunds half the order because "the customer returned one logger"
    Then the refund is processing at the provider and alice has not been told yet
    And the device's service runs 6 months longer than before the order
    When WeChat Pay notifies that the refund succeeded, twice
    Then the refund has succeeded and alice is told once that her order was refunded

  Scenario: The provider gives the refund up later
    When the operator refunds half the order because "the customer returned one logger"
    And WeChat Pay notifies that the refund failed
    Then the refund is refused by the provider
    And the console shows the order paid
    And the device's service runs 12 months longer, once
