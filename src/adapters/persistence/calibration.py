"""Calibration (core/calibration): applications and their lines, prices, certificates and their
numbers, a console device's calibration and the reminders of its due date.

Every move of a status is one conditional UPDATE on the state it leaves, so of two transactions
moving the same application (or certificate) from the same state, one writes and the other is
told False (ports.ApplicationRepository, ports.CertificateRepository)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, Insert, Select, func, select, update
from sqlalchemy.orm import Session

from adapters.persistence.database import upsert
from adapters.persistence.devices import changeable_by, visible_to
from adapters.persistence.models import (
    CalibrationApplicationRow,
    CalibrationCertificateRow,
    CalibrationLineRow,
    CalibrationPriceRow,
    CalibrationReminderRow,
    CertificateSequenceRow,
    DeviceCalibrationRow,
    DeviceRow,
    DeviceTypeCalibrationRow,
    DeviceTypeRow,
)
from adapters.persistence.results import rows_written
from core.calibration.certificates import Certificate, CertificateContent, CertificateStatus
from core.calibration.due_dates import DueCandidate, ReminderStage
from core.calibration.model import (
    TRANSITIONS,
    Application,
    ConsoleDevice,
    Contact,
    Details,
    InvoiceDetails,
    InvoiceType,
    Line,
    PriceConf,
    RefundState,
    Service,
    Status,
    is_cancelled,
)
from core.calibration.ports import ApplicationFilter, DeviceCalibration
from core.calibration.rules import content_from_json, content_json
from core.shared.paging import Page, PageRequest

_A, _L, _C = CalibrationApplicationRow, CalibrationLineRow, CalibrationCertificateRow


# --- applications ----------------------------------------------------------------------------------


def _details_values(d: Details) -> dict[str, Any]:
    invoice = d.invoice
    return {"customer_name": d.customer_name, "contact_name": d.contact.name, "contact_phone": d.contact.phone,
            "contact_email": d.contact.email, "return_address": d.return_address,
            "customer_address": d.customer_address, "remark": d.remark,
            "invoice_type": int(invoice.invoice_type) if invoice else None,
            "invoice_title": invoice.title if invoice else None,
            "tax_number": invoice.tax_number if invoice else None}


def _details(row: CalibrationApplicationRow) -> Details:
    invoice = None if row.invoice_type is None else InvoiceDetails(InvoiceType(row.invoice_type),
                                                                   row.invoice_title or "", row.tax_number)
    return Details(row.customer_name, Contact(row.contact_name, row.contact_phone, row.contact_email),
                   row.return_address, row.customer_address, invoice, row.remark)


def _line(row: CalibrationLineRow) -> Line:
    return Line(row.line_index, Service(row.service), row.device_type_id, row.model, row.serial, row.price_cents,
                row.device_id, row.points_note)


def _application(row: CalibrationApplicationRow, lines: tuple[Line, ...]) -> Application:
    return Application(
        row.id, row.number, row.applicant_account_id, _details(row), lines, row.currency, row.total_cents,
        Status(row.status), row.created_at, row.updated_at, quick_order=row.quick_order, handled=row.handled,
        inbound_tracking=row.inbound_tracking, outbound_tracking=row.outbound_tracking, pay_type=row.pay_type,
        payment_reference=row.payment_reference, paid_cents=row.paid_cents, paid_at=row.paid_at,
        cancelled_at=row.cancelled_at, refund_cents=row.refund_cents, refund_state=RefundState(row.refund_state),
        access_digest=row.access_digest)


def _filter(where: ApplicationFilter) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if where.number:
        conditions.append(func.upper(_A.number).contains(where.number.strip().upper(), autoescape=True))
    if where.status is not None:
        conditions.append(_A.status == int(where.status))
    if where.quick_order is not None:
        conditions.append(_A.quick_order.is_(where.quick_order))
    return conditions


class SqlAlchemyApplicationRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _many(self, rows: Sequence[CalibrationApplicationRow]) -> list[Application]:
        lines: dict[int, list[Line]] = defaultdict(list)
        if rows:
            for line in self._s.scalars(select(_L).where(_L.application_id.in_([r.id for r in rows]))
                                        .order_by(_L.application_id, _L.line_index)
                                        .execution_options(populate_existing=True)):
                lines[line.application_id].append(_line(line))
        return [_application(r, tuple(lines.get(r.id, ()))) for r in rows]

    def _one(self, *where: ColumnElement[bool]) -> Application | None:
        row = self._s.scalars(select(_A).where(*where).execution_options(populate_existing=True)).first()
        return None if row is None else self._many([row])[0]

    def _set(self, application_id: int, *where: ColumnElement[bool], **values: Any) -> bool:
        return bool(rows_written(self._s.execute(update(_A).where(_A.id == application_id, *where).values(**values))))

    def add(self, application: Application) -> Application:
        a = application
        row = CalibrationApplicationRow(
            number=a.number, applicant_account_id=a.applicant_account_id, currency=a.currency,
            total_cents=a.total_cents, status=int(a.status), quick_order=a.quick_order, handled=a.handled,
            inbound_tracking=a.inbound_tracking, outbound_tracking=a.outbound_tracking, pay_type=a.pay_type,
            payment_reference=a.payment_reference, paid_cents=a.paid_cents, paid_at=a.paid_at,
            cancelled_at=a.cancelled_at, refund_cents=a.refund_cents, refund_state=int(a.refund_state),
            access_digest=a.access_digest, created_at=a.created_at, updated_at=a.updated_at,
            **_details_values(a.details))
        self._s.add(row)
        self._s.flush()
        self._s.add_all(CalibrationLineRow(application_id=row.id, line_index=x.index, service=int(x.service),
                                           device_type_id=x.device_type_id, model=x.model, serial=x.serial,
                                           price_cents=x.price_cents, device_id=x.device_id,
                                           points_note=x.points_note) for x in a.lines)
        self._s.flush()
        return replace(a, id=row.id)

    def get(self, application_id: int) -> Application | None:
        return self._one(_A.id == application_id)

    def by_number(self, number: str) -> Application | None:
        return self._one(_A.number == number)

    def move(self, application_id: int, source: Status, target: Status, at: datetime) -> bool:
        if (source, target) not in TRANSITIONS or is_cancelled(target):
            raise ValueError(f"no move {source!r} -> {target!r} (a cancellation goes through cancel)")
        return self._set(application_id, _A.status == int(source), status=int(target), updated_at=at)

    def mark_paid(self, application_id: int, paid_cents: int, pay_type: int, reference: str | None,
                  at: datetime) -> bool:
        kept = {} if reference is None else {"payment_reference": reference}
        return self._set(application_id, _A.status == int(Status.SUBMITTED), _A.paid_at.is_(None),
                         status=int(Status.PAID), paid_cents=paid_cents, pay_type=pay_type, paid_at=at,
                         updated_at=at, **kept)

    def cancel(self, application_id: int, source: Status, target: Status, at: datetime, refund_cents: int,
               refund_state: RefundState) -> bool:
        if (source, target) not in TRANSITIONS or not is_cancelled(target):
            raise ValueError(f"no cancellation {source!r} -> {target!r}")
        return self._set(application_id, _A.status == int(source), status=int(target), cancelled_at=at,
                         refund_cents=refund_cents, refund_state=int(refund_state), updated_at=at)

    def set_refund_state(self, application_id: int, state: RefundState) -> None:
        self._set(application_id, refund_state=int(state))

    def set_payment(self, application_id: int, pay_type: int, reference: str | None) -> None:
        self._set(application_id, pay_type=pay_type, payment_reference=reference)

    def set_tracking(self, application_id: int, inbound: str | None, outbound: str | None, at: datetime) -> None:
        given = {name: value for name, value in (("inbound_tracking", inbound), ("outbound_tracking", outbound))
                 if value is not None}
        self._set(application_id, updated_at=at, **given)

    def update_details(self, application_id: int, details: Details, handled: bool, at: datetime) -> None:
        self._set(application_id, handled=handled, updated_at=at, **_details_values(details))

    def pending_refunds(self, limit: int) -> list[Application]:
        rows = list(self._s.scalars(select(_A).where(_A.refund_state == int(RefundState.PENDING))
                                    .order_by(_A.cancelled_at, _A.id).limit(limit)
                                    .execution_options(populate_existing=True)))
        return self._many(rows)

    def _page(self, conditions: list[ColumnElement[bool]], request: PageRequest) -> Page[Application]:
        total = self._s.scalar(select(func.count()).select_from(_A).where(*conditions)) or 0
        rows = list(self._s.scalars(select(_A).where(*conditions).order_by(_A.created_at.desc(), _A.id.desc())
                                    .offset(request.offset).limit(request.page_size)
                                    .execution_options(populate_existing=True)))
        return Page(request.start, request.page_size, total, self._many(rows))

    def of_account(self, account_id: int, where: ApplicationFilter, request: PageRequest) -> Page[Application]:
        return self._page([_A.applicant_account_id == account_id, *_filter(where)], request)

    def page(self, where: ApplicationFilter, request: PageRequest) -> Page[Application]:
        return self._page(_filter(where), request)


class SqlAlchemyPriceRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def of_currency(self, currency: str) -> list[PriceConf]:
        rows = self._s.scalars(select(CalibrationPriceRow).where(CalibrationPriceRow.currency == currency)
                               .order_by(CalibrationPriceRow.device_type_id, CalibrationPriceRow.service)
                               .execution_options(populate_existing=True))
        return [PriceConf(r.device_type_id, Service(r.service), r.currency, r.price_cents) for r in rows]

    def put(self, price: PriceConf) -> None:
        statement = upsert(self._s, CalibrationPriceRow).values(
            device_type_id=price.device_type_id, service=int(price.service), currency=price.currency,
            price_cents=price.price_cents)
        self._s.execute(statement.on_conflict_do_update(
            index_elements=["device_type_id", "service", "currency"],
            set_={"price_cents": statement.excluded.price_cents}))


# --- certificates ----------------------------------------------------------------------------------


def _certificate(row: CalibrationCertificateRow) -> Certificate:
    return Certificate(row.id, row.application_id, row.line_index, row.version, CertificateStatus(row.status),
                       content_from_json(row.content), row.created_at, row.number, row.device_id,
                       row.issued_on, row.issued_at, row.superseded_at, row.amendment)


class SqlAlchemyCertificateRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _rows(self, query: Select[CalibrationCertificateRow]) -> list[Certificate]:
        return [_certificate(r) for r in self._s.scalars(query.execution_options(populate_existing=True))]

    def _move(self, certificate_id: int, source: CertificateStatus, **values: Any) -> bool:
        return bool(rows_written(self._s.execute(update(_C).where(_C.id == certificate_id, _C.status == int(source))
                                                 .values(**values))))

    def add(self, certificate: Certificate) -> Certificate:
        c = certificate
        row = CalibrationCertificateRow(
            application_id=c.application_id, line_index=c.line_index, version=c.version, status=int(c.status),
            number=c.number, device_id=c.device_id, content=content_json(c.content), created_at=c.created_at,
            issued_on=c.issued_on, issued_at=c.issued_at, superseded_at=c.superseded_at, amendment=c.amendment)
        self._s.add(row)
        self._s.flush()
        return replace(c, id=row.id)

    def get(self, certificate_id: int) -> Certificate | None:
        found = self._rows(select(_C).where(_C.id == certificate_id))
        return found[0] if found else None

    def of_application(self, application_id: int) -> list[Certificate]:
        return self._rows(select(_C).where(_C.application_id == application_id).order_by(_C.line_index, _C.version))

    def latest(self, application_id: int, line_index: int) -> Certificate | None:
        found = self._rows(select(_C).where(_C.application_id == application_id, _C.line_index == line_index)
                           .order_by(_C.version.desc()).limit(1))
        return found[0] if found else None

    def update_draft(self, certificate_id: int, content: CertificateContent) -> bool:
        return self._move(certificate_id, CertificateStatus.DRAFT, content=content_json(content))

    def issue(self, certificate_id: int, number: str, issued_on: date, at: datetime) -> bool:
        return self._move(certificate_id, CertificateStatus.DRAFT, status=int(CertificateStatus.ISSUED),
                          number=number, issued_on=issued_on, issued_at=at)

    def supersede(self, certificate_id: int, at: datetime) -> bool:
        return self._move(certificate_id, CertificateStatus.ISSUED, status=int(CertificateStatus.SUPERSEDED),
                          superseded_at=at)


class SqlAlchemyCertificateNumbers:
    def __init__(self, session: Session) -> None:
        self._s = session

    def next_sequence(self, year: int) -> int:
        # One statement on both backends: the year's row is made at 1 or incremented, and stays
        # locked until the transaction ends (a PostgreSQL row lock; SQLite's one writer), so a
        # concurrent issue waits and then counts on; a rollback gives its number back.
        statement: Insert = upsert(self._s, CertificateSequenceRow).values(year=year, last=1)
        statement = statement.on_conflict_do_update(  # type: ignore[attr-defined]
            index_elements=["year"], set_={"last": CertificateSequenceRow.last + 1})
        sequence = self._s.execute(statement.returning(CertificateSequenceRow.last)).scalar_one()
        return int(sequence)


# --- the console's devices -------------------------------------------------------------------------


class SqlAlchemyCalibratedDevices:
    def __init__(self, session: Session) -> None:
        self._s = session

    def changeable(self, account_id: int, device_ids: Sequence[int]) -> dict[int, ConsoleDevice]:
        if not device_ids:
            return {}
        rows = self._s.execute(
            select(DeviceRow.id, DeviceRow.guid, DeviceRow.device_name, DeviceRow.type_id, DeviceTypeRow.type_name)
            .join(DeviceTypeRow, DeviceTypeRow.id == DeviceRow.type_id)
            .where(DeviceRow.id.in_(sorted(set(device_ids))), changeable_by(account_id)))
        return {r.id: ConsoleDevice(r.id, r.guid, r.device_name, r.type_id, r.type_name) for r in rows}

    def calibration(self, device_id: int) -> DeviceCalibration | None:
        row = self._s.execute(
            select(DeviceRow.id, DeviceCalibrationRow.interval_months, DeviceTypeCalibrationRow.interval_months
                   .label("type_months"), DeviceCalibrationRow.calibrated_on, DeviceCalibrationRow.due_on,
                   DeviceCalibrationRow.certificate)
            .outerjoin(DeviceCalibrationRow, DeviceCalibrationRow.device_id == DeviceRow.id)
            .outerjoin(DeviceTypeCalibrationRow, DeviceTypeCalibrationRow.type_id == DeviceRow.type_id)
            .where(DeviceRow.id == device_id)).first()
        if row is None:
            return None
        return DeviceCalibration(row.interval_months, row.type_months, row.calibrated_on, row.due_on, row.certificate)

    def by_guid(self, guid: str) -> int | None:
        # GUIDs are kept as typed; two that differ only in case name no one device (a lab action, so
        # the scan of the upper-cased column is rare)
        found = self._s.scalars(select(DeviceRow.id).where(func.upper(DeviceRow.guid) == guid.strip().upper())
                                .limit(2)).all()
        return found[0] if len(found) == 1 else None

    def visible(self, account_id: int, device_id: int) -> bool:
        return self._s.execute(select(DeviceRow.id).where(DeviceRow.id == device_id, visible_to(account_id))).first() \
            is not None

    def _put(self, device_id: int, **values: Any) -> None:
        statement = upsert(self._s, DeviceCalibrationRow).values(device_id=device_id, **values)
        self._s.execute(statement.on_conflict_do_update(index_elements=["device_id"], set_=values))

    def record(self, device_id: int, calibrated_on: date, due_on: date, certificate: str) -> None:
        self._put(device_id, calibrated_on=calibrated_on, due_on=due_on, certificate=certificate)

    def set_interval(self, device_id: int, months: int | None, due_on: date | None) -> None:
        self._put(device_id, interval_months=months, due_on=due_on)


class SqlAlchemyCalibrationReminders:
    def __init__(self, session: Session) -> None:
        self._s = session

    def candidates(self, since: date, until: date) -> list[DueCandidate]:
        window = (DeviceCalibrationRow.due_on >= since, DeviceCalibrationRow.due_on <= until)
        rows = self._s.execute(
            select(DeviceRow.id, DeviceRow.device_name, DeviceRow.guid, DeviceCalibrationRow.due_on,
                   DeviceRow.owner_account_id, DeviceCalibrationRow.certificate)
            .join(DeviceCalibrationRow, DeviceCalibrationRow.device_id == DeviceRow.id)
            .where(DeviceRow.scrapped_at.is_(None), *window).order_by(DeviceCalibrationRow.due_on, DeviceRow.id)).all()
        sent: dict[int, set[int]] = defaultdict(set)
        if rows:
            for device_id, stage in self._s.execute(
                    select(CalibrationReminderRow.device_id, CalibrationReminderRow.stage)
                    .join(DeviceCalibrationRow, (DeviceCalibrationRow.device_id == CalibrationReminderRow.device_id)
                          & (DeviceCalibrationRow.due_on == CalibrationReminderRow.due_on))
                    .where(*window)):
                sent[device_id].add(stage)
        return [DueCandidate(r.id, r.device_name, r.guid, r.due_on, r.owner_account_id, r.certificate,
                             frozenset(sent[r.id])) for r in rows]

    def record(self, device_id: int, due_on: date, stage: ReminderStage, at: datetime) -> bool:
        # On PostgreSQL an insert of the same key by another transaction waits for it, then does
        # nothing: of two runs, one records the reminder (and posts it).
        statement = (upsert(self._s, CalibrationReminderRow)
                     .values(device_id=device_id, due_on=due_on, stage=int(stage), sent_at=at)
                     .on_conflict_do_nothing().returning(CalibrationReminderRow.device_id))
        return self._s.execute(statement).first() is not None
