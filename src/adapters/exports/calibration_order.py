"""A calibration application's order as PDF, with its QR code, and the QR code alone as PNG. The
QR's modules come from one encoder (reportlab's) for both, so the paper and the image hold the same
code; what it holds is core.calibration.documents.order_link."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from io import BytesIO
from zoneinfo import ZoneInfo

from PIL import Image, ImageDraw
from reportlab.graphics.barcode import qrencoder
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle

from adapters.exports.typeset import counted_pages, font_for, grid, para
from core.calibration.model import SERVICE_NAMES, Application, Status
from core.calibration.ports import OrderDocument
from core.shared.messages import N_
from core.shared.money import display_amount

Labels = Callable[..., str]

TITLE = N_("Calibration order")
PAGE = N_("Page {page} of {pages}")
NUMBER = N_("Application number")
STATUS = N_("Status")
CREATED = N_("Applied on")
CUSTOMER = N_("Customer")
CONTACT = N_("Contact")
RETURN_ADDRESS = N_("Return address")
DEVICES = N_("Devices and services")
COLUMNS = (N_("No."), N_("Device"), N_("Serial number or GUID"), N_("Service"), N_("Price"))
TOTAL = N_("Total")
SCAN = N_("The lab scans this code when the devices arrive")
DETAILS_HIDDEN = N_("The customer's details are shown to the customer's account, the application's link and the lab")
STATUS_NAMES = {Status.SUBMITTED: N_("Submitted, not paid"), Status.PAID: N_("Paid"),
                Status.AWAITING_DEVICES: N_("Awaiting devices"), Status.RECEIVED: N_("Devices received"),
                Status.IN_CALIBRATION: N_("In calibration"), Status.RETURNED: N_("Certificates issued, devices "
                                                                                 "returned"),
                Status.CANCELLED_BY_CUSTOMER: N_("Cancelled by the customer"),
                Status.CANCELLED_BY_LAB: N_("Cancelled by the lab")}

MARGIN = 15 * mm
WIDTH = A4[0] - 2 * MARGIN
QR_SIZE = 42 * mm
QR_BORDER = 4  # modules of quiet zone around the code (ISO/IEC 18004)
PNG_MODULE = 8  # pixels a module


def qr_modules(text: str) -> list[list[bool]]:
    """The QR code of `text` (error correction M, the smallest version that holds it), dark = True."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(text)
    code.make()
    return [[bool(dark) for dark in row] for row in code.modules]


def qr_png(text: str) -> bytes:
    modules = qr_modules(text)
    side = (len(modules) + 2 * QR_BORDER) * PNG_MODULE
    image = Image.new("1", (side, side), 1)
    draw = ImageDraw.Draw(image)
    for r, row in enumerate(modules):
        for c, dark in enumerate(row):
            if dark:
                x, y = (c + QR_BORDER) * PNG_MODULE, (r + QR_BORDER) * PNG_MODULE
                draw.rectangle((x, y, x + PNG_MODULE - 1, y + PNG_MODULE - 1), fill=0)
    out = BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _qr_drawing(text: str, size: float) -> Drawing:
    modules = qr_modules(text)
    box = size / (len(modules) + 2 * QR_BORDER)
    drawing = Drawing(size, size)
    for r, row in enumerate(modules):
        for c, dark in enumerate(row):
            if dark:
                module = Rect((c + QR_BORDER) * box, size - (r + QR_BORDER + 1) * box, box, box)
                module.fillColor, module.strokeColor = colors.black, None
                drawing.add(module)
    return drawing


def _money(cents: int, currency: str) -> str:
    return f"{currency} {display_amount(cents, currency)}" if cents else f"{currency} 0"


def _facts(document: OrderDocument, t: Labels) -> list[tuple[str, str]]:
    a = document.application
    created = a.created_at.astimezone(ZoneInfo(document.time_zone))
    facts = [(NUMBER, a.number), (STATUS, t(STATUS_NAMES.get(a.status, str(int(a.status))))),
             (CREATED, _local(created))]
    if document.full:
        d = a.details
        contact = ", ".join(v for v in (d.contact.name, d.contact.phone, d.contact.email) if v)
        facts += [(CUSTOMER, d.customer_name or "—"), (CONTACT, contact), (RETURN_ADDRESS, d.return_address or "—")]
    return facts


def _local(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def _lines(a: Application, t: Labels) -> list[list]:
    rows = [[para(t(c), 8, bold=True) for c in COLUMNS]]
    for line in a.lines:
        rows.append([para(text, 8) for text in (str(line.index), line.model, line.serial,
                                                t(SERVICE_NAMES[line.service]), _money(line.price_cents, a.currency))])
    rows.append([para("", 8), para("", 8), para("", 8), para(t(TOTAL), 9, bold=True),
                 para(_money(a.total_cents, a.currency), 9, bold=True)])
    return rows


def order_pdf(document: OrderDocument, t: Labels) -> bytes:
    a = document.application
    facts = grid([[para(t(label), 9), para(value, 9)] for label, value in _facts(document, t)],
                 [40 * mm, WIDTH - QR_SIZE - 46 * mm], header=False)
    qr = [_qr_drawing(document.link, QR_SIZE), para(t(SCAN), 7)]
    top = Table([[facts, qr]], colWidths=[WIDTH - QR_SIZE - 4 * mm, QR_SIZE + 4 * mm])
    top.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    story: list = [para(t(TITLE), 16, bold=True), Spacer(1, 4 * mm), top]
    if not document.full:
        story += [Spacer(1, 2 * mm), para(t(DETAILS_HIDDEN), 8)]
    story += [Spacer(1, 5 * mm), para(t(DEVICES), 12, bold=True), Spacer(1, 2 * mm),
              grid(_lines(a, t), [WIDTH * f for f in (0.07, 0.25, 0.3, 0.2, 0.18)], long=True)]

    def marks(canvas: Canvas, page: int, pages: int) -> None:
        text = f"{a.number}  ·  {t(PAGE, page=page, pages=pages)}"
        canvas.saveState()
        canvas.setFont(font_for(text), 7)
        canvas.drawRightString(A4[0] - MARGIN, 8 * mm, text)
        canvas.restoreState()

    out = BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                            bottomMargin=MARGIN, title=f"{t(TITLE)} {a.number}", invariant=1)
    doc.build(story, canvasmaker=counted_pages(marks))
    return out.getvalue()
