"""Catalogue names per language in one shape (catalogue_texts, issue 18), on SQLite and PostgreSQL
with the demo data: a customer sees the service level in their language wherever one is shown (the
device list, its detail, the device-list export, the auto-renew agreement, recharge cards, the
activities' option list), the platform's default where their language has no text, with one name
query per page; an activity's or SMS/voice package's texts go with it when it is deleted."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from openpyxl import load_workbook
from sqlalchemy import delete, event, select

from adapters.persistence.models import (
    ActivityRow,
    AutoRenewAgreementRow,
    CatalogueTextRow,
    DeviceRow,
    LevelYearOptionRow,
    ServiceLevelRow,
)
from entrypoints.api.framework import page_of
from entrypoints.api.vouchers import schemas as vs
from tests.integration.test_promotions_api import SMS, A, activity_body, basic_options, sms_body
from tests.integration.test_recharge_api import COLD_ROOM_A, COLD_ROOM_B, device, ok
from tests.integration.test_vouchers_api import K, issue_cards, redeem

pytestmark = pytest.mark.usefixtures("recharge_demo")

SCREENS = ("list", "other", "detail", "drawer", "agreement")
NAMES = {"ru-RU": "Базовый", "de-DE": "Basis", "en-US": "Basic"}  # demo_seed.LEVEL_TEXTS["basic"]


def basic_level(container) -> ServiceLevelRow:
    with container.session_factory()() as session:
        key = session.scalars(select(CatalogueTextRow.owner_key).where(
            CatalogueTextRow.owner_kind == "level", CatalogueTextRow.language == "en-US",
            CatalogueTextRow.name == "Basic")).first()
        return session.get(ServiceLevelRow, int(key))


def on_basic(container, clock, *guids: str) -> ServiceLevelRow:
    """The devices on the basic level, the first with an active auto-renew agreement."""
    level = basic_level(container)
    with container.session_factory()() as session:
        option = session.scalars(select(LevelYearOptionRow).where(LevelYearOptionRow.level_id == level.id)).first()
        for i, guid in enumerate(guids):
            row = session.scalars(select(DeviceRow).where(DeviceRow.guid == guid)).one()
            row.level_id = level.id
            if i == 0:
                session.add(AutoRenewAgreementRow(device_id=row.id, level_id=level.id, level_year_id=option.id,
                                                  pay_type=1, total_fee_cents=option.service_fee_cents, status=1,
                                                  next_execution_at=clock.now() + timedelta(days=30),
                                                  created_at=clock.now()))
        session.commit()
    return level


def without_text(container, level_id: int, language: str) -> None:
    with container.session_factory()() as session:
        session.execute(delete(CatalogueTextRow).where(CatalogueTextRow.owner_kind == "level",
                                                       CatalogueTextRow.owner_key == str(level_id),
                                                       CatalogueTextRow.language == language))
        session.commit()


def seen(api, container, language: str) -> dict[str, object]:
    """The basic level's name on each of alice's screens that show it, in `language`."""
    alice, headers = api.token("alice"), {"Accept-Language": language}
    room = device(container, COLD_ROOM_A).id
    listed = ok(api.call("POST", "/device/Device/page", token=alice, json={"pageSize": 100}, headers=headers))
    by_id = {d["deviceId"]: d["levelName"] for d in listed["data"]}
    detail = ok(api.call("GET", "/device/Device/get", token=alice, query={"deviceId": room}, headers=headers))
    drawer = ok(api.call("GET", "/payment/PayServicePackages/selectDeviceDepositInfo", token=alice,
                         query={"deviceId": room}, headers=headers))
    agreement = ok(api.call("GET", "/payment/PayOrder/selectCurrentService", token=alice,
                            query={"deviceId": room}, headers=headers))
    return {"list": by_id[room], "other": by_id[device(container, COLD_ROOM_B).id], "detail": detail["levelName"],
            "drawer": drawer["levelName"], "agreement": agreement["levelName"]}


def test_a_customer_sees_the_level_in_their_language_else_the_default(api, container, clock):
    level = on_basic(container, clock, COLD_ROOM_A, COLD_ROOM_B)
    for language in ("ru-RU", "de-DE"):
        assert seen(api, container, language) == dict.fromkeys(SCREENS, NAMES[language]), language
    without_text(container, level.id, "ru-RU")
    assert set(seen(api, container, "ru-RU").values()) == {level.level_name}  # the row's own: the default's
    assert set(seen(api, container, "de-DE").values()) == {"Basis"}


def test_the_device_list_names_its_levels_in_one_query_per_page(api, container, clock):
    on_basic(container, clock, COLD_ROOM_A, COLD_ROOM_B)
    statements: list[str] = []

    def count(conn, cursor, statement, *args):
        if "catalogue_texts" in statement:
            statements.append(statement)

    engine = container.engine()
    event.listen(engine, "before_cursor_execute", count)
    try:
        listed = ok(api.call("POST", "/device/Device/page", token=api.token("alice"), json={"pageSize": 100},
                             headers={"Accept-Language": "ru-RU"}))
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert sum(d["levelName"] == "Базовый" for d in listed["data"]) >= 2
    assert len(statements) == 1


def test_the_device_list_export_names_the_level_in_the_exporter_s_language(api, container, clock):
    on_basic(container, clock, COLD_ROOM_A)
    alice = api.token("alice")
    export = ok(api.call("POST", "/device/DeviceDataExport/createDeviceList", token=alice,
                         json={"deviceGuid": COLD_ROOM_A}, headers={"Accept-Language": "de-DE"}))
    download = api.client.get("/api/device/DeviceDataExport/download", query_string={"id": export["id"]},
                              headers={"Authorization": f"Bearer {alice}"})
    header, *rows = load_workbook(io.BytesIO(download.data)).worksheets[0].iter_rows(values_only=True)
    assert [r[header.index("Servicestufe")] for r in rows] == ["Basis"]


def test_recharge_cards_name_their_level_in_the_reader_s_language(api, container, clock):
    batch = issue_cards(api, clock, container)
    ru = {"Accept-Language": "ru-RU"}
    batches = ok(api.call("POST", f"{K}/selectCardSecretList", token=api.token("operator"), json={}, headers=ru))
    assert {b["levelName"] for b in batches["data"] if b["id"] == batch["id"]} == {"Базовый"}
    cards = ok(api.call("POST", f"{K}/selectCardList", token=api.token("operator"), json={"batchId": batch["id"]},
                        headers={"Accept-Language": "de-DE"}), page_of(vs.CardSchema))["data"]
    assert {c["levelName"] for c in cards} == {"Basis"}
    api.language = "ru-RU"
    done = ok(redeem(api, container, batch["cards"][0]), vs.RedeemedSchema)
    assert done["levelName"] == "Базовый"
    mine = ok(api.call("POST", f"{K}/selectMyCards", token=api.token("alice"), json={}))["data"]
    assert [c["levelName"] for c in mine] == ["Базовый"]


def test_the_activities_option_list_names_levels_in_the_operator_s_language(api):
    op = api.token("operator")
    rows = ok(api.call("GET", f"{A}/selectServicePackageActivity", token=op, headers={"Accept-Language": "de-DE"}))
    assert "Basis" in {r["levelName"] for r in rows} and "Basic" not in {r["levelName"] for r in rows}


def texts(container, kind: str, key: int) -> dict[str, str]:
    with container.session_factory()() as session:
        return dict(session.execute(select(CatalogueTextRow.language, CatalogueTextRow.name).where(
            CatalogueTextRow.owner_kind == kind, CatalogueTextRow.owner_key == str(key))).all())  # type: ignore[arg-type]


def test_an_activity_s_names_are_catalogue_texts_and_go_with_it(api, clock, container):
    op = api.token("operator")
    first = basic_options(api, op)[0]
    created = ok(api.call("POST", f"{A}/insertActivity", token=op, json=activity_body(clock, [first["levelYearId"]])))
    other = ok(api.call("POST", f"{A}/insertActivity", token=op,
                        json=activity_body(clock, [first["levelYearId"]], days=(20, 30))))
    assert texts(container, "activity", created["id"]) == {"en-US": "Spring sale", "ru-RU": "Весенняя распродажа"}
    ok(api.call("PUT", f"{A}/update", token=op, json={
        **activity_body(clock, [first["levelYearId"]]), "id": created["id"], "names": {"de-DE": "Frühling"}}))
    assert texts(container, "activity", created["id"]) == {"de-DE": "Frühling"}
    ok(api.call("DELETE", f"{A}/delete", token=op, query={"id": created["id"]}))
    assert texts(container, "activity", created["id"]) == {}
    assert texts(container, "activity", other["id"]) != {}  # another's stay


def test_an_sms_package_s_names_are_catalogue_texts_and_go_with_it(api, container):
    op = api.token("operator")
    created = ok(api.call("POST", f"{SMS}/insert", token=op, json={**sms_body(countryCode="44"),
                                                                  "names": {"ru-RU": "Дешёвые SMS"}}))
    assert texts(container, "sms", created["packageId"]) == {"ru-RU": "Дешёвые SMS"}
    ok(api.call("DELETE", f"{SMS}/delete", token=op, query={"packageId": created["packageId"]}))
    assert texts(container, "sms", created["packageId"]) == {}



def test_coupon_and_card_batches_name_their_activity_in_the_reader_s_language(api, container, clock):
    with container.session_factory()() as session:  # the demo's activity, named per language (demo_seed)
        activity = session.scalars(select(ActivityRow).where(ActivityRow.name == "双11促销")).one().id
    op = api.token("operator")
    ok(api.call("POST", "/payment/activity/PayCoupon/createCoupon", token=op, json={
        "prefix": "CP", "count": 1, "couponType": 1, "amount": 500, "startTime": clock.now().isoformat(),
        "endTime": (clock.now() + timedelta(days=30)).isoformat(), "remark": "spring", "activityId": activity}))
    issue_cards(api, clock, container, activityId=activity)

    def names(path: str, language: str) -> set[str]:
        rows = ok(api.call("POST", path, token=op, json={}, headers={"Accept-Language": language}))["data"]
        return {b["activityName"] for b in rows}

    for path in ("/payment/activity/PayCoupon/selectCouponList", f"{K}/selectCardSecretList"):
        assert names(path, "ru-RU") == {"Распродажа 11.11"}
        assert names(path, "de-DE") == {"Singles-Day-Aktion"}


def test_the_voucher_back_office_names_levels_and_activities_in_the_operator_s_language(api, container, clock):
    with container.session_factory()() as session:
        activity = session.scalars(select(ActivityRow).where(ActivityRow.name == "双11促销")).one().id
    op, ru = api.token("operator"), {"Accept-Language": "ru-RU"}
    references = ok(api.call("GET", "/payment/activity/PayCoupon/selectReferences", token=op, headers=ru))
    assert "Базовый" in {r["name"] for r in references["levels"]}
    assert "Распродажа 11.11" in {r["name"] for r in references["activities"]}
    level = basic_level(container).id  # what a create and an update answer
    made = ok(api.call("POST", f"{K}/createCardSecret", token=op, headers=ru, json={
        "prefix": "RC", "count": 1, "levelId": level, "timeLength": 6, "startTime": clock.now().isoformat(),
        "endTime": (clock.now() + timedelta(days=30)).isoformat(), "activityId": activity}))
    assert (made["levelName"], made["activityName"]) == ("Базовый", "Распродажа 11.11")
    changed = ok(api.call("PUT", f"{K}/updateCardSecret", token=op, headers=ru, json={"id": made["id"], "status": 0}))
    assert (changed["levelName"], changed["activityName"]) == ("Базовый", "Распродажа 11.11")
    coupons = ok(api.call("POST", "/payment/activity/PayCoupon/createCoupon", token=op, headers=ru, json={
        "prefix": "CP", "count": 1, "couponType": 1, "amount": 500, "startTime": clock.now().isoformat(),
        "endTime": (clock.now() + timedelta(days=30)).isoformat(), "remark": "spring", "activityId": activity}))
    assert coupons["activityName"] == "Распродажа 11.11"
    deposits = ok(api.call("POST", "/payment/activity/PayActivityDeposit/selectDepositList", token=op, json={},
                           headers={"Accept-Language": "de-DE"}))["data"]
    assert "Singles-Day-Aktion" in {d["name"] for d in deposits}
