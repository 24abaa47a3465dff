from __future__ import annotations

from typing import TypedDict

from marshmallow import fields, validate

from core.ordering.bills import LIMITS, BillMode, InvoiceType
from core.ordering.model import MAX_DEVICES_PER_ORDER, ORDER_SORT_FIELDS, CloseReason, PaymentFailure, PayStatus
from core.pricing.level_change import ChangeKind
from core.pricing.rules import ButtonKind
from core.shared.edition import PAYMENT_PAY_TYPES, PayType
from core.shared.messages import N_
from entrypoints.api.devices.schemas import LocalDate
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

OneOf, Range, Length = validate.OneOf, validate.Range, validate.Length
MAX_ID = 2_147_483_647
MAX_CENTS = 10**12  # ten billion units: far above any order, far below an overflow


class _Validated(TypedDict):
    """A field's validator, spread into fields of several schemas (`**ID`)."""

    validate: validate.Validator


ID: _Validated = {"validate": Range(min=1, max=MAX_ID)}
CENTS: _Validated = {"validate": Range(min=0, max=MAX_CENTS)}
PAY_TYPES = [int(p) for p in PAYMENT_PAY_TYPES]  # 50 (a recharge card) is never chosen: see redeemCard
COUNTRY_CODE = fields.String(required=True, validate=[Length(max=4), validate.Regexp(r"^\d{1,4}$",
                                                                                      error=N_("Enter 1 to 4 digits"))],
                             metadata={"description": "calling code without +: 86 (domestic, fixed), 1, 44, ..."})


def _currency(of: str = "the amounts"):
    return fields.String(required=True, metadata={
        "description": f"ISO 4217 code of {of}: CNY in the domestic edition, USD in the international one"})


PRICE_RULE = ("in what its currency shows, the amount charged: CNY whole yuan (cut down, never rounded up), USD "
              "cents (rounded half up)")


def _device_id(**kwargs):
    return fields.Integer(required=True, **ID, **kwargs)


def _device_list():
    return fields.List(fields.Integer(**ID), required=True,
                       validate=Length(min=1, max=MAX_DEVICES_PER_ORDER),
                       metadata={"description": f"1 to {MAX_DEVICES_PER_ORDER} devices the caller may see"})


class DeviceIdQuery(Schema):
    deviceId = _device_id()


class ServiceItemSchema(Schema):
    itemCode = fields.String(required=True)
    itemName = fields.String(required=True)
    itemSupplement = fields.String(required=True, allow_none=True)
    itemLabel = fields.String(required=True, allow_none=True)
    itemTitle = fields.String(required=True, metadata={"description": "the name without its parenthesised part"})
    itemDetail = fields.String(required=True, allow_none=True, metadata={
        "description": "the parenthesised part of the name, for DATA_QUERY_EXPORT, ALARM_SMS, ALARM_VOICE and "
                       "AI_QA; null otherwise"})


class LevelItemSchema(Schema):
    itemCode = fields.String(required=True)
    itemName = fields.String(required=True)


class LevelSchema(Schema):
    levelId = fields.Integer(required=True)
    levelName = fields.String(required=True)
    levelDescribe = fields.String(required=True, allow_none=True)
    levelIcon = fields.String(allow_none=True, metadata={"description": "URL of the level's icon (PNG), if it has one"})
    packageId = fields.Integer(required=True)
    levelYearId = fields.Integer(required=True, allow_none=True,
                                 metadata={"description": "the headline year option (the level's first)"})
    timeLength = fields.Integer(required=True, allow_none=True, metadata={"description": "months"})
    serviceFee = fields.Integer(required=True, metadata={"description": "cents, listed, of the headline option"})
    dataFee = fields.Integer(required=True, metadata={"description": "cents; charged to devices with an active "
                                                                      "SIM data plan only"})
    discount = fields.Integer(required=True, metadata={"description": "percent, 100 none"})
    activityId = fields.Integer(required=True, allow_none=True,
                                metadata={"description": "the activity in force for this caller, if any"})
    activityStartTime = LocalDateTime(required=True, allow_none=True)
    activityEndTime = LocalDateTime(required=True, allow_none=True)
    activityDiscount = fields.Integer(required=True, allow_none=True)
    presentationMonth = fields.Integer(required=True, metadata={"description": "bonus months of the activity"})
    price = fields.Integer(required=True, metadata={
        "description": "cents one device pays for the headline option: listed fee (plus data fee with an active "
                       f"plan) times the effective discount, {PRICE_RULE}"})
    currency = _currency("the level's fees and price")
    buttonKind = fields.String(required=True, validate=OneOf([b.value for b in ButtonKind]), metadata={
        "description": "onOrder (free: cannot be ordered), buyTraffic (no service fee, a data fee), renew (the "
                       "device's current level) or buy"})
    current = fields.Boolean(required=True)
    free = fields.Boolean(required=True, metadata={"description": "shows 'free service'"})
    discountBadge = fields.String(required=True, allow_none=True,
                                  metadata={"description": "'8折' domestically, '20% OFF' internationally"})
    itemLevelRelList = fields.List(fields.Nested(LevelItemSchema), required=True,
                                   metadata={"description": "the items this level includes"})


class YearOptionQuery(Schema):
    deviceId = _device_id()
    levelId = fields.Integer(required=True, **ID)
    packageId = fields.Integer(required=True, **ID)


class YearOptionSchema(Schema):
    id = fields.Integer(required=True)
    serviceFee = fields.Integer(required=True, metadata={"description": "cents, listed"})
    dataFee = fields.Integer(required=True)
    activityId = fields.Integer(required=True, allow_none=True)
    presentationMonth = fields.Integer(required=True)
    timeLength = fields.Integer(required=True, metadata={"description": "months; 1200 or more is lifelong"})
    discount = fields.Integer(required=True)
    activityDiscount = fields.Integer(required=True, allow_none=True)
    price = fields.Integer(required=True, metadata={"description": f"cents one device pays, {PRICE_RULE}"})
    currency = _currency("the option's fees and price")
    lifelong = fields.Boolean(required=True)
    recommended = fields.Boolean(required=True)
    discountBadge = fields.String(required=True, allow_none=True, metadata={
        "description": "the effective discount as shown: '8折' domestically, '20% OFF' internationally; null "
                       "without one"})


class YearOptionListSchema(Schema):
    levelYearList = fields.List(fields.Nested(YearOptionSchema), required=True)


class BatchQuoteBody(Schema):
    deviceIdList = _device_list()
    levelId = fields.Integer(required=True, **ID)
    levelYearId = fields.Integer(required=True, **ID)
    servicePackageId = fields.Integer(required=True, **ID)


class DeviceQuoteSchema(Schema):
    """What one device pays, and what it will have once the order is paid: the result of the rule
    of a change of level (same level: extended from the later of now and the expiry; another
    level: the current level's remaining days converted at their value into days of the new level,
    rounded down, then the months bought; see the README's "Changing level")."""

    deviceId = fields.Integer(required=True)
    totalFee = fields.Integer(required=True, metadata={"description": f"cents this device pays, {PRICE_RULE}"})
    currency = _currency()
    currentLevelId = fields.Integer(required=True, allow_none=True, metadata={"description": "the level it has now"})
    currentLevelName = fields.String(required=True, allow_none=True)
    currentExpiredDate = LocalDate(required=True, allow_none=True, metadata={
        "description": "its service's expiry now, in the caller's X-Time-Zone (2099-12-31: lifelong)"})
    changeKind = fields.String(required=True, validate=OneOf([k.value for k in ChangeKind]), metadata={
        "description": "extended (the same level), converted (another level: the remaining days become days of "
                       "the new level), startsNow (expired or never had service), fromFree (the time left on a "
                       "free level is worth nothing: the term starts now), lifelong"})
    remainingDays = fields.Integer(required=True, metadata={
        "description": "converted: whole days of the current level left, which are converted"})
    convertedDays = fields.Integer(required=True, metadata={
        "description": "converted: the days of the new level they become (rounded down)"})
    timeLength = fields.Integer(required=True, metadata={"description": "months bought"})
    presentationMonth = fields.Integer(required=True, metadata={"description": "bonus months of the activity"})
    levelId = fields.Integer(required=True, metadata={"description": "the level it will have once paid"})
    levelName = fields.String(required=True)
    serviceExpiredDate = LocalDate(required=True, metadata={
        "description": "the expiry it will have once paid, in the caller's X-Time-Zone (2099-12-31: lifelong)"})
    lifelong = fields.Boolean(required=True)


class _OrderBody(Schema):
    applyFlag = fields.Boolean(load_default=False, metadata={"description": "1: an invoice is wanted (billId)"})
    payType = fields.Integer(required=True, validate=OneOf(PAY_TYPES), metadata={
        "description": "1 WeChat, 2 Alipay (domestic); 20 PayPal, 30 Google Pay, 40 card payment-request "
                       "button (international)"})
    totalFee = fields.Integer(required=True, **CENTS, metadata={
        "description": "cents the whole order charges, as the client computed it: refused (1101) unless it is "
                       "the server's own figure"})
    billId = fields.Integer(allow_none=True, **ID)
    couponCode = fields.String(allow_none=True, validate=Length(max=40), metadata={
        "description": "one coupon (activity/PayCoupon/checkCoupon prices it): the order charges totalFee - "
                       "couponFee and holds the coupon while unpaid"})
    couponFee = fields.Integer(allow_none=True, **CENTS, metadata={
        "description": "with couponCode: cents the coupon takes off, as shown (1101 unless it is the server's)"})


class _ServiceOrderBody(_OrderBody):
    levelId = fields.Integer(required=True, **ID)
    levelYearId = fields.Integer(required=True, **ID)
    servicePackageId = fields.Integer(required=True, **ID)
    serviceFee = fields.Integer(required=True, **CENTS,
                                metadata={"description": "the year option's listed serviceFee (cents)"})
    activityId = fields.Integer(allow_none=True, **ID)
    presentationMonth = fields.Integer(allow_none=True, validate=Range(min=0, max=1200))


class ServiceOrderBody(_ServiceOrderBody):
    deviceId = _device_id()
    simIccid = fields.String(allow_none=True, validate=Length(max=30))
    autoRenew = fields.Boolean(load_default=False, truthy={True}, falsy={False}, metadata={
        "description": "renew automatically: the payment also authorises the provider's recurring charges "
                       "(WeChat papay contract, Alipay agreement, Stripe saved card, PayPal vault); the level is "
                       "charged again a day before the service runs out (1152 where not offered)"})


class BatchServiceOrderBody(_ServiceOrderBody):
    deviceIdList = _device_list()


class _AlertOrderBody(_OrderBody):
    countryCode = COUNTRY_CODE
    smsPackageId = fields.Integer(allow_none=True, load_default=None, **ID)
    smsCount = fields.Integer(load_default=0, validate=Range(min=0, max=10**7))
    smsFee = fields.Integer(load_default=0, **CENTS, metadata={"description": "the SMS package's listed fee"})
    voicePackageId = fields.Integer(allow_none=True, load_default=None, **ID)
    voiceCount = fields.Integer(load_default=0, validate=Range(min=0, max=10**7))
    voiceFee = fields.Integer(load_default=0, **CENTS, metadata={"description": "the voice package's listed fee"})


class AlertOrderBody(_AlertOrderBody):
    deviceId = _device_id()
    simIccid = fields.String(allow_none=True, validate=Length(max=30))


class BatchAlertOrderBody(_AlertOrderBody):
    deviceIdList = _device_list()


class OrderPlacedSchema(Schema):
    orderId = fields.Integer(required=True)
    orderCode = fields.String(required=True)
    totalFee = fields.Integer(required=True, metadata={"description": "cents the order charges: what the "
                                                                      "provider is asked for"})
    currency = _currency("the order")
    payQrCode = fields.String(metadata={"description": "WeChat Pay and Alipay: the content of the QR code"})
    clientSecret = fields.String(metadata={"description": "Stripe wallets: the PaymentIntent's client secret"})
    approveUrl = fields.String(metadata={"description": "PayPal: the page the payer approves on"})
    levelChanges = fields.List(fields.Nested(DeviceQuoteSchema), metadata={
        "description": "a service order's: what each device will have once paid, as the order promises it (the "
                       "device gets exactly this unless its service changes before the payment, when it is "
                       "computed again)"})


class OrderQuery(Schema):
    pk = fields.Integer(required=True, **ID, metadata={"description": "orderId"})


class PaymentFailureSchema(Schema):
    reason = fields.String(required=True, validate=OneOf([f.value for f in PaymentFailure]), metadata={
        "description": "declined (the card or wallet was refused), cancelled (the payer left the provider's "
                       "page), failed (the provider could not complete it); the order stays unpaid"})
    number = fields.Integer(required=True, metadata={
        "description": "failed attempts so far (1, 2, ...): a new failure has a higher number than one shown"})
    newOrder = fields.Boolean(required=True, metadata={
        "description": "a retry needs a new order (PayPal's order is void); otherwise the same payment can be "
                       "tried again (Stripe)"})


class OrderStatusSchema(Schema):
    orderId = fields.Integer(required=True)
    orderCode = fields.String(required=True)
    payStatus = fields.Integer(required=True, metadata={"description": "1 unpaid, 2 paid, 3 refunded, 4 closed "
                                                                      "(unpaid past its expiry)"})
    applyFlag = fields.Integer(required=True)
    totalFee = fields.Integer(required=True)
    currency = _currency("the order (its own, whatever the edition now)")
    payType = fields.Integer()
    orderDescription = fields.String()
    payQrCode = fields.String(metadata={"description": "while unpaid: what the order was placed with, so the "
                                                       "mobile pay page can show it again"})
    clientSecret = fields.String()
    approveUrl = fields.String()
    lastFailure = fields.Nested(PaymentFailureSchema, metadata={
        "description": "while unpaid, after a failed attempt: why it failed, so the paying drawer says so"})


class ConfirmPayBody(Schema):
    orderId = fields.Integer(required=True, **ID)
    payType = fields.Integer(required=True, validate=OneOf([int(PayType.GOOGLE_PAY),
                                                             int(PayType.CARD_PAYMENT_REQUEST)]))
    paymentPlatformId = fields.String(required=True, validate=Length(min=1, max=255),
                                      metadata={"description": "the payment method id the wallet returned"})
    payFee = fields.Integer(required=True, **CENTS, metadata={"description": "cents; must be the order's fee"})


class PayStatusSchema(Schema):
    payStatus = fields.Integer(required=True)


class CurrentServiceSchema(Schema):
    deviceId = fields.Integer(required=True)
    levelName = fields.String(required=True)
    totalFee = fields.Integer(required=True, metadata={"description": "cents charged at each renewal"})
    currency = _currency()
    nextExecutionTime = LocalDateTime(required=True)


class CountryCodeQuery(Schema):
    countryCode = COUNTRY_CODE


class AlertPackageSchema(Schema):
    packageId = fields.Integer(required=True)
    packageName = fields.String(required=True)
    packageFee = fields.Integer(required=True, metadata={"description": "cents, listed"})
    smsCount = fields.Integer(required=True, metadata={"description": "messages or calls it adds"})
    discount = fields.Integer(required=True)
    activityDiscount = fields.Integer(required=True, allow_none=True)
    price = fields.Integer(required=True, metadata={"description": "cents one device pays, after the effective "
                                                                    "discount (voice ignores an activity "
                                                                    f"discount of 100), {PRICE_RULE}"})
    currency = _currency("the package's fee and price")
    discountBadge = fields.String(required=True, allow_none=True, metadata={
        "description": "the effective discount as shown (a voice package ignores an activity discount of 100): "
                       "'8折' domestically, '20% OFF' internationally; null without one"})


class AlertPackagesSchema(Schema):
    smsList = fields.List(fields.Nested(AlertPackageSchema), required=True)
    voiceList = fields.List(fields.Nested(AlertPackageSchema), required=True)


class MyOrderQuery(PageQuery):
    payStatus = fields.Integer(validate=OneOf([int(s) for s in PayStatus]))
    sortField = fields.String(validate=OneOf(ORDER_SORT_FIELDS),
                              metadata={"description": "default gmtCreate (newest first); ties by orderId; "
                                                       "unpaid orders last by payTime"})


LISTED_DEVICES = 5


class OrderDeviceSchema(Schema):
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True, allow_none=True,
                               metadata={"description": "as named when the order was placed"})


class MyOrderSchema(Schema):
    orderId = fields.Integer(required=True)
    orderCode = fields.String(required=True)
    orderFee = fields.Integer(required=True)
    payFee = fields.Integer(required=True, allow_none=True)
    payStatus = fields.Integer(required=True, metadata={
        "description": "1 unpaid, 2 paid, 3 refunded, 4 closed, 5 partially refunded"})
    applyFlag = fields.Integer(required=True)
    invoiceStatus = fields.Integer(required=True)
    gmtCreate = LocalDateTime(required=True)
    payTime = LocalDateTime(required=True, allow_none=True)
    payType = fields.Integer(required=True)
    orderDescription = fields.String(required=True)
    deviceCount = fields.Integer(required=True)
    currency = fields.String(required=True, metadata={"description": "ISO 4217 of orderFee and payFee: the "
                                                                     "order's own, whatever the edition now"})
    devices = fields.List(fields.Nested(OrderDeviceSchema), required=True, metadata={
        "description": f"the first {LISTED_DEVICES} devices of the order (deviceCount tells how many in all)"})
    expireTime = LocalDateTime(required=True, allow_none=True, metadata={
        "description": "while unpaid: when its QR code or payment page stops working (it closes then)"})
    closeReason = fields.String(required=True, allow_none=True, validate=OneOf([r.value for r in CloseReason]),
                                metadata={"description": "a closed order's: superseded (a newer order for the "
                                                         "same devices; such orders are not listed unless paid), "
                                                         "cancelled, expired, paymentMismatch (the provider took "
                                                         "another amount or currency: support settles it)"})
    couponCode = fields.String(required=True, allow_none=True, metadata={"description": "the coupon it carries"})
    couponFee = fields.Integer(required=True, metadata={
        "description": "cents the coupon took off (orderFee is what is charged)"})
    refundFee = fields.Integer(required=True, metadata={
        "description": "cents paid back so far (payStatus 5 partially refunded, 3 refunded)"})


class OrderIdBody(Schema):
    orderId = fields.Integer(required=True, **ID, metadata={"description": "one of the caller's orders"})


class OrderLineSchema(OrderDeviceSchema):
    fee = fields.Integer(required=True, metadata={"description": "cents this device pays, in the order's currency"})
    levelName = fields.String(required=True, allow_none=True, metadata={"description": "service orders"})
    timeLength = fields.Integer(required=True, metadata={"description": "months bought (service orders; 1200 or "
                                                                        "more is lifelong)"})
    presentationMonth = fields.Integer(required=True, metadata={"description": "bonus months"})
    smsCount = fields.Integer(required=True)
    voiceCount = fields.Integer(required=True)


class OrderDetailSchema(MyOrderSchema):
    closeTime = LocalDateTime(required=True, allow_none=True)
    refundTime = LocalDateTime(required=True, allow_none=True)
    countryCode = fields.String(required=True, allow_none=True, metadata={"description": "SMS/voice orders"})
    lines = fields.List(fields.Nested(OrderLineSchema), required=True, metadata={"description": "one per device"})


class ResumedPaymentSchema(OrderPlacedSchema):
    payType = fields.Integer(required=True)
    orderDescription = fields.String(required=True)
    currency = fields.String(required=True)
    expireTime = LocalDateTime(required=True, allow_none=True,
                               metadata={"description": "when the code or page stops working"})


# --- bills --------------------------------------------------------------------------------------

_TEXT = {name: fields.String(allow_none=True, validate=Length(max=limit)) for name, limit in LIMITS.items()}


class _BillFields(Schema):
    invoiceType = fields.Integer(required=True, validate=OneOf([int(t) for t in InvoiceType]),
                                 metadata={"description": "1 personal, 2 enterprise"})
    billMode = fields.Integer(required=True, validate=OneOf([int(m) for m in BillMode]),
                              metadata={"description": "2 e-mail, 1 postal address (3 and 4: older postal modes)"})
    companyName = _TEXT["company_name"]
    taxNumber = _TEXT["tax_number"]
    personalName = _TEXT["personal_name"]
    bankDeposit = _TEXT["bank_deposit"]
    billUserName = _TEXT["bill_user_name"]
    billMail = _TEXT["bill_mail"]
    billPhone = _TEXT["bill_phone"]
    billAddress = _TEXT["bill_address"]
    billDefaultStatus = fields.Integer(load_default=0, validate=OneOf([0, 1]),
                                       metadata={"description": "1: the default bill (only one is)"})


class BillBody(_BillFields):
    pass


class BillUpdateBody(_BillFields):
    billId = fields.Integer(required=True, **ID)


class BillListBody(Schema):
    pass


class BillQuery(Schema):
    billId = fields.Integer(required=True, **ID)


class BillSchema(Schema):
    billId = fields.Integer(required=True)
    billDefaultStatus = fields.Integer(required=True)
    invoiceType = fields.Integer(required=True)
    billMode = fields.Integer(required=True)
    companyName = fields.String(required=True, allow_none=True)
    taxNumber = fields.String(required=True, allow_none=True)
    personalName = fields.String(required=True, allow_none=True)
    bankDeposit = fields.String(required=True, allow_none=True)
    billUserName = fields.String(required=True)
    billMail = fields.String(required=True, allow_none=True)
    billPhone = fields.String(required=True)
    billAddress = fields.String(required=True, allow_none=True)


class DevelopmentPayQuery(Schema):
    # an order's code (digits), or a calibration application's number (CAL, the date, 8 characters)
    order = fields.String(required=True, validate=[Length(min=1, max=20),
                                                   validate.Regexp(r"^(\d+|CAL\d{8}[0-9A-Z]{8})$")])
    amount = fields.Integer(required=True, **CENTS)
    signature = fields.String(required=True, validate=[Length(equal=64), validate.Regexp(r"^[0-9a-f]{64}$")])

