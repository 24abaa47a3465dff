"""Promotions in the back office over the API (issue 18), SQLite and PostgreSQL, with the demo
data: the operator runs activities (insert, update, enable, stop, copy, delete) whose prices the
customer's recharge drawers show at once and stop showing at once; a directional activity is
alice's alone; overlapping enabled activities are refused; SMS/voice packages per country code
(5 of a kind at most), sorted and imported from XLSX with a row-by-row report. Customers get 403;
hostile input gets a clear 4xx and changes nothing."""

from __future__ import annotations

from datetime import timedelta
from io import BytesIO

import pytest
from openpyxl import Workbook, load_workbook  # type: ignore[import-untyped]
from sqlalchemy import func, select

from adapters.persistence.models import ActivityRow, SmsPackageRow
from entrypoints.api.framework import envelope, page_of
from entrypoints.api.promotions import schemas as s
from tests.integration.test_recharge_api import COLD_ROOM_A, device, levels, options
from tests.support.api import ok
from tests.support.mosquitto import add_device

pytestmark = pytest.mark.usefixtures("recharge_demo")

P = "/payment"
A = f"{P}/PayActivity"
SMS = f"{P}/PaySmsPackages"
BASIC = "Basic"  # the demo level as an en-US reader sees it (the catalogue names it per language)


def checked(reply, schema, many=False):
    data = ok(reply)
    envelope(schema, many)().load(reply.body)
    return data


def refused(reply, status: int, code: int | None = None) -> dict:
    assert reply.status == status, reply.body
    if code is not None:
        assert reply.code == code, reply.body
    return reply.body


@pytest.fixture
def op(api):
    return api.token("operator")


def basic_options(api, op) -> list[dict]:
    rows = checked(api.call("GET", f"{A}/selectServicePackageActivity", token=op), s.OptionLabelSchema, many=True)
    return [r for r in rows if r["levelName"] == BASIC and r["currency"] == "CNY"]


def account_id(api, op, name: str) -> int:
    found = ok(api.call("POST", f"{P}/PayActivityAccountRel/selectListByDomain", token=op, json={"text": name}))
    return next(a["id"] for a in found if a["userName"] == name)


def activity_body(clock, option_ids, *, nature=1, accounts=(), name="Spring sale", discount=80, days=(-1, 10)):
    now = clock.now()
    return {"name": name, "nature": nature, "startTime": (now + timedelta(days=days[0])).isoformat(),
            "endTime": (now + timedelta(days=days[1])).isoformat(),
            "options": [{"levelYearId": i, "activityDiscount": discount, "presentationMonth": 1} for i in option_ids],
            "accountIds": list(accounts), "names": {"en-US": "Spring sale", "ru-RU": "Весенняя распродажа"}}


def quote(api, token, device_id, option_id) -> int:
    """What the customer's quote (selectBatchQuote) charges the device for the basic option."""
    level = levels(api, token, device_id)[BASIC]
    [row] = ok(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=token, json={
        "deviceIdList": [device_id], "levelId": level["levelId"], "levelYearId": option_id,
        "servicePackageId": level["packageId"]}))
    return row["totalFee"]


def bobs_device(api, container) -> int:
    add_device(api, "RCW360B0000009", owner="bob")
    return device(container, "RCW360B0000009").id


def basic_price(api, token, device_id) -> dict:
    level = levels(api, token, device_id)[BASIC]
    return {o["id"]: o for o in options(api, token, device_id, level)}


def test_a_directional_activity_is_seen_by_its_target_only_and_stopping_restores_the_price(api, op, clock,
                                                                                           container):
    room = device(container, COLD_ROOM_A).id
    alice, bob = api.token("alice"), api.token("bob")
    [first, *_] = basic_options(api, op)
    bobs = bobs_device(api, container)
    before_alice, before_bob = basic_price(api, alice, room), basic_price(api, bob, bobs)
    assert before_alice[first["levelYearId"]]["activityId"] is None

    body = activity_body(clock, [first["levelYearId"]], nature=2, accounts=[account_id(api, op, "alice")])
    created = checked(api.call("POST", f"{A}/insertActivity", token=op, json=body), s.ActivitySchema)
    assert created["status"] == 1 and [a["userName"] for a in created["accounts"]] == ["alice"]

    offered = basic_price(api, alice, room)[first["levelYearId"]]
    assert (offered["activityId"], offered["activityDiscount"], offered["presentationMonth"]) == (created["id"], 80, 1)
    own_price = before_alice[first["levelYearId"]]["price"]
    assert offered["price"] < own_price and quote(api, alice, room, first["levelYearId"]) == offered["price"]
    assert basic_price(api, bob, bobs) == before_bob  # bob sees the package's own price
    assert quote(api, bob, bobs, first["levelYearId"]) == own_price

    ok(api.call("POST", f"{A}/stopActivity", token=op, json={"id": created["id"]}))
    assert basic_price(api, alice, room) == before_alice  # restored at once
    assert quote(api, alice, room, first["levelYearId"]) == own_price
    ok(api.call("POST", f"{A}/enableActivity", token=op, json={"id": created["id"]}))
    assert basic_price(api, alice, room)[first["levelYearId"]]["activityId"] == created["id"]
    ok(api.call("DELETE", f"{A}/delete", token=op, query={"id": created["id"]}))
    assert basic_price(api, alice, room) == before_alice
    refused(api.call("GET", f"{A}/get/model", token=op, query={"id": created["id"]}), 404)


def test_the_level_card_follows_a_public_activity(api, op, clock, container):
    room = device(container, COLD_ROOM_A).id
    alice = api.token("alice")
    headline = basic_options(api, op)[0]
    card = levels(api, alice, room)[BASIC]
    assert card["activityId"] is None
    created = ok(api.call("POST", f"{A}/insertActivity", token=op,
                          json=activity_body(clock, [headline["levelYearId"]], discount=50)))
    card = levels(api, alice, room)[BASIC]
    assert (card["activityId"], card["activityDiscount"]) == (created["id"], 50)
    ok(api.call("DELETE", f"{A}/delete", token=op, query={"id": created["id"]}))
    assert levels(api, alice, room)[BASIC]["activityId"] is None


def test_overlapping_enabled_activities_are_refused(api, op, clock):
    first, second = basic_options(api, op)[:2]
    one = ok(api.call("POST", f"{A}/insertActivity", token=op, json=activity_body(clock, [first["levelYearId"]])))
    clash = activity_body(clock, [second["levelYearId"], first["levelYearId"]], name="Clash", days=(5, 20))
    body = refused(api.call("POST", f"{A}/insertActivity", token=op, json=clash), 409, 2071)
    assert "Spring sale" in body["msg"]
    ru = api.call("POST", f"{A}/insertActivity", token=op, json=clash, headers={"Accept-Language": "ru-RU"})
    assert ru.code == 2071 and "Spring sale" in ru.body["msg"] and "активн" in ru.body["msg"].lower()
    # after it ends, or on another option, there is no overlap
    ok(api.call("POST", f"{A}/insertActivity", token=op,
                json=activity_body(clock, [first["levelYearId"]], name="Later", days=(10, 20))))
    # a copy is stopped, so it does not clash until enabled
    copy = ok(api.call("POST", f"{A}/copyActivity", token=op, json={"id": one["id"]}))
    assert (copy["status"], copy["defaultName"]) == (0, "Spring sale (2)")
    assert copy["names"]["ru-RU"] == "Весенняя распродажа"
    refused(api.call("POST", f"{A}/enableActivity", token=op, json={"id": copy["id"]}), 409, 2071)
    ok(api.call("POST", f"{A}/stopActivity", token=op, json={"id": one["id"]}))
    ok(api.call("POST", f"{A}/enableActivity", token=op, json={"id": copy["id"]}))


def test_names_per_language_fall_back_to_the_default(api, op, clock):
    first = basic_options(api, op)[0]
    created = ok(api.call("POST", f"{A}/insertActivity", token=op, json=activity_body(clock, [first["levelYearId"]])))
    page = lambda lang: ok(api.call("POST", f"{A}/selectPackageActivity", token=op, json={"name": "spring"},  # noqa: E731
                                    headers={"Accept-Language": lang}))["data"]
    assert [a["name"] for a in page("ru-RU")] == ["Весенняя распродажа"]
    assert [a["name"] for a in page("de-DE")] == ["Spring sale"]
    assert created["names"] == {"en-US": "Spring sale", "ru-RU": "Весенняя распродажа"}


def test_activity_rules_name_each_field(api, op, clock, container):
    first = basic_options(api, op)[0]
    body = activity_body(clock, [first["levelYearId"]], nature=2, name="x" * 21, days=(5, 1))
    body["options"][0].update(activityDiscount=100, presentationMonth=0)
    errors = refused(api.call("POST", f"{A}/insertActivity", token=op, json=body), 422)["errors"]
    assert {"name", "endTime", "options", "accountIds"} <= set(errors)
    body = activity_body(clock, [999_999])
    assert "options" in refused(api.call("POST", f"{A}/insertActivity", token=op, json=body), 422)["errors"]
    body = activity_body(clock, [first["levelYearId"]], nature=2, accounts=[account_id(api, op, "alice"), 999_999])
    assert "accountIds" in refused(api.call("POST", f"{A}/insertActivity", token=op, json=body), 422)["errors"]
    body = activity_body(clock, [first["levelYearId"]], name="Sale \ud83d\ude00")
    assert "name" in refused(api.call("POST", f"{A}/insertActivity", token=op, json=body), 422)["errors"]
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(ActivityRow)) == 1  # the demo's only


def test_the_operator_sees_orders_at_an_activity_price_and_exports_them(api, op, clock, container):
    from tests.integration.test_recharge_api import service_order

    room = device(container, COLD_ROOM_A).id
    alice = api.token("alice")
    first = basic_options(api, op)[0]
    created = ok(api.call("POST", f"{A}/insertActivity", token=op,
                          json=activity_body(clock, [first["levelYearId"]], nature=2,
                                             accounts=[account_id(api, op, "alice")])))
    level = levels(api, alice, room)[BASIC]
    option = basic_price(api, alice, room)[first["levelYearId"]]
    placed = ok(service_order(api, alice, [room], level, option, activityId=created["id"],
                              presentationMonth=option["presentationMonth"]))
    page = checked(api.call("POST", f"{A}/selectRechargeListByActivity", token=op, json={"id": created["id"]}),
                   page_of(s.ActivityOrderSchema))
    assert [(o["orderId"], o["userName"], o["orderFee"]) for o in page["data"]] == [
        (placed["orderId"], "alice", option["price"])]
    deposits = checked(api.call("POST", f"{P}/activity/PayActivityDeposit/selectDepositList", token=op, json={}),
                       page_of(s.DepositSchema))
    assert created["id"] in [d["activityId"] for d in deposits["data"]]
    reply = api.client.post(f"/api{A}/exportRechargeList", json={"id": created["id"]},
                            headers={"Authorization": f"Bearer {op}", "Accept-Language": "en-US"})
    assert reply.status_code == 200
    sheet = load_workbook(BytesIO(reply.data)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][0] == "Order code" and rows[1][1] == "alice"


# --- SMS and voice packages ------------------------------------------------------------------------


def sms_body(**over):
    return {"kind": 1, "countryCode": "44", "packageName": "SMS 100", "packageFee": 500, "currency": "CNY",
            "smsCount": 100, "discount": 100, **over}


def test_at_most_five_packages_of_a_kind_per_country_code(api, op):
    ids = [checked(api.call("POST", f"{SMS}/insert", token=op, json=sms_body(packageName=f"SMS {n}")),
                   s.AlertPackageAdminSchema)["packageId"] for n in range(5)]
    refused(api.call("POST", f"{SMS}/insert", token=op, json=sms_body(packageName="SMS 6")), 409, 2072)
    ok(api.call("POST", f"{SMS}/insert", token=op, json=sms_body(kind=2, packageName="Voice 1")))  # voice apart
    ok(api.call("POST", f"{SMS}/insert", token=op, json=sms_body(countryCode="49")))  # another country
    voice = ok(api.call("POST", f"{SMS}/selectSmsPackageList", token=op, json={"countryCode": "44", "kind": 2}))
    # moving the voice package to SMS of +44 would make six
    refused(api.call("PUT", f"{SMS}/update", token=op,
                     json=sms_body(packageId=voice[0]["packageId"], kind=1)), 409, 2072)
    ok(api.call("DELETE", f"{SMS}/delete", token=op, query={"packageId": ids[0]}))
    ok(api.call("POST", f"{SMS}/insert", token=op, json=sms_body(packageName="SMS 6")))
    listed = ok(api.call("POST", f"{SMS}/sortPackage", token=op,
                         json={"countryCode": "44", "kind": 1, "ids": list(reversed(ids[1:])) + [
                             p["packageId"] for p in ok(api.call("POST", f"{SMS}/selectSmsPackageList", token=op,
                                                                 json={"countryCode": "44", "kind": 1}))
                             if p["packageName"] == "SMS 6"]}))
    assert [p["packageName"] for p in listed] == ["SMS 4", "SMS 3", "SMS 2", "SMS 1", "SMS 6"]
    refused(api.call("POST", f"{SMS}/sortPackage", token=op, json={"countryCode": "44", "kind": 1, "ids": ids[1:3]}),
            422)


def test_the_customer_sees_changes_to_sms_packages(api, op):
    alice = api.token("alice")

    def customer() -> dict:
        data = ok(api.call("GET", f"{SMS}/selectSmsPackage", token=alice, query={"countryCode": "86"}))
        return {p["packageId"]: p for p in data["smsList"]}

    first_id, first = next(iter(customer().items()))
    admin = next(p for p in ok(api.call("POST", f"{SMS}/selectSmsPackageList", token=op, json={"countryCode": "86"}))
                 if p["packageId"] == first_id)
    body = sms_body(**{k: admin[k] for k in ("kind", "countryCode", "packageFee", "currency", "smsCount")},
                    packageId=first_id, packageName="Cheaper SMS", discount=50)
    ok(api.call("PUT", f"{SMS}/update", token=op, json=body))
    assert customer()[first_id]["discount"] == 50 and customer()[first_id]["price"] < first["price"]
    ok(api.call("PUT", f"{SMS}/update", token=op, json={**body, "names": {"ru-RU": "Дешёвые SMS"}}))
    russian = ok(api.call("GET", f"{SMS}/selectSmsPackage", token=alice, query={"countryCode": "86"},
                          headers={"Accept-Language": "ru-RU"}))["smsList"]
    assert next(p["packageName"] for p in russian if p["packageId"] == first_id) == "Дешёвые SMS"
    assert customer()[first_id]["packageName"] == "Cheaper SMS"  # en-US has none: the default
    ok(api.call("PUT", f"{SMS}/update", token=op, json={**body, "status": 0}))
    assert first_id not in customer()


def sheet(*rows, formula=False) -> bytes:
    book = Workbook()
    ws = book.active
    ws.append(["Kind", "Country code", "Name", "Fee (cents)", "Currency", "Count", "Discount (%)"])
    for row in rows:
        ws.append(list(row))
    if formula:
        ws["D2"] = "=1+1"
    out = BytesIO()
    book.save(out)
    return out.getvalue()


def upload(api, token, data: bytes, name="packages.xlsx", language="en-US"):
    response = api.client.post(f"/api{SMS}/importSmsPackages", data={"file": (BytesIO(data), name)},
                               headers={"Authorization": f"Bearer {token}", "Accept-Language": language},
                               content_type="multipart/form-data")
    return response.status_code, response.get_json()


def test_import_reports_each_refused_row_with_its_reason(api, op, container):
    rows = [("SMS", "44", f"SMS {n}", 100 * n, "CNY", 10 * n, 100) for n in range(1, 7)]
    rows += [("fax", "44", "Fax", 100, "CNY", 1, 100), ("voice", "0", "Voice", 100, "CNY", 1, 100),
             ("voice", "44", "Voice", "lots", "CNY", 1, 100), ("voice", "44", "x" * 21, 100, "CNY", 1, 100),
             ("voice", "44", "Voice 1", 100, "XYZ", 1, 100), ("voice", "44", "Voice ok", 100, "cny", 5, "")]
    status, body = upload(api, op, sheet(*rows))
    assert status == 200, body
    report = {r["row"]: r for r in body["data"]["rows"]}
    assert body["data"]["added"] == 6 and body["data"]["refused"] == 6
    assert report[7]["added"] is False and "at most 5" in report[7]["message"]  # the sixth SMS of +44
    assert (report[8]["field"], report[9]["field"], report[10]["field"], report[11]["field"], report[12]["field"]) == (
        "kind", "countryCode", "packageFee", "packageName", "currency")
    assert report[13]["added"] is True
    status, body = upload(api, op, sheet(*rows), language="zh-CN")
    first = body["data"]["rows"][0]  # the SMS of +44 are full now: said in Chinese
    assert first["added"] is False and "最多" in first["message"]


def test_import_refuses_a_file_that_is_not_such_a_sheet_and_adds_nothing(api, op, container):
    def count() -> int:
        with container.session_factory()() as session:
            return session.scalar(select(func.count()).select_from(SmsPackageRow))

    before = count()
    for data in (b"name,fee\nSMS,1\n", sheet(("SMS", "44", "SMS", 1, "CNY", 1, 100), formula=True),
                 b"PK\x03\x04broken",
                 b"x" * (300 * 1024), sheet()):
        status, body = upload(api, op, data)
        assert status == 422 and "file" in body["errors"], body
    assert count() == before


def test_customers_and_strangers_are_refused(api, clock):
    alice = api.token("alice")
    for method, path, kwargs in (("POST", f"{A}/selectPackageActivity", {"json": {}}),
                                 ("POST", f"{A}/insertActivity", {"json": activity_body(clock, [1])}),
                                 ("POST", f"{A}/stopActivity", {"json": {"id": 1}}),
                                 ("DELETE", f"{A}/delete", {"query": {"id": 1}}),
                                 ("POST", f"{P}/PayActivityAccountRel/selectListByDomain", {"json": {"text": "a"}}),
                                 ("POST", f"{P}/activity/PayActivityDeposit/selectDepositList", {"json": {}}),
                                 ("POST", f"{SMS}/insert", {"json": sms_body()}),
                                 ("POST", f"{SMS}/selectSmsPackageList", {"json": {}})):
        assert api.call(method, path, token=alice, **kwargs).status == 403
        assert api.call(method, path, **kwargs).status == 401
    status, _ = upload(api, alice, sheet())
    assert status == 403


def test_hostile_input_gets_a_clear_4xx(api, op, clock):
    first = basic_options(api, op)[0]
    for body in ({**activity_body(clock, [first["levelYearId"]]), "options": [{"levelYearId": 2**40}]},
                 {**activity_body(clock, [first["levelYearId"]]), "startTime": "9" * 100},
                 {**activity_body(clock, [first["levelYearId"]]), "names": {"xx-XX": "a"}},
                 {**activity_body(clock, [first["levelYearId"]]), "nature": 3},
                 {**activity_body(clock, [first["levelYearId"]]), "extra": {"a": {"b": {"c": [[[[1]]]]}}}}):
        assert api.call("POST", f"{A}/insertActivity", token=op, json=body).status == 422
    for body in (sms_body(packageFee=10**12), sms_body(countryCode="+44"), sms_body(packageName="\u200b"),
                 sms_body(smsCount=-1), sms_body(currency="C" * 10_000)):
        assert api.call("POST", f"{SMS}/insert", token=op, json=body).status == 422
    assert api.call("POST", f"{A}/enableActivity", token=op, json={"id": 2**31 - 1}).status == 404


def test_two_overlapping_activities_enabled_at_once_one_wins(api, op, clock, container):
    """Both stopped, both on one option at overlapping moments: enabled together, exactly one is."""
    import threading

    from core.promotions.errors import ActivityOverlap
    from core.promotions.model import Status

    first = basic_options(api, op)[0]
    ids = []
    for name in ("Race one", "Race two"):
        made = ok(api.call("POST", f"{A}/insertActivity", token=op,
                           json=activity_body(clock, [first["levelYearId"]], name=name, days=(40, 50))))
        ok(api.call("POST", f"{A}/stopActivity", token=op, json={"id": made["id"]}))
        ids.append(made["id"])
    barrier, outcomes = threading.Barrier(2), []

    def enable(activity_id: int) -> None:
        set_status = container.set_activity_status()
        barrier.wait()
        try:
            set_status(activity_id, Status.ENABLED)
            outcomes.append("enabled")
        except ActivityOverlap:
            outcomes.append("refused")

    threads = [threading.Thread(target=enable, args=(i,)) for i in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["enabled", "refused"]
    statuses = [ok(api.call("GET", f"{A}/get/model", token=op, query={"id": i}))["status"] for i in ids]
    assert sorted(statuses) == [0, 1]


def test_two_inserts_racing_for_the_fifth_place_make_five(api, op, container):
    """Four SMS packages of +44; two more inserted at once: one is added, the other refused."""
    import threading

    from core.promotions.errors import TooManyAlertPackages
    from core.promotions.model import AlertKind, AlertPackageDraft

    for n in range(4):
        ok(api.call("POST", f"{SMS}/insert", token=op, json=sms_body(packageName=f"SMS {n}")))
    barrier, outcomes = threading.Barrier(2), []

    def insert(name: str) -> None:
        save = container.save_alert_package()
        barrier.wait()
        try:
            save(AlertPackageDraft(AlertKind.SMS, "44", name, 500, "CNY", 100))
            outcomes.append("added")
        except TooManyAlertPackages:
            outcomes.append("refused")

    threads = [threading.Thread(target=insert, args=(f"Race {n}",)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["added", "refused"]
    listed = ok(api.call("POST", f"{SMS}/selectSmsPackageList", token=op, json={"countryCode": "44", "kind": 1}))
    assert len(listed) == 5


def test_the_import_template_is_headed_in_the_operator_s_language_and_imports_as_is(api, op):
    reply = api.client.get(f"/api{SMS}/importSmsPackages/template",
                           headers={"Authorization": f"Bearer {op}", "Accept-Language": "de-DE"})
    assert reply.status_code == 200 and reply.mimetype.endswith("sheet")
    rows = list(load_workbook(BytesIO(reply.data)).active.iter_rows(values_only=True))
    assert rows[0][1] == "Ländervorwahl" and rows[1][:2] == ("SMS", "86")
    status, body = upload(api, op, reply.data)
    assert status == 200 and body["data"]["added"] == 1  # the example row: +86 had three SMS packages
