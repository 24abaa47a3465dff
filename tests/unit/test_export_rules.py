"""The figures and names of exports: MKT, per-probe summary, units and precision, safe file
names, and report codes."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from core.exports.model import FILE_NAME_MAX, safe_file_name
from core.exports.stats import ProbeSummary, humidity_text, mkt, temperature_text, to_unit
from core.exports.verification import group_code, normalise_code, verification_code


def test_the_mkt_of_a_constant_temperature_is_that_temperature():
    assert mkt([5.0] * 10) == pytest.approx(5.0, abs=1e-9)


def test_the_mkt_weighs_warm_hours_more_than_the_arithmetic_mean():
    # The USP <1160> example shape: half the time at 20 °C, half at 30 °C.
    values = [20.0, 30.0]
    assert mkt(values) > sum(values) / 2
    expected = 10_000 / -math.log((math.exp(-10_000 / 293.15) + math.exp(-10_000 / 303.15)) / 2) - 273.15
    assert mkt(values) == pytest.approx(expected)
    assert mkt(values) == pytest.approx(26.26, abs=0.01)


def test_the_mkt_of_no_reading_is_refused():
    with pytest.raises(ValueError):
        mkt([])


def test_a_running_summary_agrees_with_the_whole_list_and_skips_gaps():
    values = [2.0, 8.5, None, 4.0, float("nan"), -1.5]
    summary = ProbeSummary(kinetic=True)
    for v in values:
        summary.add(v)
    kept = [2.0, 8.5, 4.0, -1.5]
    assert (summary.count, summary.minimum, summary.maximum) == (4, -1.5, 8.5)
    assert summary.mean == pytest.approx(sum(kept) / 4)
    assert summary.mkt == pytest.approx(mkt(kept))
    assert ProbeSummary(kinetic=False).mkt is None and ProbeSummary().mean is None


def test_temperatures_are_shown_in_the_devices_unit_and_precision():
    assert to_unit(100.0, "F") == pytest.approx(212.0) and to_unit(-40.0, "F") == pytest.approx(-40.0)
    assert temperature_text(4.26, "C", 1) == "4.3"
    assert temperature_text(4.0, "F", 2) == "39.20"
    assert temperature_text(None, "C", 2) == ""
    assert temperature_text(3.14159, "C", 0) == "3" and temperature_text(3.14159, "C", 4) == "3.1416"
    assert humidity_text(61.25, 0) == "61" and humidity_text(None, 1) == ""


@pytest.mark.parametrize("parts,expected", [
    (("Cold room A", "2026-05-01"), "Cold_room_A_2026-05-01.csv"),
    (("../../etc/passwd",), "etc_passwd.csv"),
    (("冷库 一号", "2026-05-01"), "冷库_一号_2026-05-01.csv"),
    (("Холодильник \"№1\"",), "Холодильник_1.csv"),
    (("a\x00b\r\nc;d",), "a_b_c_d.csv"),
    (("...",), "export.csv"),
])
def test_file_names_keep_letters_and_digits_of_any_script_and_nothing_that_escapes(parts, expected):
    assert safe_file_name(*parts, extension="csv") == expected


def test_a_long_name_is_cut():
    name = safe_file_name("x" * 500, extension="pdf")
    assert name == "x" * FILE_NAME_MAX + ".pdf"


def test_a_report_code_changes_with_any_fact_and_with_the_key():
    since, until = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC)
    facts = ("alice", "RCW360A0000001", since, until, until, 8928, "id1")
    code = verification_code(b"k", *facts)
    assert len(code) == 20 and code.isalnum() and code == verification_code(b"k", *facts)
    assert verification_code(b"other", *facts) != code
    for i, changed in enumerate(("bob", "RCW360A0000002", until, since, since, 8929, "id2")):
        altered = list(facts)
        altered[i] = changed
        assert verification_code(b"k", *altered) != code, i


def test_a_code_is_read_back_whatever_its_case_and_grouping():
    code = "ABCD2EFGH3IJKL4MNOP5"
    assert group_code(code) == "ABCD-2EFG-H3IJ-KL4M-NOP5"
    assert normalise_code(group_code(code).lower()) == code
    assert normalise_code(" abcd 2efg ") == "ABCD2EFG"


def test_local_times_of_readings_follow_the_zone_across_a_dst_change():
    from zoneinfo import ZoneInfo

    from core.exports.device_report import LocalTimes, local

    zone = ZoneInfo("Europe/Berlin")
    stamp = LocalTimes(zone)
    start = datetime(2026, 3, 29, 0, 0, tzinfo=UTC)  # 02:00 local becomes 03:00 at 01:00 UTC
    for minutes in range(0, 180, 7):
        instant = start + timedelta(minutes=minutes)
        assert stamp(instant) == local(instant, zone) == instant.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")
