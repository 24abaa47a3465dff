"""The periodic report's rules (core.fda.reports): its status from the signatures that apply, its
version over the device, period, limits and readings, and what its PDF says of each signature."""

from __future__ import annotations

import hashlib
import struct
from datetime import UTC, datetime, timedelta

import pytest

from core.exports.device_report import Labels
from core.exports.stats import TimeOutOfRange
from core.fda.model import FdaReport, JudgedLimit, Manifestation, ReportStatus, meaning_words
from core.fda.reports import ReportPdf, content_hash, content_head, label, reading_bytes, status_of
from core.telemetry.downsample import Point

T0 = datetime(2026, 5, 1, tzinfo=UTC)
T1 = datetime(2026, 6, 1, tzinfo=UTC)
LIMITS = (JudgedLimit("t", 2.0, 8.0),)


def signed(login: str, meaning: str, valid: bool = True, **changes) -> Manifestation:
    return Manifestation(login.title(), login, meaning, T1 + timedelta(hours=1), changes.pop("zone", "UTC"),
                         changes.pop("reason", None), changes.pop("endorsement", None), valid, **changes)


@pytest.mark.parametrize(("signatures", "status"), [
    ([], ReportStatus.DRAFT),
    ([signed("ann", "reviewed")], ReportStatus.REVIEWED),
    ([signed("ann", "reviewed"), signed("bo", "approved")], ReportStatus.APPROVED),
    ([signed("bo", "approved"), signed("ann", "reviewed")], ReportStatus.REVIEWED),  # approved before the review
    ([signed("ann", "reviewed"), signed("ann", "approved")], ReportStatus.REVIEWED),  # by the reviewer herself
    ([signed("ann", "reviewed"), signed("ann", "approved"), signed("bo", "approved")], ReportStatus.APPROVED),
    ([signed("ann", "reviewed", valid=False), signed("bo", "approved")], ReportStatus.DRAFT),  # review void
    ([signed("ann", "reviewed"), signed("bo", "approved", valid=False)], ReportStatus.REVIEWED),
    ([signed("ann", "reviewed"), signed("bo", "responsible"), signed("cy", "Verified by QA")],
     ReportStatus.REVIEWED),
])
def test_the_status_needs_a_valid_review_then_a_valid_approval_by_another_person(signatures, status):
    assert status_of(signatures) is status


def test_the_version_is_the_sha256_of_a_text_head_then_each_reading_s_bytes():
    readings = [Point(T0 + timedelta(minutes=5), 4.25, 55.0), Point(T0 + timedelta(minutes=10), 0.1, None)]
    head = (b"coldchain fda report 1\ndevice 7 CR2B000000001\nperiod 1777593600000000 1780272000000000\n"
            b"limit t 2.0 8.0\n")
    body = (struct.pack(">qBdBd", 1777593900000000, 1, 4.25, 1, 55.0)
            + struct.pack(">qBd", 1777594200000000, 1, 0.1) + b"\x00")
    assert content_head(7, "CR2B000000001", T0, T1, LIMITS) == head
    assert [len(reading_bytes(p)) for p in readings] == [26, 18]
    assert content_hash(7, "CR2B000000001", T0, T1, LIMITS, readings) == hashlib.sha256(head + body).hexdigest()


def test_any_change_of_what_a_report_is_made_of_changes_its_version():
    readings = [Point(T0 + timedelta(minutes=m), 5.0, None) for m in range(0, 60, 5)]
    base = content_hash(7, "G1", T0, T1, LIMITS, readings)
    late = sorted([*readings, Point(T0 + timedelta(minutes=7), 5.0, None)], key=lambda p: p.ts)
    changed = [readings[0]._replace(temperature=5.000000001), *readings[1:]]
    assert len({base, content_hash(7, "G1", T0, T1, LIMITS, late), content_hash(7, "G1", T0, T1, LIMITS, changed),
                content_hash(8, "G1", T0, T1, LIMITS, readings), content_hash(7, "G2", T0, T1, LIMITS, readings),
                content_hash(7, "G1", T0, T1 + timedelta(microseconds=1), LIMITS, readings),
                content_hash(7, "G1", T0, T1, (JudgedLimit("t", 2.0, 8.5),), readings),
                content_hash(7, "G1", T0, T1, (), readings)}) == 8
    assert content_hash(7, "G1", T0, T1, LIMITS, list(readings)) == base  # the same content, the same version


def test_a_report_s_label_names_the_device_and_the_period_in_the_zone_it_was_chosen_in():
    report = FdaReport(3, 7, 1, None, "May", T0, T1, "Asia/Shanghai", LIMITS, 1, T1, "", device_name="Cold room")
    assert label(report) == "Cold room 2026-05-01 08:00 – 2026-06-01 08:00"
    assert label(FdaReport(3, 7, 1, None, "May", T0, T1, "Nowhere/Void", (), 1, T1, "")) == (
        "#7 2026-05-01 00:00 – 2026-06-01 00:00")


def test_a_meaning_is_said_in_the_reader_s_words_and_an_endorsement_s_own_as_written():
    def shout(context: str, msgid: str) -> str:
        return f"{context}: {msgid.upper()}"

    assert meaning_words(signed("ann", "reviewed").meaning, shout) == "signature meaning: REVIEWED"
    assert meaning_words(signed("ann", "approved").meaning, shout) == "signature meaning: APPROVED"
    assert meaning_words(signed("ann", "Verified by QA", endorsement="QA release").meaning, shout) == "Verified by QA"


def test_each_manifestation_prints_name_meaning_local_time_with_its_zone_reason_and_whether_it_applies():
    t = Labels(lambda msgid, language, **params: msgid.format(**params) if params else msgid, "en-US")
    block = ReportPdf._block([
        signed("ann", "reviewed", zone="Europe/Berlin", reason="Checked", id=1),
        signed("bo", "approved", valid=False, zone="America/New_York", endorsement="Release", endorsement_id=4),
    ], t, lambda context, msgid: msgid)
    assert block.rows == [
        ["Ann (ann)", "Reviewed", "2026-06-01 03:00:00 UTC+02:00 (Europe/Berlin)", "Checked", "Yes"],
        ["Bo (bo)", "Approved (Release)", "2026-05-31 21:00:00 UTC-04:00 (America/New_York)", "",
         "No: the report changed after it was signed"]]
    assert block.applies == [True, False]
    empty = ReportPdf._block([], t, lambda context, msgid: msgid)
    assert empty.rows == [] and empty.none == "Not signed yet"


def test_time_out_of_range_counts_each_span_that_starts_out_of_range_until_the_next_reading():
    span = TimeOutOfRange(upper=8.0, lower=2.0)
    for minutes, value in ((0, 5.0), (10, 9.0), (20, None), (30, 8.0), (40, 1.0), (45, 2.0), (50, 1.5)):
        span.add(T0 + timedelta(minutes=minutes), value)
    # 9.0 from 10 to 30 (the reading without a value changes nothing), 1.0 from 40 to 45; 1.5 is the last
    assert span.total == timedelta(minutes=25)
