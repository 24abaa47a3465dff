"""The calibration documents' calls (issue 21; spec 001 sections 7 and 8), on the calibration
blueprint: the order as PDF and its QR code (download/order, getQR), the lab's report (upload/report,
download/report) and a device's certificate as PDF (ResultInfo/download/certificate).

Each answers a file (Content-Disposition names it: .pdf, or .png for the QR) or an error envelope.
Who may read is the core's (core.calibration.documents): whoever may read the application, an
account, the lab or a customer without an account by applicationNumber with the X-Calibration-Token
or X-Calibration-Contact header (views.by_number); anybody else gets 404, as for an unknown one."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest.fields import Upload
from marshmallow import fields, validate

from core.calibration import errors as ce
from core.calibration.documents import PDF, PNG, REPORT_MAX_BYTES, Download
from core.shared.errors import InvalidInput
from entrypoints.api import context
from entrypoints.api.calibration import schemas as s
from entrypoints.api.calibration.views import LAB, NOT_YOURS, blp, by_number, caller, ref
from entrypoints.api.framework import ErrorEnvelope, LocalDateTime, Schema, file_download

# The upload's body: the PDF and the multipart's own few hundred bytes; more is 413 before it is read.
REPORT_UPLOAD_BYTES = REPORT_MAX_BYTES + 64 * 1024
BINARY = {"type": "string", "format": "binary"}
QR_TEXT = ("the QR code holds the URL of the lab's page of the application by its number, "
           "{PUBLIC_BASE_URL}/admin/order/detail/{applicationNumber}: the lab scans the paper that comes with the "
           "devices to open the application at receipt (the number, never the id: the paper is in the customer's "
           "hands too)")


class CertificateQuery(s.RefQuery):
    certificateId = fields.Integer(validate=validate.Range(1, s.MAX_ID), metadata={
        "description": "a version of the application's certificates (queryResultList), a superseded one too"})
    lineIndex = fields.Integer(validate=validate.Range(1, s.r.ITEMS_MAX), metadata={
        "description": "else the device's place on the application: its current issued version (the lab: its "
                       "newest, a draft too)"})


class ReportForm(s.RefSchema):
    pass


class ReportFiles(Schema):
    file = Upload(required=True, metadata={
        "maxLength": REPORT_MAX_BYTES,
        "description": f"the report as a PDF (named .pdf, its content starting with %PDF-) of at most "
                       f"{REPORT_MAX_BYTES >> 20} MB: anything else is 422 on `file`, a body over the upload's limit "
                       "413"})


class ReportSchema(Schema):
    fileName = fields.String()
    size = fields.Integer(metadata={"description": "bytes"})
    sha256 = fields.String()
    uploadedAt = LocalDateTime()


def _sent(download: Download):
    return file_download(download.content, download.media_type, download.name)


def _file(media_type: str, description: str):
    return blp.alt_response(200, success=True, content_type=media_type, schema=BINARY, description=description)


@blp.route("/Application/download/order")
class OrderPdfView(MethodView):
    @by_number
    @blp.arguments(s.RefQuery, location="query")
    @_file(PDF, "the order, named {applicationNumber}.pdf, in the request's language")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def get(self, query):
        """The application's order as PDF: its number, status, customer, contact and return address
        (not for a customer who reads by number and contact), devices and services with their prices,
        the total, and its QR code (getQR says what it holds)."""
        found = context.container().calibration_order_pdf()(caller(), ref(query), context.language.get(),
                                                             str(context.time_zone.get()))
        return _sent(found)


@blp.route("/Application/getQR")
class OrderQrView(MethodView):
    @by_number
    @blp.arguments(s.RefQuery, location="query")
    @_file(PNG, f"the order's QR code, a PNG named {{applicationNumber}}.png: {QR_TEXT}")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def get(self, query):
        """The order's QR code alone, as PNG (the one the order's PDF prints)."""
        return _sent(context.container().calibration_order_qr()(caller(), ref(query)))


@blp.route("/Application/upload/report")
class ReportUploadView(MethodView):
    @blp.accepts_body(REPORT_UPLOAD_BYTES)
    @blp.requires(LAB)
    @blp.arguments(ReportFiles, location="files")
    @blp.arguments(ReportForm, location="form")
    @blp.ok(ReportSchema, refusals=(ce.ReportNotNow,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def post(self, files, form):
        """The lab's report of an application (multipart: `file`, and `applicationId` or
        `applicationNumber`), replacing the one before: a PDF, by its name and its content, of at most
        10 MB (422 on `file` otherwise, in the request's language; a body over the upload's limit is
        413). Once the lab holds the devices, and after it has sent them back; never before nor on a
        cancelled application (2227)."""
        upload = files["file"]
        content = upload.stream.read(REPORT_MAX_BYTES + 1)
        stored = context.container().upload_calibration_report()(caller(), ref(form), content, upload.filename)
        return {"fileName": stored.name, "size": stored.size, "sha256": stored.sha256,
                "uploadedAt": stored.uploaded_at}


@blp.route("/Application/download/report")
class ReportDownloadView(MethodView):
    @by_number
    @blp.arguments(s.RefQuery, location="query")
    @_file(PDF, "the lab's report as uploaded, byte for byte, under its uploaded name (ending in .pdf)")
    @blp.alt_response(409, schema=ErrorEnvelope, description=f"code {ce.ReportNotGenerated.code}: "
                                                             f"{ce.ReportNotGenerated.message}")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_YOURS)
    def get(self, query):
        """The lab's report of the application, for whoever may read the application."""
        return _sent(context.container().calibration_report()(caller(), ref(query)))


@blp.route("/ResultInfo/download/certificate")
class CertificatePdfView(MethodView):
    @by_number
    @blp.arguments(CertificateQuery, location="query")
    @_file(PDF, "the certificate, named {reference}.pdf (CAL-2026-000042.pdf, -V2 for a correction), in the "
                "edition's language whoever asks: one record of the lab. The same version gives the same bytes on "
                "every download; a superseded one is marked SUPERSEDED with the reference that replaced it")
    @blp.alt_response(409, schema=ErrorEnvelope, description=f"code {ce.NoCertificate.code}: "
                                                             f"{ce.NoCertificate.message}")
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_YOURS}; a certificateId of another "
                                                             "application, or a lineIndex it does not have")
    def get(self, query):
        """A device's certificate as PDF (ISO/IEC 17025 7.8): by certificateId, any issued or
        superseded version; by lineIndex, the device's current one. Its number and "page x of y" on
        every page. A customer reads issued and superseded versions; the lab its drafts too, marked
        DRAFT."""
        if query.get("certificateId") is None and query.get("lineIndex") is None:
            raise InvalidInput("lineIndex", s.r.REQUIRED)
        found = context.container().calibration_certificate_pdf()(caller(), ref(query), query.get("certificateId"),
                                                                   query.get("lineIndex"))
        return _sent(found)
