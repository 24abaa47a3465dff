"""Alarm rules of devices and the message centre's alarm messages (spec seed 001 sections 3-5).

Every call sees only the caller's devices (own and organizations'): another customer's device,
rule or alarm is answered as an unknown id (404). Writes need the right to change the device:
members of its organization only read it (403).
"""

from __future__ import annotations

from datetime import time

from flask.views import MethodView
from marshmallow import fields

from core.alarms.commands import SETTINGS, AddAlarmRule, ChangeAlarmRule, DealWithAlarm
from core.alarms.deferral import Deferral
from core.alarms.model import AlarmKind, AlarmState, Handling, Recipient
from core.alarms.ports import AlarmFilter, AlarmListing, RuleListing
from core.alarms.push import PushSetting
from core.alarms.push_management import PushSettingView
from core.fda.model import ALARM, Manifestation
from core.shared.errors import AlarmAlreadyHandled, AlarmRuleExists, RuleHeldByAsset
from entrypoints.api import context
from entrypoints.api.alarms import schemas as s
from entrypoints.api.fda.signature_schemas import documents_signing, signature_input, signature_row
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request

blp = ApiBlueprint("alarms", __name__, description="Alarm rules and alarm messages")

UNKNOWN = "no such id, or not one of the caller's devices (the same answer, so ids cannot be probed)"
READ_ONLY = "the caller may only read the device (a member of its organization), or lacks the permission"


def _rule_row(listing: RuleListing) -> dict:
    r, d = listing.rule, listing.device
    return {
        "id": r.id, "deviceId": d.id, "deviceName": d.name, "deviceGuid": d.guid, "probe": r.probe, "name": r.name,
        "upperLimit": r.upper_limit, "lowerLimit": r.lower_limit, "delaySeconds": r.delay_seconds,
        "level1Minutes": r.level1_minutes, "level2Minutes": r.level2_minutes, "level3Minutes": r.level3_minutes,
        "enabled": r.enabled, "createdAt": r.created_at, "updatedAt": r.updated_at,
        "recipients": [{"level": p.level, "name": p.name, "phone": p.phone, "email": p.email, "voice": p.voice,
                        "language": p.language} for p in r.recipients],
    }


def _alarm_signatures(alarm_ids: list[int]) -> dict[str, list[Manifestation]]:
    """The alarms' handling signatures (FDA mode), as the caller reads them."""
    return context.container().record_signatures().of_many(context.caller_id(), ALARM, [str(i) for i in alarm_ids])


def _alarm_row(listing: AlarmListing, signatures: dict[str, list[Manifestation]]) -> dict:
    a, d = listing.alarm, listing.device
    return {
        "id": a.id, "deviceId": d.id, "deviceName": d.name, "deviceGuid": d.guid, "ruleId": a.rule_id,
        "probe": a.probe, "kind": int(a.kind), "limitValue": a.limit_value, "value": a.value,
        "extremeValue": a.extreme_value, "level": a.level, "startedAt": a.started_at, "raisedAt": a.raised_at,
        "endedAt": a.ended_at, "state": int(listing.state),
        "deferredUntil": a.deferred_until if listing.state is AlarmState.DEFERRED else None,
        "deferralCount": listing.deferrals, "handling": int(a.handling) if a.handling else None,
        "result": a.result, "handledAt": a.handled_at, "handledBy": listing.handled_by_name,
        "temperatureUnit": d.temperature_unit, "displayPrecision": d.precision, "access": int(listing.access),
        "signatures": [signature_row(m) for m in signatures.get(str(a.id), [])],
    }


def _deferral_row(deferral: Deferral) -> dict:
    return {"deferredAt": deferral.deferred_at, "deferredUntil": deferral.deferred_until,
            "minutes": deferral.minutes, "deferredBy": deferral.by_name, "result": deferral.result}


def _recipients(rows: list[dict]) -> tuple[Recipient, ...]:
    return tuple(Recipient(r["level"], r["name"], r["phone"], r["email"], r["voice"], language=r["language"])
                 for r in rows)


def _add(body: dict) -> AddAlarmRule:
    settings = {setting: body[name] for setting, name in SETTINGS.items()}
    return AddAlarmRule(account_id=context.caller_id(), device_id=body["deviceId"],
                        probe=body["probe"], **{**settings, "recipients": _recipients(body["recipients"])},
                        session_id=context.current_principal().session_id,
                        signature=signature_input(body["signature"]))


def _change(body: dict) -> ChangeAlarmRule:
    changes = {setting: body[name] for setting, name in SETTINGS.items() if name in body}
    if changes.get("recipients") is not None:
        changes["recipients"] = _recipients(changes["recipients"])
    return ChangeAlarmRule(account_id=context.caller_id(), rule_id=body["id"], changes=changes,
                           device_id=body.get("deviceId"), probe=body.get("probe"),
                           session_id=context.current_principal().session_id,
                           signature=signature_input(body.get("signature")))


def _unknown(func):
    return blp.alt_response(404, schema=ErrorEnvelope, description=UNKNOWN)(func)


def _read_only_or_unknown(func):
    func = blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)(func)
    return _unknown(func)


@blp.route("/DeviceAlarmRule/page")
class AlarmRulePageView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.AlarmRulePageQuery)
    @blp.ok(page_of(s.AlarmRuleSchema))
    @_unknown
    def post(self, body):
        """Alarm rules of the caller's devices, newest first, optionally of one device and probe."""
        list_rules = context.container().list_alarm_rules()
        page = list_rules(context.caller_id(), page_request(body), body.get("deviceId"),
                          body.get("probe"))
        return page_body(page, _rule_row)


@blp.route("/DeviceAlarmRule/get")
class AlarmRuleView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.IdQuery, location="query")
    @blp.ok(s.AlarmRuleSchema)
    @_unknown
    def get(self, query):
        """One alarm rule with its recipients."""
        get_rule = context.container().get_alarm_rule()
        return _rule_row(get_rule(context.caller_id(), query["id"]))


@blp.route("/DeviceAlarmRule/insert")
class AlarmRuleInsertView(MethodView):
    @_read_only_or_unknown  # outermost: its 403 covers the permission too
    @blp.requires("device.list:edit")
    @blp.arguments(s.AlarmRuleInsertSchema)
    @blp.ok(s.AlarmRuleSchema, refusals=[AlarmRuleExists, RuleHeldByAsset])
    @documents_signing(blp)
    def post(self, body):
        """Add the alarm rule of one probe of a device: limits, delay, graded levels 1-3 with their
        minutes after the alarm (level1 < level2 < level3, else 422 "Graded alarm times wrongly set")
        and recipients per level (name 1-50, a phone and/or an e-mail, none twice)."""
        create = context.container().create_alarm_rule()
        return _rule_row(create(_add(body)))


@blp.route("/DeviceAlarmRule/update")
class AlarmRuleUpdateView(MethodView):
    @_read_only_or_unknown  # outermost: its 403 covers the permission too
    @blp.requires("device.list:edit")
    @blp.arguments(s.AlarmRuleUpdateSchema)
    @blp.ok(s.AlarmRuleSchema, refusals=[RuleHeldByAsset])
    @documents_signing(blp)
    def put(self, body):
        """Change a rule's name, limits, delay, levels, recipients or enabled flag: only the fields
        sent change (null clears a limit or level 2 or 3), and the rule as it would then be is
        checked whole: one that would watch no limit, or keep recipients on a level it no longer
        has, is refused (422) and nothing changes. Its device and probe stay. Disabling it ends
        what it had raised."""
        update = context.container().update_alarm_rule()
        return _rule_row(update(_change(body)))


@blp.route("/DeviceAlarmRule/delete")
class AlarmRuleDeleteView(MethodView):
    @_read_only_or_unknown  # outermost: its 403 covers the permission too
    @blp.requires("device.list:edit")
    @blp.arguments(s.IdQuery, location="query")
    @blp.arguments(s.SignedDeleteSchema, required=False)
    @blp.ok()
    @documents_signing(blp)
    def delete(self, query, body):
        """Delete a rule; its alarm messages stay in the message centre, ended. Where FDA mode is on
        for the device, a JSON body carries the signature."""
        delete = context.container().delete_alarm_rule()
        delete(context.caller_id(), query["id"], session_id=context.current_principal().session_id,
               signature=signature_input((body or {}).get("signature")))


@blp.route("/DeviceAlarm/page")
class AlarmPageView(MethodView):
    @blp.requires("message.list:query")
    @blp.arguments(s.AlarmPageQuery)
    @blp.ok(page_of(s.AlarmSchema))
    @_unknown
    def post(self, body):
        """The message centre's alarm messages of the caller's devices, newest first; filters: device,
        state (0 untreated, 1 treated, 2 deferred) and the time raised in [startTime, endTime). A
        deferred alarm is listed as untreated again once its deferral has ended."""
        list_alarms = context.container().list_alarms()
        where = AlarmFilter(body.get("deviceId"), body.get("state"), body.get("startTime"), body.get("endTime"))
        page = list_alarms(context.caller_id(), where, page_request(body))
        signatures = _alarm_signatures([listing.alarm.stored_id for listing in page.items])
        return page_body(page, lambda listing: _alarm_row(listing, signatures))


@blp.route("/DeviceAlarm/deal")
class AlarmDealView(MethodView):
    @_read_only_or_unknown  # outermost: its 403 covers the permission too
    @blp.requires("message.list:edit")
    @blp.arguments(s.DealSchema)
    @blp.ok(s.AlarmSchema, refusals=[AlarmAlreadyHandled])
    @documents_signing(blp)
    def post(self, body):
        """Handle an untreated or deferred alarm, with a result of up to 50 characters: approve (1) or
        refuse (2) treat it, once; a treated alarm cannot be handled again (409, code 1011). Defer
        (3) silences it for deferMinutes (1 to 1440, 60 when absent): meanwhile it is listed as
        deferred (state 2, until deferredUntil), is not counted as untreated and alerts nobody;
        then it is untreated again and the recipients of its level, and of levels that came due
        meanwhile, are reminded. It may be deferred again, and each deferral is recorded. Where
        FDA mode is on for the device, every handling is signed (`signature`) in its transaction:
        without one 428, and a refused signature (wrong password 403, locked 423) changes nothing."""
        deal = context.container().deal_alarm()
        listing = deal(DealWithAlarm(context.caller_id(), body["id"], Handling(body["handling"]),
                                     body["result"], body["deferMinutes"],
                                     context.current_principal().session_id, signature_input(body["signature"])))
        return _alarm_row(listing, _alarm_signatures([listing.alarm.stored_id]))


@blp.route("/DeviceAlarm/deferrals")
class AlarmDeferralsView(MethodView):
    @blp.requires("message.list:query")
    @blp.arguments(s.DeferralPageQuery)
    @blp.ok(page_of(s.DeferralSchema))
    @_unknown
    def post(self, body):
        """Every deferral of an alarm (who, when, until when, why), newest first: its history."""
        list_deferrals = context.container().list_alarm_deferrals()
        page = list_deferrals(context.caller_id(), body["id"], page_request(body))
        return page_body(page, _deferral_row)


@blp.route("/DeviceAlarm/count")
class AlarmCountView(MethodView):
    @blp.requires("message.list:query")
    @blp.ok(fields.Integer(required=True, metadata={
        "description": "untreated alarms of the caller's devices, less those deferred right now"}),
        name="UntreatedAlarmCount")
    def get(self):
        """The number of untreated alarms of the caller's devices, for the header badge; an alarm
        does not count while it is deferred."""
        count = context.container().count_untreated_alarms()
        return count(context.caller_id())


def _push_row(view: PushSettingView) -> dict:
    p = view.setting
    return {
        "deviceId": p.device_id, "smsKinds": sorted(map(int, p.sms_kinds)),
        "voiceKinds": sorted(map(int, p.voice_kinds)), "emailKinds": sorted(map(int, p.email_kinds)),
        "quietStart": p.quiet_start.strftime("%H:%M") if p.quiet_start else None,
        "quietEnd": p.quiet_end.strftime("%H:%M") if p.quiet_end else None,
        "timeZone": p.time_zone, "stored": view.stored, "access": int(view.access),
    }


def _push_setting(body: dict) -> PushSetting:
    def kinds(name: str) -> frozenset[AlarmKind]:
        return frozenset(AlarmKind(k) for k in body[name])

    def clock(name: str) -> time | None:
        return time.fromisoformat(body[name]) if body[name] else None

    return PushSetting(body["deviceId"], kinds("smsKinds"), kinds("voiceKinds"), kinds("emailKinds"),
                       clock("quietStart"), clock("quietEnd"), body["timeZone"])


@blp.route("/DeviceAlarmPushSetting/get")
class PushSettingGetView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.PushSettingQuery, location="query")
    @blp.ok(s.PushSettingSchema)
    @_unknown
    def get(self, query):
        """A device's alarm push settings: which alarm kinds go out by SMS, voice and e-mail to the
        recipients of its rules, and its quiet hours. A device without settings of its own answers
        the defaults (every kind by every channel, no quiet hours) with stored false."""
        get_setting = context.container().get_push_setting()
        return _push_row(get_setting(context.caller_id(), query["deviceId"]))


@blp.route("/DeviceAlarmPushSetting/update")
class PushSettingUpdateView(MethodView):
    @_read_only_or_unknown  # outermost: its 403 covers the permission too
    @blp.requires("device.list:edit")
    @blp.arguments(s.PushSettingUpdateSchema)
    @blp.ok(s.PushSettingSchema)
    def put(self, body):
        """Replace a device's alarm push settings. Quiet hours [quietStart, quietEnd) are local
        times in timeZone, both or neither, and may run over midnight. Inside them no voice call is
        made, and an SMS is held back from a recipient who gets the same alert by e-mail; a
        recipient reachable only by phone still gets the SMS, so an alarm always reaches someone.
        Nothing is sent later instead: the alarm stays in the message centre and escalates as
        usual. Refused (422, nothing changed): one bound without the other, equal bounds, an
        unknown time zone."""
        save = context.container().save_push_setting()
        return _push_row(save(context.caller_id(), _push_setting(body)))
