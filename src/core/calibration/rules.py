"""The rules of an application's fields and of a certificate's content (spec 001 section 5 shows
none for calibration forms: these are ours), checked on the trimmed values; a refusal names every
wrong field under the API's name for it (`asFound[2].reading`).

A certificate is read from JSON (importCert) by `content_from_json`, and one the API built is
checked by the same reader (`checked_content`), so both are held to the same rules. Hostile input
is refused field by field: numbers that are not finite, huge or too precise, control, format and
surrogate characters, too many points."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from core.calibration.certificates import CertificateContent, DecisionRule, Environment, Point, Signatory
from core.calibration.model import (
    NUMBER_PATTERN,
    Contact,
    Details,
    InvoiceDetails,
    InvoiceType,
    ItemRequest,
    Service,
)
from core.devices.rules import guid_problem
from core.shared.errors import InvalidInput
from core.shared.messages import N_
from core.shared.money import shown_unit
from core.shared.text import (  # noqa: F401 (PHONE_MAX, EMAIL_MAX: the API's bounds)
    EMAIL_FORMAT,
    EMAIL_MAX,
    PHONE_MAX,
    contact_email_problem,
    contact_phone_problem,
    has_refused_characters,
)

NAME_MAX = 100  # customer, lab, invoice title
CONTACT_NAME_MAX = 30
ADDRESS_MAX = 200
REMARK_MAX = 200
MODEL_MAX = SERIAL_MAX = TYPE_MAX = SIGNATORY_MAX = 50
STATEMENT_MAX = 200  # condition on receipt, method, points note, correction reason
REMARKS_MAX = 1000
ITEMS_MAX = 50  # devices on one application
POINTS_MAX = 50  # measurement points in one result set (as found, as left)
MAGNITUDE_MAX = Decimal(1_000_000)
MAGNITUDE_DIGITS = 6  # the adjusted exponent of MAGNITUDE_MAX
DECIMALS_MAX = 6
NUMBER_TEXT_MAX = 32  # a number written as text, before it is read
PROBLEMS_MAX = 50  # a refusal names at most this many fields
PRICE_MAX_CENTS = 100_000_000
YEARS = (2000, 2100)
LAB_TEMPERATURE = (Decimal(-10), Decimal(60))  # °C
UNITS = ("°C", "°F", "%RH")

REQUIRED = N_("This field is required")
TOO_LONG = N_("At most {max} characters")
CHARACTERS = N_("Emoji and control characters are not allowed here")
CONTACT_WAY = N_("Give a phone number or an e-mail address")
TAX_NUMBER_FORMAT = N_("A tax number is 1 to 20 letters and digits")
SERIAL_FORMAT = N_("A serial number is 1 to 50 letters, digits and - _ . /")
TRACKING_FORMAT = N_("A tracking number is 4 to 40 letters, digits and dashes")
ITEMS_COUNT = N_("Choose 1 to 50 devices")
POINTS_COUNT = N_("Give 1 to 50 measurement points")
AS_LEFT_COUNT = N_("At most 50 measurement points")
NOT_A_NUMBER = N_("Enter a number")
NOT_TEXT = N_("Enter a text")
NUMBER_RANGE = N_("A value is between -1000000 and 1000000")
NUMBER_DECIMALS = N_("At most 6 decimals")
NOT_POSITIVE = N_("The value must be above 0")
LAB_TEMPERATURE_RANGE = N_("The lab temperature is between -10 and 60 °C")
HUMIDITY_RANGE = N_("The relative humidity is between 0 and 100 %")
DATE_FORMAT = N_("Enter a date as YYYY-MM-DD between 2000 and 2100")
RECEIVED_AFTER_CALIBRATION = N_("The devices must be received before they are calibrated")
IN_THE_FUTURE = N_("The date must not be in the future")
UNKNOWN_FIELD = N_("Unknown field")
NOT_AN_OBJECT = N_("Expected an object")
NOT_A_LIST = N_("Expected a list")
CHOICE = N_("Choose one of the values offered")
ONE_DEVICE_KIND = N_("Choose a device of the console by its GUID, or type its model and serial number")
POINTS_NOTE_NEEDED = N_("Say which extra points are wanted")
PRICE_RANGE = N_("A price is above 0 and at most 1000000")
PRICE_UNIT = N_("A price in this currency is a whole number of units")

_TAX_NUMBER = re.compile(r"^[A-Za-z0-9]{1,20}$")
_SERIAL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_./\-]{0,49}$")
_TRACKING = re.compile(r"^[A-Za-z0-9][A-Za-z0-9\-]{3,39}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _clean(value: str | None) -> str | None:
    return (value or "").strip() or None


class _Problems:
    """Field -> message id (and parameters), the first problem of each field kept."""

    def __init__(self) -> None:
        self.problems: dict[str, str] = {}
        self.params: dict[str, dict[str, Any]] = {}

    def add(self, path: str, message: str, **params: Any) -> None:
        if path not in self.problems and len(self.problems) < PROBLEMS_MAX:
            self.problems[path] = message
            if params:
                self.params[path] = params

    def raise_any(self) -> None:
        if self.problems:
            raise InvalidInput.of(self.problems, self.params)

    def text(self, path: str, value: object, limit: int, *, required: bool = True) -> str | None:
        """The trimmed text, None when it is empty (a problem if required) or wrong."""
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                self.add(path, REQUIRED)
            return None
        if not isinstance(value, str):
            self.add(path, NOT_TEXT)
            return None
        text = value.strip()
        if len(text) > limit:
            self.add(path, TOO_LONG, max=limit)
            return None
        if has_refused_characters(text, symbols=True):
            self.add(path, CHARACTERS)
            return None
        return text

    def number(self, path: str, value: object, *, positive: bool = False, required: bool = True) -> Decimal | None:
        if value is None:
            if required:
                self.add(path, REQUIRED)
            return None
        found = _decimal(value)
        if found is None:
            self.add(path, NOT_A_NUMBER)
            return None
        # sizes read off the digits first: arithmetic on 1e999999999 overflows the decimal context
        if found.adjusted() > MAGNITUDE_DIGITS or abs(found) > MAGNITUDE_MAX:
            self.add(path, NUMBER_RANGE)
            return None
        exponent = found.as_tuple().exponent
        if isinstance(exponent, int) and -exponent > DECIMALS_MAX:
            self.add(path, NUMBER_DECIMALS)
            return None
        if positive and found <= 0:
            self.add(path, NOT_POSITIVE)
            return None
        return found

    def day(self, path: str, value: object) -> date | None:
        if isinstance(value, date):
            found: date | None = value
        elif isinstance(value, str) and _DATE.match(value.strip()):
            try:
                found = date.fromisoformat(value.strip())
            except ValueError:
                found = None
        else:
            found = None
        if found is None or not YEARS[0] <= found.year <= YEARS[1]:
            self.add(path, DATE_FORMAT if value is not None else REQUIRED)
            return None
        return found

    def choice(self, path: str, value: object, parse: Callable[[Any], Any]) -> Any:
        if isinstance(value, bool):  # True is 1 to Python, not a choice to a person
            self.add(path, CHOICE)
            return None
        try:
            return parse(value)
        except (ValueError, TypeError):
            self.add(path, CHOICE if value is not None else REQUIRED)
            return None

    def mapping(self, path: str, value: object, known: tuple[str, ...]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.add(path or "body", NOT_AN_OBJECT if value is not None else REQUIRED)
            return {}
        for key in value:
            if key not in known:
                self.add(f"{path}.{key}" if path else str(key), UNKNOWN_FIELD)
        return value


def _decimal(value: object) -> Decimal | None:
    """A finite Decimal of a JSON number or a number written as text; None for anything else
    (True, NaN, infinity, '1e999999999' is finite but refused by its size later)."""
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, Decimal):
            found = value
        elif isinstance(value, int):
            # a 4000-digit integer is not worked on: it is too large, whatever its digits
            found = Decimal(value) if abs(value) <= MAGNITUDE_MAX else MAGNITUDE_MAX + 1
        elif isinstance(value, float):
            found = Decimal(repr(value))  # the shortest text that is this float: 0.1, not 0.1000000000000000055
        elif isinstance(value, str) and len(value.strip()) <= NUMBER_TEXT_MAX:
            found = Decimal(value.strip())
        else:
            return None
    except (InvalidOperation, ValueError):
        return None
    return found if found.is_finite() else None


# --- the application ---------------------------------------------------------------------------


def _phone(p: _Problems, path: str, value: str | None) -> str | None:
    phone = _clean(value)
    if phone is not None and (problem := contact_phone_problem(phone)):
        p.add(path, problem)
        return None
    return phone


def _email(p: _Problems, path: str, value: str | None) -> str | None:
    email = _clean(value)
    if email is not None and (problem := contact_email_problem(email)
                              or (EMAIL_FORMAT if has_refused_characters(email) else None)):
        p.add(path, problem)
        return None
    return email


def _invoice(p: _Problems, invoice: InvoiceDetails) -> InvoiceDetails:
    title = p.text("invoiceTitle", invoice.title, NAME_MAX) or ""
    tax_number = _clean(invoice.tax_number)
    if invoice.invoice_type is InvoiceType.ENTERPRISE and tax_number is None:
        p.add("taxNumber", REQUIRED)
    elif tax_number is not None and not _TAX_NUMBER.match(tax_number):
        p.add("taxNumber", TAX_NUMBER_FORMAT)
    return InvoiceDetails(invoice.invoice_type, title,
                          tax_number if invoice.invoice_type is InvoiceType.ENTERPRISE else None)


def _details(p: _Problems, d: Details, quick: bool) -> Details:
    """`quick`: a quick order, whose customer and return address the lab completes later."""
    contact = Contact(p.text("contactName", d.contact.name, CONTACT_NAME_MAX) or "",
                      _phone(p, "contactPhone", d.contact.phone), _email(p, "contactEmail", d.contact.email))
    if _clean(d.contact.phone) is None and _clean(d.contact.email) is None:
        p.add("contactPhone", CONTACT_WAY)
    return Details(
        customer_name=p.text("customerName", d.customer_name, NAME_MAX, required=not quick),
        contact=contact,
        return_address=p.text("returnAddress", d.return_address, ADDRESS_MAX, required=not quick),
        customer_address=p.text("customerAddress", d.customer_address, ADDRESS_MAX, required=False),
        invoice=None if d.invoice is None else _invoice(p, d.invoice),
        remark=p.text("remark", d.remark, REMARK_MAX, required=False),
    )


def _item(p: _Problems, path: str, item: ItemRequest) -> ItemRequest:
    note = p.text(f"{path}.pointsNote", item.points_note, STATEMENT_MAX, required=item.service is Service.EXTRA_POINTS)
    if item.service is Service.EXTRA_POINTS and note is None:
        p.add(f"{path}.pointsNote", POINTS_NOTE_NEEDED)
    typed = (item.device_type_id, _clean(item.model), _clean(item.serial_number))
    if item.in_console:
        guid = (item.guid or "").strip()
        if any(v is not None for v in typed):
            p.add(path, ONE_DEVICE_KIND)
        elif problem := guid_problem(guid):
            p.add(f"{path}.guid", problem)
        return ItemRequest(item.service, item.device_id, guid, points_note=note)
    if item.guid is not None:
        p.add(path, ONE_DEVICE_KIND)
    if item.device_type_id is None:
        p.add(f"{path}.deviceTypeId", REQUIRED)
    model = p.text(f"{path}.model", item.model, MODEL_MAX)
    serial = _clean(item.serial_number)
    if serial is None:
        p.add(f"{path}.serialNumber", REQUIRED)
    elif not _SERIAL.match(serial):
        p.add(f"{path}.serialNumber", SERIAL_FORMAT)
    return ItemRequest(item.service, device_type_id=item.device_type_id, model=model, serial_number=serial,
                       points_note=note)


def _items(p: _Problems, items: tuple[ItemRequest, ...]) -> tuple[ItemRequest, ...]:
    if not 1 <= len(items) <= ITEMS_MAX:
        p.add("devices", ITEMS_COUNT)
        return ()
    return tuple(_item(p, f"devices[{i}]", item) for i, item in enumerate(items))


def checked_form(details: Details, items: tuple[ItemRequest, ...], *, quick: bool = False
                 ) -> tuple[Details, tuple[ItemRequest, ...]]:
    """The application's details and devices trimmed, or InvalidInput naming each wrong field."""
    p = _Problems()
    clean, clean_items = _details(p, details, quick), _items(p, items)
    p.raise_any()
    return clean, clean_items


def checked_items(items: tuple[ItemRequest, ...]) -> tuple[ItemRequest, ...]:
    p = _Problems()
    clean = _items(p, items)
    p.raise_any()
    return clean


def checked_details(details: Details, *, quick: bool = False) -> Details:
    p = _Problems()
    clean = _details(p, details, quick)
    p.raise_any()
    return clean


def tracking_number(text: str) -> str:
    number = text.strip()
    if not _TRACKING.match(number):
        raise InvalidInput("trackingNumber", TRACKING_FORMAT)
    return number


def checked_number(text: str) -> str:
    """An application number as typed (any case), or InvalidInput."""
    number = text.strip().upper()
    if not NUMBER_PATTERN.match(number):
        raise InvalidInput("applicationNumber", N_("Enter the application number"))
    return number


def price_problem(price_cents: int, currency: str) -> str | None:
    """A price is charged as shown (core.shared.money): in whole units where the currency shows them."""
    if isinstance(price_cents, bool) or not isinstance(price_cents, int) or not 0 < price_cents <= PRICE_MAX_CENTS:
        return PRICE_RANGE
    return None if price_cents % shown_unit(currency) == 0 else PRICE_UNIT


def statement(text: str, field: str) -> str:
    """A short required statement (a correction's reason)."""
    p = _Problems()
    clean = p.text(field, text, STATEMENT_MAX)
    p.raise_any()
    assert clean is not None
    return clean


# --- the certificate ---------------------------------------------------------------------------

_POINT_FIELDS = ("reference", "reading", "uncertainty", "unit", "tolerance", "error")
_CONTENT_FIELDS = ("labName", "labAddress", "customerName", "customerAddress", "itemType", "itemModel", "itemSerial",
                   "conditionOnReceipt", "receivedOn", "calibratedOn", "method", "environment", "decisionRule",
                   "asFound", "asLeft", "authorisedBy", "remarks", "traceability")


def _point(p: _Problems, path: str, raw: object) -> Point | None:
    if not isinstance(raw, Mapping):
        p.add(path, NOT_AN_OBJECT)
        return None
    data = p.mapping(path, raw, _POINT_FIELDS)  # an `error` given is ignored: it is computed
    reference = p.number(f"{path}.reference", data.get("reference"))
    reading = p.number(f"{path}.reading", data.get("reading"))
    uncertainty = p.number(f"{path}.uncertainty", data.get("uncertainty"), positive=True)
    tolerance = p.number(f"{path}.tolerance", data.get("tolerance"), positive=True, required=False)
    unit = data.get("unit", "°C")
    if unit not in UNITS:
        p.add(f"{path}.unit", CHOICE)
    if reference is None or reading is None or uncertainty is None:
        return None
    return Point(reference, reading, uncertainty, str(unit), tolerance)


def _points(p: _Problems, path: str, raw: object, *, required: bool) -> tuple[Point, ...]:
    if raw is None and not required:
        return ()
    if not isinstance(raw, list | tuple):
        p.add(path, NOT_A_LIST if raw is not None else POINTS_COUNT)
        return ()
    if len(raw) > POINTS_MAX or (required and not raw):
        p.add(path, POINTS_COUNT if required else AS_LEFT_COUNT)
        return ()
    points = [_point(p, f"{path}[{i}]", item) for i, item in enumerate(raw)]
    return tuple(point for point in points if point is not None)


def _bounded(p: _Problems, path: str, value: Decimal | None, low: Decimal, high: Decimal, message: str) -> Decimal:
    if value is not None and not low <= value <= high:
        p.add(path, message)
    return value if value is not None else Decimal(0)


def content_from_json(raw: object, today: date | None = None) -> CertificateContent:
    """The certificate content of an importCert body (or of checked_content), or InvalidInput
    naming every wrong field (at most PROBLEMS_MAX). Unknown fields are refused, not dropped: a
    misspelt one would otherwise vanish from a certificate. Without `today` the dates are not held
    to a day (stored content was when recorded; a use case checks what the API parsed)."""
    p = _Problems()
    data = p.mapping("", raw, _CONTENT_FIELDS)
    if not data:
        p.raise_any()
    environment = p.mapping("environment", data.get("environment"), ("temperature", "humidity"))
    temperature = _bounded(p, "environment.temperature", p.number("environment.temperature",
                                                                    environment.get("temperature")),
                           *LAB_TEMPERATURE, LAB_TEMPERATURE_RANGE)
    humidity = _bounded(p, "environment.humidity", p.number("environment.humidity", environment.get("humidity")),
                        Decimal(0), Decimal(100), HUMIDITY_RANGE)
    signatory = p.mapping("authorisedBy", data.get("authorisedBy"), ("name", "role"))
    received_on = p.day("receivedOn", data.get("receivedOn"))
    calibrated_on = p.day("calibratedOn", data.get("calibratedOn"))
    if received_on and calibrated_on and received_on > calibrated_on:
        p.add("receivedOn", RECEIVED_AFTER_CALIBRATION)
    for path, day in (("receivedOn", received_on), ("calibratedOn", calibrated_on)):
        if day is not None and today is not None and day > today:
            p.add(path, IN_THE_FUTURE)
    content = CertificateContent(
        lab_name=p.text("labName", data.get("labName"), NAME_MAX) or "",
        customer_name=p.text("customerName", data.get("customerName"), NAME_MAX) or "",
        customer_address=p.text("customerAddress", data.get("customerAddress"), ADDRESS_MAX, required=False),
        item_type=p.text("itemType", data.get("itemType"), TYPE_MAX) or "",
        item_model=p.text("itemModel", data.get("itemModel"), MODEL_MAX) or "",
        item_serial=p.text("itemSerial", data.get("itemSerial"), SERIAL_MAX) or "",
        condition_on_receipt=p.text("conditionOnReceipt", data.get("conditionOnReceipt"), STATEMENT_MAX) or "",
        received_on=received_on or date.min,  # missing: a problem p raises below
        calibrated_on=calibrated_on or date.min,
        method=p.text("method", data.get("method"), STATEMENT_MAX) or "",
        environment=Environment(temperature, humidity),
        decision_rule=p.choice("decisionRule", data.get("decisionRule"), DecisionRule),
        as_found=_points(p, "asFound", data.get("asFound"), required=True),
        as_left=_points(p, "asLeft", data.get("asLeft"), required=False),
        authorised_by=Signatory(p.text("authorisedBy.name", signatory.get("name"), SIGNATORY_MAX) or "",
                                p.text("authorisedBy.role", signatory.get("role"), SIGNATORY_MAX) or ""),
        remarks=p.text("remarks", data.get("remarks"), REMARKS_MAX, required=False),
        lab_address=p.text("labAddress", data.get("labAddress"), ADDRESS_MAX, required=False),
        traceability=p.text("traceability", data.get("traceability"), STATEMENT_MAX, required=False),
    )
    p.raise_any()
    return content


def _point_json(point: Point) -> dict[str, object]:
    shown: dict[str, object] = {"reference": str(point.reference), "reading": str(point.reading),
                                "uncertainty": str(point.uncertainty), "unit": point.unit,
                                "error": str(point.error)}
    if point.tolerance is not None:
        shown["tolerance"] = str(point.tolerance)
    return shown


def content_json(c: CertificateContent) -> dict[str, object]:
    """The content as importCert reads it (numbers as text, so no digit is lost on the way), with
    each point's computed error beside it (ignored when read back)."""
    return {
        "labName": c.lab_name, "customerName": c.customer_name, "customerAddress": c.customer_address,
        "itemType": c.item_type, "itemModel": c.item_model, "itemSerial": c.item_serial,
        "conditionOnReceipt": c.condition_on_receipt, "receivedOn": c.received_on.isoformat(),
        "calibratedOn": c.calibrated_on.isoformat(), "method": c.method,
        "environment": {"temperature": str(c.environment.temperature), "humidity": str(c.environment.humidity)},
        "decisionRule": c.decision_rule.value,
        "asFound": [_point_json(point) for point in c.as_found],
        "asLeft": [_point_json(point) for point in c.as_left],
        "authorisedBy": {"name": c.authorised_by.name, "role": c.authorised_by.role},
        "remarks": c.remarks, "labAddress": c.lab_address, "traceability": c.traceability,
    }


def checked_content(content: CertificateContent, today: date) -> CertificateContent:
    """Content built by the API (ResultInfo insert/update) held to importCert's rules."""
    return content_from_json(content_json(content), today)

