"""The lines an export writes above its rows about an audit trail's verification (core.fda.trail):
the trail's own export, and the operation log's when the reader has FDA mode on."""

from __future__ import annotations

from datetime import datetime, tzinfo

from adapters.i18n import Translator
from core.fda.trail import REASONS, BrokenLink, Verification
from core.shared.messages import N_

TRAIL = N_("Audit trail")
VERIFIED = N_("Verified")
YES, NO = N_("Yes"), N_("No")
LINKS = N_("Links")
CHECKED_AT = N_("Checked at")
FIRST_BROKEN = N_("First broken link")
NONE = N_("None")
NEWEST_HASH = N_("Newest link's hash (keep it: a later trail without it lost links)")
BROKEN_AT = N_("Link {seq}, entry {operation} of {at}: {reason}")


def local(at: datetime, zone: tzinfo) -> str:
    return at.astimezone(zone).isoformat(sep=" ", timespec="seconds")


def broken_text(broken: BrokenLink, translator: Translator, language: str, zone: tzinfo) -> str:
    return translator.translate(BROKEN_AT, language, seq=broken.seq, operation=broken.operation_id,
                                at=local(broken.at, zone),
                                reason=translator.translate(REASONS[broken.reason], language))


def verification_lines(verifications: list[Verification], translator: Translator, language: str,
                       zone: tzinfo) -> list[list[object]]:
    """For each trail: whose, whether it verified, its links, when it was checked, its first broken
    link and its newest hash; a blank line after each."""
    def t(text: str) -> str:
        return translator.translate(text, language)

    lines: list[list[object]] = []
    for v in verifications:
        broken = v.first_broken
        lines += [[t(TRAIL), v.name], [t(VERIFIED), t(YES if v.verified else NO)], [t(LINKS), v.links],
                  [t(CHECKED_AT), local(v.checked_at, zone)],
                  [t(FIRST_BROKEN), t(NONE) if broken is None else broken_text(broken, translator, language, zone)],
                  [t(NEWEST_HASH), v.head_hash or ""], []]
    return lines
