"""Organizations and their members (issue 17): the caller's organizations, create, rename and
dissolve, members and their roles, invitations answered in the message centre, hand-over of the
creator identity. Who may do what is decided in the core from the caller's role in the
organization: a stranger gets 404, a member who may not manage 403."""

from __future__ import annotations

from flask.views import MethodView

from core.organizations import errors as oe
from core.organizations.custom_roles import OrganizationRole, RoleInput
from core.organizations.model import CustomRole
from core.organizations.use_cases import Invite
from core.permissions import roles
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope
from entrypoints.api.organizations import schemas as s

blp = ApiBlueprint("organizations", __name__, description="Organizations, members and invitations")

NOT_MEMBER = "not an organization the caller belongs to (the same for an unknown one)"
NOT_MANAGER = "the caller's role in the organization does not manage it"



def _role_name(code: str, stored: str = "") -> str:
    """A built-in role's name in the request's language; a custom role's as its organization wrote it."""
    built_in = roles.BY_CODE.get(code)
    if built_in is None:
        return stored
    return context.translated(built_in.name)


def _refusing(*, forbidden: bool = True):
    """The 404 (and 403) every call on one organization may answer, in the OpenAPI."""

    def decorator(func):
        func = blp.alt_response(404, schema=ErrorEnvelope, description=NOT_MEMBER)(func)
        return blp.alt_response(403, schema=ErrorEnvelope, description=NOT_MANAGER)(func) if forbidden else func

    return decorator


@blp.route("/BaseOrganization/list")
class MyOrganizationsView(MethodView):
    @blp.ok(s.MyOrganizationSchema, many=True)
    def get(self):
        """The organizations the caller belongs to, with the caller's role in each."""
        return [{"organizationId": o.organization_id, "organizationName": o.name, "roleCode": o.role_code,
                 "roleName": _role_name(o.role_code, o.role_name), "creator": o.creator, "memberCount": o.members,
                 "deviceCount": o.devices, "changesDevices": o.changes_devices}
                for o in context.container().my_organizations()(context.caller_id())]


@blp.route("/BaseOrganization/insert")
class CreateOrganizationView(MethodView):
    @blp.requires("organization.list:add")
    @blp.arguments(s.NameSchema)
    @blp.ok(s.MyOrganizationSchema)
    def post(self, body):
        """Create an organization (name 2-50 characters); the caller is its creator and first member."""
        created = context.container().create_organization()(context.caller_id(), body["organizationName"])
        return {"organizationId": created.stored_id, "organizationName": created.name,
                "roleCode": roles.ORG_CREATOR.code, "roleName": _role_name(roles.ORG_CREATOR.code),
                "creator": True, "memberCount": 1, "deviceCount": 0, "changesDevices": True}


@blp.route("/BaseOrganization/update")
class RenameOrganizationView(MethodView):
    @blp.arguments(s.RenameSchema)
    @blp.ok()
    @_refusing()
    def put(self, body):
        """Rename an organization (its creator or an administrator)."""
        context.container().rename_organization()(context.caller_id(), body["organizationId"], body["organizationName"])


@blp.route("/BaseOrganization/delete")
class DissolveOrganizationView(MethodView):
    @blp.arguments(s.OrganizationQuery, location="query")
    @blp.ok(refusals=(oe.OrganizationHoldsDevices,))
    @_refusing()
    def delete(self, query):
        """Dissolve an organization: its creator only, and only when it holds no devices (409, 1701)."""
        context.container().dissolve_organization()(context.caller_id(), query["organizationId"])


@blp.route("/BaseOrganization/members")
class MembersView(MethodView):
    @blp.arguments(s.OrganizationQuery, location="query")
    @blp.ok(s.MembersSchema)
    @_refusing(forbidden=False)
    def get(self, query):
        """The members of an organization the caller belongs to, with their roles; the pending
        invitations too when the caller manages it."""
        listing = context.container().organization_members()(context.caller_id(), query["organizationId"])
        return {"myRole": listing.my_role,
                "members": [{"accountId": m.account_id, "userName": m.user_name, "realName": m.real_name,
                             "roleCode": m.role_code, "roleName": _role_name(m.role_code, m.role_name),
                             "creator": m.creator}
                            for m in listing.members],
                "invitations": [{"invitationId": i.stored_id, "displayName": i.invitee.masked_name,
                                 "roleCode": i.role_code, "createdAt": i.created_at,
                                 "expiresAt": i.expires_at} for i in listing.invitations]}


@blp.route("/BaseAccount/queryAccountByUEP")
class FindInviteeView(MethodView):
    @blp.arguments(s.InviteeQuery, location="query")
    @blp.ok(s.InviteeSchema, refusals=(oe.NoInvitableAccount,))
    @_refusing()
    def get(self, query):
        """Whether a user name, phone or e-mail names an account the organization may invite, and
        its masked name. An unknown account, a disabled one and a member all get the same 409
        (1702), so the call tells no more than an invitation would."""
        found = context.container().find_invitee()(context.caller_id(), query["organizationId"], query["uep"])
        return {"displayName": found.masked_name}


@blp.route("/BaseAccount/invite")
class InviteView(MethodView):
    @blp.arguments(s.InviteSchema)
    @blp.ok(s.InvitationSchema, refusals=(oe.NoInvitableAccount,))
    @_refusing()
    def post(self, body):
        """Invite an account by user name, phone or e-mail with a role; it is asked in its message
        centre and becomes a member when it approves (within 7 days). A new invitation replaces a
        pending one to the same account."""
        invitation, invitee = context.container().invite_member()(
            Invite(context.caller_id(), body["organizationId"], body["uep"], body["roleCode"]))
        return {"invitationId": invitation.stored_id, "expiresAt": invitation.expires_at,
                "displayName": invitee.masked_name}


@blp.route("/BaseAccount/withdrawInvitation")
class WithdrawInvitationView(MethodView):
    @blp.arguments(s.InvitationQuery, location="query")
    @blp.ok()
    @_refusing()
    def delete(self, query):
        """Withdraw a pending invitation: approving it then is refused (409, 1703)."""
        context.container().withdraw_invitation()(context.caller_id(), query["invitationId"])


@blp.route("/BaseAccount/deleteInOrganization")
class RemoveMemberView(MethodView):
    @blp.arguments(s.MemberQuery, location="query")
    @blp.ok(refusals=(oe.CreatorRoleFixed, oe.NotAMember))
    @_refusing()
    def delete(self, query):
        """Remove a member (not the creator); they lose the organization's devices on their next request."""
        context.container().remove_member()(context.caller_id(), query["organizationId"], query["accountId"])


@blp.route("/BaseRole/updateRoleInOrganization")
class ChangeRoleView(MethodView):
    @blp.arguments(s.RoleChangeSchema)
    @blp.ok(refusals=(oe.CreatorRoleFixed, oe.NotAMember))
    @_refusing()
    def put(self, body):
        """Change a member's role to another of the organization type's (the creator's passes by
        hand-over only)."""
        context.container().change_member_role()(context.caller_id(), body["organizationId"], body["accountId"],
                                                 body["roleCode"])


@blp.route("/BaseAccount/updateAccountOrganizationRel")
class HandOverView(MethodView):
    @blp.arguments(s.MemberQuery)
    @blp.ok(refusals=(oe.CreatorRoleFixed, oe.NotAMember))
    @_refusing()
    def put(self, body):
        """Hand the creator identity over to another member (the creator only); the former creator
        stays on as an administrator."""
        context.container().hand_over_organization()(context.caller_id(), body["organizationId"], body["accountId"])


def _role(r: OrganizationRole) -> dict:
    return {"roleId": r.id, "roleCode": r.code, "roleName": _role_name(r.code, r.name),
            "description": r.description, "builtIn": r.built_in, "assignable": r.assignable,
            "roleType": int(roles.RoleType.ORGANIZATION if r.built_in else roles.RoleType.CUSTOM),
            "permissions": sorted(r.permissions), "memberCount": r.holders}


def _custom(r: CustomRole) -> dict:
    return _role(OrganizationRole(r.code, r.name, False, True, r.permissions, r.id, r.description, r.holders))


def _input(body: dict) -> RoleInput:
    return RoleInput(body["roleName"], body["description"], tuple(body["permissions"]))


@blp.route("/BaseRole/queryRoleByOrganizationType")
class OrganizationRolesView(MethodView):
    @blp.arguments(s.RoleTypeQuery, location="query")
    @blp.ok(s.RoleSchema, many=True)
    @_refusing(forbidden=False)
    def get(self, query):
        """The roles of an organization: the built-in ones (names in the request's language) and,
        given an organization the caller belongs to, its custom roles."""
        listed = context.container().organization_roles()(context.caller_id(), query.get("organizationId"))
        return [_role(r) for r in listed]


@blp.route("/BaseRole/queryOrganizationPermissions")
class GrantablePermissionsView(MethodView):
    @blp.ok(s.PermissionRouteSchema, many=True)
    def get(self):
        """The permissions an organization's custom role may grant, by route with its actions."""
        return [{"route": route, "actions": [f"{route}:{a}" for a in actions],
                 "fixed": route in roles.ORGANIZATION_BASELINE} for route, actions in roles.GRANTABLE_ROUTES]


@blp.route("/BaseRole/insert")
class CreateRoleView(MethodView):
    @blp.arguments(s.RoleCreateSchema)
    @blp.ok(s.RoleSchema)
    @_refusing()
    def post(self, body):
        """Add a custom role to an organization (its creator or an administrator)."""
        return _custom(context.container().create_role()(context.caller_id(), body["organizationId"], _input(body)))


@blp.route("/BaseRole/update")
class UpdateRoleView(MethodView):
    @blp.arguments(s.RoleUpdateSchema)
    @blp.ok(s.RoleSchema, refusals=(oe.BuiltInRoleFixed,))
    @_refusing()
    def put(self, body):
        """Change a custom role's name, description and permissions; its holders have the new
        permissions on their next request. Built-in roles are refused (409, 1720)."""
        return _custom(context.container().update_role()(context.caller_id(), body["roleId"], _input(body)))


@blp.route("/BaseRole/delete")
class DeleteRoleView(MethodView):
    @blp.arguments(s.RoleIdQuery, location="query")
    @blp.ok(refusals=(oe.BuiltInRoleFixed, oe.RoleHeld))
    @_refusing()
    def delete(self, query):
        """Delete a custom role no member holds (409, 1721, with how many do); pending invitations
        offering it are withdrawn."""
        context.container().delete_role()(context.caller_id(), query["roleId"])
