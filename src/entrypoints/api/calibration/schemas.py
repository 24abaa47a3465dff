"""Request and response schemas of the calibration calls. The schemas bound every value (lengths,
ranges, list sizes) so a hostile one is refused early with 422; the core's rules
(core.calibration.rules) then decide each field's format and say which one is wrong."""

from __future__ import annotations

from decimal import Decimal

from marshmallow import ValidationError, fields, validate

from core.calibration import rules as r
from core.calibration.certificates import CertificateStatus, DecisionRule
from core.calibration.due_dates import INTERVAL_MONTHS_RANGE
from core.calibration.errors import (
    AlreadyCancelled,
    AlreadyReceived,
    AlreadyReturned,
    CertificateIssued,
    CertificateNotIssued,
    CertificatesMissing,
    DetailsLocked,
    NotQuickOrder,
    OfflinePaymentRefused,
    ResultsNotNow,
    ServiceNotPriced,
    StatusChangeRefused,
    TokenRequired,
    TrackingNotNow,
)
from core.calibration.model import InvoiceType, Service, Status
from core.devices.rules import GUID_MAX
from core.shared.errors import PriceChanged
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, Range, OneOf = validate.Length, validate.Range, validate.OneOf
MAX_ID = 2**31 - 1
SERVICES = [int(s) for s in Service]
STATUSES = [int(s) for s in Status]
SERVICE_TEXT = "1 standard points, 2 extra points (say which in pointsNote), 3 express"
STATUS_TEXT = ("1 submitted (unpaid), 2 paid, 3 awaiting devices, 4 received, 5 in calibration, 6 certificates "
               "issued and devices returned; above 6 cancelled: 7 by the customer, 8 by the lab")
APPLY_REFUSALS = (ServiceNotPriced, PriceChanged)
CHANGE_REFUSALS = (DetailsLocked, TokenRequired)
STATUS_REFUSALS = (StatusChangeRefused, AlreadyCancelled, CertificatesMissing, OfflinePaymentRefused)
RESULT_REFUSALS = (ResultsNotNow, CertificateIssued)
CORRECT_REFUSALS = (CertificateNotIssued, AlreadyCancelled)
CANCEL_REASONS = (AlreadyCancelled, AlreadyReceived, AlreadyReturned)
QUICK_REFUSALS = (NotQuickOrder, AlreadyCancelled)
TRACKING_REFUSALS = (TrackingNotNow, StatusChangeRefused, TokenRequired)


def _text(limit: int, description: str, *, required: bool = False) -> fields.String:
    # The core trims and checks (core.calibration.rules); this bound only stops a huge value early.
    return fields.String(required=required, allow_none=not required, validate=Length(max=limit * 2),
                         metadata={"description": f"{description}: up to {limit} characters once trimmed"})


def _id(description: str, *, required: bool = False) -> fields.Integer:
    return fields.Integer(required=required, validate=Range(1, MAX_ID), metadata={"description": description})


APPLICATION_NUMBER = fields.String(validate=Length(max=40), metadata={
    "description": "the application's number (CAL, the date, 8 characters; any case): how a customer without an "
                   "account names theirs, with the X-Calibration-Token or X-Calibration-Contact header"})


class DetailsSchema(Schema):
    """The base info of an application (update/baseInfo takes it too)."""

    customerName = _text(r.NAME_MAX, "the company or person the certificates are for (required but on a quick "
                                     "order)")
    contactName = _text(r.CONTACT_NAME_MAX, "whom the lab calls", required=True)
    contactPhone = _text(r.PHONE_MAX, "the contact's phone (digits, + - and spaces); a phone or an e-mail is needed")
    contactEmail = _text(r.EMAIL_MAX, "the contact's e-mail")
    returnAddress = _text(r.ADDRESS_MAX, "where the devices go back (required but on a quick order)")
    customerAddress = _text(r.ADDRESS_MAX, "the customer's address printed on the certificates")
    remark = _text(r.REMARK_MAX, "a note for the lab")


class InvoiceSchema(Schema):
    invoiceType = fields.Integer(required=True, validate=OneOf([int(t) for t in InvoiceType]),
                                 metadata={"description": "1 personal, 2 enterprise"})
    invoiceTitle = _text(r.NAME_MAX, "the name on the invoice", required=True)
    taxNumber = _text(20, "an enterprise invoice's tax number (letters and digits)")


class CalibrationItemSchema(Schema):
    service = fields.Integer(required=True, validate=OneOf(SERVICES), metadata={"description": SERVICE_TEXT})
    deviceId = _id("one of the caller's console devices (with its guid); or type deviceTypeId, model and "
                   "serialNumber for a device the console does not know")
    guid = fields.String(allow_none=True, validate=Length(max=GUID_MAX), metadata={
        "description": "the console device's GUID"})
    deviceTypeId = _id("a typed device's type (the public catalogue)")
    model = _text(r.MODEL_MAX, "a typed device's model")
    serialNumber = _text(r.SERIAL_MAX, "a typed device's serial number (letters, digits and - _ . /)")
    pointsNote = _text(r.STATEMENT_MAX, "which extra points (service 2)")


class ApplySchema(DetailsSchema):
    devices = fields.List(fields.Nested(CalibrationItemSchema), required=True, validate=Length(1, r.ITEMS_MAX),
                          metadata={"description": f"1 to {r.ITEMS_MAX} devices"})
    invoice = fields.Nested(InvoiceSchema, allow_none=True, metadata={"description": "null: no invoice"})
    totalFee = fields.Integer(validate=Range(0, r.PRICE_MAX_CENTS * r.ITEMS_MAX), metadata={
        "description": "the total in cents the customer was shown; refused (409) when the server's differs"})


class QuickOrderSchema(ApplySchema):
    accountId = _id("the console account the order is for; none: a customer without an account")


class RefSchema(Schema):
    """Names an application: by id (a logged-in account, the lab) or by number (anyone; a customer
    without an account with the X-Calibration-Token or X-Calibration-Contact header)."""

    applicationId = _id("the application's id (accounts and the lab)")
    applicationNumber = APPLICATION_NUMBER


class RefQuery(RefSchema):
    pass


class CalibrationBaseInfoSchema(RefSchema, DetailsSchema):
    pass


class InvoiceUpdateSchema(RefSchema):
    invoice = fields.Nested(InvoiceSchema, required=True, allow_none=True,
                            metadata={"description": "the invoice wanted; null: none"})


class HandleQuickSchema(DetailsSchema):
    applicationId = _id("the quick order", required=True)


class TrackingSchema(RefSchema):
    trackingNumber = fields.String(required=True, validate=Length(max=80), metadata={
        "description": "4 to 40 letters, digits and dashes"})
    outbound = fields.Boolean(load_default=False, metadata={
        "description": "false: customer -> lab (the customer or the lab, once paid and until received; it moves a "
                       "paid application to awaiting devices); true: lab -> customer (the lab, once calibrating)"})


class StatusSchema(Schema):
    applicationId = _id("the application", required=True)
    status = fields.Integer(required=True, validate=OneOf(STATUSES), metadata={
        "description": f"{STATUS_TEXT}. The lab moves up the ladder one step; 2 only for its quick orders (paid at "
                       "the counter); 6 once every device has an issued certificate. Cancelling is cancel/apply's"})


class ListQuery(PageQuery):
    applicationNumber = fields.String(validate=Length(max=40), metadata={"description": "a part of the number"})
    status = fields.Integer(validate=OneOf(STATUSES), metadata={"description": STATUS_TEXT})


class PriceSchema(Schema):
    deviceTypeId = fields.Integer(required=True, validate=Range(1, MAX_ID))
    service = fields.Integer(required=True, validate=OneOf(SERVICES), metadata={"description": SERVICE_TEXT})
    currency = fields.String(dump_only=True, required=True, validate=Length(max=3),
                             metadata={"description": "the edition's (ISO 4217)"})
    price = fields.Integer(required=True, validate=Range(1, r.PRICE_MAX_CENTS), metadata={
        "description": "cents per device, a whole number of units where the currency shows them"})


class PriceListSchema(PriceSchema):
    typeName = fields.String(dump_only=True, required=True, allow_none=True, metadata={
        "description": "the device type's published name (null: the type is not published)"})


class LineSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "the device's place on the application (1-based)"})
    service = fields.Integer(required=True)
    deviceTypeId = fields.Integer(required=True)
    model = fields.String(required=True)
    serial = fields.String(required=True, metadata={"description": "the serial number, or the console device's GUID"})
    price = fields.Integer(required=True, metadata={"description": "cents, frozen when applied"})
    deviceId = fields.Integer(required=True, allow_none=True)
    pointsNote = fields.String(required=True, allow_none=True)


class ApplicationSchema(Schema):
    applicationId = fields.Integer(required=True, allow_none=True, metadata={
        "description": "null for a customer without an account (they name it by its number)"})
    applicationNumber = fields.String(required=True)
    status = fields.Integer(required=True, metadata={"description": STATUS_TEXT})
    quickOrder = fields.Boolean(required=True)
    handled = fields.Boolean(required=True, metadata={"description": "a quick order's details completed by the lab"})
    currency = fields.String(required=True)
    totalFee = fields.Integer(required=True)
    paidFee = fields.Integer(required=True)
    refundFee = fields.Integer(required=True)
    refundState = fields.Integer(required=True, metadata={"description": "0 none, 1 pending, 2 succeeded, 3 failed"})
    inboundTracking = fields.String(required=True, allow_none=True)
    outboundTracking = fields.String(required=True, allow_none=True)
    createdAt = LocalDateTime(required=True)
    updatedAt = LocalDateTime(required=True)
    paidAt = LocalDateTime(required=True, allow_none=True)
    cancelledAt = LocalDateTime(required=True, allow_none=True)
    devices = fields.List(fields.Nested(LineSchema), required=True)
    details = fields.Dict(required=True, allow_none=True, metadata={
        "description": "customerName, contactName, contactPhone, contactEmail, returnAddress, customerAddress, "
                       "remark and invoice; null for who reads by number and contact (they see the status, the "
                       "tracking numbers and the certificates, not the customer's addresses)"})


class AppliedSchema(ApplicationSchema):
    accessToken = fields.String(required=True, allow_none=True, metadata={
        "description": "a customer without an account's: shown this once, never again (only its digest is kept). "
                       "Send it in the X-Calibration-Token header with the number to act on the application"})


class InvoiceAnswerSchema(Schema):
    invoiceType = fields.Integer(required=True)
    invoiceTitle = fields.String(required=True)
    taxNumber = fields.String(required=True, allow_none=True)


class CancelCheckSchema(Schema):
    possible = fields.Boolean(required=True)
    reason = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the refusal's code when not possible: " + "; ".join(
            f"{e.code} {e.message}" for e in CANCEL_REASONS)})
    refundFee = fields.Integer(required=True, metadata={"description": "cents a cancellation now would pay back"})


# --- certificates ---------------------------------------------------------------------------------

def _within(value: Decimal) -> None:
    if not -r.MAGNITUDE_MAX <= value <= r.MAGNITUDE_MAX:
        raise ValidationError(r.NUMBER_RANGE)


def _figure(description: str, *, required: bool = True) -> fields.Decimal:
    """A measured value, a JSON number or a number as text (kept exact: 0.1 stays 0.1)."""
    # Bounds in metadata, not a Range: apispec writes a Decimal field's Range bounds as text.
    bound = int(r.MAGNITUDE_MAX)
    return fields.Decimal(required=required, allow_none=not required, allow_nan=False, validate=_within,
                          metadata={"description": f"{description}; at most {r.DECIMALS_MAX} decimals",
                                    "minimum": -bound, "maximum": bound})


class CalibrationPointSchema(Schema):
    reference = _figure("the reference standard's value")
    reading = _figure("the device's reading")
    uncertainty = _figure("expanded, k = 2, above 0")
    unit = fields.String(load_default="°C", validate=OneOf(r.UNITS))
    tolerance = _figure("the maximum permissible error ± (none: no conformity stated)", required=False)
    error = _figure("ignored: computed", required=False)


class EnvironmentSchema(Schema):
    temperature = _figure("°C, -10 to 60")
    humidity = _figure("%RH, 0 to 100")


class SignatorySchema(Schema):
    name = _text(r.SIGNATORY_MAX, "who authorised the certificate", required=True)
    role = _text(r.SIGNATORY_MAX, "their function", required=True)


POINTS_TEXT = f"at most {r.POINTS_MAX} points"


class ContentSchema(Schema):
    """What a certificate states (ISO/IEC 17025 7.8.2, 7.8.4)."""

    labName = _text(r.NAME_MAX, "the laboratory", required=True)
    labAddress = _text(r.ADDRESS_MAX, "the laboratory's address (7.8.2.1 b)")
    traceability = _text(r.STATEMENT_MAX, "how the results are metrologically traceable: the reference standards and "
                                          "whose calibration they carry (7.8.4.1 c)")
    customerName = _text(r.NAME_MAX, "the customer", required=True)
    customerAddress = _text(r.ADDRESS_MAX, "the customer's address")
    itemType = _text(r.TYPE_MAX, "the item's type", required=True)
    itemModel = _text(r.MODEL_MAX, "the item's model", required=True)
    itemSerial = _text(r.SERIAL_MAX, "the serial number or GUID", required=True)
    conditionOnReceipt = _text(r.STATEMENT_MAX, "the condition on receipt", required=True)
    receivedOn = fields.Date(required=True, metadata={"description": "YYYY-MM-DD, not after calibratedOn",
                                                      "maxLength": 10})
    calibratedOn = fields.Date(required=True, metadata={"description": "YYYY-MM-DD, not in the future",
                                                        "maxLength": 10})
    method = _text(r.STATEMENT_MAX, "the procedure's reference", required=True)
    environment = fields.Nested(EnvironmentSchema, required=True)
    decisionRule = fields.String(required=True, validate=OneOf([d.value for d in DecisionRule]),
                                 metadata={"description": "simple or guarded (ILAC-G8)"})
    asFound = fields.List(fields.Nested(CalibrationPointSchema), required=True, validate=Length(1, r.POINTS_MAX),
                          metadata={"description": f"the results as received: 1 to {r.POINTS_MAX} points"})
    asLeft = fields.List(fields.Nested(CalibrationPointSchema), load_default=list, validate=Length(max=r.POINTS_MAX),
                         metadata={"description": f"after an adjustment ({POINTS_TEXT}); empty: not adjusted"})
    authorisedBy = fields.Nested(SignatorySchema, required=True)
    remarks = _text(r.REMARKS_MAX, "remarks")


class ResultSchema(ContentSchema):
    applicationId = _id("the application", required=True)
    lineIndex = fields.Integer(required=True, validate=Range(1, r.ITEMS_MAX), metadata={
        "description": "the device's place on the application"})


class ImportSchema(Schema):
    applicationId = _id("the application", required=True)
    lineIndex = fields.Integer(required=True, validate=Range(1, r.ITEMS_MAX))
    certificate = fields.Dict(required=True, metadata={
        "description": "the certificate's content as ResultInfo/insert takes it (numbers may be text); unknown "
                       "fields are refused"})


class ExplainSchema(Schema):
    applicationId = _id("the application", required=True)
    lineIndex = fields.Integer(required=True, validate=Range(1, r.ITEMS_MAX))
    explain = _text(r.REMARKS_MAX, "the lab's explanation of the device's results, printed as the remarks of its "
                                   "certificate draft", required=True)


class CertificateRef(Schema):
    certificateId = _id("a certificate version", required=True)


class CorrectSchema(ContentSchema):
    certificateId = _id("the current issued version", required=True)
    reason = _text(r.STATEMENT_MAX, "why the correction replaces it (printed on the new version)", required=True)


class CertificateSchema(Schema):
    certificateId = fields.Integer(required=True)
    applicationId = fields.Integer(required=True, allow_none=True)
    lineIndex = fields.Integer(required=True)
    version = fields.Integer(required=True)
    status = fields.Integer(required=True, metadata={"description": ", ".join(
        f"{int(s)} {s.name.lower()}" for s in CertificateStatus)})
    number = fields.String(required=True, allow_none=True, metadata={
        "description": "given when the first version is issued"})
    reference = fields.String(required=True, allow_none=True, metadata={
        "description": "the number, with -V<n> after the first"})
    issuedOn = fields.Date(required=True, allow_none=True)
    supersededAt = LocalDateTime(required=True, allow_none=True)
    amendment = fields.String(required=True, allow_none=True)
    verdict = fields.String(required=True, allow_none=True, metadata={
        "description": "pass, fail or conditional; null: none stated"})
    content = fields.Dict(required=True)


# --- a console device's calibration (its detail) --------------------------------------------------


class IntervalSchema(Schema):
    deviceId = _id("a device the caller may change", required=True)
    intervalMonths = fields.Integer(
        strict=True, required=True, allow_none=True, validate=Range(*INTERVAL_MONTHS_RANGE),
        metadata={"description": "the device's own calibration interval in months; null: its type's again"})


class DeviceCalibrationSchema(Schema):
    deviceId = fields.Integer(required=True)
    calibratedOn = fields.Date(required=True, allow_none=True,
                               metadata={"description": "the date of its newest calibration"})
    dueOn = fields.Date(required=True, allow_none=True, metadata={
        "description": "the next calibration falls due on it; null while never calibrated through the console"})
    certificate = fields.String(required=True, allow_none=True,
                                metadata={"description": "the certificate that set the dates"})
    intervalMonths = fields.Integer(required=True, metadata={
        "description": "the interval in force: the device's own, else its type's, else 12"})
    ownIntervalMonths = fields.Integer(required=True, allow_none=True,
                                       metadata={"description": "the device's own, if set"})
    changeable = fields.Boolean(required=True, metadata={"description": "whether the caller may change the interval"})
