"""How an export ends and who is told: the owner's system message when it is ready or fails, in
the transaction that ends it and only once; the job's hook and the sweep end only open exports;
a failed export is tried again as a new one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from core.devices.grants import FULL
from core.exports.model import (
    DEVICE_LIST_EXPORT_FAILED,
    EXPORT_FAILED,
    GAVE_UP,
    NEVER_FINISHED,
    Export,
    ExportFormat,
    ExportKind,
    ExportStatus,
)
from core.exports.use_cases import (
    DEVICE_GONE,
    GIVE_UP_AFTER,
    ExportNotFailed,
    FailAbandonedExports,
    FailExport,
    RetryExport,
    RunExport,
    TooManyExports,
)
from core.inbox.model import MessageKind, Recipient
from core.shared.errors import NotFound
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeExportRepository, FakeInbox, FakeOutboxRepository, FakeTransaction

OWNER, STRANGER, DEVICE = 7, 8, 3
START = datetime(2026, 5, 1, 8, tzinfo=UTC)


class Devices:
    """Only the device registry's `visible`: the owner sees DEVICE unless it is gone."""

    def __init__(self) -> None:
        self.gone = False

    def visible(self, account_id: int, device_id: int):
        if self.gone or account_id != OWNER or device_id != DEVICE:
            return None
        return SimpleNamespace(id=DEVICE, name="Freezer 2", grant=FULL)


class Uow(FakeTransaction):
    def __init__(self) -> None:
        self.exports, self.inbox, self.outbox = FakeExportRepository(), FakeInbox(), FakeOutboxRepository()
        self.device_registry = Devices()
        self.inbox.recipients[OWNER] = Recipient("13900000000", "owner@example.com", "de-DE")
        self.commits = 0


class Files:
    def __init__(self) -> None:
        self.discarded = 0

    def create(self, name: str):
        return object()

    def discard(self, handle) -> None:
        self.discarded += 1


@pytest.fixture
def uow() -> Uow:
    return Uow()


@pytest.fixture
def clock() -> MutableClock:
    return MutableClock(START)


def export(uow: Uow, status: ExportStatus = ExportStatus.PENDING, *, kind: ExportKind = ExportKind.READINGS,
           created_at: datetime = START, account_id: int = OWNER, id_: str = "x1") -> Export:
    record = Export(id_, account_id, kind, ExportFormat.PDF, created_at, "en-US", "UTC",
                    device_id=DEVICE if kind is ExportKind.READINGS else None, since=START - timedelta(days=1),
                    until=START, title="Freezer 2" if kind is ExportKind.READINGS else "", status=status)
    uow.exports.add(record)
    return record


def run_export(uow: Uow, clock: MutableClock, notify: bool = True) -> RunExport:
    return RunExport(uow, Files(), None, clock, lambda msgid, language, **p: msgid, b"k", "zh-CN",  # type: ignore[arg-type]
                     notify=notify)


def test_an_export_whose_device_went_away_fails_and_its_owner_is_told_once(uow, clock):
    export(uow)
    uow.device_registry.gone = True
    assert run_export(uow, clock)("x1") == "export x1: abandoned"
    assert run_export(uow, clock)("x1") == "export x1: nothing to do"
    stored = uow.exports.get("x1")
    assert stored is not None and (stored.status, stored.error) == (ExportStatus.FAILED, DEVICE_GONE)
    [message] = uow.inbox.rows
    assert (message.account_id, message.kind, message.template) == (OWNER, MessageKind.EXPORT, EXPORT_FAILED)
    assert message.params == {"device": "Freezer 2", "format": "PDF", "reason": DEVICE_GONE, "exportId": "x1"}
    assert uow.outbox.rows == []  # export messages go by no other channel unless the owner chose one


def test_a_scheduled_reports_file_that_fails_tells_nobody_in_the_inbox(uow, clock):
    export(uow)
    uow.device_registry.gone = True
    run_export(uow, clock, notify=False)("x1")
    assert uow.exports.rows["x1"].status is ExportStatus.FAILED and uow.inbox.rows == []


def test_the_hook_fails_an_open_export_and_leaves_an_ended_or_unknown_one(uow, clock):
    export(uow, ExportStatus.RUNNING, kind=ExportKind.DEVICE_LIST)
    export(uow, ExportStatus.READY, id_="done")
    fail = FailExport(uow, clock, "zh-CN")
    assert fail("x1") is True
    assert fail("x1") is False and fail("done") is False and fail("nope") is False
    assert uow.exports.rows["x1"].error == GAVE_UP and uow.exports.rows["done"].status is ExportStatus.READY
    [message] = uow.inbox.rows
    assert (message.template, message.params["reason"]) == (DEVICE_LIST_EXPORT_FAILED, GAVE_UP)


def test_a_job_that_comes_back_after_the_export_failed_writes_nothing(uow, clock):
    export(uow, ExportStatus.RUNNING)
    FailExport(uow, clock, "zh-CN")("x1")
    assert run_export(uow, clock)("x1") == "export x1: nothing to do"
    assert len(uow.inbox.rows) == 1


def test_the_sweep_fails_only_the_exports_open_past_the_deadline_once_each(uow, clock):
    export(uow, ExportStatus.PENDING, id_="old", created_at=START)
    export(uow, ExportStatus.RUNNING, id_="older", created_at=START - timedelta(hours=1))
    export(uow, ExportStatus.READY, id_="ready", created_at=START - timedelta(hours=1))
    clock.advance(seconds=GIVE_UP_AFTER.total_seconds())
    export(uow, ExportStatus.PENDING, id_="young", created_at=clock.now() - timedelta(minutes=5))
    sweep = FailAbandonedExports(uow, clock, "zh-CN")
    assert sweep() == 1  # "old" is exactly at the deadline: not yet
    clock.advance(seconds=1)
    assert sweep() == 1 and sweep() == 0
    statuses = {k: (e.status, e.error) for k, e in uow.exports.rows.items()}
    assert statuses == {"old": (ExportStatus.FAILED, NEVER_FINISHED), "older": (ExportStatus.FAILED, NEVER_FINISHED),
                        "ready": (ExportStatus.READY, None), "young": (ExportStatus.PENDING, None)}
    assert [m.params["exportId"] for m in uow.inbox.rows] == ["older", "old"]


def test_a_failed_export_is_tried_again_as_a_new_one_and_the_failed_one_goes(uow, clock):
    failed = export(uow, ExportStatus.FAILED)
    clock.advance(days=1)
    retried = RetryExport(uow, clock)(OWNER, "x1")
    assert retried.id != "x1" and list(uow.exports.rows) == [retried.id]
    assert (retried.status, retried.created_at, retried.error) == (ExportStatus.PENDING, clock.now(), None)
    assert (retried.since, retried.until, retried.format, retried.title) == (failed.since, failed.until,
                                                                             failed.format, "Freezer 2")


def test_only_the_owners_failed_export_is_tried_again_within_the_limit(uow, clock):
    export(uow, ExportStatus.READY, id_="ready")
    export(uow, ExportStatus.FAILED, id_="theirs", account_id=STRANGER)
    retry = RetryExport(uow, clock)
    with pytest.raises(ExportNotFailed):
        retry(OWNER, "ready")
    with pytest.raises(NotFound):
        retry(OWNER, "theirs")
    export(uow, ExportStatus.FAILED, id_="gone")
    uow.device_registry.gone = True
    with pytest.raises(NotFound):
        retry(OWNER, "gone")
    uow.device_registry.gone = False
    for n in range(3):
        export(uow, ExportStatus.RUNNING, id_=f"busy{n}")
    with pytest.raises(TooManyExports):
        retry(OWNER, "gone")
    assert uow.exports.rows["gone"].status is ExportStatus.FAILED  # refused: nothing changed
