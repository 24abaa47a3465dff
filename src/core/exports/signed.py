"""FDA mode's part in a device's data export (issue 22, 21 CFR 11.50, 11.70, 11.10(e)).

Where FDA mode is on for the device's subject (its organization, else its owner), who asks for the
export signs it, meaning "authored" (use_cases.RequestExport), and every file of it states the
signatures' manifestations and whether the subject's audit trail verified when it was written, with
the trail's newest hash (use_cases.RunExport).

An export's version (what a signature binds, core.fda.model.content_hash) is its request: the
export, the device, the period, the format and the account that asked. None of it changes after the
export is recorded, so its signature applies for as long as the export is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any
from zoneinfo import ZoneInfo

from core.exports.device_report import InContext, Labels, signature_line, trail_line
from core.exports.model import Export
from core.exports.ports import ExportsUnitOfWork
from core.fda.model import EXPORT, Manifestation, Subject, TrailState, content_hash
from core.shared.messages import N_

SIGNATURE = N_("Electronic signature")
NOT_SIGNED = N_("Not signed")
TRAIL = N_("Audit trail")
NEWEST_HASH = N_("Newest link's hash (keep it: a later trail without it lost links)")
NONE = N_("None")


def version_content(export: Export) -> dict[str, Any]:
    return {"export": export.id, "kind": export.kind.value, "device": export.device_id, "since": export.since,
            "until": export.until, "format": export.format.value, "account": export.account_id}


def version_hash(export: Export) -> str:
    return content_hash(version_content(export))


def version_label(export: Export) -> str:
    """What a list of signatures shows of the export: the device as it was named, the period in UTC, the format."""
    since, until = (instant.astimezone(UTC) if instant else None for instant in (export.since, export.until))
    period = f"{since:%Y-%m-%d %H:%M} – {until:%Y-%m-%d %H:%M} UTC" if since and until else ""
    return f"{export.title} {period} ({export.format.value.upper()})".strip()


@dataclass(frozen=True)
class Signed:
    """FDA mode's part in an export being written: whose records, and the export's signatures."""

    subject: Subject
    signatures: Sequence[Manifestation]


def signed_part(uow: ExportsUnitOfWork, export: Export) -> Signed | None:
    """Inside an open unit of work: None when FDA mode has no part in the export (its device's
    subject has it off, and nobody signed the export while it was on); its files then stay as ever."""
    if export.device_id is None:
        return None
    subject = uow.fda_switches.subject_of_device(export.device_id)
    if subject is None:
        return None
    signatures = uow.signature_reader.of_record(EXPORT, export.id, version_hash(export))
    if not signatures and not uow.fda_switches.is_on(subject):
        return None
    return Signed(subject, signatures)


def statement(signed: Signed, trail: TrailState | None, t: Labels, in_context: InContext,
              zone: ZoneInfo) -> list[tuple[str, str]]:
    """The lines a file states (label, value): each signature's manifestation (or that nobody signed
    it: a scheduled report's file), then whether the audit trail verified and its newest hash."""
    lines = [(t(SIGNATURE), signature_line(s, t, in_context)) for s in signed.signatures]
    if not lines:
        lines.append((t(SIGNATURE), t(NOT_SIGNED)))
    head = trail.head_hash if trail is not None else None
    return [*lines, (t(TRAIL), trail_line(trail, t, zone)), (t(NEWEST_HASH), head or t(NONE))]
