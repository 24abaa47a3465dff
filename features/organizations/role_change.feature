Feature: Custom roles in an organization
  An organization's creator makes roles of its own from the permissions an organization role may
  grant, and gives them to members. A member's permissions are their account's own and their role's
  in the organization: they change on the member's very next request, and so do the console's menus.

  Background:
    Given the demo accounts exist
    And acme has logged in
    And bob has logged in

  Scenario: acme gives bob a custom role with the member list, then takes it back
    Given bob's permission list has no consumer.list
    When acme makes the role "Dispatcher" in Acme Cold Chain granting consumer.list and consumer.list:query
    And acme gives bob the role "Dispatcher" in Acme Cold Chain
    Then bob's permission list has consumer.list and consumer.list:query
    And bob's role in Acme Cold Chain reads "Dispatcher"
    When acme gives bob the role "org_member" in Acme Cold Chain
    Then bob's permission list has no consumer.list
    And bob's role in Acme Cold Chain reads "Organization member"

  Scenario: A plain member may not make roles, and a role a member holds is not deleted
    When bob makes the role "Mine" in Acme Cold Chain granting device.list
    Then the answer is 403
    When acme makes the role "Dispatcher" in Acme Cold Chain granting consumer.list
    And acme gives bob the role "Dispatcher" in Acme Cold Chain
    And acme deletes the role "Dispatcher" of Acme Cold Chain
    Then the answer is 409 saying "1 members hold this role"
