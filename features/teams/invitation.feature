Feature: Joining an organization
  An organization owns devices as a team. Its creator invites people by user name, phone or e-mail;
  the invitee answers in the message centre. A member sees the organization's devices from the
  very next request, according to their role, and loses them the moment they leave.

  Background:
    Given the demo accounts exist
    And acme has logged in
    And alice has logged in

  Scenario: alice accepts acme's invitation and sees Acme's devices, until she is removed
    Given alice does not see Acme's devices
    When acme invites alice@example.com to Acme Cold Chain as a member
    Then alice's message centre asks her to answer an invitation to Acme Cold Chain
    When alice approves the invitation
    Then alice sees Acme's devices read-only
    And alice may not change Acme's cold room
    When acme makes alice an administrator of Acme Cold Chain
    Then alice may change Acme's cold room
    When acme removes alice from Acme Cold Chain
    Then alice does not see Acme's devices

  Scenario: a declined invitation changes nothing and cannot be answered twice
    When acme invites alice@example.com to Acme Cold Chain as a member
    And alice rejects the invitation
    Then alice does not see Acme's devices
    And answering the invitation again is refused with code 1631
