from __future__ import annotations

from datetime import UTC, datetime

from marshmallow import ValidationError, fields, pre_load, validate

from core.alarms.deferral import DEFAULT_DEFER_MINUTES, DEFER_CHOICES, MAX_DEFER_MINUTES, MIN_DEFER_MINUTES
from core.alarms.model import MAX_LEVEL
from core.alarms.validation import (
    MAX_DELAY_SECONDS,
    MAX_LEVEL_MINUTES,
    MAX_RECIPIENTS,
    RECIPIENT_NAME_MAX,
    RESULT_MAX,
    RULE_NAME_MAX,
)
from core.devices.access import Access
from core.shared.edition import LANGUAGES
from core.shared.messages import N_
from core.telemetry.model import PROBES
from entrypoints.api import context
from entrypoints.api.fda.signature_schemas import signature_field, signature_rows
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema
from entrypoints.api.validators import email_rule, phone_rule

Length, OneOf, Range = validate.Length, validate.OneOf, validate.Range
MAX_ID = 2_147_483_647
LIMIT = Range(min=-200, max=200)  # the widest sensor range; the core checks the probe's own
PROBE_DESCRIPTION = "t temperature (°C), h humidity (%RH)"
DATETIME_MAX = 40
SIGNED_LIMITS = ("the signer's electronic signature: needed where FDA mode is on for the device (428 without "
                 "it); it binds the device's parameters and alarm limits as they then stand")


class ZonedDateTime(LocalDateTime):
    """An ISO 8601 instant; without an offset it is read in the caller's X-Time-Zone."""

    def __init__(self, **kwargs) -> None:
        metadata = {"maxLength": DATETIME_MAX, **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs) -> datetime:
        if isinstance(value, str) and len(value) > DATETIME_MAX:
            raise ValidationError(N_("Not a valid datetime."))
        parsed = super()._deserialize(value, attr, data, **kwargs)
        try:
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=context.time_zone.get())
            return parsed.astimezone(UTC)
        except (OverflowError, ValueError):  # the first or last day of the calendar, shifted out of it
            raise ValidationError(N_("Not a valid datetime.")) from None


class RecipientSchema(Schema):
    level = fields.Integer(required=True, validate=Range(1, MAX_LEVEL),
                           metadata={"description": "the graded level whose alerts this person gets"})
    name = fields.String(required=True, validate=Length(1, RECIPIENT_NAME_MAX))
    phone = fields.String(allow_none=True, load_default=None, validate=[Length(1, 20), phone_rule],
                          metadata={"description": "gets an SMS (one of the device's SMS counts)"})
    email = fields.String(allow_none=True, load_default=None, validate=[Length(1, 200), email_rule])
    voice = fields.Boolean(load_default=False,
                           metadata={"description": "also call the phone (one of the device's voice counts)"})
    language = fields.String(allow_none=True, load_default=None, validate=OneOf(LANGUAGES),
                             metadata={"description": "of this person's alerts; null: the device owner's"})

    @pre_load
    def _blank_is_none(self, data, **kwargs):
        if hasattr(data, "items"):
            return {k: (None if k in ("phone", "email") and v == "" else v) for k, v in data.items()}
        return data


class RecipientRowSchema(Schema):
    """A recipient as a rule is answered with: every field is there (null without a phone or e-mail)."""

    level = fields.Integer(required=True)
    name = fields.String(required=True)
    phone = fields.String(required=True, allow_none=True)
    email = fields.String(required=True, allow_none=True)
    voice = fields.Boolean(required=True)
    language = fields.String(required=True, allow_none=True, metadata={"description": "null: the device owner's"})


class _RuleFields(Schema):
    name = fields.String(required=True, validate=Length(1, RULE_NAME_MAX))
    upperLimit = fields.Float(allow_none=True, load_default=None, validate=LIMIT,
                              metadata={"description": "an alarm when the value is above it"})
    lowerLimit = fields.Float(allow_none=True, load_default=None, validate=LIMIT,
                              metadata={"description": "an alarm when the value is below it"})
    delaySeconds = fields.Integer(load_default=0, validate=Range(0, MAX_DELAY_SECONDS),
                                  metadata={"description": "how long the value must stay outside before it "
                                                           "is an alarm"})
    level1Minutes = fields.Integer(load_default=0, validate=Range(0, MAX_LEVEL_MINUTES),
                                   metadata={"description": "minutes after the alarm when level 1 is alerted "
                                                            "(0: at once)"})
    level2Minutes = fields.Integer(allow_none=True, load_default=None, validate=Range(0, MAX_LEVEL_MINUTES),
                                   metadata={"description": "above level1Minutes, or null for no level 2"})
    level3Minutes = fields.Integer(allow_none=True, load_default=None, validate=Range(0, MAX_LEVEL_MINUTES),
                                   metadata={"description": "above level2Minutes, or null for no level 3"})
    enabled = fields.Boolean(load_default=True)
    recipients = fields.List(fields.Nested(RecipientSchema), load_default=list,
                             validate=Length(max=MAX_RECIPIENTS))


class AlarmRuleInsertSchema(_RuleFields):
    deviceId = fields.Integer(required=True, validate=Range(1, MAX_ID))
    probe = fields.String(required=True, validate=OneOf(PROBES), metadata={"description": PROBE_DESCRIPTION})
    signature = signature_field(SIGNED_LIMITS)


KEPT = "absent: kept"
CLEARED = "absent: kept; null: cleared"


class AlarmRuleUpdateSchema(Schema):
    """Only the fields sent change; the whole rule must still be valid afterwards."""

    id = fields.Integer(required=True, validate=Range(1, MAX_ID))
    deviceId = fields.Integer(validate=Range(1, MAX_ID), metadata={"description": "cannot be changed"})
    probe = fields.String(validate=OneOf(PROBES), metadata={"description": "cannot be changed"})
    name = fields.String(validate=Length(1, RULE_NAME_MAX), metadata={"description": KEPT})
    upperLimit = fields.Float(allow_none=True, validate=LIMIT, metadata={"description": CLEARED})
    lowerLimit = fields.Float(allow_none=True, validate=LIMIT, metadata={"description": CLEARED})
    delaySeconds = fields.Integer(validate=Range(0, MAX_DELAY_SECONDS), metadata={"description": KEPT})
    level1Minutes = fields.Integer(validate=Range(0, MAX_LEVEL_MINUTES), metadata={"description": KEPT})
    level2Minutes = fields.Integer(allow_none=True, validate=Range(0, MAX_LEVEL_MINUTES),
                                   metadata={"description": f"{CLEARED} (no level 2, nor 3)"})
    level3Minutes = fields.Integer(allow_none=True, validate=Range(0, MAX_LEVEL_MINUTES),
                                   metadata={"description": f"{CLEARED} (no level 3)"})
    enabled = fields.Boolean(metadata={"description": KEPT})
    recipients = fields.List(fields.Nested(RecipientSchema), validate=Length(max=MAX_RECIPIENTS),
                             metadata={"description": "absent: kept; a list replaces them all ([] removes them)"})
    signature = signature_field(SIGNED_LIMITS, absent_only=True)


class SignedDeleteSchema(Schema):
    """A deletion's optional JSON body."""

    signature = signature_field(SIGNED_LIMITS)


class AlarmRuleSchema(Schema):
    id = fields.Integer(required=True)
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)
    deviceGuid = fields.String(required=True)
    probe = fields.String(required=True, metadata={"description": PROBE_DESCRIPTION})
    name = fields.String(required=True)
    upperLimit = fields.Float(required=True, allow_none=True)
    lowerLimit = fields.Float(required=True, allow_none=True)
    delaySeconds = fields.Integer(required=True)
    level1Minutes = fields.Integer(required=True)
    level2Minutes = fields.Integer(required=True, allow_none=True)
    level3Minutes = fields.Integer(required=True, allow_none=True)
    enabled = fields.Boolean(required=True)
    recipients = fields.List(fields.Nested(RecipientRowSchema), required=True)
    createdAt = LocalDateTime(required=True)
    updatedAt = LocalDateTime(required=True)


class AlarmRulePageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["createdAt"]))
    deviceId = fields.Integer(validate=Range(1, MAX_ID))
    probe = fields.String(validate=OneOf(PROBES), metadata={"description": PROBE_DESCRIPTION})


class IdQuery(Schema):
    id = fields.Integer(required=True, validate=Range(1, MAX_ID))


STATES = ("0 untreated, 1 treated (approved or refused), 2 deferred: until deferredUntil, then untreated "
          "again by itself")


class AlarmPageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["raisedAt"]))
    deviceId = fields.Integer(validate=Range(1, MAX_ID))
    state = fields.Integer(validate=OneOf([0, 1, 2]), metadata={"description": STATES})
    startTime = ZonedDateTime(metadata={"description": "raised at or after"})
    endTime = ZonedDateTime(metadata={"description": "raised before"})


class AlarmSchema(Schema):
    id = fields.Integer(required=True)
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)
    deviceGuid = fields.String(required=True)
    ruleId = fields.Integer(required=True, allow_none=True, metadata={"description": "null once the rule is deleted"})
    probe = fields.String(required=True, metadata={"description": PROBE_DESCRIPTION})
    kind = fields.Integer(required=True, metadata={"description": "1 above the upper limit, 2 below the lower"})
    limitValue = fields.Float(required=True)
    value = fields.Float(required=True, metadata={"description": "the reading that raised the alarm"})
    extremeValue = fields.Float(required=True, metadata={"description": "the furthest from the limit"})
    level = fields.Integer(required=True, metadata={"description": "highest graded level alerted, 0 none yet"})
    startedAt = LocalDateTime(required=True, metadata={"description": "the value left the limits"})
    raisedAt = LocalDateTime(required=True, metadata={"description": "it had stayed out for the delay"})
    endedAt = LocalDateTime(required=True, allow_none=True, metadata={"description": "back inside; null while on"})
    state = fields.Integer(required=True, metadata={"description": STATES})
    deferredUntil = LocalDateTime(required=True, allow_none=True, metadata={
        "description": "while deferred (state 2): when it is untreated again and its recipients are reminded"})
    deferralCount = fields.Integer(required=True, metadata={
        "description": "how many times it was deferred; each one is listed by /DeviceAlarm/deferrals"})
    handling = fields.Integer(required=True, allow_none=True, metadata={
        "description": "1 approved, 2 refused; null until then (a deferral does not handle it)"})
    result = fields.String(required=True, allow_none=True, metadata={"description": "the result given on handling"})
    handledAt = LocalDateTime(required=True, allow_none=True)
    handledBy = fields.String(required=True, allow_none=True, metadata={"description": "user name of who handled it"})
    temperatureUnit = fields.String(required=True, metadata={
        "description": "C or F: how the device shows temperatures; values here are always °C"})
    displayPrecision = fields.Integer(required=True, metadata={"description": "decimals the device's values show"})
    access = fields.Integer(required=True, validate=OneOf([int(Access.READ), int(Access.WRITE)]), metadata={
        "description": "the caller's access to the device, as in the device list: 1 read only (handling is "
                       "refused with 403), 2 read and change"})
    signatures = signature_rows("the electronic signatures of its handling (FDA mode), oldest first, each valid "
                                "while the alarm is as it was signed")


class DealSchema(Schema):
    id = fields.Integer(required=True, validate=Range(1, MAX_ID))
    handling = fields.Integer(required=True, validate=OneOf([1, 2, 3]),
                              metadata={"description": "1 approve, 2 refuse, 3 defer"})
    result = fields.String(allow_none=True, load_default=None, validate=Length(max=RESULT_MAX),
                           metadata={"description": "the handling result, or why it is deferred"})
    deferMinutes = fields.Integer(
        strict=True, allow_none=True, load_default=None, validate=Range(MIN_DEFER_MINUTES, MAX_DEFER_MINUTES),
        metadata={
            "description": f"with handling 3 only: minutes until the alarm is untreated again, "
                           f"{MIN_DEFER_MINUTES} to {MAX_DEFER_MINUTES} (the console offers "
                           f"{', '.join(map(str, DEFER_CHOICES))}); absent or null: {DEFAULT_DEFER_MINUTES}"})
    signature = signature_field("the handler's electronic signature: needed where FDA mode is on for the alarm's "
                                "device (428 without it); meaning responsible and the result as reason unless "
                                "given; a refused signature changes nothing")


class DeferralPageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["deferredAt"]))
    id = fields.Integer(required=True, validate=Range(1, MAX_ID), metadata={"description": "the alarm's id"})


class DeferralSchema(Schema):
    deferredAt = LocalDateTime(required=True)
    deferredUntil = LocalDateTime(required=True)
    minutes = fields.Integer(required=True, metadata={"description": "the delay chosen"})
    deferredBy = fields.String(required=True, allow_none=True, metadata={
        "description": "user name of who deferred it (null once that account is gone)"})
    result = fields.String(required=True, allow_none=True)


KINDS_DESCRIPTION = "alarm kinds: 1 above the upper limit, 2 below the lower"
QUIET_TIME = validate.Regexp(r"^([01][0-9]|2[0-3]):[0-5][0-9]$", error=N_("Use the 24-hour form HH:MM."))


def _kinds(channel: str) -> fields.List:
    return fields.List(fields.Integer(validate=OneOf([1, 2])), required=True, validate=Length(max=2),
                       metadata={"description": f"{KINDS_DESCRIPTION}, that go out {channel}"})


class PushSettingQuery(Schema):
    deviceId = fields.Integer(required=True, validate=Range(1, MAX_ID))


class PushSettingUpdateSchema(Schema):
    """The whole setting: it replaces what the device had."""

    deviceId = fields.Integer(required=True, validate=Range(1, MAX_ID))
    smsKinds = _kinds("by SMS (one of the device's SMS counts each)")
    voiceKinds = _kinds("by voice call to recipients with voice set (one of the device's voice counts each)")
    emailKinds = _kinds("by e-mail")
    quietStart = fields.String(required=True, allow_none=True, validate=[Length(max=5), QUIET_TIME], metadata={
        "description": "start of the quiet hours, local HH:MM in timeZone; null with quietEnd: none"})
    quietEnd = fields.String(required=True, allow_none=True, validate=[Length(max=5), QUIET_TIME], metadata={
        "description": "their end (exclusive); before the start: they run over midnight"})
    timeZone = fields.String(required=True, validate=Length(1, 64), metadata={
        "description": "IANA time zone of the quiet hours, e.g. Asia/Shanghai"})


class PushSettingSchema(Schema):
    deviceId = fields.Integer(required=True)
    smsKinds = fields.List(fields.Integer(), required=True, metadata={"description": KINDS_DESCRIPTION})
    voiceKinds = fields.List(fields.Integer(), required=True, metadata={"description": KINDS_DESCRIPTION})
    emailKinds = fields.List(fields.Integer(), required=True, metadata={"description": KINDS_DESCRIPTION})
    quietStart = fields.String(required=True, allow_none=True)
    quietEnd = fields.String(required=True, allow_none=True)
    timeZone = fields.String(required=True)
    stored = fields.Boolean(required=True, metadata={
        "description": "false: the device has no settings of its own and these defaults apply"})
    access = fields.Integer(required=True, validate=OneOf([int(Access.READ), int(Access.WRITE)]), metadata={
        "description": "the caller's access to the device: 1 read only (an update is refused with 403), 2 read "
                       "and change"})
