"""The operator's order back office (issue 19, /operation/recharge) through the API, every payment
going to the local sandbox over HTTP (SQLite and PostgreSQL; Stripe on the international console):

- an operator lists, filters, sorts and exports every account's orders and reads one whole;
- customers, a sharee and a back-office account without the page get 403 on every call, hostile
  filters a 422 that changes nothing;
- manual handling settles an order paid at its provider whose notification never came, once, on
  the provider's answer only, and records who and why.
"""

from __future__ import annotations

from datetime import datetime
from io import BytesIO

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from sqlalchemy import select

from adapters.persistence.models import OperationChangeRow, OperationLogRow, OrderEventRow
from core.devices.model import add_months
from core.ordering import back_office
from entrypoints.api.framework import page_of
from entrypoints.api.orders import schemas as os
from tests.integration.test_recharge_api import ACME_ROOM, COLD_ROOM_A, COLD_ROOM_B, device, ok, refused
from tests.integration.test_unpaid_orders import CARD, order_for, press, status

P = "/payment/PayOrder"
REASON = "WeChat shows it paid at 10:02; the notification never arrived (ticket 4711)"


def desk(console, user: str = "operator", **query) -> dict:
    reply = console.api.call("POST", f"{P}/selectOrderList", token=console.api.token(user), json=query)
    return ok(reply, page_of(os.DeskOrderSchema))


def dossier(console, order_id: int, user: str = "operator") -> dict:
    reply = console.api.call("GET", f"{P}/selectBackOrderDetail", token=console.api.token(user),
                             query={"orderId": order_id})
    return ok(reply, os.OrderDossierSchema)


def handle(console, order_id: int, reason: str = REASON, user: str = "operator", language: str = "en-US"):
    return console.api.call("POST", f"{P}/handlingOrder", token=console.api.token(user),
                            json={"orderId": order_id, "reason": reason}, headers={"Accept-Language": language})


def events(console, order_id: int) -> list[tuple[str, int, int | None, str | None]]:
    with console.container.session_factory()() as session:
        rows = session.scalars(select(OrderEventRow).where(OrderEventRow.order_id == order_id)
                               .order_by(OrderEventRow.id))
        return [(r.kind, r.status, r.actor_account_id, r.reason) for r in rows]


# --- list, detail, export ---------------------------------------------------------------------------------------


def test_the_operator_sees_every_account_s_orders_and_narrows_them(payments):
    alice_a = order_for(payments)
    alice_b = order_for(payments, guid=COLD_ROOM_B, year=1)
    acme = order_for(payments, guid=ACME_ROOM, user="acme")
    press(alice_b["payQrCode"])  # paid and notified

    every = desk(payments)
    assert {o["orderCode"] for o in every["data"]} == {alice_a["orderCode"], alice_b["orderCode"], acme["orderCode"]}
    assert every["totalCount"] == 3 and {o["payer"]["userName"] for o in every["data"]} == {"alice", "acme"}
    assert [o["orderCode"] for o in desk(payments, account="ACM")["data"]] == [acme["orderCode"]]
    assert [o["orderCode"] for o in desk(payments, device=COLD_ROOM_B.lower())["data"]] == [alice_b["orderCode"]]
    assert [o["orderCode"] for o in desk(payments, orderCode=acme["orderCode"][-8:])["data"]] == [acme["orderCode"]]
    paid = desk(payments, payStatus=2)["data"]
    assert [(o["orderCode"], o["handleable"], o["refundable"]) for o in paid] == [(alice_b["orderCode"], False, True)]
    assert desk(payments, payType=2)["totalCount"] == 0 and desk(payments, invoiceStatus=1)["totalCount"] == 0
    now = payments.clock.now()
    assert desk(payments, paidFrom=(now.replace(year=now.year - 1)).isoformat())["totalCount"] == 1
    assert desk(payments, createdUntil=now.replace(year=now.year - 1).isoformat())["totalCount"] == 0
    by_fee = desk(payments, sortField="orderFee", sortOrder="asc")["data"]
    assert [o["orderFee"] for o in by_fee] == sorted(o["orderFee"] for o in by_fee)
    assert desk(payments, pageSize=2, start=2)["data"][0]["orderCode"] == desk(payments)["data"][2]["orderCode"]


def test_the_detail_shows_what_was_bought_the_service_before_and_after_and_what_the_provider_said(payments):
    before = device(payments.container, COLD_ROOM_A).service_expires_at
    placed = order_for(payments)
    press(placed["payQrCode"])
    detail = dossier(payments, placed["orderId"])
    assert (detail["payStatus"], detail["payer"]["userName"]) == (2, "alice")
    assert detail["paymentReference"].startswith("wx") and detail["settlementReference"]
    [line] = detail["lines"]
    assert line["guid"] == COLD_ROOM_A and line["levelName"] and line["beforeLevelName"] == line["levelName"]
    after = device(payments.container, COLD_ROOM_A).service_expires_at
    assert after == add_months(before, placed["months"])
    assert datetime.fromisoformat(line["beforeExpireTime"]) == before.replace(microsecond=0)
    assert datetime.fromisoformat(line["afterExpireTime"]) == after.replace(microsecond=0)
    assert [(n["provider"], n["verdict"]) for n in detail["notifications"]] == [("wechat", "settled")]
    assert placed["orderCode"] in detail["notifications"][0]["body"]
    assert [(h["kind"], h["payStatus"], h["userName"]) for h in detail["history"]] == [("pay", 2, None)]


def test_the_export_holds_the_filtered_list_in_the_operator_s_language(payments):
    alice = order_for(payments)
    order_for(payments, guid=ACME_ROOM, user="acme")
    api = payments.api
    reply = api.client.post("/api/payment/PayOrder/exportOrder", json={"account": "alice"},
                            headers={"Authorization": f"Bearer {api.token('operator')}", "Accept-Language": "ru-RU"})
    assert reply.status_code == 200 and reply.mimetype.endswith("spreadsheetml.sheet")
    rows = list(load_workbook(BytesIO(reply.data), read_only=True).active.iter_rows(values_only=True))
    assert rows[0][0] == "Номер заказа" and len(rows) == 2
    assert (rows[1][0], rows[1][1], rows[1][7]) == (alice["orderCode"], "alice", "Не оплачен")


def test_the_export_reads_the_whole_list_a_batch_at_a_time(payments, monkeypatch):
    monkeypatch.setattr(back_office, "EXPORT_BATCH", 2)  # six orders: three batches, none lost or repeated
    codes = {order_for(payments, guid=guid, user=user, pay_type=pay_type)["orderCode"]
             for guid, user in ((COLD_ROOM_A, "alice"), (COLD_ROOM_B, "alice"), (ACME_ROOM, "acme"))
             for pay_type in (1, 2)}  # the second order of a device supersedes (closes) the first: kept all the same
    api = payments.api
    reply = api.client.post("/api/payment/PayOrder/exportOrder", json={},
                            headers={"Authorization": f"Bearer {api.token('operator')}"})
    rows = list(load_workbook(BytesIO(reply.data), read_only=True).active.iter_rows(values_only=True))[1:]
    assert sorted(row[0] for row in rows) == sorted(codes) and len(codes) == 6


# --- who may ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("user", ["alice", "acme", "bob", "calibadmin"])
def test_nobody_but_the_back_office_reaches_any_call(payments, user):
    placed = order_for(payments)
    press(placed["payQrCode"], "pay-silently")
    token, api = payments.api.token(user), payments.api
    for method, path, kwargs in (("POST", "selectOrderList", {"json": {}}), ("POST", "exportOrder", {"json": {}}),
                                 ("GET", "selectBackOrderDetail", {"query": {"orderId": placed["orderId"]}}),
                                 ("POST", "handlingOrder", {"json": {"orderId": placed["orderId"], "reason": "x"}})):
        assert api.call(method, f"{P}/{path}", token=token, **kwargs).status == 403, (user, path)
    assert status(payments, placed) == 1 and events(payments, placed["orderId"]) == []


@pytest.mark.parametrize("query", [
    {"payStatus": 9}, {"payType": 3}, {"invoiceStatus": 2}, {"orderCode": "1' OR '1'='1"}, {"orderCode": "1" * 21},
    {"account": "a" * 201}, {"device": "\x00"}, {"sortField": "password"}, {"pageSize": 10_000},
    {"createdFrom": "2026-05-01T00:00:00Z", "createdUntil": "2026-04-01T00:00:00Z"}, {"paidFrom": "yesterday"},
    {"unknown": 1},
])
def test_hostile_filters_are_refused(payments, query):
    assert payments.api.call("POST", f"{P}/selectOrderList", token=payments.api.token("operator"),
                             json=query).status == 422


def test_an_unknown_order_is_404_and_a_hostile_handling_changes_nothing(payments):
    placed = order_for(payments)
    press(placed["payQrCode"], "pay-silently")
    api, token = payments.api, payments.api.token("operator")
    refused(api.call("GET", f"{P}/selectBackOrderDetail", token=token, query={"orderId": 999_999}), 404, 404)
    refused(handle(payments, 999_999), 404, 404)
    for reason in ("", "   ", "x" * 201, "a\x00b"):
        assert handle(payments, placed["orderId"], reason).status == 422, reason
    assert status(payments, placed) == 1 and events(payments, placed["orderId"]) == []


# --- manual handling ---------------------------------------------------------------------------------------------


def _settled_once(console, placed: dict, guid: str) -> None:
    before = device(console.container, guid).service_expires_at
    # paid at the provider; its notification is lost
    press(placed.get("payQrCode") or placed["approveUrl"], "pay-silently")
    assert status(console, placed) == 1
    handled = ok(handle(console, placed["orderId"]), os.DeskOrderSchema)
    assert (handled["payStatus"], handled["handleable"]) == (2, False)
    expected = add_months(before, placed["months"])
    assert device(console.container, guid).service_expires_at == expected
    operator = dossier(console, placed["orderId"])
    assert [(h["kind"], h["userName"], h["reason"]) for h in operator["history"]] == [
        ("pay", None, None), ("manualHandling", "operator", REASON)]
    assert operator["history"][1]["detail"]["paid"] is True
    # a second handling, the reconciliation job and a late notification pay nothing more
    refused(handle(console, placed["orderId"]), 409, 1114)
    console.clock.advance(minutes=5)
    assert console.container.reconcile_payments()().settled == 0
    assert device(console.container, guid).service_expires_at == expected
    with console.container.session_factory()() as session:
        logged = session.scalars(select(OperationLogRow.action).join(
            OperationChangeRow, OperationChangeRow.operation_id == OperationLogRow.id)
            .where(OperationChangeRow.object_type == "orderEvent")).all()
    assert logged and all("handlingOrder" in action for action in logged)


def test_an_order_paid_at_wechat_without_notification_is_settled_once_by_manual_handling(payments):
    _settled_once(payments, order_for(payments), COLD_ROOM_A)


def test_an_order_paid_at_stripe_without_notification_is_settled_once_by_manual_handling(international_payments):
    console = international_payments
    _settled_once(console, order_for(console, pay_type=CARD), COLD_ROOM_A)


@pytest.mark.parametrize("language,said", [("en-US", "is not paid"), ("ru-RU", "не оплачен")])
def test_an_order_the_provider_says_is_unpaid_is_refused_and_left_as_it_was(payments, language, said):
    before = device(payments.container, COLD_ROOM_A).service_expires_at
    placed = order_for(payments)
    reply = handle(payments, placed["orderId"], language=language)
    refused(reply, 409, 1131)
    assert placed["orderCode"] in reply.body["msg"] and said in reply.body["msg"]
    assert reply.body["data"]["providerAnswer"]["paid"] is False
    assert status(payments, placed) == 1 and events(payments, placed["orderId"]) == []
    assert device(payments.container, COLD_ROOM_A).service_expires_at == before


def test_an_order_paid_with_its_notification_cannot_be_handled(payments):
    placed = order_for(payments)
    press(placed["payQrCode"])
    refused(handle(payments, placed["orderId"]), 409, 1114)
    assert [kind for kind, *_ in events(payments, placed["orderId"])] == ["pay"]


def test_an_order_the_stripe_provider_says_is_unpaid_is_refused(international_payments):
    console = international_payments
    placed = order_for(console, pay_type=CARD)
    refused(handle(console, placed["orderId"]), 409, 1131)
    assert status(console, placed) == 1
