"""The calibration service's calls (issue 21; spec 001 section 7, /calibration/...): the price list,
applications by customers with an account or without, the lab's lists, status changes and quick
orders, tracking numbers, details and invoice, and the certificates (results recorded, imported,
issued and corrected).

Who may do what is the core's (core.calibration.model.reach); this layer only says who is calling:
- an account with a session (Authorization: Bearer), the lab when its role holds LAB (the
  calibration admin role: the server reads it from the account, never from the page's path);
- a customer without an account, who names their application by its number and proves it with
  the X-Calibration-Token header (the access token `apply` gave once: act) or the
  X-Calibration-Contact header (the phone or e-mail given on it: read only). Both go in headers,
  never in the URL: a URL is kept in browser history, proxy and server logs and Referer headers,
  and the token acts on the application. Each such call counts against the client address's
  budget of public lookups (core.shared.lookups: 30 in 10 minutes, then 429).

Paying and cancel/apply (which refunds through the provider) are in payments.py; the documents
(download/order, getQR, upload/report, download/report and ResultInfo/download/certificate) in
documents.py, on this blueprint."""

from __future__ import annotations

from flask import g, request
from flask.views import MethodView

from core.calibration.certificates import Certificate
from core.calibration.model import (
    Application,
    Caller,
    Contact,
    Details,
    InvoiceDetails,
    InvoiceType,
    ItemRequest,
    PriceConf,
    Reach,
    Service,
    Status,
    reach,
)
from core.calibration.ports import ApplicationFilter
from core.calibration.rules import REQUIRED, content_from_json, content_json
from core.shared.errors import InvalidInput, NotFound
from entrypoints.api import context
from entrypoints.api.calibration import schemas as s
from entrypoints.api.framework import PUBLIC_MARK, ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request

blp = ApiBlueprint("calibration", __name__, description="The calibration service: applications, the lab's work and "
                                                        "certificates")

LAB = "calibration.admin.orders"  # held by the calibration admin role (and the system administrator)
CUSTOMER = "calibration.order"  # a customer account's own applications
TOKEN_HEADER, CONTACT_HEADER = "X-Calibration-Token", "X-Calibration-Contact"
HEADER_MAX = 200
NOT_YOURS = ("no such application, or one the caller may not see (another account's; a wrong token or contact; an "
             "id from a caller without an account): the same answer, so neither ids nor numbers can be probed")
THROTTLED = "a caller without an account: more than 30 public lookups from the client address in 10 minutes"
ANONYMOUS = (f"\n\nLogged in (Bearer) or not: a customer without an account names the application by applicationNumber "
             f"and sends its access token in the {TOKEN_HEADER} header (to act) or the contact phone or e-mail it was "
             f"made with in the {CONTACT_HEADER} header (to read only: acting that way is refused with code 2215). "
             "Headers, not the URL's query: a URL stays in browser history, server and proxy logs and Referer "
             "headers, and the token acts on the application.")


# --- who calls --------------------------------------------------------------------------------------


def optional_login(func):
    """A call for accounts and for customers without one: the token check runs only when a
    bearer token is sent (a bad one is still 401, never silently anonymous)."""
    # The proof headers are in the description (ANONYMOUS): a manual parameter list would replace the
    # query parameters flask-smorest publishes for a GET (its doc is merged last, lists replaced).
    func = blp.doc(security=[{}, {"bearerAuth": []}])(func)
    func = blp.alt_response(429, schema=ErrorEnvelope, description=THROTTLED)(func)
    setattr(func, PUBLIC_MARK, True)
    return func


def by_number(func):
    """optional_login for a call on an application a customer without an account names by its
    number, its description saying how they prove it."""
    func.__doc__ = (func.__doc__ or "") + ANONYMOUS
    return optional_login(func)


def _header(name: str) -> str | None:
    value = request.headers.get(name, "").strip()
    if len(value) > HEADER_MAX:
        raise InvalidInput(name, s.r.TOO_LONG, max=HEADER_MAX)
    return value or None


def caller() -> Caller:
    principal = g.get("principal")
    if principal is None and request.headers.get("Authorization"):
        scheme, _, bearer = request.headers["Authorization"].partition(" ")
        principal = context.container().authenticate()(bearer.strip() if scheme.lower() == "bearer" else None)
        g.principal = principal
    if principal is None:
        context.container().count_public_lookup()(request.remote_addr or "unknown")
    # An account opening the link of an application made without one still proves it with the token.
    token, contact = _header(TOKEN_HEADER), _header(CONTACT_HEADER)
    if principal is not None:
        return Caller(principal.account_id, LAB in principal.permissions, token, contact)
    return Caller(token=token, contact=contact)


def ref(body: dict) -> int | str:
    if body.get("applicationNumber"):
        return body["applicationNumber"]
    if body.get("applicationId"):
        return body["applicationId"]
    raise InvalidInput("applicationId", REQUIRED)


# --- rows -------------------------------------------------------------------------------------------


def details_row(d: Details) -> dict:
    invoice = d.invoice
    return {"customerName": d.customer_name, "contactName": d.contact.name, "contactPhone": d.contact.phone,
            "contactEmail": d.contact.email, "returnAddress": d.return_address,
            "customerAddress": d.customer_address, "remark": d.remark,
            "invoice": invoice_row(invoice) if invoice else None}


def invoice_row(invoice: InvoiceDetails) -> dict:
    return {"invoiceType": int(invoice.invoice_type), "invoiceTitle": invoice.title, "taxNumber": invoice.tax_number}


def row(a: Application, full: bool = True, anonymous: bool = False) -> dict:
    """`full`: with the customer's details (not for who reads by number and contact); `anonymous`:
    without the id, which such a caller cannot use (ids are sequential)."""
    return {
        "applicationId": None if anonymous else a.id,
        "applicationNumber": a.number, "status": int(a.status), "quickOrder": a.quick_order, "handled": a.handled,
        "currency": a.currency, "totalFee": a.total_cents, "paidFee": a.paid_cents, "refundFee": a.refund_cents,
        "refundState": int(a.refund_state), "inboundTracking": a.inbound_tracking,
        "outboundTracking": a.outbound_tracking, "createdAt": a.created_at, "updatedAt": a.updated_at,
        "paidAt": a.paid_at, "cancelledAt": a.cancelled_at,
        "devices": [{"index": x.index, "service": int(x.service), "deviceTypeId": x.device_type_id, "model": x.model,
                     "serial": x.serial, "price": x.price_cents, "deviceId": x.device_id, "pointsNote": x.points_note}
                    for x in a.lines],
        "details": details_row(a.details) if full else None,
    }


def shown(a: Application, who: Caller, body: dict) -> dict:
    return row(a, full=reach(a, who, by_number=bool(body.get("applicationNumber"))) is not Reach.READ,
               anonymous=who.anonymous)


def certificate_row(c: Certificate) -> dict:
    verdict = c.content.verdict
    return {"certificateId": c.id, "applicationId": c.application_id, "lineIndex": c.line_index,
            "version": c.version, "status": int(c.status), "number": c.number, "reference": c.reference,
            "issuedOn": c.issued_on, "supersededAt": c.superseded_at, "amendment": c.amendment,
            "verdict": verdict.value if verdict else None, "content": content_json(c.content)}


# --- from the body ----------------------------------------------------------------------------------


def details(body: dict, invoice: InvoiceDetails | None) -> Details:
    return Details(body.get("customerName"), Contact(body.get("contactName") or "", body.get("contactPhone"),
                                                     body.get("contactEmail")),
                   body.get("returnAddress"), body.get("customerAddress"), invoice, body.get("remark"))


def invoice(raw: dict | None) -> InvoiceDetails | None:
    if raw is None:
        return None
    return InvoiceDetails(InvoiceType(raw["invoiceType"]), raw["invoiceTitle"], raw.get("taxNumber"))


def items(body: dict) -> tuple[ItemRequest, ...]:
    return tuple(ItemRequest(Service(d["service"]), d.get("deviceId"), d.get("guid"), d.get("deviceTypeId"),
                             d.get("model"), d.get("serialNumber"), d.get("pointsNote")) for d in body["devices"])


def content(body: dict) -> dict:
    """The certificate fields of a body, as importCert reads them."""
    return {k: v for k, v in body.items() if k in s.ContentSchema._declared_fields}


# --- prices -----------------------------------------------------------------------------------------


def price_row(p: PriceConf) -> dict:
    return {"deviceTypeId": p.device_type_id, "service": int(p.service), "currency": p.currency,
            "price": p.price_cents}


@blp.route("/PriceConf/get/price")
class PriceView(MethodView):
    @blp.public
    @blp.ok(s.PriceListSchema, many=True)
    def get(self):
        """The edition's price list: cents per device for each device type and service, with the
        type's name (a customer without an account has no other way to read it)."""
        names = {t.id: t.name for t in context.container().list_device_types()()}
        return [{**price_row(p), "typeName": names.get(p.device_type_id)}
                for p in context.container().list_calibration_prices()()]


@blp.route("/PriceConf/update/price")
class PriceUpdateView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.PriceSchema)
    @blp.ok(s.PriceSchema)
    def put(self, body):
        """Sets (or adds) the price of a service for a device type, in the edition's currency;
        applications made already keep their prices."""
        edition = context.container().settings().edition.profile
        price = PriceConf(body["deviceTypeId"], Service(body["service"]), edition.currency, body["price"])
        return price_row(context.container().set_calibration_price()(caller(), price))


# --- applications -----------------------------------------------------------------------------------


def applied(result, who: Caller) -> dict:
    return {**row(result.application, anonymous=who.anonymous), "accessToken": result.access_token}


@blp.route("/Application/apply")
class ApplyView(MethodView):
    @optional_login
    @blp.arguments(s.ApplySchema)
    @blp.ok(s.AppliedSchema, refusals=s.APPLY_REFUSALS)
    def post(self, body):
        """A customer's application, logged in (devices of theirs by deviceId and guid, or typed) or not
        (typed devices only; the answer's accessToken is shown this once). The server prices it."""
        who = caller()
        result = context.container().apply_calibration()(who, details(body, invoice(body.get("invoice"))),
                                                         items(body), body.get("totalFee"))
        return applied(result, who)


@blp.route("/Application/applyQuickOrder")
class QuickOrderView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.QuickOrderSchema)
    @blp.ok(s.AppliedSchema, refusals=(s.APPLY_REFUSALS[0],))
    def post(self, body):
        """The lab takes an order on the phone or at the counter; customer and return address may wait."""
        who = caller()
        result = context.container().place_calibration_quick_order()(
            who, details(body, invoice(body.get("invoice"))), items(body), body.get("accountId"))
        return applied(result, who)


def _where(body: dict, quick: bool | None = None) -> ApplicationFilter:
    return ApplicationFilter(body.get("applicationNumber"), Status(body["status"]) if "status" in body else None,
                             quick)


@blp.route("/Application/page/ApplicationOrder")
class OwnListView(MethodView):
    @blp.requires(CUSTOMER)
    @blp.arguments(s.ListQuery)
    @blp.ok(page_of(s.ApplicationSchema))
    def post(self, body):
        """The caller's own applications, newest first."""
        found = context.container().list_calibrations()(caller(), _where(body), page_request(body))
        return page_body(found, row)


@blp.route("/Application/page/allApplicationOrder")
class AllListView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.ListQuery)
    @blp.ok(page_of(s.ApplicationSchema))
    def post(self, body):
        """Everyone's applications, newest first (the lab)."""
        found = context.container().list_calibrations()(caller(), _where(body), page_request(body), everyone=True)
        return page_body(found, row)


@blp.route("/Application/page/allQuickOrder")
class QuickListView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.ListQuery)
    @blp.ok(page_of(s.ApplicationSchema))
    def post(self, body):
        """The quick orders, newest first (the lab)."""
        found = context.container().list_calibrations()(caller(), _where(body, True), page_request(body),
                                                        everyone=True)
        return page_body(found, row)


@blp.route("/Application/handleQuickOrder")
class HandleQuickView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.HandleQuickSchema)
    @blp.ok(s.ApplicationSchema, refusals=s.QUICK_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """The lab completes a quick order's details (then checked in full); its invoice stays."""
        return row(context.container().handle_calibration_quick_order()(caller(), body["applicationId"],
                                                                       details(body, None)))


@blp.route("/Application/get/applicationInfo")
class InfoView(MethodView):
    @by_number
    @blp.arguments(s.RefQuery, location="query")
    @blp.ok(s.ApplicationSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def get(self, query):
        """An application: by id for its account and the lab; by number for anyone who proves it. """
        who = caller()
        return shown(context.container().read_calibration()(who, ref(query)), who, query)


@blp.route("/Application/applicationStatus")
class StatusView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.StatusSchema)
    @blp.ok(s.ApplicationSchema, refusals=s.STATUS_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """The lab moves an application up its ladder."""
        return row(context.container().change_calibration_status()(caller(), body["applicationId"],
                                                                   Status(body["status"])))


@blp.route("/Application/trackingNumber")
class TrackingView(MethodView):
    @by_number
    @blp.arguments(s.TrackingSchema)
    @blp.ok(s.ApplicationSchema, refusals=s.TRACKING_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """A tracking number: inbound by the customer or the lab, outbound by the lab."""
        who = caller()
        return row(context.container().set_calibration_tracking()(who, ref(body), body["trackingNumber"],
                                                                  body["outbound"]), anonymous=who.anonymous)


@blp.route("/Application/update/baseInfo")
class BaseInfoView(MethodView):
    @by_number
    @blp.arguments(s.CalibrationBaseInfoSchema)
    @blp.ok(s.ApplicationSchema, refusals=s.CHANGE_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """The application's base info: the customer's until the lab holds the devices, the lab's until
        it is complete; the invoice stays."""
        who = caller()
        return row(context.container().update_calibration_details()(who, ref(body), details(body, None)),
                   anonymous=who.anonymous)


@blp.route("/Application/update/invoice")
class InvoiceView(MethodView):
    @by_number
    @blp.arguments(s.InvoiceUpdateSchema)
    @blp.ok(s.ApplicationSchema, refusals=s.CHANGE_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """The invoice wanted on the application (null: none), when its details may change."""
        who = caller()
        return row(context.container().update_calibration_details().invoice(who, ref(body), invoice(body["invoice"])),
                   anonymous=who.anonymous)


@blp.route("/Application/getUserInvoice")
class GetInvoiceView(MethodView):
    @by_number
    @blp.arguments(s.RefQuery, location="query")
    @blp.ok(s.InvoiceAnswerSchema, nullable=True)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def get(self, query):
        """The invoice wanted on the application, or null; for its customer and the lab."""
        who = caller()
        found = context.container().read_calibration()(who, ref(query))
        if reach(found, who, by_number=bool(query.get("applicationNumber"))) is Reach.READ:
            raise NotFound()  # the invoice's title and tax number are the customer's
        return invoice_row(found.details.invoice) if found.details.invoice else None


@blp.route("/Application/cancel/check")
class CancelCheckView(MethodView):
    @by_number
    @blp.arguments(s.RefSchema)
    @blp.ok(s.CancelCheckSchema, refusals=(s.TokenRequired,), status=403)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """Whether the caller may cancel now, and what a cancellation would pay back."""
        check = context.container().check_calibration_cancel()(caller(), ref(body))
        return {"possible": check.possible, "reason": check.reason, "refundFee": check.refund_due_cents}


# --- certificates -----------------------------------------------------------------------------------


@blp.route("/ResultInfo/queryResultList")
class ResultListView(MethodView):
    @by_number
    @blp.arguments(s.RefSchema)
    @blp.ok(s.CertificateSchema, many=True)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """Every version of the application's certificates: issued and superseded (marked so) for its
        customer, drafts as well for the lab."""
        who = caller()
        found = context.container().read_calibration_certificates()(who, ref(body))
        return [{**certificate_row(c), "applicationId": None if who.anonymous else c.application_id} for c in found]


def _record(body: dict, raw: dict) -> dict:
    return certificate_row(context.container().import_calibration_certificate()(
        caller(), body["applicationId"], body["lineIndex"], raw))


@blp.route("/ResultInfo/insert")
class ResultInsertView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.ResultSchema)
    @blp.ok(s.CertificateSchema, refusals=s.RESULT_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """A device's results as a certificate draft (while the devices are at the lab)."""
        return _record(body, content(body))


@blp.route("/ResultInfo/update")
class ResultUpdateView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.ResultSchema)
    @blp.ok(s.CertificateSchema, refusals=s.RESULT_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def put(self, body):
        """A device's draft changed; an issued certificate is corrected by ResultInfo/correct."""
        return _record(body, content(body))


@blp.route("/ResultInfo/importCert")
class ImportView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.ImportSchema)
    @blp.ok(s.CertificateSchema, refusals=s.RESULT_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """A device's results from JSON (the content of ResultInfo/insert), held to the same rules."""
        return _record(body, body["certificate"])


@blp.route("/Application/result/explain")
class ExplainView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.ExplainSchema)
    @blp.ok(s.CertificateSchema, refusals=s.RESULT_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """The lab's explanation of a device's results, kept as its certificate draft's remarks
        (printed on the certificate); a device with no draft yet is 404."""
        return certificate_row(context.container().explain_calibration_result()(
            caller(), body["applicationId"], body["lineIndex"], body["explain"]))


@blp.route("/ResultInfo/issue")
class IssueView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.CertificateRef)
    @blp.ok(s.CertificateSchema, refusals=s.RESULT_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """A draft issued under the year's next number: immutable from now on (ISO/IEC 17025 7.8.8);
        a console device's calibration and due dates follow it."""
        return certificate_row(context.container().issue_calibration_certificate()(caller(), body["certificateId"]))


@blp.route("/ResultInfo/correct")
class CorrectView(MethodView):
    @blp.requires(LAB)
    @blp.arguments(s.CorrectSchema)
    @blp.ok(s.CertificateSchema, refusals=s.CORRECT_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, body):
        """A correction of the current issued version: version n + 1 issued at once under the same
        number with the reason; version n is marked superseded and stays readable."""
        corrected = content_from_json(content(body))
        return certificate_row(context.container().correct_calibration_certificate()(
            caller(), body["certificateId"], corrected, body["reason"]))
