"""Attacks on who may write what (issue 13, items 11 and 12), against the real Flask app on SQLite
and PostgreSQL with the demo data: acme owns the organization "Acme Cold Chain" and its two
devices, bob is a read-only member of it, alice a stranger to it.

- bob tries every write on the organization's devices (alarm rules, alarm handling, the device,
  its broker login, orders, the auto-renew agreement): each is refused with 403 and a message
  saying his access is read-only, and the tables are the same afterwards; his reads still work,
  and acme's writes still work.
- an alarm rule update changes only the fields sent; a body that would drop a required part is
  refused with 422 and changes nothing.
- a stranger calls every endpoint that takes an id with an id that does not exist and with
  another customer's id: the two answers are the same 404, status and body.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from adapters.persistence.models import (
    AccountRow,
    AlarmDeferralRow,
    AlarmMessageRow,
    AlarmRecipientRow,
    AlarmRuleRow,
    AutoRenewAgreementRow,
    DeviceCredentialRow,
    DeviceRow,
    LevelYearOptionRow,
    OrderLineRow,
    OrderRow,
    OrganizationMemberRow,
    RoleRow,
    UserBillRow,
)
from core.permissions import roles
from tests.support.alarms import report
from tests.support.api import ApiClient
from tests.support.demo_copy import seeded

pytestmark = pytest.mark.usefixtures("recharge_demo")

D, A, P = "/device/Device", "/device/DeviceAlarm", "/payment"
RULES = "/device/DeviceAlarmRule"
ROOM, DOOR = "CR2B000000001", "RCW360B0000001"  # acme's, in the organization bob belongs to
FRIDGE, DOCK = "RCW360A0000003", "CR2A000000001"  # alice's; the dock is a cold room like acme's ROOM
UNKNOWN = 2_000_000_000
READ_ONLY = "You have read-only access to this device"
NOT_FOUND = {"code": 404, "msg": "Not found", "data": None}
WATCHED = (DeviceRow, DeviceCredentialRow, AlarmRuleRow, AlarmRecipientRow, AlarmMessageRow, AlarmDeferralRow, OrderRow,
           OrderLineRow, AutoRenewAgreementRow, UserBillRow)


def ok(reply):
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


def device_id(container, guid: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(DeviceRow.id).where(DeviceRow.guid == guid))


def account_id(container, name: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(AccountRow.id).where(AccountRow.user_name == name))


def snapshot(container) -> dict[str, list[tuple]]:
    """Every row of the tables a write on a device could touch."""
    with container.session_factory()() as session:
        return {row.__tablename__: [tuple(r) for r in session.execute(
            select(*row.__table__.columns).order_by(*row.__table__.primary_key.columns))] for row in WATCHED}


def warehouse_rule(device: int, **changes) -> dict:
    body = {"deviceId": device, "probe": "t", "name": "Warehouse 2-8 °C", "upperLimit": 8.0, "lowerLimit": 2.0,
            "delaySeconds": 0, "level1Minutes": 0, "level2Minutes": 15, "level3Minutes": None, "enabled": True,
            "recipients": [{"level": 1, "name": "Night shift", "phone": "13800000007", "email": "night@acme.example"},
                           {"level": 2, "name": "Manager", "phone": "13800000008", "voice": True}]}
    return {**body, **changes}


def catalogue(api: ApiClient, token: str, device: int) -> dict:
    """What the recharge drawers show for the device: its current (paid) level's first year option
    and the 500-SMS package, with the figures an order must repeat."""
    level = next(lv for lv in ok(api.call("GET", f"{P}/PayServicePackages/selectLevelList", token=token,
                                          query={"deviceId": device})) if lv["current"])
    option = ok(api.call("GET", f"{P}/PayServiceLevelYear/selectListByDomain", token=token, query={
        "deviceId": device, "levelId": level["levelId"], "packageId": level["packageId"]}))["levelYearList"][0]
    sms = ok(api.call("GET", f"{P}/PaySmsPackages/selectSmsPackage", token=token,
                      query={"countryCode": "86"}))["smsList"][1]
    return {"level": level, "option": option, "sms": sms}


def service_order(offer: dict, devices: list[int]) -> dict:
    level, option = offer["level"], offer["option"]
    return {"levelId": level["levelId"], "levelYearId": option["id"], "servicePackageId": level["packageId"],
            "payType": 1, "serviceFee": option["serviceFee"], "totalFee": option["price"] * len(devices)}


def sms_order(offer: dict, devices: list[int]) -> dict:
    sms = offer["sms"]
    return {"payType": 1, "countryCode": "86", "smsPackageId": sms["packageId"], "smsCount": sms["smsCount"],
            "smsFee": sms["packageFee"], "voicePackageId": None, "voiceCount": 0, "voiceFee": 0,
            "totalFee": sms["price"] * len(devices)}


@pytest.fixture
def acme(api):
    return api.token("acme")


@pytest.fixture
def bob(api):
    return api.token("bob")


@pytest.fixture
def alice(api):
    return api.token("alice")


@pytest.fixture
def organization(api, container, clock, acme):
    """acme's cold room with an alarm rule (written by acme, the owner: that write works) that has
    raised an untreated alarm, and an auto-renew agreement."""
    room, door = device_id(container, ROOM), device_id(container, DOOR)
    rule = ok(api.call("POST", f"{RULES}/insert", token=acme, json=warehouse_rule(room)))
    report(container, ROOM, clock.now() - timedelta(minutes=5), (0, 12.0))
    alarm = ok(api.call("POST", f"{A}/page", token=acme, json={"deviceId": room}))["data"][0]
    with container.session_factory()() as session:
        room_row = session.get(DeviceRow, room)
        option = session.scalars(select(LevelYearOptionRow).where(LevelYearOptionRow.level_id == room_row.level_id)
                                 .order_by(LevelYearOptionRow.sort)).first()
        session.add(AutoRenewAgreementRow(device_id=room, level_id=room_row.level_id, level_year_id=option.id,
                                          pay_type=1, total_fee_cents=option.service_fee_cents, status=1,
                                          next_execution_at=room_row.service_expires_at, created_at=clock.now()))
        session.commit()
    return {"room": room, "door": door, "rule": rule, "alarm": alarm}


# --- item 11: a read-only member writes nothing ---------------------------------------------------------


def member_writes(org: dict, offer: dict) -> list[tuple[str, str, str, dict]]:
    """(name, method, path, arguments) of every write a member could try on the organization's devices."""
    room, door, rule = org["room"], org["door"], org["rule"]
    return [
        ("silence the rule", "PUT", f"{RULES}/update",
         {"json": {"id": rule["id"], "upperLimit": 60.0, "recipients": [], "lowerLimit": None}}),
        ("disable the rule", "PUT", f"{RULES}/update", {"json": {"id": rule["id"], "enabled": False}}),
        ("replace the rule", "PUT", f"{RULES}/update",
         {"json": {**warehouse_rule(room, name="Mine", recipients=[]), "id": rule["id"]}}),
        ("delete the rule", "DELETE", f"{RULES}/delete", {"query": {"id": rule["id"]}}),
        ("add a rule", "POST", f"{RULES}/insert", {"json": warehouse_rule(door, probe="h", upperLimit=90.0,
                                                                          lowerLimit=None)}),
        ("handle the alarm", "POST", f"{A}/deal", {"json": {"id": org["alarm"]["id"], "handling": 2}}),
        ("defer the alarm", "POST", f"{A}/deal", {"json": {"id": org["alarm"]["id"], "handling": 3,
                                                           "deferMinutes": 1440}}),
        ("edit the remark", "PUT", f"{D}/update", {"json": {"deviceId": room, "remark": "bob was here"}}),
        ("rename the device", "PUT", f"{D}/update", {"json": {"deviceId": room, "deviceName": "Bob's room"}}),
        ("delete the device", "DELETE", f"{D}/delete", {"query": {"deviceId": room}}),
        ("rotate the broker password", "POST", f"{D}/credentials/rotate", {"query": {"deviceId": room}}),
        ("order a service level", "POST", f"{P}/PayOrder/createServiceOrder",
         {"json": {"deviceId": room, **service_order(offer, [room])}}),
        ("order a batch of service levels", "POST", f"{P}/PayOrder/createBatchServiceOrder",
         {"json": {"deviceIdList": [room], **service_order(offer, [room])}}),
        ("order SMS", "POST", f"{P}/PayOrder/createSmsOrder", {"json": {"deviceId": room, **sms_order(offer, [room])}}),
        ("order SMS for a batch", "POST", f"{P}/PayOrder/createBatchSmsOrder",
         {"json": {"deviceIdList": [room, door], **sms_order(offer, [room, door])}}),
        ("cancel the auto-renewal", "GET", f"{P}/PayOrder/unAgreement", {"query": {"deviceId": room}}),
    ]


def test_a_read_only_member_writes_nothing_on_the_organization_s_devices(api, container, acme, bob, organization):
    offer = catalogue(api, bob, organization["room"])  # reading the catalogue is allowed
    before = snapshot(container)
    answers = {}
    for name, method, path, arguments in member_writes(organization, offer):
        reply = api.call(method, path, token=bob, **arguments)
        answers[name] = (reply.status, reply.code, reply.body.get("msg"), reply.data)
    assert answers == {name: (403, 403, READ_ONLY, None) for name, *_ in member_writes(organization, offer)}
    assert snapshot(container) == before


def test_the_read_only_refusal_is_in_the_caller_s_language(api, bob, organization):
    messages = set()
    for language in ("en-US", "zh-CN", "es-ES", "ru-RU", "pt-PT", "de-DE", "zh-TW"):
        api.language = language
        reply = api.call("DELETE", f"{RULES}/delete", token=bob, query={"id": organization["rule"]["id"]})
        assert (reply.status, reply.code) == (403, 403)
        messages.add(reply.body["msg"])
    assert len(messages) == 7


def test_a_read_only_member_still_reads_everything_of_the_organization(api, container, bob, organization):
    room, rule = organization["room"], organization["rule"]
    device = ok(api.call("GET", f"{D}/get", token=bob, query={"deviceId": room}))
    assert (device["deviceName"], device["isOwner"], device["access"]) == ("Warehouse 1 cold room", False, 1)
    listed = ok(api.call("POST", f"{D}/page", token=bob, json={}))["data"]
    assert {(d["deviceGuid"], d["access"]) for d in listed} == {(ROOM, 1), (DOOR, 1)}
    assert ok(api.call("GET", f"{RULES}/get", token=bob, query={"id": rule["id"]})) == rule
    assert [r["id"] for r in ok(api.call("POST", f"{RULES}/page", token=bob, json={"deviceId": room}))["data"]] == [
        rule["id"]]
    assert [a["id"] for a in ok(api.call("POST", f"{A}/page", token=bob, json={"deviceId": room}))["data"]] == [
        organization["alarm"]["id"]]
    assert ok(api.call("GET", f"{A}/count", token=bob)) == 1
    assert ok(api.call("POST", f"{A}/deferrals", token=bob, json={"id": organization["alarm"]["id"]}))[
        "totalCount"] == 0
    assert ok(api.call("GET", f"{D}/credentials", token=bob, query={"deviceId": room}))["username"] == ROOM
    assert ok(api.call("POST", f"{D}/history", token=bob, json={
        "deviceId": room, "startTime": "2026-01-01T00:00:00+00:00", "endTime": "2026-01-02T00:00:00+00:00"}))
    assert ok(api.call("GET", f"{P}/PayServicePackages/selectDeviceDepositInfo", token=bob,
                       query={"deviceId": room}))["access"] == 1
    assert ok(api.call("GET", f"{P}/PayOrder/selectCurrentService", token=bob, query={"deviceId": room}))
    offer = catalogue(api, bob, room)
    [quote] = ok(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=bob, json={
        "deviceIdList": [room], "levelId": offer["level"]["levelId"], "levelYearId": offer["option"]["id"],
        "servicePackageId": offer["level"]["packageId"]}))
    assert (quote["deviceId"], quote["totalFee"], quote["currency"]) == (room, offer["option"]["price"], "CNY")


def test_the_owner_still_writes_all_of_it(api, container, acme, organization):
    room, rule = organization["room"], organization["rule"]
    assert ok(api.call("GET", f"{D}/get", token=acme, query={"deviceId": room}))["access"] == 2
    assert ok(api.call("PUT", f"{RULES}/update", token=acme, json={"id": rule["id"], "upperLimit": 9.0}))[
        "upperLimit"] == 9.0
    assert ok(api.call("POST", f"{A}/deal", token=acme, json={"id": organization["alarm"]["id"], "handling": 1}))[
        "state"] == 1
    assert ok(api.call("PUT", f"{D}/update", token=acme, json={"deviceId": room, "remark": "checked"}))[
        "remark"] == "checked"
    ok(api.call("GET", f"{P}/PayOrder/unAgreement", token=acme, query={"deviceId": room}))
    offer = catalogue(api, acme, room)
    assert ok(api.call("POST", f"{P}/PayOrder/createServiceOrder", token=acme,
                       json={"deviceId": room, **service_order(offer, [room])}))["orderId"]
    assert ok(api.call("POST", f"{P}/PayOrder/createBatchSmsOrder", token=acme, json={
        "deviceIdList": [room, organization["door"]], **sms_order(offer, [room, organization["door"]])}))["orderId"]
    ok(api.call("POST", f"{D}/credentials/rotate", token=acme, query={"deviceId": room}))
    ok(api.call("DELETE", f"{RULES}/delete", token=acme, query={"id": rule["id"]}))
    ok(api.call("DELETE", f"{D}/delete", token=acme, query={"deviceId": room}))


def test_an_organization_administrator_writes_but_only_the_owner_deletes(api, container, bob, organization):
    with container.session_factory()() as session:
        admin = session.scalar(select(RoleRow.id).where(RoleRow.code == roles.ORG_ADMIN.code))
        session.execute(update(OrganizationMemberRow).where(
            OrganizationMemberRow.account_id == account_id(container, "bob")).values(role_id=admin))
        session.commit()
    room, rule = organization["room"], organization["rule"]
    assert ok(api.call("GET", f"{D}/get", token=bob, query={"deviceId": room}))["access"] == 2
    assert ok(api.call("PUT", f"{RULES}/update", token=bob, json={"id": rule["id"], "enabled": False}))[
        "enabled"] is False
    assert ok(api.call("PUT", f"{D}/update", token=bob, json={"deviceId": room, "remark": "by the admin"}))[
        "remark"] == "by the admin"
    for method, path in (("DELETE", f"{D}/delete"), ("POST", f"{D}/credentials/rotate")):
        refused = api.call(method, path, token=bob, query={"deviceId": room})
        assert (refused.status, refused.code, refused.body["msg"]) == (
            403, 403, "Only the owner of the device may do this")


# --- item 11: updates change only what is sent ------------------------------------------------------------


@pytest.fixture
def fridge_rule(api, container, alice):
    """The demo rule of alice's vaccine fridge: 2-8 °C, levels at 0/15/30 minutes, Alice at level 1
    and the duty manager at level 2."""
    return ok(api.call("POST", f"{RULES}/page", token=alice, json={"deviceId": device_id(container, FRIDGE)}))[
        "data"][0]


def test_an_alarm_rule_update_changes_only_the_fields_sent(api, alice, fridge_rule):
    rule_id = fridge_rule["id"]
    raised = ok(api.call("PUT", f"{RULES}/update", token=alice, json={"id": rule_id, "upperLimit": 9.0}))
    expected = {**fridge_rule, "upperLimit": 9.0}
    assert {k: v for k, v in raised.items() if k != "updatedAt"} == {
        k: v for k, v in expected.items() if k != "updatedAt"}
    assert len(raised["recipients"]) == 2 and raised["lowerLimit"] == 2.0
    renamed = ok(api.call("PUT", f"{RULES}/update", token=alice,
                          json={"id": rule_id, "name": "Fridge", "enabled": False}))
    assert (renamed["name"], renamed["enabled"], renamed["upperLimit"]) == ("Fridge", False, 9.0)
    cleared = ok(api.call("PUT", f"{RULES}/update", token=alice, json={"id": rule_id, "lowerLimit": None,
                                                                        "level3Minutes": None}))
    assert (cleared["lowerLimit"], cleared["upperLimit"], cleared["level3Minutes"]) == (None, 9.0, None)
    assert cleared["recipients"] == fridge_rule["recipients"]
    assert ok(api.call("GET", f"{RULES}/get", token=alice, query={"id": rule_id})) == cleared


@pytest.mark.parametrize("changes,field", [
    ({"name": None}, "name"),
    ({"recipients": None}, "recipients"),
    ({"enabled": None}, "enabled"),
    ({"delaySeconds": None}, "delaySeconds"),
    ({"level1Minutes": None}, "level1Minutes"),
    ({"upperLimit": None, "lowerLimit": None}, "upperLimit"),  # both limits gone: the rule watches nothing
    ({"level2Minutes": None}, "level3Minutes"),  # level 3 without level 2
    ({"level2Minutes": None, "level3Minutes": None}, "recipients.1.level"),  # the duty manager's level
    ({"lowerLimit": 8.5}, "upperLimit"),  # above the stored upper limit
])
def test_an_update_that_would_drop_a_required_part_is_refused_and_changes_nothing(api, container, alice, fridge_rule,
                                                                                   changes, field):
    before = snapshot(container)
    reply = api.call("PUT", f"{RULES}/update", token=alice, json={"id": fridge_rule["id"], **changes})
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert field in reply.body["errors"], reply.body
    assert snapshot(container) == before


def test_a_device_update_changes_only_the_fields_sent_and_refuses_null(api, container, alice):
    fridge = device_id(container, FRIDGE)
    before = ok(api.call("GET", f"{D}/get", token=alice, query={"deviceId": fridge}))
    after = ok(api.call("PUT", f"{D}/update", token=alice, json={"deviceId": fridge, "remark": "top shelf"}))
    assert {**before, "remark": "top shelf"} == after
    for field in ("deviceName", "remark", "displayPrecision", "temperatureUnit", "countryCode"):
        reply = api.call("PUT", f"{D}/update", token=alice, json={"deviceId": fridge, field: None})
        assert (reply.status, field in reply.body.get("errors", {})) == (422, True), reply.body
    assert ok(api.call("GET", f"{D}/get", token=alice, query={"deviceId": fridge})) == after


def test_the_openapi_document_says_an_update_needs_only_the_rule_s_id(api):
    spec = api.client.get("/api/openapi.json").get_json()
    body = spec["paths"]["/api/device/DeviceAlarmRule/update"]["put"]["requestBody"]["content"]["application/json"]
    schema = body["schema"]
    if "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    assert schema["required"] == ["id"]
    properties = schema["properties"]
    assert all("default" not in p for p in properties.values())
    nullable = {name for name, p in properties.items() if "null" in str(p.get("type"))
                or p.get("nullable")}
    assert nullable == {"upperLimit", "lowerLimit", "level2Minutes", "level3Minutes"}


# --- item 12: another customer's ids answer as unknown ones ------------------------------------------------


@pytest.fixture
def acme_ids(api, container, acme, organization) -> dict:
    """acme's ids of every kind: devices, rule, alarm, order, bill, account."""
    offer = catalogue(api, acme, organization["room"])
    order = ok(api.call("POST", f"{P}/PayOrder/createServiceOrder", token=acme,
                        json={"deviceId": organization["door"], **service_order(
                            catalogue(api, acme, organization["door"]), [organization["door"]])}))
    bill = ok(api.call("POST", f"{P}/PayUserBill/insert", token=acme, json={
        "invoiceType": 1, "billMode": 1, "personalName": "Acme", "billUserName": "Acme", "billPhone": "13800000002",
        "billAddress": "1 Dock Road"}))
    return {"device": organization["room"], "rule": organization["rule"]["id"], "alarm": organization["alarm"]["id"],
            "order": order["orderId"], "bill": bill["billId"], "account": account_id(container, "acme"),
            "offer": offer}


def probes(ids: dict, mine: int) -> list[tuple[str, str, str, dict]]:
    """(name, method, path, arguments) of every call that takes an id, aimed at the ids given;
    `mine` is a device of the caller's own, for the batches and the invoice."""
    device, offer = ids["device"], ids["offer"]
    level, option = offer["level"], offer["option"]
    bill = {"invoiceType": 1, "billMode": 1, "personalName": "Mine", "billUserName": "Me", "billPhone": "13800000003",
            "billAddress": "2 Dock Road"}
    return [
        ("device", "GET", f"{D}/get", {"query": {"deviceId": device}}),
        ("device update", "PUT", f"{D}/update", {"json": {"deviceId": device, "remark": "mine"}}),
        ("device delete", "DELETE", f"{D}/delete", {"query": {"deviceId": device}}),
        ("credentials", "GET", f"{D}/credentials", {"query": {"deviceId": device}}),
        ("rotate", "POST", f"{D}/credentials/rotate", {"query": {"deviceId": device}}),
        ("history", "POST", f"{D}/history", {"json": {"deviceId": device, "startTime": "2026-01-01T00:00:00+00:00",
                                                      "endTime": "2026-01-02T00:00:00+00:00"}}),
        ("expired devices of an account", "GET", f"{D}/getExpiredServiceDevice",
         {"query": {"accountId": ids["account"]}}),
        ("rules of a device", "POST", f"{RULES}/page", {"json": {"deviceId": device}}),
        ("rule", "GET", f"{RULES}/get", {"query": {"id": ids["rule"]}}),
        ("rule insert", "POST", f"{RULES}/insert", {"json": warehouse_rule(device, probe="h", upperLimit=90.0,
                                                                           lowerLimit=None)}),
        ("rule update", "PUT", f"{RULES}/update", {"json": {"id": ids["rule"], "name": "mine"}}),
        ("rule full update", "PUT", f"{RULES}/update", {"json": {**warehouse_rule(device), "id": ids["rule"]}}),
        ("rule delete", "DELETE", f"{RULES}/delete", {"query": {"id": ids["rule"]}}),
        ("alarms of a device", "POST", f"{A}/page", {"json": {"deviceId": device}}),
        ("alarm deal", "POST", f"{A}/deal", {"json": {"id": ids["alarm"], "handling": 1}}),
        ("alarm defer", "POST", f"{A}/deal", {"json": {"id": ids["alarm"], "handling": 3, "deferMinutes": 15}}),
        ("alarm deferrals", "POST", f"{A}/deferrals", {"json": {"id": ids["alarm"]}}),
        ("deposit info", "GET", f"{P}/PayServicePackages/selectDeviceDepositInfo", {"query": {"deviceId": device}}),
        ("service items", "GET", f"{P}/PayServiceItem/selectAllServiceItemByDevice", {"query": {"deviceId": device}}),
        ("levels", "GET", f"{P}/PayServicePackages/selectLevelList", {"query": {"deviceId": device}}),
        ("year options", "GET", f"{P}/PayServiceLevelYear/selectListByDomain",
         {"query": {"deviceId": device, "levelId": level["levelId"], "packageId": level["packageId"]}}),
        ("batch quote", "POST", f"{P}/PayOrder/selectBatchQuote",
         {"json": {"deviceIdList": [mine, device], "levelId": level["levelId"], "levelYearId": option["id"],
                   "servicePackageId": level["packageId"]}}),
        ("service order", "POST", f"{P}/PayOrder/createServiceOrder",
         {"json": {"deviceId": device, **service_order(offer, [device])}}),
        ("batch service order", "POST", f"{P}/PayOrder/createBatchServiceOrder",
         {"json": {"deviceIdList": [mine, device], **service_order(offer, [mine, device])}}),
        ("SMS order", "POST", f"{P}/PayOrder/createSmsOrder",
         {"json": {"deviceId": device, **sms_order(offer, [device])}}),
        ("batch SMS order", "POST", f"{P}/PayOrder/createBatchSmsOrder",
         {"json": {"deviceIdList": [mine, device], **sms_order(offer, [mine, device])}}),
        ("order with an invoice", "POST", f"{P}/PayOrder/createSmsOrder",
         {"json": {"deviceId": mine, **sms_order(offer, [mine]), "applyFlag": 1, "billId": ids["bill"]}}),
        ("order", "GET", f"{P}/PayOrder/get", {"query": {"pk": ids["order"]}}),
        ("order detail", "POST", f"{P}/PayOrder/selectOrderDetail", {"json": {"orderId": ids["order"]}}),
        ("order pay again", "POST", f"{P}/PayOrder/continuePay", {"json": {"orderId": ids["order"]}}),
        ("order cancel", "POST", f"{P}/PayOrder/cancelOrder", {"json": {"orderId": ids["order"]}}),
        ("current service", "GET", f"{P}/PayOrder/selectCurrentService", {"query": {"deviceId": device}}),
        ("auto-renew cancel", "GET", f"{P}/PayOrder/unAgreement", {"query": {"deviceId": device}}),
        ("bill update", "PUT", f"{P}/PayUserBill/update", {"json": {"billId": ids["bill"], **bill}}),
        ("bill delete", "DELETE", f"{P}/PayUserBill/delete", {"query": {"billId": ids["bill"]}}),
    ]


def test_another_customer_s_ids_answer_exactly_as_unknown_ones(api, container, alice, acme_ids):
    mine = device_id(container, DOCK)
    unknown = {**{key: UNKNOWN for key in acme_ids}, "offer": acme_ids["offer"]}
    before = snapshot(container)
    differences, statuses = {}, set()
    for (name, method, path, theirs), (_, _, _, nobody_s) in zip(probes(acme_ids, mine), probes(unknown, mine),
                                                                 strict=True):
        stranger = api.call(method, path, token=alice, **theirs)
        missing = api.call(method, path, token=alice, **nobody_s)
        statuses.add(stranger.status)
        if (stranger.status, stranger.body) != (missing.status, missing.body) or stranger.body != NOT_FOUND:
            differences[name] = ((stranger.status, stranger.body), (missing.status, missing.body))
    assert differences == {}
    assert statuses == {404}
    assert snapshot(container) == before


def test_a_wallet_payment_of_another_customer_s_order_answers_as_an_unknown_order(international_app):

    seeded(international_app, history=False)
    api = ApiClient(international_app.flask.test_client())
    alice, acme = api.token("alice"), api.token("acme")
    door = device_id(international_app.container, DOOR)
    offer = catalogue_international(api, acme, door)
    order = ok(api.call("POST", f"{P}/PayOrder/createServiceOrder", token=acme, json={
        "deviceId": door, **service_order(offer, [door]), "payType": 30}))
    for path, arguments in (
            ("/PayOrder/get", lambda pk: {"method": "GET", "query": {"pk": pk}}),
            ("/PayOrder/confirmPay", lambda pk: {"method": "POST", "json": {
                "orderId": pk, "payType": 30, "paymentPlatformId": "pm_card_visa", "payFee": order["totalFee"]}})):
        theirs, missing = arguments(order["orderId"]), arguments(UNKNOWN)
        stranger = api.call(theirs.pop("method"), f"{P}{path}", token=alice, **theirs)
        nobody = api.call(missing.pop("method"), f"{P}{path}", token=alice, **missing)
        assert (stranger.status, stranger.body) == (nobody.status, nobody.body) == (404, NOT_FOUND), path
    assert ok(api.call("GET", f"{P}/PayOrder/get", token=acme, query={"pk": order["orderId"]}))["payStatus"] == 1


def catalogue_international(api: ApiClient, token: str, device: int) -> dict:
    level = next(lv for lv in ok(api.call("GET", f"{P}/PayServicePackages/selectLevelList", token=token,
                                          query={"deviceId": device})) if lv["current"])
    option = ok(api.call("GET", f"{P}/PayServiceLevelYear/selectListByDomain", token=token, query={
        "deviceId": device, "levelId": level["levelId"], "packageId": level["packageId"]}))["levelYearList"][0]
    return {"level": level, "option": option}
