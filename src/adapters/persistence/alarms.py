"""Alarm rules, excursions and alarm messages.

Core statements on the tables rather than ORM objects: evaluation runs inside every ingest batch,
and the guarded updates (levels, prepaid counts, handling) must say how many rows they changed.
Every query a caller reaches is filtered with `visible_to`, like every device query, and every
write checks `access_of`.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime, time
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, case, delete, exists, func, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adapters.persistence.devices import access_of, sees
from adapters.persistence.models import (
    AccountRow,
    AlarmDeferralRow,
    AlarmExcursionRow,
    AlarmMessageRow,
    AlarmPushSettingRow,
    AlarmRecipientRow,
    AlarmRuleRow,
    AssetRow,
    DeviceRow,
    ReadingRow,
    WaybillDeviceRow,
    WaybillRow,
)
from adapters.persistence.results import rows_written
from core.alarms.deferral import Deferral
from core.alarms.model import (
    AlarmDevice,
    AlarmKind,
    AlarmMessage,
    AlarmRule,
    AlarmState,
    Excursion,
    Handling,
    Recipient,
    TripLimits,
)
from core.alarms.ports import AlarmFilter, AlarmListing, RuleListing
from core.alarms.push import PushSetting
from core.devices.grants import Element, Grant
from core.notifications.model import Channel
from core.shared.errors import AlarmRuleExists
from core.shared.paging import Page, PageRequest
from core.telemetry.model import Reading
from core.waybills.model import WaybillState

rules_t = AlarmRuleRow.__table__
recipients_t = AlarmRecipientRow.__table__
excursions_t = AlarmExcursionRow.__table__
messages_t = AlarmMessageRow.__table__
deferrals_t = AlarmDeferralRow.__table__
accounts_t = AccountRow.__table__
devices_t = DeviceRow.__table__

_owners = accounts_t.alias("owners")
_RECIPIENT_COLUMNS = [recipients_t.c.id.label("r_id"), recipients_t.c.level.label("r_level"),
                      recipients_t.c.name.label("r_name"), recipients_t.c.phone.label("r_phone"),
                      recipients_t.c.email.label("r_email"), recipients_t.c.voice.label("r_voice"),
                      recipients_t.c.language.label("r_language")]
_DEVICE_COLUMNS = [devices_t.c.id.label("d_id"), devices_t.c.device_name.label("d_name"),
                   devices_t.c.guid.label("d_guid"), devices_t.c.country_code.label("d_country"),
                   devices_t.c.display_precision.label("d_precision"),
                   devices_t.c.temperature_unit.label("d_unit"),
                   # an alias, so that a query which also reads accounts (the handler's name) does
                   # not correlate the owner to that account
                   select(_owners.c.language).where(_owners.c.id == devices_t.c.owner_account_id)
                   .correlate_except(_owners).scalar_subquery().label("d_owner_language")]
_COUNTS = {Channel.PHONE: devices_t.c.sms_count, Channel.VOICE: devices_t.c.voice_count}


def _rule(row: Any) -> AlarmRule:
    return AlarmRule(
        device_id=row.device_id, probe=row.probe, name=row.name, upper_limit=row.upper_limit,
        lower_limit=row.lower_limit, delay_seconds=row.delay_seconds, level1_minutes=row.level1_minutes,
        level2_minutes=row.level2_minutes, level3_minutes=row.level3_minutes, enabled=bool(row.enabled),
        recipients=[], created_at=row.created_at, updated_at=row.updated_at, id=row.id)


def _recipient(row: Any) -> Recipient:
    return Recipient(level=row.r_level, name=row.r_name, phone=row.r_phone, email=row.r_email,
                     voice=bool(row.r_voice), id=row.r_id, language=row.r_language)


def _device(row: Any) -> AlarmDevice:
    return AlarmDevice(row.d_id, row.d_name, row.d_guid, row.d_country, row.d_precision, row.d_unit,
                       row.d_owner_language)


def _alarm(row: Any) -> AlarmMessage:
    return AlarmMessage(
        device_id=row.device_id, rule_id=row.rule_id, probe=row.probe, kind=AlarmKind(row.kind),
        limit_value=row.limit_value, value=row.value, extreme_value=row.extreme_value, started_at=row.started_at,
        raised_at=row.raised_at, level=row.level, ended_at=row.ended_at, state=AlarmState(row.state),
        handling=Handling(row.handling) if row.handling is not None else None, result=row.result,
        handled_by=row.handled_by, handled_at=row.handled_at, deferred_until=row.deferred_until, id=row.id)


def _listing(row: Any, now: datetime) -> AlarmListing:
    alarm = _alarm(row)
    return AlarmListing(alarm, _device(row), row.h_name, Grant.of_code(row.access).access_to(Element.ALARMS),
                        alarm.shown_state(now), row.deferrals)


def _rule_values(rule: AlarmRule) -> dict[str, Any]:
    return {"device_id": rule.device_id, "probe": rule.probe, "name": rule.name, "upper_limit": rule.upper_limit,
            "lower_limit": rule.lower_limit, "delay_seconds": rule.delay_seconds,
            "level1_minutes": rule.level1_minutes, "level2_minutes": rule.level2_minutes,
            "level3_minutes": rule.level3_minutes, "enabled": rule.enabled, "created_at": rule.created_at,
            "updated_at": rule.updated_at}


def _bits(kinds: frozenset[AlarmKind]) -> int:
    return sum(1 << (int(kind) - 1) for kind in kinds)


def _kinds(bits: int) -> frozenset[AlarmKind]:
    return frozenset(kind for kind in AlarmKind if bits & (1 << (int(kind) - 1)))


def _time(text: str | None) -> time | None:
    return time.fromisoformat(text) if text else None


class SqlAlchemyAlarmRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    @property
    def _postgres(self) -> bool:
        return self._s.get_bind().dialect.name == "postgresql"

    # --- evaluation and escalation ---------------------------------------------------------------

    def _rules_where(self, *where: ColumnElement[bool]) -> list[AlarmRule]:
        rows = self._s.execute(
            select(rules_t, *_RECIPIENT_COLUMNS)
            .outerjoin(recipients_t, recipients_t.c.rule_id == rules_t.c.id)
            .where(*where)
            .order_by(rules_t.c.id, recipients_t.c.level, recipients_t.c.id))
        rules: dict[int, AlarmRule] = {}
        for row in rows:
            rule = rules.get(row.id)
            if rule is None:
                rule = rules[row.id] = _rule(row)
            if row.r_id is not None:
                rule.recipients.append(_recipient(row))
        return list(rules.values())

    def rules_of_devices(self, device_ids: Collection[int]) -> list[AlarmRule]:
        if not device_ids:
            return []
        return self._rules_where(rules_t.c.device_id.in_(list(device_ids)), rules_t.c.enabled.is_(True))

    def rules(self, rule_ids: Collection[int]) -> dict[int, AlarmRule]:
        if not rule_ids:
            return {}
        return {rule.stored_id: rule for rule in self._rules_where(rules_t.c.id.in_(list(rule_ids)))}

    def trip_limits(self, device_ids: Collection[int], since: datetime, until: datetime) -> list[TripLimits]:
        return trip_limits(self._s, device_ids, since, until)

    def alarm_devices(self, device_ids: Collection[int]) -> dict[int, AlarmDevice]:
        if not device_ids:
            return {}
        query = select(*_DEVICE_COLUMNS).where(devices_t.c.id.in_(list(device_ids))).order_by(devices_t.c.id)
        if self._postgres:
            query = query.with_for_update(of=devices_t)
        return {row.d_id: _device(row) for row in self._s.execute(query)}

    def open_excursions(self, device_ids: Collection[int]) -> dict[tuple[int, str], Excursion]:
        if not device_ids:
            return {}
        e = excursions_t
        rows = self._s.execute(
            select(e.c.device_id.label("e_device_id"), e.c.probe.label("e_probe"), e.c.kind.label("e_kind"),
                   e.c.limit_value.label("e_limit"), e.c.started_at.label("e_started_at"),
                   e.c.extreme_value.label("e_extreme"), messages_t)
            .outerjoin(messages_t, messages_t.c.id == e.c.message_id)
            .where(e.c.device_id.in_(list(device_ids))))
        excursions = {}
        for row in rows:
            excursion = Excursion(row.e_device_id, row.e_probe, AlarmKind(row.e_kind), row.e_limit,
                                  row.e_started_at, row.e_extreme)
            if row.id is not None:
                excursion.alarm = _alarm(row)
            excursions[(excursion.device_id, excursion.probe)] = excursion
        return excursions

    def readings(self, device_ids: Collection[int], since: datetime, limit: int) -> list[Reading]:
        if not device_ids:
            return []
        r = ReadingRow
        rows = self._s.execute(select(r.device_id, r.ts, r.temperature, r.humidity)
                               .where(r.device_id.in_(list(device_ids)), r.ts >= since)
                               .order_by(r.ts, r.device_id).limit(limit))
        return [Reading(row.device_id, row.ts, row.temperature, row.humidity) for row in rows]

    def last_alarm_ends(self, device_ids: Collection[int], since: datetime) -> dict[int, datetime]:
        if not device_ids:
            return {}
        m = AlarmMessageRow
        rows = self._s.execute(select(m.device_id, func.max(m.ended_at))
                               .where(m.device_id.in_(list(device_ids)), m.ended_at >= since)
                               .group_by(m.device_id))
        return {device_id: ended for device_id, ended in rows if ended is not None}

    def save_excursion(self, excursion: Excursion) -> None:
        values = {"device_id": excursion.device_id, "probe": excursion.probe, "kind": int(excursion.kind),
                  "limit_value": excursion.limit_value, "started_at": excursion.started_at,
                  "extreme_value": excursion.extreme_value,
                  "message_id": excursion.alarm.id if excursion.alarm is not None else None}
        upsert = (pg_insert if self._postgres else sqlite_insert)(excursions_t).values(values)
        changed = {k: v for k, v in values.items() if k not in ("device_id", "probe")}
        self._s.execute(upsert.on_conflict_do_update(index_elements=["device_id", "probe"], set_=changed))

    def remove_excursion(self, device_id: int, probe: str) -> None:
        self._s.execute(delete(excursions_t).where(excursions_t.c.device_id == device_id,
                                                   excursions_t.c.probe == probe))

    def add_alarm(self, alarm: AlarmMessage) -> None:
        alarm.id = self._s.execute(insert(messages_t).values(
            device_id=alarm.device_id, rule_id=alarm.rule_id, probe=alarm.probe, kind=int(alarm.kind),
            limit_value=alarm.limit_value, value=alarm.value, extreme_value=alarm.extreme_value,
            level=alarm.level, started_at=alarm.started_at, raised_at=alarm.raised_at, ended_at=alarm.ended_at,
            state=int(alarm.state)).returning(messages_t.c.id)).scalar_one()

    def save_alarm_progress(self, alarm: AlarmMessage) -> None:
        self._s.execute(update(messages_t).where(messages_t.c.id == alarm.id)
                        .values(ended_at=alarm.ended_at, extreme_value=alarm.extreme_value))

    def raise_level(self, alarm_id: int, from_level: int, to_level: int) -> bool:
        m = messages_t.c
        result = self._s.execute(
            update(messages_t)
            .where(m.id == alarm_id, m.level == from_level, m.state == int(AlarmState.UNTREATED),
                   m.ended_at.is_(None), m.deferred_until.is_(None))
            .values(level=to_level))
        return rows_written(result) == 1

    def resume(self, alarm_id: int, deferred_until: datetime, from_level: int, to_level: int) -> bool:
        m = messages_t.c
        result = self._s.execute(
            update(messages_t)
            .where(m.id == alarm_id, m.level == from_level, m.state == int(AlarmState.UNTREATED),
                   m.ended_at.is_(None), m.deferred_until == deferred_until)
            .values(level=to_level, deferred_until=None))
        return rows_written(result) == 1

    def consume_count(self, device_id: int, channel: Channel) -> bool:
        # The guard is in the statement: concurrent batches wait for the row and re-check it, so a
        # count never goes below zero and each unit is spent once.
        count = _COUNTS[channel]
        result = self._s.execute(update(devices_t).where(devices_t.c.id == device_id, count > 0)
                                 .values({count: count - 1}))
        return rows_written(result) == 1

    def refresh_alarm_state(self, device_ids: Collection[int]) -> None:
        if not device_ids:
            return
        alarming = exists().where(messages_t.c.device_id == devices_t.c.id, messages_t.c.ended_at.is_(None))
        self._s.execute(update(devices_t).where(devices_t.c.id.in_(list(device_ids)))
                        .values(alarm_state=case((alarming, 1), else_=0)))

    def escalation_candidates(self, now: datetime) -> list[AlarmMessage]:
        m, r = messages_t.c, rules_t.c
        below_top = or_(m.level == 0, and_(m.level == 1, r.level2_minutes.is_not(None)),
                        and_(m.level == 2, r.level3_minutes.is_not(None)))
        rows = self._s.execute(
            select(messages_t).join(rules_t, r.id == m.rule_id)
            .join(devices_t, devices_t.c.id == m.device_id)
            .where(m.ended_at.is_(None), m.state == int(AlarmState.UNTREATED), r.enabled.is_(True),
                   devices_t.c.scrapped_at.is_(None),  # a scrapped device alerts nobody any more
                   or_(and_(m.deferred_until.is_(None), below_top), m.deferred_until <= now))
            .order_by(m.id))
        return [_alarm(row) for row in rows]

    # --- rules -----------------------------------------------------------------------------------

    def device_grant(self, account_id: int, device_id: int) -> Grant:
        code = self._s.scalar(select(access_of(account_id)).where(devices_t.c.id == device_id))
        return Grant.of_code(code or 0)

    def push_setting(self, device_id: int) -> PushSetting | None:
        row = self._s.get(AlarmPushSettingRow, device_id)
        if row is None:
            return None
        return PushSetting(device_id, _kinds(row.sms_kinds), _kinds(row.voice_kinds), _kinds(row.email_kinds),
                           _time(row.quiet_start), _time(row.quiet_end), row.time_zone, row.updated_at)

    def save_push_setting(self, setting: PushSetting) -> None:
        row = self._s.get(AlarmPushSettingRow, setting.device_id) or AlarmPushSettingRow(device_id=setting.device_id)
        row.sms_kinds, row.voice_kinds, row.email_kinds = (
            _bits(setting.sms_kinds), _bits(setting.voice_kinds), _bits(setting.email_kinds))
        row.quiet_start = setting.quiet_start.strftime("%H:%M") if setting.quiet_start else None
        row.quiet_end = setting.quiet_end.strftime("%H:%M") if setting.quiet_end else None
        row.time_zone = setting.time_zone
        row.updated_at = setting.updated_at or datetime.now(UTC)
        self._s.add(row)
        self._s.flush()

    def rule(self, rule_id: int) -> AlarmRule | None:
        found = self._rules_where(rules_t.c.id == rule_id)
        return found[0] if found else None

    def _device(self, device_id: int) -> AlarmDevice:
        return _device(self._s.execute(select(*_DEVICE_COLUMNS).where(devices_t.c.id == device_id)).one())

    def rule_listing(self, rule_id: int) -> RuleListing | None:
        rule = self.rule(rule_id)
        return RuleListing(rule, self._device(rule.device_id)) if rule is not None else None

    def rule_exists(self, device_id: int, probe: str, except_id: int | None = None) -> bool:
        query = select(func.count()).select_from(rules_t).where(rules_t.c.device_id == device_id,
                                                                rules_t.c.probe == probe)
        if except_id is not None:
            query = query.where(rules_t.c.id != except_id)
        return self._s.execute(query).scalar_one() > 0

    def holding_asset(self, device_id: int) -> str | None:
        return self._s.scalar(select(AssetRow.name).join(DeviceRow, DeviceRow.asset_id == AssetRow.id)
                              .where(DeviceRow.id == device_id, AssetRow.enabled.is_(False)))

    def _add_recipients(self, rule: AlarmRule) -> None:
        if rule.recipients:
            self._s.execute(insert(recipients_t), [
                {"rule_id": rule.id, "level": r.level, "name": r.name, "phone": r.phone, "email": r.email,
                 "voice": r.voice, "language": r.language} for r in rule.recipients])

    def add_rule(self, rule: AlarmRule) -> None:
        try:
            with self._s.begin_nested():
                rule.id = self._s.execute(insert(rules_t).values(_rule_values(rule))
                                          .returning(rules_t.c.id)).scalar_one()
        except IntegrityError as error:  # another call added a rule for this probe first
            raise AlarmRuleExists() from error
        self._add_recipients(rule)

    def save_rule(self, rule: AlarmRule) -> None:
        values = _rule_values(rule)
        del values["device_id"], values["probe"]
        self._s.execute(update(rules_t).where(rules_t.c.id == rule.id).values(values))
        self._s.execute(delete(recipients_t).where(recipients_t.c.rule_id == rule.id))
        self._add_recipients(rule)

    def delete_rule(self, rule_id: int) -> None:
        self._s.execute(update(messages_t).where(messages_t.c.rule_id == rule_id).values(rule_id=None))
        self._s.execute(delete(recipients_t).where(recipients_t.c.rule_id == rule_id))
        self._s.execute(delete(rules_t).where(rules_t.c.id == rule_id))

    def close_excursion(self, device_id: int, probe: str, at: datetime) -> None:
        e = excursions_t.c
        message_id = self._s.scalar(select(e.message_id).where(e.device_id == device_id, e.probe == probe))
        if message_id is not None:
            self._s.execute(update(messages_t).where(messages_t.c.id == message_id, messages_t.c.ended_at.is_(None))
                            .values(ended_at=at))
        self.remove_excursion(device_id, probe)

    def rule_page(self, account_id: int, request: PageRequest, device_id: int | None = None,
                  probe: str | None = None) -> Page[RuleListing]:
        where = [sees(account_id, Element.PUSH)]
        if device_id is not None:
            where.append(rules_t.c.device_id == device_id)
        if probe is not None:
            where.append(rules_t.c.probe == probe)
        base = select(rules_t.c.id).join(devices_t, devices_t.c.id == rules_t.c.device_id).where(*where)
        total = self._s.execute(select(func.count()).select_from(base.subquery())).scalar_one()
        order = rules_t.c.id.asc() if request.sort_order == "asc" else rules_t.c.id.desc()  # creation order
        ids: list[int] = list(self._s.scalars(base.order_by(order).offset(request.offset).limit(request.page_size)))
        rules = self.rules(ids)
        devices = {row.d_id: _device(row) for row in self._s.execute(
            select(*_DEVICE_COLUMNS).where(devices_t.c.id.in_({r.device_id for r in rules.values()})))}
        return Page(request.start, request.page_size, total,
                    [RuleListing(rules[i], devices[rules[i].device_id]) for i in ids])

    # --- the message centre ----------------------------------------------------------------------

    @staticmethod
    def _listings(account_id: int, *where: ColumnElement[bool]) -> Select:
        deferrals = (select(func.count()).select_from(deferrals_t)
                     .where(deferrals_t.c.alarm_id == messages_t.c.id).scalar_subquery())
        return (select(messages_t, *_DEVICE_COLUMNS, accounts_t.c.user_name.label("h_name"),
                       access_of(account_id).label("access"), deferrals.label("deferrals"))
                .join(devices_t, devices_t.c.id == messages_t.c.device_id)
                .outerjoin(accounts_t, accounts_t.c.id == messages_t.c.handled_by)
                .where(*where))

    def alarm_listing(self, alarm_id: int, account_id: int, now: datetime) -> AlarmListing | None:
        row = self._s.execute(self._listings(account_id, messages_t.c.id == alarm_id)).first()
        return _listing(row, now) if row is not None else None

    @staticmethod
    def _shown_state(state: int, now: datetime) -> ColumnElement[bool]:
        """The alarms shown in `state` at `now` (AlarmState.DEFERRED while a deferral runs)."""
        m = messages_t.c
        deferred = and_(m.state == int(AlarmState.UNTREATED), m.deferred_until.is_not(None), m.deferred_until > now)
        if state == AlarmState.DEFERRED:
            return deferred
        if state == AlarmState.UNTREATED:
            return and_(m.state == int(AlarmState.UNTREATED), or_(m.deferred_until.is_(None), m.deferred_until <= now))
        return m.state == state

    def _filters(self, account_id: int, where: AlarmFilter, now: datetime) -> list[ColumnElement[bool]]:
        m = messages_t.c
        filters = [sees(account_id, Element.ALARMS)]
        if where.device_id is not None:
            filters.append(m.device_id == where.device_id)
        if where.state is not None:
            filters.append(self._shown_state(where.state, now))
        if where.since is not None:
            filters.append(m.raised_at >= where.since)
        if where.until is not None:
            filters.append(m.raised_at < where.until)
        return filters

    def alarm_page(self, account_id: int, where: AlarmFilter, request: PageRequest,
                   now: datetime) -> Page[AlarmListing]:
        filters = self._filters(account_id, where, now)
        total = self._s.execute(select(func.count()).select_from(messages_t)
                                .join(devices_t, devices_t.c.id == messages_t.c.device_id).where(*filters)).scalar_one()
        order = messages_t.c.raised_at.asc() if request.sort_order == "asc" else messages_t.c.raised_at.desc()
        id_order = messages_t.c.id.asc() if request.sort_order == "asc" else messages_t.c.id.desc()
        rows = self._s.execute(self._listings(account_id, *filters).order_by(order, id_order)
                               .offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [_listing(r, now) for r in rows])

    def handle(self, alarm_id: int, handling: Handling, result: str | None, account_id: int,
               at: datetime) -> bool:
        m = messages_t.c
        outcome = self._s.execute(
            update(messages_t).where(m.id == alarm_id, m.state == int(AlarmState.UNTREATED))
            .values(state=int(AlarmState.TREATED), handling=int(handling), result=result, handled_by=account_id,
                    handled_at=at, deferred_until=None))
        return rows_written(outcome) == 1

    def defer(self, deferral: Deferral) -> bool:
        m = messages_t.c
        outcome = self._s.execute(
            update(messages_t).where(m.id == deferral.alarm_id, m.state == int(AlarmState.UNTREATED))
            .values(deferred_until=deferral.deferred_until))
        if rows_written(outcome) != 1:
            return False
        self._s.execute(insert(deferrals_t).values(
            alarm_id=deferral.alarm_id, account_id=deferral.account_id, deferred_at=deferral.deferred_at,
            deferred_until=deferral.deferred_until, result=deferral.result))
        return True

    def deferral_page(self, alarm_id: int, request: PageRequest) -> Page[Deferral]:
        d = deferrals_t.c
        total = self._s.execute(select(func.count()).select_from(deferrals_t)
                                .where(d.alarm_id == alarm_id)).scalar_one()
        order = d.id.asc() if request.sort_order == "asc" else d.id.desc()
        rows = self._s.execute(
            select(deferrals_t, accounts_t.c.user_name.label("by_name"))
            .outerjoin(accounts_t, accounts_t.c.id == d.account_id)
            .where(d.alarm_id == alarm_id).order_by(order).offset(request.offset).limit(request.page_size))
        return Page(request.start, request.page_size, total, [
            Deferral(r.alarm_id, r.account_id, r.deferred_at, r.deferred_until, r.result, r.by_name, r.id)
            for r in rows])

    def count_untreated(self, account_id: int, now: datetime) -> int:
        return self._s.execute(select(func.count()).select_from(messages_t)
                               .join(devices_t, devices_t.c.id == messages_t.c.device_id)
                               .where(sees(account_id, Element.ALARMS), self._shown_state(AlarmState.UNTREATED, now))
                               ).scalar_one()


# The waybills' states whose trips have begun.
STARTED_STATES = (int(WaybillState.IN_PROGRESS), int(WaybillState.FINISHED))


def trip_limits(session: Session, device_ids: Collection[int], since: datetime, until: datetime) -> list[TripLimits]:
    """The limits of the started waybills on these devices whose window meets [since, until] (for
    core.alarms: AlarmRepository.trip_limits)."""
    if not device_ids:
        return []
    rows = session.execute(
        select(WaybillDeviceRow.device_id, WaybillRow.started_at, WaybillRow.finished_at, WaybillRow.upper_limit,
               WaybillRow.lower_limit, WaybillRow.alarm_contacts)
        .join(WaybillRow, WaybillRow.id == WaybillDeviceRow.waybill_id)
        .where(WaybillDeviceRow.device_id.in_(list(device_ids)), WaybillRow.state.in_(STARTED_STATES),
               WaybillRow.started_at <= until,
               or_(WaybillRow.finished_at.is_(None), WaybillRow.finished_at >= since))
        .order_by(WaybillRow.started_at.desc()))
    return [TripLimits(device_id, started, finished, upper, lower,
                       tuple(Recipient(level=1, name=c[0] or "", phone=c[1], email=c[2]) for c in contacts or ()))
            for device_id, started, finished, upper, lower, contacts in rows if started is not None]
