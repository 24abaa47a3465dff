"""The access matrix (issue 17): for every call of /api/openapi.json that takes an object id, the
answer each kind of caller gets on an object that is not theirs to take, SQLite and PostgreSQL.

Callers (CALLERS): the owner (acme, on Acme's device and acme's own objects), an administrator
of Acme's organization (carol), a plain member of it (bob), a sharee under the built-in "View
only" template (bob on alice's cold room A and alice's objects), a sharee under a template that
grants every element to see and to operate (bob on alice's cold room B), a stranger (alice on
Acme's) and the back office's operator (on Acme's). A call that takes an id and has no MATRIX row fails
test_every_call_that_takes_an_id_has_a_row.

Each case (row, caller) runs on the demo data with the teams and the objects of `World`; the
state is shared between cases while no case changed it (refusals change nothing, and reads and
the writes not marked `changes` neither), and seeded again after a write that went through.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from io import BytesIO
from typing import Any

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from sqlalchemy import select, update

from adapters.persistence.models import AccountRow, DeviceRow, OrganizationRow, SystemMessageRow
from core.devices.grants import Element
from core.fda.model import Subject
from core.useradmin.model import CONTRACTOR_AGREEMENT_VERSION
from entrypoints.demo_seed import DEMO_PASSWORD
from tests.integration.test_alarm_push_api import setting
from tests.integration.test_attack_access import catalogue, device_id, service_order, sms_order, warehouse_rule
from tests.integration.test_device_tabs_api import RECORD
from tests.integration.test_recharge_api import pay
from tests.support.alarms import report
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded

# --- which calls take an object id -------------------------------------------------------------------------

# A field is an object id when it is named id, ids or pk, or its name ends in Id, Ids or IdList
# (deviceId, deviceIds, deviceIdList, orderId, messageIds...), anywhere in the query, the path or
# the (resolved) request body. These are not ids of anybody's objects:
NOT_OBJECT_IDS = {
    "captchaId",  # the sign-in captcha's one-time handle, not an object an account holds
    "sceneId",  # a scene of the public permission catalogue, the same for everybody
    "typeId",  # a device type of the public catalogue
    "deviceTypeId", "deviceTypeIds",  # the same, as the back office's catalogue names them
    "levelId", "levelIds", "levelYearId", "packageId", "servicePackageId",  # the public price list
    "smsPackageId", "voicePackageId",  # the public SMS and voice packages
    "activityId",  # a public promotion of the price list
    "paymentPlatformId",  # the payment provider's handle of the payment method, checked by the provider
}
ID_FIELD = re.compile(r"^(id|ids|pk)$|(Id|Ids|IdList)$")


def _schema(spec: dict, schema: Any) -> dict:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema if isinstance(schema, dict) else {}


def _fields(spec: dict, schema: Any, depth: int = 0) -> set[str]:
    schema = _schema(spec, schema)
    if depth > 8:
        return set()
    names: set[str] = set()
    for name, sub in (schema.get("properties") or {}).items():
        names |= {name} | _fields(spec, sub, depth + 1)
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key, []):
            names |= _fields(spec, sub, depth + 1)
    if "items" in schema:
        names |= _fields(spec, schema["items"], depth + 1)
    return names


def calls_taking_ids(spec: dict) -> dict[tuple[str, str], set[str]]:
    found = {}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            names = {p["name"] for p in operation.get("parameters", [])}
            for content in (operation.get("requestBody") or {}).get("content", {}).values():
                names |= _fields(spec, content.get("schema"))
            ids = {n for n in names if ID_FIELD.search(n) and n not in NOT_OBJECT_IDS}
            if ids:
                found[(method.upper(), path.removeprefix("/api"))] = ids
    return found


# --- who calls on what ------------------------------------------------------------------------------------

# caller -> (user name, whose objects it is aimed at)
CALLERS = {
    "owner": ("acme", "acme"),
    "org_admin": ("carol", "acme"),
    "org_member": ("bob", "acme"),
    "sharee_view": ("bob", "alice"),
    "sharee_operate": ("bob", "alice_operate"),
    "stranger": ("alice", "acme"),
    "operator": ("operator", "acme"),
}
# Acme's organization's; alice's cold room A, shared with bob view-only, and B, shared with bob under a
# template that grants every element to see and to operate
DEVICES = {"acme": "CR2B000000001", "alice": "RCW360A0000001", "alice_operate": "RCW360A0000002"}
OWNERS = {"acme": "acme", "alice": "alice", "alice_operate": "alice"}

# The expected answer of a kind of call, per caller; NA: the caller has no such relation to the
# object (alice holds no organization, so no sharee of hers is a member of one).
NA = None
READ = {"owner": 200, "org_admin": 200, "org_member": 200, "sharee_view": 200, "sharee_operate": 200, "stranger": 404,
        "operator": 403}
WRITE = {**READ, "org_member": 403, "sharee_view": 403}
OWNER_ONLY = {**WRITE, "org_admin": 403, "sharee_operate": 403}  # delete, scrap, credentials, share, transfer, projects
# held by an account alone
ACCOUNT = {**READ, "org_admin": 404, "org_member": 404, "sharee_view": 404, "sharee_operate": 404}
NO_ORG = {"sharee_view": NA, "sharee_operate": NA}
OP404 = {"operator": 404}  # the operator has the call's page but sees no customer's object
BACK_OFFICE = {**dict.fromkeys(CALLERS, 403), "operator": 200}  # user administration
# an organization's project: read by its members, changed by its administrators
ORG_PROJECT = {**READ, "sharee_view": 404, "sharee_operate": 404, "stranger": 403}
ORG_PROJECT_WRITE = {**ORG_PROJECT, "org_member": 403, "sharee_view": 403, "sharee_operate": 403}
# an organization's asset, the same (alice, a stranger, has asset pages of her own: 404)
ORG_ASSET = {**READ, "sharee_view": 404, "sharee_operate": 404}
ORG_ASSET_WRITE = {**ORG_ASSET, "org_member": 403}
# a waybill is scoped as its devices: read by its organization's members and by a sharee of one of its
# devices (bob on alice's, through cold room A or B), changed by its owner and its organization's administrators
WAYBILL_WRITE = {**READ, "org_member": 403, "sharee_view": 403, "sharee_operate": 403}
# FDA mode (issue 22): an organization's switch, its signatures and endorsements are read by its members and
# changed by its creator and administrators; the operator has no FDA page. A record is signed by who may change
# it (a read-only member and a sharee only as an endorsement names them); another's endorsement is unknown
FDA_READ = {**READ, "operator": 403}
FDA_WRITE = {**FDA_READ, "org_member": 403, "sharee_view": 403, "sharee_operate": 403}
FDA_ENDORSEMENT = {**FDA_WRITE, "sharee_view": 404, "sharee_operate": 404}
# a calibration application (issue 21) is its applicant account's alone (no organization shares it);
# the lab's calls are refused to every customer and to the operator before any lookup (403)
CALIBRATION = {**ACCOUNT, "operator": 404}
LAB_ONLY = dict.fromkeys(CALLERS, 403)
# applying for a console device takes one its owner or its organization's administrator (a sharee who
# operates it does not decide its calibration); any other is the field's refusal (422), as an unknown id
CALIBRATION_APPLY = {**dict.fromkeys(CALLERS, 422), "owner": 200, "org_admin": 200}
# an organization's audit trail (issue 22): verified by its members, its links read by its managers
FDA_VERIFY = {**READ, "operator": 403}
FDA_TRAIL = {**FDA_VERIFY, "org_member": 403}
# an FDA periodic report is its device's subject's record: read by the owner and its organization's members
FDA_REPORT = {**READ, "sharee_view": 404, "sharee_operate": 404}
_template_names = itertools.count(1)


@dataclass(frozen=True)
class Row:
    kind: dict[str, int | None]
    build: Callable[[dict], dict]  # the target's objects -> the call's query or json
    # a successful call changes World: True, the next case needs a new one; the name of an object, it
    # makes that object again (World.make)
    changes: bool | str = False
    also: dict[str, int | None] = field(default_factory=dict)  # answers unlike the kind's

    def expected(self, caller: str) -> int | None:
        return {**self.kind, **self.also}.get(caller)


def q(**fields: Any) -> Callable[[dict], dict]:
    """A query of placeholders: "{device}" is the target's device id, and so on."""
    return lambda o: {"query": _fill(fields, o)}


def j(**fields: Any) -> Callable[[dict], dict]:
    return lambda o: {"json": _fill(fields, o)}


def _fill(value: Any, o: dict) -> Any:
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return o[value[1:-1]]
    if isinstance(value, dict):
        return {k: _fill(v, o) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, o) for v in value]
    return value


UNKNOWN_ID = 2_000_000_000  # an id of nothing, for the calls refused to every caller before any lookup
SPAN = {"startTime": "2026-01-01T00:00:00+00:00", "endTime": "2026-01-02T00:00:00+00:00"}
B, D, R, A, P = "/base", "/device/Device", "/device/DeviceAlarmRule", "/device/DeviceAlarm", "/payment"
S = "/device/Asset"
GF = "/device/DeviceFence"
FENCE_AREAS = [{"shape": "circle", "lat": 31.23, "lon": 121.47, "radius": 500}]
WB = "/device/Waybill"
FDA = "/device/FdaRecord"
FRP = "/device/FdaReport"
CA, CR = "/calibration/Application", "/calibration/ResultInfo"
FR, FE = "/device/FdaRecord", "/device/FdaEndorsement"
CALIBRATION_CONTACT = {"customerName": "Matrix", "contactName": "Matrix", "contactPhone": "13900000000",
                       "returnAddress": "1 Matrix Road"}
CERTIFICATE = {"labName": "Lab", "customerName": "Matrix", "itemType": "Logger", "itemModel": "M", "itemSerial": "S1",
               "conditionOnReceipt": "Good", "receivedOn": "2026-01-01", "calibratedOn": "2026-01-02", "method": "M1",
               "environment": {"temperature": 22, "humidity": 45}, "decisionRule": "simple",
               "asFound": [{"reference": 1, "reading": 1.1, "uncertainty": 0.1}],
               "authorisedBy": {"name": "Li", "role": "Manager"}}
PA = "/payment/PayActivity"
ACTIVITY_2030 = {"name": "Matrix", "nature": 1, "startTime": "2030-01-01T00:00:00+00:00",
                 "endTime": "2030-02-01T00:00:00+00:00",
                 "options": [{"levelYearId": "{levelYearId}", "activityDiscount": 90}]}
ACTIVITY_2031 = {**ACTIVITY_2030, "nature": 2, "startTime": "2031-01-01T00:00:00+00:00",
                 "endTime": "2031-02-01T00:00:00+00:00"}
NEW_ROLE = "Matrix new"  # the custom role the insert row makes, deleted again after each case that made it
BILL = {"invoiceType": 1, "billMode": 1, "personalName": "Acme", "billUserName": "Acme", "billPhone": "13800000002",
        "billAddress": "1 Dock Road"}

MATRIX: dict[tuple[str, str], Row] = {
    # organizations: the target is Acme's organization, the member acted on bob (test_organizations_api
    # has the rows of an administrator acting on members); the operator has no organization pages
    ("GET", f"{B}/BaseOrganization/members"): Row(READ, q(organizationId="{org}"), also={**NO_ORG, **OP404}),
    ("PUT", f"{B}/BaseOrganization/update"): Row(
        OWNER_ONLY, j(organizationId="{org}", organizationName="Acme Cold Chain"),
        also={"org_admin": 200, **NO_ORG, **OP404}),
    ("DELETE", f"{B}/BaseOrganization/delete"): Row(OWNER_ONLY, q(organizationId="{org}"),
                                                    also={"owner": 409, **NO_ORG, **OP404}),  # 409: it holds devices
    ("GET", f"{B}/BaseAccount/queryAccountByUEP"): Row(  # 409 1702: nobody to invite, the check passed
        WRITE, q(organizationId="{org}", uep="nobody-here"), also={"owner": 409, "org_admin": 409, **NO_ORG, **OP404}),
    ("POST", f"{B}/BaseAccount/invite"): Row(
        WRITE, j(organizationId="{org}", uep="nobody-here", roleCode="org_member"),
        also={"owner": 409, "org_admin": 409, **NO_ORG, **OP404}),
    ("DELETE", f"{B}/BaseAccount/withdrawInvitation"): Row(WRITE, q(invitationId="{invitation}"), changes="invitation",
                                                           also={**NO_ORG, **OP404}),
    ("DELETE", f"{B}/BaseAccount/deleteInOrganization"): Row(
        WRITE, q(organizationId="{org}", accountId="{member}"), changes=True, also={**NO_ORG, **OP404}),
    ("PUT", f"{B}/BaseRole/updateRoleInOrganization"): Row(
        WRITE, j(organizationId="{org}", accountId="{member}", roleCode="org_member"), also={**NO_ORG, **OP404}),
    ("PUT", f"{B}/BaseAccount/updateAccountOrganizationRel"): Row(
        OWNER_ONLY, j(organizationId="{org}", accountId="{member}"), changes=True, also={**NO_ORG, **OP404}),
    # system messages: the target is a message to acme (alice's invitation for the sharee row). Marking
    # another's message read marks nothing: 200 {"marked": 0}, as an unknown id (checked for the stranger)
    ("POST", f"{B}/BaseMessage/read"): Row(dict.fromkeys(CALLERS, 200), j(messageIds=["{message}"])),
    ("POST", f"{B}/BaseMessage/answer"): Row(ACCOUNT, j(messageId="{message}", decision="approved"),
                                             also={"owner": 409, **OP404}),  # 409: it asks for no decision
    # devices
    ("GET", f"{D}/getExpiredServiceDevice"): Row(ACCOUNT, q(accountId="{account}"), also=OP404),
    # a project filters the caller's own list: another's project filters it to nothing, as an unknown id
    ("POST", f"{D}/page"): Row(READ, j(projectId="{project}"), also={"stranger": 200}),
    ("POST", f"{D}/markers"): Row(READ, j(projectId="{project}"), also={"stranger": 200}),
    ("POST", "/device/DeviceDataExport/createDeviceList"): Row(READ, j(projectId="{project}"),
                                                               also={"stranger": 200}),
    ("GET", f"{D}/get"): Row(READ, q(deviceId="{device}")),
    ("PUT", f"{D}/update"): Row(WRITE, j(deviceId="{device}", remark="checked")),
    ("DELETE", f"{D}/delete"): Row(OWNER_ONLY, q(deviceId="{device}"), changes=True),
    ("GET", f"{D}/credentials"): Row(READ, q(deviceId="{device}")),
    ("POST", f"{D}/credentials/rotate"): Row(OWNER_ONLY, q(deviceId="{device}")),
    ("POST", f"{D}/history"): Row(READ, j(deviceId="{device}", **SPAN)),
    ("POST", f"{D}/track"): Row(READ, j(deviceId="{device}", **SPAN)),
    # 409 1030: cold rooms A and B measure no energy
    ("POST", f"{D}/energy"): Row(READ, j(deviceId="{device}", **SPAN),
                                 also={"sharee_view": 409, "sharee_operate": 409}),
    ("POST", f"{D}/batchDelete"): Row(OWNER_ONLY, j(deviceIds=["{device}"]), changes=True),
    ("POST", f"{D}/scrap"): Row(OWNER_ONLY, j(deviceIds=["{device}"], reason="broken"), changes=True),
    ("POST", f"{D}/restore"): Row(OWNER_ONLY, q(deviceId="{device}")),  # not scrapped: "restored": false
    # clearing the stored readings and alarms (GSP records) is the owner's, as deleting and scrapping
    ("POST", f"{D}/clearData"): Row(OWNER_ONLY, q(deviceId="{device}"), changes=True),
    ("GET", "/device/DeviceParam/get"): Row(READ, q(deviceId="{device}")),
    ("POST", "/device/DeviceParam/save"): Row(WRITE, j(deviceId="{device}", displayPrecision=1, temperatureUnit="C",
                                                       uploadInterval=600, recordInterval=120)),
    ("POST", "/device/DeviceOperationLog/page"): Row(READ, j(deviceId="{device}")),
    ("POST", "/device/DeviceMaintenance/page"): Row(READ, j(deviceId="{device}")),
    ("POST", "/device/DeviceMaintenance/insert"): Row(WRITE, j(deviceId="{device}", **RECORD)),
    ("PUT", "/device/DeviceMaintenance/update"): Row(WRITE, j(id="{maintenance}", **RECORD)),
    ("DELETE", "/device/DeviceMaintenance/delete"): Row(WRITE, q(id="{maintenance}"), changes="maintenance"),
    # alarm rules and alarms
    ("POST", f"{R}/page"): Row(READ, j(deviceId="{device}")),
    ("GET", f"{R}/get"): Row(READ, q(id="{rule}")),
    ("POST", f"{R}/insert"): Row(WRITE, lambda o: {"json": warehouse_rule(o["device"], probe="h", upperLimit=90.0,
                                                                         lowerLimit=None, recipients=[])},
                                 changes=True),
    ("PUT", f"{R}/update"): Row(WRITE, j(id="{rule}", upperLimit=8.0)),
    ("DELETE", f"{R}/delete"): Row(WRITE, q(id="{rule}"), changes=True),
    ("POST", f"{A}/page"): Row(READ, j(deviceId="{device}"), also=OP404),
    ("POST", f"{A}/deal"): Row(WRITE, j(id="{alarm}", handling=1), changes=True, also=OP404),
    ("POST", f"{A}/deferrals"): Row(READ, j(id="{alarm}"), also=OP404),
    ("GET", "/device/DeviceAlarmPushSetting/get"): Row(READ, q(deviceId="{device}")),
    ("PUT", "/device/DeviceAlarmPushSetting/update"): Row(WRITE, lambda o: {"json": setting(o["device"])}),
    # exports and scheduled reports are their maker's; a schedule needs write access to its devices
    ("POST", "/device/DeviceDataExport/create"): Row(READ, j(deviceId="{device}", format="xlsx", **SPAN)),
    ("GET", "/device/DeviceDataExport/get"): Row(ACCOUNT, q(id="{export}")),
    ("GET", "/device/DeviceDataExport/download"): Row(ACCOUNT, q(id="{export}")),
    ("DELETE", "/device/DeviceDataExport/delete"): Row(ACCOUNT, q(id="{export}"), changes="export"),
    ("POST", "/device/DeviceDataExport/retry"): Row(ACCOUNT, q(id="{export}"),
                                                    also={"owner": 409}),  # 409 1202: it has not failed
    # a sharee whose template lets it operate every element is refused too: a schedule needs Access.WRITE
    ("POST", "/device/ScheduledReport/insert"): Row({**WRITE, "sharee_operate": 403}, j(
        name="Matrix", frequency="daily", format="xlsx",
                                                             deviceIds=["{device}"], recipients=["qa@example.com"])),
    ("POST", "/device/ScheduledReport/update"): Row(ACCOUNT, j(id="{schedule}", name="Matrix", frequency="daily",
                                                               format="xlsx", deviceIds=["{device}"],
                                                               recipients=["qa@example.com"])),
    ("DELETE", "/device/ScheduledReport/delete"): Row(ACCOUNT, q(id="{schedule}"), changes="schedule"),
    ("POST", "/device/ScheduledReport/runs"): Row(ACCOUNT, j(scheduleId="{schedule}")),
    # acme's project is its organization's: its administrator changes it, its read-only member reads
    # it; personal accounts outside it (alice) have no project pages at all (403 "Access denied"
    # whatever the id); alice holds none, the sharee rows aim at an unknown id
    ("POST", "/device/Project/insert"): Row(ORG_PROJECT_WRITE, j(projectName="Matrix new", organizationId="{org}"),
                                            changes=True, also=NO_ORG),
    ("GET", "/device/Project/get"): Row(ORG_PROJECT, q(id="{project}")),
    ("PUT", "/device/Project/update"): Row(ORG_PROJECT_WRITE, j(id="{project}", projectName="Matrix")),
    ("DELETE", "/device/Project/delete"): Row(ORG_PROJECT_WRITE, q(id="{project}"), changes="project"),
    ("POST", f"{D}/changeProject"): Row(ORG_PROJECT_WRITE, j(deviceIds=["{device}"], projectId="{project}")),
    # out of its organization (Acme's door logger, in no asset: one in an asset stays): its owner or
    # the organization's administrator; a sharee who operates it is neither (into one:
    # test_device_organization_api.py)
    ("POST", f"{D}/changeOrganization"): Row(WRITE, j(deviceIds=["{loose}"], organizationId=None), changes=True,
                                             also={"sharee_operate": 403}),
    # sharing
    ("PUT", "/device/DevicePermissionModel/update"): Row(ACCOUNT, j(id="{template}", name="Matrix", permissions=[])),
    ("DELETE", "/device/DevicePermissionModel/delete"): Row(ACCOUNT, q(id="{template}"),
                                                            also={"owner": 409}),  # 409 1803: a share uses it
    # sharing, transferring, deleting, scrapping, clearing and credentials are the owner's alone: an
    # organization's administrator changes its devices but may not give them away (core/devices/access.py
    # owned_devices); sharing again replaces the share (a new id)
    ("POST", f"{D}/share"): Row(OWNER_ONLY, j(deviceIds=["{device}"], account="{sharee}", templateId="{view_only}"),
                                changes="share"),
    # a share is its sharer's: only they change it
    ("PUT", "/device/DeviceShare/update"): Row(ACCOUNT, j(id="{share}", templateId="{template}")),
    # a sharee may leave a share: bob is the sharee of acme's share of the cold room and of alice's
    ("POST", "/device/DeviceShare/revoke"): Row(ACCOUNT, j(ids=["{share}"]), changes="share",
                                                also={"org_member": 200, "sharee_view": 200, "sharee_operate": 200}),
    ("POST", f"{D}/transferPreview"): Row(OWNER_ONLY, j(deviceIds=["{device}"])),
    ("POST", f"{D}/transfer"): Row(OWNER_ONLY, j(deviceIds=["{device}"], account="{sharee}"), changes=True),
    # recharge and orders: orders and invoice titles are their maker's
    ("GET", f"{P}/PayServicePackages/selectDeviceDepositInfo"): Row(READ, q(deviceId="{device}"), also=OP404),
    ("GET", f"{P}/PayServiceItem/selectAllServiceItemByDevice"): Row(READ, q(deviceId="{device}"), also=OP404),
    ("GET", f"{P}/PayServicePackages/selectLevelList"): Row(READ, q(deviceId="{device}"), also=OP404),
    ("GET", f"{P}/PayServiceLevelYear/selectListByDomain"): Row(
        READ, q(deviceId="{device}", levelId="{levelId}", packageId="{packageId}"), also=OP404),
    ("POST", f"{P}/PayOrder/selectBatchQuote"): Row(READ, j(deviceIdList=["{device}"], levelId="{levelId}",
                                                            levelYearId="{levelYearId}",
                                                            servicePackageId="{packageId}"), also=OP404),
    ("POST", f"{P}/PayOrder/createServiceOrder"): Row(WRITE, lambda o: {"json": {"deviceId": o["device"],
                                                                                 **o["service_order"]}}, also=OP404),
    ("POST", f"{P}/PayOrder/createBatchServiceOrder"): Row(
        WRITE, lambda o: {"json": {"deviceIdList": [o["device"]], **o["service_order"]}}, also=OP404),
    ("POST", f"{P}/PayOrder/createSmsOrder"): Row(WRITE, lambda o: {"json": {"deviceId": o["device"],
                                                                             **o["sms_order"]}}, also=OP404),
    ("POST", f"{P}/PayOrder/createBatchSmsOrder"): Row(
        WRITE, lambda o: {"json": {"deviceIdList": [o["device"]], **o["sms_order"]}}, also=OP404),
    ("GET", f"{P}/PayOrder/get"): Row(ACCOUNT, q(pk="{order}"), also=OP404),
    # the wallet payment is the international edition's: this domestic one refuses its body for everybody
    # before any lookup (test_attack_access checks the international edition's stranger)
    ("POST", f"{P}/PayOrder/confirmPay"): Row(dict.fromkeys(CALLERS, 422), j(
        orderId="{order}", payType=1, payFee=1, paymentPlatformId="pm_1")),
    ("POST", f"{P}/PayOrder/selectOrderDetail"): Row(ACCOUNT, j(orderId="{order}"), also=OP404),
    ("POST", f"{P}/PayOrder/cancelOrder"): Row(ACCOUNT, j(orderId="{order}"), changes="order", also=OP404),
    ("POST", f"{P}/PayOrder/continuePay"): Row(ACCOUNT, j(orderId="{order}"), also=OP404),
    ("GET", f"{P}/PayOrder/selectCurrentService"): Row(READ, q(deviceId="{device}"), also=OP404),
    ("GET", f"{P}/PayOrder/unAgreement"): Row(  # 409 1110: no auto-renewal to cancel, the check passed
        WRITE, q(deviceId="{device}"), also={"owner": 409, "org_admin": 409, "sharee_operate": 409, **OP404}),
    ("PUT", f"{P}/PayUserBill/update"): Row(ACCOUNT, j(billId="{bill}", **BILL), also=OP404),
    ("DELETE", f"{P}/PayUserBill/delete"): Row(ACCOUNT, q(billId="{bill}"), changes="bill", also=OP404),
    # refunds are the back office's: customers have no such page; 409 1114: the order is unpaid
    ("POST", f"{P}/PayRefund/refundOrder"): Row({**dict.fromkeys(CALLERS, 403), "operator": 409},
                                                j(orderId="{order}", reason="Test")),
    ("POST", f"{P}/PayRefund/preview"): Row({**dict.fromkeys(CALLERS, 403), "operator": 409}, j(orderId="{order}")),
    # offline purchases are the back office's (their own tests record and review them)
    ("GET", f"{P}/PayOfflineDeviceService/selectOfflineServiceList"): Row(
        {**dict.fromkeys(CALLERS, 403), **OP404}, q(offlineId=2_000_000_000)),
    ("DELETE", f"{P}/PayOfflineDeviceService/delete/list"): Row(
        {**dict.fromkeys(CALLERS, 403), **OP404}, q(offlineId=2_000_000_000)),
    ("PUT", f"{P}/PayOfflineExamine/updateExamine"): Row(
        {**dict.fromkeys(CALLERS, 403), **OP404}, j(offlineId=2_000_000_000, approve=True)),
    # deciding a refund is the back office's too (the refunds' own tests make and decide them)
    ("POST", f"{P}/PayRefund/approve"): Row({**dict.fromkeys(CALLERS, 403), **OP404}, j(refundId=2_000_000_000)),
    ("POST", f"{P}/PayRefund/reject"): Row({**dict.fromkeys(CALLERS, 403), **OP404}, j(refundId=2_000_000_000)),
    # invoices (issue 19): an order and a bill are their maker's (409 1141: acme's order is unpaid); an
    # invoice's PDF is its account's and the back office's; issuing, marking and rejecting are the back
    # office's (the target is issued already: 409 1144; the upload is multipart, so this JSON body is 422
    # for the operator: the invoices' own tests upload)
    ("POST", f"{P}/PayInvoice/applyBatchInvoice"): Row(ACCOUNT, j(orderIds=["{order}"], billId="{bill}"),
                                                       also={"owner": 409, **OP404}),
    ("GET", f"{P}/PayInvoice/download"): Row({**ACCOUNT, "operator": 200}, q(invoiceId="{invoice}")),
    ("POST", f"{P}/PayInvoice/issue"): Row({**dict.fromkeys(CALLERS, 403), "operator": 422},
                                           j(invoiceId="{invoice}")),
    ("POST", f"{P}/PayOrder/updateInvoice"): Row({**dict.fromkeys(CALLERS, 403), "operator": 409},
                                                 j(invoiceId="{invoice}")),
    ("POST", f"{P}/PayInvoice/reject"): Row({**dict.fromkeys(CALLERS, 403), "operator": 409},
                                            j(invoiceId="{invoice}", reason="matrix")),
    # the order back office (issue 19) reads any account's order; 409 1131: the provider says acme's
    # unpaid order is not paid, so manual handling changes nothing
    ("GET", f"{P}/PayOrder/selectBackOrderDetail"): Row(BACK_OFFICE, q(orderId="{order}")),
    ("POST", f"{P}/PayOrder/handlingOrder"): Row({**dict.fromkeys(CALLERS, 403), "operator": 409},
                                                 j(orderId="{order}", reason="matrix")),
    # acme's asset is its organization's (Acme's cold room in it): its administrator changes it, its
    # read-only member reads it; alice's (her cold room A), with no organization, is hers alone; the
    # operator has no asset pages. Making the asset again deletes the one a case disabled or emptied,
    # so its device is enabled again and free for the new one
    # for Acme's organization: who changes its devices (a read-only member and a stranger hold asset
    # pages of their own: 422 on organizationId)
    ("POST", f"{S}/insert"): Row({**READ, "org_member": 422, "stranger": 422},
                                 j(assetName="Matrix new", organizationId="{org}"), changes=True, also=NO_ORG),
    ("GET", f"{S}/get"): Row(ORG_ASSET, q(id="{asset}")),
    ("PUT", f"{S}/update"): Row(ORG_ASSET_WRITE, j(id="{asset}", assetName="Matrix")),
    ("DELETE", f"{S}/delete"): Row(ORG_ASSET_WRITE, q(id="{asset}"), changes="asset"),
    ("PUT", f"{S}/enable"): Row(ORG_ASSET_WRITE, j(id="{asset}")),  # enabled already: nothing changes
    ("PUT", f"{S}/disable"): Row(ORG_ASSET_WRITE, j(id="{asset}"), changes="asset"),
    ("POST", f"{S}/bindDevice"): Row(ORG_ASSET_WRITE, j(id="{asset}", deviceIds=["{device}"])),  # in it already
    ("POST", f"{S}/unbindDevice"): Row(ORG_ASSET_WRITE, j(id="{asset}", deviceIds=["{device}"]), changes="asset"),
    # acme's fence is its organization's, watching Acme's cold room: read and changed as its asset (a sharee
    # sees none of the owner's fences); the operator has no fence pages
    ("POST", f"{GF}/insert"): Row({**READ, "org_member": 422, "stranger": 422},
                                  j(name="Matrix new", areas=FENCE_AREAS, organizationId="{org}"), changes=True,
                                  also=NO_ORG),
    ("GET", f"{GF}/get"): Row(ORG_ASSET, q(id="{fence}")),
    ("POST", f"{GF}/events"): Row(ORG_ASSET, j(fenceId="{fence}")),
    ("PUT", f"{GF}/update"): Row(ORG_ASSET_WRITE, j(id="{fence}", name="Matrix", areas=FENCE_AREAS)),
    ("DELETE", f"{GF}/delete"): Row(ORG_ASSET_WRITE, q(id="{fence}"), changes="fence"),
    ("POST", f"{GF}/bindDevices"): Row(ORG_ASSET_WRITE, j(id="{fence}", deviceIds=["{device}"])),  # watched already
    ("POST", f"{GF}/unbindDevices"): Row(ORG_ASSET_WRITE, j(id="{fence}", deviceIds=["{device}"]), changes="fence"),
    # waybills (issue 20): acme's is its organization's with Acme's cold room on it, alice's her own with her
    # cold room A (B for the sharee who operates); starting, unbinding and deleting are made good again
    ("POST", f"{WB}/page"): Row(READ, j(deviceId="{device}"), also={"stranger": 200}),
    ("POST", f"{WB}/insert"): Row({**READ, "org_member": 422, "stranger": 422},
                                  j(orderNum="MATRIX", organizationId="{org}"), changes=True, also=NO_ORG),
    ("GET", f"{WB}/get"): Row(READ, q(id="{waybill}")),
    ("GET", f"{WB}/alarmCount"): Row(READ, q(id="{waybill}")),
    ("GET", f"{WB}/report"): Row(READ, q(id="{waybill}")),
    ("GET", f"{WB}/reportPdf"): Row(READ, q(id="{waybill}")),
    ("PUT", f"{WB}/update"): Row(WAYBILL_WRITE, j(id="{waybill}", orderNum="MATRIX", upperLimit=8.0, lowerLimit=2.0)),
    ("DELETE", f"{WB}/delete"): Row(WAYBILL_WRITE, q(id="{waybill}"), changes="waybill"),
    ("POST", f"{WB}/updateState"): Row(WAYBILL_WRITE, j(id="{waybill}", state=1), changes="waybill"),
    ("POST", f"{WB}/batchBind"): Row(WAYBILL_WRITE, j(id="{waybill}", deviceIds=["{device}"])),  # on it already
    ("POST", f"{WB}/unbind"): Row(WAYBILL_WRITE, j(id="{waybill}", deviceIds=["{device}"]), changes="waybill"),
    ("POST", f"{WB}/share"): Row(WAYBILL_WRITE, j(id="{waybill}", validity="8h")),
    ("GET", f"{WB}/shareList"): Row(WAYBILL_WRITE, q(id="{waybill}")),
    ("POST", f"{WB}/shareRevoke"): Row(WAYBILL_WRITE, j(shareId="{waybill_share}"), changes="waybill_share"),
    # the FDA audit trail (issue 22) of Acme's organization: its members verify it, who reads its operation log
    # (its creator and administrators) reads its links; the back office holds no FDA page
    ("GET", f"{FDA}/verify"): Row(FDA_VERIFY, q(organizationId="{org}"), also=NO_ORG),
    ("POST", f"{FDA}/trail"): Row(FDA_TRAIL, j(organizationId="{org}"), also=NO_ORG),
    ("GET", f"{FDA}/trail/export"): Row(FDA_TRAIL, q(organizationId="{org}"), also=NO_ORG),
    # templates are an account's alone
    ("POST", "/device/WaybillTemplate/insert"): Row(
        {**dict.fromkeys(CALLERS, 200), "operator": 403},
        lambda o: {"json": {"templateName": f"Matrix {next(_template_names)}"}}),
    ("GET", "/device/WaybillTemplate/get"): Row(ACCOUNT, q(id="{waybill_template}")),
    ("PUT", "/device/WaybillTemplate/update"): Row(ACCOUNT, j(id="{waybill_template}", templateName="Matrix T")),
    ("DELETE", "/device/WaybillTemplate/delete"): Row(ACCOUNT, q(id="{waybill_template}"),
                                                      changes="waybill_template"),
    # calibration (issue 21): the target is the side's owner's unpaid application for the side's device
    ("POST", f"{CA}/apply"): Row(CALIBRATION_APPLY, j(**CALIBRATION_CONTACT, devices=[
        {"service": 1, "deviceId": "{device}", "guid": "{guid}"}])),
    ("GET", f"{CA}/get/applicationInfo"): Row(CALIBRATION, q(applicationId="{calibration}")),
    ("GET", f"{CA}/getUserInvoice"): Row(CALIBRATION, q(applicationId="{calibration}")),
    ("POST", f"{CA}/cancel/check"): Row(CALIBRATION, j(applicationId="{calibration}")),
    ("POST", f"{CA}/update/baseInfo"): Row(CALIBRATION, j(applicationId="{calibration}", **CALIBRATION_CONTACT)),
    ("POST", f"{CA}/update/invoice"): Row(CALIBRATION, j(applicationId="{calibration}", invoice=None)),
    # 409 2206: unpaid, no tracking number yet
    ("POST", f"{CA}/trackingNumber"): Row(CALIBRATION, j(applicationId="{calibration}", trackingNumber="SF12345678"),
                                          also={"owner": 409}),
    ("POST", f"{CR}/queryResultList"): Row(CALIBRATION, j(applicationId="{calibration}")),
    ("POST", f"{CA}/applyQuickOrder"): Row(LAB_ONLY, j(**CALIBRATION_CONTACT, accountId="{account}", devices=[
        {"service": 1, "deviceId": "{device}", "guid": "{guid}"}])),
    ("POST", f"{CA}/applicationStatus"): Row(LAB_ONLY, j(applicationId="{calibration}", status=4)),
    ("POST", f"{CA}/handleQuickOrder"): Row(LAB_ONLY, j(applicationId="{calibration}", **CALIBRATION_CONTACT)),
    ("POST", f"{CA}/result/explain"): Row(LAB_ONLY, j(applicationId="{calibration}", lineIndex=1, explain="Matrix")),
    ("POST", f"{CR}/insert"): Row(LAB_ONLY, j(applicationId="{calibration}", lineIndex=1, **CERTIFICATE)),
    ("PUT", f"{CR}/update"): Row(LAB_ONLY, j(applicationId="{calibration}", lineIndex=1, **CERTIFICATE)),
    ("POST", f"{CR}/importCert"): Row(LAB_ONLY, j(applicationId="{calibration}", lineIndex=1,
                                                  certificate=CERTIFICATE)),
    ("POST", f"{CR}/issue"): Row(LAB_ONLY, j(certificateId=UNKNOWN_ID)),
    # a device's calibration: read as the device; its interval changed by who changes the device, never by a
    # sharee (operating a device does not decide its calibration): 404 as for a stranger
    ("GET", "/calibration/Device/calibration"): Row(READ, q(deviceId="{device}")),
    ("POST", "/calibration/Device/interval"): Row(WRITE, j(deviceId="{device}", intervalMonths=6),
                                                 also={"org_member": 404, "sharee_view": 404, "sharee_operate": 404}),
    ("POST", f"{CR}/correct"): Row(LAB_ONLY, j(certificateId=UNKNOWN_ID, reason="Matrix", **CERTIFICATE)),
    # calibration payments (issue 21): paid and cancelled by its customer (and the lab); a cancellation
    # makes the side's application again
    ("POST", f"{P}/payment/wechatPay"): Row(CALIBRATION, j(applicationId="{calibration}")),
    ("POST", f"{P}/payment/aliPay"): Row(CALIBRATION, j(applicationId="{calibration}")),
    ("POST", f"{P}/payment/calibrationPay"): Row(CALIBRATION, j(applicationId="{calibration}", payType=1)),
    ("GET", f"{P}/payment/confirmCalibration"): Row(CALIBRATION, q(applicationId="{calibration}")),
    ("POST", f"{P}/payment/confirmCalibration"): Row(CALIBRATION, j(applicationId="{calibration}",
                                                                   paymentPlatformId="pm_card_visa")),
    ("POST", f"{CA}/cancel/apply"): Row(CALIBRATION, j(applicationId="{calibration}"), changes="calibration"),
    # calibration documents (issue 21): the order, its QR and the report are read as the application is
    # (409 2225: no report yet), a device's certificate too (409 2226: none issued yet); the upload is the lab's
    ("GET", f"{CA}/download/order"): Row(CALIBRATION, q(applicationId="{calibration}")),
    ("GET", f"{CA}/getQR"): Row(CALIBRATION, q(applicationId="{calibration}")),
    ("GET", f"{CA}/download/report"): Row(CALIBRATION, q(applicationId="{calibration}"), also={"owner": 409}),
    ("GET", f"{CR}/download/certificate"): Row(CALIBRATION, q(applicationId="{calibration}", lineIndex=1),
                                               also={"owner": 409}),
    ("POST", f"{CA}/upload/report"): Row(LAB_ONLY, j(applicationId="{calibration}")),
    # custom roles of Acme's organization: its creator and administrators manage them, a member reads them
    ("POST", f"{B}/BaseRole/insert"): Row(
        WRITE, j(organizationId="{org}", roleName=NEW_ROLE, description=None, permissions=["device.list"]),
        changes="new_role", also={**NO_ORG, **OP404}),
    ("PUT", f"{B}/BaseRole/update"): Row(
        WRITE, j(roleId="{role}", roleName="Matrix", description=None, permissions=["device.list"]),
        also={**NO_ORG, **OP404}),
    ("DELETE", f"{B}/BaseRole/delete"): Row(WRITE, q(roleId="{role}"), changes="role", also={**NO_ORG, **OP404}),
    ("GET", f"{B}/BaseRole/queryRoleByOrganizationType"): Row(
        READ, q(organizationType=2, organizationId="{org}"), also={**NO_ORG, **OP404}),
    # the operation log: another's object id filters the caller's own entries to nothing, as an unknown
    # one; the operator reads every entry. A device's changes are for whoever may read its log element
    ("POST", f"{B}/OperationLog/page"): Row(READ, lambda o: {"json": {"objectType": "device",
                                                                      "objectId": str(o["device"])}},
                                            also={"stranger": 200, "operator": 200}),
    ("POST", f"{B}/OperationLog/export"): Row(READ, lambda o: {"json": {"objectType": "device",
                                                                        "objectId": str(o["device"])}},
                                              also={"stranger": 200, "operator": 200}),
    # a device's changes are its `log` element, as /DeviceOperationLog/page (both sharees here see every
    # element; test_a_sharee_without_the_log_element_reads_no_change refuses a template that hides it)
    ("POST", "/device/DeviceOperationLog/changes"): Row(READ, j(deviceId="{device}")),
    # user administration is the back office's: the operator acts on a customer's account (a throwaway
    # one the World makes, personal and applied as a contractor), customers have no such page
    ("POST", f"{B}/BaseAccount/sysModifyUser"): Row(BACK_OFFICE, j(
        id="{victim}", realName="Victim", accountType=1, roleCode="customer_personal")),
    ("POST", f"{B}/BaseAccount/sysDeleteUser"): Row(BACK_OFFICE, j(id="{victim}"), changes="victim"),
    ("POST", f"{B}/BaseAccount/resetPasswordBySys"): Row(BACK_OFFICE, j(id="{victim}"), changes="victim"),
    ("POST", f"{B}/BaseAccount/contractorCertify"): Row(BACK_OFFICE, j(id="{contractor}", certified=True)),
    ("PUT", f"{B}/BaseAccount/userTypeUpgrade"): Row(BACK_OFFICE, j(id="{victim}"), changes="victim"),
    ("GET", f"{B}/BaseRole/queryRolesByCampAccount"): Row(BACK_OFFICE, q(accountId="{victim}")),
    # promotions are the back office's (order.servicePackage): the target is a stopped activity of 2030
    # on the side's year option, made by the operator (World.make); customers have no such page
    ("GET", f"{PA}/get/model"): Row(BACK_OFFICE, q(id="{activity}")),
    ("POST", f"{PA}/insertActivity"): Row(BACK_OFFICE, j(**ACTIVITY_2031, accountIds=["{victim}"])),
    ("PUT", f"{PA}/update"): Row(BACK_OFFICE, j(id="{activity}", **ACTIVITY_2030)),
    ("DELETE", f"{PA}/delete"): Row(BACK_OFFICE, q(id="{activity}"), changes="activity"),
    ("POST", f"{PA}/enableActivity"): Row(BACK_OFFICE, j(id="{activity}"), changes="activity"),
    ("POST", f"{PA}/stopActivity"): Row(BACK_OFFICE, j(id="{activity}")),  # stopped already
    ("POST", f"{PA}/copyActivity"): Row(BACK_OFFICE, j(id="{activity}")),  # a stopped copy, offering nothing
    ("POST", f"{PA}/selectRechargeListByActivity"): Row(BACK_OFFICE, j(id="{activity}")),
    ("POST", f"{PA}/exportRechargeList"): Row(BACK_OFFICE, j(id="{activity}")),
    ("POST", f"{P}/PayActivityAccountRel/insert"): Row(BACK_OFFICE, j(activityId="{activity}",
                                                                      accountIds=["{victim}"])),
    ("POST", f"{P}/PaySmsPackages/sortPackage"): Row(BACK_OFFICE, lambda o: {"json": {
        "countryCode": "86", "kind": 1, "ids": o["sms_ids"]}}),
    # coupons and recharge cards: batches are the back office's (order.servicePackage), customers have no
    # such page; a card is redeemed for a device the caller may recharge (409 2051: no such card, the
    # device check passed; a read-only caller is refused before any card is tried)
    ("POST", f"{P}/activity/PayCoupon/selectCouponCodeList"): Row(BACK_OFFICE, j(batchId="{coupon_batch}")),
    ("POST", f"{P}/activity/PayCoupon/exportCoupon"): Row(BACK_OFFICE, j(id="{coupon_batch}")),
    ("PUT", f"{P}/activity/PayCoupon/updateCoupon"): Row(BACK_OFFICE, j(id="{coupon_batch}", status=1)),
    ("POST", f"{P}/activity/PayCardSecret/selectCardList"): Row(BACK_OFFICE, j(batchId="{card_batch}")),
    ("POST", f"{P}/activity/PayCardSecret/exportCardSecret"): Row(BACK_OFFICE, j(id="{card_batch}")),
    ("PUT", f"{P}/activity/PayCardSecret/updateCardSecret"): Row(BACK_OFFICE, j(id="{card_batch}", status=1)),
    ("POST", f"{P}/activity/PayCardSecret/redeemCard"): Row(
        WRITE, j(deviceId="{device}", cardNumber="MATRIXNOCARD", secret="MATRIXSECRET"),
        also={"owner": 409, "org_admin": 409, "sharee_operate": 409, **OP404}),
    # the catalogue is the back office's (order.servicePackage): the operator acts on the demo package, whose
    # levels every customer buys from; a duration id must be one of the level's (422 otherwise)
    ("GET", f"{P}/PayServicePackages/selectPackagesDetail"): Row(BACK_OFFICE, q(id="{package}")),
    ("PUT", f"{P}/PayServicePackages/update"): Row(BACK_OFFICE, j(
        id="{package}", packageCode="10000001", names={"zh-CN": {"name": "标准云服务"}},
        deviceTypeIds="{package_types}"), changes=True),
    ("POST", f"{P}/PayServicePackages/enableServicePackage"): Row(BACK_OFFICE, j(id="{package}"),
                                                                  also={"operator": 409}),  # already enabled
    ("POST", f"{P}/PayServicePackages/stopServicePackage"): Row(BACK_OFFICE, j(id="{package}"), changes="package"),
    # FDA periodic reports (issue 22): a report is its device's subject's record, made by who changes the device
    # (409 2391 here, the check passed: FDA mode is off in this world) and read by the owner and the
    # organization's members, not by a sharee (404, as for a stranger); the operator has no FDA pages. Another's
    # device filters the caller's own list to nothing
    ("POST", f"{FRP}/insert"): Row({**WRITE, "owner": 409, "org_admin": 409, "sharee_operate": 403},
                                  j(deviceId="{device}", **SPAN)),
    ("POST", f"{FRP}/page"): Row(READ, j(deviceId="{device}"), also={"stranger": 200}),
    ("GET", f"{FRP}/get"): Row(FDA_REPORT, q(id="{fda_report}")),
    ("GET", f"{FRP}/download"): Row(FDA_REPORT, q(id="{fda_report}")),
    ("POST", f"{P}/PayServiceLevel/insert"): Row(BACK_OFFICE, j(
        packageId="{package}", names={"zh-CN": {"name": "矩阵"}}, options=[
            {"id": "{levelYearId}", "timeLength": 12, "serviceFee": 100, "currency": "CNY"}]),
        also={"operator": 422}),  # a new level has no durations yet
    ("PUT", f"{P}/PayServiceLevel/update"): Row(BACK_OFFICE, j(
        levelId="{levelId}", names={"zh-CN": {"name": "矩阵"}}, options=[
            {"id": "{levelYearId}", "timeLength": 12, "serviceFee": 100, "currency": "CNY"}]), changes=True),
    # FDA mode (issue 22): switching Acme's organization on is made good again (fda_off); switching it off
    # while off changes nothing and takes no signature. The signature names its caller ({caller})
    ("POST", f"{FR}/enable"): Row(FDA_WRITE, j(organizationId="{org}"), changes="fda_off", also=NO_ORG),
    ("POST", f"{FR}/disable"): Row(FDA_WRITE, j(organizationId="{org}"), also=NO_ORG),
    ("POST", f"{FR}/sign"): Row(FDA_WRITE, lambda o: {"json": {
        "recordType": "waybill", "recordId": str(o["waybill"]),
        "signature": {"userName": o["caller"], "password": DEMO_PASSWORD, "meaning": "reviewed"}}}),
    ("GET", f"{FR}/recordSignatures"): Row(FDA_READ, q(recordType="waybill", recordId="{waybill}")),
    ("POST", f"{FR}/signatures"): Row(FDA_READ, j(organizationId="{org}"), also=NO_ORG),
    # bob, Acme's plain member, is locked out of nothing: its managers answer that nothing was to unlock
    ("POST", f"{FR}/unlockSigning"): Row({**FDA_WRITE, "org_member": 404}, j(accountId="{member}"), also=NO_ORG),
    ("POST", f"{FE}/page"): Row(FDA_READ, j(organizationId="{org}"), also=NO_ORG),
    ("POST", f"{FE}/insert"): Row(FDA_WRITE, j(organizationId="{org}", name="Matrix", meaning="reviewed",
                                               recordTypes=["waybill"], accountIds=["{member}"]), also=NO_ORG),
    ("POST", f"{FE}/update"): Row(FDA_ENDORSEMENT, j(id="{endorsement}", name="Matrix", meaning="approved",
                                                     recordTypes=["waybill"])),
    ("POST", f"{FE}/delete"): Row(FDA_ENDORSEMENT, j(id="{endorsement}"), changes="endorsement"),
}


# --- the objects under test -------------------------------------------------------------------------------


class World:
    """The demo data with the teams, and for acme and alice each: a device (Acme's cold room, alice's
    shared cold room A), an alarm rule on it that raised an alarm, a maintenance record, an export,
    a scheduled report, a project, a permission template, a share, an unpaid order, an invoice
    title (a bill), the issued invoice of a paid SMS order with its PDF, an asset holding the
    device and an FDA periodic report of it; Acme's organization with an invitation pending, a custom
    role nobody holds and a message for acme; two throwaway personal accounts for the back office's
    calls (one applied as a contractor)."""

    def __init__(self, app) -> None:
        app.reset()
        seeded(app, history=False, teams=True)
        self.app, self.clock = app, app.clock
        self.api = api = ApiClient(app.flask.test_client())
        self.tokens = {name: api.token(name) for name in ("acme", "alice", "bob", "carol", "operator")}
        container = app.container
        with container.session_factory()() as session:
            accounts = {name: id_ for name, id_ in session.execute(select(AccountRow.user_name, AccountRow.id))}
        self.objects: dict[str, dict] = {}
        for side in DEVICES:
            self._objects(side, accounts)
        org = self.objects["acme"]
        org["member"] = accounts["bob"]
        self.make("acme", "invitation")
        self.make("acme", "role")
        self.victims = 0
        self.make("acme", "victim")
        self.make("acme", "contractor")
        self.make("acme", "activity")
        self.make("acme", "coupon_batch")
        self.make("acme", "card_batch")
        self.make("acme", "package")
        with container.session_factory()() as session:  # alice's invitation message, addressed to acme
            message = session.scalars(select(SystemMessageRow).where(
                SystemMessageRow.account_id == accounts["alice"], SystemMessageRow.needs_decision)).one()
            copy = SystemMessageRow(account_id=accounts["acme"], kind=message.kind, template=message.template,
                                    params=message.params, created_at=message.created_at, subject=message.subject)
            session.add(copy)
            session.commit()
            org["message"] = copy.id
            self.objects["alice"]["message"] = self.objects["alice_operate"]["message"] = message.id
        self.dirty = False

    def _objects(self, side: str, accounts: dict[str, int]) -> dict:
        api, container, token = self.api, self.app.container, self.tokens[OWNERS[side]]
        guid = DEVICES[side]
        device = device_id(container, guid)
        o: dict[str, Any] = {"device": device, "guid": guid, "account": accounts[OWNERS[side]],
                             "loose": device_id(container, "RCW360B0000001") if side == "acme" else device,
                             "sharee": "bob" if side == "acme" else "carol"}
        rules = ok(api.call("POST", f"{R}/page", token=token, json={"deviceId": device}))["data"]
        rule = next((r for r in rules if r["probe"] == "t"), None)
        if rule is None:
            rule = ok(api.call("POST", f"{R}/insert", token=token, json=warehouse_rule(device)))
        else:  # the demo rule, made to alarm at once as test_sharing_api's
            body = {k: v for k, v in warehouse_rule(device).items() if k not in ("deviceId", "probe")}
            rule = ok(api.call("PUT", f"{R}/update", token=token, json={**body, "id": rule["id"]}))
        o["rule"] = rule["id"]
        report(container, guid, self.app.clock.now() - timedelta(minutes=5), (0, 12.0))
        o["alarm"] = ok(api.call("POST", f"{A}/page", token=token, json={"deviceId": device}))["data"][0]["id"]
        if side == "acme":
            [organization] = [g for g in ok(api.call("GET", f"{B}/BaseOrganization/list", token=token))
                              if g["organizationName"] == "Acme Cold Chain"]
            o["org"] = organization["organizationId"]
        o["project"] = UNKNOWN  # alice, personal, may hold none
        if side == "acme":
            self.objects[side] = o
            self.make(side, "project")
        o["view_only"] = next(t["id"] for t in ok(api.call("POST", "/device/DevicePermissionModel/list", token=token,
                                                            json={}))["list"] if t["name"] == "View only")
        o["template"] = ok(api.call("POST", "/device/DevicePermissionModel/insert", token=token,
                                    json={"name": "Matrix B" if side == "alice_operate" else "Matrix",
                                          "permissions": []}))["id"]
        if side == "alice_operate":
            o["everything"] = ok(api.call("POST", "/device/DevicePermissionModel/insert", token=token, json={
                "name": "Everything", "permissions": [{"code": e.code, "viewStatus": 1, "setStatus": 1}
                                                      for e in Element]}))["id"]
        offer = catalogue(api, token, device)
        o.update(levelId=offer["level"]["levelId"], packageId=offer["level"]["packageId"],
                 levelYearId=offer["option"]["id"], service_order=service_order(offer, [device]),
                 sms_order=sms_order(offer, [device]))
        self.objects[side] = o
        for key in ("maintenance", "export", "schedule", "share", "order", "bill", "invoice", "asset", "fence",
                    "waybill", "waybill_template", "calibration", "fda_report",
                    "endorsement"):
            self.make(side, key)
        return o

    def make(self, side: str, key: str) -> None:
        """(Again) the side's object `key`, after a case took it away."""
        api, token, o = self.api, self.tokens[OWNERS[side]], self.objects[side]
        device = o["device"]
        if key == "maintenance":
            o[key] = ok(api.call("POST", "/device/DeviceMaintenance/insert", token=token,
                                 json={"deviceId": device, **RECORD}))["id"]
        elif key == "export":
            o[key] = ok(api.call("POST", "/device/DeviceDataExport/create", token=token,
                                 json={"deviceId": device, "format": "xlsx", **SPAN}))["id"]
        elif key == "schedule":
            o[key] = ok(api.call("POST", "/device/ScheduledReport/insert", token=token, json={
                "name": "Daily", "frequency": "daily", "format": "xlsx", "deviceIds": [device],
                "recipients": ["qa@example.com"]}))["id"]
        elif key == "share":  # acme's cold room with bob under acme's template; alice's with bob view-only
            template = o[{"acme": "template", "alice": "view_only", "alice_operate": "everything"}[side]]
            ok(api.call("POST", f"{D}/share", token=token, json={"deviceIds": [device], "account": "bob",
                                                                 "templateId": template}))
            o[key] = max(r["id"] for r in ok(api.call("POST", "/device/DeviceShare/page", token=token, json={
                "direction": "mine"}))["data"] if r["active"])
        elif key == "order":
            o[key] = ok(api.call("POST", f"{P}/PayOrder/createServiceOrder", token=token,
                                 json={"deviceId": device, **o["service_order"]}))["orderId"]
        elif key == "bill":
            o[key] = ok(api.call("POST", f"{P}/PayUserBill/insert", token=token, json=BILL))["billId"]
        elif key == "invoice":  # a paid SMS order's invoice, issued with its PDF by the operator
            placed = ok(api.call("POST", f"{P}/PayOrder/createSmsOrder", token=token,
                                 json={"deviceId": device, **o["sms_order"]}))
            ok(pay(api, placed))
            o[key] = ok(api.call("POST", f"{P}/PayInvoice/applyBatchInvoice", token=token, json={
                "orderIds": [placed["orderId"]], "billId": o["bill"]}))["invoiceId"]
            issued = api.client.post(f"/api{P}/PayInvoice/issue", content_type="multipart/form-data", data={
                "invoiceId": str(o[key]), "file": (BytesIO(b"%PDF-1.7 matrix"), "matrix.pdf")},
                headers={"Authorization": f"Bearer {self.tokens['operator']}"})
            assert issued.status_code == 200, issued.get_json()
        elif key == "project":  # Acme's organization's
            o[key] = ok(api.call("POST", "/device/Project/insert", token=token, json={
                "projectName": "Matrix", "organizationId": o["org"]}))["id"]
        elif key == "invitation":
            o[key] = ok(api.call("POST", f"{B}/BaseAccount/invite", token=token, json={
                "organizationId": o["org"], "uep": "alice", "roleCode": "org_member"}))["invitationId"]
        elif key == "asset":  # the side's device in it; the one before deleted, its device free and enabled
            if key in o:
                api.call("DELETE", f"{S}/delete", token=token, query={"id": o[key]})
            o[key] = ok(api.call("POST", f"{S}/insert", token=token, json={  # acme's: its organization's
                "assetName": "Matrix" if side == "acme" else f"Matrix {side}",
                "organizationId": o["org"] if side == "acme" else None}))["id"]
            ok(api.call("POST", f"{S}/bindDevice", token=token, json={"id": o[key], "deviceIds": [device]}))
        elif key == "fence":  # the side's device watched by it; the one before deleted
            if key in o:
                api.call("DELETE", f"{GF}/delete", token=token, query={"id": o[key]})
            o[key] = ok(api.call("POST", f"{GF}/insert", token=token, json={  # acme's: its organization's
                "name": "Matrix" if side == "acme" else f"Matrix {side}"[:20], "areas": FENCE_AREAS,
                "organizationId": o["org"] if side == "acme" else None}))["id"]
            ok(api.call("POST", f"{GF}/bindDevices", token=token, json={"id": o[key], "deviceIds": [device]}))
        elif key == "waybill":  # the side's device on it; the one before deleted, its device off any trip
            if key in o:
                api.call("DELETE", f"{WB}/delete", token=token, query={"id": o[key]})
            o[key] = ok(api.call("POST", f"{WB}/insert", token=token, json={
                "orderNum": f"MATRIX-{side}", "organizationId": o["org"] if side == "acme" else None}))["id"]
            ok(api.call("POST", f"{WB}/batchBind", token=token, json={"id": o[key], "deviceIds": [device]}))
            self.make(side, "waybill_share")
        elif key == "waybill_share":
            o[key] = ok(api.call("POST", f"{WB}/share", token=token, json={"id": o["waybill"],
                                                                           "validity": "1d"}))["shareId"]
        elif key == "waybill_template":
            o[key] = ok(api.call("POST", "/device/WaybillTemplate/insert", token=token, json={
                "templateName": f"Matrix {side} {next(_template_names)}"}))["id"]
        elif key == "calibration":  # the owner's unpaid application for the side's device, at a price the lab set
            with self.app.container.session_factory()() as session:
                type_id = session.scalar(select(DeviceRow.type_id).where(DeviceRow.id == device))
            ok(api.call("PUT", "/calibration/PriceConf/update/price", token=api.token("calibadmin"),
                        json={"deviceTypeId": type_id, "service": 1, "price": 10000}))
            o[key] = ok(api.call("POST", f"{CA}/apply", token=token, json={**CALIBRATION_CONTACT, "devices": [
                {"service": 1, "deviceId": device, "guid": o["guid"]}]}))["applicationId"]
        elif key == "fda_report":  # the owner's report of the side's device, made while FDA mode was on a moment
            subject = Subject(organization_id=o["org"]) if side == "acme" else Subject(account_id=o["account"])
            with self.app.container.uow() as uow:
                uow.fda_switches.set_on(subject, True)
                uow.commit()
            o[key] = ok(api.call("POST", f"{FRP}/insert", token=token, json={"deviceId": device, **SPAN}))["id"]
            with self.app.container.uow() as uow:
                uow.fda_switches.set_on(subject, False)
                uow.commit()
        elif key == "endorsement":  # acme's of its organization; alice's of her own records
            o[key] = ok(api.call("POST", "/device/FdaEndorsement/insert", token=token, json={
                "organizationId": o["org"] if side == "acme" else None, "name": "Matrix", "meaning": "approved",
                "recordTypes": ["waybill"], "accountIds": [] if side == "acme" else [o["account"]]}))["id"]
        elif key == "fda_off":  # Acme's organization's FDA mode off again, as it was (no signature: not a case's)
            with self.app.container.session_factory()() as session:
                session.execute(update(OrganizationRow).where(OrganizationRow.id == o["org"]).values(enable_fda=0))
                session.commit()
        elif key == "role":  # a custom role of Acme's organization that nobody holds
            o[key] = ok(api.call("POST", f"{B}/BaseRole/insert", token=token, json={
                "organizationId": o["org"], "roleName": "Matrix", "description": None,
                "permissions": ["device.list"]}))["roleId"]
        elif key == "new_role":  # the insert row's role, deleted
            for role in ok(api.call("GET", f"{B}/BaseRole/queryRoleByOrganizationType", token=token,
                                    query={"organizationId": o["org"]})):
                if role["roleName"] == NEW_ROLE:
                    ok(api.call("DELETE", f"{B}/BaseRole/delete", token=token, query={"roleId": role["roleId"]}))
        elif key in ("victim", "contractor"):  # a throwaway personal account; the contractor applied as one
            self.victims += 1
            name, password = f"matrix_{key}{self.victims}", "Frost!Line42"
            made = ok(api.call("POST", f"{B}/BaseAccount/sysAddUser", token=self.tokens["operator"], json={
                "userName": name, "accountPassword": password, "roleCode": "customer_personal", "accountType": 1}))
            if key == "contractor":
                ok(api.call("POST", f"{B}/BaseAccount/contractorApply", token=api.token(name, password),
                            json={"agreementVersion": CONTRACTOR_AGREEMENT_VERSION}))
            for objects in self.objects.values():  # every side's target: the back office's calls take no side
                objects[key] = made["id"]
        elif key == "activity":  # the operator's stopped activity of 2030 (the one before deleted)
            op = self.tokens["operator"]
            if key in o:
                api.call("DELETE", f"{PA}/delete", token=op, query={"id": o[key]})
            made = ok(api.call("POST", f"{PA}/insertActivity", token=op, json=_fill(ACTIVITY_2030, o)))
            ok(api.call("POST", f"{PA}/stopActivity", token=op, json={"id": made["id"]}))
            sms = ok(api.call("POST", f"{P}/PaySmsPackages/selectSmsPackageList", token=op,
                              json={"countryCode": "86", "kind": 1}))
            for objects in self.objects.values():  # every side's target: the back office's calls take no side
                objects[key], objects["sms_ids"] = made["id"], [p["packageId"] for p in sms]
        elif key in ("coupon_batch", "card_batch"):  # the back office's: every side's target
            span = {"startTime": "2026-01-01T00:00:00+00:00", "endTime": "2036-01-01T00:00:00+00:00"}
            body = ({"prefix": "MX", "count": 2, "couponType": 1, "amount": 100, "remark": "matrix", **span}
                    if key == "coupon_batch" else
                    {"prefix": "MX", "count": 2, "levelId": o["levelId"], "timeLength": 1, "remark": "matrix", **span})
            path = "PayCoupon/createCoupon" if key == "coupon_batch" else "PayCardSecret/createCardSecret"
            made = ok(api.call("POST", f"{P}/activity/{path}", token=self.tokens["operator"], json=body))
            for objects in self.objects.values():
                objects[key] = made["id"]
        elif key == "package":  # the demo package, enabled (again), for every side
            operator = self.tokens["operator"]
            [package] = ok(api.call("POST", f"{P}/PayServicePackages/selectPackagesList", token=operator,
                                    json={"packageCode": "10000001"}))["data"]
            if package["status"] == 0:
                ok(api.call("POST", f"{P}/PayServicePackages/enableServicePackage", token=operator,
                            json={"id": package["id"]}))
            for objects in self.objects.values():
                objects.update(package=package["id"], package_types=package["deviceTypeIds"])
        else:
            raise KeyError(key)

    def call(self, row: tuple[str, str], caller: str, unknown: bool = False):
        """The row's call by the caller on its target's objects, or (`unknown`) on ids of nothing."""
        user, side = CALLERS[caller]
        method, path = row
        objects = {**self.objects[side], "caller": user}
        if unknown:
            objects = {**objects, **dict.fromkeys(OBJECT_KEYS, UNKNOWN)}
        return self.api.call(method, path, token=self.tokens[user], **MATRIX[row].build(objects))


UNKNOWN = 2_000_000_000  # the id of nothing
OBJECT_KEYS = ("device", "rule", "alarm", "maintenance", "export", "schedule", "project", "template", "share", "order",
               "bill", "invoice", "org", "member", "invitation", "message", "account", "asset", "fence", "role",
               "victim", "contractor", "activity", "coupon_batch", "card_batch", "package", "waybill", "waybill_share",
               "waybill_template", "calibration", "fda_report",
               "endorsement")

_worlds: dict[int, World] = {}


@pytest.fixture
def world(_session_app) -> World:
    """The shared World, built again when a case changed it or another test reset the database
    (every other test's `app` fixture puts in a new clock)."""
    known = _worlds.get(id(_session_app))
    if known is None or known.dirty or known.clock is not _session_app.clock:
        known = _worlds[id(_session_app)] = World(_session_app)
    return known


# --- the tests ---------------------------------------------------------------------------------------------


def test_every_call_that_takes_an_id_has_a_row(world):
    spec = world.api.client.get("/api/openapi.json").get_json()
    taking = calls_taking_ids(spec)
    missing = sorted(set(taking) - set(MATRIX))
    assert missing == [], f"calls taking an object id without a MATRIX row: {missing}"
    assert sorted(set(MATRIX) - set(taking)) == [], "MATRIX rows of calls that no longer take an id"


CASES = [(row, caller) for row in MATRIX for caller in CALLERS if MATRIX[row].expected(caller) is not NA]


@pytest.mark.parametrize(("row", "caller"), CASES, ids=[f"{m} {p} {c}" for (m, p), c in CASES])
def test_access_matrix(world, row, caller):
    reply = world.call(row, caller)
    changes = MATRIX[row].changes
    if reply.status < 300 and isinstance(changes, str):
        world.make(CALLERS[caller][1], changes)
    elif reply.status < 300 and changes:
        world.dirty = True
    expected = MATRIX[row].expected(caller)
    assert reply.status == expected, (caller, row, reply.status, reply.body)
    if caller == "stranger":  # the same answer as for objects that do not exist: nothing to probe
        missing = world.call(row, caller, unknown=True)
        if reply.status == 200:  # a filter that found nothing; an export of nothing has its own id
            found, nothing = reply.data or {}, missing.data or {}  # no data: a file (its own test below)
            assert (reply.code, found.get("totalCount"), found.get("marked")) == (
                missing.code, nothing.get("totalCount"), nothing.get("marked"))
        else:
            assert (reply.status, reply.body) == (missing.status, missing.body)
    if expected == 404:
        assert reply.body == {"code": 404, "msg": "Not found", "data": None}


def test_a_stranger_s_export_of_another_s_device_holds_no_entry(world):
    """The export row's stranger: a file as for an unknown id, with the headers alone, while the owner's
    holds the device's entries."""
    acme, alice = world.tokens["acme"], world.tokens["alice"]
    device = world.objects["acme"]["device"]
    ok(world.api.call("PUT", f"{D}/update", token=acme, json={"deviceId": device, "remark": "exported"}))
    world.dirty = True

    def rows(token: str, object_id: int) -> list[tuple]:
        response = world.api.client.post("/api/base/OperationLog/export", json={
            "objectType": "device", "objectId": str(object_id)}, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200 and response.mimetype.endswith("sheet"), response.data[:200]
        return list(load_workbook(BytesIO(response.data)).active.iter_rows(values_only=True))

    assert len(rows(acme, device)) >= 2
    assert len(rows(alice, device)) == len(rows(alice, UNKNOWN)) == 1


def test_a_sharee_without_the_log_element_reads_no_change(world):
    """A sharee whose template hides the device's `log` element is refused its log tab and the
    device's changes alike (403)."""
    alice, carol = world.tokens["alice"], world.tokens["carol"]
    device = world.objects["alice"]["device"]
    world.dirty = True
    template = ok(world.api.call("POST", "/device/DevicePermissionModel/insert", token=alice, json={
        "name": "No log", "permissions": [{"code": e.code, "viewStatus": 1, "setStatus": 0}
                                          for e in Element if e is not Element.LOG]}))["id"]
    ok(world.api.call("POST", f"{D}/share", token=alice, json={"deviceIds": [device], "account": "carol",
                                                                "templateId": template}))
    tab = world.api.call("POST", "/device/DeviceOperationLog/page", token=carol, json={"deviceId": device})
    assert tab.status == 403, tab.body
    changes = world.api.call("POST", "/device/DeviceOperationLog/changes", token=carol, json={"deviceId": device})
    assert changes.status == 403, (changes.status, changes.body)


def test_dave_the_demo_s_read_only_member_sees_acme_s_devices_and_every_write_is_refused(world):
    """The demo's read-only member of Acme's organization (dave, the built-in member role, neither a
    sharee nor a manager) answers as the matrix's plain member on every row aimed at Acme: he reads
    Acme's devices, and every change of them or of the organization is refused with 403."""
    world.tokens.setdefault("dave", world.api.token("dave"))
    dave, acme_objects = world.tokens["dave"], world.objects["acme"]
    listed = ok(world.api.call("POST", f"{D}/page", token=dave, json={"pageSize": 50}))["data"]
    assert DEVICES["acme"] in {d["deviceGuid"] for d in listed}
    refused, wrong = 0, []
    for row, spec in MATRIX.items():
        expected = spec.expected("org_member")
        if expected is NA:
            continue
        if row[1].startswith("/device/DeviceShare/") and expected == 200:
            expected = 404  # bob is the sharee of Acme's share and may leave it; dave is no party to it
        reply = world.api.call(*row, token=dave, **spec.build({**acme_objects, "caller": "dave"}))
        if reply.status < 300 and spec.changes:
            world.dirty = True
        if reply.status != expected:
            wrong.append((row, expected, reply.status, reply.body))
        refused += reply.status == 403
    assert wrong == []
    assert refused >= 20  # the device, alarm, share, project, asset and organization writes
