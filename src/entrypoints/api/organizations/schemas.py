from __future__ import annotations

from marshmallow import fields, validate

from core.organizations.model import ASSIGNABLE_ROLES
from core.permissions.roles import RoleType
from entrypoints.api.framework import LocalDateTime, Schema

Length, OneOf, Range = validate.Length, validate.OneOf, validate.Range
MAX_ID = 2**31 - 1
ROLE_DESCRIPTION = "org_creator (the creator), org_admin (manages members), org_member (reads the devices)"


def _id(description: str) -> fields.Integer:
    return fields.Integer(required=True, validate=Range(min=1, max=MAX_ID), metadata={"description": description})


class OrganizationQuery(Schema):
    organizationId = _id("an organization the caller belongs to")


class MemberQuery(OrganizationQuery):
    accountId = _id("a member of the organization")


class InvitationQuery(Schema):
    invitationId = _id("a pending invitation of an organization the caller manages")


class InviteeQuery(OrganizationQuery):
    uep = fields.String(required=True, validate=Length(max=200),
                        metadata={"description": "the invitee's user name, phone or e-mail (2-20 characters)"})


class InviteSchema(InviteeQuery):
    roleCode = fields.String(required=True, validate=OneOf(ASSIGNABLE_ROLES),
                             metadata={"description": "the role the invitee gets on approving: " + ROLE_DESCRIPTION})


class RoleChangeSchema(MemberQuery):
    roleCode = fields.String(required=True, validate=OneOf(ASSIGNABLE_ROLES),
                             metadata={"description": ROLE_DESCRIPTION})


class NameSchema(Schema):
    organizationName = fields.String(required=True, validate=Length(max=200),
                                     metadata={"description": "2-50 characters, trimmed"})


class RenameSchema(NameSchema, OrganizationQuery):
    pass


class RoleTypeQuery(Schema):
    organizationType = fields.Integer(load_default=int(RoleType.ORGANIZATION),
                                      validate=OneOf([int(RoleType.ORGANIZATION)]),
                                      metadata={"description": "2: the roles of an organization"})


class MyOrganizationSchema(Schema):
    organizationId = fields.Integer(required=True)
    organizationName = fields.String(required=True)
    roleCode = fields.String(required=True, metadata={"description": ROLE_DESCRIPTION})
    roleName = fields.String(required=True, metadata={"description": "in the request's language"})
    creator = fields.Boolean(required=True, metadata={"description": "the caller is its creator"})
    memberCount = fields.Integer(required=True)
    deviceCount = fields.Integer(required=True)


class MemberSchema(Schema):
    accountId = fields.Integer(required=True)
    userName = fields.String(required=True)
    realName = fields.String(required=True, allow_none=True)
    roleCode = fields.String(required=True, metadata={"description": ROLE_DESCRIPTION})
    roleName = fields.String(required=True, metadata={"description": "in the request's language"})
    creator = fields.Boolean(required=True)


class PendingInvitationSchema(Schema):
    invitationId = fields.Integer(required=True)
    displayName = fields.String(required=True, metadata={"description": "the invitee's user name, masked"})
    roleCode = fields.String(required=True)
    createdAt = LocalDateTime(required=True)
    expiresAt = LocalDateTime(required=True)


class MembersSchema(Schema):
    myRole = fields.String(required=True, metadata={"description": "the caller's role: " + ROLE_DESCRIPTION})
    members = fields.List(fields.Nested(MemberSchema), required=True)
    invitations = fields.List(fields.Nested(PendingInvitationSchema), required=True,
                              metadata={"description": "pending invitations; empty unless the caller manages"})


class InviteeSchema(Schema):
    displayName = fields.String(required=True, metadata={"description": "the account's user name, masked "
                                                                         "(first and last character)"})


class InvitationSchema(InviteeSchema):
    invitationId = fields.Integer(required=True)
    expiresAt = LocalDateTime(required=True)


class RoleSchema(Schema):
    roleCode = fields.String(required=True)
    roleName = fields.String(required=True, metadata={"description": "in the request's language"})
    assignable = fields.Boolean(required=True, metadata={"description": "may be given to a member (the "
                                                                        "creator's passes by hand-over only)"})
