"""What the back office sold and what is in force, over the API (issue 18), SQLite and PostgreSQL,
with the demo data: selectDepositView of service packages (per year option) and of SMS/voice
packages (per country code) count the orders paid in the period only; selectSmsActivityDetail
says what an SMS package charges now and how its terms changed; selectServiceActivityDetail lists
each year option's activities in force and to come. Customers get 403, hostile input a clear 4xx."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from adapters.persistence.models import SmsPackageRow
from core.shared.money import Money
from entrypoints.api.promotions import schemas as s
from tests.integration.test_promotions_api import SMS, A, P, activity_body, basic_options, checked
from tests.integration.test_promotions_api import op as op  # noqa: F401 (the fixture)
from tests.integration.test_recharge_api import (
    COLD_ROOM_A,
    COLD_ROOM_B,
    device,
    levels,
    options,
    pay,
    service_order,
    sms_order,
)
from tests.support.api import ok

pytestmark = pytest.mark.usefixtures("recharge_demo")

SERVICE_VIEW = f"{P}/PayServicePackages/selectDepositView"
SMS_VIEW = f"{SMS}/selectDepositView"
SERVICE_DETAIL = f"{P}/PayServicePackages/selectServiceActivityDetail"
SMS_DETAIL = f"{SMS}/selectSmsActivityDetail"


def around(clock, before=timedelta(hours=1), after=timedelta(hours=1)) -> dict:
    now = clock.now()
    return {"startTime": (now - before).isoformat(), "endTime": (now + after).isoformat()}


def service_view(api, op, **body) -> dict:
    return checked(api.call("POST", SERVICE_VIEW, token=op, json=body), s.ServiceDepositViewSchema)


def sms_view(api, op, **body) -> dict:
    return checked(api.call("POST", SMS_VIEW, token=op, json=body), s.AlertDepositViewSchema)


def row_of(view: dict, key: str, value) -> dict:
    return next((r for r in view["rows"] if r[key] == value),
                {"orders": 0, "devices": 0, "paidFees": {}, "smsCount": 0, "voiceCount": 0})


def test_the_service_summary_counts_the_orders_paid_in_the_period(api, op, clock, container):
    alice = api.token("alice")
    a, b = device(container, COLD_ROOM_A).id, device(container, COLD_ROOM_B).id
    basic = levels(api, alice, a)["Basic"]
    year = options(api, alice, a, basic)[0]
    before = service_view(api, op, **around(clock))
    paid = ok(service_order(api, alice, [a, b], basic, year))
    ok(pay(api, paid))
    ok(service_order(api, alice, [a], basic, year))  # never paid: not a sale
    after = service_view(api, op, **around(clock))
    was, now = row_of(before, "levelYearId", year["id"]), row_of(after, "levelYearId", year["id"])
    assert (now["orders"] - was["orders"], now["devices"] - was["devices"]) == (1, 2)
    assert now["paidFees"]["CNY"] - was["paidFees"].get("CNY", 0) == 2 * year["price"]
    assert (now["packageId"], now["levelName"], now["timeLength"]) == (basic["packageId"], "Basic", 12)
    assert after["orders"] == before["orders"] + 1
    assert after["paidFees"]["CNY"] == before["paidFees"].get("CNY", 0) + 2 * year["price"]
    assert after["orders"] == sum(r["orders"] for r in after["rows"])
    # another package's summary does not hold it
    others = service_view(api, op, **around(clock), packageId=2_000_000_000)
    assert others["rows"] == [] and others["orders"] == 0 and others["paidFees"] == {}


def test_the_service_summary_leaves_out_a_payment_outside_the_period(api, op, clock, container):
    alice = api.token("alice")
    a = device(container, COLD_ROOM_A).id
    basic = levels(api, alice, a)["Basic"]
    year = options(api, alice, a, basic)[0]
    window = around(clock, before=timedelta(minutes=1), after=timedelta(minutes=1))
    before = row_of(service_view(api, op, **window), "levelYearId", year["id"])["orders"]
    clock.advance(hours=2)
    ok(pay(api, ok(service_order(api, alice, [a], basic, year))))
    assert row_of(service_view(api, op, **window), "levelYearId", year["id"])["orders"] == before
    assert row_of(service_view(api, op, **around(clock)), "levelYearId", year["id"])["orders"] >= 1


def test_the_sms_summary_counts_messages_and_calls_sold_per_country_code(api, op, clock, container):
    alice = api.token("alice")
    a, b = device(container, COLD_ROOM_A).id, device(container, COLD_ROOM_B).id
    packages = ok(api.call("GET", f"{SMS}/selectSmsPackage", token=alice, query={"countryCode": "86"}))
    sms500 = next(p for p in packages["smsList"] if p["smsCount"] == 500)
    voice50 = next(p for p in packages["voiceList"] if p["smsCount"] == 50)
    before = row_of(sms_view(api, op, **around(clock)), "countryCode", "86")
    ok(pay(api, ok(sms_order(api, alice, [a, b], sms500, voice50))))
    ok(sms_order(api, alice, [a], sms500))  # unpaid
    view = sms_view(api, op, **around(clock), countryCode="86")
    now = row_of(view, "countryCode", "86")
    assert [now[k] - before[k] for k in ("orders", "devices", "smsCount", "voiceCount")] == [1, 2, 1000, 100]
    assert now["paidFees"]["CNY"] - before["paidFees"].get("CNY", 0) == 2 * (sms500["price"] + voice50["price"])
    assert [r["countryCode"] for r in view["rows"]] == ["86"]
    assert sms_view(api, op, **around(clock), countryCode="44")["rows"] == []


def test_the_sms_detail_says_what_is_charged_now_and_how_the_terms_changed(api, op, container):
    body = {"kind": 1, "countryCode": "44", "packageName": "SMS 100", "packageFee": 1000, "currency": "CNY",
            "smsCount": 100, "discount": 100}
    made = ok(api.call("POST", f"{SMS}/insert", token=op, json=body))
    ok(api.call("PUT", f"{SMS}/update", token=op, json={**body, "packageId": made["packageId"], "discount": 90}))
    detail = checked(api.call("GET", SMS_DETAIL, token=op, query={"packageId": made["packageId"]}),
                     s.AlertActivityDetailSchema)
    assert (detail["activityDiscount"], detail["discountNow"], detail["priceNow"]) == (None, 90, 900)
    assert detail["package"]["packageId"] == made["packageId"]
    latest = detail["history"][0]
    assert (latest["field"], latest["old"], latest["new"], latest["kind"], latest["actorName"]) == (
        "discount", 100, 90, "update", "operator")
    assert {h["field"] for h in detail["history"] if h["kind"] == "insert"} >= {"packageFee", "discount"}
    with container.session_factory()() as session, session.begin():  # an activity discount takes precedence
        session.execute(update(SmsPackageRow).where(SmsPackageRow.id == made["packageId"]).values(
            activity_discount=70))
    detail = ok(api.call("GET", SMS_DETAIL, token=op, query={"packageId": made["packageId"]}))
    assert (detail["activityDiscount"], detail["discountNow"], detail["priceNow"]) == (70, 70, 700)
    assert api.call("GET", SMS_DETAIL, token=op, query={"packageId": 2**31 - 1}).status == 404


def test_the_package_detail_lists_each_option_s_activities_in_force_and_to_come(api, op, clock):
    first, second = basic_options(api, op)[:2]
    now_on = ok(api.call("POST", f"{A}/insertActivity", token=op, json={
        **activity_body(clock, [first["levelYearId"]], name="Now"),
        "options": [{"levelYearId": first["levelYearId"], "activityDiscount": 80, "presentationMonth": 1}]}))
    later = ok(api.call("POST", f"{A}/insertActivity", token=op, json={
        **activity_body(clock, [first["levelYearId"], second["levelYearId"]], name="Later", days=(20, 30)),
        "options": [{"levelYearId": first["levelYearId"], "activityDiscount": 60, "presentationMonth": 0},
                    {"levelYearId": second["levelYearId"], "activityDiscount": 100, "presentationMonth": 3}]}))
    stopped = ok(api.call("POST", f"{A}/insertActivity", token=op, json=activity_body(
        clock, [second["levelYearId"]], name="Stopped", days=(40, 50))))
    ok(api.call("POST", f"{A}/stopActivity", token=op, json={"id": stopped["id"]}))
    detail = checked(api.call("GET", SERVICE_DETAIL, token=op, query={"packageId": first["packageId"]}),
                     s.PackageActivityDetailSchema)
    rows = {o["levelYearId"]: o for o in detail["options"]}
    on_first = [(a["activityId"], a["inForce"], a["activityDiscount"], a["payFee"])
                for a in rows[first["levelYearId"]]["activities"]]
    fee = Money(first["serviceFee"], first["currency"])  # what the customer's drawer charges at the discount
    assert on_first[:2] == [(now_on["id"], True, 80, fee.discounted(80).cents),
                            (later["id"], False, 60, fee.discounted(60).cents)]
    on_second = [(a["activityId"], a["presentationMonth"]) for a in rows[second["levelYearId"]]["activities"]]
    assert (later["id"], 3) in on_second and stopped["id"] not in [a for a, _ in on_second]
    assert detail["packageName"] == first["packageName"]
    assert api.call("GET", SERVICE_DETAIL, token=op, query={"packageId": 2**31 - 1}).status == 404


def test_customers_and_strangers_are_refused(api, clock):
    alice = api.token("alice")
    for method, path, kwargs in (("POST", SERVICE_VIEW, {"json": around(clock)}),
                                 ("POST", SMS_VIEW, {"json": around(clock)}),
                                 ("GET", SERVICE_DETAIL, {"query": {"packageId": 1}}),
                                 ("GET", SMS_DETAIL, {"query": {"packageId": 1}})):
        assert api.call(method, path, token=alice, **kwargs).status == 403
        assert api.call(method, path, **kwargs).status == 401


def test_hostile_input_gets_a_clear_4xx(api, op, clock):
    backwards = around(clock, before=-timedelta(hours=2))
    reply = api.call("POST", SERVICE_VIEW, token=op, json=backwards)
    assert reply.status == 422 and "endTime" in reply.body["errors"], reply.body
    decade = around(clock, before=timedelta(days=3660))
    for path in (SERVICE_VIEW, SMS_VIEW):
        assert api.call("POST", path, token=op, json=decade).status == 422
        assert api.call("POST", path, token=op, json={**around(clock), "startTime": "9" * 100}).status == 422
        assert api.call("POST", path, token=op, json={"endTime": around(clock)["endTime"]}).status == 422
        assert api.call("POST", path, token=op, json={**around(clock), "extra": [[[1]]]}).status == 422
    assert api.call("POST", SERVICE_VIEW, token=op, json={**around(clock), "packageId": 2**40}).status == 422
    assert api.call("POST", SMS_VIEW, token=op, json={**around(clock), "countryCode": "8" * 500}).status == 422
    # an activity's options are checked row by row: one row offering nothing refuses the whole activity
    first, second = basic_options(api, op)[:2]
    body = {**activity_body(clock, [first["levelYearId"]], name="Rows"), "options": [
        {"levelYearId": first["levelYearId"], "activityDiscount": 80, "presentationMonth": 0},
        {"levelYearId": second["levelYearId"], "activityDiscount": 100, "presentationMonth": 0}]}
    reply = api.call("POST", f"{A}/insertActivity", token=op, json=body)
    assert reply.status == 422 and "options" in reply.body["errors"], reply.body
    for bad in ({"activityDiscount": 0}, {"activityDiscount": 101}, {"presentationMonth": -1},
                {"activityDiscount": "x"}):
        body["options"][1] = {"levelYearId": second["levelYearId"], "activityDiscount": 80, **bad}
        assert api.call("POST", f"{A}/insertActivity", token=op, json=body).status == 422
    assert ok(api.call("POST", f"{A}/selectPackageActivity", token=op, json={"name": "Rows"}))["totalCount"] == 0
    for path in (SERVICE_DETAIL, SMS_DETAIL):
        for value in (0, -1, 2**40, "x", "1 OR 1=1"):
            assert api.call("GET", path, token=op, query={"packageId": value}).status == 422
