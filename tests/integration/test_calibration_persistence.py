"""Calibration's repositories on both databases: what is stored comes back as it was, a move from a
state another transaction left is refused, certificates keep their versions, the year's numbers are
never given twice, a due reminder is recorded once, and an account reads only its applications."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import inspect, select
from sqlalchemy.exc import IntegrityError

from adapters.persistence.database import make_engine
from adapters.persistence.migrate import downgrade, upgrade
from adapters.persistence.models import AccountRow, OutboxMessageRow, SystemMessageRow
from core.calibration.certificates import (
    Certificate,
    CertificateContent,
    CertificateStatus,
    DecisionRule,
    Environment,
    Point,
    Signatory,
)
from core.calibration.due_dates import CALIBRATION_DUE_SOON, ReminderStage, due_message
from core.calibration.model import (
    Application,
    Contact,
    Details,
    InvoiceDetails,
    InvoiceType,
    Line,
    PriceConf,
    RefundState,
    Service,
    Status,
)
from core.calibration.ports import ApplicationFilter
from core.inbox.posting import post
from core.shared.paging import PageRequest
from tests.support.alarms import device
from tests.support.demo_copy import seeded

NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
TRUCK = "LOGET8A0000001"  # alice's logger


@pytest.fixture
def demo(app):
    seeded(app, history=False)
    return app


def account(container, name: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(AccountRow.id).where(AccountRow.user_name == name))


def application(applicant: int | None, number: str = "CAL20260302ABCDEFGH", **fields) -> Application:
    details = Details("Acme Foods", Contact("Ann", "+86 138 0000 0001", "ann@acme.example"), "1 Quay Road",
                      "2 Dock Street", InvoiceDetails(InvoiceType.ENTERPRISE, "Acme Foods Ltd", "TX12345"), "fragile")
    lines = (Line(1, Service.STANDARD_POINTS, 1, "LOG-T8", "SN-0001", 30000),
             Line(2, Service.EXTRA_POINTS, 1, "LOG-T8", "SN-0002", 45000, None, "-30 °C and +40 °C"))
    return Application(None, number, applicant, details, lines, "CNY", 75000, Status.SUBMITTED, NOW, NOW,
                       **fields)


def content(**fields) -> CertificateContent:
    points = (Point(Decimal("-20.0"), Decimal("-19.7"), Decimal("0.15"), "°C", Decimal("0.5")),
              Point(Decimal("4.0"), Decimal("4.3"), Decimal("0.12")))
    return replace(CertificateContent(
        "Cold Chain Lab", "Acme Foods", "Temperature logger", "LOG-T8", "SN-0001", "No visible damage",
        date(2026, 2, 20), date(2026, 2, 24), "CP-07 comparison in a stirred bath",
        Environment(Decimal("21.3"), Decimal("45")), DecisionRule.GUARDED, points,
        Signatory("Dr. Lin", "Technical manager"), customer_address="2 Dock Street"), **fields)


def stored(container, app_: Application) -> Application:
    with container.uow() as uow:
        added = uow.calibration_applications.add(app_)
        uow.commit()
    return added


def test_an_application_comes_back_with_its_lines_and_details_and_by_its_number(demo, container):
    alice = account(container, "alice")
    added = stored(container, application(alice, access_digest="d" * 64))
    with container.uow() as uow:
        found = uow.calibration_applications.get(added.stored_id)
        assert found == added
        assert uow.calibration_applications.by_number(added.number) == added
        assert uow.calibration_applications.by_number("CAL20260302ZZZZZZZZ") is None
    with pytest.raises(IntegrityError), container.uow() as uow:  # a number is given once
        uow.calibration_applications.add(application(None))


def test_each_write_changes_only_what_it_says(demo, container):
    added = stored(container, application(None))
    later = NOW.replace(hour=11)
    new = replace(added.details, contact=Contact("Bo", None, "bo@acme.example"), invoice=None, remark=None)
    with container.uow() as uow:
        repository = uow.calibration_applications
        assert repository.mark_paid(added.stored_id, 75000, 2, "4200001", later)
        assert not repository.mark_paid(added.stored_id, 75000, 2, "4200002", later)  # told twice
        repository.set_tracking(added.stored_id, "SF1234567890", None, later)
        repository.set_tracking(added.stored_id, None, "YT0987654321", later)
        repository.update_details(added.stored_id, new, True, later)
        uow.commit()
    with container.uow() as uow:
        found = uow.calibration_applications.get(added.stored_id)
    assert found == replace(added, status=Status.PAID, paid_cents=75000, pay_type=2, payment_reference="4200001",
                            paid_at=later, inbound_tracking="SF1234567890", outbound_tracking="YT0987654321",
                            details=new, updated_at=later)


def test_of_two_transactions_moving_the_same_application_only_the_first_moves_it(demo, container):
    added = stored(container, application(None))
    with container.uow() as uow:
        uow.calibration_applications.mark_paid(added.stored_id, 75000, 2, None, NOW)
        uow.commit()
    first, second = container.uow(), container.uow()
    with first, second:  # both read it paid; the lab cancels while the customer gives tracking
        assert first.calibration_applications.get(added.stored_id).status is Status.PAID
        assert second.calibration_applications.get(added.stored_id).status is Status.PAID
        assert first.calibration_applications.cancel(added.stored_id, Status.PAID, Status.CANCELLED_BY_LAB, NOW,
                                                     75000, RefundState.PENDING)
        first.commit()
        assert not second.calibration_applications.move(added.stored_id, Status.PAID, Status.AWAITING_DEVICES, NOW)
        assert not second.calibration_applications.cancel(added.stored_id, Status.PAID,
                                                          Status.CANCELLED_BY_CUSTOMER, NOW, 75000,
                                                          RefundState.PENDING)
        second.commit()
    with container.uow() as uow:
        found = uow.calibration_applications.get(added.stored_id)
        assert (found.status, found.refund_cents, found.refund_state) == (Status.CANCELLED_BY_LAB, 75000,
                                                                        RefundState.PENDING)
        assert [a.number for a in uow.calibration_applications.pending_refunds(10)] == [added.number]
        with pytest.raises(ValueError):  # a move the ladder does not have is a bug, not a False
            uow.calibration_applications.move(added.stored_id, Status.CANCELLED_BY_LAB, Status.PAID, NOW)


def test_an_account_lists_only_its_own_applications_and_the_lab_everyone_s(demo, container):
    alice, bob = account(container, "alice"), account(container, "bob")
    mine = stored(container, application(alice, "CAL20260302AAAAAAAA"))
    stored(container, application(bob, "CAL20260302BBBBBBBB"))
    quick = stored(container, application(None, "CAL20260302CCCCCCCC", quick_order=True, handled=False))
    request = PageRequest(1, 10)
    with container.uow() as uow:
        repository = uow.calibration_applications
        page = repository.of_account(alice, ApplicationFilter(), request)
        assert (page.total_count, [a.number for a in page.items]) == (1, [mine.number])
        assert repository.of_account(alice, ApplicationFilter(number="bbbb"), request).items == []
        assert repository.of_account(alice, ApplicationFilter(number="aaaa"), request).total_count == 1
        assert repository.page(ApplicationFilter(), request).total_count == 3
        assert [a.number for a in repository.page(ApplicationFilter(quick_order=True), request).items] == [
            quick.number]
        assert repository.page(ApplicationFilter(number="%"), request).items == []  # a wildcard is a character
        assert repository.page(ApplicationFilter(status=Status.PAID), request).total_count == 0


def test_a_price_is_set_once_per_type_service_and_currency(demo, container):
    type_id = device(container, TRUCK).type_id
    with container.uow() as uow:
        uow.calibration_prices.put(PriceConf(type_id, Service.STANDARD_POINTS, "CNY", 30000))
        uow.calibration_prices.put(PriceConf(type_id, Service.STANDARD_POINTS, "CNY", 32000))
        uow.calibration_prices.put(PriceConf(type_id, Service.EXPRESS, "CNY", 50000))
        uow.calibration_prices.put(PriceConf(type_id, Service.STANDARD_POINTS, "USD", 4500))
        uow.commit()
    with container.uow() as uow:
        assert uow.calibration_prices.of_currency("CNY") == [PriceConf(type_id, Service.STANDARD_POINTS, "CNY", 32000),
                                                            PriceConf(type_id, Service.EXPRESS, "CNY", 50000)]


def test_a_certificate_goes_from_draft_to_issued_to_superseded_once_each(demo, container):
    added = stored(container, application(None))
    draft = Certificate(None, added.stored_id, 1, 1, CertificateStatus.DRAFT, content(), NOW)
    with container.uow() as uow:
        certificates = uow.calibration_certificates
        first = certificates.add(draft)
        assert certificates.update_draft(first.stored_id, content(remarks="Adjusted at +4 °C"))
        assert certificates.issue(first.stored_id, "CAL-2026-000001", date(2026, 3, 2), NOW)
        assert not certificates.issue(first.stored_id, "CAL-2026-000002", date(2026, 3, 2), NOW)
        assert not certificates.update_draft(first.stored_id, content())  # issued: immutable
        uow.commit()
    with container.uow() as uow:
        certificates = uow.calibration_certificates
        issued = certificates.get(first.stored_id)
        assert issued == replace(first, status=CertificateStatus.ISSUED, content=content(remarks="Adjusted at +4 °C"),
                                 number="CAL-2026-000001", issued_on=date(2026, 3, 2), issued_at=NOW)
        assert issued.content.as_found[0].reading == Decimal("-19.7")  # the figures as written
        assert certificates.supersede(first.stored_id, NOW)
        assert not certificates.supersede(first.stored_id, NOW)  # another correction came first
        second = certificates.add(replace(issued, id=None, version=2, content=content(), amendment="Typo in serial"))
        uow.commit()
    with container.uow() as uow:
        certificates = uow.calibration_certificates
        assert [(c.line_index, c.version, c.status) for c in certificates.of_application(added.stored_id)] == [
            (1, 1, CertificateStatus.SUPERSEDED), (1, 2, CertificateStatus.ISSUED)]
        assert certificates.latest(added.stored_id, 1) == second
        assert certificates.latest(added.stored_id, 2) is None
    with pytest.raises(IntegrityError), container.uow() as uow:  # a line's version is stored once
        uow.calibration_certificates.add(replace(draft, version=2))


def test_the_year_s_sequence_counts_from_one_and_a_rollback_gives_its_number_back(app, container):
    with container.uow() as uow:
        assert [uow.certificate_numbers.next_sequence(2026) for _ in range(3)] == [1, 2, 3]
        assert uow.certificate_numbers.next_sequence(2027) == 1
        uow.commit()
    with container.uow() as uow:  # not committed
        assert uow.certificate_numbers.next_sequence(2026) == 4
    with container.uow() as uow:
        assert uow.certificate_numbers.next_sequence(2026) == 4


def test_concurrent_transactions_get_distinct_consecutive_numbers_on_postgresql(app, container):
    if container.engine().dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time")
    got: list[int] = []
    failures: list[BaseException] = []
    start = threading.Barrier(8)

    def issue() -> None:
        try:
            with container.uow() as uow:
                start.wait()
                number = uow.certificate_numbers.next_sequence(2026)
                time.sleep(0.02)  # hold the row a while: the others wait for it
                uow.commit()
                got.append(number)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=issue) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert failures == []
    assert sorted(got) == list(range(1, 9))


def test_a_device_s_calibration_is_recorded_beside_it_and_its_interval_kept(demo, container):
    alice, bob = account(container, "alice"), account(container, "bob")
    truck = device(container, TRUCK)
    with container.uow() as uow:
        devices = uow.calibrated_devices
        assert devices.changeable(bob, [truck.id]) == {}
        assert list(devices.changeable(alice, [truck.id, 2_000_000_000])) == [truck.id]
        assert devices.changeable(alice, [truck.id])[truck.id].guid == TRUCK
        assert devices.calibration(truck.id).due_on is None
        assert devices.calibration(2_000_000_000) is None
        devices.record(truck.id, date(2026, 3, 2), date(2027, 3, 2), "CAL-2026-000001")
        devices.set_interval(truck.id, 6, date(2026, 9, 2))
        uow.commit()
    with container.uow() as uow:
        known = uow.calibrated_devices.calibration(truck.id)
    assert (known.device_months, known.calibrated_on, known.due_on, known.certificate) == (
        6, date(2026, 3, 2), date(2026, 9, 2), "CAL-2026-000001")


def test_a_reminder_is_recorded_once_per_device_due_date_and_stage_and_posted_to_the_owner(demo, container):
    truck = device(container, TRUCK)
    with container.uow() as uow:
        uow.calibrated_devices.record(truck.id, date(2025, 4, 1), date(2026, 4, 1), "CAL-2025-000007")
        uow.commit()
    with container.uow() as uow:
        reminders = uow.calibration_reminders
        [candidate] = [c for c in reminders.candidates(date(2026, 3, 1), date(2026, 4, 2)) if c.device_id == truck.id]
        assert (candidate.due_on, candidate.owner_account_id, candidate.sent) == (date(2026, 4, 1),
                                                                                  truck.owner_account_id, frozenset())
        assert reminders.record(truck.id, date(2026, 4, 1), ReminderStage.DAYS_30, NOW)
        post(uow, due_message(candidate, ReminderStage.DAYS_30, NOW), "en-US")  # as the job posts it
        assert not reminders.record(truck.id, date(2026, 4, 1), ReminderStage.DAYS_30, NOW)
        uow.commit()
    with container.uow() as uow:
        reminders = uow.calibration_reminders
        assert not reminders.record(truck.id, date(2026, 4, 1), ReminderStage.DAYS_30, NOW)
        assert reminders.record(truck.id, date(2026, 4, 1), ReminderStage.DAYS_7, NOW)
        assert reminders.record(truck.id, date(2027, 4, 1), ReminderStage.DAYS_30, NOW)  # a new due date
        [candidate] = [c for c in reminders.candidates(date(2026, 3, 1), date(2026, 4, 2)) if c.device_id == truck.id]
        assert candidate.sent == {ReminderStage.DAYS_30, ReminderStage.DAYS_7}
        assert reminders.candidates(date(2026, 4, 2), date(2026, 5, 1)) == []
    with container.session_factory()() as session:
        [message] = session.scalars(select(SystemMessageRow).where(SystemMessageRow.template == CALIBRATION_DUE_SOON))
        assert (message.account_id, message.params["date"], message.params["days"], message.created_at) == (
            truck.owner_account_id, "2026-04-01", 30, NOW)
        assert session.scalars(select(OutboxMessageRow).where(OutboxMessageRow.template == CALIBRATION_DUE_SOON)).all()


def test_the_calibration_migration_goes_down_and_up_again(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'calibration.db'}")
    tables = {"calibration_applications", "calibration_lines", "calibration_prices", "calibration_certificates",
              "certificate_sequences", "device_calibrations", "device_type_calibrations", "calibration_reminders"}
    upgrade(engine)
    assert tables <= set(inspect(engine).get_table_names())
    downgrade(engine, "0047_revenue_speed")
    assert not tables & set(inspect(engine).get_table_names())
    upgrade(engine)
    assert tables <= set(inspect(engine).get_table_names())
    engine.dispose()
