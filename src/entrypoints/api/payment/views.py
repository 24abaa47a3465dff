"""Recharge: levels, quotes, orders, SMS and voice packages, invoices (api-contract section 5).
Every call is scoped to the caller: devices it may see (and change, to order for them), its own
orders and bills; anything else is answered as an unknown id."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from flask.views import MethodView

from core.calibration.errors import NotPayable as CalibrationNotPayable
from core.calibration.errors import PaymentDiffers
from core.calibration.model import normalized_number
from core.ordering import errors as oe
from core.ordering.bills import Bill, BillMode, InvoiceType
from core.ordering.commands import ConfirmPayment, CreateAlertOrder, CreateServiceOrder
from core.ordering.model import Order, OrderKind, OrderLine, PayStatus
from core.ordering.payments import payable_after_failure
from core.ordering.use_cases import LineResult, OrderPlaced, SettlementOutcome
from core.pricing.level_change import ChangeKind, LevelChange
from core.pricing.queries import AlertOffer, LevelOffer
from core.pricing.quotes import DeviceQuote
from core.pricing.rules import OptionPrice, discount_badge, is_lifelong_term
from core.shared import errors as e
from core.shared.edition import PayType
from core.shared.money import Money
from core.vouchers import errors as ve
from entrypoints.api import context
from entrypoints.api.devices import schemas as device_schemas
from entrypoints.api.devices.views import _device_detail
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request
from entrypoints.api.level_names import level_names, named
from entrypoints.api.payment import schemas as s

blp = ApiBlueprint("payment", __name__, description="Recharge: service levels, SMS and voice packages, orders, "
                                                     "invoices")

NOT_VISIBLE = "a device the caller may not see, or that does not exist (the same answer, so ids cannot be probed)"
READ_ONLY = "a device the caller may only read (a member of its organization): orders change its service"
NOT_FOUND = "a device the caller may not see, or a billId that is not one of the caller's bills (the answer of " \
            "unknown ids)"
NO_ORDER = "no such order, or another account's (the same answer)"
LEVEL_CHANGE_REFUSALS = (e.FreeLevelNotOrderable, e.LifelongService, e.CurrentLevelNotValued)
COUPON_REFUSALS = (ve.CouponNotFound, ve.CouponNotValid, ve.CouponUsed, ve.CouponReserved, ve.CouponCurrency,
                   ve.CouponTooLarge)
ORDER_REFUSALS = (*COUPON_REFUSALS, e.PriceChanged, e.FreeLevelNotOrderable, e.MixedDeviceTypes, e.BillRequired,
                  e.AgreementActive, oe.RenewalNotOffered,
                  e.PayTypeNotOffered, e.PaymentMethodUnavailable, e.LevelNotOffered, e.PaymentFailed,
                  e.LifelongService, e.CurrentLevelNotValued)
ALERT_REFUSALS = (*COUPON_REFUSALS, e.PriceChanged, e.CountryCodeMismatch, e.BillRequired, e.NothingToBuy,
                  e.PayTypeNotOffered,
                  e.PaymentMethodUnavailable, e.LevelNotOffered, e.PaymentFailed)



def _container():
    return context.container()


def _option_row(price: OptionPrice) -> dict:
    o = price.option
    edition = _container().settings().edition
    return {"id": o.id, "serviceFee": o.service_fee_cents, "dataFee": o.data_fee_cents,
            "activityId": price.activity_id, "presentationMonth": price.bonus_months, "timeLength": o.months,
            "discount": o.discount,
            "activityDiscount": o.activity.discount if o.activity is not None and price.activity_id else None,
            "price": price.per_device_cents, "currency": price.currency, "lifelong": is_lifelong_term(o.months),
            "recommended": o.recommended, "discountBadge": discount_badge(price.discount, edition)}


def _level_row(offer: LevelOffer) -> dict:
    level, price = offer.level, offer.price
    activity = price.option.activity if price and price.activity_id else None  # price is the headline's
    edition = _container().settings().edition
    return {
        "levelId": level.id, "levelName": level.name, "levelDescribe": level.description,
        "levelIcon": f"/api/payment/PayServiceLevel/icon?levelId={level.id}" if level.icon else None,
        "packageId": level.package_id, "levelYearId": price.option.id if price else None,
        "timeLength": price.months if price else None,
        "serviceFee": price.option.service_fee_cents if price else 0,
        "dataFee": price.option.data_fee_cents if price else 0,
        "discount": price.option.discount if price else 100,
        "activityId": activity.activity_id if activity else None,
        "activityStartTime": activity.starts_at if activity else None,
        "activityEndTime": activity.ends_at if activity else None,
        "activityDiscount": activity.discount if activity else None,
        "presentationMonth": price.bonus_months if price else 0,
        "price": price.per_device_cents if price else 0,
        "currency": price.currency if price else edition.profile.currency,
        "buttonKind": offer.button.value, "current": offer.current, "free": offer.free,
        "discountBadge": discount_badge(price.discount, edition) if price else None,
        "itemLevelRelList": [{"itemCode": i.code, "itemName": i.name} for i in offer.items],
    }


def _change_row(device_id: int, fee: Money, current_level_name: str | None, change: LevelChange, months: int,
                bonus_months: int, level_name: str) -> dict:
    """What a device pays and will have (s.DeviceQuoteSchema), as quoted or as an order promises it."""
    return {"deviceId": device_id, "totalFee": fee.cents, "currency": fee.currency,
            "currentLevelId": change.before.level_id, "currentLevelName": current_level_name,
            "currentExpiredDate": change.before.expires_at,
            "changeKind": change.kind.value, "remainingDays": change.remaining_days,
            "convertedDays": change.converted_days, "timeLength": months, "presentationMonth": bonus_months,
            "levelId": change.level_id, "levelName": level_name, "serviceExpiredDate": change.expires_at,
            "lifelong": change.kind is ChangeKind.LIFELONG}


def _quote_rows(quotes: Sequence[DeviceQuote]) -> list[dict]:
    """Each device's quote, its levels named in the caller's language as the level cards name them."""
    names = _level_names([q.change for q in quotes])
    return [_change_row(q.device.id, q.price.per_device, names.get(q.change.before.level_id or 0, q.device.level_name),
                        q.change, q.price.months, q.price.bonus_months, names.get(q.change.level_id, q.level_name))
            for q in quotes]


def _level_names(changes: Sequence[LevelChange]) -> dict[int, str]:
    """The levels of `changes` named in the caller's language, as the level cards name them."""
    return level_names(i for c in changes for i in (c.before.level_id, c.level_id))


def _line_result_rows(results: Sequence[LineResult], order: Order) -> list[dict]:
    names = _level_names([r.change for r in results])
    return [_change_row(r.line.device_id, Money(r.line.fee_cents, order.currency),
                        names.get(r.change.before.level_id or 0, r.current_level_name), r.change, r.line.months,
                        r.line.bonus_months, names.get(r.change.level_id, order.description))
            for r in results]


def _placed(placed: OrderPlaced) -> dict:
    p = placed.payment
    row = {"orderId": placed.order_id, "orderCode": placed.order_code, "totalFee": placed.total_cents,
           "currency": placed.currency}
    for key, value in (("payQrCode", p.pay_qr_code), ("clientSecret", p.client_secret),
                       ("approveUrl", p.approve_url)):
        if value:
            row[key] = value
    if placed.quotes:
        row["levelChanges"] = _quote_rows(placed.quotes)
    return row


def order_status(order: Order) -> dict:
    """An order as PayOrder/get shows it: its state, and while unpaid what the payer needs."""
    row: dict[str, object] = {
        "orderId": order.id, "orderCode": order.code, "payStatus": int(order.status),
        "applyFlag": int(order.apply_flag), "totalFee": order.order_fee_cents, "currency": order.currency,
        "payType": int(order.pay_type), "orderDescription": order.description}
    if order.status is PayStatus.UNPAID:
        row.update({k: v for k, v in order.payment.items() if k in ("payQrCode", "clientSecret", "approveUrl")})
        if order.last_failure is not None:
            row["lastFailure"] = {"reason": order.last_failure.value, "number": order.failure_count,
                                  "newOrder": not payable_after_failure(order.pay_type)}
    return row


def _order_row(order: Order) -> dict:
    # orderDescription (and a line's levelName) is the order's snapshot, never today's catalogue: an
    # order records a sale as made (the provider's subject, the invoice), and the level may since be
    # renamed or deleted. It is not re-translated; what is on sale now is, in the caller's language.
    return {"orderId": order.id, "orderCode": order.code, "orderFee": order.order_fee_cents,
            "payFee": order.pay_fee_cents, "payStatus": int(order.status), "applyFlag": int(order.apply_flag),
            "invoiceStatus": int(order.invoice_status), "gmtCreate": order.created_at, "payTime": order.paid_at,
            "payType": int(order.pay_type), "orderDescription": order.description,
            "deviceCount": len(order.lines), **_order_extras(order)}


def _order_extras(order: Order) -> dict:
    """What My orders shows beyond the spec's fields: the order's currency, its devices by name,
    its expiry while unpaid, why it closed."""
    return {"currency": order.currency,
            "devices": [{"deviceId": line.device_id, "deviceName": line.device_name}
                        for line in order.lines[:s.LISTED_DEVICES]],
            "expireTime": order.expires_at if order.status is PayStatus.UNPAID else None,
            "closeReason": order.close_reason.value if order.close_reason else None,
            "couponCode": order.coupon_code, "couponFee": order.coupon_discount_cents,
            "refundFee": order.refunded_cents}


def order_line(line: OrderLine, level_name: str | None) -> dict:
    return {"deviceId": line.device_id, "deviceName": line.device_name, "fee": line.fee_cents,
            "levelName": level_name, "timeLength": line.months, "presentationMonth": line.bonus_months,
            "smsCount": line.sms_count, "voiceCount": line.voice_count}


def order_detail(order: Order) -> dict:
    """An order as its customer reads it (selectOrderDetail); the back office's order desk adds to it."""
    level_name = order.description if order.kind is OrderKind.SERVICE else None
    lines = [order_line(line, level_name) for line in order.lines]
    return {**_order_row(order), "closeTime": order.closed_at, "refundTime": order.refunded_at,
            "countryCode": order.country_code, "lines": lines}


def _alert_row(offer: AlertOffer, names: dict[int, str] | None = None) -> dict:
    """`names`: the packages' names in the caller's language (promotions), the default name otherwise."""
    p = offer.package
    edition = _container().settings().edition
    return {"packageId": p.id, "packageName": (names or {}).get(p.id, p.name), "packageFee": p.fee_cents,
            "smsCount": p.count, "discount": p.discount, "activityDiscount": p.activity_discount,
            "price": offer.price_cents, "currency": p.currency,
            "discountBadge": discount_badge(offer.discount, edition)}


def _bill_row(bill: Bill) -> dict:
    return {"billId": bill.id, "billDefaultStatus": int(bill.is_default), "invoiceType": int(bill.invoice_type),
            "billMode": int(bill.bill_mode), "companyName": bill.company_name, "taxNumber": bill.tax_number,
            "personalName": bill.personal_name, "bankDeposit": bill.bank_deposit,
            "billUserName": bill.bill_user_name, "billMail": bill.bill_mail, "billPhone": bill.bill_phone,
            "billAddress": bill.bill_address}


# --- catalogue -------------------------------------------------------------------------------------


@blp.route("/PayServicePackages/selectDeviceDepositInfo")
class DepositInfoView(MethodView):
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(device_schemas.DeviceDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """The device's service as the recharge drawer's header shows it: level, expiry, SMS and
        voice counts, SIM, agreementStatus (1: an auto-renew agreement is active). levelName is in
        the caller's language (Accept-Language), else the platform's default."""
        return _device_detail(_container().get_device()(context.caller_id(), query["deviceId"]))


@blp.route("/PayServiceItem/selectAllServiceItemByDevice")
class ServiceItemsView(MethodView):
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.ServiceItemSchema, many=True)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """Every service item, the feature rows under the level cards, named in the caller's language
        (Accept-Language), else the platform's default."""
        return [{"itemCode": i.code, "itemName": i.name, "itemSupplement": i.supplement, "itemLabel": i.label,
                 "itemTitle": i.title, "itemDetail": i.detail}
                for i in _container().list_service_items()(context.caller_id(), query["deviceId"],
                                                           context.language.get())]


@blp.route("/PayServicePackages/selectLevelList")
class LevelListView(MethodView):
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.LevelSchema, many=True)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """The levels of the device's type, each priced for this device and caller: headline
        year option, activity in force (its discount takes precedence), button kind, current
        level, included items. Empty unless the device's nodeType is 1. Prices are the edition's
        price list (`currency`: CNY or USD), in what the currency shows: what is shown is charged.
        Level and item names are in the caller's language (Accept-Language), else the platform's
        default; a stopped package's levels are not listed, nor retired (repriced) year options."""
        return [_level_row(offer) for offer in _container().list_levels()(context.caller_id(), query["deviceId"],
                                                                          context.language.get())]


@blp.route("/PayServiceLevelYear/selectListByDomain")
class YearOptionsView(MethodView):
    @blp.arguments(s.YearOptionQuery, location="query")
    @blp.ok(s.YearOptionListSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    @blp.alt_response(409, schema=ErrorEnvelope, description="code 1109: the level is not offered for the device")
    def get(self, query):
        """The year options of a level, each priced for this device and caller, in the edition's
        currency (whole yuan, or cents of a dollar): the price an order charges per device."""
        prices = _container().list_year_options()(context.caller_id(), query["deviceId"], query["levelId"],
                                                  query["packageId"])
        return {"levelYearList": [_option_row(p) for p in prices]}


@blp.route("/PayOrder/selectBatchQuote")
class BatchQuoteView(MethodView):
    @blp.arguments(s.BatchQuoteBody)
    @blp.ok(s.DeviceQuoteSchema, many=True, refusals=(e.MixedDeviceTypes, e.LevelNotOffered, *LEVEL_CHANGE_REFUSALS))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """What each device of a batch (or one device) pays for one year option (devices with an
        active SIM data plan also pay the data fee), and what each will have once paid, from its
        own level and expiry: the paying drawer shows it before payment. The order's total is the
        sum of the fees; the order placed promises these results."""
        quote = _container().quote_batch()(context.caller_id(), body["deviceIdList"], body["levelId"],
                                           body["levelYearId"], body["servicePackageId"])
        return _quote_rows(quote)


@blp.route("/PaySmsPackages/selectSmsPackage")
class AlertPackagesView(MethodView):
    @blp.arguments(s.CountryCodeQuery, location="query")
    @blp.ok(s.AlertPackagesSchema)
    def get(self, query):
        """The SMS and voice packages of a country code (86 domestically) priced in the edition's
        currency; none of the other edition's price list."""
        sms, voice = _container().list_alert_packages()(query["countryCode"])
        names = _container().alert_package_names()([o.package.id for o in (*sms, *voice)], context.language.get())
        return {"smsList": [_alert_row(o, names) for o in sms], "voiceList": [_alert_row(o, names) for o in voice]}


# --- orders ----------------------------------------------------------------------------------------


def _places_order(body_schema: type, refusals: tuple) -> Callable:
    """What the four order calls declare alike: their body, the placed order, the refusals."""
    decorators = (blp.arguments(body_schema), blp.ok(s.OrderPlacedSchema, refusals=refusals),
                  blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY),
                  blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND))

    def decorate(func: Callable) -> Callable:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return decorate


def _service_order(body: dict, device_ids: list[int]) -> dict:
    cmd = CreateServiceOrder(
        account_id=context.caller_id(), device_ids=tuple(device_ids), level_id=body["levelId"],
        level_year_id=body["levelYearId"], package_id=body["servicePackageId"], pay_type=PayType(body["payType"]),
        service_fee_cents=body["serviceFee"], total_fee_cents=body["totalFee"], apply_flag=body["applyFlag"],
        bill_id=body.get("billId"), activity_id=body.get("activityId"),
        presentation_month=body.get("presentationMonth"), sim_iccid=body.get("simIccid"),
        coupon_code=body.get("couponCode") or None, coupon_fee_cents=body.get("couponFee"),
        auto_renew=body.get("autoRenew", False), camp=context.camp())
    return _placed(_container().place_service_order()(cmd))


SERVICE_ORDER_DOC = """The server prices the order from its catalogue and refuses (1101) a serviceFee
        that is not the year option's listed fee or a totalFee that is not the sum of what each
        device pays. The answer's levelChanges say what each device will have once paid, as
        selectBatchQuote does: the same level is extended from max(now, expiry) by timeLength +
        presentationMonth months; another level first converts the current level's remaining time
        at its value into days of the new level (rounded down); 1200 months or more is lifelong
        (2099-12-31). A device with lifelong service can only change to another lifelong level
        (1124); a current level no longer offered cannot be valued (1125). When paid, each device
        gets exactly the promised result if its level and expiry are still those quoted, else the
        rule is applied to it as it is then."""


@blp.route("/PayOrder/createServiceOrder")
class ServiceOrderView(MethodView):
    @_places_order(s.ServiceOrderBody, ORDER_REFUSALS)
    def post(self, body):
        return _service_order(body, [body["deviceId"]])

    post.__doc__ = f"A service level for one device. {SERVICE_ORDER_DOC}"


@blp.route("/PayOrder/createBatchServiceOrder")
class BatchServiceOrderView(MethodView):
    @_places_order(s.BatchServiceOrderBody, ORDER_REFUSALS)
    def post(self, body):
        return _service_order(body, body["deviceIdList"])

    post.__doc__ = f"A service level for devices of one type (1103 otherwise). {SERVICE_ORDER_DOC}"


def _alert_order(body: dict, device_ids: list[int]) -> dict:
    cmd = CreateAlertOrder(
        account_id=context.caller_id(), device_ids=tuple(device_ids), pay_type=PayType(body["payType"]),
        country_code=body["countryCode"], sms_package_id=body["smsPackageId"], sms_count=body["smsCount"],
        sms_fee_cents=body["smsFee"], voice_package_id=body["voicePackageId"], voice_count=body["voiceCount"],
        voice_fee_cents=body["voiceFee"], total_fee_cents=body["totalFee"], apply_flag=body["applyFlag"],
        bill_id=body.get("billId"), sim_iccid=body.get("simIccid"), coupon_code=body.get("couponCode") or None,
        coupon_fee_cents=body.get("couponFee"), camp=context.camp())
    return _placed(_container().place_alert_order()(cmd))


ALERT_ORDER_DOC = """At least one package (1106); each package of the order's country code;
        smsFee and voiceFee are the packages' listed fees (0 without one), smsCount and voiceCount
        their counts, totalFee what the order charges (1101 otherwise). Domestically the country
        code is 86. When paid, each device's SMS and voice counts grow by the packages' counts."""


@blp.route("/PayOrder/createSmsOrder")
class AlertOrderView(MethodView):
    @_places_order(s.AlertOrderBody, ALERT_REFUSALS)
    def post(self, body):
        return _alert_order(body, [body["deviceId"]])

    post.__doc__ = f"SMS and/or voice packages for one device. {ALERT_ORDER_DOC}"


@blp.route("/PayOrder/createBatchSmsOrder")
class BatchAlertOrderView(MethodView):
    @_places_order(s.BatchAlertOrderBody, ALERT_REFUSALS)
    def post(self, body):
        return _alert_order(body, body["deviceIdList"])

    post.__doc__ = (f"SMS and/or voice packages for devices sharing one country code (1104 otherwise). "
                    f"{ALERT_ORDER_DOC}")


@blp.route("/PayOrder/get")
class OrderView(MethodView):
    @blp.arguments(s.OrderQuery, location="query")
    @blp.ok(s.OrderStatusSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ORDER)
    def get(self, query):
        """The order's payment state, polled every 3 s by the paying drawer; while unpaid also
        what the payer needs (the mobile pay page /mobilePay/pay?orderId= shows it again)."""
        return order_status(_container().get_order()(context.caller_id(), query["pk"]))


@blp.route("/PayOrder/confirmPay")
class ConfirmPayView(MethodView):
    @blp.arguments(s.ConfirmPayBody)
    @blp.ok(s.PayStatusSchema, refusals=(e.PayTypeNotOffered, e.PaymentMethodUnavailable, e.PriceChanged,
                                         e.OrderNotPayable, e.PaymentFailed))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ORDER)
    def post(self, body):
        """A wallet payment (30 Google Pay, 40 card payment-request button): the provider charges
        the payment method and, when it succeeds, the order is settled at once. When it does not,
        1112 with `data.failure` (declined, failed) and a message saying so; a declined card is
        recorded on the order (PayOrder/get's lastFailure) and the same order can be paid again."""
        status = _container().confirm_wallet_payment()(ConfirmPayment(
            account_id=context.caller_id(), order_id=body["orderId"], pay_type=PayType(body["payType"]),
            payment_method_id=body["paymentPlatformId"], pay_fee_cents=body["payFee"]))
        return {"payStatus": int(status)}


@blp.route("/PayOrder/selectMyOrderList")
class MyOrdersView(MethodView):
    @blp.arguments(s.MyOrderQuery)
    @blp.ok(page_of(s.MyOrderSchema))
    def post(self, body):
        """The caller's orders, newest first unless sorted otherwise. Orders superseded unpaid (a
        newer order for the same devices replaced them: each change in the paying drawer asks for
        one) are not listed, unless the provider took their payment all the same."""
        status = PayStatus(body["payStatus"]) if body.get("payStatus") else None
        page = _container().list_my_orders()(context.caller_id(), status, page_request(body))
        return page_body(page, _order_row)


@blp.route("/PayOrder/selectOrderDetail")
class OrderDetailView(MethodView):
    @blp.arguments(s.OrderIdBody)
    @blp.ok(s.OrderDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ORDER)
    def post(self, body):
        """One of the caller's orders with a line per device: its name when ordered, what it gets
        (level and months, or SMS and voice counts) and what it pays, in the order's currency."""
        return order_detail(_container().get_order()(context.caller_id(), body["orderId"]))


@blp.route("/PayOrder/cancelOrder")
class CancelOrderView(MethodView):
    @blp.arguments(s.OrderIdBody)
    @blp.ok(s.OrderStatusSchema, refusals=(e.OrderNotCancellable, e.CancelFailed))
    @blp.alt_response(403, schema=ErrorEnvelope, description="the caller may only read a device of the order now "
                                                             "(a member of its organization)")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ORDER)
    def post(self, body):
        """Cancels one of the caller's unpaid orders: its payment is withdrawn at the provider (its QR
        code or page pays nothing any more), then the order is closed (payStatus 4, closeReason
        cancelled). A closed order answers as it is; a paid one is refused (1121); when the
        provider does not withdraw the payment (the payer is paying right now, or it cannot be
        reached) nothing changes (1122)."""
        return order_status(_container().cancel_order()(context.caller_id(), body["orderId"]))


@blp.route("/PayOrder/continuePay")
class ContinuePayView(MethodView):
    @blp.arguments(s.OrderIdBody)
    @blp.ok(s.ResumedPaymentSchema, refusals=(e.OrderNotPayable, e.OrderExpired, e.PaymentFailed))
    @blp.alt_response(403, schema=ErrorEnvelope, description="the caller may only read a device of the order now "
                                                             "(a member of its organization)")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_ORDER)
    def post(self, body):
        """Pays one of the caller's unpaid orders again (Pay in My orders): what the payer needs,
        the same QR code, client secret or approve page as when it was placed, while its payment
        is valid at the provider (expireTime); a payment that could not start then is started now.
        An order less than a minute from its expiry is closed with its provider and refused
        (1123): a new order is placed in the paying drawer, at the catalogue's price of the day.
        Paid, refunded or closed orders are refused (1111). A service order's levelChanges say
        again what each device will have once paid: what the order promised while the device is as
        it was then, else what the rule gives it as it is now (what settlement would give it)."""
        order, start = _container().resume_payment()(context.caller_id(), body["orderId"])
        placed = _placed(OrderPlaced(order.id, order.code, order.order_fee_cents, start, order.currency))
        if results := _container().preview_level_results()(order):
            placed["levelChanges"] = _line_result_rows(results, order)
        return {**placed, "payType": int(order.pay_type), "orderDescription": order.description,
                "currency": order.currency, "expireTime": order.expires_at}


@blp.route("/PayOrder/selectCurrentService")
class CurrentServiceView(MethodView):
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.CurrentServiceSchema, nullable=True)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """The device's active auto-renew agreement, or null."""
        agreement = _container().current_service()(context.caller_id(), query["deviceId"])
        if agreement is None:
            return None
        [agreement] = named([agreement])  # the level as the caller's language names it
        return {"deviceId": agreement.device_id, "levelName": agreement.level_name,
                "totalFee": agreement.total_fee_cents, "currency": agreement.currency,
                "nextExecutionTime": agreement.next_execution_at}


@blp.route("/PayOrder/unAgreement")
class UnAgreementView(MethodView):
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(refusals=(e.NoActiveAgreement,))
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """Cancels the device's auto-renew agreement; a change of level is possible afterwards."""
        _container().cancel_agreement()(context.caller_id(), query["deviceId"])


# --- bills -----------------------------------------------------------------------------------------


def _bill(body: dict, bill_id: int | None = None) -> Bill:
    return Bill(id=bill_id, account_id=context.caller_id(), invoice_type=InvoiceType(body["invoiceType"]),
                bill_mode=BillMode(body["billMode"]), bill_user_name=body.get("billUserName") or "",
                bill_phone=body.get("billPhone") or "", company_name=body.get("companyName"),
                tax_number=body.get("taxNumber"), personal_name=body.get("personalName"),
                bank_deposit=body.get("bankDeposit"), bill_mail=body.get("billMail"),
                bill_address=body.get("billAddress"), is_default=body["billDefaultStatus"] == 1)


BILL_RULES = """Enterprise (invoiceType 2): companyName, taxNumber (letters and digits) and
        bankDeposit required; personal (1): personalName required, company fields dropped.
        billUserName and billPhone always (11-digit mainland mobile domestically, digits
        internationally); billMail for the e-mail mode (2), billAddress for the postal modes."""


@blp.route("/PayUserBill/selectListByDomain")
class BillListView(MethodView):
    @blp.arguments(s.BillListBody)
    @blp.ok(s.BillSchema, many=True)
    def post(self, _body):
        """The caller's invoice details, the default first."""
        return [_bill_row(b) for b in _container().list_bills()(context.caller_id())]


@blp.route("/PayUserBill/insert")
class BillInsertView(MethodView):
    @blp.arguments(s.BillBody)
    @blp.ok(s.BillSchema, refusals=(e.TooManyBills,))
    def post(self, body):
        return _bill_row(_container().save_bill()(_bill(body)))

    post.__doc__ = f"Adds invoice details; the first become the default. {BILL_RULES}"


@blp.route("/PayUserBill/update")
class BillUpdateView(MethodView):
    @blp.arguments(s.BillUpdateBody)
    @blp.ok(s.BillSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description="not one of the caller's bills")
    def put(self, body):
        return _bill_row(_container().save_bill()(_bill(body, body["billId"])))

    put.__doc__ = f"Changes one of the caller's invoice details. {BILL_RULES}"


@blp.route("/PayUserBill/delete")
class BillDeleteView(MethodView):
    @blp.arguments(s.BillQuery, location="query")
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description="not one of the caller's bills")
    def delete(self, query):
        """Deletes one of the caller's invoice details; orders keep the copy they were placed with."""
        _container().delete_bill()(context.caller_id(), query["billId"])


# --- development payments ----------------------------------------------------------------------------

dev_blp = ApiBlueprint("development_payment", __name__,
                       description="Development only (PAYMENT_BACKEND=development): pay an order with no provider")


@dev_blp.route("/pay")
class DevelopmentPayView(MethodView):
    @dev_blp.public
    @dev_blp.arguments(s.DevelopmentPayQuery, location="query")
    @dev_blp.ok(s.PayStatusSchema)
    @dev_blp.alt_response(403, schema=ErrorEnvelope, description="the signature does not match")
    @dev_blp.alt_response(404, schema=ErrorEnvelope, description="no such order")
    @dev_blp.alt_response(409, schema=ErrorEnvelope, description="code 1111: refunded, or the amount differs")
    def get(self, query):
        """The target of the development gateway's QR code and pay links: pays the order as a
        provider's notification would. Opening it again changes nothing more."""
        gateway = _container().development_gateway()
        if not gateway.verify(query["order"], query["amount"], query["signature"]):
            raise e.Forbidden()
        currency = _container().settings().edition.profile.currency  # every order's, in an edition
        if normalized_number(query["order"]):  # a calibration application's number (CAL...)
            return _pay_calibration(query["order"], query["amount"], currency)
        outcome = _container().settle_order()(query["order"], query["amount"], currency, "development",
                                              closed_pays=False)
        if outcome is SettlementOutcome.UNKNOWN_ORDER:
            raise e.NotFound()
        if not outcome.paid:
            raise e.OrderNotPayable()
        return {"payStatus": int(PayStatus.PAID)}


def _pay_calibration(number: str, amount_cents: int, currency: str) -> dict:
    """The development pay link of a calibration application settles it as a notification would."""
    try:
        _container().settle_calibration_payment()(number, amount_cents, currency, None, "development")
    except (CalibrationNotPayable, PaymentDiffers):
        raise e.OrderNotPayable() from None
    return {"payStatus": int(PayStatus.PAID)}
