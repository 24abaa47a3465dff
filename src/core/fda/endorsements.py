"""Endorsements (spec 001 section 5, 21 CFR 11.10(g)): who may sign which records of a subject and
what the signature means. An organization's are made by its creator and administrators and read by
its members (they sign under them); an account's own are its own."""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.fda.model import RECORD_TYPES, Endorsement, Subject
from core.fda.ports import FdaUnitOfWork
from core.fda.switch import managed_subject
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest
from core.shared.text import has_refused_characters

NAME_MAX = DESCRIPTION_MAX = MEANING_MAX = 50  # spec 001 section 5
MAX_ROLES, MAX_ACCOUNTS = 50, 200

NAME_REQUIRED = N_("Enter the endorsement's name")
TEXT_LENGTH = N_("At most {max} characters")
NO_EMOJI = N_("Emoji and control characters are not allowed here")
MEANING_REQUIRED = N_("Enter what a signature under this endorsement means")
RECORD_TYPES_REQUIRED = N_("Choose the kinds of records this endorsement signs")
NOT_ORGANIZATION_ROLES = N_("Choose roles of the organization")
NOT_MEMBERS = N_("Choose members of the organization")
OWN_ONLY = N_("An endorsement of your own records names nobody but you")


@dataclass(frozen=True)
class EndorsementInput:
    name: str
    description: str | None
    meaning: str
    record_types: tuple[str, ...]
    role_ids: tuple[int, ...] = ()
    account_ids: tuple[int, ...] = ()
    distinct_signer: bool = False


def _text(problems: dict[str, str], params: dict[str, dict[str, int]], field: str, value: str | None,
          limit: int, required: str | None) -> str | None:
    text = (value or "").strip() or None
    if text is None:
        if required:
            problems[field] = required
    elif len(text) > limit:
        problems[field], params[field] = TEXT_LENGTH, {"max": limit}
    elif has_refused_characters(text, symbols=True):
        problems[field] = NO_EMOJI
    return text


def _checked(uow: FdaUnitOfWork, subject: Subject, account_id: int, given: EndorsementInput) -> Endorsement:
    problems: dict[str, str] = {}
    params: dict[str, dict[str, int]] = {}
    name = _text(problems, params, "name", given.name, NAME_MAX, NAME_REQUIRED)
    description = _text(problems, params, "description", given.description, DESCRIPTION_MAX, None)
    meaning = _text(problems, params, "meaning", given.meaning, MEANING_MAX, MEANING_REQUIRED)
    record_types = tuple(dict.fromkeys(given.record_types))
    if not record_types or not set(record_types) <= set(RECORD_TYPES):
        problems["recordTypes"] = RECORD_TYPES_REQUIRED
    role_ids, account_ids = tuple(dict.fromkeys(given.role_ids)), tuple(dict.fromkeys(given.account_ids))
    if subject.organization_id is None:
        if role_ids or not set(account_ids) <= {account_id}:
            problems["roleIds" if role_ids else "accountIds"] = OWN_ONLY
    else:
        organization = subject.organization_id
        roles = uow.endorsements.roles(role_ids)
        if len(roles) != len(role_ids) or any(r.organization_id not in (None, organization) for r in roles.values()):
            problems["roleIds"] = NOT_ORGANIZATION_ROLES
        if any(uow.organizations.role_of(organization, a) is None for a in account_ids):
            problems["accountIds"] = NOT_MEMBERS
    if problems:
        raise InvalidInput.of(problems, params)
    return Endorsement(subject, name or "", description, meaning or "", record_types, role_ids, account_ids,
                       given.distinct_signer)


def _readable_subject(uow: FdaUnitOfWork, account_id: int, organization_id: int | None) -> Subject:
    if organization_id is None:
        return Subject(account_id=account_id)
    if uow.organizations.role_of(organization_id, account_id) is None:
        raise NotFound()
    return Subject(organization_id=organization_id)


def _managed(uow: FdaUnitOfWork, account_id: int, endorsement_id: int) -> Endorsement:
    """An endorsement the caller changes: 404 for another's (a stranger's organization, another
    account's own) as for an unknown id, 403 for a plain member of its organization."""
    found = uow.endorsements.get(endorsement_id)
    if found is None or (found.subject.account_id is not None and found.subject.account_id != account_id):
        raise NotFound()
    managed_subject(uow, account_id, found.subject.organization_id)
    return found


class ListEndorsements:
    def __init__(self, uow: FdaUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int | None, request: PageRequest) -> Page[Endorsement]:
        with self._uow as uow:
            return uow.endorsements.page(_readable_subject(uow, account_id, organization_id), request)


class AddEndorsement:
    def __init__(self, uow: FdaUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, organization_id: int | None, given: EndorsementInput) -> Endorsement:
        with self._uow as uow:
            subject = managed_subject(uow, account_id, organization_id)
            stored = uow.endorsements.add(_checked(uow, subject, account_id, given), self._clock.now())
            uow.commit()
        return stored


class ChangeEndorsement:
    def __init__(self, uow: FdaUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, endorsement_id: int, given: EndorsementInput) -> Endorsement:
        with self._uow as uow:
            found = _managed(uow, account_id, endorsement_id)
            changed = replace(_checked(uow, found.subject, account_id, given), id=found.id)
            uow.endorsements.update(changed, self._clock.now())
            uow.commit()
        return changed


class DeleteEndorsement:
    """Signatures made under it keep its name; nobody signs under it any more."""

    def __init__(self, uow: FdaUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, endorsement_id: int) -> None:
        with self._uow as uow:
            _managed(uow, account_id, endorsement_id)
            uow.endorsements.delete(endorsement_id)
            uow.commit()
