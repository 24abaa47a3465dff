"""Recharge statistics (issue 19, /operation/rechargeStatistics): revenue by period, pay type and
level with refunds deducted, and device counts, for the back office; the same as an XLSX."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from flask.views import MethodView
from marshmallow import ValidationError, fields, validate, validates_schema

from adapters.spreadsheets.workbooks import streamed_listing
from core.ordering.model import PAY_TYPE_NAMES
from core.ordering.revenue import Figures, Granularity, RechargeStatistics
from core.shared.edition import PayType
from core.shared.messages import N_
from entrypoints.api import context
from entrypoints.api.framework import XLSX, ApiBlueprint, LocalDateTime, Schema, xlsx_download

blp = ApiBlueprint("recharge_statistics", __name__, description="Recharge statistics: revenue and refunds by "
                                                                  "period, pay type and level; device counts")
PERMISSION = "order.rechargeStatistics"
SHEET_TITLE = N_("Recharge statistics")
SHEET_HEADERS = (N_("Period"), N_("Paid"), N_("Orders"), N_("Refunded"), N_("Refunds"), N_("Net"), N_("Currency"))
_WIDTHS = (24, 14, 10, 14, 10, 14, 10)
FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2099, 12, 31)


class StatisticsQuery(Schema):
    # the console's years: a zone's offset before 1900 is its local mean time, in seconds
    startDate = fields.Date(required=True, validate=validate.Range(min=FIRST_DAY, max=LAST_DAY),
                            metadata={"description": "the first day, in X-Time-Zone (2000 to 2099)", "maxLength": 10})
    endDate = fields.Date(required=True, validate=validate.Range(min=FIRST_DAY, max=LAST_DAY),
                          metadata={"description": "the last day (included)", "maxLength": 10})
    granularity = fields.String(load_default="day", validate=validate.OneOf([g.value for g in Granularity]),
                                metadata={"description": "day, week (Monday to Sunday) or month"})

    @validates_schema
    def _range(self, data, **_kwargs):
        if data["endDate"] < data["startDate"]:
            raise ValidationError(N_("The end is before the start"), "endDate")


class FiguresSchema(Schema):
    paid = fields.Integer(required=True, metadata={"description": "cents paid by orders paid then"})
    orders = fields.Integer(required=True)
    refunded = fields.Integer(required=True, metadata={"description": "cents paid back by refunds made then"})
    refunds = fields.Integer(required=True)
    net = fields.Integer(required=True, metadata={"description": "paid less refunded"})


class PeriodFiguresSchema(FiguresSchema):
    start = LocalDateTime(required=True)
    end = LocalDateTime(required=True, metadata={"description": "exclusive"})


class PayTypeFiguresSchema(FiguresSchema):
    payType = fields.Integer(required=True)
    payTypeName = fields.String(required=True)


class LevelFiguresSchema(FiguresSchema):
    levelId = fields.Integer(required=True)
    levelName = fields.String(required=True, allow_none=True)


class PlatformFiguresSchema(FiguresSchema):
    camp = fields.Integer(required=True, metadata={"description": "0: the console's own domain"})
    platformName = fields.String(required=True, metadata={"description": "its platforms' titles, or the console"})


class StatisticsSchema(Schema):
    currency = fields.String(required=True)
    total = fields.Nested(FiguresSchema, required=True)
    periods = fields.List(fields.Nested(PeriodFiguresSchema), required=True)
    payTypes = fields.List(fields.Nested(PayTypeFiguresSchema), required=True)
    levels = fields.List(fields.Nested(LevelFiguresSchema), required=True)
    platforms = fields.List(fields.Nested(PlatformFiguresSchema), required=True, metadata={
        "description": "by the white-label platform (camp) the orders were placed through"})
    devices = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "new (added), renewed (given service by an order paid), expired (service ran out) in the "
                       "range"})


def _platform_names(camps: Iterable[int]) -> dict[int, str]:
    """By camp, the titles of its platforms (read once); the console's own for camp 0, or a camp no
    platform names now."""
    titles = {c.camp: ", ".join(title for _, title in c.platforms) for c in context.container().merchant_overview()()}
    return {camp: titles.get(camp) or (context.translated(N_("Main console")) if camp == 0
                                       else context.translated(N_("Site {camp}"), camp=camp)) for camp in camps}


def _figures(f: Figures) -> dict:
    return {"paid": f.paid_cents, "orders": f.orders, "refunded": f.refunded_cents, "refunds": f.refunds,
            "net": f.net_cents}


def _statistics(query: dict) -> RechargeStatistics:
    zone = context.time_zone.get()
    currency = context.container().settings().edition.profile.currency
    return context.container().recharge_statistics()(
        query["startDate"], query["endDate"], Granularity(query["granularity"]),
        zone if isinstance(zone, ZoneInfo) else ZoneInfo("UTC"), currency)


@blp.route("/PayOrder/rechargeStatistics")
class StatisticsView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(StatisticsQuery)
    @blp.ok(StatisticsSchema)
    def post(self, query):
        """Revenue in the edition's currency from startDate to endDate (days of X-Time-Zone): each
        period's payments (orders paid in it) and refunds (made in it), their total, the same by
        pay type and by level bought, and the devices new, renewed and expired in the range. At
        most 400 periods (422)."""
        stats = _statistics(query)
        names = context.container().level_names()(sorted(stats.by_level), context.language.get())
        platforms = _platform_names(stats.by_camp)
        return {"currency": stats.currency, "total": _figures(stats.total),
                "periods": [{"start": p.start, "end": p.end, **_figures(f)} for p, f in stats.periods],
                "payTypes": [{"payType": p, "payTypeName": context.translated(PAY_TYPE_NAMES[PayType(p)]),
                              **_figures(f)} for p, f in stats.by_pay_type.items()],
                "levels": [{"levelId": lv, "levelName": names.get(lv), **_figures(f)}
                           for lv, f in stats.by_level.items()],
                "platforms": [{"camp": camp, "platformName": platforms[camp], **_figures(f)}
                              for camp, f in stats.by_camp.items()],
                "devices": {"new": stats.devices.new, "renewed": stats.devices.renewed,
                            "expired": stats.devices.expired}}


def _day(moment: datetime) -> date:
    return moment.astimezone(context.time_zone.get()).date()


def _label(start: datetime, end: datetime, granularity: str) -> str:
    """The period's first day, and its last for a week or a month."""
    first, last = _day(start), _day(end - timedelta(days=1))
    return f"{first:%Y-%m-%d}" if granularity == "day" else f"{first:%Y-%m-%d} – {last:%Y-%m-%d}"


@blp.route("/PayOrder/exportRechargeStatistics")
class StatisticsExportView(MethodView):
    @blp.requires(f"{PERMISSION}:export")
    @blp.arguments(StatisticsQuery)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="a row per period, then the total; amounts in units of the currency")
    def post(self, query):
        """The periods of rechargeStatistics as an XLSX, headers in the request's language."""
        stats = _statistics(query)

        def row(label: str, f: Figures) -> list[object]:
            return [label, f.paid_cents / 100, f.orders, f.refunded_cents / 100, f.refunds, f.net_cents / 100,
                    stats.currency]

        rows = [row(_label(p.start, p.end, query["granularity"]), f) for p, f in stats.periods]
        rows.append(row(context.translated(N_("Total")), stats.total))
        chunks = streamed_listing(context.translated(SHEET_TITLE), [context.translated(h) for h in SHEET_HEADERS],
                                  rows, _WIDTHS)
        return xlsx_download(chunks, "recharge-statistics.xlsx")
