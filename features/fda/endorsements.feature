Feature: Endorsements
  An endorsement says who may sign which records and what the signature means (spec 001 section 5:
  its name and description up to 50 characters; a signer's login up to 50). An organization's
  endorsements are made by its creator and administrators and read by its members.

  Background:
    Given the demo teams exist

  Scenario: Name and description take up to 50 characters, and a refusal is in the caller's language
    When carol adds the endorsement named with 50 characters and described with 50 characters
    Then the endorsement is kept
    When carol adds the endorsement named with 51 characters and described with 50 characters
    Then the endorsement is refused with HTTP 422 on "name"
    When carol adds the endorsement named with 10 characters and described with 51 characters
    Then the endorsement is refused with HTTP 422 on "description"
    When carol, reading German, adds the endorsement named with 51 characters and described with 5 characters
    Then the refusal is not in English

  Scenario: A signer's login of more than 50 characters is refused before any password is checked
    Given Acme Cold Chain has the waybill "WB-1"
    When carol signs the waybill "WB-1" giving a user name of 51 characters
    Then the signing is refused with HTTP 422
    And carol may still try 5 times before signing is locked

  Scenario: A plain member reads the endorsements but does not make them
    Given Acme Cold Chain's endorsement "QA release" approves waybills with a second signer who must differ
    Then dave reads the endorsement "QA release"
    When dave adds the endorsement named with 10 characters and described with 10 characters
    Then the endorsement is refused with HTTP 403 on nothing
