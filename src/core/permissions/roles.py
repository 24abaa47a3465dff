"""System and organization roles with the permissions each holds.

These are the ones every installation has; an organization adds its own custom roles
(core/organizations/custom_roles.py) from ORGANIZATION_GRANTABLE. They are
synchronised into the database after each migration.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from core.permissions import catalogue as c
from core.shared.messages import N_


class RoleType(IntEnum):
    SYSTEM = 1
    ORGANIZATION = 2
    CUSTOM = 3


@dataclass(frozen=True)
class RoleDefinition:
    code: str
    name: str
    role_type: RoleType
    permissions: frozenset[str]
    description: str = ""


_PERSONAL = c.names((
    "home", "mall", "message.list", "device.list", "device.detail", "waybill", "asset.list", "fda",
    "consumer.info", "consumer.wallet", "consumer.recharge", "consumer.download", "consumer.sharer",
    "operation.log", "activities.list", "dataCenter.scheduledBackup", "calibration.order",
))
_ENTERPRISE = _PERSONAL | c.names((
    "project.list", "organization.list", "consumer.list", "consumer.role", "cloudChain",
    "storageProject", "freezerIdentify", "operateBoard.report",
))
_BACK_OFFICE_ALL = frozenset(p.name for p in c.ALL if p.back_office)
# The operation log's page is a customer route, but the back office reads every account's entries
# there (entrypoints/api/audit), so an operator holds it too (with query and export): the menu shows it.
# The platforms' merchant accounts (where the money goes) are the system administrator's alone.
_OPERATOR = (
    c.names(("home", "message.list", "operation.log"))
    | _BACK_OFFICE_ALL
) - c.names(("system.role", "cloudCustomized", "calibration", "calibrationServe", c.MARKET_MANAGE,
             "customized.list:payConfig"))
_CALIBRATION_ADMIN = c.names(("home", "calibrationServe", "calibration"))
_DEALER = _PERSONAL | c.names(("dealer.index", "cloudCustom", "project.list"))
# The one account that may see marketManage is chosen by configuration, not by a role.
_ADMIN = frozenset(p.name for p in c.ALL) - {c.MARKET_MANAGE}

SYSTEM_ADMIN = RoleDefinition("system_admin", N_("System administrator"), RoleType.SYSTEM, _ADMIN)
OPERATOR = RoleDefinition("operator", N_("Operator"), RoleType.SYSTEM, _OPERATOR)
PERSONAL_CUSTOMER = RoleDefinition("customer_personal", N_("Personal customer"), RoleType.SYSTEM, _PERSONAL)
ENTERPRISE_CUSTOMER = RoleDefinition("customer_enterprise", N_("Enterprise customer"), RoleType.SYSTEM,
                                     _ENTERPRISE)
DEALER = RoleDefinition("dealer", N_("Dealer"), RoleType.SYSTEM, _DEALER)
CALIBRATION_ADMIN = RoleDefinition("calibration_admin", N_("Calibration administrator"), RoleType.SYSTEM,
                                   _CALIBRATION_ADMIN)

# What every organization role holds, custom ones too: a member sees the organization they are in.
ORGANIZATION_BASELINE = c.exactly("organization.list", "organization.list:query", "organization.list:detail")
# Who sees and who changes the organization's devices: the SQL of device access (adapters/persistence/devices.py)
# asks for these two in the member's role; organization_device_rights says the same in Python.
SEE_DEVICES, CHANGE_DEVICES = "device.list", "device.list:edit"

# The organization's projects and assets: its creator and administrators change them, its other
# members read them (the use cases decide per organization, core/projects and core/assets).
_SHARED_THINGS = c.names(("project.list", "asset.list"))
_READ_SHARED_THINGS = c.exactly("project.list", "project.list:query", "project.list:detail",
                                "asset.list", "asset.list:query", "asset.list:detail")
ORG_CREATOR = RoleDefinition("org_creator", N_("Organization creator"), RoleType.ORGANIZATION,
                             c.names(("organization.list", "consumer.list", "consumer.role"))
                             | c.exactly(SEE_DEVICES, CHANGE_DEVICES) | _SHARED_THINGS)
ORG_ADMIN = RoleDefinition("org_admin", N_("Organization administrator"), RoleType.ORGANIZATION,
                           c.names(("organization.list", "consumer.list", "consumer.role"))
                           | c.exactly(SEE_DEVICES, CHANGE_DEVICES) | _SHARED_THINGS)
ORG_MEMBER = RoleDefinition("org_member", N_("Organization member"), RoleType.ORGANIZATION,
                            ORGANIZATION_BASELINE | c.exactly(SEE_DEVICES) | _READ_SHARED_THINGS)

# The routes (with the actions) a custom organization role may grant: what a member does with
# the organization's devices, projects and assets and sees of its people and log. Managing the
# organization itself (renaming it, inviting, re-roling, editing roles) stays with its creator and
# administrators, so a custom role cannot grant those actions: the server would not honour them.
GRANTABLE_ROUTES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("organization.list", ("query", "detail")),
    ("consumer.list", ("query", "detail")),
    ("consumer.role", ("query", "detail")),
    ("device.list", c.CRUD_IO),
    ("device.detail", ("query", "edit")),
    ("project.list", c.CRUD),
    ("asset.list", c.SWITCHABLE),
    ("operation.log", ("query", "export")),
)
ORGANIZATION_GRANTABLE = c.exactly(*(
    name for route, actions in GRANTABLE_ROUTES for name in (route, *(f"{route}:{a}" for a in actions))))


def organization_device_rights(permissions: Iterable[str]) -> tuple[bool, bool]:
    """(may see, may change) the organization's devices, for a member whose organization role
    holds `permissions`."""
    held = set(permissions)
    return SEE_DEVICES in held, CHANGE_DEVICES in held



BUILT_IN: tuple[RoleDefinition, ...] = (
    SYSTEM_ADMIN, OPERATOR, PERSONAL_CUSTOMER, ENTERPRISE_CUSTOMER, DEALER, CALIBRATION_ADMIN,
    ORG_CREATOR, ORG_ADMIN, ORG_MEMBER,
)
BY_CODE = {r.code: r for r in BUILT_IN}
