"""Alarm rules of the devices a caller can see: list and read them; add, change and delete them
where the caller may change the device. Where FDA mode is on for the device, a change of its rules
(its alarm limits) is signed in the change's transaction: the signature binds the device's
parameters and limits as they then stand (record "deviceParams")."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from core.alarms.commands import CLEARABLE, SETTINGS, AddAlarmRule, ChangeAlarmRule
from core.alarms.model import AlarmRule, Recipient
from core.alarms.ports import AlarmsUnitOfWork, RuleListing
from core.alarms.validation import rule_problems
from core.devices.events import DeviceEvent, DeviceEventKind
from core.devices.grants import Element, Grant, permit
from core.fda.model import DEVICE_PARAMS, Meaning, SignatureInput, Signer
from core.fda.ports import Authenticated, ChangeSigning
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.shared.errors import AlarmRuleExists, InvalidInput, NotFound, RuleHeldByAsset
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest


def ensure_access(uow: AlarmsUnitOfWork, account_id: int, device_id: int, element: Element,
                  operate: bool = False) -> Grant:
    """404 for a device the caller may not see (whether it exists or not), 403 for one whose
    element it may not see, or not operate when it needs to."""
    grant = uow.alarms.device_grant(account_id, device_id)
    permit(grant, element, operate)
    return grant


def _clean(recipient: Recipient) -> Recipient:
    return replace(recipient, id=None, name=recipient.name.strip(), phone=(recipient.phone or "").strip() or None,
                   email=(recipient.email or "").strip() or None)


def _listing(uow: AlarmsUnitOfWork, rule_id: int) -> RuleListing:
    listing = uow.alarms.rule_listing(rule_id)
    if listing is None:
        raise NotFound()
    return listing


def _log_limits(uow: AlarmsUnitOfWork, account_id: int, listing: RuleListing, now: datetime,
                deleted: bool = False) -> None:
    """A line of the device's operation log: the probe's limits as they now stand."""
    rule = listing.rule

    def bound(value: float | None) -> str:
        return "-" if value is None else f"{value:g}"

    state = "deleted" if deleted else (
        f"{bound(rule.lower_limit)}..{bound(rule.upper_limit)} {'on' if rule.enabled else 'off'}")
    uow.device_events.record(DeviceEvent(listing.device.id, listing.device.guid, account_id,
                                         DeviceEventKind.LIMITS_CHANGED, now, f"{rule.probe}: {state}"[:200]))


class _SignedLimits:
    """The FDA signature of a change of a device's limits: checked before the change, written after it."""

    def __init__(self, signing: ChangeSigning | None) -> None:
        self._signing = signing

    def check(self, account_id: int, session_id: int, device_id: int,
              given: SignatureInput | None) -> Authenticated | None:
        return self._signing.check(Signer(account_id, session_id), device_id, given) if self._signing else None

    def sign(self, passed: Authenticated | None, device_id: int) -> None:
        if self._signing is not None and passed is not None:
            self._signing.sign(passed, DEVICE_PARAMS, str(device_id), meaning=Meaning.AUTHORED, reason=None)


def _checked(rule: AlarmRule, edition: Edition) -> AlarmRule:
    problems = rule_problems(rule, edition)
    if problems:
        raise InvalidInput.of(problems)
    return rule


class ListAlarmRules:
    def __init__(self, uow: AlarmsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, request: PageRequest, device_id: int | None = None,
                 probe: str | None = None) -> Page[RuleListing]:
        with self._uow as uow:
            if device_id is not None:
                ensure_access(uow, account_id, device_id, Element.PUSH)
            return uow.alarms.rule_page(account_id, request, device_id, probe)


class GetAlarmRule:
    def __init__(self, uow: AlarmsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, rule_id: int) -> RuleListing:
        with self._uow as uow:
            listing = _listing(uow, rule_id)
            ensure_access(uow, account_id, listing.rule.device_id, Element.PUSH)
            return listing


def _not_held(uow: AlarmsUnitOfWork, device_id: int) -> None:
    """A rule is switched on only where no disabled asset holds the device's alarms off."""
    if (asset := uow.alarms.holding_asset(device_id)) is not None:
        raise RuleHeldByAsset(asset=asset)


class CreateAlarmRule:
    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock, edition: Edition,
                 signing: ChangeSigning | None = None) -> None:
        self._uow, self._clock, self._edition = uow, clock, edition
        self._signed = _SignedLimits(signing)

    def __call__(self, cmd: AddAlarmRule) -> RuleListing:
        now = self._clock.now()
        rule = _checked(AlarmRule(
            device_id=cmd.device_id, probe=cmd.probe, name=cmd.name.strip(), upper_limit=cmd.upper_limit,
            lower_limit=cmd.lower_limit, delay_seconds=cmd.delay_seconds, level1_minutes=cmd.level1_minutes,
            level2_minutes=cmd.level2_minutes, level3_minutes=cmd.level3_minutes, enabled=cmd.enabled,
            recipients=[_clean(r) for r in cmd.recipients], created_at=now, updated_at=now), self._edition)
        with self._uow as uow:
            ensure_access(uow, cmd.account_id, rule.device_id, Element.PUSH, operate=True)
            if uow.alarms.rule_exists(rule.device_id, rule.probe):
                raise AlarmRuleExists()
            if rule.enabled:
                _not_held(uow, rule.device_id)
            passed = self._signed.check(cmd.account_id, cmd.session_id, rule.device_id, cmd.signature)
            uow.alarms.add_rule(rule)
            listing = _listing(uow, rule.stored_id)
            _log_limits(uow, cmd.account_id, listing, now)
            self._signed.sign(passed, rule.device_id)
            uow.commit()
            return listing


class UpdateAlarmRule:
    """Changes the settings given and keeps the others, so that a partial body cannot wipe what
    it left out; the result is checked whole, so a change that would leave the rule without a
    limit, or recipients on a level it no longer has, is refused (422) and nothing changes."""

    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock, edition: Edition,
                 signing: ChangeSigning | None = None) -> None:
        self._uow, self._clock, self._edition = uow, clock, edition
        self._signed = _SignedLimits(signing)

    @staticmethod
    def _changes(cmd: ChangeAlarmRule) -> dict[str, Any]:
        unknown = set(cmd.changes) - set(SETTINGS)
        if unknown:
            raise ValueError(f"not a setting of an alarm rule: {sorted(unknown)}")
        missing = {SETTINGS[k]: N_("Field may not be null.") for k, v in cmd.changes.items()
                   if v is None and k not in CLEARABLE}
        if missing:
            raise InvalidInput.of(missing)
        changes = dict(cmd.changes)
        if "name" in changes:
            changes["name"] = changes["name"].strip()
        if "recipients" in changes:
            changes["recipients"] = [_clean(r) for r in changes["recipients"]]
        return changes

    def __call__(self, cmd: ChangeAlarmRule) -> RuleListing:
        changes = self._changes(cmd)
        with self._uow as uow:
            stored = uow.alarms.rule(cmd.rule_id)
            if stored is None:
                raise NotFound()
            ensure_access(uow, cmd.account_id, stored.device_id, Element.PUSH, operate=True)
            for field, given, kept in (("deviceId", cmd.device_id, stored.device_id),
                                       ("probe", cmd.probe, stored.probe)):
                if given is not None and given != kept:
                    raise InvalidInput(field, N_("The device and the probe of a rule cannot be changed; "
                                                 "delete the rule and add a new one"))
            rule = _checked(replace(stored, **changes, updated_at=self._clock.now()), self._edition)
            if rule.enabled and not stored.enabled:
                _not_held(uow, rule.device_id)
            passed = self._signed.check(cmd.account_id, cmd.session_id, rule.device_id, cmd.signature)
            uow.alarms.save_rule(rule)
            if stored.enabled and not rule.enabled:
                # A disabled rule watches nothing: what it had raised ends now.
                uow.alarms.close_excursion(rule.device_id, rule.probe, self._clock.now())
                uow.alarms.refresh_alarm_state([rule.device_id])
            listing = _listing(uow, rule.stored_id)
            _log_limits(uow, cmd.account_id, listing, self._clock.now())
            self._signed.sign(passed, rule.device_id)
            uow.commit()
            return listing


class DeleteAlarmRule:
    def __init__(self, uow: AlarmsUnitOfWork, clock: Clock, signing: ChangeSigning | None = None) -> None:
        self._uow, self._clock = uow, clock
        self._signed = _SignedLimits(signing)

    def __call__(self, account_id: int, rule_id: int, *, session_id: int = 0,
                 signature: SignatureInput | None = None) -> None:
        with self._uow as uow:
            rule = uow.alarms.rule(rule_id)
            if rule is None:
                raise NotFound()
            ensure_access(uow, account_id, rule.device_id, Element.PUSH, operate=True)
            passed = self._signed.check(account_id, session_id, rule.device_id, signature)
            _log_limits(uow, account_id, _listing(uow, rule_id), self._clock.now(), deleted=True)
            uow.alarms.close_excursion(rule.device_id, rule.probe, self._clock.now())
            uow.alarms.delete_rule(rule_id)
            uow.alarms.refresh_alarm_state([rule.device_id])
            self._signed.sign(passed, rule.device_id)
            uow.commit()
