"""User administration in the back office (issue 17; /operation/consumer/list and role): list,
search, add, modify and delete accounts, reset a password (shown once), upgrade to enterprise,
certify contractors, export the list; the system roles and their permissions. Every call needs a
`system.consumer` permission (operators and system administrators); the core keeps back-office
accounts for system administrators. A customer applies to be a contractor (contractorApply) and
may upgrade their own account (userTypeUpgrade without an id)."""

from __future__ import annotations

from functools import wraps

from flask.views import MethodView

from core.accounts.model import AccountType
from core.permissions import roles
from core.shared.errors import Forbidden
from core.useradmin import errors as ue
from core.useradmin.model import (
    ACCOUNT_TYPE_NAMES,
    CONTRACTOR_AGREEMENT_CLAUSES,
    CONTRACTOR_AGREEMENT_TITLE,
    CONTRACTOR_AGREEMENT_VERSION,
    CONTRACTOR_STATE_NAMES,
    EXPORT_HEADERS,
    ManagedUser,
    NewUser,
    SystemRole,
    UserChanges,
    UserFilter,
)
from entrypoints.api import context
from entrypoints.api.framework import (
    XLSX,
    ApiBlueprint,
    ErrorEnvelope,
    caller_permissions,
    page_body,
    page_of,
    page_request,
    xlsx_download,
)
from entrypoints.api.useradmin import schemas as s

blp = ApiBlueprint("useradmin", __name__, description="User administration (back office) and account types")

PERMISSION = "system.consumer"
NOT_FOUND = "no such live account"
ADMIN_ONLY = "the account, or the role given, is a back-office one and the caller is not a system administrator"


_t = context.translated
_local = context.local_text


def _role_name(code: str | None) -> str | None:
    role = roles.BY_CODE.get(code or "")
    return _t(role.name) if role else code


def _row(u: ManagedUser) -> dict:
    return {"id": u.id, "userName": u.user_name, "realName": u.real_name, "phone": u.phone, "email": u.email,
            "company": u.company, "accountType": int(u.account_type),
            "accountTypeName": _t(ACCOUNT_TYPE_NAMES[u.account_type]), "roleCode": u.role_code,
            "roleName": _role_name(u.role_code), "identity": u.identity, "industry": u.industry,
            "createdAt": u.created_at, "deleted": u.deleted_at is not None, "deletedAt": u.deleted_at,
            "contractorState": u.contractor_state, "contractorAppliedAt": u.contractor_applied_at,
            "contractorAgreement": u.contractor_agreement}


def _role(r: SystemRole) -> dict:
    built_in = roles.BY_CODE.get(r.code)
    return {"id": r.id, "roleCode": r.code, "roleName": _t(built_in.name) if built_in else r.name,
            "description": r.description, "roleType": r.role_type, "permissions": list(r.permissions)}


def _filter(body: dict) -> UserFilter:
    return UserFilter(body.get("userName"), body.get("phone"), body.get("email"), body.get("accountType"),
                      body.get("roleCode"), body.get("deleted", False))


def _changes(body: dict) -> UserChanges:
    return UserChanges(body.get("realName"), body.get("phone"), body.get("email"), body.get("company"),
                       AccountType(body["accountType"]), body["roleCode"])


def _requires_any(*permissions: str):
    def decorator(func):
        @wraps(func)
        def wrapper(*args, **kwargs):
            if not caller_permissions() & set(permissions):
                raise Forbidden()
            return func(*args, **kwargs)

        return blp.alt_response(403, schema=ErrorEnvelope, description="the caller lacks all of " + ", ".join(
            f"`{p}`" for p in permissions))(wrapper)

    return decorator


@blp.route("/BaseAccount/queryUserByCondition")
class UserPageView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.UserPageQuery)
    @blp.ok(page_of(s.ManagedUserSchema))
    def post(self, body):
        """Accounts, newest first, by part of the user name or real name, phone, e-mail, account
        type, system role; `deleted` lists the deleted ones instead."""
        return page_body(context.container().list_users()(_filter(body), page_request(body)), _row)


@blp.route("/BaseAccount/exportUserByCondition")
class UserExportView(MethodView):
    @blp.requires(f"{PERMISSION}:export")
    @blp.arguments(s.UserQuery)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the accounts the filter finds (at most 10,000), headers and values in the "
                                  "request's language; no password or hash")
    def post(self, body):
        """The list of queryUserByCondition as an XLSX file."""

        def row(u: ManagedUser) -> list[object]:
            return [u.user_name, u.real_name or "", u.phone or "", u.email or "", u.company or "",
                    _t(ACCOUNT_TYPE_NAMES[u.account_type]), _role_name(u.role_code) or "",
                    _t(CONTRACTOR_STATE_NAMES.get(u.contractor_state, "")), _local(u.created_at),
                    _local(u.deleted_at)]

        data = context.container().export_users()(_filter(body), [_t(h) for h in EXPORT_HEADERS], row)
        return xlsx_download(data, "users.xlsx")


@blp.route("/BaseAccount/sysAddUser")
class AddUserView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.AddUserSchema)
    @blp.ok(s.AddedUserSchema, refusals=(ue.BackOfficeAccountsForAdministrators,))
    def post(self, body):
        """Add an account with its system role. The user name, password and contacts follow the
        rules of sign-up (422 naming the field); without a password the server makes one and
        answers it this once."""
        user, password = context.container().add_user()(
            context.caller_id(), NewUser(body["userName"], body.get("accountPassword") or None, _changes(body)))
        return {**_row(user), "password": password}


@blp.route("/BaseAccount/sysModifyUser")
class ModifyUserView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.ModifyUserSchema)
    @blp.ok(s.ManagedUserSchema, refusals=(ue.BackOfficeAccountsForAdministrators, ue.CannotActOnSelf,
                                    ue.LastSystemAdministrator))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """Change an account's real name, contacts, company, account type and system role (a
        phone or e-mail another account holds is refused on its field)."""
        return _row(context.container().modify_user()(context.caller_id(), body["id"], _changes(body)))


@blp.route("/BaseAccount/sysDeleteUser")
class DeleteUserView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.AccountIdSchema)
    @blp.ok(refusals=(ue.BackOfficeAccountsForAdministrators, ue.CannotActOnSelf, ue.LastSystemAdministrator))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """Delete an account: it is kept, marked deleted, with its orders and history; it can no
        longer log in and its sessions end now. Not the caller's own, not the last system
        administrator."""
        context.container().delete_user()(context.caller_id(), body["id"])


@blp.route("/BaseAccount/resetPasswordBySys")
class ResetPasswordView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.AccountIdSchema)
    @blp.ok(s.NewPasswordSchema, refusals=(ue.BackOfficeAccountsForAdministrators, ue.CannotActOnSelf))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """Give an account a new strong password, made by the server and answered this once; every
        session of the account ends."""
        return {"password": context.container().reset_password_by_system()(context.caller_id(), body["id"])}


@blp.route("/BaseAccount/userTypeUpgrade")
class UpgradeView(MethodView):
    @blp.arguments(s.UpgradeSchema)
    @blp.ok(s.ManagedUserSchema, refusals=(ue.NoCustomerType, ue.AlreadyEnterprise, ue.NotUpgradable))
    @blp.alt_response(403, schema=ErrorEnvelope, description="another account's id from a caller without "
                                                             f"`{PERMISSION}:edit`")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def put(self, body):
        """Upgrade a personal account to an enterprise one (account type and system role, so the
        permissions and the menu change at once: organizations, projects, members): an operator
        any account, a customer their own (no id). A back-office account, an enterprise one, an
        engineer or a dealer is refused (409, each with its code)."""
        target = body.get("id", context.caller_id())
        if target != context.caller_id() and f"{PERMISSION}:edit" not in caller_permissions():
            raise Forbidden()
        return _row(context.container().upgrade_to_enterprise()(target))


@blp.route("/BaseAccount/contractorCertify")
class CertifyView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.CertifySchema)
    @blp.ok(s.ManagedUserSchema, refusals=(ue.NotAContractor,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def post(self, body):
        """Certify a contractor who applied, or take the certification back."""
        return _row(context.container().certify_contractor()(body["id"], body["certified"]))


@blp.route("/BaseAccount/contractorAgreement")
class AgreementView(MethodView):
    @blp.ok(s.ContractorAgreementSchema)
    def get(self):
        """The contractor agreement in force (its version, title and text in the request's
        language) and where the caller stands with it."""
        me = context.container().get_user()(context.caller_id())
        return {"version": CONTRACTOR_AGREEMENT_VERSION, "title": _t(CONTRACTOR_AGREEMENT_TITLE),
                "clauses": [_t(c) for c in CONTRACTOR_AGREEMENT_CLAUSES], "contractorState": me.contractor_state,
                "acceptedVersion": me.contractor_agreement, "appliedAt": me.contractor_applied_at}


@blp.route("/BaseAccount/contractorApply")
class ApplyView(MethodView):
    @blp.arguments(s.ContractorApplySchema)
    @blp.ok(s.ManagedUserSchema, refusals=(ue.NoCustomerType, ue.CannotApplyAsContractor))
    def post(self, body):
        """The caller (a personal customer) applies to be an engineer (contractor), accepting the
        agreement of this version; the acceptance is recorded with its time. An operator certifies.
        An enterprise account or a dealer is refused (1906), a back-office one too (1908)."""
        return _row(context.container().apply_as_contractor()(context.caller_id(), body["agreementVersion"]))


@blp.route("/BaseRole/querySystemRoleList")
class SystemRolesView(MethodView):
    @_requires_any(f"{PERMISSION}:query", "system.role:query")
    @blp.ok(s.SystemRoleSchema, many=True)
    def post(self):
        """The system roles, each with the permission names it grants."""
        return [_role(r) for r in context.container().list_system_roles()()]


@blp.route("/BaseRole/queryRolesByCampAccount")
class AccountRolesView(MethodView):
    @blp.arguments(s.CampAccountQuery, location="query")
    @blp.ok(s.AccountRoleSchema, many=True)
    @blp.alt_response(403, schema=ErrorEnvelope, description=f"another account's id from a caller without "
                                                             f"`{PERMISSION}:query` or `system.role:query`")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)
    def get(self, query):
        """Every role an account of this platform (camp) holds, with its permissions: its system
        role, then its role in each organization it belongs to (built-in or custom, with the
        organization), oldest organization first. Without `accountId` (or with the caller's own)
        the caller's roles, for any signed-in account; another account's need the back office's
        user or role administration."""
        target = query.get("accountId", context.caller_id())
        if target != context.caller_id() and not caller_permissions() & {f"{PERMISSION}:query",
                                                                         "system.role:query"}:
            raise Forbidden()
        return [{**_role(r), "organizationId": r.organization_id, "organizationName": r.organization_name}
                for r in context.container().roles_of_account()(target)]
