"""Promotions' rules (issue 18): two enabled activities never offer one year option at overlapping
moments; a stopped, deleted, expired or not-aimed-at-you activity offers nothing, so the package's
own price is what remains; SMS/voice packages at most 5 of a kind per country code."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.promotions.errors import ActivityOverlap, TooManyAlertPackages
from core.promotions.model import (
    Activity,
    ActivityDraft,
    ActivityOption,
    AlertKind,
    AlertPackage,
    AlertPackageDraft,
    Nature,
    Status,
    TargetAccount,
    overlap,
)
from core.promotions.use_cases import (
    CopyActivity,
    DeleteActivity,
    SaveActivity,
    SaveAlertPackage,
    SetActivityStatus,
    cleaned_activity,
)
from core.shared.errors import InvalidInput

T0 = datetime(2026, 5, 1, tzinfo=UTC)
DAY = timedelta(days=1)


def activity(id_=1, start=0, end=10, options=(7,), status=Status.ENABLED, nature=Nature.PUBLIC, accounts=()):
    return Activity(id_, f"A{id_}", nature, T0 + start * DAY, T0 + end * DAY, status, T0,
                    tuple(ActivityOption(o, 80) for o in options), tuple(TargetAccount(a, f"u{a}") for a in accounts))


class FakeClock:
    def now(self):
        return T0


class FakeRepo:
    def __init__(self):
        self.activities: dict[int, Activity] = {}
        self.alerts: dict[int, AlertPackage] = {}
        self.serialized: list[str] = []

    def serialize(self, what):
        self.serialized.append(what)

    def activity(self, activity_id):
        return self.activities.get(activity_id)

    def activities_on(self, option_ids):
        return [a for a in self.activities.values() if a.option_ids & option_ids]

    def known_options(self, option_ids):
        return frozenset(o for o in option_ids if o < 100)

    def live_accounts(self, account_ids):
        return frozenset(a for a in account_ids if a < 100)

    def add_activity(self, draft, status, at):
        new_id = max(self.activities, default=0) + 1
        self.activities[new_id] = Activity(new_id, draft.name, draft.nature, draft.starts_at, draft.ends_at, status,
                                           at, draft.options, tuple(TargetAccount(a, "") for a in draft.account_ids),
                                           draft.names)
        return new_id

    def change_activity(self, activity_id, draft):
        old = self.activities[activity_id]
        self.activities[activity_id] = replace(old, name=draft.name, starts_at=draft.starts_at,
                                               ends_at=draft.ends_at, options=draft.options)

    def set_activity_status(self, activity_id, status):
        self.activities[activity_id] = replace(self.activities[activity_id], status=status)

    def delete_activity(self, activity_id):
        del self.activities[activity_id]

    def count_alert_packages(self, country_code, kind):
        return sum(1 for p in self.alerts.values() if (p.country_code, p.kind) == (country_code, kind))

    def add_alert_package(self, draft, sort):
        new_id = max(self.alerts, default=0) + 1
        self.alerts[new_id] = AlertPackage(new_id, draft.kind, draft.country_code, draft.name, draft.fee_cents,
                                           draft.currency, draft.count, draft.discount, draft.status, sort)
        return new_id

    def alert_package(self, package_id):
        return self.alerts.get(package_id)

    def change_alert_package(self, package_id, draft):
        self.alerts[package_id] = replace(self.alerts[package_id], kind=draft.kind, country_code=draft.country_code)


class FakeUow:
    def __init__(self):
        self.promotions = FakeRepo()
        self.commits = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def commit(self):
        self.commits += 1

    def rollback(self):
        pass


def draft(start=0, end=10, options=(7,), nature=Nature.PUBLIC, accounts=(), name="Sale"):
    return ActivityDraft(name, nature, T0 + start * DAY, T0 + end * DAY,
                         tuple(ActivityOption(o, 80) for o in options), tuple(accounts))


# --- the overlap rule ------------------------------------------------------------------------------


def test_an_enabled_activity_on_the_same_option_at_an_overlapping_moment_overlaps():
    others = [activity(1, 0, 10, options=(7, 8))]
    assert overlap(T0 + 5 * DAY, T0 + 20 * DAY, frozenset({8}), others) == others[0]
    assert overlap(T0 + 10 * DAY, T0 + 20 * DAY, frozenset({8}), others) is None  # it ends as this starts
    assert overlap(T0 - 5 * DAY, T0, frozenset({7}), others) is None  # this ends as it starts
    assert overlap(T0, T0 + DAY, frozenset({9}), others) is None  # another option
    assert overlap(T0, T0 + DAY, frozenset({7}), [activity(1, status=Status.STOPPED)]) is None
    assert overlap(T0, T0 + DAY, frozenset({7}), others, own_id=1) is None  # itself, being updated


@given(st.integers(-30, 30), st.integers(1, 30), st.integers(-30, 30), st.integers(1, 30))
def test_overlap_is_symmetric_and_means_sharing_a_moment(a_start, a_len, b_start, b_len):
    a, b = activity(1, a_start, a_start + a_len), activity(2, b_start, b_start + b_len)
    ab = overlap(a.starts_at, a.ends_at, a.option_ids, [b]) is not None
    ba = overlap(b.starts_at, b.ends_at, b.option_ids, [a]) is not None
    shares_a_day = bool(set(range(a_start, a_start + a_len)) & set(range(b_start, b_start + b_len)))
    assert ab == ba == shares_a_day


def test_saving_or_enabling_an_overlapping_activity_is_refused_and_changes_nothing():
    uow = FakeUow()
    save = SaveActivity(uow, FakeClock())
    first = save(draft(0, 10))
    with pytest.raises(ActivityOverlap) as refused:
        save(draft(5, 15, options=(8, 7), name="Clash"))
    assert refused.value.params == {"name": "Sale"} and len(uow.promotions.activities) == 1
    copy = CopyActivity(uow, FakeClock())(first.id)
    assert copy.status is Status.STOPPED and copy.name == "Sale (2)"
    with pytest.raises(ActivityOverlap):
        SetActivityStatus(uow)(copy.id, Status.ENABLED)
    SetActivityStatus(uow)(first.id, Status.STOPPED)
    assert SetActivityStatus(uow)(copy.id, Status.ENABLED).status is Status.ENABLED


# --- restoration: what an activity offers, and when it stops offering -------------------------------


def test_a_stopped_deleted_or_expired_activity_offers_nothing_so_the_package_price_returns():
    uow = FakeUow()
    made = SaveActivity(uow, FakeClock())(draft(-1, 10, options=(7, 8)))
    offered = lambda: {o for a in uow.promotions.activities.values() for o in a.offers(5, T0)}  # noqa: E731
    assert offered() == {7, 8}
    SetActivityStatus(uow)(made.id, Status.STOPPED)
    assert offered() == set()
    SetActivityStatus(uow)(made.id, Status.ENABLED)
    assert offered() == {7, 8}
    DeleteActivity(uow)(made.id)
    assert offered() == set()
    assert activity(1, -10, -1).offers(5, T0) == frozenset()  # ended
    assert activity(1, 1, 10).offers(5, T0) == frozenset()  # not yet


def test_a_directional_activity_is_offered_to_its_targets_only():
    aimed = activity(1, -1, 10, nature=Nature.DIRECTIONAL, accounts=(5,))
    assert aimed.offers(5, T0) == frozenset({7})
    assert aimed.offers(6, T0) == frozenset()


def test_activity_rules_name_every_field():
    bad = ActivityDraft("x" * 21, Nature.DIRECTIONAL, T0, T0, (ActivityOption(7, 100, 0),))
    with pytest.raises(InvalidInput) as refused:
        cleaned_activity(bad)
    assert set(refused.value.problems) == {"name", "endTime", "options", "accountIds"}
    assert cleaned_activity(draft(accounts=(5,))).account_ids == ()  # a public one has no targets
    with pytest.raises(InvalidInput):
        cleaned_activity(draft(name="Sale \u200d"))


# --- SMS and voice packages ---------------------------------------------------------------------------


def test_at_most_five_of_a_kind_per_country_code():
    uow = FakeUow()
    save = SaveAlertPackage(uow)
    sms = lambda **kw: AlertPackageDraft(**{"kind": AlertKind.SMS, "country_code": "44", "name": "SMS",  # noqa: E731
                                            "fee_cents": 100, "currency": "CNY", "count": 10, **kw})
    for _ in range(5):
        save(sms())
    with pytest.raises(TooManyAlertPackages):
        save(sms())
    voice = save(sms(kind=AlertKind.VOICE))
    save(sms(country_code="49"))
    with pytest.raises(TooManyAlertPackages):  # moving the voice one to SMS would make six
        save(sms(), voice.id)
    with pytest.raises(InvalidInput) as refused:
        save(sms(country_code="044", currency="XYZ", fee_cents=-1, count=0, discount=101))
    assert set(refused.value.problems) == {"countryCode", "currency", "packageFee", "smsCount", "discount"}


# --- each linked option's own offer, the sales period, what is in force -------------------------------


def offers(*rows):
    return ActivityDraft("Sale", Nature.PUBLIC, T0, T0 + DAY, tuple(ActivityOption(*r) for r in rows))


def test_each_linked_option_keeps_its_own_discount_and_bonus_months():
    uow = FakeUow()
    saved = SaveActivity(uow, FakeClock())(offers((7, 80, 0), (8, 60, 1), (9, 100, 3)))
    assert [(o.level_year_id, o.discount, o.bonus_months) for o in saved.options] == [
        (7, 80, 0), (8, 60, 1), (9, 100, 3)]


@pytest.mark.parametrize(("rows", "why"), [
    (((7, 80, 0), (8, 100, 0)), "offers nothing"),  # a row left at no discount and no bonus
    (((7, 0, 0),), "below 1 %"),
    (((7, 101, 0),), "above 100 %"),
    (((7, 80, -1),), "negative bonus"),
    (((7, 80, 121),), "past 120 bonus months"),
    (((7, 80, 0), (7, 60, 0)), "one option twice at two prices"),
    ((), "no option"),
])
def test_a_row_that_breaks_a_rule_refuses_the_whole_activity_and_saves_nothing(rows, why):
    uow = FakeUow()
    with pytest.raises(InvalidInput) as refused:
        SaveActivity(uow, FakeClock())(offers(*rows))
    assert set(refused.value.problems) == {"options"}, why
    assert uow.promotions.activities == {} and uow.commits == 0


def test_a_sales_period_ends_after_it_starts_and_lasts_at_most_five_years():
    from core.promotions.model import Period, period_problems

    assert period_problems(Period(T0, T0 + DAY)) == {}
    assert set(period_problems(Period(T0, T0))) == {"endTime"}
    assert set(period_problems(Period(T0, T0 - DAY))) == {"endTime"}
    assert period_problems(Period(T0, T0 + 1830 * DAY)) == {}
    assert set(period_problems(Period(T0, T0 + 1831 * DAY))) == {"endTime"}


def test_a_summary_adds_up_its_rows_per_currency():
    from core.promotions.model import AlertSales, Period, summary_of

    rows = [AlertSales("86", 2, 3, 500, 0, {"CNY": 900}), AlertSales("1", 1, 1, 0, 50, {"USD": 199, "CNY": 100})]
    summary = summary_of(Period(T0, T0 + DAY), rows)
    assert (summary.orders, summary.paid_cents) == (3, {"CNY": 1000, "USD": 199})
    assert summary_of(Period(T0, T0 + DAY), []).paid_cents == {}
