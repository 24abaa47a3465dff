Feature: A calibration application climbs its status ladder, and a cancellation pays back what was paid
  An application is submitted (1) unpaid; the provider's notification makes it paid (2), once however
  often it comes; the customer's inbound tracking number says the devices are on their way (3); the
  lab receives them (4). Until then the customer may cancel it (7): what was paid is paid back through
  the provider it was paid with, once, and a payment started and not made is withdrawn. Once the lab
  holds the devices, only the lab cancels (8). Here the customer has no account: they act with the
  link's access token and read with their contact; the providers are the local sandboxes.

  Background:
    Given the domestic console pays through the provider sandboxes
    And the lab prices a standard calibration of the logger's type at 300.00
    And a customer without an account has applied for one logger

  Scenario: Paid, on its way, received: then only the lab cancels
    When the customer pays by Alipay on the payer page the QR code opens
    And Alipay notifies the console of that payment again
    Then the application is at status 2 and was paid 300.00 once
    When the customer gives the inbound tracking number "SF1234567890"
    Then the application is at status 3
    When the lab marks the devices received
    Then the application is at status 4
    And the customer's cancellation is refused with code 2202
    When the lab cancels the application
    Then the application is at status 8 with nothing to pay back

  Scenario: Cancelled when paid, the payment is paid back through its provider once
    When the customer pays by Alipay on the payer page the QR code opens
    And the customer cancels the application
    Then the application is at status 7 and 300.00 is paid back
    And Alipay has paid back 300.00 once
    And the customer's cancellation is refused with code 2203

  Scenario: Cancelled before paying, the started payment is withdrawn
    When the customer starts paying by WeChat Pay
    And the customer cancels the application
    Then the application is at status 7 with nothing to pay back
    And the payer page of the QR code no longer takes the payment

  Scenario: Reading with the contact neither pays nor cancels
    When someone with the customer's contact tries to pay and to cancel
    Then both are refused with code 2215
    And the application is at status 1
