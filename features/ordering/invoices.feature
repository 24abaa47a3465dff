Feature: Invoices of paid orders
  A customer asks for an invoice of paid orders with saved invoice details, which the request keeps
  as they were then; an order placed with an invoice asks for it by itself when it is paid. The
  back office issues the invoice by uploading its PDF, which makes the order invoiced and tells the
  customer by a system message and an e-mail to the invoice's mailbox, or rejects the request saying
  why, after which the customer may ask again. "The invoice is sent within three working days": a
  request still waiting three working days (Monday to Friday) after it was made is overdue.

  Background:
    Given the demo accounts and the service catalogue exist
    And alice has logged in
    And operator has logged in
    And alice has saved personal invoice details sent by e-mail to invoices@alice.example

  Scenario: An operator issues an invoice that alice downloads
    When alice orders 基础版 for 12 months for "Cold room A logger" paying 9900 cents by WeChat
    And the payment notification arrives 1 time
    And alice asks for an invoice of the order with her saved details
    Then the back office sees alice's invoice request of 9900 cents in CNY, not overdue
    When 5 days pass
    Then the back office sees alice's invoice request of 9900 cents in CNY, overdue
    When the operator issues the invoice with its PDF
    Then the order is invoiced
    And alice has a message that her invoice is issued
    And an e-mail about the issued invoice is queued for invoices@alice.example
    And alice downloads exactly the PDF the operator uploaded
    And acme cannot download alice's invoice

  Scenario: An order placed with an invoice asks for it once when it is paid
    When alice orders 基础版 for 12 months for "Cold room A logger" paying 9900 cents by WeChat with an invoice to her saved details
    And the payment notification arrives 2 times
    Then the back office sees alice's invoice request of 9900 cents in CNY, not overdue
    When alice asks for an invoice of the order with her saved details
    Then the answer is refused with HTTP 409 and code 1143

  Scenario: A rejected request says why, and alice asks again
    When alice orders 基础版 for 12 months for "Cold room A logger" paying 9900 cents by WeChat
    And the payment notification arrives 1 time
    And alice asks for an invoice of the order with her saved details
    And the operator rejects the request because "The name does not match the tax records"
    Then alice reads that her request was rejected because "The name does not match the tax records"
    When alice asks for an invoice of the order with her saved details
    Then the back office sees alice's invoice request of 9900 cents in CNY, not overdue

  Scenario: An unpaid order cannot be invoiced
    When alice orders 基础版 for 12 months for "Cold room A logger" paying 9900 cents by WeChat
    And alice asks for an invoice of the order with her saved details
    Then the answer is refused with HTTP 409 and code 1141
