"""FDA mode on or off (spec 001 section 4): per subject, the caller's own records or an
organization's. An organization's switch is its creator's and administrators' to change. Switching
on again, or off again, changes nothing and says so (the repeated-action warning). Switching off
takes a signature meaning "approved" with a reason, and both stay in the operation log."""

from __future__ import annotations

from dataclasses import dataclass

from core.fda.errors import SignatureRequired
from core.fda.model import FDA_SWITCH, FdaSwitch, Meaning, SignatureInput, Signer, Subject
from core.fda.ports import FdaUnitOfWork
from core.fda.signing import Signing
from core.organizations.model import MANAGERS
from core.shared.errors import Forbidden, InvalidInput, NotFound
from core.shared.messages import N_

REASON_NEEDED = N_("Say why FDA mode is switched off")
APPROVAL_ONLY = N_("Switching FDA mode off is signed as approved")


@dataclass(frozen=True)
class SwitchView:
    switch: FdaSwitch
    changeable: bool


@dataclass(frozen=True)
class Switched:
    on: bool
    changed: bool


def managed_subject(uow: FdaUnitOfWork, account_id: int, organization_id: int | None) -> Subject:
    """The subject the caller switches: its own records, or an organization it administers (403
    for a plain member, 404 for a stranger or an unknown organization)."""
    if organization_id is None:
        return Subject(account_id=account_id)
    role = uow.organizations.role_of(organization_id, account_id)
    if role is None:
        raise NotFound()
    if role not in MANAGERS:
        raise Forbidden()
    return Subject(organization_id=organization_id)


class FdaStatus:
    def __init__(self, uow: FdaUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> list[SwitchView]:
        with self._uow as uow:
            managed = {o.organization_id for o in uow.organizations.mine(account_id)
                       if o.creator or o.role_code in MANAGERS}
            return [SwitchView(s, s.subject.account_id == account_id or s.subject.organization_id in managed)
                    for s in uow.fda_switches.switches_of(account_id)]


class EnableFda:
    def __init__(self, uow: FdaUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, organization_id: int | None) -> Switched:
        with self._uow as uow:
            subject = managed_subject(uow, account_id, organization_id)
            if uow.fda_switches.is_on(subject):
                return Switched(True, False)
            uow.fda_switches.set_on(subject, True)
            uow.commit()
        return Switched(True, True)


class DisableFda:
    """Off, signed: the signature binds the switch's new state (record "fda" of the subject)."""

    def __init__(self, uow: FdaUnitOfWork, signing: Signing) -> None:
        self._uow, self._signing = uow, signing

    def __call__(self, signer: Signer, organization_id: int | None, given: SignatureInput | None) -> Switched:
        with self._uow as uow:
            subject = managed_subject(uow, signer.account_id, organization_id)
            if not uow.fda_switches.is_on(subject):
                return Switched(False, False)
            if given is None:
                raise SignatureRequired()
            if given.meaning not in (None, Meaning.APPROVED) or given.endorsement_id is not None:
                raise InvalidInput("meaning", APPROVAL_ONLY)
            if not (given.reason or "").strip():
                raise InvalidInput("reason", REASON_NEEDED)
            passed = self._signing.authenticate(signer, given)
            uow.fda_switches.set_on(subject, False)
            record = self._signing.record(FDA_SWITCH, subject.key, signer.account_id)
            self._signing.write(passed, record, meaning=Meaning.APPROVED, acting=True)
            uow.commit()
        return Switched(False, True)
