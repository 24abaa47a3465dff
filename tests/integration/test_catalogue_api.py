"""The catalogue operators run (issue 18) over the API, SQLite and PostgreSQL with the demo data:
items, packages of levels priced per currency, names per language, one enabled package per device
type, the free gift; what customers then see (their language, a stopped package gone), a sold
duration never changed; customers, strangers and operators without the permission refused."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from sqlalchemy import select

from adapters.persistence.models import DeviceRow, LevelYearOptionRow, OrderLineRow, OrderRow
from entrypoints.api.catalogue import schemas as cs
from entrypoints.api.framework import page_of
from tests.integration.test_devices_api import conforms
from tests.integration.test_recharge_api import COLD_ROOM_A, device, levels, options, pay, service_order
from tests.support.api import ApiClient, ok

pytestmark = pytest.mark.usefixtures("recharge_demo")

P = "/payment"
PKG, LVL, ITEM, TYPES, GIFT = (f"{P}/{n}" for n in ("PayServicePackages", "PayServiceLevel", "PayServiceItem",
                                                    "PayServiceDeviceTypeRel", "PayServicePresentation"))
SEVEN = ("en-US", "zh-CN", "zh-TW", "ru-RU", "de-DE", "es-ES", "pt-PT")


def names(name: str, **others: str) -> dict:
    return {"zh-CN": {"name": name}, **{lang.replace("_", "-"): {"name": n} for lang, n in others.items()}}


def refused(reply, status: int, code: int) -> dict:
    assert (reply.status, reply.code) == (status, code), reply.body
    return reply.body


def type_id(api, op, code: int) -> int:
    return next(t["id"] for t in ok(api.call("GET", f"{TYPES}/selectAllTypeList", token=op)) if t["typeCode"] == code)


def demo_package(api, op) -> dict:
    [found] = ok(api.call("POST", f"{PKG}/selectPackagesList", token=op, json={"packageCode": "10000001"}))["data"]
    return found


def option(months: int, fee: int, currency: str = "CNY", **extra) -> dict:
    return {"timeLength": months, "serviceFee": fee, "dataFee": 0, "currency": currency, "discount": 100, **extra}


def new_package(api, op, type_ids: list[int], code: str = "20000001") -> dict:
    package = ok(api.call("POST", f"{PKG}/insert", token=op, json={
        "packageCode": code, "names": names("冷链套餐", en_US="Cold plan", ru_RU="Холодный тариф"),
        "deviceTypeIds": type_ids}))
    for name, en, ru, fee in (("银卡", "Silver", "Серебряный", 5000), ("金卡", "Gold", "Золотой", 12000)):
        ok(api.call("POST", f"{LVL}/insert", token=op, json={
            "packageId": package["id"], "names": names(name, en_US=en, ru_RU=ru),
            "itemCodes": ["DATA_QUERY_EXPORT"],
            "options": [option(12, fee, topStatus=True), option(24, fee * 2, discount=90),
                        option(12, fee // 7, "USD")]}))
    return package


def test_an_operator_builds_a_package_with_two_levels_and_the_customer_buys_from_it(api, container):
    op, alice = api.token("operator"), api.token("alice")
    wifi = type_id(api, op, 0x8001)
    package = new_package(api, op, [wifi])
    assert (package["status"], package["packageName"], package["deviceTypeIds"]) == (0, "Cold plan", [wifi])
    detail = api.call("GET", f"{PKG}/selectPackagesDetail", token=op, query={"id": package["id"]})
    conforms(detail, cs.PackageDetailSchema)
    found = ok(detail)
    assert [lv["levelName"] for lv in found["levels"]] == ["Silver", "Gold"]
    assert [(o["timeLength"], o["serviceFee"], o["currency"], o["topStatus"]) for o in found["levels"][0]["options"]] \
        == [(12, 5000, "CNY", True), (24, 10000, "CNY", False), (12, 714, "USD", False)]
    assert found["levels"][1]["names"]["ru-RU"] == {"name": "Золотой", "description": None}
    # the demo package serves the type: a second enabled one is refused, naming both
    clash = refused(api.call("POST", f"{PKG}/enableServicePackage", token=op, json={"id": package["id"]}), 409, 2001)
    assert clash["msg"] == ("The device type RCW-360 Wi-Fi Logger already has the enabled package Standard cloud plan: "
                            "stop it first")  # named in the caller's language
    demo = demo_package(api, op)
    ok(api.call("POST", f"{PKG}/stopServicePackage", token=op, json={"id": demo["id"]}))
    enabled = ok(api.call("POST", f"{PKG}/enableServicePackage", token=op, json={"id": package["id"]}))
    assert enabled["status"] == 1 and enabled["enableTime"]
    room = device(container, COLD_ROOM_A)
    assert list(levels(api, alice, room.id)) == ["Silver", "Gold"]
    # a new device (no gift set: two months, no level, as the package has no free one) quotes and buys
    ok(api.call("POST", "/device/Device/insert", token=alice, json={
        "deviceGuid": "RCW360Z0000001", "deviceName": "New door", "typeId": wifi}))
    room = next(d for d in [device(container, "RCW360Z0000001")])
    cards = levels(api, alice, room.id)
    gold = cards["Gold"]
    assert [(o["timeLength"], o["price"]) for o in options(api, alice, room.id, gold)] == [(12, 12000), (24, 21600)]
    quote = ok(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=alice, json={
        "deviceIdList": [room.id], "levelId": gold["levelId"], "levelYearId": gold["levelYearId"],
        "servicePackageId": package["id"]}))
    assert quote[0]["totalFee"] == 12000
    placed = ok(service_order(api, alice, [room.id], gold, options(api, alice, room.id, gold)[0]))
    ok(pay(api, placed))
    assert device(container, "RCW360Z0000001").level_id == gold["levelId"]


def test_a_customer_reads_levels_and_items_in_their_language_with_the_default_as_fallback(app, container):
    room = device(container, COLD_ROOM_A)
    for language, expected, item in (
            ("ru-RU", ["Бесплатный", "Базовый", "Профессиональный"], "SMS-тревоги"),
            ("de-DE", ["Kostenlos", "Basis", "Professionell"], "SMS-Alarme"),
            ("zh-TW", ["免費版", "基礎版", "專業版"], "簡訊告警")):
        api = ApiClient(app.flask.test_client(), language)
        alice = api.token("alice")
        assert list(levels(api, alice, room.id)) == expected
        items = ok(api.call("GET", f"{P}/PayServiceItem/selectAllServiceItemByDevice", token=alice,
                            query={"deviceId": room.id}))
        assert items[1]["itemTitle"] == item
        info = ok(api.call("GET", f"{PKG}/selectDeviceDepositInfo", token=alice, query={"deviceId": room.id}))
        assert info["levelName"] == expected[1]
    # a language without a text reads the platform's default (zh-CN on the domestic edition)
    api, op = ApiClient(app.flask.test_client(), "en-US"), None
    op = api.token("operator")
    package = new_package(api, op, [])
    [silver, _gold] = ok(api.call("GET", f"{LVL}/selectServiceLevels", token=op, query={"packageId": package["id"]}))
    assert silver["names"]["en-US"]["name"] == "Silver" and "de-DE" not in silver["names"]
    german = ApiClient(app.flask.test_client(), "de-DE")
    found = ok(german.call("GET", f"{LVL}/selectServiceLevels", token=german.token("operator"),
                           query={"packageId": package["id"]}))
    assert found[0]["levelName"] == "银卡"


def test_a_stopped_package_disappears_from_the_customers_cards_and_quotes(api, container):
    op, alice = api.token("operator"), api.token("alice")
    room = device(container, COLD_ROOM_A)
    basic = levels(api, alice, room.id)["Basic"]
    year = options(api, alice, room.id, basic)[0]
    ok(api.call("POST", f"{PKG}/stopServicePackage", token=op, json={"id": basic["packageId"]}))
    assert levels(api, alice, room.id) == {}
    refused(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=alice, json={
        "deviceIdList": [room.id], "levelId": basic["levelId"], "levelYearId": year["id"],
        "servicePackageId": basic["packageId"]}), 409, 1109)
    refused(service_order(api, alice, [room.id], basic, year), 409, 1109)
    refused(api.call("POST", f"{PKG}/stopServicePackage", token=op, json={"id": basic["packageId"]}), 409, 2008)
    ok(api.call("POST", f"{PKG}/enableServicePackage", token=op, json={"id": basic["packageId"]}))
    assert list(levels(api, alice, room.id)) == ["Free", "Basic", "Professional"]


def test_editing_a_sold_duration_retires_it_and_the_order_keeps_what_it_bought(api, container):
    op, alice = api.token("operator"), api.token("alice")
    room = device(container, COLD_ROOM_A)
    basic = levels(api, alice, room.id)["Basic"]
    sold = options(api, alice, room.id, basic)[0]
    placed = ok(service_order(api, alice, [room.id], basic, sold))
    [admin_level] = [lv for lv in ok(api.call("GET", f"{LVL}/selectServiceLevels", token=op,
                                              query={"packageId": basic["packageId"]}))
                     if lv["levelId"] == basic["levelId"]]
    assert admin_level["inUse"] and [o["sold"] for o in admin_level["options"]][:1] == [True]
    body = {"levelId": basic["levelId"], "names": admin_level["names"], "itemCodes": admin_level["itemCodes"],
            "options": [{k: o[k] for k in ("id", "timeLength", "serviceFee", "dataFee", "currency", "discount",
                                           "topStatus")} for o in admin_level["options"]]}
    body["options"][0]["serviceFee"] = 15900  # a new price for the sold 12 months
    body["options"][0]["topStatus"] = True
    changed = ok(api.call("PUT", f"{LVL}/update", token=op, json=body))
    new_row = changed["options"][0]
    assert new_row["id"] != sold["id"] and (new_row["serviceFee"], new_row["sold"]) == (15900, False)
    with container.session_factory()() as session:
        old = session.get(LevelYearOptionRow, sold["id"])
        assert old is not None and old.retired_at is not None and old.service_fee_cents == 9900
        line = session.scalars(select(OrderLineRow).join(OrderRow).where(OrderRow.id == placed["orderId"])).one()
        assert (line.level_year_id, line.fee_cents, line.months) == (sold["id"], 9900, 12)
    assert [(o["id"], o["price"]) for o in options(api, alice, room.id, basic)][0] == (new_row["id"], 15900)
    before = device(container, COLD_ROOM_A).service_expires_at
    ok(pay(api, placed))  # the old order still pays what it was sold: 99 yuan for 12 months
    with container.session_factory()() as session:
        order = session.get(OrderRow, placed["orderId"])
        assert (order.order_fee_cents, order.status) == (9900, 2)
    assert device(container, COLD_ROOM_A).service_expires_at > before
    # only showing the row (recommended) changes in place, sold or not
    body["options"] = [{**o, "id": o["id"]} for o in (
        {k: v for k, v in row.items() if k != "sold"} for row in changed["options"])]
    body["options"][1]["topStatus"] = True
    again = ok(api.call("PUT", f"{LVL}/update", token=op, json=body))
    assert [o["id"] for o in again["options"]] == [o["id"] for o in changed["options"]]
    refused(api.call("DELETE", f"{LVL}/delete", token=op, query={"levelId": basic["levelId"]}), 409, 2004)


def test_the_free_gift_is_what_a_new_device_gets(api, container, clock):
    op, alice = api.token("operator"), api.token("alice")
    demo = demo_package(api, op)
    gift = ok(api.call("GET", f"{GIFT}/selectListByDomain", token=op, query={"packageId": demo["id"]}))
    assert (gift["timeLength"], gift["smsCount"], gift["configured"]) == (2, 0, True)  # the historical two months
    detail = ok(api.call("GET", f"{PKG}/selectPackagesDetail", token=op, query={"id": demo["id"]}))
    pro = detail["levels"][2]["levelId"]
    ok(api.call("PUT", f"{GIFT}/update", token=op, json={"packageId": demo["id"], "levelId": pro, "timeLength": 3,
                                                         "smsCount": 50, "voiceCount": 10}))
    wifi = type_id(api, op, 0x8001)
    added = ok(api.call("POST", "/device/Device/insert", token=alice, json={
        "deviceGuid": "RCW360Z0000009", "deviceName": "Gifted", "typeId": wifi}))
    with container.session_factory()() as session:
        row = session.scalars(select(DeviceRow).where(DeviceRow.guid == "RCW360Z0000009")).one()
        assert (row.level_id, row.sms_count, row.voice_count) == (pro, 50, 10)
        assert row.service_expires_at.month == (clock.now().month + 2) % 12 + 1
    assert added
    other = new_package(api, op, [], code="20000002")
    level_elsewhere = ok(api.call("GET", f"{LVL}/selectServiceLevels", token=op,
                                  query={"packageId": other["id"]}))[0]["levelId"]
    refused(api.call("POST", f"{GIFT}/insert", token=op, json={"packageId": demo["id"], "levelId": level_elsewhere,
                                                               "timeLength": 1}), 409, 2006)
    bad = api.call("POST", f"{GIFT}/insert", token=op, json={"packageId": demo["id"], "timeLength": 121})
    assert bad.status == 422 and set(bad.body["errors"]) == {"timeLength", "levelId"}


def test_items_are_added_named_per_language_sorted_and_deleted_when_unused(api):
    op = api.token("operator")
    item = ok(api.call("POST", f"{ITEM}/insert", token=op, json={
        "itemCode": "COLD_REPORT", "itemLabel": "NEW", "names": {
            "zh-CN": {"name": "冷链报告", "description": "每月"}, "en-US": {"name": "Cold report"}}}))
    assert (item["itemName"], item["names"]["zh-CN"]["description"]) == ("Cold report", "每月")
    twice = api.call("POST", f"{ITEM}/insert", token=op, json={"itemCode": "COLD_REPORT", "names": names("x")})
    assert twice.status == 422 and list(twice.body["errors"]) == ["itemCode"]
    codes = [i["itemCode"] for i in ok(api.call("GET", f"{ITEM}/selectAllItem", token=op))]
    assert codes[-1] == "COLD_REPORT"
    sorted_ = ok(api.call("POST", f"{ITEM}/sortItem", token=op, json={"itemCodes": codes[::-1]}))
    assert [i["itemCode"] for i in sorted_] == codes[::-1]
    refused(api.call("DELETE", f"{ITEM}/delete", token=op, query={"itemCode": "ALARM_SMS"}), 409, 2005)
    ok(api.call("DELETE", f"{ITEM}/delete", token=op, query={"itemCode": "COLD_REPORT"}))
    assert api.call("DELETE", f"{ITEM}/delete", token=op, query={"itemCode": "COLD_REPORT"}).status == 404


def test_the_package_rules_answer_by_field_in_the_callers_language(app):
    german = ApiClient(app.flask.test_client(), "de-DE")
    op = german.token("operator")
    reply = german.call("POST", f"{PKG}/insert", token=op, json={
        "packageCode": "1234567a", "names": {"zh-CN": {"name": "一" * 21}, "ru-RU": {"name": ""}}})
    assert reply.status == 422
    assert set(reply.body["errors"]) == {"packageCode", "names.zh-CN.name"}
    assert "8" in reply.body["errors"]["packageCode"][0] and "Ziffern" in reply.body["errors"]["packageCode"][0]
    taken = german.call("POST", f"{PKG}/insert", token=op, json={"packageCode": "10000001", "names": names("x")})
    assert taken.status == 422 and list(taken.body["errors"]) == ["packageCode"]
    no_default = german.call("POST", f"{PKG}/insert", token=op, json={"packageCode": "20000009",
                                                                      "names": {"en-US": {"name": "Only English"}}})
    assert no_default.status == 422 and list(no_default.body["errors"]) == ["names.zh-CN.name"]
    package = ok(german.call("POST", f"{PKG}/insert", token=op, json={"packageCode": "20000009", "names": names("x")}))
    level = german.call("POST", f"{LVL}/insert", token=op, json={
        "packageId": package["id"], "names": names("银" * 21), "options": [
            option(0, 100), option(12, -1), option(12, 100, discount=0), option(12, 100, "EUR")]})
    assert level.status == 422
    assert {"names.zh-CN.name", "options.0.timeLength", "options.1.serviceFee", "options.2.discount",
            "options.3.currency"} <= set(level.body["errors"])
    empty = german.call("POST", f"{LVL}/insert", token=op, json={"packageId": package["id"], "names": names("x"),
                                                                 "options": []})
    assert empty.status == 422 and list(empty.body["errors"]) == ["options"]
    refused(german.call("POST", f"{PKG}/enableServicePackage", token=op, json={"id": package["id"]}), 409, 2003)


def test_customers_strangers_and_operators_without_the_permission_get_nothing(api, container):
    op = api.token("operator")
    demo = demo_package(api, op)
    calls = [("POST", f"{PKG}/selectPackagesList", {"json": {}}),
             ("GET", f"{PKG}/selectPackagesDetail", {"query": {"id": demo["id"]}}),
             ("POST", f"{PKG}/insert", {"json": {"packageCode": "20000003", "names": names("x")}}),
             ("POST", f"{PKG}/stopServicePackage", {"json": {"id": demo["id"]}}),
             ("GET", f"{TYPES}/selectAllTypeList", {}),
             ("POST", f"{ITEM}/insert", {"json": {"itemCode": "HOSTILE", "names": names("x")}}),
             ("PUT", f"{GIFT}/update", {"json": {"packageId": demo["id"], "timeLength": 0}})]
    for user in ("alice", "calibadmin"):
        token = api.token(user)
        for method, path, kwargs in calls:
            assert api.call(method, path, token=token, **kwargs).status == 403, (user, path)
    for method, path, kwargs in calls:
        assert api.call(method, path, **kwargs).status == 401, path
    assert demo_package(api, op)["status"] == 1
    assert api.call("GET", f"{PKG}/selectPackagesDetail", token=op, query={"id": 999999}).status == 404


def icon_upload(api, token, level_id, data: bytes):
    response = api.client.post(f"/api{LVL}/uploadLevelIcon", data={"levelId": str(level_id),
                                                                     "file": (io.BytesIO(data), "icon.png")},
                               headers={"Authorization": f"Bearer {token}", "Accept-Language": "en-US"},
                               content_type="multipart/form-data")
    return response.status_code, response.get_json(silent=True) or {}


def test_hostile_input_is_refused_and_changes_nothing(api, container):
    op, alice = api.token("operator"), api.token("alice")
    demo = demo_package(api, op)
    level = ok(api.call("GET", f"{LVL}/selectServiceLevels", token=op, query={"packageId": demo["id"]}))[1]
    base = {"levelId": level["levelId"], "names": level["names"], "itemCodes": level["itemCodes"]}
    for hostile in ([option(12, 10**30)], [option(-12, 100)], [option(12, -100)], [option(12, 100, discount=10**6)]):
        reply = api.call("PUT", f"{LVL}/update", token=op, json={**base, "options": hostile})
        assert reply.status == 422, (hostile, reply.body)
    surrogate = api.call("PUT", f"{LVL}/update", token=op, json={**base, "names": {"zh-CN": {"name": "\ud800x"}},
                                                                  "options": [option(12, 100)]})
    assert surrogate.status == 422
    emoji = api.call("PUT", f"{LVL}/update", token=op, json={**base, "names": {"zh-CN": {"name": "基础😀"}},
                                                              "options": [option(12, 100)]})
    assert emoji.status == 422 and list(emoji.body["errors"]) == ["names.zh-CN.name"]
    unknown_language = api.call("PUT", f"{LVL}/update", token=op, json={**base, "names": {"xx-XX": {"name": "a"}},
                                                                         "options": [option(12, 100)]})
    assert unknown_language.status == 422
    after = ok(api.call("GET", f"{LVL}/selectServiceLevels", token=op, query={"packageId": demo["id"]}))[1]
    assert after == level
    # icons: a real small picture is kept; an oversize or fake one is refused
    picture = io.BytesIO()
    Image.new("RGB", (32, 32), (0, 120, 200)).save(picture, "PNG")
    status, body = icon_upload(api, op, level["levelId"], picture.getvalue())
    assert status == 200 and body["data"]["levelIcon"]
    icon = api.client.get(f"/api{LVL}/icon", query_string={"levelId": level["levelId"]},
                          headers={"Authorization": f"Bearer {alice}"})
    assert icon.status_code == 200 and icon.data.startswith(b"\x89PNG")
    status, _ = icon_upload(api, op, level["levelId"], b"\x89PNG\r\n\x1a\n" + b"0" * (2 * 1024 * 1024))
    assert status in (413, 422)
    status, body = icon_upload(api, op, level["levelId"], b"GIF89a not a png")
    assert status == 422 and list(body["errors"]) == ["file"]
    status, _ = icon_upload(api, alice, level["levelId"], picture.getvalue())
    assert status == 403


def test_the_package_list_pages_and_filters(api):
    op = api.token("operator")
    new_package(api, op, [], code="20000004")
    page = api.call("POST", f"{PKG}/selectPackagesList", token=op, json={"pageSize": 1})
    conforms(page, page_of(cs.PackageSchema))
    assert ok(page)["totalCount"] == 2
    assert [p["packageCode"] for p in ok(api.call("POST", f"{PKG}/selectPackagesList", token=op,
                                                  json={"packageName": "冷链"}))["data"]] == ["20000004"]
    assert [p["packageCode"] for p in ok(api.call("POST", f"{PKG}/selectPackagesList", token=op,
                                                  json={"status": 1}))["data"]] == ["10000001"]


def test_the_operators_catalogue_changes_are_in_the_operation_log(api, container):
    op = api.token("operator")
    package = new_package(api, op, [], code="20000005")
    with container.session_factory()() as session:
        from adapters.persistence.models import OperationChangeRow, OperationLogRow

        rows = session.execute(select(OperationLogRow.action, OperationChangeRow.object_type, OperationChangeRow.label)
                               .join(OperationChangeRow, OperationChangeRow.operation_id == OperationLogRow.id)
                               .where(OperationLogRow.actor_name == "operator")).all()
    kinds = {object_type for _action, object_type, _label in rows}
    assert {"servicePackage", "serviceLevel", "levelYearOption", "catalogueText", "levelItem"} <= kinds
    assert ("servicePackage", "冷链套餐") in {(kind, label) for _a, kind, label in rows}
    assert package["id"]
