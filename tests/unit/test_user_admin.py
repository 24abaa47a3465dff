"""User administration's rules with fakes: who may change whom, the last system administrator,
the generated password, the role and type that go together."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from core.accounts.model import AccountType, LoginSession, LoginType
from core.accounts.password_policy import PasswordPolicy
from core.shared.edition import Edition
from core.shared.errors import InvalidInput, NotFound
from core.shared.paging import Page
from core.useradmin.errors import BackOfficeAccountsForAdministrators, CannotActOnSelf, LastSystemAdministrator
from core.useradmin.model import (
    CONTRACTOR_AGREEMENT_VERSION,
    ContractorState,
    ManagedUser,
    NewUser,
    UserChanges,
    generate_password,
    text_problem,
)
from core.useradmin.use_cases import (
    AddUser,
    ApplyAsContractor,
    CertifyContractor,
    DeleteUser,
    ModifyUser,
    ResetPasswordBySystem,
    UpgradeToEnterprise,
    cleaned,
)
from tests.support.clock import MutableClock
from tests.unit.fakes import FakeHasher, FakeTransaction

NOW = datetime(2026, 5, 1, tzinfo=UTC)
POLICY = PasswordPolicy(frozenset({"password"}))


class FakeDirectory:
    def __init__(self, *users: ManagedUser) -> None:
        self.users = {u.id: u for u in users}
        self.hashes: dict[int, str] = {}

    def get(self, account_id, *, deleted=False):
        user = self.users.get(account_id)
        return user if user and (deleted or user.deleted_at is None) else None

    def page(self, where, request):
        return Page(1, 10, len(self.users), list(self.users.values()))

    def every(self, where, limit):
        return iter(self.users.values())

    def user_name_taken(self, user_name):
        return any(u.user_name.casefold() == user_name.casefold() for u in self.users.values())

    def contact_owner(self, phone, email):
        return [u.id for u in self.users.values() if (phone and u.phone == phone) or (email and u.email == email)]

    def add(self, user_name, password_hash, changes, at):
        new_id = max(self.users) + 1
        self.users[new_id] = ManagedUser(new_id, user_name, changes.real_name, changes.phone, changes.email,
                                         changes.company, changes.account_type, changes.role_code, at)
        self.hashes[new_id] = password_hash
        return new_id

    def change(self, account_id, changes):
        self.users[account_id] = replace(self.users[account_id], real_name=changes.real_name, phone=changes.phone,
                                         email=changes.email, company=changes.company,
                                         account_type=changes.account_type, role_code=changes.role_code)

    def set_type(self, account_id, account_type, role_code):
        self.users[account_id] = replace(self.users[account_id], account_type=account_type, role_code=role_code)

    def set_password_hash(self, account_id, password_hash):
        self.hashes[account_id] = password_hash

    def delete(self, account_id, at):
        self.users[account_id] = replace(self.users[account_id], deleted_at=at)

    def count_with_role(self, role_code):
        return sum(1 for u in self.users.values() if u.role_code == role_code and u.deleted_at is None)

    def apply_as_contractor(self, account_id, agreement_version, at):
        self.users[account_id] = replace(self.users[account_id], contractor_state=ContractorState.APPLIED)

    def certify(self, account_id, certified, at):
        state = ContractorState.CERTIFIED if certified else ContractorState.APPLIED
        self.users[account_id] = replace(self.users[account_id], contractor_state=state)

    def system_roles(self):
        return []

    def roles_of(self, account_id):
        return []


class FakeSessions:
    def __init__(self) -> None:
        self.rows: list[LoginSession] = []

    def revoke_all(self, account_id, now, keep_session_id=None):
        for s in self.rows:
            if s.account_id == account_id:
                s.revoked_at = now


def user(id_: int, name: str, role: str, account_type: AccountType = AccountType.PERSONAL) -> ManagedUser:
    return ManagedUser(id_, name, None, None, None, None, account_type, role, NOW)


ADMIN, OPERATOR, ALICE = 1, 2, 3


class FakeUoW(FakeTransaction):
    def __init__(self) -> None:
        self.user_directory = FakeDirectory(
            user(ADMIN, "admin", "system_admin", AccountType.SYSTEM),
            user(OPERATOR, "operator", "operator", AccountType.SYSTEM),
            user(ALICE, "alice", "customer_personal"))
        self.sessions = FakeSessions()


@pytest.fixture
def uow() -> FakeUoW:
    return FakeUoW()


def changes(**kw) -> UserChanges:
    return UserChanges(**{"real_name": None, "phone": None, "email": None, "company": None,
                          "account_type": AccountType.PERSONAL, "role_code": "customer_personal", **kw})


def test_a_generated_password_meets_the_policy_every_time():
    for _ in range(300):
        assert POLICY.problem(generate_password(), "someone") is None


def test_a_back_office_role_goes_with_the_back_office_type_only():
    with pytest.raises(InvalidInput) as refused:
        cleaned(changes(role_code="operator"), Edition.DOMESTIC)
    assert list(refused.value.problems) == ["accountType"]
    with pytest.raises(InvalidInput) as refused:
        cleaned(changes(role_code="org_admin"), Edition.DOMESTIC)
    assert list(refused.value.problems) == ["roleCode"]
    assert cleaned(changes(real_name="  ", company=" Frost "), Edition.DOMESTIC).company == "Frost"


def test_names_with_emoji_or_invisible_characters_are_refused():
    assert text_problem("Carol 😀") and text_problem("a\u200bb") and not text_problem("Кэрол 王")


def test_an_operator_manages_customers_but_not_back_office_accounts(uow):
    modify = ModifyUser(uow, Edition.DOMESTIC)
    assert modify(OPERATOR, ALICE, changes(real_name="Alice")).real_name == "Alice"
    with pytest.raises(BackOfficeAccountsForAdministrators):
        modify(OPERATOR, ALICE, changes(role_code="system_admin", account_type=AccountType.SYSTEM))
    with pytest.raises(BackOfficeAccountsForAdministrators):
        DeleteUser(uow, MutableClock(NOW))(OPERATOR, ADMIN)
    with pytest.raises(BackOfficeAccountsForAdministrators):
        AddUser(uow, FakeHasher(), POLICY, MutableClock(NOW), Edition.DOMESTIC)(
            OPERATOR, NewUser("second_op", None, changes(role_code="operator", account_type=AccountType.SYSTEM)))


def test_nobody_deletes_themselves_nor_the_last_system_administrator(uow):
    delete = DeleteUser(uow, MutableClock(NOW))
    with pytest.raises(CannotActOnSelf):
        delete(ADMIN, ADMIN)
    uow.user_directory.users[9] = user(9, "admin2", "system_admin", AccountType.SYSTEM)
    delete(9, ADMIN)
    assert uow.user_directory.get(ADMIN) is None
    with pytest.raises(CannotActOnSelf):  # the one left cannot step down
        ModifyUser(uow, Edition.DOMESTIC)(9, 9, changes(role_code="operator", account_type=AccountType.SYSTEM))
    # The guard holds even if the count is read while another administrator is being removed.
    uow.user_directory.users[10] = user(10, "admin3", "system_admin", AccountType.SYSTEM)
    uow.user_directory.count_with_role = lambda code: 1
    with pytest.raises(LastSystemAdministrator):
        delete(9, 10)


def test_a_deleted_account_cannot_be_changed_and_its_sessions_end(uow):
    uow.sessions.rows.append(LoginSession("d", ALICE, NOW, NOW, LoginType.PASSWORD, None, id=1))
    DeleteUser(uow, MutableClock(NOW))(OPERATOR, ALICE)
    assert uow.sessions.rows[0].revoked_at == NOW
    with pytest.raises(NotFound):
        ResetPasswordBySystem(uow, FakeHasher(), POLICY, MutableClock(NOW))(OPERATOR, ALICE)


def test_a_reset_gives_a_new_password_once_and_ends_the_sessions(uow):
    uow.sessions.rows.append(LoginSession("d", ALICE, NOW, NOW, LoginType.PASSWORD, None, id=1))
    password = ResetPasswordBySystem(uow, FakeHasher(), POLICY, MutableClock(NOW))(OPERATOR, ALICE)
    assert uow.user_directory.hashes[ALICE] == f"v2:{password}"
    assert uow.sessions.rows[0].revoked_at == NOW


def test_only_a_personal_account_upgrades_and_only_an_applicant_is_certified(uow):
    upgraded = UpgradeToEnterprise(uow)(ALICE)
    assert (upgraded.account_type, upgraded.role_code) == (AccountType.ENTERPRISE, "customer_enterprise")
    with pytest.raises(Exception) as refused:
        UpgradeToEnterprise(uow)(ALICE)
    assert getattr(refused.value, "code", None) == 1907  # already an enterprise account
    for act in (lambda: UpgradeToEnterprise(uow)(OPERATOR),
                lambda: ApplyAsContractor(uow, MutableClock(NOW))(OPERATOR, CONTRACTOR_AGREEMENT_VERSION)):
        with pytest.raises(Exception) as refused:
            act()
        assert getattr(refused.value, "code", None) == 1908  # a back-office account has no customer type
    with pytest.raises(Exception) as refused:
        CertifyContractor(uow, MutableClock(NOW))(ALICE, True)
    assert getattr(refused.value, "code", None) == 1905
