"""Helpers for alarm tests: readings through the real ingest transaction, and what it left behind."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from sqlalchemy import select, update

from adapters.persistence.models import AlarmMessageRow, DeviceRow, OutboxMessageRow
from core.telemetry.model import Reading
from core.telemetry.use_cases import StoreReadings

FRIDGE = "RCW360A0000003"  # alice's vaccine fridge logger: demo rule 2-8 °C, 5 min, levels 0/15/30
COLD_ROOM_A = "RCW360A0000001"
WAREHOUSE = "CR2B000000001"  # acme's, seen by bob through the organization
TRUCK = "LOGET8A0000001"  # alice's, no alarm rule


def device_id(container, guid: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(DeviceRow.id).where(DeviceRow.guid == guid))


def device(container, guid: str) -> DeviceRow:
    with container.session_factory()() as session:
        return session.scalars(select(DeviceRow).where(DeviceRow.guid == guid)).one()


def set_counts(container, guid: str, sms: int | None = None, voice: int | None = None) -> None:
    values = {k: v for k, v in (("sms_count", sms), ("voice_count", voice)) if v is not None}
    with container.session_factory()() as session:
        session.execute(update(DeviceRow).where(DeviceRow.guid == guid).values(**values))
        session.commit()


def store(container, readings: list[Reading]) -> None:
    """One ingest batch: readings stored, live state updated and alarms evaluated in one transaction."""
    StoreReadings(container.uow(), container.clock(), container.evaluate_alarms())(readings)


def report(container, guid: str, start: datetime, *points: tuple[float, float | None],
           humidity: float | None = 55.0) -> None:
    """Temperatures of one device at minutes after `start`, as one batch."""
    did = device_id(container, guid)
    store(container, [Reading(did, start + timedelta(minutes=m), t, humidity) for m, t in points])


def alarms(container, guid: str | None = None) -> list[AlarmMessageRow]:
    with container.session_factory()() as session:
        query = select(AlarmMessageRow).order_by(AlarmMessageRow.id)
        if guid is not None:
            query = query.where(AlarmMessageRow.device_id == device_id(container, guid))
        return list(session.scalars(query))


def outbox(container, template_prefix: str = "alarm_") -> list[OutboxMessageRow]:
    with container.session_factory()() as session:
        return list(session.scalars(select(OutboxMessageRow).where(OutboxMessageRow.template.startswith(
            template_prefix)).order_by(OutboxMessageRow.id)))


def sent(container) -> list[tuple[str, str]]:
    """(channel, recipient) of every alarm alert written to the outbox."""
    return [(m.channel, m.recipient) for m in outbox(container)]


def escalate_twice_at_once(container) -> list[int]:
    """Two escalation runs released together; each one's count of alarms escalated, sorted."""
    barrier = threading.Barrier(2)

    def escalate(_) -> int:
        barrier.wait()
        return container.escalate_alarms()()

    with ThreadPoolExecutor(2) as pool:
        return sorted(pool.map(escalate, range(2)))
