"""Alarm rules of the devices a caller can see: list, read, add, change, delete."""

from __future__ import annotations

from dataclasses import replace

from core.alarms.commands import SaveAlarmRule
from core.alarms.model import AlarmRule, Recipient
from core.alarms.ports import RuleListing
from core.alarms.validation import rule_problems
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.shared.errors import AlarmRuleExists, Forbidden, InvalidInput, NotFound
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest
from core.shared.unit_of_work import UnitOfWork


def ensure_visible(uow: UnitOfWork, account_id: int, device_id: int) -> None:
    """404 for a device that does not exist, 403 for one of somebody else's."""
    access = uow.alarms.device_access(account_id, device_id)
    if access is None:
        raise NotFound()
    if not access:
        raise Forbidden()


def _clean(recipient: Recipient) -> Recipient:
    return replace(recipient, id=None, name=recipient.name.strip(), phone=(recipient.phone or "").strip() or None,
                   email=(recipient.email or "").strip() or None)


class ListAlarmRules:
    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, request: PageRequest, device_id: int | None = None,
                 probe: str | None = None) -> Page[RuleListing]:
        with self._uow as uow:
            if device_id is not None:
                ensure_visible(uow, account_id, device_id)
            return uow.alarms.rule_page(account_id, request, device_id, probe)


class GetAlarmRule:
    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, rule_id: int) -> RuleListing:
        with self._uow as uow:
            listing = uow.alarms.rule_listing(rule_id)
            if listing is None:
                raise NotFound()
            ensure_visible(uow, account_id, listing.rule.device_id)
            return listing


class SaveAlarmRuleUseCase:
    def __init__(self, uow: UnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._edition = uow, clock, edition

    def _checked(self, rule: AlarmRule) -> AlarmRule:
        problems = rule_problems(rule, self._edition)
        if problems:
            raise InvalidInput.of(problems)
        return rule

    def _rule(self, cmd: SaveAlarmRule, device_id: int, probe: str) -> AlarmRule:
        now = self._clock.now()
        return AlarmRule(
            device_id=device_id, probe=probe, name=cmd.name.strip(), upper_limit=cmd.upper_limit,
            lower_limit=cmd.lower_limit, delay_seconds=cmd.delay_seconds, level1_minutes=cmd.level1_minutes,
            level2_minutes=cmd.level2_minutes, level3_minutes=cmd.level3_minutes, enabled=cmd.enabled,
            recipients=[_clean(r) for r in cmd.recipients], created_at=now, updated_at=now, id=cmd.rule_id)


class CreateAlarmRule(SaveAlarmRuleUseCase):
    def __call__(self, cmd: SaveAlarmRule) -> RuleListing:
        if cmd.device_id is None or cmd.probe is None:
            raise InvalidInput("deviceId" if cmd.device_id is None else "probe", N_("Missing data for required field."))
        rule = self._checked(self._rule(cmd, cmd.device_id, cmd.probe))
        with self._uow as uow:
            ensure_visible(uow, cmd.account_id, rule.device_id)
            if uow.alarms.rule_exists(rule.device_id, rule.probe):
                raise AlarmRuleExists()
            uow.alarms.add_rule(rule)
            uow.commit()
            return uow.alarms.rule_listing(rule.id)


class UpdateAlarmRule(SaveAlarmRuleUseCase):
    def __call__(self, cmd: SaveAlarmRule) -> RuleListing:
        with self._uow as uow:
            stored = uow.alarms.rule(cmd.rule_id)
            if stored is None:
                raise NotFound()
            ensure_visible(uow, cmd.account_id, stored.device_id)
            for field, given, kept in (("deviceId", cmd.device_id, stored.device_id),
                                       ("probe", cmd.probe, stored.probe)):
                if given is not None and given != kept:
                    raise InvalidInput(field, N_("The device and the probe of a rule cannot be changed; "
                                                 "delete the rule and add a new one"))
            rule = self._checked(replace(self._rule(cmd, stored.device_id, stored.probe),
                                         created_at=stored.created_at))
            uow.alarms.save_rule(rule)
            if stored.enabled and not rule.enabled:
                # A disabled rule watches nothing: what it had raised ends now.
                uow.alarms.close_excursion(rule.device_id, rule.probe, self._clock.now())
                uow.alarms.refresh_alarm_state([rule.device_id])
            uow.commit()
            return uow.alarms.rule_listing(rule.id)


class DeleteAlarmRule:
    def __init__(self, uow: UnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, rule_id: int) -> None:
        with self._uow as uow:
            rule = uow.alarms.rule(rule_id)
            if rule is None:
                raise NotFound()
            ensure_visible(uow, account_id, rule.device_id)
            uow.alarms.close_excursion(rule.device_id, rule.probe, self._clock.now())
            uow.alarms.delete_rule(rule_id)
            uow.alarms.refresh_alarm_state([rule.device_id])
            uow.commit()
