import pytest

from core.accounts.info import PremiumState
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
