from __future__ import annotations

from marshmallow import fields, validate

from core.accounts.model import AccountType
from core.accounts.rules import COMPANY_MAX, EMAIL_MAX, LOGIN_PASSWORD_MAX, REAL_NAME_MAX, USER_NAME_MAX
from core.useradmin.model import ASSIGNABLE_ROLES, CONTRACTOR_AGREEMENT_VERSION, SEARCH_MAX
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, Range, OneOf = validate.Length, validate.Range, validate.OneOf
MAX_ID = 2**31 - 1
ACCOUNT_ID = fields.Integer(required=True, validate=Range(1, MAX_ID), metadata={"description": "the account"})
TYPES = [int(t) for t in AccountType]
TYPE_TEXT = "1 personal, 2 enterprise, 3 engineer (contractor), 4 dealer, 9 back office"
# Lengths are bounded here so a huge value costs nothing; the core's rules (and their messages)
# decide the rest.
REAL_NAME = fields.String(allow_none=True, validate=Length(max=REAL_NAME_MAX * 5),
                          metadata={"description": f"up to {REAL_NAME_MAX} characters; empty is none"})
PHONE = fields.String(allow_none=True, validate=Length(max=40),
                      metadata={"description": "unique among accounts; empty is none"})
EMAIL = fields.String(allow_none=True, validate=Length(max=EMAIL_MAX * 2),
                      metadata={"description": "unique among accounts; empty is none"})
COMPANY = fields.String(allow_none=True, validate=Length(max=COMPANY_MAX * 5),
                        metadata={"description": "2 to 50 characters; empty is none"})
ROLE = fields.String(required=True, validate=OneOf(ASSIGNABLE_ROLES), metadata={
    "description": "the system role: a back-office role goes with account type 9, a customer's with 1-4"})
TYPE = fields.Integer(required=True, validate=OneOf(TYPES), metadata={"description": TYPE_TEXT})


class UserQuery(Schema):
    userName = fields.String(validate=Length(1, SEARCH_MAX), metadata={
        "description": "part of the user name or the real name, any case"})
    phone = fields.String(validate=Length(1, SEARCH_MAX), metadata={"description": "part of the phone number"})
    email = fields.String(validate=Length(1, SEARCH_MAX), metadata={"description": "part of the e-mail, any case"})
    accountType = fields.Integer(validate=OneOf(TYPES), metadata={"description": TYPE_TEXT})
    roleCode = fields.String(validate=Length(1, 50), metadata={"description": "accounts holding this system role"})
    deleted = fields.Boolean(load_default=False, metadata={"description": "the deleted accounts instead of the live"})


class UserPageQuery(PageQuery, UserQuery):
    sortField = fields.String(validate=OneOf(["createdAt"]), metadata={"description": "newest first"})


class UserChangesSchema(Schema):
    realName = REAL_NAME
    phone = PHONE
    email = EMAIL
    company = COMPANY
    accountType = TYPE
    roleCode = ROLE


class AddUserSchema(UserChangesSchema):
    userName = fields.String(required=True, validate=Length(1, USER_NAME_MAX * 2), metadata={
        "description": "6 to 50 characters: letters, digits, underscores and Chinese characters, not starting with "
                       "a digit or an underscore; unique whatever the case"})
    accountPassword = fields.String(allow_none=True, validate=Length(max=LOGIN_PASSWORD_MAX), metadata={
        "description": "the password policy of sign-up; empty or null: the server makes a strong one and answers "
                       "it this once"})


class ModifyUserSchema(UserChangesSchema):
    id = ACCOUNT_ID


class AccountIdSchema(Schema):
    id = ACCOUNT_ID


class AccountIdQuery(Schema):
    accountId = ACCOUNT_ID


class CampAccountQuery(Schema):
    accountId = fields.Integer(validate=Range(1, MAX_ID), metadata={
        "description": "the account (the back office); left out: the caller's own"})


class UpgradeSchema(Schema):
    id = fields.Integer(validate=Range(1, MAX_ID), metadata={
        "description": "the account to upgrade (an operator); left out: the caller's own"})


class CertifySchema(Schema):
    id = ACCOUNT_ID
    certified = fields.Boolean(required=True)


class ContractorApplySchema(Schema):
    agreementVersion = fields.String(required=True, validate=OneOf([CONTRACTOR_AGREEMENT_VERSION]), metadata={
        "description": "the version of the agreement the customer read and accepts (GET contractorAgreement)"})


class ContractorAgreementSchema(Schema):
    version = fields.String(required=True, metadata={"description": "what contractorApply's agreementVersion names"})
    title = fields.String(required=True, metadata={"description": "in the request's language"})
    clauses = fields.List(fields.String(), required=True, metadata={
        "description": "the agreement's text, one paragraph each, in the request's language"})
    contractorState = fields.Integer(required=True, metadata={
        "description": "the caller's: 0 not a contractor, 1 applied (agreement accepted) but not certified, "
                       "2 certified"})
    acceptedVersion = fields.String(required=True, allow_none=True, metadata={
        "description": "the version the caller accepted; null: none"})
    appliedAt = LocalDateTime(required=True, allow_none=True, metadata={"description": "when the caller accepted it"})


class ManagedUserSchema(Schema):
    id = fields.Integer(required=True)
    userName = fields.String(required=True)
    realName = fields.String(required=True, allow_none=True)
    phone = fields.String(required=True, allow_none=True)
    email = fields.String(required=True, allow_none=True)
    company = fields.String(required=True, allow_none=True)
    accountType = fields.Integer(required=True, metadata={"description": TYPE_TEXT})
    accountTypeName = fields.String(required=True)
    roleCode = fields.String(required=True, allow_none=True)
    roleName = fields.String(required=True, allow_none=True)
    identity = fields.String(required=True, allow_none=True)
    industry = fields.String(required=True, allow_none=True)
    createdAt = LocalDateTime(required=True)
    deleted = fields.Boolean(required=True)
    deletedAt = LocalDateTime(required=True, allow_none=True)
    contractorState = fields.Integer(required=True, metadata={
        "description": "0 not a contractor, 1 applied (agreement accepted) but not certified, 2 certified"})
    contractorAppliedAt = LocalDateTime(required=True, allow_none=True)
    contractorAgreement = fields.String(required=True, allow_none=True, metadata={
        "description": "the agreement version accepted"})


class AddedUserSchema(ManagedUserSchema):
    password = fields.String(required=True, allow_none=True, metadata={
        "description": "the password the server made, shown this once; null when the operator gave one"})


class NewPasswordSchema(Schema):
    password = fields.String(required=True, metadata={"description": "shown this once; never stored in clear"})


class SystemRoleSchema(Schema):
    id = fields.Integer(required=True)
    roleCode = fields.String(required=True)
    roleName = fields.String(required=True)
    description = fields.String(required=True, allow_none=True)
    roleType = fields.Integer(required=True, metadata={"description": "1 system, 2 organization, 3 custom"})
    permissions = fields.List(fields.String(), required=True, metadata={"description": "permission names"})


class AccountRoleSchema(SystemRoleSchema):
    organizationId = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the organization the role is held in; null: the account's system role"})
    organizationName = fields.String(required=True, allow_none=True)
