"""What an operator does to accounts in the back office, and the contractor application a
customer makes. Back-office accounts (system type or role) are a system administrator's to change:
an operator manages customers only, so no operator can raise an account, or itself, to a role with
more than theirs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from core.accounts.model import AccountType
from core.accounts.password_policy import PasswordPolicy
from core.accounts.ports import PasswordHasher
from core.accounts.rules import company_problem, email_problem, phone_problem, real_name_problem, user_name_problem
from core.permissions import roles
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.shared.errors import InvalidInput, NotFound
from core.shared.paging import Page, PageRequest
from core.useradmin.errors import (
    AlreadyEnterprise,
    BackOfficeAccountsForAdministrators,
    CannotActOnSelf,
    CannotApplyAsContractor,
    LastSystemAdministrator,
    NoCustomerType,
    NotAContractor,
    NotUpgradable,
)
from core.useradmin.model import (
    BACK_OFFICE_ROLES,
    CONTACT_TAKEN,
    MAX_EXPORT_ROWS,
    TYPE_ROLE_MISMATCH,
    TYPES_OF_ROLE,
    UNKNOWN_ROLE,
    USER_NAME_TAKEN,
    ContractorState,
    ManagedUser,
    NewUser,
    SystemRole,
    UserChanges,
    UserFilter,
    generate_password,
    text_problem,
)
from core.useradmin.ports import UserAdminUnitOfWork, UserSheet


def _blank_is_none(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


def cleaned(changes: UserChanges, edition: Edition) -> UserChanges:
    """The changes trimmed (empty is none), or InvalidInput naming every field that breaks a rule."""
    changes = replace(changes, real_name=_blank_is_none(changes.real_name), phone=_blank_is_none(changes.phone),
                      email=_blank_is_none(changes.email), company=_blank_is_none(changes.company))
    problems: dict[str, str] = {}
    checks = (("realName", changes.real_name, real_name_problem), ("company", changes.company, company_problem),
              ("phone", changes.phone, lambda v: phone_problem(v, edition)), ("email", changes.email, email_problem))
    for field, value, problem_of in checks:
        problem = (text_problem(value) or problem_of(value)) if value is not None else None
        if problem:
            problems[field] = problem
    types = TYPES_OF_ROLE.get(changes.role_code)
    if types is None:
        problems["roleCode"] = UNKNOWN_ROLE
    elif changes.account_type not in types:
        problems["accountType"] = TYPE_ROLE_MISMATCH
    if problems:
        raise InvalidInput.of(problems)
    return changes


def _is_admin(user: ManagedUser) -> bool:
    return user.role_code == roles.SYSTEM_ADMIN.code


def _caller(uow: UserAdminUnitOfWork, caller_id: int) -> ManagedUser:
    caller = uow.user_directory.get(caller_id)
    if caller is None:  # deleted between the token check and now
        raise NotFound()
    return caller


def _target(uow: UserAdminUnitOfWork, account_id: int) -> ManagedUser:
    user = uow.user_directory.get(account_id)
    if user is None:
        raise NotFound()
    return user


def _may_manage(caller: ManagedUser, target: ManagedUser | None, new_role: str | None = None) -> None:
    if _is_admin(caller):
        return
    if (target is not None and target.back_office) or new_role in BACK_OFFICE_ROLES:
        raise BackOfficeAccountsForAdministrators()


def _check_contacts(uow: UserAdminUnitOfWork, changes: UserChanges, account_id: int | None) -> None:
    problems = {}
    for field, phone, email in (("phone", changes.phone, None), ("email", None, changes.email)):
        if (phone or email) and any(owner != account_id for owner in uow.user_directory.contact_owner(phone, email)):
            problems[field] = CONTACT_TAKEN
    if problems:
        raise InvalidInput.of(problems)


def _keep_an_admin(uow: UserAdminUnitOfWork, target: ManagedUser) -> None:
    if _is_admin(target) and uow.user_directory.count_with_role(roles.SYSTEM_ADMIN.code) <= 1:
        raise LastSystemAdministrator()


class ListUsers:
    def __init__(self, uow: UserAdminUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, where: UserFilter, request: PageRequest) -> Page[ManagedUser]:
        with self._uow as uow:
            return uow.user_directory.page(where, request)


class GetUser:
    def __init__(self, uow: UserAdminUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> ManagedUser:
        with self._uow as uow:
            return _target(uow, account_id)


class AddUser:
    def __init__(self, uow: UserAdminUnitOfWork, hasher: PasswordHasher, policy: PasswordPolicy, clock: Clock,
                 edition: Edition) -> None:
        self._uow, self._hasher, self._policy, self._clock, self._edition = uow, hasher, policy, clock, edition

    def __call__(self, caller_id: int, cmd: NewUser) -> tuple[ManagedUser, str | None]:
        """The new account, and its password when the server made it (shown this once)."""
        user_name = cmd.user_name.strip()
        problem = user_name_problem(user_name)
        if problem:
            raise InvalidInput("userName", problem)
        changes = cleaned(cmd.changes, self._edition)
        generated = generate_password() if not cmd.password else None
        password = generated or cmd.password or ""
        problem = self._policy.problem(password, user_name)
        if problem:
            raise InvalidInput("accountPassword", problem)
        password_hash = self._hasher.hash(password)
        with self._uow as uow:
            _may_manage(_caller(uow, caller_id), None, changes.role_code)
            if uow.user_directory.user_name_taken(user_name):
                raise InvalidInput("userName", USER_NAME_TAKEN)
            _check_contacts(uow, changes, None)
            account_id = uow.user_directory.add(user_name, password_hash, changes, self._clock.now())
            uow.commit()
            return _target(uow, account_id), generated


class ModifyUser:
    def __init__(self, uow: UserAdminUnitOfWork, edition: Edition) -> None:
        self._uow, self._edition = uow, edition

    def __call__(self, caller_id: int, account_id: int, changes: UserChanges) -> ManagedUser:
        changes = cleaned(changes, self._edition)
        with self._uow as uow:
            target = _target(uow, account_id)
            _may_manage(_caller(uow, caller_id), target, changes.role_code)
            if changes.role_code != target.role_code:
                if account_id == caller_id:
                    raise CannotActOnSelf()
                _keep_an_admin(uow, target)
            _check_contacts(uow, changes, account_id)
            uow.user_directory.change(account_id, changes)
            uow.commit()
            return _target(uow, account_id)


class DeleteUser:
    """A soft delete: the account keeps its orders and its devices' history, its name stays taken
    and it can no longer log in; every session it had ends now."""

    def __init__(self, uow: UserAdminUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, caller_id: int, account_id: int) -> None:
        if caller_id == account_id:
            raise CannotActOnSelf()
        now = self._clock.now()
        with self._uow as uow:
            target = _target(uow, account_id)
            _may_manage(_caller(uow, caller_id), target)
            _keep_an_admin(uow, target)
            uow.user_directory.delete(account_id, now)
            uow.sessions.revoke_all(account_id, now)
            uow.commit()


class ResetPasswordBySystem:
    """A new strong password made by the server, returned once; the account's sessions end."""

    def __init__(self, uow: UserAdminUnitOfWork, hasher: PasswordHasher, policy: PasswordPolicy,
                 clock: Clock) -> None:
        self._uow, self._hasher, self._policy, self._clock = uow, hasher, policy, clock

    def __call__(self, caller_id: int, account_id: int) -> str:
        if caller_id == account_id:
            raise CannotActOnSelf()
        with self._uow as uow:
            target = _target(uow, account_id)
            _may_manage(_caller(uow, caller_id), target)
            password = generate_password()
            while self._policy.problem(password, target.user_name):
                password = generate_password()
            uow.user_directory.set_password_hash(account_id, self._hasher.hash(password))
            uow.sessions.revoke_all(account_id, self._clock.now())
            uow.commit()
        return password


class UpgradeToEnterprise:
    """Personal to enterprise: the account type and its system role change together. An operator
    upgrades any personal account; a customer, their own."""

    def __init__(self, uow: UserAdminUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> ManagedUser:
        with self._uow as uow:
            target = _target(uow, account_id)
            if target.back_office:
                raise NoCustomerType()
            if target.account_type is AccountType.ENTERPRISE:
                raise AlreadyEnterprise()
            if target.account_type is not AccountType.PERSONAL or target.role_code != roles.PERSONAL_CUSTOMER.code:
                raise NotUpgradable()
            uow.user_directory.set_type(account_id, AccountType.ENTERPRISE, roles.ENTERPRISE_CUSTOMER.code)
            uow.commit()
            return _target(uow, account_id)


class ApplyAsContractor:
    """A personal customer becomes an engineer (contractor) by accepting the agreement, recorded
    with its version and time; an operator certifies them afterwards. Accepting again (a newer
    agreement) records the new acceptance and keeps the certification as it is."""

    def __init__(self, uow: UserAdminUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, agreement_version: str) -> ManagedUser:
        with self._uow as uow:
            user = _target(uow, account_id)
            if user.back_office:
                raise NoCustomerType()
            if (user.account_type not in (AccountType.PERSONAL, AccountType.ENGINEER)
                    or user.role_code != roles.PERSONAL_CUSTOMER.code):
                raise CannotApplyAsContractor()
            uow.user_directory.apply_as_contractor(account_id, agreement_version, self._clock.now())
            uow.commit()
            return _target(uow, account_id)


class CertifyContractor:
    def __init__(self, uow: UserAdminUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, certified: bool) -> ManagedUser:
        with self._uow as uow:
            user = _target(uow, account_id)
            if user.contractor_state == ContractorState.NONE:
                raise NotAContractor()
            uow.user_directory.certify(account_id, certified, self._clock.now())
            uow.commit()
            return _target(uow, account_id)


class ExportUsers:
    def __init__(self, uow: UserAdminUnitOfWork, sheet: UserSheet) -> None:
        self._uow, self._sheet = uow, sheet

    def __call__(self, where: UserFilter, headers: list[str],
                 row: Callable[[ManagedUser], list[object]]) -> bytes:
        """The accounts matching the filter as a sheet (at most MAX_EXPORT_ROWS), each row as
        `row` writes it: the edge knows the operator's language."""
        with self._uow as uow:
            rows: Iterator[list[object]] = (row(u) for u in uow.user_directory.every(where, MAX_EXPORT_ROWS))
            return self._sheet.render(headers, rows)


class ListSystemRoles:
    def __init__(self, uow: UserAdminUnitOfWork) -> None:
        self._uow = uow

    def __call__(self) -> list[SystemRole]:
        with self._uow as uow:
            return uow.user_directory.system_roles()


class RolesOfAccount:
    def __init__(self, uow: UserAdminUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> list[SystemRole]:
        with self._uow as uow:
            _target(uow, account_id)
            return uow.user_directory.roles_of(account_id)
