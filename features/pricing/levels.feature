Feature: Free levels and the button of a level card
  A level card shows the price of the level's first year option. A level is free when that option
  has no service fee and the device has no SIM, or a SIM without an active data plan: there is
  nothing to pay, so the card reads "free service" and the level cannot be ordered. A data fee is
  only paid for a device whose SIM has an active data plan.

  The button of a card reads "on order" for a free level (clicking it does nothing), "buy traffic"
  when only a data fee is to be paid, "renew" on the level the device already has, and "buy"
  otherwise.

  Background:
    Given the price list is in USD

  Scenario Outline: When a level is free
    Given a level whose first year option has a service fee of <service fee> cents and a data fee of <data fee> cents
    And a device with <sim>
    Then the level is <free or not>

    Examples:
      | service fee | data fee | sim                               | free or not |
      | 0           | 0        | no SIM                            | free        |
      | 0           | 500      | no SIM                            | free        |
      | 0           | 500      | a SIM without an active data plan | free        |
      | 0           | 500      | a SIM with an active data plan    | not free    |
      | 0           | 0        | a SIM with an active data plan    | free        |
      | 9900        | 0        | no SIM                            | not free    |
      | 9900        | 500      | a SIM without an active data plan | not free    |

  Scenario: A level without any year option is free
    Given a level without any year option
    And a device with no SIM
    Then the level is free
    And the card's button reads "on order"

  Scenario Outline: The button of a level card
    Given a level whose first year option has a service fee of <service fee> cents and a data fee of <data fee> cents
    And a device with <sim>
    And the device is on <which> level
    Then the card's button reads "<button>"

    Examples:
      | service fee | data fee | sim                               | which   | button      |
      | 0           | 0        | no SIM                            | another | on order    |
      | 0           | 0        | no SIM                            | this    | on order    |
      | 0           | 500      | a SIM without an active data plan | another | on order    |
      | 0           | 500      | a SIM with an active data plan    | another | buy traffic |
      | 0           | 500      | a SIM with an active data plan    | this    | buy traffic |
      | 9900        | 0        | no SIM                            | this    | renew       |
      | 9900        | 0        | no SIM                            | another | buy         |
      | 19900       | 1000     | a SIM with an active data plan    | another | buy         |
      | 19900       | 1000     | a SIM without an active data plan | this    | renew       |

  Scenario Outline: The data fee is paid only with an active data plan
    Given a year option of 12 months listed at 9900 cents with a normal discount of 95
    And the year option adds a data fee of 2000 cents
    And no activity
    When the year option is priced for a device with <sim>
    Then one device pays <price> cents

    Examples:
      | sim                               | price |
      | no SIM                            | 9405  |
      | a SIM without an active data plan | 9405  |
      | a SIM with an active data plan    | 11305 |
