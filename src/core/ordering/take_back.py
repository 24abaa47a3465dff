"""What a refund takes back (issue 19): the rule, pure, that the operator's preview shows and the
refund applies in the same transaction as it reserves the money.

- A refund pays back a share of what the order charged; every line of the order gives back the
  same share of what it gave (the share is cumulative over the order's refunds, so refunds of
  halves take back exactly what one full refund would).
- A service line gives back that share of its months, bonus months included, from the device's
  expiry of now: half of a yearly renewal moves the expiry back six months. Whole months are taken
  as calendar months, a remaining fraction as that share of the month before. The expiry never
  goes below now (the customer is not made to owe time).
- A full refund of a change of level, while the device still has that level and the expiry this
  order gave it, puts the device back as it was before the order (its level and its expiry, or
  now when that has passed).
- A lifelong line gives back nothing on a partial refund (lifelong has no months to share); a full
  refund puts the device back as it was before, as above, while it still has that service.
- SMS and voice counts (of an SMS/voice order, or of an offline purchase beside its level) are
  taken back in that share, rounded so that the refunds of an order together take back exactly
  its counts, but only as far as they are unused: what the device has used stays used (the
  preview says what could not be taken back).
- A device deleted since, or whose service moved on to lifelong elsewhere, gives back nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from fractions import Fraction

from core.devices.expiry import is_lifelong
from core.devices.model import add_months
from core.ordering.model import OrderLine

SECOND = timedelta(seconds=1)


@dataclass(frozen=True)
class DeviceHolding:
    """What a device has now, as taking back reads it (its row locked)."""

    level_id: int | None
    expires_at: datetime | None
    sms_count: int
    voice_count: int


@dataclass(frozen=True)
class TakeBack:
    """What a refund takes from one device, and what the device keeps."""

    device_id: int
    level_before: int | None = None
    expires_before: datetime | None = None
    level_after: int | None = None
    expires_after: datetime | None = None
    months_taken: Fraction = Fraction(0)
    sms_taken: int = 0
    voice_taken: int = 0
    sms_used: int = 0  # what the share would have taken but the device has used
    voice_used: int = 0
    restored: bool = False  # a full refund put the device back as it was before the order

    @property
    def changes_service(self) -> bool:
        return (self.level_after, self.expires_after) != (self.level_before, self.expires_before)


def share(refunded_cents: int, charged_cents: int) -> Fraction:
    """The part of the order paid back so far."""
    return Fraction(refunded_cents, charged_cents) if charged_cents > 0 else Fraction(1)


def minus_months(instant: datetime, months: Fraction) -> datetime:
    """`months` earlier: whole calendar months, then the fraction of the month before."""
    whole = int(months)
    moved = add_months(instant, -whole)
    part = months - whole
    if part == 0:
        return moved
    month = moved - add_months(moved, -1)
    return moved - SECOND * round(part * (month // SECOND))


def take_back(line: OrderLine, device: DeviceHolding | None, before: Fraction, after: Fraction,
              now: datetime) -> TakeBack:
    """What moving the order's refunded share from `before` to `after` takes from the line's
    device (see the module's rules)."""
    if device is None:
        return TakeBack(line.device_id)
    service = _service(line, device, before, after, now)
    return _alerts(service, line, device, before, after) if line.sms_count or line.voice_count else service


def _service(line: OrderLine, device: DeviceHolding, before: Fraction, after: Fraction, now: datetime) -> TakeBack:
    kept = TakeBack(line.device_id, device.level_id, device.expires_at, device.level_id, device.expires_at)
    if device.expires_at is None or line.level_id is None:
        return kept
    if after == 1 and _restorable(line, device):
        assert line.promise is not None
        earlier = line.promise.before
        expires = max(now, earlier.expires_at) if earlier.expires_at is not None else now
        return TakeBack(line.device_id, device.level_id, device.expires_at, earlier.level_id or device.level_id,
                        expires, restored=True)
    if is_lifelong(device.expires_at):
        return kept
    months = (line.months + line.bonus_months) * (after - before)
    expires = max(now, minus_months(device.expires_at, months)) if device.expires_at > now else device.expires_at
    return TakeBack(line.device_id, device.level_id, device.expires_at, device.level_id, expires, months)


def _restorable(line: OrderLine, device: DeviceHolding) -> bool:
    """The device still has exactly what this order gave it: undoing the order is exact."""
    return (line.promise is not None and line.settled_expires_at is not None
            and device.level_id == line.level_id and device.expires_at == line.settled_expires_at
            and (line.promise.before.level_id != line.level_id or is_lifelong(line.settled_expires_at)))


def _counted(total: int, before: Fraction, after: Fraction) -> int:
    """This refund's part of a count: floor(total x after) - floor(total x before), so that the
    parts of several refunds add up to the total exactly."""
    return int(total * after) - int(total * before)


def _alerts(kept: TakeBack, line: OrderLine, device: DeviceHolding, before: Fraction, after: Fraction) -> TakeBack:
    sms, voice = _counted(line.sms_count, before, after), _counted(line.voice_count, before, after)
    sms_taken, voice_taken = min(sms, max(device.sms_count, 0)), min(voice, max(device.voice_count, 0))
    return replace(kept, sms_taken=sms_taken, voice_taken=voice_taken, sms_used=sms - sms_taken,
                   voice_used=voice - voice_taken)
