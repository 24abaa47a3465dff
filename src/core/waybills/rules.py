"""The rules of a waybill's particulars (spec 001 section 5), checked on the trimmed values; a
refusal names every field that is wrong under the API's name for it."""

from __future__ import annotations

import math
from dataclasses import replace

from core.shared.errors import InvalidInput
from core.shared.text import contact_email_problem, contact_phone_problem, has_refused_characters
from core.waybills.model import (
    ADDRESS_LENGTH,
    ADDRESS_MAX,
    CHARACTERS,
    CONTACT_NEEDS_WAY,
    CONTACTS_COUNT,
    CONTACTS_MAX,
    EXPRESS_LENGTH,
    EXPRESS_MAX,
    LIMIT_RANGE,
    LIMIT_RANGE_TEXT,
    SHORT_LENGTH,
    SHORT_MAX,
    START_AFTER_STOP,
    TEMPLATE_NAME_LENGTH,
    TEMPLATE_NAME_MAX,
    UPPER_NOT_ABOVE_LOWER,
    Contact,
    Particulars,
    Party,
)


def _clean(value: str | None) -> str | None:
    return (value or "").strip() or None


def _text_problem(value: str | None, limit: int, too_long: str) -> str | None:
    if value is None:
        return None
    if len(value) > limit:
        return too_long
    return CHARACTERS if has_refused_characters(value, symbols=True) else None


def _phone_problem(value: str | None) -> str | None:
    return None if value is None else contact_phone_problem(value)


def _party(party: Party) -> Party:
    return Party(_clean(party.name), _clean(party.phone), _clean(party.address))


def _party_problems(party: Party, prefix: str) -> dict[str, str]:
    problems = {}
    if problem := _text_problem(party.name, SHORT_MAX, SHORT_LENGTH):
        problems[f"{prefix}Name"] = problem
    if problem := _phone_problem(party.phone):
        problems[f"{prefix}Phone"] = problem
    if problem := _text_problem(party.address, ADDRESS_MAX, ADDRESS_LENGTH):
        problems[f"{prefix}Address"] = problem
    return problems


def _contact_problem(contact: Contact) -> str | None:
    if not contact.name or (contact.phone is None and contact.email is None):
        return CONTACT_NEEDS_WAY
    if problem := _text_problem(contact.name, SHORT_MAX, CONTACT_NEEDS_WAY):
        return problem
    if problem := _phone_problem(contact.phone):
        return problem
    return None if contact.email is None else contact_email_problem(contact.email)


def limits_problem(upper: float | None, lower: float | None) -> tuple[str, str] | None:
    """(field, message) of what is wrong with the limits, None when nothing is."""
    low, high = LIMIT_RANGE
    for name, value in (("upperLimit", upper), ("lowerLimit", lower)):
        if value is not None and (not math.isfinite(value) or not low <= value <= high):
            return name, LIMIT_RANGE_TEXT
    if upper is not None and lower is not None and upper <= lower:
        return "upperLimit", UPPER_NOT_ABOVE_LOWER
    return None


def checked(p: Particulars) -> Particulars:
    """The particulars trimmed (an empty text is none), or InvalidInput naming each wrong field."""
    clean = replace(
        p, order_number=_clean(p.order_number), goods_name=_clean(p.goods_name),
        express_number=_clean(p.express_number), cooler_code=_clean(p.cooler_code),
        sender=_party(p.sender), receiver=_party(p.receiver),
        contacts=tuple(Contact((c.name or "").strip(), _clean(c.phone), _clean(c.email)) for c in p.contacts))
    problems: dict[str, str] = {}
    for name, value in (("orderNum", clean.order_number), ("goodsName", clean.goods_name),
                        ("coolerCode", clean.cooler_code)):
        if problem := _text_problem(value, SHORT_MAX, SHORT_LENGTH):
            problems[name] = problem
    if problem := _text_problem(clean.express_number, EXPRESS_MAX, EXPRESS_LENGTH):
        problems["expressNumber"] = problem
    problems.update(_party_problems(clean.sender, "sender"))
    problems.update(_party_problems(clean.receiver, "receiver"))
    if len(clean.contacts) > CONTACTS_MAX:
        problems["alarmContacts"] = CONTACTS_COUNT
    elif contact_problems := [found for c in clean.contacts if (found := _contact_problem(c))]:
        problems["alarmContacts"] = contact_problems[0]
    if (clean.planned_start is not None and clean.planned_stop is not None
            and clean.planned_start > clean.planned_stop):
        problems["startTime"] = START_AFTER_STOP
    if limits := limits_problem(clean.upper_limit, clean.lower_limit):
        problems[limits[0]] = limits[1]
    if problems:
        raise InvalidInput.of(problems)
    return clean


def template_name_problem(name: str) -> str | None:
    if not name or len(name) > TEMPLATE_NAME_MAX:
        return TEMPLATE_NAME_LENGTH
    return CHARACTERS if has_refused_characters(name, symbols=True) else None
