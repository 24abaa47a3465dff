"""The ordering repositories (catalogue, orders, device service, agreements, bills) against the
real databases, on the demo data."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import delete, event, select, update
from sqlalchemy.orm import Session

from adapters.persistence import models as m
from core.ordering.bills import Bill, BillMode, InvoiceType
from core.ordering.model import InvoiceStatus, Order, OrderKind, OrderLine, PaymentFailure, PayStatus
from core.pricing.level_change import ChangeKind, LevelChange, ServiceState
from core.pricing.model import AlertKind
from core.pricing.rules import DataPlan
from core.shared.edition import PayType
from core.shared.paging import PageRequest
from entrypoints.demo_seed import ITEMS, LEVEL_TEXT


class Demo:
    """Ids of the demo data."""

    def __init__(self, container) -> None:
        with Session(container.engine()) as s:
            self.accounts = dict(s.execute(select(m.AccountRow.user_name, m.AccountRow.id)).all())
            self.devices = dict(s.execute(select(m.DeviceRow.guid, m.DeviceRow.id)).all())
            self.types = dict(s.execute(select(m.DeviceTypeRow.type_code, m.DeviceTypeRow.id)).all())
            self.levels = dict(s.execute(select(m.ServiceLevelRow.level_name, m.ServiceLevelRow.id)).all())
            self.pro_options = s.scalars(select(m.LevelYearOptionRow.id).where(
                m.LevelYearOptionRow.level_id == self.levels[LEVEL_TEXT["pro"][0]],
                m.LevelYearOptionRow.currency == "CNY").order_by(m.LevelYearOptionRow.sort)).all()
        self.alice, self.bob, self.acme = (self.accounts[n] for n in ("alice", "bob", "acme"))
        self.wifi = self.types[0x8001]


@pytest.fixture
def ids(recharge_demo) -> Demo:
    return Demo(recharge_demo.container)


def add_rows(container, *rows) -> None:
    with Session(container.engine(), expire_on_commit=False) as s:
        s.add_all(rows)
        s.commit()


def new_order(account_id: int, code: str, created_at, device_ids=(), **kw) -> Order:
    lines = tuple(OrderLine(device_id=d, fee_cents=9900, level_id=7, level_year_id=8, months=12, bonus_months=2)
                  for d in device_ids)
    values = {"kind": OrderKind.SERVICE, "pay_type": PayType.WECHAT, "currency": "CNY",
              "order_fee_cents": 9900 * len(lines), "apply_flag": False, "description": "Basic", **kw}
    return Order(id=None, code=code, account_id=account_id, created_at=created_at, lines=lines, **values)


def expiry(uow, device_id: int):
    """The device's service expiry, its row locked as settlement locks it."""
    return uow.device_service.services_for_update([device_id])[device_id].service.expires_at


def stored(container, order: Order) -> Order:
    with container.uow() as uow:
        order = uow.orders.add(order)
        uow.commit()
    return order


# --- catalogue ---------------------------------------------------------------------------------


def test_the_levels_of_a_type_come_in_catalogue_order_with_options_items_and_the_activity_in_force(
        container, clock, ids):
    statements = []

    def count(*_args) -> None:
        statements.append(1)

    engine = container.engine()
    with container.uow() as uow:
        uow.catalogue.items()  # the session is connected: only the call's own queries are counted
        event.listen(engine, "before_cursor_execute", count)
        try:
            levels = uow.catalogue.levels_for_type(ids.wifi, ids.alice, clock.now(), "CNY")
        finally:
            event.remove(engine, "before_cursor_execute", count)
    assert len(statements) <= 4

    free, basic, pro = levels
    assert [level.name for level in levels] == [LEVEL_TEXT[k][0] for k in ("free", "basic", "pro")]
    assert pro.description == LEVEL_TEXT["pro"][2]
    assert [o.months for o in free.options] == [12]
    assert [(o.months, o.discount) for o in basic.options] == [(12, 100), (24, 95), (36, 90)]
    assert [o.months for o in pro.options] == [12, 24, 1200]
    assert [o.recommended for o in pro.options] == [True, False, False]
    assert all(o.level_id == pro.id for o in pro.options) and pro.headline.id == ids.pro_options[0]
    assert free.item_codes == {"DATA_QUERY_EXPORT"} and pro.item_codes == set(ITEMS)
    assert all(o.activity is None for level in (free, basic) for o in level.options)
    offers = [o.activity for o in pro.options]
    assert [(a.discount, a.bonus_months) for a in offers[:2]] == [(80, 2), (75, 3)] and offers[2] is None
    assert offers[0].in_force(clock.now()) and offers[0].activity_id == offers[1].activity_id

    with container.uow() as uow:
        later = uow.catalogue.levels_for_type(ids.wifi, ids.alice, clock.now() + timedelta(days=21), "CNY")
        assert all(o.activity is None for level in later for o in level.options)  # the sale has ended
        assert [level.id for level in later] == [level.id for level in levels]
        assert uow.catalogue.levels_for_type(10**6, ids.alice, clock.now(), "CNY") == []


def test_only_an_activity_in_force_for_the_caller_is_offered_the_lowest_discount_first(container, clock, ids):
    now = clock.now()
    first, second, _ = ids.pro_options

    def activity(name: str, *offers, nature=1, status=1, starts=-1, ends=1, accounts=()) -> None:
        row = m.ActivityRow(name=name, nature=nature, status=status, created_at=now,
                            starts_at=now + timedelta(days=starts), ends_at=now + timedelta(days=ends))
        add_rows(container, row)
        add_rows(container, *(m.ActivityYearOptionRow(activity_id=row.id, level_year_id=option,
                                                      activity_discount=discount, presentation_month=bonus)
                              for option, discount, bonus in offers),
                 *(m.ActivityAccountRow(activity_id=row.id, account_id=a) for a in accounts))

    activity("stopped", (first, 10, 0), status=0)
    activity("ended", (first, 20, 0), starts=-5, ends=0)  # ends exactly now: no longer in force
    activity("not yet", (first, 30, 0), starts=1, ends=5)
    activity("for bob", (first, 50, 0), nature=2, accounts=[ids.bob])
    activity("for alice", (first, 70, 1), nature=2, accounts=[ids.alice])
    activity("more months", (second, 75, 6))  # as cheap as the demo sale, with more bonus months

    def offers(account_id: int):
        with container.uow() as uow:
            pro = uow.catalogue.levels_for_type(ids.wifi, account_id, now, "CNY")[-1]
        return [(o.activity.discount, o.activity.bonus_months) if o.activity else None for o in pro.options]

    assert offers(ids.alice) == [(70, 1), (75, 6), None]
    assert offers(ids.bob) == [(50, 0), (75, 6), None]
    assert offers(ids.acme) == [(80, 2), (75, 6), None]


def test_a_stopped_package_offers_no_levels(container, clock, ids):
    with Session(container.engine()) as s:
        s.execute(update(m.ServicePackageRow).values(status=0))
        s.commit()
    with container.uow() as uow:
        assert uow.catalogue.levels_for_type(ids.wifi, ids.alice, clock.now(), "CNY") == []


def test_items_and_alert_packages_come_in_catalogue_order_and_only_enabled_packages(container, ids):
    with container.uow() as uow:
        assert [item.code for item in uow.catalogue.items()] == list(ITEMS)
        packages = uow.catalogue.alert_packages("86", "CNY")
        assert [(p.kind, p.count) for p in packages] == [
            (AlertKind.SMS, 100), (AlertKind.SMS, 500), (AlertKind.SMS, 1000),
            (AlertKind.VOICE, 50), (AlertKind.VOICE, 200)]
        assert {p.country_code for p in packages} == {"86"}
        assert packages[1].discount == 90 and packages[0].fee_cents == 1000
        assert uow.catalogue.alert_package(packages[0].id, "CNY") == packages[0]
        assert uow.catalogue.alert_packages("44", "CNY") == []
    with Session(container.engine()) as s:
        s.execute(update(m.SmsPackageRow).where(m.SmsPackageRow.id == packages[0].id).values(status=0))
        s.commit()
    with container.uow() as uow:
        assert uow.catalogue.alert_package(packages[0].id, "CNY") is None
        assert [p.id for p in uow.catalogue.alert_packages("86", "CNY")] == [p.id for p in packages[1:]]


def test_each_currency_reads_only_its_own_price_list(container, clock, ids):
    now = clock.now()
    with container.uow() as uow:
        yuan = uow.catalogue.levels_for_type(ids.wifi, ids.alice, now, "CNY")
        dollars = uow.catalogue.levels_for_type(ids.wifi, ids.alice, now, "USD")
        assert [level.id for level in yuan] == [level.id for level in dollars]  # the levels are the same
        assert {o.currency for level in yuan for o in level.options} == {"CNY"}
        assert {o.currency for level in dollars for o in level.options} == {"USD"}
        assert [o.service_fee_cents for o in yuan[-1].options] == [19900, 37800, 99900]
        assert [o.service_fee_cents for o in dollars[-1].options] == [3990, 7590, 19900]
        assert not {o.id for o in yuan[-1].options} & {o.id for o in dollars[-1].options}
        assert [(o.activity.discount, o.activity.bonus_months) for o in dollars[-1].options[:2]] == [(80, 2), (75, 3)]
        assert uow.catalogue.levels_for_type(ids.wifi, ids.alice, now, "EUR") == []  # no price list in euros
        yuan_sms, dollar_sms = uow.catalogue.alert_packages("86", "CNY"), uow.catalogue.alert_packages("1", "USD")
        assert {(p.country_code, p.currency) for p in yuan_sms} == {("86", "CNY")}
        assert {(p.country_code, p.currency) for p in dollar_sms} == {("1", "USD")}
        assert uow.catalogue.alert_packages("86", "USD") == [] and uow.catalogue.alert_packages("1", "CNY") == []
        assert uow.catalogue.alert_package(yuan_sms[0].id, "USD") is None
        assert uow.catalogue.alert_package(dollar_sms[0].id, "CNY") is None
    # a level priced in yuan only is not offered in dollars; one with no option at all still is (free)
    basic, free = ids.levels[LEVEL_TEXT["basic"][0]], ids.levels[LEVEL_TEXT["free"][0]]
    with Session(container.engine()) as s:
        s.execute(delete(m.LevelYearOptionRow).where(m.LevelYearOptionRow.level_id == basic,
                                                     m.LevelYearOptionRow.currency == "USD"))
        s.execute(delete(m.LevelYearOptionRow).where(m.LevelYearOptionRow.level_id == free))
        s.commit()
    with container.uow() as uow:
        assert basic not in [level.id for level in uow.catalogue.levels_for_type(ids.wifi, ids.alice, now, "USD")]
        assert basic in [level.id for level in uow.catalogue.levels_for_type(ids.wifi, ids.alice, now, "CNY")]
        for currency in ("CNY", "USD"):
            [offered] = [lv for lv in uow.catalogue.levels_for_type(ids.wifi, ids.alice, now, currency)
                         if lv.id == free]
            assert offered.options == ()


# --- orders ------------------------------------------------------------------------------------


def test_an_order_comes_back_with_its_lines_and_invoice_snapshot(container, clock, ids):
    devices = [ids.devices["RCW360A0000001"], ids.devices["RCW360A0000002"]]
    bill = Bill(id=3, account_id=ids.alice, invoice_type=InvoiceType.PERSONAL, bill_mode=BillMode.EMAIL,
                bill_user_name="Alice", bill_phone="13800000001", personal_name="Alice Li",
                bill_mail="alice@example.com")
    order = new_order(ids.alice, "20261122010203123456", clock.now(), devices, apply_flag=True, bill_id=3,
                      invoice=bill.snapshot(), activity_id=5)
    added = stored(container, order)
    named = tuple(replace(line, device_name=name) for line, name in zip(order.lines, ("Cold room A logger",
                                                                                      "Cold room B logger"),
                                                                         strict=True))
    assert added.id is not None and added == replace(order, id=added.id, lines=named)
    with container.uow() as uow:
        assert uow.orders.get(added.id) == added
        assert uow.orders.by_code(added.code) == added
        assert uow.orders.get(added.id).device_ids == devices
        assert uow.orders.get(10**6) is None and uow.orders.by_code("nope") is None
        uow.orders.set_payment(added.id, {"payQrCode": "weixin://wxpay/1"}, "wx-prepay-1")
        uow.commit()
    with container.uow() as uow:
        again = uow.orders.get(added.id)
    assert again.payment == {"payQrCode": "weixin://wxpay/1"} and again.payment_reference == "wx-prepay-1"
    assert again.invoice == bill.snapshot() and again.status is PayStatus.UNPAID
    assert again.invoice_status is InvoiceStatus.NOT_INVOICED and again.pay_type is PayType.WECHAT


def test_an_alert_order_keeps_its_country_code_and_counts(container, clock, ids):
    line = OrderLine(device_id=ids.devices["CR2A000000001"], fee_cents=2500, sms_count=100, voice_count=50)
    order = Order(id=None, code="20261122010203000001", account_id=ids.alice, kind=OrderKind.ALERTS,
                  pay_type=PayType.ALIPAY, currency="CNY", order_fee_cents=2500, apply_flag=False,
                  description="SMS 100 + Voice 50", created_at=clock.now(), lines=(line,), country_code="86")
    added = stored(container, order)
    with container.uow() as uow:
        assert uow.orders.get(added.id) == added


def test_an_order_is_marked_paid_once(container, clock, ids):
    order = stored(container, new_order(ids.alice, "20261122010203000002", clock.now(),
                                        [ids.devices["RCW360A0000001"]]))
    paid_at = clock.now() + timedelta(minutes=1)
    with container.uow() as uow:
        assert uow.orders.mark_paid(order.id, 9900, paid_at, "wx-1") is True
        assert uow.orders.get(order.id).status is PayStatus.PAID
        uow.commit()
    with container.uow() as uow:
        assert uow.orders.mark_paid(order.id, 1, paid_at + timedelta(minutes=1), "wx-2") is False
        uow.commit()
    with container.uow() as uow:
        paid = uow.orders.get(order.id)
    assert (paid.status, paid.pay_fee_cents, paid.paid_at, paid.settlement_reference) == (
        PayStatus.PAID, 9900, paid_at, "wx-1")


def test_a_failed_attempt_is_counted_once_per_provider_attempt_and_only_while_unpaid(container, clock, ids):
    order = stored(container, new_order(ids.alice, "20261122010203000009", clock.now(),
                                        [ids.devices["RCW360A0000001"]], pay_type=PayType.GOOGLE_PAY))
    assert (order.last_failure, order.failure_count) == (None, 0)

    def record(failure: PaymentFailure, attempt: str | None) -> bool:
        with container.uow() as uow:
            changed = uow.orders.record_failure(order.id, failure, attempt)
            uow.commit()
        return changed

    assert record(PaymentFailure.DECLINED, "ch_1") is True
    assert record(PaymentFailure.DECLINED, "ch_1") is False  # the same charge, told by the webhook too
    assert record(PaymentFailure.FAILED, "ch_2") is True
    assert record(PaymentFailure.CANCELLED, None) is True  # no attempt id: always a new one
    with container.uow() as uow:
        failed = uow.orders.get(order.id)
        assert (failed.last_failure, failed.failure_count, failed.status) == (
            PaymentFailure.CANCELLED, 3, PayStatus.UNPAID)
        uow.orders.mark_paid(order.id, 9900, clock.now(), "pi_1")
        uow.commit()
    assert record(PaymentFailure.DECLINED, "ch_3") is False  # a paid order has no failures to tell
    with container.uow() as uow:
        assert uow.orders.get(order.id).failure_count == 3


def settle_concurrently(container, work, workers: int = 2) -> list:
    """Runs `work(uow, barrier)` in as many threads at once, each in its own unit of work."""
    barrier = threading.Barrier(workers)

    def run(i: int):
        with container.uow() as uow:
            return work(uow, barrier, i)

    with ThreadPoolExecutor(workers) as pool:
        return [future.result(timeout=60) for future in [pool.submit(run, i) for i in range(workers)]]


def test_of_two_concurrent_settlements_of_one_order_exactly_one_marks_it_paid(container, clock, ids):
    device = ids.devices["RCW360A0000001"]
    with container.uow() as uow:
        before = expiry(uow, device)
    for round_ in range(5):
        order = stored(container, new_order(ids.alice, f"2026112201020300010{round_}", clock.now(), [device]))

        def settle(uow, barrier, i, order=order):
            # as SettleOrder does: read the order, then the conditional write
            assert uow.orders.by_code(order.code).status is PayStatus.UNPAID
            barrier.wait(timeout=10)
            if not uow.orders.mark_paid(order.id, 9900, clock.now(), f"ref-{i}"):
                return False
            expires = expiry(uow, device)
            uow.device_service.set_service(device, ids.levels[LEVEL_TEXT["basic"][0]], expires + timedelta(days=1))
            uow.commit()
            return True

        outcomes = settle_concurrently(container, settle)
        assert sorted(outcomes) == [False, True]
        with container.uow() as uow:
            assert uow.orders.get(order.id).settlement_reference == f"ref-{outcomes.index(True)}"
    with container.uow() as uow:
        assert expiry(uow, device) == before + timedelta(days=5)


def test_two_concurrent_settlements_of_one_device_add_up(container, ids):
    """services_for_update holds the device until the transaction ends, even when the
    transaction has written nothing before (SQLite has no row locks)."""
    device = ids.devices["RCW360A0000002"]
    with container.uow() as uow:
        before = expiry(uow, device)

    def extend(uow, barrier, _i):
        barrier.wait(timeout=10)
        expires = expiry(uow, device)
        time.sleep(0.2)  # without the lock the other settlement would read the same expiry meanwhile
        uow.device_service.set_service(device, ids.levels[LEVEL_TEXT["pro"][0]], expires + timedelta(days=30))
        uow.commit()

    settle_concurrently(container, extend)
    with container.uow() as uow:
        assert expiry(uow, device) == before + timedelta(days=60)


def test_the_pages_of_an_account_s_orders_are_newest_first_and_filter_by_status(container, clock, ids):
    device = ids.devices["RCW360A0000001"]
    start = clock.now()
    orders = [stored(container, new_order(ids.alice, f"2026112201020300020{i}", start + timedelta(minutes=i),
                                          [device])) for i in range(3)]
    stored(container, new_order(ids.acme, "20261122010203000300", start + timedelta(minutes=9),
                                [ids.devices["CR2B000000001"]]))
    with container.uow() as uow:
        uow.orders.mark_paid(orders[1].id, 9900, start, None)
        uow.commit()
    with container.uow() as uow:
        everything = uow.orders.page(ids.alice, None, PageRequest(1, 10))
        paid = uow.orders.page(ids.alice, PayStatus.PAID, PageRequest(1, 10))
        unpaid = uow.orders.page(ids.alice, PayStatus.UNPAID, PageRequest(2, 1))
        refunded = uow.orders.page(ids.alice, PayStatus.REFUNDED, PageRequest(1, 10))
    assert everything.total_count == 3 and [o.id for o in everything.items] == [o.id for o in reversed(orders)]
    assert everything.items[0].lines == orders[2].lines
    assert paid.total_count == 1 and [o.id for o in paid.items] == [orders[1].id]
    assert paid.items[0].status is PayStatus.PAID
    assert (unpaid.total_count, unpaid.start, unpaid.page_size) == (2, 2, 1)
    assert [o.id for o in unpaid.items] == [orders[0].id]
    assert refunded.total_count == 0 and refunded.items == []


# --- device service state ----------------------------------------------------------------------


def test_services_are_those_of_existing_devices_and_the_service_is_set(container, clock, ids):
    device, pro = ids.devices["RCW360A0000003"], ids.levels[LEVEL_TEXT["pro"][0]]
    expires_at = clock.now() + timedelta(days=365)
    with container.uow() as uow:
        assert set(uow.device_service.services_for_update([device, 10**6])) == {device}
        assert uow.device_service.services_for_update([]) == {}
        uow.device_service.set_service(device, pro, expires_at)
        uow.commit()
    with container.uow() as uow:
        [found] = uow.device_service.services_for_update([device]).values()
        assert found.service == ServiceState(pro, expires_at)
        assert found.plan == DataPlan(has_sim=False, plan_active=False)
        assert uow.device_registry.visible(ids.alice, device).level_id == pro
        assert found.type_id == uow.device_registry.visible(ids.alice, device).type_id


def test_a_service_line_keeps_its_promise_and_what_settlement_gave(container, clock, ids):
    device, pro = ids.devices["RCW360A0000001"], ids.levels[LEVEL_TEXT["pro"][0]]
    before = ServiceState(ids.levels[LEVEL_TEXT["basic"][0]], clock.now() + timedelta(days=200))
    promise = LevelChange(before, pro, clock.now() + timedelta(days=500), ChangeKind.CONVERTED,
                          timedelta(days=200, seconds=7), 99)
    order = new_order(ids.alice, "20261122010203000400", clock.now(), [device])
    order = stored(container, replace(order, lines=(replace(order.lines[0], level_id=pro, promise=promise),)))
    with container.uow() as uow:
        line = uow.orders.get(order.id).lines[0]
        assert (line.promise, line.settled_expires_at, line.recomputed) == (promise, None, False)
        assert line.promise_holds(before) and not line.promise_holds(replace(before, expires_at=None))
        uow.orders.record_service_result(order.id, device, promise.expires_at + timedelta(days=1), True)
        uow.commit()
    with container.uow() as uow:
        line = uow.orders.get(order.id).lines[0]
    assert (line.settled_expires_at, line.recomputed) == (promise.expires_at + timedelta(days=1), True)


def test_alert_counts_add_up_and_an_existing_country_code_is_kept(container, ids):
    coded, uncoded = ids.devices["RCW360A0000001"], ids.devices["RCW360A0000002"]
    with Session(container.engine()) as s:
        s.execute(update(m.DeviceRow).where(m.DeviceRow.id == uncoded).values(country_code=None))
        s.commit()
    with container.uow() as uow:
        before = uow.device_registry.visible(ids.alice, coded)
        uow.device_service.add_alert_counts(coded, 100, 50, "1")
        uow.device_service.add_alert_counts(coded, 10, 0, None)
        uow.device_service.add_alert_counts(uncoded, 5, 5, "44")
        # the session's own copy of the device follows the write
        assert uow.device_registry.visible(ids.alice, coded).sms_count == before.sms_count + 110
        uow.commit()
    with container.uow() as uow:
        after = uow.device_registry.visible(ids.alice, coded)
        assert (after.sms_count, after.voice_count, after.country_code) == (
            before.sms_count + 110, before.voice_count + 50, "86")
        assert uow.device_registry.visible(ids.alice, uncoded).country_code == "44"


# --- agreements --------------------------------------------------------------------------------


def test_the_active_agreement_of_a_device_is_found_and_cancelled_once(container, clock, ids):
    freezer, other = ids.devices["FZ1A000000001"], ids.devices["RCW360A0000001"]
    with container.uow() as uow:
        agreement = uow.agreements.active(freezer)
        assert uow.agreements.active(other) is None
        assert uow.agreements.cancel(other, clock.now()) is False
    assert (agreement.device_id, agreement.level_id, agreement.level_name) == (
        freezer, ids.levels[LEVEL_TEXT["pro"][0]], LEVEL_TEXT["pro"][0])
    assert agreement.level_year_id == ids.pro_options[0] and agreement.pay_type == 1
    assert (agreement.total_fee_cents, agreement.currency) == (19900, "CNY")
    assert agreement.next_execution_at > clock.now()
    with container.uow() as uow:
        assert uow.agreements.cancel(freezer, clock.now()) is True
        assert uow.agreements.active(freezer) is None
        uow.commit()
    with container.uow() as uow:
        assert uow.agreements.active(freezer) is None
        assert uow.agreements.cancel(freezer, clock.now()) is False
    with Session(container.engine()) as s:
        row = s.scalars(select(m.AutoRenewAgreementRow).filter_by(device_id=freezer)).one()
        assert (row.status, row.cancelled_at) == (0, clock.now())


# --- bills -------------------------------------------------------------------------------------


def bill_of(account_id: int, name: str, **kw) -> Bill:
    return Bill(id=None, account_id=account_id, invoice_type=InvoiceType.PERSONAL, bill_mode=BillMode.ADDRESS,
                bill_user_name=name, bill_phone="13800000001", personal_name=name, bill_address="1 Main St", **kw)


def test_bills_come_default_first_then_newest_and_only_to_their_account(container, ids):
    with container.uow() as uow:
        first = uow.bills.add(bill_of(ids.alice, "first"))
        default = uow.bills.add(bill_of(ids.alice, "default", is_default=True))
        newest = uow.bills.add(bill_of(ids.alice, "newest"))
        company = uow.bills.add(Bill(id=None, account_id=ids.acme, invoice_type=InvoiceType.ENTERPRISE,
                                     bill_mode=BillMode.EMAIL, bill_user_name="IT", bill_phone="13800000002",
                                     company_name="Acme Cold Chain Co.", tax_number="91330000ABCDEF",
                                     bank_deposit="Bank 1234", bill_mail="it@acme.example"))
        uow.commit()
    with container.uow() as uow:
        assert uow.bills.of_account(ids.alice) == [default, newest, first]
        assert uow.bills.of_account(ids.acme) == [company]
        assert uow.bills.get(ids.alice, first.id) == first
        assert uow.bills.get(ids.acme, first.id) is None
        uow.bills.update(replace(first, bill_user_name="hijacked", account_id=ids.acme))  # not acme's bill
        assert uow.bills.delete(ids.acme, first.id) is False
        uow.bills.clear_default(ids.alice)
        uow.bills.update(replace(first, bill_mode=BillMode.EMAIL, bill_address=None, bill_mail="a@example.com",
                                 is_default=True))
        uow.commit()
    with container.uow() as uow:
        changed = replace(first, bill_mode=BillMode.EMAIL, bill_address=None, bill_mail="a@example.com",
                          is_default=True)
        assert uow.bills.of_account(ids.alice) == [changed, newest, replace(default, is_default=False)]
        assert uow.bills.delete(ids.alice, first.id) is True
        uow.commit()
    with container.uow() as uow:
        assert [b.id for b in uow.bills.of_account(ids.alice)] == [newest.id, default.id]
        assert uow.bills.get(ids.alice, first.id) is None
