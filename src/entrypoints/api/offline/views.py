"""Offline purchases and their review (issue 19; spec seed 001 section 7 PayOfflineDeviceService and
PayOfflineExamine; pages /operation/offlinebuy and /operation/offlineExamine). One operator records
what a customer bought by contract or bank transfer for a list of devices (typed, or an uploaded
sheet of GUIDs, checked row by row); another approves it, and the devices are recharged at once."""

from __future__ import annotations

from datetime import datetime

from flask import stream_with_context
from flask.views import MethodView

from adapters.spreadsheets.offline_sheet import offline_template
from adapters.spreadsheets.workbooks import streamed_listing
from core.devices.sheets import MAX_SHEET_BYTES, NO_ROWS, SheetRefused
from core.ordering.model import PAY_TYPE_NAMES
from core.ordering.offline import DevicesNotRechargeable, NewOfflinePurchase, PurchaseNotAwaitingReview, RowCheck
from core.ordering.offline_model import (
    FAILURE_REASONS,
    ROW_PROBLEMS,
    OfflineContent,
    OfflineDevice,
    OfflineFilter,
    OfflinePurchase,
    OfflineStatus,
)
from core.ordering.refunds import SameOperator
from core.shared.edition import PayType
from core.shared.messages import N_
from entrypoints.api import context
from entrypoints.api.framework import XLSX, ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request, xlsx_download
from entrypoints.api.offline import schemas as s

blp = ApiBlueprint("offline_purchases", __name__, description="Offline purchases (contract, bank transfer) and "
                                                               "their review by a second operator")

BUY, EXAMINE = "order.offlinebuy", "order.offlineExamine"
NO_PURCHASE = "no such offline purchase"
STATUS_NAMES = {OfflineStatus.AWAITING_REVIEW: N_("Awaiting review"), OfflineStatus.APPROVED: N_("Approved"),
                OfflineStatus.REJECTED: N_("Rejected")}
STATE_NAMES = {0: N_("Not recharged"), 1: N_("Recharged"), 2: N_("Recharge failed")}
TEMPLATE_HEADERS = (N_("Device GUID"), N_("Device name (optional)"))
SHEET_TITLE = N_("Offline purchases")
SHEET_HEADERS = (N_("Number"), N_("Customer"), N_("Level"), N_("Months"), N_("SMS"), N_("Voice calls"),
                 N_("Amount"), N_("Currency"), N_("Pay type"), N_("Status"), N_("Recorded by"), N_("Recorded"),
                 N_("Reviewed by"), N_("Reviewed"), N_("Device GUID"), N_("Device"), N_("Recharge"),
                 N_("Expiry before"), N_("Expiry after"), N_("Remark"))
_WIDTHS = (10, 18, 18, 8, 8, 10, 12, 10, 16, 16, 16, 18, 16, 18, 24, 24, 16, 18, 18, 30)

_t = context.translated


def _content(body: dict) -> OfflineContent:
    edition = context.container().settings().edition
    return OfflineContent(body.get("levelId"), body.get("levelYearId"), 0, body["smsCount"], body["voiceCount"],
                          edition.profile.default_country_code if body["smsCount"] or body["voiceCount"] else None)


def _level_names(purchases: list[OfflinePurchase]) -> dict[int, str]:
    ids = sorted({p.content.level_id for p in purchases if p.content.level_id})
    return context.container().level_names()(ids, context.language.get()) if ids else {}


def _row(purchase: OfflinePurchase, names: dict[int, str]) -> dict:
    c = purchase.content
    return {"offlineId": purchase.id, "customerId": purchase.customer.account_id,
            "customerName": purchase.customer.user_name, "levelId": c.level_id,
            "levelName": names.get(c.level_id) if c.level_id else None, "levelYearId": c.level_year_id,
            "timeLength": c.months, "smsCount": c.sms_count, "voiceCount": c.voice_count,
            "amount": purchase.amount_cents, "currency": purchase.currency, "payType": int(purchase.pay_type),
            "remark": purchase.remark, "status": int(purchase.status), "createdBy": purchase.creator_name,
            "gmtCreate": purchase.created_at, "reviewedBy": purchase.reviewer_name, "reviewedAt": purchase.reviewed_at,
            "reviewNote": purchase.review_note, "orderId": purchase.order_id, "deviceCount": purchase.device_count,
            "rechargedCount": purchase.recharged_count, "failedCount": purchase.failed_count}


def _device(device: OfflineDevice) -> dict:
    return {"guid": device.guid, "deviceId": device.device_id, "deviceName": device.device_name,
            "state": int(device.state), "reason": _t(FAILURE_REASONS[device.reason]) if device.reason else None,
            "expireTimeBefore": device.expires_before, "expireTimeAfter": device.expires_after}


def _detail(purchase: OfflinePurchase) -> dict:
    return {**_row(purchase, _level_names([purchase])), "devices": [_device(d) for d in purchase.devices]}


def _check(row: RowCheck) -> dict:
    return {"row": row.number, "guid": row.guid, "deviceId": row.device.device_id if row.device else None,
            "deviceName": row.device.name if row.device else None,
            "problem": int(row.problem) if row.problem else None,
            "message": _t(ROW_PROBLEMS[row.problem]) if row.problem else None}


def _checked(body: dict, rows: list[tuple[int, str]]) -> dict:
    customer, checks = context.container().check_offline_devices()(body["customer"], rows, _content(body))
    return {"customerId": customer.account_id, "customerName": customer.user_name,
            "rows": [_check(r) for r in checks], "valid": sum(1 for r in checks if r.problem is None)}


def _filter(body: dict) -> OfflineFilter:
    status = body.get("status")
    return OfflineFilter(OfflineStatus(status) if status else None, body.get("customer"), body.get("guid"))


@blp.route("/PayOfflineDeviceService/selectOfflineList")
class OfflineListView(MethodView):
    @blp.requires(f"{BUY}:query")
    @blp.arguments(s.PurchasePageQuery)
    @blp.ok(page_of(s.PurchaseSchema))
    def post(self, body):
        """Every offline purchase, newest first, by status, part of the customer's name or of a
        device's GUID."""
        page = context.container().offline_purchases().page(_filter(body), page_request(body))
        names = _level_names(page.items)
        return page_body(page, lambda p: _row(p, names))


@blp.route("/PayOfflineDeviceService/selectOfflineServiceList")
class OfflineDetailView(MethodView):
    @blp.requires(f"{BUY}:detail")
    @blp.arguments(s.PurchaseIdQuery, location="query")
    @blp.ok(s.PurchaseDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_PURCHASE)
    def get(self, query):
        """One offline purchase with each device and its recharge state (not recharged, recharged,
        recharge failed with the reason) and its expiry before and after."""
        return _detail(context.container().offline_purchases().get(query["offlineId"]))


@blp.route("/PayOfflineDeviceService/addDeviceList")
class OfflineDeviceCheckView(MethodView):
    @blp.requires(f"{BUY}:add")
    @blp.arguments(s.DeviceListBody)
    @blp.ok(s.DeviceCheckSchema)
    def post(self, body):
        """Checks a list of GUIDs for a purchase, row by row: the customer's device, whose type
        offers the level and service time. Changes nothing."""
        return _checked(body, list(enumerate(body["guids"], start=1)))


@blp.route("/PayOfflineDeviceService/getPackageByFile")
class OfflineSheetCheckView(MethodView):
    @blp.requires(f"{BUY}:add")
    @blp.arguments(s.SheetFile, location="files")
    @blp.arguments(s.SheetForm, location="form")
    @blp.ok(s.DeviceCheckSchema)
    def post(self, files, form):
        """Checks the GUIDs of an uploaded sheet (the template: exportOfflineTemplate) as
        addDeviceList does, each with its row number in the sheet. A file that is not such a sheet
        is refused whole (422, errors.file). Changes nothing."""
        rows = context.container().device_sheets().read(files["file"].stream.read(MAX_SHEET_BYTES + 1))
        if not rows:
            raise SheetRefused(NO_ROWS)
        return _checked(form, [(row.number, row.guid) for row in rows])


@blp.route("/PayOfflineDeviceService/exportOfflineTemplate")
class OfflineTemplateView(MethodView):
    @blp.requires(f"{BUY}:add")
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the sheet of GUIDs getPackageByFile reads, its header in the request's language")
    def get(self):
        """The sheet of devices an offline purchase takes, empty."""
        return xlsx_download(offline_template([_t(h) for h in TEMPLATE_HEADERS]), "offline-devices.xlsx")


@blp.route("/PayOfflineDeviceService/insert")
class OfflineInsertView(MethodView):
    @blp.requires(f"{BUY}:add")
    @blp.arguments(s.PurchaseBody)
    @blp.ok(s.PurchaseDetailSchema)
    def post(self, body):
        """Records an offline purchase for the customer's devices; it awaits review
        (PayOfflineExamine/updateExamine) and recharges nothing yet. A device that cannot take it
        refuses the whole purchase: 422 with data.rows (row, guid, problem as addDeviceList says)."""
        new = NewOfflinePurchase(body["customer"], tuple(enumerate(body["guids"], start=1)), _content(body),
                                 body["amount"], PayType(body["payType"]), body["remark"])
        try:
            return _detail(context.container().record_offline_purchase()(context.caller_id(), new))
        except DevicesNotRechargeable as refused:
            for row in refused.data["rows"]:
                row["message"] = _t(ROW_PROBLEMS[row["problem"]])
            raise


@blp.route("/PayOfflineDeviceService/delete/list")
class OfflineDeleteView(MethodView):
    @blp.requires(f"{BUY}:delete")
    @blp.arguments(s.PurchaseIdQuery, location="query")
    @blp.ok(refusals=(PurchaseNotAwaitingReview,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_PURCHASE)
    def delete(self, query):
        """Deletes a purchase still awaiting review (a reviewed one stays: 409 1151)."""
        context.container().offline_purchases().delete(query["offlineId"])


@blp.route("/PayOfflineExamine/selectExamineList")
class ExamineListView(MethodView):
    @blp.requires(f"{EXAMINE}:query")
    @blp.arguments(s.PurchasePageQuery)
    @blp.ok(page_of(s.PurchaseSchema))
    def post(self, body):
        """The purchases to review (status 1 unless another status is asked for), newest first."""
        where = _filter({"status": int(OfflineStatus.AWAITING_REVIEW), **body})
        page = context.container().offline_purchases().page(where, page_request(body))
        names = _level_names(page.items)
        return page_body(page, lambda p: _row(p, names))


@blp.route("/PayOfflineExamine/updateExamine")
class ExamineView(MethodView):
    @blp.requires(f"{EXAMINE}:edit")
    @blp.arguments(s.ReviewBody)
    @blp.ok(s.PurchaseDetailSchema, refusals=(SameOperator, PurchaseNotAwaitingReview))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_PURCHASE)
    def put(self, body):
        """Approves (every device is recharged now, in one transaction, and a paid order of the
        offline pay type records it; a device that cannot be is marked recharge failed with the
        reason) or rejects a purchase awaiting review. Its recorder cannot review it (1134);
        reviewed once (1151)."""
        return _detail(context.container().review_offline_purchase()(
            context.caller_id(), body["offlineId"], body["approve"], body.get("note")))


def _sheet_rows(purchase: OfflinePurchase, names: dict[int, str]) -> list[list[object]]:
    c = purchase.content
    head: list[object] = [
        purchase.id, purchase.customer.user_name, names.get(c.level_id or 0, ""), c.months, c.sms_count, c.voice_count,
        purchase.amount_cents / 100, purchase.currency, _t(PAY_TYPE_NAMES[purchase.pay_type]),
        _t(STATUS_NAMES[purchase.status]), purchase.creator_name or "", _local(purchase.created_at),
        purchase.reviewer_name or "", _local(purchase.reviewed_at)]
    return [[*head, d.guid, d.device_name or "", _t(STATE_NAMES[int(d.state)])
             + (f" ({_t(FAILURE_REASONS[d.reason])})" if d.reason else ""),
             _local(d.expires_before), _local(d.expires_after), purchase.remark] for d in purchase.devices] or [head]


def _local(moment: datetime | None) -> str:
    return context.local_text(moment)


def _export(body: dict):
    purchases = context.container().offline_purchases().every(_filter(body))
    level_names = context.container().level_names()
    language = context.language.get()
    names: dict[int, str] = {}  # read once a level, not once a purchase

    def rows():
        for purchase in purchases:
            level = purchase.content.level_id
            if level and level not in names:
                names.update(level_names([level], language))
            yield from _sheet_rows(purchase, names)

    chunks = streamed_listing(_t(SHEET_TITLE), [_t(h) for h in SHEET_HEADERS], rows(), _WIDTHS)
    return xlsx_download(stream_with_context(chunks), "offline-purchases.xlsx")


@blp.route("/PayOfflineDeviceService/exportOfflineExcel")
class OfflineExportView(MethodView):
    @blp.requires(f"{BUY}:export")
    @blp.arguments(s.PurchaseFilter)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="every purchase the filter finds, a row per device, streamed")
    def post(self, body):
        """The filtered list of selectOfflineList as an XLSX, a row per device with its state."""
        return _export(body)


@blp.route("/PayOfflineExamine/exportOffline")
class ExamineExportView(MethodView):
    @blp.requires(f"{EXAMINE}:export")
    @blp.arguments(s.PurchaseFilter)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="every purchase the filter finds, a row per device, streamed")
    def post(self, body):
        """The review list as an XLSX, a row per device with its state."""
        return _export(body)
