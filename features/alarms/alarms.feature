Feature: Alarms
  A rule watches one probe of a device. A value outside its limits that lasts the rule's delay is an
  alarm: the recipients of graded level 1 are alerted at once, those of levels 2 and 3 when their
  minutes have passed and nobody has handled the alarm yet. Each SMS and each call takes one of the
  device's prepaid counts; with none left the alarm is still recorded and shown, but not sent.

  The demo rule of alice's vaccine fridge allows 2 to 8 °C with a 5-minute delay and graded levels
  at 0, 15 and 30 minutes: alice by SMS and e-mail at level 1, the duty manager by SMS and call at
  level 2. The fridge has 10 SMS and no voice calls left.

  Background:
    Given the demo accounts exist
    And alice has logged in

  Scenario: An excursion longer than the delay raises an alarm and texts the level-1 recipients
    When the vaccine fridge reads 9.5 °C for 6 minutes
    Then alice's message centre shows 1 untreated alarm of the vaccine fridge at level 1
    And the vaccine fridge is alarming
    And an SMS and an e-mail about the vaccine fridge go to alice
    And the vaccine fridge has 9 SMS left

  Scenario: A short excursion raises nothing
    When the vaccine fridge reads 9.5 °C for 4 minutes
    And the vaccine fridge reads 6.0 °C
    Then alice's message centre shows no alarm
    And the vaccine fridge is not alarming
    And nothing is sent

  Scenario: Back inside the limits ends the alarm
    Given the vaccine fridge has raised an alarm
    When the vaccine fridge reads 6.0 °C
    Then the vaccine fridge is not alarming
    And the alarm has ended

  Scenario: Graded alarm levels
    Given the vaccine fridge has raised an alarm
    When 14 minutes pass
    And the alarms are escalated
    Then the alarm is at level 1
    When 2 minutes pass
    And the alarms are escalated
    Then the alarm is at level 2
    And an SMS about the vaccine fridge goes to the duty manager
    And no call is made
    When 15 minutes pass
    And the alarms are escalated
    Then the alarm is at level 3

  Scenario: Zero SMS count: recorded, not sent
    Given the vaccine fridge has no SMS left
    When the vaccine fridge reads 9.5 °C for 6 minutes
    Then alice's message centre shows 1 untreated alarm of the vaccine fridge at level 1
    And no SMS is sent
    And an e-mail about the vaccine fridge goes to alice
    And the vaccine fridge has 0 SMS left

  Scenario: Handling an alarm once
    Given the vaccine fridge has raised an alarm
    When alice approves the alarm with the result "Door closed, stock checked"
    Then the alarm is treated with the result "Door closed, stock checked"
    And alice's header badge shows 0 untreated alarms
    When alice defers the alarm
    Then the answer has HTTP 409, code 1011 and the message "This alarm has already been handled"

  Scenario Outline: A deferred alarm comes back untreated after the delay chosen, and its reminders resume
    Deferring is not handling: for the delay chosen (the console offers 15 minutes, 1 hour, 4 hours
    and 1 day; the server takes 1 minute to 1 day) the alarm is shown as deferred, is not counted on
    the badge and alerts nobody. Then it is untreated again by the clock alone, and the next
    escalation run reminds the recipients of its level and alerts those of levels that came due.

    Given it is 10:00
    And the vaccine fridge has raised an alarm
    When alice defers the alarm for <delay> with the result "Technician on the way"
    Then the alarm is deferred until <until>
    And alice's header badge shows 0 untreated alarms
    When the clock reaches <just before>
    And the alarms are escalated
    Then the alarm is deferred until <until>
    And alice has had 1 SMS and 1 e-mail about the vaccine fridge
    And the duty manager has had 0 SMS about the vaccine fridge
    When the clock reaches <until>
    Then alice's message centre shows 1 untreated alarm of the vaccine fridge at level 1
    And alice's header badge shows 1 untreated alarm
    When the alarms are escalated
    Then alice has had 2 SMS and 2 e-mails about the vaccine fridge
    And the duty manager has had 1 SMS about the vaccine fridge
    And the alarm's history shows 1 deferral by alice at 10:00 until <until> with the result "Technician on the way"

    Examples:
      | delay      | just before    | until          |
      | 15 minutes | 10:14          | 10:15          |
      | 1 hour     | 10:59          | 11:00          |
      | 4 hours    | 13:59          | 14:00          |
      | 1 day      | 09:59 next day | 10:00 next day |

  Scenario: An alarm back from a deferral is deferred again, then approved for good
    Given it is 10:00
    And the vaccine fridge has raised an alarm
    When alice defers the alarm for 1 hour
    And the clock reaches 11:00
    And alice defers the alarm for 15 minutes with the result "Spare part on its way"
    Then the alarm is deferred until 11:15
    When alice approves the alarm with the result "Compressor replaced"
    Then the alarm is treated with the result "Compressor replaced"
    And alice's header badge shows 0 untreated alarms
    And the alarm's history shows 2 deferrals
    When the clock reaches 12:00
    And the alarms are escalated
    Then alice has had 1 SMS and 1 e-mail about the vaccine fridge
    And alice's header badge shows 0 untreated alarms

  Scenario: A member of an organization may not defer its alarms
    Given acme watches the warehouse cold room with a 2-8 °C rule alerting 2 people
    And the warehouse cold room has raised an alarm
    And bob has logged in
    When bob defers the alarm for 1 hour
    Then the answer has HTTP 403, code 403 and the message "You have read-only access to this device"
    And bob's header badge shows 1 untreated alarm

  Scenario: A handled alarm is not escalated
    Given the vaccine fridge has raised an alarm
    When alice approves the alarm with the result "Stock moved to the spare fridge"
    And 30 minutes pass
    And the alarms are escalated
    Then the alarm is at level 1

  Scenario: Another customer sees nothing of alice's alarms
    Given the vaccine fridge has raised an alarm
    And acme has logged in
    When acme approves the alarm
    Then the answer has HTTP 404, code 404 and the message "Not found"
    And acme's message centre shows no alarm
    And acme's header badge shows 0 untreated alarms

  Scenario: A member of an organization reads its alarm rules but cannot switch them off
    Given acme watches the warehouse cold room with a 2-8 °C rule alerting 2 people
    And bob has logged in
    When bob switches off the rule of the warehouse cold room
    Then the answer has HTTP 403, code 403 and the message "You have read-only access to this device"
    And the rule of the warehouse cold room is on, allows 2 to 8 °C and alerts 2 people
    And bob sees the rule of the warehouse cold room

  Scenario: Changing one setting of a rule keeps the others
    When alice changes the upper limit of the rule of the vaccine fridge to 9 °C
    Then the rule of the vaccine fridge is on, allows 2 to 9 °C and alerts 2 people

  Scenario: A change that would leave a rule watching nothing is refused
    When alice clears both limits of the rule of the vaccine fridge
    Then the answer has HTTP 422 with an error for upperLimit
    And the rule of the vaccine fridge is on, allows 2 to 8 °C and alerts 2 people

  Scenario Outline: Graded alarm times must rise level by level
    When alice sets the graded alarm times of the vaccine fridge to <level1>, <level2> and <level3> minutes
    Then the answer has HTTP 422 with an error for <field>
    And the error for <field> reads "Graded alarm times wrongly set"

    Examples:
      | level1 | level2 | level3 | field         |
      | 15     | 15     | 30     | level2Minutes |
      | 20     | 10     | 30     | level2Minutes |
      | 0      | 30     | 20     | level3Minutes |
      | 0      | 30     | 30     | level3Minutes |

  Scenario: Graded alarm times that rise are saved
    When alice sets the graded alarm times of the vaccine fridge to 0, 10 and 20 minutes
    Then the rule of the vaccine fridge alerts level 2 after 10 minutes
