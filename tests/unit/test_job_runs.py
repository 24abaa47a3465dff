from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.jobs.model import Outcome
from core.jobs.use_cases import ListJobRuns, OverdueJobs, PruneJobRuns, RecordedRun
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeUnitOfWork

START = datetime(2026, 6, 1, 4, 0, tzinfo=UTC)


def test_a_run_is_recorded_as_running_while_it_works_then_with_its_outcome():
    uow, clock = FakeUnitOfWork(), MutableClock(START)
    seen_while_running = []

    def job() -> str:
        seen_while_running.extend(uow.job_runs.recent(1))
        clock.advance(seconds=3)
        return "sent 2 message(s)"

    assert RecordedRun(uow, clock)("deliver_messages", job) == "sent 2 message(s)"
    [running] = seen_while_running
    assert (running.outcome, running.finished_at) == (Outcome.RUNNING, None)
    [run] = ListJobRuns(uow)()
    assert (run.name, run.started_at, run.finished_at, run.outcome, run.detail, run.error) == (
        "deliver_messages", START, START + timedelta(seconds=3), Outcome.SUCCEEDED, "sent 2 message(s)", None)


def test_a_failed_run_is_recorded_with_its_error_and_the_error_is_raised_for_a_retry():
    uow, clock = FakeUnitOfWork(), MutableClock(START)

    def job() -> str:
        raise ConnectionError("database unreachable")

    with pytest.raises(ConnectionError):
        RecordedRun(uow, clock)("escalate_alarms", job)
    [run] = ListJobRuns(uow)()
    assert (run.outcome, run.error, run.finished_at) == (Outcome.FAILED, "ConnectionError: database unreachable",
                                                         START)


def test_runs_older_than_two_weeks_are_forgotten():
    uow, clock = FakeUnitOfWork(), MutableClock(START)
    record = RecordedRun(uow, clock)
    record("old", lambda: None)
    clock.advance(days=10)
    record("recent", lambda: None)
    clock.advance(days=5)
    assert PruneJobRuns(uow, clock)() == 1
    assert [r.name for r in ListJobRuns(uow)()] == ["recent"]


def test_jobs_that_never_ran_or_last_started_a_period_ago_are_overdue_and_the_others_not():
    uow, clock = FakeUnitOfWork(), MutableClock(START)
    RecordedRun(uow, clock)("purge_expired_readings", lambda: "deleted nothing")
    RecordedRun(uow, clock)("escalate_alarms", lambda: "escalated 0")
    periods = {"purge_expired_readings": timedelta(days=1), "escalate_alarms": timedelta(minutes=1),
               "send_expiry_reminders": timedelta(hours=1)}

    clock.advance(seconds=59)
    assert OverdueJobs(uow, clock)(periods) == ["send_expiry_reminders"]
    clock.advance(seconds=1)
    assert OverdueJobs(uow, clock)(periods) == ["escalate_alarms", "send_expiry_reminders"]
    clock.advance(hours=23, minutes=59)
    assert OverdueJobs(uow, clock)(periods) == ["purge_expired_readings", "escalate_alarms", "send_expiry_reminders"]
