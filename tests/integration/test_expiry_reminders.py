"""Expiry reminders against the database (both backends): which devices are due, the record that
makes each (device, expiry, stage) go once, and a renewal starting over."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from adapters.persistence.models import DeviceRow, OutboxMessageRow
from core.devices.expiry_reminders import SERVICE_EXPIRED, SERVICE_EXPIRING
from tests.support.alarms import device

COLD_ROOM_B = "RCW360A0000002"  # alice's: its service ends in 20 days in the demo data
DOOR_LOGGER = "RCW360B0000001"  # acme's: in 5 days
# and alice's dock cold room in 60 days; the vaccine fridge expired 15 days ago, too long for a notice


def reminders(container) -> list[tuple[str, str, str, str]]:
    with container.session_factory()() as session:
        rows = session.scalars(select(OutboxMessageRow).where(OutboxMessageRow.template.in_(
            [SERVICE_EXPIRING, SERVICE_EXPIRED])).order_by(OutboxMessageRow.id))
        return [(m.template, m.channel, m.recipient, m.params["guid"]) for m in rows]


def set_expiry(container, guid: str, expires_at) -> None:
    with container.session_factory()() as session:
        session.execute(update(DeviceRow).where(DeviceRow.guid == guid).values(service_expires_at=expires_at))
        session.commit()


def test_the_owner_is_reminded_once_per_stage_and_again_after_a_renewal(recharge_demo):
    container, clock = recharge_demo.container, recharge_demo.clock
    remind = container.send_expiry_reminders()
    assert remind() == 2 and remind() == 0
    assert reminders(container) == [(SERVICE_EXPIRING, "phone", "13800000001", COLD_ROOM_B),
                                     (SERVICE_EXPIRING, "email", "alice@example.com", COLD_ROOM_B),
                                     (SERVICE_EXPIRING, "phone", "13800000002", DOOR_LOGGER),
                                     (SERVICE_EXPIRING, "email", "it@acme.example", DOOR_LOGGER)]
    clock.advance(days=13, hours=1)  # cold room B: 7 days before the end, less an hour; the door logger:
    # expired 8 days ago, when the job did not run: too late for the notice of expiry
    assert remind() == 1 and remind() == 0
    renewed = device(container, COLD_ROOM_B).service_expires_at + timedelta(days=10)
    set_expiry(container, COLD_ROOM_B, renewed)  # 17 days ahead now: its 30-day stage is due for the new date
    assert remind() == 1 and remind() == 0
    clock.advance(days=17)
    assert remind() == 2 and remind() == 0  # cold room B on expiry, and the dock cold room's 30 days

    assert [t for t, channel, _, guid in reminders(container) if channel == "email" and guid == COLD_ROOM_B] == [
        SERVICE_EXPIRING, SERVICE_EXPIRING, SERVICE_EXPIRING, SERVICE_EXPIRED]
    assert len(reminders(container)) == 12
