"""A calibration certificate as PDF (ISO/IEC 17025:2017 7.8.2 and 7.8.4): its unique reference
and "page x of y" on every page, the lab, the customer, the item, its condition on receipt, the
dates, the method, the environment, each point's reference value, reading, error, expanded
uncertainty and conformity under the decision rule, as found and, when adjusted, as left, and who
authorised it. A superseded version says so on every page with the reference that replaced it; a
draft (the lab's look before issuing) says it is none.

Deterministic: reportlab's invariant mode writes no creation time and no random document id, so a
version gives the same bytes on every download (core.calibration.documents)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from io import BytesIO

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import SimpleDocTemplate, Spacer

from adapters.exports.typeset import THEME, counted_pages, font_for, grid, para
from core.calibration.certificates import (
    COVERAGE_FACTOR,
    VERDICT_NAMES,
    CertificateStatus,
    DecisionRule,
    Point,
)
from core.calibration.ports import CertificateDocument
from core.shared.messages import N_

Labels = Callable[..., str]  # a message id (and its parameters) -> its text in the document's language

TITLE = N_("Calibration certificate")
NUMBER = N_("Certificate number")
PAGE = N_("Page {page} of {pages}")
FINGERPRINT = N_("Content fingerprint: {value}")
SUPERSEDED = N_("SUPERSEDED")
SUPERSEDED_BY = N_("SUPERSEDED by {reference}: this version is no longer valid")
DRAFT = N_("DRAFT")
DRAFT_NOTE = N_("DRAFT: not a certificate until it is issued")
VERSION = N_("{reference} (version {version})")
FACTS = {
    "issued": N_("Date of issue"), "application": N_("Application number"), "lab": N_("Calibration laboratory"),
    "customer": N_("Customer"), "item": N_("Item calibrated"), "serial": N_("Serial number or GUID"),
    "condition": N_("Condition on receipt"), "received": N_("Date of receipt"),
    "calibrated": N_("Date of calibration"), "method": N_("Method"), "environment": N_("Environmental conditions"),
    "rule": N_("Decision rule"), "adjusted": N_("Adjusted"), "verdict": N_("Conformity of the item as left"),
    "traceability": N_("Metrological traceability"),
}
ENVIRONMENT = N_("Temperature {temperature} °C, relative humidity {humidity} %RH")
RULES = {DecisionRule.SIMPLE: N_("Simple acceptance: a point conforms when its error is within the tolerance; "
                                 "the risk from the measurement uncertainty is shared"),
         DecisionRule.GUARDED: N_("Guarded acceptance: a point conforms when its error plus or minus the expanded "
                                  "uncertainty lies within the tolerance, does not conform when it lies wholly "
                                  "outside it, and is conditional otherwise")}
YES, NO = N_("Yes"), N_("No")
NOT_STATED = N_("Not stated")
AS_FOUND = N_("Results as found (before adjustment)")
AS_LEFT = N_("Results as left (after adjustment)")
RESULTS = N_("Results (as found; the item was not adjusted)")
COLUMNS = (N_("Reference value"), N_("Reading"), N_("Measurement error"), N_("Expanded uncertainty U (k = {k})"),
           N_("Tolerance (±)"), N_("Conformity"))
AMENDMENT = N_("This certificate replaces {reference}: {reason}")
REMARKS = N_("Remarks")
UNCERTAINTY_NOTE = N_("The expanded uncertainty U is stated at a coverage factor k = {k}, a coverage probability "
                      "of about 95 %.")
ONLY_THIS_ITEM = N_("The results relate only to the item calibrated.")
END = N_("End of certificate")
IN_FULL = N_("This certificate shall not be reproduced except in full without the written approval of the "
             "laboratory.")
AUTHORISED = N_("Authorised by")

MARGIN = 15 * mm
WIDTH = A4[0] - 2 * MARGIN
RED = colors.HexColor("#c0392b")


def _figure(value: object, unit: str) -> str:
    return f"{value} {unit}"


def _points(points: tuple[Point, ...], rule: DecisionRule, t: Labels) -> list:
    rows = [[para(t(c, k=COVERAGE_FACTOR), 8, bold=True) for c in COLUMNS]]
    for p in points:
        verdict = p.verdict(rule)
        rows.append([para(text, 8) for text in (
            _figure(p.reference, p.unit), _figure(p.reading, p.unit), _figure(p.error, p.unit),
            _figure(p.uncertainty, p.unit), _figure(p.tolerance, p.unit) if p.tolerance is not None else "—",
            t(VERDICT_NAMES[verdict]) if verdict is not None else t(NOT_STATED))])
    return [grid(rows, [WIDTH * f for f in (0.17, 0.15, 0.14, 0.2, 0.14, 0.2)], long=True)]


def _marks(document: CertificateDocument, t: Labels) -> Callable[[Canvas, int, int], None]:
    c = document.certificate
    reference = c.reference or t(DRAFT)
    banner = (t(SUPERSEDED_BY, reference=document.replaced_by or "") if c.status is CertificateStatus.SUPERSEDED
              else t(DRAFT_NOTE) if c.status is CertificateStatus.DRAFT else None)
    watermark = t(SUPERSEDED) if c.status is CertificateStatus.SUPERSEDED else (
        t(DRAFT) if c.status is CertificateStatus.DRAFT else None)
    fingerprint = t(FINGERPRINT, value=document.fingerprint)

    def draw(canvas: Canvas, page: int, pages: int) -> None:
        canvas.saveState()
        top = A4[1] - 10 * mm
        left = f"{t(NUMBER)}: {reference}"
        right = t(PAGE, page=page, pages=pages)
        canvas.setFont(font_for(left), 8)
        canvas.drawString(MARGIN, top, left)
        canvas.setFont(font_for(right), 8)
        canvas.drawRightString(A4[0] - MARGIN, top, right)
        canvas.setStrokeColor(THEME)
        canvas.line(MARGIN, top - 2 * mm, A4[0] - MARGIN, top - 2 * mm)
        if banner:
            canvas.setFillColor(RED)
            canvas.setFont(font_for(banner), 9)
            canvas.drawCentredString(A4[0] / 2, top - 7 * mm, banner)
        canvas.setFillColor(colors.black)
        bottom = 8 * mm
        foot = f"{left}  ·  {right}  ·  {fingerprint}"
        canvas.setFont(font_for(foot), 7)
        canvas.drawString(MARGIN, bottom, foot)
        if watermark:
            canvas.setFillColor(RED)
            canvas.setFillAlpha(0.12)
            canvas.setFont(font_for(watermark), 72)
            canvas.translate(A4[0] / 2, A4[1] / 2)
            canvas.rotate(40)
            canvas.drawCentredString(0, 0, watermark)
        canvas.restoreState()

    return draw


def certificate_pdf(document: CertificateDocument, t: Labels) -> bytes:
    c, content = document.certificate, document.certificate.content
    rule = content.decision_rule
    reference = t(VERSION, reference=c.reference, version=c.version) if c.reference else t(DRAFT)
    customer = content.customer_name + (f", {content.customer_address}" if content.customer_address else "")
    lab = content.lab_name + (f", {content.lab_address}" if content.lab_address else "")
    verdict = content.verdict
    facts = [
        (NUMBER, reference), (FACTS["issued"], c.issued_on.isoformat() if c.issued_on else "—"),
        (FACTS["application"], document.application_number), (FACTS["lab"], lab),
        (FACTS["customer"], customer), (FACTS["item"], f"{content.item_type}, {content.item_model}"),
        (FACTS["serial"], content.item_serial), (FACTS["condition"], content.condition_on_receipt),
        (FACTS["received"], content.received_on.isoformat()), (FACTS["calibrated"], content.calibrated_on.isoformat()),
        (FACTS["method"], content.method),
        (FACTS["environment"], t(ENVIRONMENT, temperature=content.environment.temperature,
                                 humidity=content.environment.humidity)),
        (FACTS["rule"], t(RULES[rule])), (FACTS["adjusted"], t(YES) if content.adjusted else t(NO)),
        (FACTS["verdict"], t(VERDICT_NAMES[verdict]) if verdict is not None else t(NOT_STATED)),
        *([(FACTS["traceability"], content.traceability)] if content.traceability else []),
    ]
    story: list = [para(t(TITLE), 16, bold=True), Spacer(1, 4 * mm),
                   grid([[para(t(label), 9), para(value, 9)] for label, value in facts], [55 * mm, WIDTH - 55 * mm],
                        header=False)]
    if c.amendment:
        replaced = replace(c, version=c.version - 1).reference or ""
        story += [Spacer(1, 3 * mm), para(t(AMENDMENT, reference=replaced, reason=c.amendment), 9)]
    sections: tuple[tuple[str, tuple[Point, ...]], ...]
    if content.adjusted:
        sections = ((AS_FOUND, content.as_found), (AS_LEFT, content.as_left))
    else:
        sections = ((RESULTS, content.as_found),)
    for title, points in sections:
        story += [Spacer(1, 5 * mm), para(t(title), 12, bold=True), Spacer(1, 2 * mm), *_points(points, rule, t)]
    story += [Spacer(1, 4 * mm), para(t(UNCERTAINTY_NOTE, k=COVERAGE_FACTOR), 8), para(t(ONLY_THIS_ITEM), 8)]
    if content.remarks:
        story += [Spacer(1, 4 * mm), para(t(REMARKS), 12, bold=True), Spacer(1, 2 * mm), para(content.remarks, 9)]
    signatory = f"{content.authorised_by.name}, {content.authorised_by.role}"
    story += [Spacer(1, 6 * mm), para(t(AUTHORISED), 12, bold=True), Spacer(1, 2 * mm), para(signatory, 10),
              Spacer(1, 6 * mm), para(t(IN_FULL), 8), Spacer(1, 4 * mm), para(f"— {t(END)} —", 9, bold=True)]
    out = BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=25 * mm,
                            bottomMargin=15 * mm, title=f"{t(TITLE)} {c.reference or ''}".strip(),
                            author=content.lab_name, invariant=1)
    doc.build(story, canvasmaker=counted_pages(_marks(document, t)))
    return out.getvalue()
