"""Every job: what it runs (a use case built from the container) and how often beat sends it.
Each is idempotent, so a job sent twice, or run again after its worker died, changes nothing
more than once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from celery.schedules import crontab

from adapters.persistence.partitions import ensure_reading_partitions
from entrypoints.container import Container

DELIVERY_BATCH = 50
DELIVERY_ROUNDS = 20  # at most 1000 messages a run; the next run takes the rest


@dataclass(frozen=True)
class Job:
    name: str
    run: Callable[[Container], str]  # returns what it did, in a few words, for the record
    every: float | crontab  # seconds between two runs, or a time of day (UTC)
    # For a time of day: the longest gap between two runs, after which beat's start runs it at once.
    catch_up_after: timedelta | None = None

    @property
    def period(self) -> timedelta:
        if isinstance(self.every, float):
            return timedelta(seconds=self.every)
        assert self.catch_up_after is not None, f"{self.name} runs at a time of day: say when it is overdue"
        return self.catch_up_after

    @property
    def task_name(self) -> str:
        return f"coldchain.{self.name}"


def escalate_alarms(container: Container) -> str:
    return f"escalated or reminded {container.escalate_alarms()()} alarm(s)"


def deliver_messages(container: Container) -> str:
    sent = 0
    for _ in range(DELIVERY_ROUNDS):
        batch = container.deliver_messages()(DELIVERY_BATCH)
        sent += batch
        if batch < DELIVERY_BATCH:
            break
    return f"sent {sent} message(s)"


def sign_agreements(container: Container) -> str:
    return f"signed={container.sign_agreements()()}"


def charge_due_agreements(container: Container) -> str:
    run = container.charge_due_agreements()()
    return (f"reminded={run.reminded} charged={run.charged} failed={run.failed} ended={run.ended} "
            f"pending={run.pending}")


def resume_refunds(container: Container) -> str:
    return f"resumed={container.resume_refunds()()}"


def reconcile_payments(container: Container) -> str:
    outcome = container.reconcile_payments()()
    return (f"settled {outcome.settled}, closed {outcome.closed}, still unpaid {outcome.unpaid}, "
            f"failed {outcome.failed}")


def send_expiry_reminders(container: Container) -> str:
    return f"reminded the owners of {container.send_expiry_reminders()()} device(s)"


def purge_expired_readings(container: Container) -> str:
    report = container.purge_readings()()
    return (f"deleted {report.readings} readings of {report.devices} devices past retention and "
            f"{report.orphans} readings of deleted devices; FDA mode keeps the readings of {report.kept} devices")


def ensure_partitions(container: Container) -> str:
    return f"created {ensure_reading_partitions(container.engine())} reading partition(s)"


def purge_expired_exports(container: Container) -> str:
    return f"deleted {container.purge_exports()()} export(s) older than a week"


def fail_abandoned_exports(container: Container) -> str:
    return f"failed {container.fail_abandoned_exports()()} export(s) that will never be written"


def send_scheduled_reports(container: Container) -> str:
    return container.send_due_reports()()


def run_due_waybills(container: Container) -> str:
    started, finished = container.run_due_waybills()()
    return f"started {started} and finished {finished} waybill(s) at their planned times"


def send_calibration_reminders(container: Container) -> str:
    return f"reminded the owners of {len(container.send_calibration_reminders()())} device(s) of a calibration due"


def resume_calibration_refunds(container: Container) -> str:
    states = list(container.resume_calibration_refunds()().values())
    counts = ", ".join(f"{states.count(s)} {s.name.lower()}" for s in dict.fromkeys(states))
    return f"asked again {len(states)} calibration refund(s)" + (f": {counts}" if counts else "")


def prune_job_runs(container: Container) -> str:
    return f"forgot {container.prune_job_runs()()} run(s) older than two weeks"


JOBS = (
    # Levels whose time has come and reminders after a deferral: within a minute.
    Job("escalate_alarms", escalate_alarms, 60.0),
    # Waybills whose planned start or stop has come (each at its planned time, however late the run).
    Job("run_due_waybills", run_due_waybills, 60.0),
    # The outbox: alarm alerts written by ingest and escalation, reminders, codes a view could not hand over.
    Job("deliver_messages", deliver_messages, 15.0),
    Job("reconcile_payments", reconcile_payments, 60.0),
    Job("resume_refunds", resume_refunds, 5 * 60.0),
    # Refunds of cancelled calibration applications the provider has not paid yet (same refund code: once).
    Job("resume_calibration_refunds", resume_calibration_refunds, 5 * 60.0),
    Job("sign_agreements", sign_agreements, 60.0),
    Job("charge_due_agreements", charge_due_agreements, 15 * 60.0),
    Job("send_expiry_reminders", send_expiry_reminders, crontab(minute=5), timedelta(hours=1)),
    # Calibration due dates are days in the lab's zone: hourly, so a day's reminder goes out early in it.
    Job("send_calibration_reminders", send_calibration_reminders, crontab(minute=35), timedelta(hours=1)),
    Job("purge_expired_readings", purge_expired_readings, crontab(hour=3, minute=30), timedelta(days=1)),
    Job("ensure_reading_partitions", ensure_partitions, 6 * 3600.0),
    # Files of the download centre a week old; hourly, so none stays much past its expiry shown.
    Job("purge_expired_exports", purge_expired_exports, crontab(minute=20), timedelta(hours=1)),
    # Exports whose job will never end them (see FailAbandonedExports): they fail hours late at
    # worst, so a quarter of an hour more is nothing, and the sweep is one indexed query.
    Job("fail_abandoned_exports", fail_abandoned_exports, 15 * 60.0),
    # Scheduled reports: a period is due from the owner's local midnight; a quarter of an hour
    # late at most, and a run whose mail failed is resumed by Celery's retries or the next run.
    Job("send_scheduled_reports", send_scheduled_reports, 15 * 60.0),
    Job("prune_job_runs", prune_job_runs, crontab(hour=4, minute=10), timedelta(days=1)),
)
BY_NAME = {job.name: job for job in JOBS}

# Jobs sent with an argument on demand, never on a clock: each writes one export (its id).
RUN_EXPORT = "run_export"


def run_export(container: Container, export_id: str) -> str:
    return container.run_export()(export_id)
