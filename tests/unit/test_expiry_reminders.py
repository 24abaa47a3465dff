from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import cast

import pytest

from core.devices.expiry import LIFELONG_EXPIRY
from core.devices.expiry_reminders import (
    SERVICE_EXPIRED,
    SERVICE_EXPIRING,
    ReminderCandidate,
    ReminderStage,
    due_stage,
)
from core.devices.ports import DevicesUnitOfWork
from core.devices.send_reminders import SendExpiryReminders
from core.inbox.model import MessageKind, Recipient
from core.notifications.model import Channel
from core.shared.edition import Edition
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeUnitOfWork

EXPIRES = datetime(2026, 6, 1, 4, 0, tzinfo=UTC)  # 12:00 in Shanghai, the domestic edition's zone
DAY, TICK = timedelta(days=1), timedelta(microseconds=1)


@pytest.mark.parametrize("before_expiry,stage", [
    (timedelta(days=31), None), (timedelta(days=30) + TICK, None), (timedelta(days=30), ReminderStage.DAYS_30),
    (timedelta(days=8), ReminderStage.DAYS_30), (timedelta(days=7), ReminderStage.DAYS_7),
    (timedelta(days=2), ReminderStage.DAYS_7), (DAY, ReminderStage.DAY_1), (TICK, ReminderStage.DAY_1),
    (timedelta(0), ReminderStage.EXPIRED), (-timedelta(days=2), ReminderStage.EXPIRED),
    (-timedelta(days=3), None), (-timedelta(days=400), None),
])
def test_the_most_urgent_stage_reached_is_due(before_expiry, stage):
    assert due_stage(EXPIRES, EXPIRES - before_expiry) == stage


def test_lifelong_service_is_never_reminded():
    assert due_stage(LIFELONG_EXPIRY, LIFELONG_EXPIRY - DAY) is None


def device(device_id: int = 1, expires_at: datetime = EXPIRES, phone: str | None = "13912345678",
           email: str | None = "owner@example.com", language: str | None = "en-US",
           channels: dict | None = None) -> tuple[ReminderCandidate, Recipient]:
    """A device and its owner (account id 100 + device id)."""
    return (ReminderCandidate(device_id, f"Freezer {device_id}", f"GUID{device_id:08d}", expires_at, 100 + device_id,
                              None), Recipient(phone, email, language, channels or {}))


class World:
    def __init__(self, *devices: tuple[ReminderCandidate, Recipient],
                 now: datetime = EXPIRES - timedelta(days=40)) -> None:
        self.uow, self.clock = FakeUnitOfWork(), MutableClock(now)
        for d, owner in devices:
            self.uow.expiry_reminders.put(d)
            self.uow.inbox.recipients[d.owner_account_id] = owner
        # The fake holds the two repositories reminders use, not the whole of the devices' unit of work.
        self.send = SendExpiryReminders(cast(DevicesUnitOfWork, self.uow), self.clock, Edition.DOMESTIC)

    def at(self, before_expiry: timedelta) -> int:
        self.clock._now = EXPIRES - before_expiry
        return self.send()

    def messages(self) -> list[tuple[str, Channel, str]]:
        return [(m.template, m.channel, m.recipient) for m in self.uow.outbox.rows]


def test_the_owner_hears_30_7_and_1_days_before_and_on_expiry_once_each_by_sms_and_e_mail():
    world = World(device())
    assert world.at(timedelta(days=31)) == 0
    assert [world.at(timedelta(days=30)), world.at(timedelta(days=29))] == [1, 0]
    assert [world.at(timedelta(days=7)), world.at(timedelta(days=6))] == [1, 0]
    assert [world.at(DAY), world.at(timedelta(hours=1))] == [1, 0]
    assert [world.at(timedelta(0)), world.at(-DAY)] == [1, 0]
    assert world.messages() == [(SERVICE_EXPIRING, Channel.PHONE, "13912345678"),
                                (SERVICE_EXPIRING, Channel.EMAIL, "owner@example.com")] * 3 + [
                               (SERVICE_EXPIRED, Channel.PHONE, "13912345678"),
                               (SERVICE_EXPIRED, Channel.EMAIL, "owner@example.com")]


def test_running_twice_writes_nothing_more():
    world = World(device(1), device(2, EXPIRES + timedelta(days=20)))
    assert world.at(timedelta(days=5)) == 2
    assert world.at(timedelta(days=5)) == 0
    assert len(world.uow.outbox.rows) == 4


def test_a_job_that_did_not_run_for_days_sends_only_the_most_urgent_reminder():
    world = World(device())
    assert world.at(timedelta(hours=20)) == 1
    assert world.at(timedelta(hours=10)) == 0
    assert {m.params["date"] for m in world.uow.outbox.rows} == {"2026-06-01 12:00"}


def test_a_renewal_starts_the_reminders_of_its_new_expiry_over():
    world = World(device())
    assert world.at(timedelta(days=7)) == 1
    renewed = EXPIRES + timedelta(days=365)
    world.uow.expiry_reminders.put(device(expires_at=renewed)[0])
    assert world.at(timedelta(days=6)) == 0  # a year ahead now: nothing due
    world.clock._now = renewed - timedelta(days=7)
    assert world.send() == 1
    assert world.uow.outbox.rows[-1].params["date"] == "2027-06-01 12:00"


def test_messages_go_in_the_owners_language_else_the_editions_and_only_to_contacts_it_has():
    world = World(device(1, language=None, email=None), device(2, language="de-DE", phone=None), device(3, phone=None,
                                                                                                          email=None))
    assert world.at(timedelta(days=3)) == 3  # the owner with no contact at all still finds it in the inbox
    assert [m.account_id for m in world.uow.inbox.rows] == [101, 102, 103]
    assert [(m.channel, m.language) for m in world.uow.outbox.rows] == [(Channel.PHONE, "zh-CN"),
                                                                        (Channel.EMAIL, "de-DE")]
    assert world.uow.outbox.rows[0].params["countryCode"] == "86"


def test_each_reminder_lands_in_the_owners_inbox_as_an_expiry_message():
    world = World(device())
    world.at(timedelta(days=7))
    [message] = world.uow.inbox.rows
    assert (message.account_id, message.kind, message.template) == (101, MessageKind.EXPIRY, SERVICE_EXPIRING)
    assert message.params["date"] == "2026-06-01 12:00" and not message.needs_decision


def test_an_owner_who_turned_sms_off_for_expiry_gets_the_e_mail_and_the_inbox_message_only():
    world = World(device(channels={MessageKind.EXPIRY: frozenset({Channel.EMAIL})}),
                  device(2, channels={MessageKind.EXPIRY: frozenset()}))
    assert world.at(timedelta(days=7)) == 2
    assert world.messages() == [(SERVICE_EXPIRING, Channel.EMAIL, "owner@example.com")]
    assert len(world.uow.inbox.rows) == 2


def test_a_device_whose_owner_is_gone_is_not_counted():
    world = World(device())
    world.uow.inbox.recipients.clear()
    assert world.at(timedelta(days=7)) == 0 and world.uow.outbox.rows == [] and world.uow.inbox.rows == []
