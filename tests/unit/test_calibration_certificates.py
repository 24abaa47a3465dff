"""Certificates: error, expanded uncertainty and conformity against a worked example computed here
with exact fractions under both decision rules; versions (issued, corrected, superseded, all
readable, issued ones immutable); the JSON import's rules and the hostile values it refuses."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest

from core.calibration.certificates import (
    CertificateStatus,
    DecisionRule,
    Point,
    Verdict,
    certificate_number,
    conformity,
    overall,
)
from core.calibration.errors import CertificateIssued, CertificateNotIssued, ResultsNotNow
from core.calibration.model import Caller, ConsoleDevice, Status
from core.calibration.ports import DeviceCalibration
from core.calibration.rules import POINTS_MAX, PROBLEMS_MAX, content_from_json, content_json
from core.calibration.use_cases import (
    CorrectCertificate,
    ExplainResult,
    ImportCertificate,
    IssueCertificate,
    ReadCertificates,
    RecordResult,
)
from core.shared.edition import Edition
from core.shared.errors import Forbidden, InvalidInput, NotFound
from tests.support.clock import MutableClock
from tests.unit.calibration_fakes import ALICE, ALICE_DEVICE, BOB, FREEZER, T0, FakeUnitOfWork, at_status, content

LAB, AS_ALICE, AS_BOB = Caller(99, lab=True), Caller(ALICE), Caller(2)
TODAY = date(2026, 3, 10)
SIMPLE, GUARDED = DecisionRule.SIMPLE, DecisionRule.GUARDED

# (reference, reading, U at k=2, tolerance ±), and the verdicts under simple and guarded acceptance
WORKED = [
    ("-20.00", "-20.30", "0.12", "0.5", Verdict.PASS, Verdict.PASS),  # |e| + U = 0.42, inside
    ("25.00", "25.45", "0.12", "0.5", Verdict.PASS, Verdict.CONDITIONAL),  # 0.33 .. 0.57 straddles 0.5
    ("4.00", "3.30", "0.12", "0.5", Verdict.FAIL, Verdict.FAIL),  # 0.58 .. 0.82, all outside
    ("60", "60.55", "0.12", "0.5", Verdict.FAIL, Verdict.CONDITIONAL),  # 0.43 .. 0.67 straddles
    ("0.1", "0.3", "0.05", "0.2", Verdict.PASS, Verdict.CONDITIONAL),  # |e| = 0.2 exactly (no float drift)
    ("10", "10.62", "0.12", "0.5", Verdict.FAIL, Verdict.CONDITIONAL),  # the near end on the limit
    ("10", "10.38", "0.12", "0.5", Verdict.PASS, Verdict.PASS),  # the far end on the limit, from inside
]


def _by_hand(reference: str, reading: str, u: str, tolerance: str, rule: DecisionRule) -> tuple[Fraction, Verdict]:
    """The error and the verdict worked out from their definitions, in exact fractions."""
    error = Fraction(reading) - Fraction(reference)
    low, high, limit = abs(error) - Fraction(u), abs(error) + Fraction(u), Fraction(tolerance)
    if rule is SIMPLE:
        return error, Verdict.PASS if abs(error) <= limit else Verdict.FAIL
    return error, Verdict.PASS if high <= limit else Verdict.FAIL if low > limit else Verdict.CONDITIONAL


@pytest.mark.parametrize("reference, reading, u, tolerance, simple, guarded", WORKED)
def test_error_and_conformity_match_the_worked_example_under_both_decision_rules(
        reference, reading, u, tolerance, simple, guarded):
    point = Point(Decimal(reference), Decimal(reading), Decimal(u), tolerance=Decimal(tolerance))
    for rule, stated in ((SIMPLE, simple), (GUARDED, guarded)):
        error, verdict = _by_hand(reference, reading, u, tolerance, rule)
        assert Fraction(point.error) == error
        assert point.verdict(rule) is verdict is stated
    assert conformity(point.error, point.uncertainty, point.tolerance, SIMPLE) is simple


def test_an_error_is_exactly_reading_minus_reference_never_a_float_s():
    point = Point(Decimal("0.1"), Decimal("0.3"), Decimal("0.01"))
    assert point.error == Decimal("0.2") and str(point.error) == "0.2"
    assert point.verdict(GUARDED) is None  # no tolerance: no statement of conformity


def test_the_certificate_states_the_worst_verdict_of_its_final_results_and_the_as_found_one_beside():
    points = tuple(Point(Decimal(r), Decimal(x), Decimal(u), tolerance=Decimal(t)) for r, x, u, t, *_ in WORKED)
    assert overall(points, SIMPLE) is Verdict.FAIL and overall(points[:2], GUARDED) is Verdict.CONDITIONAL
    assert overall(points[:1], GUARDED) is Verdict.PASS and overall((), SIMPLE) is None
    adjusted = content(decision_rule=GUARDED, as_found=points[2:3], as_left=points[:1])
    assert adjusted.adjusted and adjusted.final_points == points[:1]
    assert (adjusted.verdict, adjusted.as_found_verdict) == (Verdict.PASS, Verdict.FAIL)
    assert not content().adjusted and content().final_points == content().as_found


# --- versions ---------------------------------------------------------------------------------------


@pytest.fixture
def lab_at_work():
    uow, clock = FakeUnitOfWork(), MutableClock(T0)
    application, _ = at_status(uow, clock, Status.IN_CALIBRATION)
    return uow, clock, application


def test_a_certificate_is_issued_then_immutable_and_a_correction_supersedes_it_both_readable(lab_at_work):
    uow, clock, application = lab_at_work
    edition = Edition.DOMESTIC
    line = application.lines[0]
    draft = RecordResult(uow, clock, edition)(LAB, application.id, line.index, content())
    assert (draft.status, draft.number, draft.version, draft.device_id) == (CertificateStatus.DRAFT, None, 1,
                                                                           ALICE_DEVICE.id)
    assert ReadCertificates(uow)(AS_ALICE, application.id) == []  # a draft is the lab's
    redrafted = RecordResult(uow, clock, edition)(LAB, application.id, line.index, content(remarks="Re-checked"))
    assert redrafted.id == draft.id and redrafted.content.remarks == "Re-checked"

    issued = IssueCertificate(uow, clock, edition, "ECL")(LAB, draft.id)
    assert (issued.status, issued.number, issued.reference, issued.issued_on) == (
        CertificateStatus.ISSUED, "ECL-2026-000001", "ECL-2026-000001", date(2026, 3, 5))
    with pytest.raises(CertificateIssued):
        RecordResult(uow, clock, edition)(LAB, application.id, line.index, content(remarks="Sneaky"))
    with pytest.raises(CertificateIssued):
        IssueCertificate(uow, clock, edition, "ECL")(LAB, draft.id)
    assert uow.calibration_certificates.get(issued.id).content.remarks == "Re-checked"

    corrected_content = content(calibrated_on=date(2026, 3, 5), remarks="Re-checked")
    corrected = CorrectCertificate(uow, clock, edition)(LAB, issued.id, corrected_content, "Wrong calibration date")
    assert (corrected.version, corrected.number, corrected.reference, corrected.status, corrected.amendment) == (
        2, "ECL-2026-000001", "ECL-2026-000001-V2", CertificateStatus.ISSUED, "Wrong calibration date")
    old = uow.calibration_certificates.get(issued.id)
    assert old.status is CertificateStatus.SUPERSEDED and old.content == issued.content
    assert [(c.version, c.status) for c in ReadCertificates(uow)(AS_ALICE, application.id)] == [
        (1, CertificateStatus.SUPERSEDED), (2, CertificateStatus.ISSUED)]
    with pytest.raises(CertificateNotIssued):  # only the current issue is corrected
        CorrectCertificate(uow, clock, edition)(LAB, issued.id, corrected_content, "Again")
    # the console device follows the newest certificate
    known = uow.calibrated_devices.calibration(ALICE_DEVICE.id)
    assert (known.calibrated_on, known.due_on, known.certificate) == (
        date(2026, 3, 5), date(2027, 3, 5), "ECL-2026-000001-V2")


def test_each_issued_certificate_takes_the_year_s_next_number_and_a_typed_device_has_no_console_dates(lab_at_work):
    uow, clock, application = lab_at_work
    issue = IssueCertificate(uow, clock, Edition.DOMESTIC, "ECL")
    numbers = [issue(LAB, RecordResult(uow, clock, Edition.DOMESTIC)(LAB, application.id, line.index,
                                                                      content()).id).number
               for line in application.lines]
    assert numbers == ["ECL-2026-000001", "ECL-2026-000002"] and certificate_number("ECL", 2027, 1) == "ECL-2027-000001"
    typed = uow.calibration_certificates.latest(application.id, application.lines[1].index)
    assert typed.device_id is None


def test_only_the_lab_records_results_and_only_while_the_devices_are_there():
    uow, clock = FakeUnitOfWork(), MutableClock(T0)
    paid, _ = at_status(uow, clock, Status.PAID)
    with pytest.raises(ResultsNotNow):
        RecordResult(uow, clock, Edition.DOMESTIC)(LAB, paid.id, 1, content())
    received, _ = at_status(uow, clock, Status.RECEIVED)
    with pytest.raises(Forbidden):
        RecordResult(uow, clock, Edition.DOMESTIC)(AS_ALICE, received.id, 1, content())
    with pytest.raises(InvalidInput):  # a result dated after today
        RecordResult(uow, clock, Edition.DOMESTIC)(LAB, received.id, 1, content(calibrated_on=date(2026, 4, 1)))
    assert RecordResult(uow, clock, Edition.DOMESTIC)(LAB, received.id, 1, content()).status is CertificateStatus.DRAFT


def test_a_stranger_reads_no_certificate(lab_at_work):
    uow, clock, application = lab_at_work
    with pytest.raises(NotFound):
        ReadCertificates(uow)(AS_BOB, application.id)


# --- the JSON import --------------------------------------------------------------------------------


def _json(**changes: object) -> dict:
    body = content_json(content())
    body.update(changes)
    return body


def _problems(raw: object) -> dict[str, str]:
    with pytest.raises(InvalidInput) as refused:
        content_from_json(raw, TODAY)
    return refused.value.problems


def test_a_certificate_reads_back_from_its_json_as_it_was():
    assert content_from_json(json.loads(json.dumps(content_json(content()))), TODAY) == content()
    as_numbers = _json(asFound=[{"reference": -20, "reading": -20.3, "uncertainty": 0.12, "tolerance": 0.5}])
    [point] = content_from_json(as_numbers, TODAY).as_found
    assert (point.reading, point.error, point.unit) == (Decimal("-20.3"), Decimal("-0.3"), "°C")


def test_the_import_goes_through_the_use_case_for_the_lab(lab_at_work):
    uow, clock, application = lab_at_work
    imported = ImportCertificate(uow, clock, Edition.DOMESTIC)(LAB, application.id, 1, _json(remarks="Imported"))
    assert imported.status is CertificateStatus.DRAFT and imported.content.remarks == "Imported"
    with pytest.raises(InvalidInput):
        ImportCertificate(uow, clock, Edition.DOMESTIC)(LAB, application.id, 1, _json(labName=""))


@pytest.mark.parametrize("value, message", [
    (float("nan"), "Enter a number"), (float("inf"), "Enter a number"), ("NaN", "Enter a number"),
    ("-Infinity", "Enter a number"), (json.loads("1e400"), "Enter a number"), (True, "Enter a number"),
    ([1], "Enter a number"), ("1" * 40, "Enter a number"), ("twelve", "Enter a number"),
    (10**30, "A value is between -1000000 and 1000000"),
    pytest.param(10**5000, "A value is between -1000000 and 1000000", id="5000-digits"),
    ("1e999999999", "A value is between -1000000 and 1000000"), ("0.0000001", "At most 6 decimals"),
    ("1e-999999999", "At most 6 decimals"), (None, "This field is required"),
])
def test_hostile_numbers_are_refused_field_by_field(value, message):
    point = {"reference": "25", "reading": value, "uncertainty": "0.1"}
    assert _problems(_json(asFound=[point])) == {"asFound[0].reading": message}


@pytest.mark.parametrize("text", ["Lab\x00", "Lab\ud800", "Lab\u202e", "Lab \U0001F600", "Lab\u200d", "L" * 101])
def test_control_format_surrogate_and_emoji_characters_and_overlong_text_are_refused(text):
    assert set(_problems(_json(labName=text))) == {"labName"}


def test_a_certificate_holds_1_to_50_points_as_found_and_at_most_50_as_left():
    point = {"reference": "25", "reading": "25.1", "uncertainty": "0.1"}
    assert _problems(_json(asFound=[point] * (POINTS_MAX + 1))) == {"asFound": "Give 1 to 50 measurement points"}
    assert _problems(_json(asFound=[])) == {"asFound": "Give 1 to 50 measurement points"}
    assert _problems(_json(asLeft=[point] * (POINTS_MAX + 1))) == {"asLeft": "At most 50 measurement points"}
    assert len(content_from_json(_json(asFound=[point] * POINTS_MAX, asLeft=[point]), TODAY).as_found) == 50


def test_every_wrong_field_is_named_in_one_refusal():
    problems = _problems(_json(
        labName=" ", receivedOn="2026-03-09", calibratedOn="2026-03-08", decisionRule="lenient",
        environment={"temperature": "99", "humidity": "-1", "pressure": "1013"},
        asFound=[{"reference": "1", "reading": "1", "uncertainty": "0"}, "a point", {"reference": "1"}],
        authorisedBy={"name": "Wang Fang"}, colour="red"))
    assert problems == {
        "labName": "This field is required", "receivedOn": "The devices must be received before they are calibrated",
        "decisionRule": "Choose one of the values offered",
        "environment.temperature": "The lab temperature is between -10 and 60 °C",
        "environment.humidity": "The relative humidity is between 0 and 100 %",
        "environment.pressure": "Unknown field", "asFound[0].uncertainty": "The value must be above 0",
        "asFound[1]": "Expected an object", "asFound[2].reading": "This field is required",
        "asFound[2].uncertainty": "This field is required", "authorisedBy.role": "This field is required",
        "colour": "Unknown field",
    }


@pytest.mark.parametrize("day", ["2026-02-30", "20260301", "2026-3-1", "1999-12-31", 20260301, None, "2026-03-11"])
def test_dates_are_iso_days_in_range_and_not_in_the_future(day):
    assert set(_problems(_json(calibratedOn=day))) == {"calibratedOn"}


def test_a_body_that_is_not_an_object_or_drowns_in_fields_gets_a_bounded_answer():
    assert _problems([1, 2]) == {"body": "Expected an object"}
    assert _problems("certificate") == {"body": "Expected an object"}
    flood = _json(**{f"field{i}": i for i in range(10_000)})
    assert len(_problems(flood)) == PROBLEMS_MAX


def test_a_point_s_unit_is_one_the_lab_uses():
    point = {"reference": "50", "reading": "50.5", "uncertainty": "1", "unit": "%RH"}
    assert content_from_json(_json(asFound=[point]), TODAY).as_found[0].unit == "%RH"
    assert _problems(_json(asFound=[{**point, "unit": "K"}])) == {"asFound[0].unit": "Choose one of the values offered"}


def test_record_result_holds_content_built_by_the_api_to_the_same_rules(lab_at_work):
    uow, clock, application = lab_at_work
    hostile = content(as_found=(Point(Decimal("NaN"), Decimal("1"), Decimal("0.1")),))
    with pytest.raises(InvalidInput) as refused:
        RecordResult(uow, clock, Edition.DOMESTIC)(LAB, application.id, 1, hostile)
    assert refused.value.problems == {"asFound[0].reference": "Enter a number"}
    with pytest.raises(InvalidInput):
        RecordResult(uow, clock, Edition.DOMESTIC)(LAB, application.id, 1, replace(content(), method="x\x07"))


def test_the_lab_s_explanation_becomes_the_draft_s_remarks_and_needs_results_first(lab_at_work):
    uow, clock, application = lab_at_work
    explain = ExplainResult(uow, clock, Edition.DOMESTIC)
    with pytest.raises(NotFound):
        explain(LAB, application.id, 1, "Nothing recorded yet")
    draft = RecordResult(uow, clock, Edition.DOMESTIC)(LAB, application.id, 1, content())
    explained = explain(LAB, application.id, 1, "Adjusted at -20 °C")
    assert (explained.id, explained.content.remarks) == (draft.id, "Adjusted at -20 °C")
    assert explained.content.as_found == draft.content.as_found
    with pytest.raises(InvalidInput):
        explain(LAB, application.id, 1, "x" * 10_000)
    with pytest.raises(Forbidden):
        explain(AS_ALICE, application.id, 1, "Not the lab")


def test_a_typed_serial_that_is_a_console_device_s_guid_dates_that_device_whoever_ordered_it():
    uow, clock = FakeUnitOfWork(), MutableClock(T0)
    bob_freezer = ConsoleDevice(300, "sn-a", "Bob's freezer", FREEZER, "ULT-86")  # SN-A typed in another case
    uow.calibrated_devices.owners[bob_freezer.id] = (BOB, bob_freezer)
    uow.calibrated_devices.calibrations[bob_freezer.id] = DeviceCalibration()
    application, _ = at_status(uow, clock, Status.IN_CALIBRATION, caller=Caller())  # no account: typed SN-A, SN-B
    first, second = (RecordResult(uow, clock, Edition.DOMESTIC)(LAB, application.id, line.index, content())
                     for line in application.lines)
    assert (first.device_id, second.device_id) == (bob_freezer.id, None)
    issued = IssueCertificate(uow, clock, Edition.DOMESTIC, "ECL")(LAB, first.id)
    known = uow.calibrated_devices.calibration(bob_freezer.id)
    assert (known.calibrated_on, known.certificate) == (first.content.calibrated_on, issued.reference)
