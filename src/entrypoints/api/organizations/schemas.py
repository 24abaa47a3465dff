from __future__ import annotations

from marshmallow import fields, validate

from core.permissions.roles import RoleType
from entrypoints.api.framework import LocalDateTime, Schema

Length, OneOf, Range = validate.Length, validate.OneOf, validate.Range
MAX_ID = 2**31 - 1
ROLE_DESCRIPTION = ("org_creator (the creator), org_admin (manages members and roles), org_member (reads the "
                    "devices), or custom_<roleId>: one of the organization's custom roles")
ROLE_CODE = "org_admin, org_member or one of the organization's custom roles (custom_<roleId>)"


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
    roleCode = fields.String(required=True, validate=Length(max=50),
                             metadata={"description": "the role the invitee gets on approving: " + ROLE_CODE})


class RoleChangeSchema(MemberQuery):
    roleCode = fields.String(required=True, validate=Length(max=50), metadata={"description": ROLE_CODE})


class NameSchema(Schema):
    organizationName = fields.String(required=True, validate=Length(max=200),
                                     metadata={"description": "2-50 characters, trimmed"})


class RenameSchema(NameSchema, OrganizationQuery):
    pass


class RoleTypeQuery(Schema):
    organizationType = fields.Integer(load_default=int(RoleType.ORGANIZATION),
                                      validate=OneOf([int(RoleType.ORGANIZATION)]),
                                      metadata={"description": "2: the roles of an organization"})
    organizationId = fields.Integer(validate=Range(min=1, max=MAX_ID), metadata={
        "description": "an organization the caller belongs to: its custom roles are listed too"})


class RoleIdQuery(Schema):
    roleId = _id("a custom role of an organization the caller manages")


class RoleFieldsSchema(Schema):
    roleName = fields.String(required=True, validate=Length(max=200),
                             metadata={"description": "1-20 characters, trimmed, unique in the organization "
                                                      "in any case; no emoji"})
    description = fields.String(load_default=None, allow_none=True, validate=Length(max=200),
                                metadata={"description": "up to 20 characters, trimmed; no emoji"})
    permissions = fields.List(fields.String(validate=Length(max=100)), required=True, validate=Length(max=200),
                              metadata={"description": "names from queryOrganizationPermissions; an action brings "
                                                       "its route, and organization.list (with query and detail) "
                                                       "is always held"})


class RoleCreateSchema(RoleFieldsSchema, OrganizationQuery):
    pass


class RoleUpdateSchema(RoleFieldsSchema, RoleIdQuery):
    pass


class MyOrganizationSchema(Schema):
    organizationId = fields.Integer(required=True)
    organizationName = fields.String(required=True)
    roleCode = fields.String(required=True, metadata={"description": ROLE_DESCRIPTION})
    roleName = fields.String(required=True, metadata={"description": "in the request's language"})
    creator = fields.Boolean(required=True, metadata={"description": "the caller is its creator"})
    memberCount = fields.Integer(required=True)
    deviceCount = fields.Integer(required=True)
    changesDevices = fields.Boolean(required=True, metadata={
        "description": "the caller's role changes its devices, projects and assets (and may move its own devices in)"})


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
    roleId = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the role's id (a built-in role's too: an FDA endorsement's roleIds names it); "
                       "null only for a built-in role the database does not hold yet"})
    roleCode = fields.String(required=True)
    roleName = fields.String(required=True, metadata={"description": "a built-in role's in the request's "
                                                                     "language, a custom role's as given"})
    description = fields.String(required=True, allow_none=True)
    roleType = fields.Integer(required=True, metadata={"description": "2 built-in organization role, 3 custom"})
    builtIn = fields.Boolean(required=True, metadata={"description": "listed, not editable"})
    assignable = fields.Boolean(required=True, metadata={"description": "may be given to a member (the "
                                                                        "creator's passes by hand-over only)"})
    permissions = fields.List(fields.String(), required=True)
    memberCount = fields.Integer(required=True, metadata={"description": "members holding a custom role; 0 "
                                                                         "for built-in ones"})


class PermissionRouteSchema(Schema):
    route = fields.String(required=True, metadata={"description": "the route permission, e.g. device.list"})
    actions = fields.List(fields.String(), required=True, metadata={
        "description": "its actions an organization role may grant: route:action names"})
    fixed = fields.Boolean(required=True, metadata={"description": "held by every organization role"})

