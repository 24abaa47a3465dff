"""The scheduled-report job against a real SMTP server (aiosmtpd, started here): the due period's
files reach every recipient as attachments that open, a second run sends nothing more, a mail the
server refuses is retried for that recipient only, files too big to attach become a link to the
download centre, and a device no longer visible is skipped and said so. SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import socket
import threading
from collections.abc import Iterator
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from dependency_injector import providers
from openpyxl import load_workbook
from sqlalchemy import select, update

from adapters.notifications.smtp import SmtpEmailSender, SmtpReportMailer
from adapters.persistence.models import AccountRow, ExportRow, ReportRunRow, ReportScheduleRow
from core.exports.model import ExportFormat
from core.reports.model import Frequency
from core.reports.use_cases import MailNotSent, ScheduleInput
from entrypoints.jobs.catalogue import BY_NAME
from tests.support.alarms import device_id

aiosmtpd_controller = pytest.importorskip("aiosmtpd.controller")

pytestmark = pytest.mark.usefixtures("demo")
COLD_ROOM_A, COLD_ROOM_B, WAREHOUSE = "RCW360A0000001", "RCW360A0000002", "CR2B000000001"


class Sink:
    """What the SMTP server received; `refuse` names recipients it answers 451 for, once each."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], EmailMessage]] = []
        self.refuse: set[str] = set()
        self._lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        if address in self.refuse:
            self.refuse.discard(address)
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        with self._lock:
            mail = message_from_bytes(envelope.content, policy=policy.default)
            self.mails.append((list(envelope.rcpt_tos), mail))  # type: ignore[arg-type]
        return "250 Message accepted for delivery"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def _noon(app) -> None:
    """Every test starts at noon UTC, before the demo's readings are written: a report covers the
    schedule's (Berlin) day before, and a seed just after midnight there ends its history (two hours
    before now) on the day before that, leaving the report only its headings."""
    now = app.clock.now()
    app.clock.advance(seconds=(now.replace(hour=12, minute=0, second=0) - now).total_seconds())


@pytest.fixture
def sink(container) -> Iterator[Sink]:
    sink = Sink()
    port = _free_port()
    controller = aiosmtpd_controller.Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    sender = SmtpEmailSender(f"smtp://127.0.0.1:{port}", "Coldchain <reports@coldchain.example>",
                             container.translator(), timeout_s=5)
    container.report_mailer.override(providers.Object(SmtpReportMailer(sender)))
    try:
        yield sink
    finally:
        container.report_mailer.reset_override()
        controller.stop()


def owner_of(container, guid: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(AccountRow.id).where(AccountRow.user_name == guid))


def schedule_for(container, fmt: ExportFormat, recipients: list[str], *guids: str) -> int:
    alice = owner_of(container, "alice")
    with container.session_factory()() as session, session.begin():
        session.execute(update(AccountRow).where(AccountRow.id == alice).values(time_zone="Europe/Berlin",
                                                                               language="de-DE"))
    created = container.create_schedule()(alice, ScheduleInput(
        "Kühlraum", Frequency.DAILY, [device_id(container, g) for g in guids], fmt, recipients))
    assert created.id is not None
    return created.id


def job(container) -> str:
    return BY_NAME["send_scheduled_reports"].run(container)


def runs(container) -> list[ReportRunRow]:
    with container.session_factory()() as session:
        return list(session.scalars(select(ReportRunRow).order_by(ReportRunRow.id)))


def attachments(mail: EmailMessage) -> dict[str, bytes]:
    return {part.get_filename(): part.get_content() for part in mail.iter_attachments()}


def test_the_days_csv_reaches_every_recipient_once_and_opens(container, clock, sink):
    schedule_for(container, ExportFormat.CSV, ["qa@example.com", "Boss@Example.com"], COLD_ROOM_A)
    assert job(container) == "sent 0 report(s)"  # today is not over: nothing is due yet
    clock.advance(days=1)
    assert job(container) == "sent 1 report(s)"
    assert sorted(r for rcpts, _ in sink.mails for r in rcpts) == ["Boss@Example.com", "qa@example.com"]
    rcpts, mail = sink.mails[0]
    assert "Kühlraum" in mail["Subject"]
    files = attachments(mail)
    [(name, content)] = files.items()
    assert name.startswith("Cold_room_A_logger_") and name.endswith(".csv")
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig") if isinstance(content, bytes) else content)))
    assert any(len(row) >= 2 and row[0][:4].isdigit() for row in rows), rows[:12]  # readings, not only headings
    assert "Europe/Berlin" in mail.get_body(("plain",)).get_content()
    [run] = runs(container)
    assert (run.outcome, run.attempts, sorted(run.sent_to)) == ("ok", 1, ["Boss@Example.com", "qa@example.com"])
    period_start = run.period_start
    assert job(container) == "sent 0 report(s)"  # run again in the same day: nothing more
    assert len(sink.mails) == 2 and len(runs(container)) == 1
    clock.advance(days=1)
    assert job(container) == "sent 1 report(s)"  # the next day is the next period
    assert len(sink.mails) == 4 and runs(container)[-1].period_start == period_start + timedelta(days=1)


def test_an_xlsx_refused_by_the_server_is_retried_for_that_recipient_only(container, clock, sink):
    schedule_for(container, ExportFormat.XLSX, ["first@example.com", "second@example.com"], COLD_ROOM_A)
    clock.advance(days=1)
    sink.refuse.add("second@example.com")
    with pytest.raises(MailNotSent):
        job(container)
    [run] = runs(container)
    assert (run.outcome, run.sent_to, run.finished_at) == ("running", ["first@example.com"], None)
    assert run.error
    assert job(container) == "sent 1 report(s)"
    assert [rcpts for rcpts, _ in sink.mails] == [["first@example.com"], ["second@example.com"]]
    with container.session_factory()() as session:
        assert session.query(ExportRow).count() == 1  # the file was written once, not per attempt
    [(name, content)] = attachments(sink.mails[1][1]).items()
    rows = list(load_workbook(io.BytesIO(content)).active.iter_rows(values_only=True))
    assert name.endswith(".xlsx") and len(rows) > 10
    [run] = runs(container)
    assert (run.outcome, run.attempts) == ("ok", 2)


def test_too_big_to_attach_links_to_the_download_centre_and_a_gone_device_is_said(container, clock, sink,
                                                                                   monkeypatch):
    monkeypatch.setattr("core.reports.use_cases.ATTACH_LIMIT", 100)
    schedule_id = schedule_for(container, ExportFormat.CSV, ["qa@example.com"], COLD_ROOM_A, COLD_ROOM_B)
    stranger = device_id(container, WAREHOUSE)  # acme's: alice never sees it
    with container.session_factory()() as session, session.begin():
        row = session.get_one(ReportScheduleRow, schedule_id)
        session.execute(update(ReportScheduleRow).where(ReportScheduleRow.id == schedule_id).values(
            device_ids=[*row.device_ids, stranger]))
    clock.advance(days=1)
    assert job(container) == "sent 1 report(s)"
    [(_, mail)] = sink.mails
    assert list(mail.iter_attachments()) == []
    body = mail.get_body(("plain",)).get_content()
    assert "/consumer/download" in body
    assert "no longer visible" not in body and "Kühlraum" in body  # in alice's German
    [run] = runs(container)
    assert run.outcome == "partial"
    assert [f["device_id"] for f in run.files] == [device_id(container, COLD_ROOM_A),
                                                   device_id(container, COLD_ROOM_B), stranger]
    assert run.files[-1]["export_id"] is None and run.files[-1]["error"]


def test_periods_missed_while_the_job_was_down_are_each_sent_once_the_last_three_at_most(container, clock, sink):
    schedule_for(container, ExportFormat.CSV, ["qa@example.com"], COLD_ROOM_A)
    clock.advance(days=1)
    assert job(container) == "sent 1 report(s)"
    clock.advance(days=6)  # the job did not run for six days: six periods are due
    assert job(container) == "sent 3 report(s)"
    assert job(container) == "sent 0 report(s)"  # run again: nothing twice
    recorded = runs(container)
    starts = [r.period_start for r in recorded]
    assert len(recorded) == 4 and all(r.outcome == "ok" for r in recorded)
    assert starts[1:] == [starts[0] + timedelta(days=d) for d in (4, 5, 6)]  # the latest three, oldest first
    assert len(sink.mails) == 4
    clock.advance(days=1)
    assert job(container) == "sent 1 report(s)"  # back to one period a day
    assert len(runs(container)) == 5 and len(sink.mails) == 5
