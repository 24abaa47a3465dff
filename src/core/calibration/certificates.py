"""A device's calibration certificate and its results (ISO/IEC 17025:2017 section 7.8; spec 001
section 3's ResultInfo).

Values are Decimals as the lab wrote them: an error is reading - reference exactly (0.3, never
0.30000000000000004), and a verdict at a tolerance's edge is decided on the figures printed.

An issued certificate never changes (7.8.8): a correction is a new version of the same number,
issued with why it replaces the last, and the last is marked superseded and stays readable."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import IntEnum, StrEnum

from core.shared.identity import Stored
from core.shared.messages import N_

COVERAGE_FACTOR = 2  # expanded uncertainties are stated at k = 2 (about 95 % coverage)


class CertificateStatus(IntEnum):
    DRAFT = 1  # results being entered: the lab changes them freely, the customer does not see them
    ISSUED = 2  # immutable
    SUPERSEDED = 3  # an issued version a correction replaced: still readable, marked so


class DecisionRule(StrEnum):
    """How conformity is stated (7.1.3, ILAC-G8)."""

    SIMPLE = "simple"  # |error| within the tolerance passes: the risk of the uncertainty is shared
    GUARDED = "guarded"  # the whole interval error ± U inside passes, outside fails, else conditional


class Verdict(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    CONDITIONAL = "conditional"  # the interval error ± U straddles a tolerance limit


VERDICT_NAMES = {Verdict.PASS: N_("Pass"), Verdict.FAIL: N_("Fail"), Verdict.CONDITIONAL: N_("Conditional")}
_SEVERITY = (Verdict.PASS, Verdict.CONDITIONAL, Verdict.FAIL)


def conformity(error: Decimal, uncertainty: Decimal, tolerance: Decimal, rule: DecisionRule) -> Verdict:
    """The verdict on an error against a symmetric tolerance ± `tolerance`. Guarded: pass when
    |error| + U is within it, fail when |error| - U is beyond it, conditional between (an interval
    that only touches a limit from inside passes; one whose near end is on the limit is conditional)."""
    size = abs(error)
    if rule is DecisionRule.SIMPLE:
        return Verdict.PASS if size <= tolerance else Verdict.FAIL
    if size + uncertainty <= tolerance:
        return Verdict.PASS
    if size - uncertainty > tolerance:
        return Verdict.FAIL
    return Verdict.CONDITIONAL


@dataclass(frozen=True)
class Point:
    """One measurement point: the reference standard's value and the device's reading, in `unit`."""

    reference: Decimal
    reading: Decimal
    uncertainty: Decimal  # expanded, k = COVERAGE_FACTOR
    unit: str = "°C"
    tolerance: Decimal | None = None  # the maximum permissible error ±; None: no conformity stated

    @property
    def error(self) -> Decimal:
        return self.reading - self.reference

    def verdict(self, rule: DecisionRule) -> Verdict | None:
        if self.tolerance is None:
            return None
        return conformity(self.error, self.uncertainty, self.tolerance, rule)


def overall(points: tuple[Point, ...], rule: DecisionRule) -> Verdict | None:
    """The worst verdict of the points that state one; None when none does."""
    verdicts = [v for p in points if (v := p.verdict(rule)) is not None]
    return max(verdicts, key=_SEVERITY.index) if verdicts else None


@dataclass(frozen=True)
class Environment:
    """The lab's conditions during the calibration."""

    temperature: Decimal  # °C
    humidity: Decimal  # %RH


@dataclass(frozen=True)
class Signatory:
    name: str
    role: str


@dataclass(frozen=True)
class CertificateContent:
    """What a certificate states (7.8.2 and 7.8.4), beside its number, version and dates of issue."""

    lab_name: str
    customer_name: str
    item_type: str
    item_model: str
    item_serial: str  # the serial number, or a console device's GUID
    condition_on_receipt: str
    received_on: date
    calibrated_on: date
    method: str  # the procedure's reference
    environment: Environment
    decision_rule: DecisionRule
    as_found: tuple[Point, ...]
    authorised_by: Signatory
    as_left: tuple[Point, ...] = ()  # after an adjustment; () when the device was not adjusted
    customer_address: str | None = None
    remarks: str | None = None
    lab_address: str | None = None  # 7.8.2.1 b
    # 7.8.4.1 c: how the results are metrologically traceable (the reference standards' calibration chain)
    traceability: str | None = None

    @property
    def adjusted(self) -> bool:
        return bool(self.as_left)

    @property
    def final_points(self) -> tuple[Point, ...]:
        """The results the device goes back with."""
        return self.as_left or self.as_found

    @property
    def verdict(self) -> Verdict | None:
        return overall(self.final_points, self.decision_rule)

    @property
    def as_found_verdict(self) -> Verdict | None:
        return overall(self.as_found, self.decision_rule)


@dataclass(frozen=True)
class Certificate(Stored):
    """One version of a device's certificate. Versions of one device share the number, given when
    the first is issued; a draft has none."""

    id: int | None
    application_id: int
    line_index: int  # the device's line on the application
    version: int
    status: CertificateStatus
    content: CertificateContent
    created_at: datetime
    number: str | None = None
    device_id: int | None = None  # a console device's: its due date follows the certificate
    issued_on: date | None = None
    issued_at: datetime | None = None
    superseded_at: datetime | None = None
    amendment: str | None = None  # why this version replaces the one before (version > 1)

    @property
    def reference(self) -> str | None:
        """What every page prints: the number, and the version after the first."""
        if self.number is None:
            return None
        return self.number if self.version == 1 else f"{self.number}-V{self.version}"


def certificate_number(prefix: str, year: int, sequence: int) -> str:
    """The lab's prefix, the year of issue and the year's sequence: ECL-2026-000042."""
    return f"{prefix}-{year}-{sequence:06d}"
