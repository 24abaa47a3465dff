from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.alarms.deferral import Deferral
from core.alarms.model import AlarmDevice, AlarmMessage, AlarmRule, AlarmState, Excursion, Handling, TripLimits
from core.alarms.push import PushSetting
from core.devices.access import Access
from core.devices.grants import Grant
from core.devices.ports import DeviceEventRepository
from core.notifications.model import Channel
from core.notifications.ports import OutboxRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction
from core.telemetry.model import Reading


@dataclass(frozen=True)
class RuleListing:
    rule: AlarmRule
    device: AlarmDevice


@dataclass(frozen=True)
class AlarmListing:
    alarm: AlarmMessage
    device: AlarmDevice
    handled_by_name: str | None = None
    access: Access = Access.NONE  # the caller's to the device: a read-only member may not handle it
    state: AlarmState = AlarmState.UNTREATED  # as shown when listed: deferred while a deferral runs
    deferrals: int = 0  # how many times it has been deferred


@dataclass(frozen=True)
class AlarmFilter:
    """The message centre's filters; `since` and `until` bound the time the alarm was raised;
    `state` is the shown one (AlarmState.DEFERRED while a deferral runs, else the stored one)."""

    device_id: int | None = None
    state: int | None = None
    since: datetime | None = None
    until: datetime | None = None


class AlarmRepository(Protocol):
    # --- evaluation and escalation (hot path: each method is one statement for the whole batch) ---

    def rules_of_devices(self, device_ids: Collection[int]) -> list[AlarmRule]:
        """The enabled rules of these devices with their recipients, in one query."""
        ...

    def trip_limits(self, device_ids: Collection[int], since: datetime, until: datetime) -> list[TripLimits]:
        """The limits of the waybills started (in progress or finished) on these devices whose trip
        window meets [since, until], in one query."""
        ...

    def alarm_devices(self, device_ids: Collection[int]) -> dict[int, AlarmDevice]:
        """The devices, locked for the rest of the transaction where the database can, in id order,
        so that two transactions never evaluate or notify for one device at once."""
        ...

    def open_excursions(self, device_ids: Collection[int]) -> dict[tuple[int, str], Excursion]:
        """Open excursions by (device, probe), each with its alarm once raised."""
        ...

    def readings(self, device_ids: Collection[int], since: datetime, limit: int) -> list[Reading]:
        """The devices' stored readings from `since` on (their own instants), the first `limit`."""
        ...

    def last_alarm_ends(self, device_ids: Collection[int], since: datetime) -> dict[int, datetime]:
        """Per device, the latest end of its alarms that ended from `since` on (a device with none is left out)."""
        ...

    def save_excursion(self, excursion: Excursion) -> None: ...
    def remove_excursion(self, device_id: int, probe: str) -> None: ...
    def add_alarm(self, alarm: AlarmMessage) -> None:
        """Store a new alarm message and set its id."""
        ...
    def save_alarm_progress(self, alarm: AlarmMessage) -> None:
        """Its end and extreme value (the only fields evaluation changes on a stored alarm)."""
        ...

    def raise_level(self, alarm_id: int, from_level: int, to_level: int) -> bool:
        """Move an open, untreated alarm with no deferral pending from `from_level` to `to_level`;
        False when it is no longer there (handled, deferred, ended or escalated by someone else), in
        which case nobody is notified twice."""
        ...

    def resume(self, alarm_id: int, deferred_until: datetime, from_level: int, to_level: int) -> bool:
        """Take the end of the alarm's deferral (`deferred_until` as read) and move it from
        `from_level` to `to_level`; False when another transaction took it, or the alarm was
        handled, deferred again or ended meanwhile."""
        ...

    def consume_count(self, device_id: int, channel: Channel) -> bool:
        """Take one of the device's prepaid SMS (PHONE) or voice (VOICE) counts; False when none is
        left. Never goes below zero, whatever runs at the same time."""
        ...

    def refresh_alarm_state(self, device_ids: Collection[int]) -> None:
        """alarm_state 1 for the devices with an alarm that has not ended, else 0."""
        ...

    def escalation_candidates(self, now: datetime) -> list[AlarmMessage]:
        """Open, untreated alarms of enabled rules that are below the rule's top level with no
        deferral pending, or whose deferral has ended by `now`."""
        ...

    def rules(self, rule_ids: Collection[int]) -> dict[int, AlarmRule]: ...

    # --- rules ---

    def device_grant(self, account_id: int, device_id: int) -> Grant:
        """The account's grant on the device; nothing also when there is no such device."""
        ...

    def push_setting(self, device_id: int) -> PushSetting | None:
        """The device's stored push settings; None: it has none (the defaults apply)."""

    def save_push_setting(self, setting: PushSetting) -> None:
        """Insert or replace the device's push settings."""

    def rule(self, rule_id: int) -> AlarmRule | None: ...
    def rule_listing(self, rule_id: int) -> RuleListing | None: ...
    def rule_exists(self, device_id: int, probe: str, except_id: int | None = None) -> bool: ...
    def holding_asset(self, device_id: int) -> str | None:
        """The name of the disabled asset the device belongs to, if it does."""
        ...
    def add_rule(self, rule: AlarmRule) -> None:
        """Store it with its recipients and set its id; AlarmRuleExists when the probe already has one."""
        ...
    def save_rule(self, rule: AlarmRule) -> None:
        """Its fields, and its recipients replaced."""
        ...
    def delete_rule(self, rule_id: int) -> None: ...
    def close_excursion(self, device_id: int, probe: str, at: datetime) -> None:
        """End the open excursion of the probe: a raised alarm ends at `at`, a pending one is dropped."""
        ...
    def rule_page(self, account_id: int, request: PageRequest, device_id: int | None = None,
                  probe: str | None = None) -> Page[RuleListing]: ...

    # --- the message centre ---

    def alarm_listing(self, alarm_id: int, account_id: int, now: datetime) -> AlarmListing | None:
        """The alarm with `account_id`'s access to its device, whoever may see it; its state as
        shown at `now`."""
        ...
    def alarm_page(self, account_id: int, where: AlarmFilter, request: PageRequest,
                   now: datetime) -> Page[AlarmListing]:
        """Newest first, each with the account's access to its device; states as shown at `now`."""
        ...
    def handle(self, alarm_id: int, handling: Handling, result: str | None, account_id: int,
               at: datetime) -> bool:
        """Mark an untreated alarm treated (approved or refused; a deferral ends); False when it
        was already treated."""
        ...
    def defer(self, deferral: Deferral) -> bool:
        """Defer an untreated alarm until `deferral.deferred_until` (a running deferral is
        replaced) and record the deferral; False when it was already treated."""
        ...
    def deferral_page(self, alarm_id: int, request: PageRequest) -> Page[Deferral]:
        """The alarm's deferrals, newest first."""
        ...
    def count_untreated(self, account_id: int, now: datetime) -> int:
        """Untreated alarms of the devices the account sees, less those deferred at `now`."""
        ...


class AlarmsUnitOfWork(Transaction, Protocol):
    """The alarms' transaction: their repository, and the outbox their alerts are sent through."""

    @property
    def alarms(self) -> AlarmRepository: ...
    @property
    def outbox(self) -> OutboxRepository: ...
    @property
    def device_events(self) -> DeviceEventRepository: ...  # a change of limits is a line of the device's log
