"""Device permission templates, shares and transfers, and the rules of what people type into them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.devices.grants import ALL_ELEMENTS, BY_CODE, Element, Grant
from core.shared.errors import InvalidInput, RuleViolation
from core.shared.messages import N_
from core.shared.text import has_refused_characters

TEMPLATE_NAME_MAX = 10  # spec 001 section 5: permission template name 10 characters
ACCOUNT_MIN, ACCOUNT_MAX = 2, 20  # spec 001 section 5: sharer names 2-20
MAX_DEVICES = 200  # devices one share or transfer takes

TEMPLATE_NAME = N_("A template name is 1 to 10 characters, without emoji")
ACCOUNT_TERM = N_("Enter the user name, phone or e-mail of the account (2-20 characters)")
END_IN_PAST = N_("The end time must be in the future")
UNKNOWN_ELEMENT = N_("Unknown device element")

# The templates every account has (synchronised with the reference data); their names are
# message ids, translated when read.
VIEW_ONLY = N_("View only")
FULL_CONTROL = N_("Full control")
BUILT_IN_TEMPLATES = ((VIEW_ONLY, Grant(ALL_ELEMENTS, 0)), (FULL_CONTROL, Grant(ALL_ELEMENTS, ALL_ELEMENTS)))


class NoSuchAccount(RuleViolation):
    code = 1801
    message = N_("No account has this user name, phone or e-mail")


class NotYourself(RuleViolation):
    code = 1802
    message = N_("You cannot share or transfer a device to yourself")


class TemplateInUse(RuleViolation):
    code = 1803
    message = N_("{count} shares use this template: change or revoke them first")


class BuiltInTemplate(RuleViolation):
    code = 1804
    message = N_("A built-in template cannot be changed")


class TemplateNameTaken(RuleViolation):
    code = 1805
    message = N_("You already have a template of this name")


def template_name(value: str) -> str:
    name = value.strip()
    if not 1 <= len(name) <= TEMPLATE_NAME_MAX or has_refused_characters(name):
        raise InvalidInput("name", TEMPLATE_NAME)
    return name


def account_term(value: str) -> str:
    term = value.strip()
    if not ACCOUNT_MIN <= len(term) <= ACCOUNT_MAX:
        raise InvalidInput("account", ACCOUNT_TERM)
    return term


def grant_of(entries: list[tuple[str, bool, bool]]) -> Grant:
    """A template's grant from (element code, visible, operable) entries; operable implies visible."""
    view = operate = 0
    for code, visible, operable in entries:
        element = BY_CODE.get(code)
        if element is None:
            raise InvalidInput("permissions", UNKNOWN_ELEMENT)
        if visible or operable:
            view |= element.bit
        if operable:
            operate |= element.bit
    return Grant(view, operate)


def entries_of(grant: Grant) -> list[tuple[Element, bool, bool]]:
    return [(e, grant.sees(e), grant.operates(e)) for e in Element]


@dataclass
class Template:
    id: int | None
    owner_account_id: int | None  # None: built in, every account's
    name: str
    grant: Grant
    shares: int = 0  # active shares using it (filled when read)

    @property
    def built_in(self) -> bool:
        return self.owner_account_id is None


@dataclass
class Share:
    id: int | None
    device_id: int
    owner_account_id: int  # who shared it: the device's owner at the time
    sharee_account_id: int
    template_id: int
    created_at: datetime
    ends_at: datetime | None = None
    revoked_at: datetime | None = None

    def active_at(self, now: datetime) -> bool:
        return self.revoked_at is None and (self.ends_at is None or now < self.ends_at)


@dataclass(frozen=True)
class ShareView:
    """A share as its lists show it."""

    id: int
    device_id: int
    device_name: str
    device_guid: str
    owner_name: str
    sharee_name: str
    template_id: int
    template_name: str
    created_at: datetime
    ends_at: datetime | None
    active: bool
    built_in_template: bool


@dataclass(frozen=True)
class Recipient:
    account_id: int
    user_name: str


@dataclass(frozen=True)
class TransferPreview:
    """What a transfer of these devices takes away, to say before it is confirmed."""

    devices: int
    shares: int  # active shares to be dropped
    projects: int  # devices leaving a project
    organizations: int  # devices leaving an organization
