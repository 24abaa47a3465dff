"""Sending the expiry reminders that are due (core/devices/expiry_reminders.py) to the owner's
inbox, and by SMS and e-mail as the owner chose (core.inbox), in the owner's language."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from core.devices.expiry_reminders import (
    AHEAD,
    EXPIRED_NOTICE_WITHIN,
    SERVICE_EXPIRED,
    SERVICE_EXPIRING,
    ReminderCandidate,
    ReminderStage,
    due_stage,
)
from core.devices.ports import DevicesUnitOfWork
from core.inbox.model import MessageKind, SystemMessage
from core.inbox.posting import post
from core.shared.clock import Clock
from core.shared.edition import Edition

log = logging.getLogger(__name__)


class SendExpiryReminders:
    """Writes each due reminder to the outbox with the record that it was sent, in one
    transaction; the record's key (device, expiry, stage) makes a second run, or a run beside
    this one, write nothing more."""

    def __init__(self, uow: DevicesUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock = uow, clock
        profile = edition.profile
        self._language, self._zone = profile.default_language, ZoneInfo(profile.default_time_zone)
        self._country_code = profile.fixed_country_code or profile.default_country_code

    def __call__(self) -> int:
        """The number of devices whose owner was reminded."""
        now = self._clock.now()
        reminded = 0
        with self._uow as uow:
            candidates = uow.expiry_reminders.candidates(now - EXPIRED_NOTICE_WITHIN, now + timedelta(days=AHEAD))
            for candidate in candidates:
                stage = due_stage(candidate.expires_at, now)
                if stage is None or stage in candidate.sent:
                    continue
                if not uow.expiry_reminders.record(candidate.device_id, candidate.expires_at, stage, now):
                    continue  # another run took it
                if post(uow, self.message(candidate, stage, now), self._language) is not None:
                    reminded += 1
            uow.commit()
        if reminded:
            log.info("reminded the owners of %s device(s) of their service's expiry", reminded)
        return reminded

    def message(self, candidate: ReminderCandidate, stage: ReminderStage, now: datetime) -> SystemMessage:
        template = SERVICE_EXPIRED if stage is ReminderStage.EXPIRED else SERVICE_EXPIRING
        params = {"device": candidate.device_name, "guid": candidate.guid,
                  "date": f"{candidate.expires_at.astimezone(self._zone):%Y-%m-%d %H:%M}",
                  "countryCode": candidate.country_code or self._country_code, "deviceId": candidate.device_id}
        return SystemMessage(candidate.owner_account_id, MessageKind.EXPIRY, template, params, now)
