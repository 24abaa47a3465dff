"""Electronic signatures (21 CFR Part 11): a signature binds a signer, a meaning, an instant with the
signer's time zone, and the exact version of a record (its content hash, 11.70).

- **Two components** (11.200(a)(1)): the first signature of a login session takes the user name and
  the password; later ones within the re-authentication window the password alone (a user name
  given must still be the signer's). The window runs from the session's last signature.
- **Lockout** (11.300(d)): consecutive failures are counted per account; the limit-th locks signing
  for a while, and the account and the administrators of its organizations are told at once (a
  system message with an e-mail copy). A success resets the count; an administrator may unlock.
- **Who signs** a record: who may change it (its owner, the organization's members whose role
  changes its devices), or whom an endorsement of the record's subject names; a change signed as
  part of a call (an alarm's handling) was already allowed by that call's own check.
- **Rules**: an endorsement's record types and signers, its distinct signer, and the built-in rule
  that a report is approved only after another person reviewed it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import cache
from zoneinfo import available_timezones

from core.accounts.model import Account
from core.accounts.ports import PasswordHasher
from core.fda.errors import (
    MayNotSign,
    NotEndorsed,
    ReviewBeforeApproval,
    SignatureRequired,
    SignerMustDiffer,
    SigningLocked,
    UnknownTimeZone,
    UserNameNeeded,
    WrongSignature,
)
from core.fda.model import (
    MEMBER_SIGNING_LOCKED,
    REPORT,
    SIGNING_LOCKED,
    Endorsement,
    Meaning,
    SignableRecord,
    Signature,
    SignatureInput,
    Signer,
    SigningLock,
    Subject,
)
from core.fda.ports import Authenticated, FdaUnitOfWork, RecordVersions
from core.inbox.model import MessageKind, SystemMessage
from core.inbox.posting import post
from core.organizations.model import MANAGERS
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.messages import N_

MEANING_NEEDED = N_("Choose what your signature means")
MEANING_FIXED = N_("The endorsement gives the signature its meaning")
# The lock's alert is a reminder-like message: the web client knows the inbox's kinds, and a kind
# of its own would need it first (the e-mail copy goes whatever the reader chose for the kind).
ALERT_KIND = MessageKind.EXPIRY


@dataclass(frozen=True)
class SigningPolicy:
    reauth_window: timedelta = timedelta(minutes=15)  # FDA_REAUTH_MINUTES
    lock_for: timedelta = timedelta(minutes=30)  # FDA_SIGNING_LOCK_MINUTES
    max_failures: int = 5


@dataclass(frozen=True)
class SigningState:
    needs_user_name: bool
    locked_until: datetime | None
    reauth_minutes: int
    user_name: str


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones()) | {"UTC"}


def time_zone_of(name: str | None) -> str:
    zone = (name or "").strip() or "UTC"
    if zone not in _zones():
        raise UnknownTimeZone()
    return zone


def printed_name(account: Account) -> str:
    """The name a signature shows (11.50(a)(1)): the account's real name, else its user name."""
    return (account.real_name or "").strip() or account.user_name


def _may_change(uow: FdaUnitOfWork, subject: Subject, account_id: int) -> bool:
    if subject.account_id is not None:
        return subject.account_id == account_id
    return uow.device_registry.organizations_of(account_id).get(subject.organization_id or 0, False)


class Signing:
    """Credentials, rules and the writing of signatures, inside the transaction of the use case
    that holds the same unit of work (entered by it). Implements core.fda.ports.ChangeSigning."""

    def __init__(self, uow: FdaUnitOfWork, hasher: PasswordHasher, clock: Clock, policy: SigningPolicy,
                 default_language: str) -> None:
        self._uow, self._hasher, self._clock, self._policy = uow, hasher, clock, policy
        self._language = default_language
        self._decoy_hash: str | None = None

    @property
    def policy(self) -> SigningPolicy:
        return self._policy

    # --- state -------------------------------------------------------------------------------

    def needs_user_name(self, session_id: int, now: datetime) -> bool:
        last = self._uow.signatures.last_signed(session_id)
        return last is None or now - last > self._policy.reauth_window

    def state(self, signer: Signer) -> SigningState:
        now = self._clock.now()
        lock = self._uow.signatures.lock_of(signer.account_id)
        account = self._uow.accounts.get(signer.account_id)
        return SigningState(self.needs_user_name(signer.session_id, now),
                            lock.locked_until if lock.locked_at(now) else None,
                            int(self._policy.reauth_window.total_seconds() // 60),
                            account.user_name if account else "")

    # --- credentials -------------------------------------------------------------------------

    def _decoy(self) -> str:
        # A hash to verify against when there is no account, so the answer takes as long.
        if self._decoy_hash is None:
            self._decoy_hash = self._hasher.hash("decoy password, never valid")
        return self._decoy_hash

    def authenticate(self, signer: Signer, given: SignatureInput) -> Authenticated:
        """The signer's credentials checked against the lock and the re-authentication rule. A
        failure is counted, and the lock set and told of, then committed before the refusal."""
        given = replace(given, time_zone=time_zone_of(given.time_zone),
                        reason=(given.reason or "").strip() or None,
                        user_name=(given.user_name or "").strip() or None)
        now = self._clock.now()
        uow = self._uow
        lock = uow.signatures.lock_of(signer.account_id)
        if lock.locked_at(now):
            raise self._locked(lock)
        if given.user_name is None and self.needs_user_name(signer.session_id, now):
            raise UserNameNeeded()
        account = uow.accounts.get(signer.account_id)
        named = uow.accounts.by_login_name(given.user_name) if given.user_name else account
        right_name = account is not None and named is not None and named.id == account.id
        right_password = self._hasher.verify(account.password_hash if account else self._decoy(), given.password)
        if not (right_name and right_password and account is not None and account.enabled):
            self._failed(signer.account_id, lock, now)
        if lock.failures or lock.locked_until is not None:
            uow.signatures.save_lock(signer.account_id, SigningLock())
        return Authenticated(signer, given, now)

    def _locked(self, lock: SigningLock) -> SigningLocked:
        until = lock.locked_until or self._clock.now()
        return SigningLocked(count=self._policy.max_failures, until=f"{until.astimezone(UTC):%Y-%m-%d %H:%M}")

    def _failed(self, account_id: int, lock: SigningLock, now: datetime) -> None:
        uow = self._uow
        failures = (0 if lock.locked_until is not None else lock.failures) + 1  # an ended lock starts afresh
        if failures < self._policy.max_failures:
            uow.signatures.save_lock(account_id, SigningLock(failures))
            uow.commit()
            raise WrongSignature(left=self._policy.max_failures - failures)
        locked = SigningLock(failures, now + self._policy.lock_for)
        uow.signatures.save_lock(account_id, locked)
        self._alert(account_id, locked, now)
        uow.commit()
        raise self._locked(locked)

    def _alert(self, account_id: int, lock: SigningLock, now: datetime) -> None:
        """The account, and every administrator of each of its organizations, are told at once."""
        uow = self._uow
        account = uow.accounts.get(account_id)
        name = account.user_name if account else str(account_id)
        params = {"account": name, "accountId": account_id, "count": lock.failures,
                  "until": f"{(lock.locked_until or now).astimezone(UTC):%Y-%m-%d %H:%M} UTC"}
        post(uow, SystemMessage(account_id, ALERT_KIND, SIGNING_LOCKED, params, now), self._language, delivery=True)
        told = {account_id}
        for organization in uow.organizations.mine(account_id):
            for member in uow.organizations.members(organization.organization_id):
                if member.account_id in told or not (member.creator or member.role_code in MANAGERS):
                    continue
                told.add(member.account_id)
                post(uow, SystemMessage(member.account_id, ALERT_KIND, MEMBER_SIGNING_LOCKED,
                                        {**params, "organization": organization.name}, now),
                     self._language, delivery=True)

    # --- records -----------------------------------------------------------------------------

    def source(self, record_type: str) -> RecordVersions:
        source = self._uow.record_versions.get(record_type)
        if source is None:
            raise InvalidInput("recordType", N_("Records of this type are not signed"))
        return source

    def record(self, record_type: str, record_id: str, reader_account_id: int) -> SignableRecord:
        """The record's current version for a reader who may see it; NotFound otherwise."""
        found = self.source(record_type).version_of(record_id, reader_account_id)
        if found is None:
            raise NotFound()
        return found

    # --- ChangeSigning -----------------------------------------------------------------------

    def check(self, signer: Signer, device_id: int, given: SignatureInput | None) -> Authenticated | None:
        if given is None:
            if self._uow.fda_switches.is_on_for_device(device_id):
                raise SignatureRequired()
            return None
        return self.authenticate(signer, given)

    def sign(self, passed: Authenticated, record_type: str, record_id: str, *, meaning: str,
             reason: str | None) -> Signature:
        record = self.record(record_type, record_id, passed.signer.account_id)
        return self.write(passed, record, meaning=meaning, reason=reason, acting=True)

    # --- the signature -----------------------------------------------------------------------

    def write(self, passed: Authenticated, record: SignableRecord, *, meaning: str | None = None,
              reason: str | None = None, acting: bool = False) -> Signature:
        """The signature of the record's version, after every rule. `meaning` and `reason` are the
        call's defaults (the signer's own win); `acting`: the call that changed the record already
        checked the signer may change it."""
        uow, given, account_id = self._uow, passed.given, passed.signer.account_id
        endorsement = self._endorsement(given.endorsement_id, record, account_id)
        if endorsement is not None:
            if given.meaning is not None and given.meaning != endorsement.meaning:
                raise InvalidInput("meaning", MEANING_FIXED)
            meaning = endorsement.meaning
        else:
            meaning = given.meaning or meaning
        if not meaning:
            raise InvalidInput("meaning", MEANING_NEEDED)
        named = endorsement is not None and bool(endorsement.account_ids or endorsement.role_ids)
        if not (acting or named or _may_change(uow, record.subject, account_id)):
            raise MayNotSign()
        signed = uow.signatures.of_records(record.record_type, [record.record_id]).get(record.record_id, [])
        earlier = [s for s in signed if s.content_hash == record.content_hash]  # valid ones only
        if endorsement is not None and endorsement.distinct_signer and any(
                s.signer_account_id == account_id for s in earlier):
            raise SignerMustDiffer()
        if record.record_type == REPORT and meaning == Meaning.APPROVED and not any(
                s.meaning == Meaning.REVIEWED and s.signer_account_id != account_id for s in earlier):
            raise ReviewBeforeApproval()
        account = uow.accounts.get(account_id)
        if account is None:
            raise NotFound()
        signature = uow.signatures.add(Signature(
            record.record_type, record.record_id, record.label[:200], record.content_hash, record.subject, account_id,
            account.user_name, printed_name(account)[:100], meaning, given.reason or reason, passed.at,
            given.time_zone, passed.signer.session_id, endorsement.id if endorsement else None,
            endorsement.name if endorsement else None))
        uow.signatures.signed_in_session(passed.signer.session_id, passed.at)
        return signature

    def _endorsement(self, endorsement_id: int | None, record: SignableRecord, account_id: int) -> Endorsement | None:
        """The endorsement the signer signs under, when it covers this record and this signer;
        NotEndorsed otherwise (another subject's, or an unknown one, alike)."""
        if endorsement_id is None:
            return None
        endorsement = self._uow.endorsements.get(endorsement_id)
        if endorsement is None or endorsement.subject != record.subject \
                or record.record_type not in endorsement.record_types:
            raise NotEndorsed()
        if endorsement.account_ids or endorsement.role_ids:
            role = (self._uow.endorsements.role_id_of(record.subject.organization_id, account_id)
                    if record.subject.organization_id is not None else None)
            if account_id not in endorsement.account_ids and (role is None or role not in endorsement.role_ids):
                raise NotEndorsed()
        return endorsement
