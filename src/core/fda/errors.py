"""The refusals of electronic signing (codes 2321-2339), each with the HTTP status the API answers
it with (entrypoints/api/errors.py): a signing call's client shows the message in its signature
dialog and reads the signing state again."""

from __future__ import annotations

from core.shared.errors import DomainError, Forbidden, RuleViolation
from core.shared.messages import N_


class SignatureRequired(DomainError):
    """FDA mode is on for the record's subject and the call came without a signature (HTTP 428)."""

    code = 2321
    message = N_("This change needs your electronic signature")


class UserNameNeeded(DomainError):
    """The session's first signature, or the first after the re-authentication window, takes both
    components (21 CFR 11.200(a)(1)) (HTTP 400)."""

    code = 2322
    message = N_("Sign with your user name and password")


class WrongSignature(Forbidden):
    code = 2323
    message = N_("The user name or password is wrong. Attempts left before signing is locked: {left}")


class SigningLocked(DomainError):
    """Too many consecutive failures (11.300(d)): every signing is refused until the lock ends or an
    administrator of one of the account's organizations lifts it (HTTP 423)."""

    code = 2324
    message = N_("Signing is locked for your account after {count} failed attempts, until {until} (UTC). "
                 "An administrator of your organization can unlock it.")


class NotEndorsed(Forbidden):
    code = 2325
    message = N_("This endorsement does not allow you to sign this record")


class SignerMustDiffer(RuleViolation):
    code = 2326
    message = N_("This record needs the signature of another person: you have already signed it")


class ReviewBeforeApproval(RuleViolation):
    """A report is approved after it was reviewed by somebody else (checked, then approved)."""

    code = 2327
    message = N_("A report is approved after another person has reviewed it")


class UnknownTimeZone(DomainError):
    code = 2328
    message = N_("Unknown time zone: give an IANA name such as Europe/Berlin")


class MayNotSign(Forbidden):
    code = 2329
    message = N_("You may sign only records you may change, or as an endorsement names you")


class NoSelfUnlock(Forbidden):
    code = 2330
    message = N_("Another administrator of your organization must unlock your signing")


# The texts of a repeated switch (spec 001 section 4: a repeated action warns it is not needed).
ALREADY_ON = N_("FDA mode is already on: nothing to do")
ALREADY_OFF = N_("FDA mode is already off: nothing to do")
NOT_LOCKED = N_("Signing is not locked for this account: nothing to do")

ERRORS: tuple[type[DomainError], ...] = (
    SignatureRequired, UserNameNeeded, WrongSignature, SigningLocked, NotEndorsed, SignerMustDiffer,
    ReviewBeforeApproval, UnknownTimeZone, MayNotSign, NoSelfUnlock)
