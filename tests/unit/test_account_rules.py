import pytest

from adapters.security.common_passwords import common_passwords
from core.accounts.info import PremiumState
from core.accounts.password_policy import COMMON as HOLDS_COMMON
from core.accounts.password_policy import HOLDS_PRODUCT_NAME, HOLDS_USER_NAME, PasswordPolicy
from core.accounts.rules import email_problem, password_problem, phone_problem, user_name_problem
from core.shared.edition import Edition
from tests.support.clock import MutableClock


@pytest.mark.parametrize("name,ok", [
    ("alice_01", True), ("冷链用户张三", True), ("A12345", True), ("a" * 50, True),
    ("alice", False), ("a" * 51, False), ("1alice", False), ("_alice", False), ("alice-1", False),
    ("alice 01", False), ("alice@x", False), ("", False),
])
def test_user_names(name, ok):
    assert (user_name_problem(name) is None) is ok


@pytest.mark.parametrize("password,ok", [
    ("Coldchain#2026", True), ("Aa1!aaaa", True), ("Aa1!" + "a" * 16, True),
    ("Aa1!aaa", False), ("Aa1!" + "a" * 17, False), ("coldchain#2026", False), ("COLDCHAIN#2026", False),
    ("Coldchain2026", False), ("Coldchain#abc", False), ("Cold chain#2026", False),
])
def test_passwords_need_eight_to_twenty_characters_of_four_kinds(password, ok):
    assert (password_problem(password) is None) is ok


@pytest.mark.parametrize("phone,edition,ok", [
    ("13800000001", Edition.DOMESTIC, True), ("19912345678", Edition.DOMESTIC, True),
    ("12800000001", Edition.DOMESTIC, False), ("1380000000", Edition.DOMESTIC, False),
    ("2025550123", Edition.INTERNATIONAL, True), ("447911123456", Edition.INTERNATIONAL, True),
    ("+447911123456", Edition.INTERNATIONAL, False), ("1234", Edition.INTERNATIONAL, False),
])
def test_phone_numbers_per_edition(phone, edition, ok):
    assert (phone_problem(phone, edition) is None) is ok


@pytest.mark.parametrize("email,ok", [
    ("alice@example.com", True), ("a.b+c@sub.example.co.uk", True),
    ("alice@", False), ("@example.com", False), ("alice@example", False), ("a" * 190 + "@example.com", False),
])
def test_email_addresses(email, ok):
    assert (email_problem(email) is None) is ok


@pytest.mark.parametrize("seconds_left,state", [(None, (0, 0)), (-1, (0, 0)), (1, (1, 1)), (86400, (1, 1)),
                                                (86401, (1, 2))])
def test_premium_state_counts_whole_days_left(seconds_left, state):
    from datetime import timedelta

    now = MutableClock().now()
    until = None if seconds_left is None else now + timedelta(seconds=seconds_left)
    premium = PremiumState.at(until, now)
    assert (premium.state, premium.expired_count) == state


# --- what a new password must not be (issue 13, item 9) ------------------------------------

POLICY = PasswordPolicy(common_passwords())


def test_the_bundled_list_holds_tens_of_thousands_of_common_passwords():
    common = common_passwords()
    assert len(common) >= 10_000
    assert {"123456", "password", "qwerty", "iloveyou", "p@ssw0rd"} <= common


@pytest.mark.parametrize("password", [
    "P@ssw0rd", "PassW0RD#1", "Password1!", "Qwerty123!", "#Summer2024", "Iloveyou#1", "1qaz@WSX", "Dr@g0n#99",
    "M0nkey#123",
])
def test_common_passwords_are_refused_whatever_their_case_digits_symbols_and_look_alikes(password):
    assert POLICY.problem(password) == HOLDS_COMMON


@pytest.mark.parametrize("password", ["Tundra#Kettle42", "Fresh#Pass2026", "zQ8#mV2!pL", "冷链监控#Ab12"])
def test_uncommon_passwords_pass(password):
    assert POLICY.problem(password, "carol_01") is None


@pytest.mark.parametrize("password,user_name", [
    ("Carol_01#x9", "carol_01"), ("x9#CAROL_01", "Carol_01"), ("xX10_lorac!", "carol_01"), ("Bob#Builder9", "bob"),
])
def test_a_password_holding_the_user_name_or_its_reverse_is_refused(password, user_name):
    assert POLICY.problem(password, user_name) == HOLDS_USER_NAME


def test_very_short_user_names_are_not_looked_for():
    assert POLICY.problem("Tundra#Kettle42", "le") is None


@pytest.mark.parametrize("password", ["Coldchain#2026", "my#C0LDCHA1N", "Elitech#2026x"])
def test_a_password_holding_the_product_name_is_refused(password):
    assert POLICY.problem(password) == HOLDS_PRODUCT_NAME


def test_the_spec_s_rule_comes_first():
    assert POLICY.problem("password") == password_problem("password")
