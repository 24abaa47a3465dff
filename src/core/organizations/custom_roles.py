"""An organization's custom roles: a name, a description and a set of permissions chosen from the
part of the catalogue an organization role may grant. The creator and the administrators make,
change and delete them; every member reads them (the role list and the members' role selects)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core.organizations.errors import BuiltInRoleFixed, RoleHeld
from core.organizations.model import ASSIGNABLE_ROLES, MANAGERS, CustomRole
from core.organizations.ports import OrganizationsUnitOfWork, RoleNameTaken
from core.permissions import roles
from core.shared.clock import Clock
from core.shared.errors import Forbidden, InvalidInput, NotFound
from core.shared.messages import N_
from core.shared.text import has_refused_characters

NAME_MAX = DESCRIPTION_MAX = 20  # spec 001 section 5: role name and description up to 20

NAME_REQUIRED = N_("Enter the role's name")
NAME_LENGTH = N_("A role name is at most {max} characters")
DESCRIPTION_LENGTH = N_("A role description is at most {max} characters")
NAME_CHARACTERS = N_("A role name may not hold emoji or control characters")
DESCRIPTION_CHARACTERS = N_("A role description may not hold emoji or control characters")
NAME_TAKEN = N_("The organization already has a role of this name")
UNKNOWN_PERMISSION = N_("Choose permissions an organization role may grant")
NOT_A_ROLE = N_("Choose one of the organization's roles")

def name_key(name: str) -> str:
    """Two role names are the same in one organization whatever their case."""
    return name.casefold()


@dataclass(frozen=True)
class RoleInput:
    name: str
    description: str | None
    permissions: tuple[str, ...] = field(default_factory=tuple)


def _checked(cmd: RoleInput) -> tuple[str, str | None, frozenset[str]]:
    """The trimmed name and description (empty: none) and the permissions to store: the chosen
    ones, the route of each chosen action, and the baseline every organization role holds."""
    name, description = cmd.name.strip(), (cmd.description or "").strip() or None
    problems: dict[str, str] = {}
    params: dict[str, dict[str, int]] = {}
    if not name:
        problems["roleName"] = NAME_REQUIRED
    elif len(name) > NAME_MAX:
        problems["roleName"], params["roleName"] = NAME_LENGTH, {"max": NAME_MAX}
    elif has_refused_characters(name):
        problems["roleName"] = NAME_CHARACTERS
    if description is not None:
        if len(description) > DESCRIPTION_MAX:
            problems["description"], params["description"] = DESCRIPTION_LENGTH, {"max": DESCRIPTION_MAX}
        elif has_refused_characters(description):
            problems["description"] = DESCRIPTION_CHARACTERS
    chosen = frozenset(cmd.permissions)
    if not chosen <= roles.ORGANIZATION_GRANTABLE:
        problems["permissions"] = UNKNOWN_PERMISSION
    if problems:
        raise InvalidInput.of(problems, params)
    return name, description, granted(chosen)


def granted(chosen: Iterable[str]) -> frozenset[str]:
    """What a custom role holds for the chosen permissions: an action brings its route along (a
    button on a page the member could not open would be no use), and the baseline is always held."""
    chosen = frozenset(chosen)
    return chosen | {name.split(":", 1)[0] for name in chosen} | roles.ORGANIZATION_BASELINE


@dataclass(frozen=True)
class OrganizationRole:
    """A role the organization's members may hold: a built-in one (name to translate) or one of
    its custom roles."""

    code: str
    name: str
    built_in: bool
    assignable: bool
    permissions: frozenset[str]
    id: int | None = None
    description: str | None = None
    holders: int = 0


def _role(uow: OrganizationsUnitOfWork, organization_id: int, account_id: int) -> str:
    role = uow.organizations.role_of(organization_id, account_id)
    if role is None:
        raise NotFound()
    return role


def _manager(uow: OrganizationsUnitOfWork, organization_id: int, account_id: int) -> None:
    if _role(uow, organization_id, account_id) not in MANAGERS:
        raise Forbidden()


def assignable_role(uow: OrganizationsUnitOfWork, organization_id: int, role_code: str) -> str:
    """A role a member of the organization may be given: a built-in assignable one or one of the
    organization's own custom roles (another organization's is refused like an unknown one)."""
    if role_code in ASSIGNABLE_ROLES:
        return role_code
    role = uow.organization_roles.by_code(role_code)
    if role is None or role.organization_id != organization_id:
        raise InvalidInput("roleCode", NOT_A_ROLE)
    return role_code


class ListOrganizationRoles:
    """queryRoleByOrganizationType: the built-in organization roles, then, with an organization (its
    members only), its custom ones by name. A built-in role carries the id of its row, which an FDA
    endorsement names (core.fda.endorsements)."""

    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int | None) -> list[OrganizationRole]:
        with self._uow as uow:
            ids = uow.organization_roles.built_in_ids()
            built_in = [OrganizationRole(r.code, r.name, True, r.code in ASSIGNABLE_ROLES, r.permissions,
                                         ids.get(r.code)) for r in roles.BUILT_IN
                        if r.role_type is roles.RoleType.ORGANIZATION]
            if organization_id is None:
                return built_in
            _role(uow, organization_id, account_id)
            custom = uow.organization_roles.of_organization(organization_id)
        return built_in + [OrganizationRole(r.code, r.name, False, True, r.permissions, r.id, r.description,
                                            r.holders) for r in custom]


def _custom(uow: OrganizationsUnitOfWork, account_id: int, role_id: int) -> CustomRole:
    """A custom role of an organization the caller manages: 404 to a stranger, 403 to a member
    who may not manage, 409 for a built-in role."""
    if uow.organization_roles.is_built_in(role_id):
        raise BuiltInRoleFixed()
    role = uow.organization_roles.get(role_id)
    if role is None:
        raise NotFound()
    _manager(uow, role.organization_id, account_id)
    return role


class CreateRole:
    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int, cmd: RoleInput) -> CustomRole:
        with self._uow as uow:
            _manager(uow, organization_id, account_id)
            name, description, permissions = _checked(cmd)
            if uow.organization_roles.name_taken(organization_id, name_key(name)):
                raise InvalidInput("roleName", NAME_TAKEN)
            try:
                role = uow.organization_roles.add(CustomRole(organization_id, name, description, permissions))
            except RoleNameTaken:
                raise InvalidInput("roleName", NAME_TAKEN) from None
            uow.commit()
        return role


class UpdateRole:
    """Name, description and permissions at once; its holders have the new permissions on their
    next request."""

    def __init__(self, uow: OrganizationsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, role_id: int, cmd: RoleInput) -> CustomRole:
        with self._uow as uow:
            role = _custom(uow, account_id, role_id)
            role.name, role.description, role.permissions = _checked(cmd)
            if uow.organization_roles.name_taken(role.organization_id, name_key(role.name), except_id=role_id):
                raise InvalidInput("roleName", NAME_TAKEN)
            try:
                uow.organization_roles.update(role)
            except RoleNameTaken:
                raise InvalidInput("roleName", NAME_TAKEN) from None
            uow.commit()
            updated = uow.organization_roles.get(role_id)
        assert updated is not None
        return updated


class DeleteRole:
    """Refused while members hold it (they would be left without a role); pending invitations
    offering it are withdrawn."""

    def __init__(self, uow: OrganizationsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, role_id: int) -> None:
        with self._uow as uow:
            role = _custom(uow, account_id, role_id)
            if role.holders:
                raise RoleHeld(count=role.holders)
            uow.organization_roles.delete(role_id, self._clock.now())
            uow.commit()
