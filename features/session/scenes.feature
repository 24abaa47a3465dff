Feature: Scenes
  The console has two scenes: cold-chain monitoring (1) and the cloud chain (2). Scene 2 needs the
  permission cloudChain.myProject; a user without it who asks for scene 2 falls back to scene 1.

  Background:
    Given the demo accounts exist

  Scenario Outline: Scene fallback
    Given <user> has logged in
    When <user> asks for the permissions of scene 2
    Then the list <holds> cloudChain.myProject
    And the console opens scene <scene>

    Examples:
      | user  | holds         | scene |
      | alice | does not hold | 1     |
      | acme  | holds         | 2     |

  Scenario Outline: Only users who may enter the cloud chain are offered it
    Given <user> has logged in
    Then the scene list of <user> is <scenes>

    Examples:
      | user  | scenes |
      | alice | 1      |
      | acme  | 1, 2   |
      | bob   | 1      |
