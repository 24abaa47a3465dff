"""Repositories of the accounts area."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any, TypeVarTuple

from sqlalchemy import JSON, Connection, Integer, Result, Select, bindparam, delete, func, or_, select, union, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adapters.persistence.models import (
    AccountRoleRow,
    AccountRow,
    CaptchaRow,
    HomeTilesRow,
    LoginFailureRow,
    LoginLockRow,
    LoginSessionRow,
    OrganizationMemberRow,
    OrganizationRow,
    PremiumMembershipRow,
    RolePermissionRow,
    RoleRow,
    UserProfileRow,
    VerificationCodeRow,
)
from core.accounts.captcha import Captcha
from core.accounts.info import BaseAccount, OrganizationRole, StoredAccountInfo
from core.accounts.model import (
    Account,
    AccountStatus,
    AccountType,
    Bearer,
    CodePurpose,
    LoginSession,
    UserProfile,
)
from core.accounts.rules import normalize_login_name
from core.accounts.throttling import FAILURES_EXAMINED, KEPT_FOR, Failure, Hold
from core.accounts.verification import VerificationCode
from core.notifications.model import Channel
from core.shared.errors import UserAlreadyExists

# What every authenticated call reads (the token check) and accountInfo's read: built once, since
# building a statement costs more CPU than running it, and run as plain reads on the session's
# connection (_read).
_ACCOUNT_ID = bindparam("account_id", type_=Integer)
_Ts = TypeVarTuple("_Ts")


@functools.cache
def _bearer(dialect: str) -> Select[int, int, str, datetime, datetime | None, int, Any]:
    """The session of a token digest, its account's name and status and the permissions of the
    account's roles, its own and those it holds in organizations: one row, or none. Only the
    aggregate of the names differs by dialect: an array on PostgreSQL, a JSON array on SQLite."""
    session = LoginSessionRow
    held = union(
        select(AccountRoleRow.role_id).where(AccountRoleRow.account_id == session.account_id).correlate(session),
        select(OrganizationMemberRow.role_id).where(OrganizationMemberRow.account_id == session.account_id)
        .correlate(session),
    ).subquery("held")
    name = RolePermissionRow.permission_name
    gathered = func.array_agg(name) if dialect == "postgresql" else func.json_group_array(name, type_=JSON)
    permissions = select(gathered).join_from(RolePermissionRow, held, held.c.role_id == RolePermissionRow.role_id)
    return (select(session.id, session.account_id, AccountRow.user_name, session.expires_at, session.revoked_at,
                   AccountRow.status, permissions.scalar_subquery())
            .join_from(session, AccountRow, AccountRow.id == session.account_id)
            .where(session.token_digest == bindparam("digest")))


# One row per organization the account is in, the account's own columns on each; one row with no
# organization when it is in none.
_ACCOUNT_INFO = (
    select(AccountRow.id, AccountRow.user_name, AccountRow.photo_url, AccountRow.phone, AccountRow.email,
           AccountRow.account_type, AccountRow.real_name, AccountRow.company, AccountRow.language,
           AccountRow.time_zone, UserProfileRow.wallet_status, UserProfileRow.home_page,
           UserProfileRow.elitech_identity, UserProfileRow.elitech_industry, UserProfileRow.enable_protect,
           UserProfileRow.enable_fda, PremiumMembershipRow.expires_at.label("premium_until"),
           OrganizationRow.id.label("organization_id"), OrganizationRow.name.label("organization_name"),
           OrganizationRow.creator_account_id, RoleRow.id.label("role_id"), RoleRow.code.label("role_code"),
           RoleRow.name.label("role_name"))
    .outerjoin(UserProfileRow, UserProfileRow.account_id == AccountRow.id)
    .outerjoin(PremiumMembershipRow, PremiumMembershipRow.account_id == AccountRow.id)
    .outerjoin(OrganizationMemberRow, OrganizationMemberRow.account_id == AccountRow.id)
    .outerjoin(OrganizationRow, OrganizationRow.id == OrganizationMemberRow.organization_id)
    .outerjoin(RoleRow, RoleRow.id == OrganizationMemberRow.role_id)
    .where(AccountRow.id == _ACCOUNT_ID)
    .order_by(OrganizationRow.id)
)


def _read(connection: Connection, statement: Select[*_Ts], parameters: dict[str, Any]) -> Result[*_Ts]:
    """A SELECT run on the session's connection, not through the session: the ORM's execute (its
    events, compile state and autoflush) costs more Python than these queries, and plain reads of
    columns need none of it."""
    return connection.execute(statement, parameters)


def _account(row: AccountRow) -> Account:
    return Account(
        id=row.id, user_name=row.user_name, password_hash=row.password_hash, phone=row.phone,
        email=row.email, account_type=AccountType(row.account_type), status=AccountStatus(row.status),
        real_name=row.real_name, company=row.company, photo_url=row.photo_url, created_at=row.created_at,
        language=row.language, time_zone=row.time_zone,
    )


class SqlAlchemyAccountRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, account: Account) -> Account:
        row = AccountRow(
            user_name=account.user_name, user_name_key=normalize_login_name(account.user_name),
            password_hash=account.password_hash, phone=account.phone,
            email=account.email.lower() if account.email else None,
            account_type=int(account.account_type), status=int(account.status),
            real_name=account.real_name, company=account.company, photo_url=account.photo_url,
            created_at=account.created_at,
        )
        self._s.add(row)
        try:
            with self._s.begin_nested():
                self._s.flush()
        except IntegrityError as error:  # a concurrent sign-up took the name or contact first
            raise UserAlreadyExists() from error
        account.id = row.id
        return account

    def get(self, account_id: int) -> Account | None:
        row = self._s.get(AccountRow, account_id)
        return _account(row) if row else None

    def by_login_name(self, name: str) -> Account | None:
        name = name.strip()
        row = self._s.scalars(select(AccountRow).where(or_(
            AccountRow.user_name_key == normalize_login_name(name),
            AccountRow.phone == name,
            AccountRow.email == name.lower(),
        )).limit(1)).first()
        return _account(row) if row else None

    def by_contact(self, channel: Channel, target: str) -> Account | None:
        column = AccountRow.phone if channel is Channel.PHONE else AccountRow.email
        value = target if channel is Channel.PHONE else target.lower()
        row = self._s.scalars(select(AccountRow).where(column == value)).first()
        return _account(row) if row else None

    def user_name_taken(self, user_name: str) -> bool:
        key = normalize_login_name(user_name)
        return self._s.execute(select(func.count()).where(AccountRow.user_name_key == key)).scalar_one() > 0

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id)
                        .values(password_hash=password_hash))

    def set_contact(self, account_id: int, channel: Channel, target: str) -> None:
        values = {"phone": target} if channel is Channel.PHONE else {"email": target.lower()}
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id).values(**values))

    def set_language(self, account_id: int, language: str) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id).values(language=language))

    def set_preferences(self, account_id: int, language: str, time_zone: str | None) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id)
                        .values(language=language, time_zone=time_zone))

    def set_photo(self, account_id: int, photo: str | None) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id).values(photo_url=photo))

    def set_base_info(self, account_id: int, real_name: str | None, company: str | None) -> None:
        self._s.execute(update(AccountRow).where(AccountRow.id == account_id)
                        .values(real_name=real_name, company=company))

    def profile(self, account_id: int) -> UserProfile:
        row = self._s.get(UserProfileRow, account_id)
        if row is None:
            return UserProfile(account_id)
        return UserProfile(row.account_id, row.wallet_status, row.home_page, row.elitech_identity,
                           row.elitech_industry, row.enable_protect, row.enable_fda)

    def save_profile(self, profile: UserProfile) -> None:
        row = self._s.get(UserProfileRow, profile.account_id) or UserProfileRow(account_id=profile.account_id)
        row.wallet_status, row.home_page = profile.wallet_status, profile.home_page
        row.elitech_identity, row.elitech_industry = profile.elitech_identity, profile.elitech_industry
        row.enable_protect, row.enable_fda = profile.enable_protect, profile.enable_fda
        self._s.add(row)

    def home_tiles(self, account_id: int) -> tuple[str, ...] | None:
        tiles = self._s.scalar(select(HomeTilesRow.tiles).where(HomeTilesRow.account_id == account_id))
        return None if tiles is None else tuple(tiles.split(","))

    def save_home_tiles(self, account_id: int, tiles: tuple[str, ...], at: datetime) -> None:
        row = self._s.get(HomeTilesRow, account_id) or HomeTilesRow(account_id=account_id)
        row.tiles, row.updated_at = ",".join(tiles), at
        self._s.add(row)


class SqlAlchemyRoleRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def assign(self, account_id: int, role_code: str) -> None:
        role_id = self._s.scalar(select(RoleRow.id).where(RoleRow.code == role_code))
        if role_id is None:
            raise LookupError(f"role {role_code} is not installed; run `coldchain migrate`")
        if self._s.get(AccountRoleRow, (account_id, role_id)) is None:
            self._s.add(AccountRoleRow(account_id=account_id, role_id=role_id))


class SqlAlchemyAccountInfoRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def of(self, account_id: int) -> StoredAccountInfo | None:
        rows = _read(self._s.connection(), _ACCOUNT_INFO, {"account_id": account_id}).all()
        if not rows:
            return None
        first = rows[0]
        account = BaseAccount(first.id, first.user_name, first.photo_url, first.phone, first.email,
                              AccountType(first.account_type), first.real_name, first.company, first.language,
                              first.time_zone)
        profile = UserProfile(account_id) if first.wallet_status is None else UserProfile(  # no profile row
            account_id, first.wallet_status, first.home_page, first.elitech_identity, first.elitech_industry,
            first.enable_protect, first.enable_fda)
        organizations = [OrganizationRole(row.organization_id, row.organization_name, row.role_id, row.role_code,
                                          row.role_name, row.creator_account_id == account_id)
                         for row in rows if row.organization_id is not None]
        return StoredAccountInfo(account, profile, organizations, first.premium_until)


class SqlAlchemySessionRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, login: LoginSession) -> None:
        row = LoginSessionRow(token_digest=login.token_digest, account_id=login.account_id,
                              login_type=int(login.login_type), client_address=login.client_address,
                              created_at=login.created_at, expires_at=login.expires_at)
        self._s.add(row)
        self._s.flush()
        login.id = row.id

    def bearer(self, token_digest: str) -> Bearer | None:
        connection = self._s.connection()
        row = _read(connection, _bearer(connection.dialect.name), {"digest": token_digest}).first()
        if row is None:
            return None
        session_id, account_id, user_name, expires_at, revoked_at, status, permissions = row
        return Bearer(session_id, account_id, user_name, expires_at, revoked_at, AccountStatus(status),
                      frozenset(permissions or ()))  # PostgreSQL's array_agg of no rows is NULL

    def revoke(self, session_id: int, now: datetime) -> None:
        self._s.execute(update(LoginSessionRow)
                        .where(LoginSessionRow.id == session_id, LoginSessionRow.revoked_at.is_(None))
                        .values(revoked_at=now))

    def revoke_all(self, account_id: int, now: datetime, keep_session_id: int | None = None) -> None:
        query = update(LoginSessionRow).where(LoginSessionRow.account_id == account_id,
                                              LoginSessionRow.revoked_at.is_(None))
        if keep_session_id is not None:
            query = query.where(LoginSessionRow.id != keep_session_id)
        self._s.execute(query.values(revoked_at=now))


class SqlAlchemyLoginThrottleRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add_failure(self, name_key: str, address: str, at: datetime) -> None:
        self._s.execute(delete(LoginFailureRow).where(LoginFailureRow.failed_at <= at - KEPT_FOR))
        self._s.add(LoginFailureRow(name_key=name_key, address=address, failed_at=at))
        self._s.flush()

    def failures_of(self, name_key: str, since: datetime) -> list[Failure]:
        rows = self._s.execute(select(LoginFailureRow.address, LoginFailureRow.failed_at)
                               .where(LoginFailureRow.name_key == name_key, LoginFailureRow.failed_at > since)
                               .order_by(LoginFailureRow.failed_at.desc()).limit(FAILURES_EXAMINED))
        return [Failure(address, at) for address, at in rows]

    def names_failing_from(self, address: str, since: datetime) -> int:
        return self._s.execute(select(func.count(LoginFailureRow.name_key.distinct()))
                               .where(LoginFailureRow.address == address, LoginFailureRow.failed_at > since)
                               ).scalar_one()

    def clear_pair(self, name_key: str, address: str) -> None:
        self._s.execute(delete(LoginFailureRow).where(LoginFailureRow.name_key == name_key,
                                                      LoginFailureRow.address == address))

    def held_until(self, hold: Hold, key: str, now: datetime) -> datetime | None:
        until = self._s.scalar(select(LoginLockRow.locked_until)
                               .where(LoginLockRow.scope == hold.value, LoginLockRow.key == key))
        return until if until is not None and until > now else None

    def hold(self, hold: Hold, key: str, until: datetime) -> None:
        row = self._s.get(LoginLockRow, (hold.value, key))
        if row is None:
            self._s.add(LoginLockRow(scope=hold.value, key=key, locked_until=until))
        else:
            row.locked_until = until
        self._s.flush()


class SqlAlchemyVerificationCodeRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, code: VerificationCode) -> None:
        row = VerificationCodeRow(channel=code.channel.value, target=code.target, purpose=int(code.purpose),
                                  code_digest=code.code_digest, created_at=code.created_at,
                                  expires_at=code.expires_at, attempts=code.attempts)
        self._s.add(row)
        self._s.flush()
        code.id = row.id

    def latest(self, channel: Channel, target: str, purpose: CodePurpose) -> VerificationCode | None:
        row = self._s.scalars(
            select(VerificationCodeRow)
            .where(VerificationCodeRow.channel == channel.value, VerificationCodeRow.target == target,
                   VerificationCodeRow.purpose == int(purpose))
            .order_by(VerificationCodeRow.created_at.desc(), VerificationCodeRow.id.desc()).limit(1)
        ).first()
        if row is None:
            return None
        return VerificationCode(Channel(row.channel), row.target, CodePurpose(row.purpose), row.code_digest,
                                row.created_at, row.expires_at, row.attempts, row.consumed_at, row.id)

    def sent_since(self, channel: Channel, target: str, since: datetime) -> int:
        return self._s.execute(select(func.count()).where(
            VerificationCodeRow.channel == channel.value, VerificationCodeRow.target == target,
            VerificationCodeRow.created_at > since)).scalar_one()

    def save(self, code: VerificationCode) -> None:
        self._s.execute(update(VerificationCodeRow).where(VerificationCodeRow.id == code.id)
                        .values(attempts=code.attempts, consumed_at=code.consumed_at))


class SqlAlchemyCaptchaRepository:
    def __init__(self, session: Session) -> None:
        self._s = session

    def add(self, captcha: Captcha) -> None:
        self._s.add(CaptchaRow(id=captcha.id, answer_digest=captcha.answer_digest, expires_at=captcha.expires_at))

    def take(self, captcha_id: str) -> Captcha | None:
        row = self._s.get(CaptchaRow, captcha_id)
        if row is None:
            return None
        self._s.delete(row)
        return Captcha(row.id, row.answer_digest, row.expires_at)

    def purge_expired(self, now: datetime) -> None:
        self._s.execute(delete(CaptchaRow).where(CaptchaRow.expires_at <= now))
