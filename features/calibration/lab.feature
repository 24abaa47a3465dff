Feature: The calibration lab's work: certificates in versions, quick orders, due dates coming back
  The lab records each device's results as a certificate draft while the devices are at the lab and
  issues it under the year's next number; an issued certificate never changes: a correction issues
  the next version under the same number, and the one it replaces stays readable, marked superseded.
  An issued certificate of a console device sets its calibration date and its due date (its type's
  interval, 12 months by default), and its owner is reminded 30 and 7 days before the due date and
  on it, each once, however often the reminder job runs. A quick order taken on the phone waits for
  the lab to complete its details; its customer reads it by number and contact.

  Background:
    Given the demo accounts exist
    And the lab has priced the calibration of Wi-Fi loggers
    And alice has applied for the calibration of her cold room A and B loggers and paid
    And the lab has received the loggers and calibrates them

  Scenario: A corrected certificate is a new version; the one it replaces stays readable, superseded
    When the lab records the results of the cold room A logger and issues its certificate
    And the lab corrects that certificate because "Serial misprinted"
    Then alice reads 2 versions of the cold room A logger's certificate under one number: 1 superseded, 2 issued
    And changing the results of the issued certificate is refused with HTTP 409 and code 2211

  Scenario: An issued certificate sets the due date, and its reminders go out once each
    When the lab records the results of the cold room A logger and issues its certificate
    Then the cold room A logger's calibration falls due 12 months after its calibration
    When the reminder job runs twice on the day 30 days before the due date
    Then alice has 1 calibration reminder
    When the reminder job runs twice on the day 7 days before the due date
    Then alice has 2 calibration reminders
    When the reminder job runs twice on the due date
    Then alice has 3 calibration reminders

  Scenario: The lab completes a quick order taken on the phone, and its customer reads it
    When the lab takes a quick order for a typed logger from Wang, reachable at wang@example.com
    Then the lab's quick orders show it waiting to be completed
    When the lab completes it with the return address "9 Pharmacy Lane"
    Then the lab's quick orders show it completed
    And Wang reads it by its number and "wang@example.com" without an account
