"""System and organization roles with the permissions each holds.

The back office may add custom roles later; these are the ones every installation has. They are
synchronised into the database after each migration.
"""

from __future__ import annotations

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
    "operation.log", "activities.list", "dataCenter.scheduledBackup",
))
_ENTERPRISE = _PERSONAL | c.names((
    "project.list", "organization.list", "consumer.list", "consumer.role", "cloudChain",
    "storageProject", "freezerIdentify", "operateBoard.report",
))
_BACK_OFFICE_ALL = frozenset(p.name for p in c.ALL if p.back_office)
_OPERATOR = (
    c.names(("home", "message.list"))
    | _BACK_OFFICE_ALL
) - c.names(("system.role", "cloudCustomized", "calibration", "calibrationServe", c.MARKET_MANAGE))
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

ORG_CREATOR = RoleDefinition("org_creator", N_("Organization creator"), RoleType.ORGANIZATION,
                             c.names(("organization.list", "consumer.list", "consumer.role")))
ORG_ADMIN = RoleDefinition("org_admin", N_("Organization administrator"), RoleType.ORGANIZATION,
                           c.names(("organization.list", "consumer.list")))
ORG_MEMBER = RoleDefinition("org_member", N_("Organization member"), RoleType.ORGANIZATION,
                            c.exactly("organization.list", "organization.list:query",
                                      "organization.list:detail"))

# Organization roles whose holders change the organization's devices (settings, alarm rules,
# orders). Members only read them until organization roles are managed in full.
DEVICE_WRITERS = frozenset({ORG_CREATOR.code, ORG_ADMIN.code})

BUILT_IN: tuple[RoleDefinition, ...] = (
    SYSTEM_ADMIN, OPERATOR, PERSONAL_CUSTOMER, ENTERPRISE_CUSTOMER, DEALER, CALIBRATION_ADMIN,
    ORG_CREATOR, ORG_ADMIN, ORG_MEMBER,
)
BY_CODE = {r.code: r for r in BUILT_IN}
