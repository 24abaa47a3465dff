"""Promotions in the back office (issue 18): activities (PayActivity, PayActivityAccountRel,
activity/PayActivityDeposit) and SMS/voice packages (PaySmsPackages), under /api/payment beside
the customer's recharge calls. Every call needs an `order.servicePackage` permission (operators);
a customer gets 403. The customer's recharge drawers read what is saved here at once: an activity
stopped or deleted offers nothing more, and the package's own prices are shown and charged again."""

from __future__ import annotations

from dataclasses import replace

from flask.views import MethodView

from core.devices.sheets import SheetRefused
from core.ordering.model import PAY_STATUS_NAMES, PayStatus
from core.promotions import errors as pe
from core.promotions.model import (
    MAX_SHEET_BYTES,
    SHEET_HEADERS,
    SHEET_TOO_BIG,
    Activity,
    ActivityDeposit,
    ActivityDraft,
    ActivityFilter,
    ActivityOption,
    ActivityOrder,
    AlertKind,
    AlertPackage,
    AlertPackageDraft,
    AlertSales,
    ImportReport,
    Nature,
    OptionActivity,
    OptionLabel,
    OptionSales,
    Period,
    SalesSummary,
    Status,
)
from core.shared.messages import N_
from core.shared.money import Money
from entrypoints.api import context
from entrypoints.api.framework import (
    XLSX,
    ApiBlueprint,
    ErrorEnvelope,
    PageQuery,
    page_body,
    page_of,
    page_request,
    xlsx_download,
)
from entrypoints.api.level_names import activity_names
from entrypoints.api.promotions import schemas as s

blp = ApiBlueprint("promotions", __name__, description="Promotions (back office): activities, their target "
                                                       "accounts and sales, SMS and voice packages")

PERMISSION = "order.servicePackage"
NO_ACTIVITY = "no such activity"
NO_PACKAGE = "no such SMS or voice package"
EXPORT_HEADERS = (N_("Order code"), N_("Account"), N_("Description"), N_("Devices"), N_("Currency"),
                  N_("Order fee"), N_("Paid"), N_("Payment status"), N_("Created"), N_("Paid at"))


def _container():
    return context.container()


_t = context.translated


def _localized(default: str, names: dict[str, str]) -> str:
    return names.get(context.language.get()) or default


def _activity_row(a: Activity) -> dict:
    return {"id": a.id, "name": _localized(a.name, a.names), "defaultName": a.name, "names": a.names,
            "nature": int(a.nature), "status": int(a.status), "startTime": a.starts_at, "endTime": a.ends_at,
            "createdAt": a.created_at,
            "options": [{"levelYearId": o.level_year_id, "activityDiscount": o.discount,
                         "presentationMonth": o.bonus_months} for o in a.options],
            "accounts": [{"id": t.id, "userName": t.user_name, "phone": t.phone, "email": t.email}
                         for t in a.accounts]}


def _draft(body: dict) -> ActivityDraft:
    return ActivityDraft(body["name"], Nature(body["nature"]), body["startTime"], body["endTime"],
                         tuple(ActivityOption(o["levelYearId"], o["activityDiscount"], o["presentationMonth"])
                               for o in body["options"]),
                         tuple(body.get("accountIds", ())), dict(body.get("names", {})))


def _option_label(o: OptionLabel) -> dict:
    return {"levelYearId": o.level_year_id, "packageId": o.package_id, "packageName": o.package_name,
            "levelId": o.level_id, "levelName": o.level_name, "timeLength": o.months, "currency": o.currency,
            "serviceFee": o.service_fee_cents, "discount": o.discount}


def _deposit_row(d: ActivityDeposit) -> dict:
    return {"activityId": d.activity_id, "name": d.name, "nature": int(d.nature), "status": int(d.status),
            "startTime": d.starts_at, "endTime": d.ends_at, "paidOrders": d.paid_orders, "paidFees": d.paid_cents}


def _order_row(o: ActivityOrder) -> dict:
    return {"orderId": o.order_id, "orderCode": o.order_code, "userName": o.user_name,
            "orderDescription": o.description, "currency": o.currency, "orderFee": o.order_fee_cents,
            "payFee": o.pay_fee_cents, "payStatus": o.pay_status, "payType": o.pay_type,
            "deviceCount": o.device_count, "gmtCreate": o.created_at, "payTime": o.paid_at}


def _alert_row(p: AlertPackage) -> dict:
    return {"packageId": p.id, "kind": int(p.kind), "countryCode": p.country_code,
            "packageName": _localized(p.name, p.names), "defaultName": p.name, "names": p.names,
            "packageFee": p.fee_cents, "currency": p.currency, "smsCount": p.count, "discount": p.discount,
            "status": int(p.status), "sort": p.sort}


def _alert_draft(body: dict) -> AlertPackageDraft:
    return AlertPackageDraft(AlertKind(body["kind"]), body["countryCode"], body["packageName"], body["packageFee"],
                             body["currency"], body["smsCount"], body["discount"], Status(body["status"]),
                             dict(body.get("names", {})))


# --- activities ------------------------------------------------------------------------------------


@blp.route("/PayActivity/selectPackageActivity")
class ActivityPageView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.ActivityPageQuery)
    @blp.ok(page_of(s.ActivitySchema))
    def post(self, body):
        """Activities, newest first, by part of the name, status and nature."""
        where = ActivityFilter(body.get("name"), Status(body["status"]) if "status" in body else None,
                               Nature(body["nature"]) if "nature" in body else None)
        return page_body(_container().list_activities()(where, page_request(body)), _activity_row)


@blp.route("/PayActivity/get/model")
class ActivityGetView(MethodView):
    @blp.requires(f"{PERMISSION}:detail")
    @blp.arguments(s.IdSchema, location="query")
    @blp.ok(s.ActivitySchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ACTIVITY)
    def get(self, query):
        """One activity with its options, target accounts and names per language."""
        return _activity_row(_container().get_activity()(query["id"]))


@blp.route("/PayActivity/selectServicePackageActivity")
class ActivityOptionsView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.ok(s.OptionLabelSchema, many=True)
    def get(self):
        """Every year option an activity may offer, with its package, level, price and currency."""
        return [_option_label(o) for o in _container().list_activity_options()(context.language.get())]


@blp.route("/PayActivity/insertActivity")
class ActivityInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.ActivityInSchema)
    @blp.ok(s.ActivitySchema, refusals=(pe.ActivityOverlap,))
    def post(self, body):
        """A new activity, enabled: refused (409, 2071) when an enabled activity already offers one of
        its options at an overlapping moment. 422 names each field that breaks a rule (name up to 20,
        end after start, at least one option offering a discount or bonus months, a directional
        activity with at least one live customer account)."""
        return _activity_row(_container().save_activity()(_draft(body)))


@blp.route("/PayActivity/update")
class ActivityUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.ActivityUpdateSchema)
    @blp.ok(s.ActivitySchema, refusals=(pe.ActivityOverlap,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ACTIVITY)
    def put(self, body):
        """Change an activity (everything insertActivity takes); an enabled one is checked for
        overlaps again. Orders already placed keep what they were charged."""
        return _activity_row(_container().save_activity()(_draft(body), body["id"]))


@blp.route("/PayActivity/delete")
class ActivityDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.IdSchema, location="query")
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ACTIVITY)
    def delete(self, query):
        """Delete an activity: its options show the package's own prices at once; orders placed at
        its price keep them (and stay listed by activity id)."""
        _container().delete_activity()(query["id"])


@blp.route("/PayActivity/enableActivity")
class ActivityEnableView(MethodView):
    @blp.requires(f"{PERMISSION}:enable")
    @blp.arguments(s.IdSchema)
    @blp.ok(s.ActivitySchema, refusals=(pe.ActivityOverlap,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ACTIVITY)
    def post(self, body):
        """Enable an activity (refused when it would overlap an enabled one on an option)."""
        return _activity_row(_container().set_activity_status()(body["id"], Status.ENABLED))


@blp.route("/PayActivity/stopActivity")
class ActivityStopView(MethodView):
    @blp.requires(f"{PERMISSION}:disable")
    @blp.arguments(s.IdSchema)
    @blp.ok(s.ActivitySchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ACTIVITY)
    def post(self, body):
        """Stop an activity: the package's own prices are shown and charged again at once."""
        return _activity_row(_container().set_activity_status()(body["id"], Status.STOPPED))


@blp.route("/PayActivity/copyActivity")
class ActivityCopyView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.IdSchema)
    @blp.ok(s.ActivitySchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ACTIVITY)
    def post(self, body):
        """A stopped copy of an activity (name + " (2)"), to change and enable."""
        return _activity_row(_container().copy_activity()(body["id"]))


@blp.route("/PayActivity/selectRechargeListByActivity")
class ActivityOrdersView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.ActivityOrdersQuery)
    @blp.ok(page_of(s.ActivityOrderSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ACTIVITY)
    def post(self, body):
        """The orders placed at the activity's price (paid or not), newest first."""
        return page_body(_container().list_activity_orders()(body["id"], page_request(body)), _order_row)


@blp.route("/PayActivity/exportRechargeList")
class ActivityOrdersExportView(MethodView):
    @blp.requires(f"{PERMISSION}:export")
    @blp.arguments(s.IdSchema)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the orders of selectRechargeListByActivity (at most 10,000), headers in the "
                                  "request's language")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ACTIVITY)
    def post(self, body):
        """The activity's orders as an XLSX file."""
        local = context.local_text

        def row(o: ActivityOrder) -> list[object]:
            return [o.order_code, o.user_name, o.description, o.device_count, o.currency, o.order_fee_cents / 100,
                    (o.pay_fee_cents or 0) / 100, _t(PAY_STATUS_NAMES[PayStatus(o.pay_status)]), local(o.created_at),
                    local(o.paid_at)]

        data = _container().export_activity_orders()(body["id"], [_t(h) for h in EXPORT_HEADERS], row)
        return xlsx_download(data, "activity-orders.xlsx")


@blp.route("/PayActivityAccountRel/selectListByDomain")
class TargetSearchView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.AccountSearchSchema)
    @blp.ok(s.TargetAccountSchema, many=True)
    def post(self, body):
        """Live customer accounts (at most 20) whose user name, phone or e-mail holds the text, to
        aim a directional activity at."""
        return [{"id": t.id, "userName": t.user_name, "phone": t.phone, "email": t.email}
                for t in _container().search_target_accounts()(body["text"])]


@blp.route("/PayActivityAccountRel/insert")
class TargetInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.AddTargetsSchema)
    @blp.ok(s.ActivitySchema, refusals=(pe.ActivityOverlap,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ACTIVITY)
    def post(self, body):
        """Add target accounts to a directional activity (those it has stay)."""
        activity = _container().get_activity()(body["activityId"])
        draft = ActivityDraft(activity.name, activity.nature, activity.starts_at, activity.ends_at, activity.options,
                              tuple(a.id for a in activity.accounts) + tuple(body["accountIds"]), activity.names)
        return _activity_row(_container().save_activity()(draft, activity.id))


@blp.route("/activity/PayActivityDeposit/selectDepositList")
class DepositListView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(PageQuery)
    @blp.ok(page_of(s.DepositSchema))
    def post(self, body):
        """Each activity, newest first, with its paid orders and what they paid per currency; named
        in the caller's language."""
        page = _container().list_deposits()(page_request(body))
        names = activity_names(d.activity_id for d in page.items)
        return page_body(replace(page, items=[replace(d, name=names.get(d.activity_id, d.name)) for d in page.items]),
                         _deposit_row)


# --- SMS and voice packages ----------------------------------------------------------------------------


@blp.route("/PaySmsPackages/selectSmsPackageList")
class AlertListView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.AlertListQuery)
    @blp.ok(s.AlertPackageAdminSchema, many=True)
    def post(self, body):
        """Every SMS and voice package (enabled or not, any currency), by country code, kind and sort."""
        kind = AlertKind(body["kind"]) if "kind" in body else None
        return [_alert_row(p) for p in _container().list_alert_packages_admin()(body.get("countryCode"), kind)]


@blp.route("/PaySmsPackages/insert")
class AlertInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.AlertInSchema)
    @blp.ok(s.AlertPackageAdminSchema, refusals=(pe.TooManyAlertPackages,))
    def post(self, body):
        """A new SMS or voice package, last of its country code and kind: refused (409, 2072) past 5 of
        a kind per country code."""
        return _alert_row(_container().save_alert_package()(_alert_draft(body)))


@blp.route("/PaySmsPackages/update")
class AlertUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.AlertUpdateSchema)
    @blp.ok(s.AlertPackageAdminSchema, refusals=(pe.TooManyAlertPackages,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_PACKAGE)
    def put(self, body):
        """Change a package; customers see the change at once, orders placed keep their price."""
        return _alert_row(_container().save_alert_package()(_alert_draft(body), body["packageId"]))


@blp.route("/PaySmsPackages/delete")
class AlertDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.AlertIdQuery, location="query")
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_PACKAGE)
    def delete(self, query):
        """Delete a package; orders placed keep what they bought."""
        _container().delete_alert_package()(query["packageId"])


@blp.route("/PaySmsPackages/sortPackage")
class AlertSortView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.AlertSortSchema)
    @blp.ok(s.AlertPackageAdminSchema, many=True)
    def post(self, body):
        """Put the packages of a country code and kind in the order given (every one of them, once)."""
        packages = _container().sort_alert_packages()(body["countryCode"], AlertKind(body["kind"]), body["ids"])
        return [_alert_row(p) for p in packages]


def _import_row(r: ImportReport) -> dict:
    return {"row": r.row, "packageName": r.name, "added": r.added, "packageId": r.package_id, "field": r.field,
            "message": _t(r.problem) if r.problem else None}


@blp.route("/PaySmsPackages/importSmsPackages")
class AlertImportView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.AlertSheetUploadSchema, location="files")
    @blp.ok(s.ImportReportSchema)
    def post(self, files):
        """Add the packages of an uploaded sheet (the template: importSmsPackages/template), each as
        insert adds one, and report every row: added, or refused with the cell and why (the limit of 5
        a kind per country code counts the rows added above). A file that is not such a sheet (not
        XLSX, over the size or row limit, holding formulas or characters no database stores) is
        refused whole with 422 (errors.file says why) and nothing is added."""
        data = files["file"].stream.read(MAX_SHEET_BYTES + 1)
        if len(data) > MAX_SHEET_BYTES:
            raise SheetRefused(SHEET_TOO_BIG)
        reports = _container().import_alert_packages()(data)
        added = sum(1 for r in reports if r.added)
        return {"rows": [_import_row(r) for r in reports], "added": added, "refused": len(reports) - added}


@blp.route("/PaySmsPackages/importSmsPackages/template")
class AlertTemplateView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the XLSX to fill, its header in the request's language, one example row")
    def get(self):
        """The sheet importSmsPackages takes."""
        data = _container().alert_sheet_template()([_t(h) for h in SHEET_HEADERS])
        return xlsx_download(data, "sms-packages.xlsx")


# --- what was sold over a period, what is in force ---------------------------------------------------


def _period(body: dict) -> Period:
    return Period(body["startTime"], body["endTime"])


def _summary(summary: SalesSummary, row) -> dict:
    return {"period": {"startTime": summary.period.starts_at, "endTime": summary.period.ends_at},
            "rows": [row(r) for r in summary.rows], "orders": summary.orders, "paidFees": summary.paid_cents}


def _option_sales_row(r: OptionSales) -> dict:
    label = r.label
    return {"levelYearId": r.level_year_id, "packageId": label and label.package_id,
            "packageName": label and label.package_name, "levelId": label and label.level_id,
            "levelName": label and label.level_name, "timeLength": label and label.months,
            "orders": r.orders, "devices": r.devices, "paidFees": r.paid_cents}


def _alert_sales_row(r: AlertSales) -> dict:
    return {"countryCode": r.country_code, "orders": r.orders, "devices": r.devices, "smsCount": r.sms_count,
            "voiceCount": r.voice_count, "paidFees": r.paid_cents}


# the operation log names columns; the API names fields
_TERM_FIELDS = {"package_fee_cents": "packageFee", "currency": "currency", "discount": "discount",
                "activity_discount": "activityDiscount", "status": "status"}


@blp.route("/PayServicePackages/selectDepositView")
class ServiceDepositView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.ServiceDepositQuery)
    @blp.ok(s.ServiceDepositViewSchema)
    def post(self, body):
        """What service packages sold over a period: per year option (package, level, duration),
        the orders paid in the period (payment time in [startTime, endTime)), the devices they
        recharged and what they paid per currency, with the totals. Refunded and unpaid orders do
        not count; a prepaid card's order counts with 0 paid. 422 when the period ends before it
        starts or lasts more than five years."""
        summary = _container().service_sales_summary()(_period(body), body.get("packageId"),
                                                       context.language.get())
        return _summary(summary, _option_sales_row)


@blp.route("/PaySmsPackages/selectDepositView")
class AlertDepositView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.AlertDepositQuery)
    @blp.ok(s.AlertDepositViewSchema)
    def post(self, body):
        """What SMS/voice packages sold over a period, per country code: orders paid in the period,
        devices, messages and calls sold, paid per currency, with the totals (an order records the
        counts it bought, not the package row, which may have changed since)."""
        summary = _container().alert_sales_summary()(_period(body), body.get("countryCode"))
        return _summary(summary, _alert_sales_row)


@blp.route("/PaySmsPackages/selectSmsActivityDetail")
class AlertActivityDetailView(MethodView):
    @blp.requires(f"{PERMISSION}:detail")
    @blp.arguments(s.PackageIdQuery, location="query")
    @blp.ok(s.AlertActivityDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_PACKAGE)
    def get(self, query):
        """An SMS/voice package with the discount a customer is charged now (its activity discount,
        when it has one, taking precedence over its own, as the recharge drawer applies it), the
        price of one device now, and the history of its price terms from the operation log."""
        detail = _container().alert_activity_detail()(query["packageId"])
        return {"package": _alert_row(detail.package), "activityDiscount": detail.activity_discount,
                "discountNow": detail.discount_now, "priceNow": detail.price_now_cents,
                "history": [{"at": c.at, "actorName": c.actor_name, "kind": c.kind,
                             "field": _TERM_FIELDS.get(c.field, c.field), "old": c.old, "new": c.new}
                            for c in detail.history]}


@blp.route("/PayServicePackages/selectServiceActivityDetail")
class PackageActivityDetailView(MethodView):
    @blp.requires(f"{PERMISSION}:detail")
    @blp.arguments(s.PackageIdQuery, location="query")
    @blp.ok(s.PackageActivityDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description="no such service package")
    def get(self, query):
        """A service package's year options still offered, each with the enabled activities on it
        that have not ended (the one in force now first, directional ones marked by nature) and the
        service fee each charges."""
        detail = _container().package_activity_detail()(query["packageId"], context.language.get())

        def activity(option: OptionLabel, a: OptionActivity) -> dict:
            return {"activityId": a.activity.id, "name": _localized(a.activity.name, a.activity.names),
                    "nature": int(a.activity.nature), "startTime": a.activity.starts_at,
                    "endTime": a.activity.ends_at, "activityDiscount": a.discount,
                    "presentationMonth": a.bonus_months, "inForce": a.in_force,
                    "payFee": Money(option.service_fee_cents, option.currency).discounted(a.discount).cents}

        return {"packageId": detail.package_id, "packageName": detail.package_name,
                "options": [{**_option_label(o.option), "activities": [activity(o.option, a) for a in o.activities]}
                            for o in detail.options]}
