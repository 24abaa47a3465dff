"""Readings are kept three months after a device's service expires (spec seed 001 section 9);
`coldchain retention` deletes what is older, in bounded batches. Retention waits while FDA mode
keeps a device's records (21 CFR Part 11, core.fda): its readings stay until FDA mode is off."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial

from core.devices.model import DATA_KEPT_MONTHS, add_months, data_kept_until
from core.devices.ports import DevicesUnitOfWork
from core.devices.registry import delete_all_readings
from core.shared.clock import Clock

BATCH_SIZE = 10_000
ORPHAN_ROUNDS = 10


@dataclass
class RetentionReport:
    devices: int = 0  # devices whose readings were trimmed
    readings: int = 0
    orphans: int = 0  # readings of devices that no longer exist
    kept: int = 0  # devices past retention whose readings FDA mode keeps
    per_device: dict[int, int] = field(default_factory=dict)


def _kept_by_fda(uow: DevicesUnitOfWork, device_id: int) -> bool:
    return uow.fda_switches.is_on_for_device(device_id)


class PurgeExpiredReadings:
    """For each device whose service expired more than three months ago, delete its readings
    taken before expiry + 3 months, unless FDA mode is on for its records (asked again in each
    batch's transaction, so switching it on stops a purge under way); then the readings left
    behind by deleted devices. Each batch is its own transaction, so ingest and the console are
    never held up for long."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock, batch_size: int = BATCH_SIZE) -> None:
        self._uow, self._clock, self._batch_size = uow, clock, batch_size

    def __call__(self) -> RetentionReport:
        now = self._clock.now()
        report = RetentionReport()
        # a few days of slack for months of unequal length; the exact date is checked below
        expired_before = add_months(now, -DATA_KEPT_MONTHS) + timedelta(days=4)
        with self._uow as uow:
            candidates = uow.device_registry.retention_candidates(expired_before)
        for device_id, expires_at in candidates:
            kept_until = data_kept_until(expires_at)
            if kept_until is None or kept_until > now:
                continue
            with self._uow as uow:
                if uow.fda_switches.is_on_for_device(device_id):
                    report.kept += 1
                    continue
            deleted = delete_all_readings(self._uow, device_id, kept_until, self._batch_size,
                                          kept=partial(_kept_by_fda, device_id=device_id))
            if deleted:
                report.devices += 1
                report.readings += deleted
                report.per_device[device_id] = deleted
        for _ in range(ORPHAN_ROUNDS):  # bounded: a worker may still be writing for a deleted device
            with self._uow as uow:
                orphans = list(uow.history.orphan_device_ids(100))
            if not orphans:
                break
            for device_id in orphans:
                report.orphans += delete_all_readings(self._uow, device_id, None, self._batch_size)
        return report
