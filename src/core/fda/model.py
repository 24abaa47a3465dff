"""Who FDA mode is on for (a subject: an account of its own, or an organization) and what a
signature means (21 CFR 11.50(a)(3))."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.shared.messages import NC_


@dataclass(frozen=True)
class Subject:
    """An account (its own records) or an organization (its devices' records): exactly one."""

    account_id: int | None = None
    organization_id: int | None = None

    def __post_init__(self) -> None:
        if (self.account_id is None) == (self.organization_id is None):
            raise ValueError("a subject is an account or an organization")

    @property
    def key(self) -> str:
        """The subject as one short text ("a:12", "o:3"): the audit trail's chain key."""
        return f"a:{self.account_id}" if self.account_id is not None else f"o:{self.organization_id}"

    @classmethod
    def of_device(cls, owner_account_id: int, organization_id: int | None) -> Subject:
        """An organization's device is the organization's record; any other the owner's."""
        return cls(organization_id=organization_id) if organization_id is not None else cls(account_id=owner_account_id)


@dataclass(frozen=True)
class FdaSwitch:
    subject: Subject
    on: bool
    name: str  # the account's user name or the organization's name


class Meaning(StrEnum):
    """What a signer declares by signing (11.50(a)(3)); an endorsement may carry its own text."""

    REVIEWED = "reviewed"
    APPROVED = "approved"
    RESPONSIBLE = "responsible"
    AUTHORED = "authored"


# What each meaning says, in the reader's language (an endorsement's own meaning is shown as written):
# translated under MEANING_CONTEXT (Translator.pgettext), since "Approved" says otherwise elsewhere.
MEANING_CONTEXT = "signature meaning"
MEANING_TEXTS: dict[Meaning, str] = {
    Meaning.REVIEWED: NC_("signature meaning", "Reviewed"),
    Meaning.APPROVED: NC_("signature meaning", "Approved"),
    Meaning.RESPONSIBLE: NC_("signature meaning", "Responsible"),
    Meaning.AUTHORED: NC_("signature meaning", "Authored"),
}


def meaning_words(meaning: str, in_context: Callable[[str, str], str]) -> str:
    """A meaning in the reader's language (`in_context(message context, msgid)` translates); an
    endorsement's own words as they were written."""
    return meaning if meaning not in _MEANINGS else in_context(MEANING_CONTEXT, MEANING_TEXTS[Meaning(meaning)])


_MEANINGS = frozenset(m.value for m in Meaning)


@dataclass(frozen=True)
class Manifestation:
    """What a signed record shows of each signature (11.50): printed name, date and time with the
    signer's time zone, and meaning; `valid` is false once the record changed after signing."""

    signer_name: str
    signer_login: str
    meaning: str  # a Meaning's value, or an endorsement's own meaning
    signed_at: datetime  # aware, UTC
    time_zone: str  # IANA name the signer signed in
    reason: str | None
    endorsement_name: str | None
    valid: bool
    # which signature of which record (the signatures list and a record's own list show them)
    id: int | None = None
    record_type: str = ""
    record_id: str = ""
    record_label: str = ""
    endorsement_id: int | None = None

    @property
    def local_signed_at(self) -> datetime:
        """When it was signed, in the zone the signer signed in (11.50(a)(2)); UTC for a zone this
        machine does not know."""
        try:
            zone = ZoneInfo(self.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            zone = ZoneInfo("UTC")
        return self.signed_at.astimezone(zone)


@dataclass(frozen=True)
class SignableRecord:
    """One version of a record a signature can bind to (11.70): `content_hash` is the SHA-256 (hex)
    of the record's content as signed; a signature whose hash differs from the record's current one
    no longer applies to it."""

    record_type: str  # "alarm", "deviceParams", "waybill", "report", "fda"
    record_id: str
    label: str  # what a person reads in a list of signatures: a device's name and the alarm, ...
    content_hash: str
    subject: Subject  # whose records: the signature joins that subject's trail


# --- the periodic report (core.fda.reports) ---------------------------------------------------------


class ReportStatus(StrEnum):
    """Where a periodic report stands, by its valid signatures: reviewed, then approved by
    another person."""

    DRAFT = "draft"
    REVIEWED = "reviewed"
    APPROVED = "approved"


@dataclass(frozen=True)
class JudgedLimit:
    """A probe's alarm limits as they were when the report was made: what it judges the period by."""

    probe: str
    lower: float | None
    upper: float | None


@dataclass(frozen=True)
class FdaReport:
    """A device's data over a period, as a record to sign (21 CFR 11.70): the period's readings
    are read again each time, so a late reading in the period makes another version of it."""

    id: int | None
    device_id: int
    owner_account_id: int  # the device's owner when the report was made
    organization_id: int | None  # the device's organization then: with the owner, whose record it is
    title: str
    start: datetime
    end: datetime
    time_zone: str  # the IANA zone the period was chosen in: its dates read in it
    limits: tuple[JudgedLimit, ...]
    created_by: int
    created_at: datetime
    content_hash: str  # the version it was made on
    # read with it: the device as it is now (None once it is gone) and the maker's printed name
    device_name: str | None = None
    device_guid: str | None = None
    creator_name: str = ""

    @property
    def subject(self) -> Subject:
        return Subject.of_device(self.owner_account_id, self.organization_id)


@dataclass(frozen=True)
class TrailState:
    """What the verification of a subject's audit trail found (core.fda.audit_trail's own check),
    as a document that states it (the periodic report, a signed export) prints it."""

    verified: bool
    links: int
    first_broken: int | None  # the first broken link's sequence number
    checked_at: datetime
    head_hash: str | None = None  # the newest link's hash: the anchor an auditor keeps


@dataclass(frozen=True)
class ReportFilter:
    organization_id: int | None = None
    device_id: int | None = None


def _canonical(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def content_hash(content: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of a record's content as one canonical JSON text: keys sorted, instants in
    UTC, so the same content always hashes the same whichever database or process reads it."""
    text = json.dumps(_canonical(content), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


# The record types signatures bind to; the persistence adapter maps each to its RecordVersions.
ALARM, DEVICE_PARAMS, WAYBILL, REPORT, FDA_SWITCH = "alarm", "deviceParams", "waybill", "report", "fda"
EXPORT = "export"  # a device-data export of the download centre, signed by who asked for it
RECORD_TYPES = (ALARM, DEVICE_PARAMS, WAYBILL, REPORT, FDA_SWITCH, EXPORT)

USER_NAME_MAX = 50
PASSWORD_MAX = 128
REASON_MAX = 200
TIME_ZONE_MAX = 64
RECORD_ID_MAX = 64


@dataclass(frozen=True)
class SignatureInput:
    """What a signer gives with a signing call (the API's `signature` object): the password always,
    the user name when the session must re-authenticate in full (11.200(a)(1)), and the meaning,
    directly or through an endorsement."""

    password: str
    user_name: str | None = None
    meaning: str | None = None
    endorsement_id: int | None = None
    reason: str | None = None
    time_zone: str = "UTC"


@dataclass(frozen=True)
class Signer:
    """Who signs, and in which login session: the session decides whether the user name is needed."""

    account_id: int
    session_id: int


@dataclass(frozen=True)
class Signature:
    """A stored signature: who, what it means, when and where, and the version of the record it binds."""

    record_type: str
    record_id: str
    record_label: str
    content_hash: str
    subject: Subject
    signer_account_id: int
    signer_login: str
    signer_name: str  # printed name: the real name, else the user name, as it was when signing
    meaning: str
    reason: str | None
    signed_at: datetime
    time_zone: str
    session_id: int | None = None
    endorsement_id: int | None = None
    endorsement_name: str | None = None
    id: int | None = None

    def manifestation(self, current_hash: str | None) -> Manifestation:
        return Manifestation(self.signer_name, self.signer_login, self.meaning, self.signed_at, self.time_zone,
                             self.reason, self.endorsement_name, current_hash == self.content_hash, self.id,
                             self.record_type, self.record_id, self.record_label, self.endorsement_id)


@dataclass
class Endorsement:
    """Who may sign which records of a subject, with what meaning (spec 001 section 5: name and
    description up to 50): the signer is one of `account_ids` or holds one of `role_ids` in the
    organization (both empty: anyone who may sign the record), and with `distinct_signer` differs
    from every earlier valid signer of the record (checked, then approved)."""

    subject: Subject
    name: str
    description: str | None
    meaning: str  # a Meaning's value or the endorsement's own words
    record_types: tuple[str, ...]
    role_ids: tuple[int, ...] = ()
    account_ids: tuple[int, ...] = ()
    distinct_signer: bool = False
    id: int | None = None


@dataclass(frozen=True)
class SigningLock:
    """An account's consecutive failed signing attempts, and the end of its lock once they reached the limit."""

    failures: int = 0
    locked_until: datetime | None = None

    def locked_at(self, now: datetime) -> bool:
        return self.locked_until is not None and now < self.locked_until


# System messages of a signing lock (params: account, count, until, organization for the administrators').
SIGNING_LOCKED = "fda_signing_locked"
MEMBER_SIGNING_LOCKED = "fda_member_signing_locked"
