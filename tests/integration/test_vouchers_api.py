"""Coupons and prepaid recharge cards (issue 18) through the API, on SQLite and PostgreSQL: an
operator issues batches; a coupon is priced, reserved by the unpaid order that carries it, spent
once when the order is paid and released when it closes unpaid; a card is redeemed once for a
device of a matching type, and five wrong secrets lock its number for 15 minutes (by the injected
clock); races are decided by the database (two threads, PostgreSQL); hostile input changes nothing."""

from __future__ import annotations

import threading
from datetime import timedelta
from io import BytesIO

import pytest
from openpyxl import load_workbook
from sqlalchemy import delete, func, select

from adapters.persistence.models import CouponBatchRow, CouponRow, OrderRow, PackageDeviceTypeRow, RechargeCardRow
from adapters.persistence.ordering import SqlAlchemyOrderRepository
from adapters.persistence.vouchers import SqlAlchemyVoucherRepository
from core.devices.model import add_months
from core.ordering.commands import CreateServiceOrder
from core.shared.edition import PayType
from core.vouchers import errors as ve
from core.vouchers.model import ALPHABET, CODE_LENGTH
from entrypoints.api.framework import page_of
from entrypoints.api.payment import schemas as ps
from entrypoints.api.vouchers import schemas as s
from tests.integration.test_recharge_api import (
    COLD_ROOM_A,
    COLD_ROOM_B,
    DOCK,
    device,
    levels,
    ok,
    options,
    pay,
    refused,
    service_order,
)

pytestmark = pytest.mark.usefixtures("recharge_demo")

C, K = "/payment/activity/PayCoupon", "/payment/activity/PayCardSecret"
BASIC = "Basic"  # the demo level as an en-US reader sees it (the catalogue names it per language)


def _when(clock, days: int) -> str:
    return (clock.now() + timedelta(days=days)).isoformat()


def issue_coupons(api, clock, *, count=3, kind=1, amount=500, prefix="CP", start=-1, end=30, user="operator"):
    return api.call("POST", f"{C}/createCoupon", token=api.token(user), json={
        "prefix": prefix, "count": count, "couponType": kind, "amount": amount, "startTime": _when(clock, start),
        "endTime": _when(clock, end), "remark": "spring campaign"})


def codes(api, batch_id: int, **query) -> list[dict]:
    reply = api.call("POST", f"{C}/selectCouponCodeList", token=api.token("operator"),
                     json={"batchId": batch_id, "pageSize": 100, **query})
    return ok(reply, page_of(s.CouponSchema))["data"]


def a_coupon(api, clock, **kwargs) -> tuple[int, str]:
    batch = ok(issue_coupons(api, clock, **kwargs), s.CouponBatchSchema)
    return batch["id"], codes(api, batch["id"])[0]["couponCode"]


def basic_order(api, container, guid=COLD_ROOM_A, user="alice", **extra):
    token = api.token(user)
    room = device(container, guid)
    level = levels(api, token, room.id)[BASIC]
    option = options(api, token, room.id, level)[0]
    return room, option, service_order(api, token, [room.id], level, option, **extra)


def check(api, code, total, user="alice"):
    return api.call("POST", f"{C}/checkCoupon", token=api.token(user), json={"couponCode": code, "totalFee": total})


def state_of(container, code: str) -> tuple[int, int | None]:
    with container.session_factory()() as session:
        row = session.scalars(select(CouponRow).where(CouponRow.code == code)).one()
        return row.state, row.order_id


# --- coupons ---------------------------------------------------------------------------------------


def test_codes_are_random_readable_and_one_per_order(api, clock, container):
    batch = ok(issue_coupons(api, clock, count=50), s.CouponBatchSchema)
    assert (batch["count"], batch["unusedCount"], batch["currency"]) == (50, 50, "CNY")
    found = [c["couponCode"] for c in codes(api, batch["id"])]
    assert len(set(found)) == 50
    for code in found:
        assert code.startswith("CP") and len(code) == 2 + CODE_LENGTH and set(code[2:]) <= set(ALPHABET)


def test_a_coupon_is_priced_reserved_by_the_order_and_spent_once_when_paid(api, clock, container):
    _, code = a_coupon(api, clock, amount=500)
    room, option, _ = basic_order(api, container)  # the quote without a coupon (an order placed, then superseded)
    total = option["price"]
    quote = ok(check(api, f" {code.lower()} ", total), s.CouponQuoteSchema)
    assert (quote["couponFee"], quote["payFee"]) == (500, total - 500)

    _, _, reply = basic_order(api, container, couponCode=code, couponFee=500)
    placed = ok(reply, ps.OrderPlacedSchema)
    assert placed["totalFee"] == total - 500  # what is charged is what was shown
    assert state_of(container, code) == (2, placed["orderId"])
    # another customer cannot take it while the order is unpaid
    refused(check(api, code, total, user="acme"), 409, ve.CouponReserved.code)

    before = device(container, COLD_ROOM_A).service_expires_at
    ok(pay(api, placed))
    assert state_of(container, code) == (3, placed["orderId"])
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(
        before, option["timeLength"] + option["presentationMonth"])
    orders = ok(api.call("POST", "/payment/PayOrder/selectMyOrderList", token=api.token("alice"), json={}),
                page_of(ps.MyOrderSchema))["data"]
    assert (orders[0]["couponCode"], orders[0]["couponFee"], orders[0]["orderFee"]) == (code, 500, total - 500)
    # used: refused everywhere now
    refused(check(api, code, total), 409, ve.CouponUsed.code)
    _, _, again = basic_order(api, container, guid=COLD_ROOM_B, couponCode=code, couponFee=500)
    refused(again, 409, ve.CouponUsed.code)
    mine = ok(api.call("POST", f"{C}/selectMyCoupons", token=api.token("alice"), json={}),
              page_of(s.CouponSchema))["data"]
    assert [(c["couponCode"], c["useStatus"], c["orderCode"]) for c in mine] == [(code, 3, placed["orderCode"])]


def test_a_coupon_is_released_when_its_order_is_cancelled_and_moves_with_a_new_order_in_the_drawer(
        api, clock, container):
    _, code = a_coupon(api, clock, amount=300)
    first = ok(basic_order(api, container, couponCode=code, couponFee=300)[2])
    # the drawer asks again (another change): the coupon moves to the newer order
    second = ok(basic_order(api, container, couponCode=code, couponFee=300)[2])
    assert state_of(container, code) == (2, second["orderId"])
    with container.session_factory()() as session:
        assert session.get(OrderRow, first["orderId"]).status == 4
    ok(api.call("POST", "/payment/PayOrder/cancelOrder", token=api.token("alice"),
                json={"orderId": second["orderId"]}))
    assert state_of(container, code) == (1, None)
    ok(check(api, code, 10_000, user="acme"))


def test_an_expired_unpaid_order_releases_its_coupon(api, clock, container):
    _, code = a_coupon(api, clock, amount=300)
    ok(basic_order(api, container, couponCode=code, couponFee=300)[2])
    clock.advance(hours=3)
    assert container.reconcile_payments()().closed == 1
    assert state_of(container, code) == (1, None)


def test_what_a_coupon_cannot_do(api, clock, container):
    _, code = a_coupon(api, clock, amount=500)
    room, option, _ = basic_order(api, container)
    total = option["price"]
    # the client's figure is checked; nothing is reserved when refused
    refused(basic_order(api, container, couponCode=code, couponFee=499)[2], 409, 1101)
    assert state_of(container, code) == (1, None)
    refused(check(api, "CPNOSUCHCODE000", total), 409, ve.CouponNotFound.code)
    # worth the whole order or more: refused, never a price of zero or below
    _, big = a_coupon(api, clock, amount=total)
    refused(check(api, big, total), 409, ve.CouponTooLarge.code)
    refused(basic_order(api, container, couponCode=big, couponFee=total)[2], 409, ve.CouponTooLarge.code)
    # not yet valid, expired, disabled
    _, later = a_coupon(api, clock, start=2, end=5)
    refused(check(api, later, total), 409, ve.CouponNotValid.code)
    batch_id, off = a_coupon(api, clock)
    ok(api.call("PUT", f"{C}/updateCoupon", token=api.token("operator"), json={"id": batch_id, "status": 0}))
    refused(check(api, off, total), 409, ve.CouponNotValid.code)
    clock.advance(days=31)
    refused(check(api, code, total), 409, ve.CouponNotValid.code)


def test_a_percentage_coupon_rounds_in_the_payers_favour(api, clock, container):
    _, code = a_coupon(api, clock, kind=2, amount=15)
    quote = ok(check(api, code, 9_900))
    assert (quote["couponFee"], quote["payFee"]) == (1_500, 8_400)  # 84.15 yuan is charged as 84


def test_operator_calls_are_for_operators_only(api, clock, container):
    batch_id, _ = a_coupon(api, clock)
    for user in ("alice", "acme"):
        token = api.token(user)
        refused(issue_coupons(api, clock, user=user), 403, 403)
        for path, body in ((f"{C}/selectCouponList", {}), (f"{C}/selectCouponCodeList", {"batchId": batch_id}),
                           (f"{C}/exportCoupon", {"id": batch_id}), (f"{K}/selectCardSecretList", {})):
            assert api.call("POST", path, token=token, json=body).status == 403
        assert api.call("PUT", f"{C}/updateCoupon", token=token, json={"id": batch_id, "status": 0}).status == 403
    refused(api.call("POST", f"{C}/selectCouponCodeList", token=api.token("operator"), json={"batchId": 99999}),
            404, 404)


@pytest.mark.parametrize("change", [
    {"remark": "bad \ud800 surrogate"}, {"remark": ""}, {"remark": "x" * 201}, {"count": 10_001}, {"count": 0},
    {"amount": 10**13}, {"couponType": 2, "amount": 100}, {"prefix": "ABC"}, {"prefix": "a!"}, {"amount": 150},
    {"activityId": 2**40}, {"startTime": "not a date"},
])
def test_hostile_batches_are_refused_and_change_nothing(api, clock, container, change):
    body = {"prefix": "CP", "count": 3, "couponType": 1, "amount": 500, "startTime": _when(clock, 0),
            "endTime": _when(clock, 3), "remark": "ok", **change}
    reply = api.call("POST", f"{C}/createCoupon", token=api.token("operator"), json=body)
    assert reply.status in (400, 409, 422), reply.body
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(CouponBatchRow)) == 0


def test_the_export_lists_each_code_with_its_state_as_text(api, clock, container):
    batch_id, code = a_coupon(api, clock, prefix="")
    response = api.client.post(f"/api{C}/exportCoupon", json={"id": batch_id},
                               headers={"Authorization": f"Bearer {api.token('operator')}"})
    assert response.status_code == 200
    sheet = load_workbook(BytesIO(response.data)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 4 and len(rows[0]) == 6  # headers in the operator's language, then each code
    assert code in [r[0] for r in rows[1:]]


def _race(container, monkeypatch, attempts) -> list[object]:
    """Runs the attempts at once, each in its thread (the caller's barrier holds them before their writes)."""
    results: list[object] = [None] * len(attempts)

    def run(i):
        try:
            results[i] = attempts[i]()
        except Exception as error:  # noqa: BLE001 - the loser's refusal is the result
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(attempts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_two_orders_racing_for_one_coupon_one_wins(api, clock, container, monkeypatch):
    if container.engine().dialect.name != "postgresql":
        pytest.skip("row locks decide the race on PostgreSQL; SQLite serializes every write")
    _, code = a_coupon(api, clock, amount=300)
    token = api.token("alice")
    rooms = [device(container, g) for g in (COLD_ROOM_A, COLD_ROOM_B)]
    level = levels(api, token, rooms[0].id)[BASIC]
    option = options(api, token, rooms[0].id, level)[0]
    barrier = threading.Barrier(2, timeout=20)
    real = SqlAlchemyVoucherRepository.reserve

    def reserve(self, *args):
        barrier.wait()  # both orders have read the coupon unused and stored their order
        return real(self, *args)

    monkeypatch.setattr(SqlAlchemyVoucherRepository, "reserve", reserve)
    account = rooms[0].owner_account_id

    def order(room):
        return lambda: container.place_service_order()(CreateServiceOrder(
            account, (room.id,), level["levelId"], option["id"], level["packageId"], PayType.WECHAT,
            option["serviceFee"], option["price"], coupon_code=code, coupon_fee_cents=300))

    results = _race(container, monkeypatch, [order(rooms[0]), order(rooms[1])])
    losers = [r for r in results if isinstance(r, Exception)]
    assert len(losers) == 1 and isinstance(losers[0], ve.CouponReserved), results
    winner = next(r for r in results if not isinstance(r, Exception))
    assert state_of(container, code) == (2, winner.order_id)
    with container.session_factory()() as session:  # the loser's order was rolled back with it
        assert session.scalar(select(func.count()).select_from(OrderRow).where(OrderRow.coupon_code == code)) == 1


# --- recharge cards ---------------------------------------------------------------------------------


def issue_cards(api, clock, container, *, count=2, months=6, guid=COLD_ROOM_A, **extra):
    room = device(container, guid)
    level = levels(api, api.token("alice"), room.id)[BASIC]
    reply = api.call("POST", f"{K}/createCardSecret", token=api.token("operator"), json={
        "prefix": "RC", "count": count, "levelId": level["levelId"], "timeLength": months,
        "startTime": _when(clock, -1), "endTime": _when(clock, 30), "remark": "dealer stock", **extra})
    return ok(reply, s.CreatedCardsSchema)


def redeem(api, container, card, secret=None, guid=COLD_ROOM_A, user="alice"):
    return api.call("POST", f"{K}/redeemCard", token=api.token(user), json={
        "deviceId": device(container, guid).id, "cardNumber": card["cardNumber"],
        "secret": card["secret"] if secret is None else secret})


def test_a_card_extends_the_service_as_a_paid_order_would_once(api, clock, container):
    batch = issue_cards(api, clock, container)
    card = batch["cards"][0]
    with container.session_factory()() as session:  # only a digest is kept
        stored = session.scalars(select(RechargeCardRow).where(RechargeCardRow.card_number == card["cardNumber"])).one()
        assert card["secret"] not in stored.secret_digest and len(stored.secret_digest) == 64
    before = device(container, COLD_ROOM_A).service_expires_at
    done = ok(redeem(api, container, card), s.RedeemedSchema)
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(before, 6)
    assert done["timeLength"] == 6
    with container.session_factory()() as session:
        order = session.get(OrderRow, done["orderId"])
        assert (order.pay_type, order.order_fee_cents, order.pay_fee_cents, order.status) == (50, 0, 0, 2)
    refused(redeem(api, container, card), 409, ve.CardUsed.code)
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(before, 6)
    mine = ok(api.call("POST", f"{K}/selectMyCards", token=api.token("alice"), json={}), page_of(s.CardSchema))
    assert [(c["cardNumber"], c["useStatus"]) for c in mine["data"]] == [(card["cardNumber"], 3)]
    listed = ok(api.call("POST", f"{K}/selectCardList", token=api.token("operator"),
                         json={"batchId": batch["id"], "useStatus": 3}), page_of(s.CardSchema))["data"]
    assert [(c["userName"], c["orderCode"]) for c in listed] == [("alice", done["orderCode"])]


def test_five_wrong_secrets_lock_the_number_for_fifteen_minutes(api, clock, container):
    card = issue_cards(api, clock, container)["cards"][0]
    for _ in range(4):
        refused(redeem(api, container, card, secret="WRONGSECRET0000"), 409, ve.CardRefused.code)
    refused(redeem(api, container, card, secret="WRONGSECRET0000"), 409, ve.CardLocked.code)
    refused(redeem(api, container, card), 409, ve.CardLocked.code)  # even the right secret, while locked
    clock.advance(minutes=14)
    refused(redeem(api, container, card), 409, ve.CardLocked.code)
    clock.advance(minutes=1, seconds=1)
    ok(redeem(api, container, card))


def test_a_card_is_for_a_device_of_a_matching_type_that_the_caller_may_recharge(api, clock, container):
    card = issue_cards(api, clock, container)["cards"][0]
    with container.session_factory()() as session:  # the dock's type is sold no package any more
        session.execute(delete(PackageDeviceTypeRow).where(
            PackageDeviceTypeRow.device_type_id == device(container, DOCK).type_id))
        session.commit()
    refused(redeem(api, container, card, guid=DOCK), 409, ve.CardNotForDevice.code)
    assert redeem(api, container, card, user="acme").status == 404  # not acme's device
    ok(redeem(api, container, card))


def test_two_redemptions_of_one_card_one_wins(api, clock, container, monkeypatch):
    if container.engine().dialect.name != "postgresql":
        pytest.skip("row locks decide the race on PostgreSQL; SQLite serializes every write")
    card = issue_cards(api, clock, container)["cards"][0]
    barrier = threading.Barrier(2, timeout=20)
    real = SqlAlchemyOrderRepository.add

    # Both in their transactions, each about to write its order: the card's conditional use decides.
    # (Not later: the revenue rollup's trigger on the order makes the second wait for the first's
    # commit on the same bucket's row, so both could never meet at a barrier past it.)
    def add(self, *args):
        barrier.wait()
        return real(self, *args)

    monkeypatch.setattr(SqlAlchemyOrderRepository, "add", add)
    rooms = [device(container, g) for g in (COLD_ROOM_A, COLD_ROOM_B)]
    before = {r.id: r.service_expires_at for r in rooms}
    account = rooms[0].owner_account_id
    results = _race(container, monkeypatch, [
        (lambda r=r: container.redeem_card()(account, r.id, card["cardNumber"], card["secret"])) for r in rooms])
    losers = [r for r in results if isinstance(r, Exception)]
    assert len(losers) == 1 and isinstance(losers[0], ve.CardUsed), results
    changed = [r.id for r in rooms if device(container, r.guid).service_expires_at != before[r.id]]
    assert len(changed) == 1
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(OrderRow).where(OrderRow.pay_type == 50)) == 1


@pytest.mark.parametrize("change", [
    {"count": 10_001}, {"timeLength": 1201}, {"timeLength": 0}, {"remark": "bad \ud800"}, {"levelId": 2**40},
    {"levelId": 999_999}, {"prefix": "RC1"},
])
def test_hostile_card_batches_are_refused_and_change_nothing(api, clock, container, change):
    room = device(container, COLD_ROOM_A)
    level = levels(api, api.token("alice"), room.id)[BASIC]
    body = {"prefix": "RC", "count": 2, "levelId": level["levelId"], "timeLength": 6, "startTime": _when(clock, 0),
            "endTime": _when(clock, 3), "remark": "", **change}
    reply = api.call("POST", f"{K}/createCardSecret", token=api.token("operator"), json=body)
    assert reply.status in (400, 409, 422), reply.body
    with container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(RechargeCardRow)) == 0


@pytest.mark.parametrize("body", [
    {"cardNumber": "RC\ud800", "secret": "x"}, {"cardNumber": "R" * 41, "secret": "x"},
    {"cardNumber": "", "secret": ""}, {"cardNumber": "RC", "secret": "x", "deviceId": 2**40},
    {"cardNumber": ["RC"], "secret": "x"},
])
def test_hostile_redemptions_are_refused_and_change_nothing(api, clock, container, body):
    card = issue_cards(api, clock, container)["cards"][0]
    reply = api.call("POST", f"{K}/redeemCard", token=api.token("alice"),
                     json={"deviceId": device(container, COLD_ROOM_A).id, **body})
    assert reply.status in (400, 409, 422), reply.body
    assert redeem(api, container, card).status == 200  # the card was not burnt nor its number locked


def test_an_order_paid_after_it_closed_keeps_its_discount_and_spends_its_coupon_if_still_free(api, clock, container):
    _, code = a_coupon(api, clock, amount=300)
    placed = ok(basic_order(api, container, couponCode=code, couponFee=300)[2])
    ok(api.call("POST", "/payment/PayOrder/cancelOrder", token=api.token("alice"), json={"orderId": placed["orderId"]}))
    assert state_of(container, code) == (1, None)
    # the payer's app paid the QR code as it closed: the provider took the discounted price
    outcome = container.settle_order()(placed["orderCode"], placed["totalFee"], "CNY")
    assert outcome.paid and state_of(container, code) == (3, placed["orderId"])


def test_a_closed_order_paid_after_its_coupon_went_to_another_leaves_that_coupon_alone(api, clock, container):
    _, code = a_coupon(api, clock, amount=300)
    placed = ok(basic_order(api, container, couponCode=code, couponFee=300)[2])
    ok(api.call("POST", "/payment/PayOrder/cancelOrder", token=api.token("alice"), json={"orderId": placed["orderId"]}))
    other = ok(basic_order(api, container, guid="CR2B000000001", user="acme", couponCode=code, couponFee=300)[2])
    outcome = container.settle_order()(placed["orderCode"], placed["totalFee"], "CNY")
    assert outcome.paid  # the customer's money is honoured
    assert state_of(container, code) == (2, other["orderId"])  # the coupon stays with acme's order
