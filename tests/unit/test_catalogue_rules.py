"""The catalogue's rules (core/catalogue): names per language with the default's required, the
duration rows filled and in range, a sold duration never changed in what it sells."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.catalogue.model import (
    CODE_FORMAT,
    DEFAULT_NAME_REQUIRED,
    DISCOUNT_RANGE,
    DURATION_TWICE,
    FEE_RANGE,
    MONTHS_RANGE,
    OPTIONS_REQUIRED,
    PACKAGE_CODE,
    TOO_LONG,
    UNKNOWN_CURRENCY,
    UNKNOWN_LANGUAGE,
    Gift,
    LocalText,
    Option,
    OptionDraft,
    Problems,
    clean_texts,
    gift_problems,
    option_problems,
    plan_options,
)


def draft(id_=None, months=12, fee=9900, data=0, currency="CNY", discount=100, recommended=False) -> OptionDraft:
    return OptionDraft(id_, months, fee, data, currency, discount, recommended)


def sold(id_: int, months=12, fee=9900, sold_=True) -> Option:
    return Option(id_, months, fee, 0, "CNY", 100, False, 0, sold_)


def test_the_package_code_is_exactly_eight_digits():
    assert PACKAGE_CODE.match("10000001") and CODE_FORMAT
    for bad in ("1000001", "100000012", "1000000a", "１２３４５６７８", "10000001\n", ""):
        assert not PACKAGE_CODE.match(bad), bad


def test_names_need_the_default_language_and_keep_the_others_trimmed():
    problems = Problems()
    given_texts = {"zh-CN": LocalText(" 银卡 ", " 说明 "), "ru-RU": LocalText("  "), "en-US": LocalText("Silver")}
    texts = clean_texts(given_texts, "zh-CN", problems, "names", 20, 200)
    assert problems.messages == {}
    assert texts == {"zh-CN": LocalText("银卡", "说明"), "en-US": LocalText("Silver")}  # a blank language falls back
    problems = Problems()
    clean_texts({"en-US": LocalText("x" * 21), "xx-XX": LocalText("a")}, "zh-CN", problems, "names", 20, None)
    assert problems.messages == {"names.en-US.name": TOO_LONG, "names.xx-XX": UNKNOWN_LANGUAGE,
                                 "names.zh-CN.name": DEFAULT_NAME_REQUIRED}
    assert problems.params["names.en-US.name"] == {"max": 20}


def test_every_duration_row_is_filled_and_in_range():
    problems = Problems()
    option_problems((), problems)
    assert problems.messages == {"options": OPTIONS_REQUIRED}
    problems = Problems()
    option_problems((draft(months=0), draft(fee=-1), draft(months=24, discount=0), draft(months=36, currency="EUR"),
                     draft(months=1201), draft(fee=10**10 + 1, months=48), draft()), problems)
    assert problems.messages == {"options.0.timeLength": MONTHS_RANGE, "options.1.serviceFee": FEE_RANGE,
                                 "options.2.discount": DISCOUNT_RANGE, "options.3.currency": UNKNOWN_CURRENCY,
                                 "options.4.timeLength": MONTHS_RANGE, "options.5.serviceFee": FEE_RANGE,
                                 "options.6.timeLength": DURATION_TWICE}


def test_the_same_duration_may_be_priced_once_in_each_currency():
    problems = Problems()
    option_problems((draft(), draft(currency="USD", fee=1990)), problems)
    assert problems.messages == {}


def test_an_unsold_duration_changes_in_place_and_a_removed_one_is_deleted():
    plan = plan_options((sold(1, sold_=False), sold(2, months=24, sold_=False)), (draft(1, fee=100),))
    assert plan.keep == ((1, draft(1, fee=100), 0),) and plan.delete == (2,) and plan.add == plan.retire == ()


def test_a_sold_duration_is_retired_and_replaced_when_what_it_sells_changes():
    plan = plan_options((sold(1), sold(2, months=24)), (draft(1, fee=12900), draft(2, months=24, recommended=True),
                                                        draft(None, months=36)))
    assert plan.retire == (1,)
    assert plan.add == ((draft(1, fee=12900), 0), (draft(None, months=36), 2))
    assert plan.keep == ((2, draft(2, months=24, recommended=True), 1),)  # showing it only: in place
    removed = plan_options((sold(1),), (draft(None, months=24),))
    assert removed.retire == (1,) and removed.delete == ()


@given(st.integers(1, 1200), st.integers(0, 10**10), st.integers(1, 100), st.integers(1, 1200),
       st.integers(0, 10**10), st.integers(1, 100))
def test_a_sold_row_never_keeps_an_id_with_other_terms(months, fee, discount, new_months, new_fee, new_discount):
    old = Option(7, months, fee, 0, "CNY", discount, False, 0, True)
    wanted = OptionDraft(7, new_months, new_fee, 0, "CNY", new_discount, True)
    plan = plan_options((old,), (wanted,))
    kept = {option_id: values for option_id, values, _sort in plan.keep}
    if 7 in kept:
        assert (kept[7].months, kept[7].service_fee_cents, kept[7].discount) == (months, fee, discount)
    else:
        assert plan.retire == (7,) and [d for d, _ in plan.add] == [wanted]


def test_the_gift_is_bounded_and_names_its_level_when_it_gives_months():
    problems = Problems()
    gift_problems(Gift(None, 3, -1, 100_001), problems)
    assert set(problems.messages) == {"levelId", "smsCount", "voiceCount"}
    problems = Problems()
    gift_problems(Gift(None, 0, 0, 0), problems)  # nothing given: no level needed
    assert problems.messages == {}


def test_a_reader_s_names_come_from_their_language_then_the_platform_s_default():
    from core.shared.edition import Edition, reading_languages

    assert reading_languages("ru-RU", Edition.DOMESTIC) == ("ru-RU", "zh-CN")
    assert reading_languages("ru-RU", Edition.INTERNATIONAL) == ("ru-RU", "en-US")
    assert reading_languages("zh-CN", Edition.DOMESTIC) == ("zh-CN",)  # the default once
    assert reading_languages(None, "de-DE") == ("de-DE",)  # a default given as such (an export's worker)
    assert reading_languages("", "en-US") == ("en-US",)
