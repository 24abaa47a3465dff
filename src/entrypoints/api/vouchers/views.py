"""Coupons and prepaid recharge cards (issue 18; spec seed 001 activity/PayCoupon and
activity/PayCardSecret). Operators with `order.servicePackage` issue, list, export and disable
batches; a customer checks a coupon on an order (the order calls take it as `couponCode`), redeems a
card for a device and lists the coupons and cards they used."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from flask.views import MethodView

from core.shared import errors as e
from core.shared.messages import N_
from core.shared.paging import Page
from core.vouchers import errors as ve
from core.vouchers.model import BatchStatus, Card, CardBatch, Coupon, CouponBatch, CouponKind, VoucherState
from core.vouchers.use_cases import NewCardBatch, NewCouponBatch
from entrypoints.api import context
from entrypoints.api.framework import XLSX, ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request, xlsx_download
from entrypoints.api.level_names import activity_names, level_names, named, named_page
from entrypoints.api.vouchers import schemas as s

blp = ApiBlueprint("vouchers", __name__, description="Coupons and prepaid recharge cards: batches (back office), "
                                                      "a coupon on an order, a card redeemed")

PERMISSION = "order.servicePackage"
NO_BATCH = "no such batch"
NOT_VISIBLE = "a device the caller may not see, or that does not exist (the same answer)"
STATE_NAMES = {VoucherState.UNUSED: N_("Unused"), VoucherState.RESERVED: N_("Reserved"), VoucherState.USED: N_("Used")}
COUPON_REFUSALS = (ve.CouponNotFound, ve.CouponNotValid, ve.CouponUsed, ve.CouponReserved, ve.CouponCurrency,
                   ve.CouponTooLarge)
REDEEM_REFUSALS = (ve.CardRefused, ve.CardLocked, ve.CardUsed, ve.CardNotValid, ve.CardNotForDevice,
                   e.LifelongService, e.DeviceScrapped)


B = TypeVar("B", CouponBatch, CardBatch)


def _c():
    return context.container()


_t = context.translated
_local = context.local_text


def _batch(b: CouponBatch | CardBatch) -> dict:
    return {"id": b.id, "prefix": b.prefix, "count": b.count, "startTime": b.validity.starts_at,
            "endTime": b.validity.ends_at, "activityId": b.activity_id, "activityName": b.activity_name,
            "remark": b.remark, "status": int(b.status), "createTime": b.created_at, "unusedCount": b.unused,
            "usedCount": b.used}


def _activities_named(batches: Sequence[B]) -> list[B]:
    """The batches' activities named in the caller's language (one query however many)."""
    names = activity_names(b.activity_id for b in batches)
    return [replace(b, activity_name=names.get(b.activity_id or 0, b.activity_name)) for b in batches]


def _named_batches(page: Page[B]) -> Page[B]:
    return replace(page, items=_activities_named(page.items))


def _named_batch(batch: B) -> B:
    """One batch (what a create or an update answers) named as the lists name it."""
    [named_batch] = _activities_named([batch])
    return named([named_batch])[0] if isinstance(named_batch, CardBatch) else named_batch


def _coupon_batch(b: CouponBatch) -> dict:
    return {**_batch(b), "couponType": int(b.terms.kind), "amount": b.terms.value, "currency": b.terms.currency,
            "reservedCount": b.reserved}


def _card_batch(b: CardBatch) -> dict:
    return {**_batch(b), "levelId": b.level_id, "levelName": b.level_name, "timeLength": b.months}


def _coupon(c: Coupon) -> dict:
    return {"couponCode": c.code, "batchId": c.batch_id, "couponType": int(c.terms.kind), "amount": c.terms.value,
            "currency": c.terms.currency, "startTime": c.validity.starts_at, "endTime": c.validity.ends_at,
            "useStatus": int(c.state), "userName": c.account_name, "orderCode": c.order_code,
            "reserveTime": c.reserved_at, "useTime": c.used_at}


def _card(c: Card) -> dict:
    return {"cardNumber": c.card_number, "batchId": c.batch_id, "levelId": c.level_id, "levelName": c.level_name,
            "timeLength": c.months, "startTime": c.validity.starts_at, "endTime": c.validity.ends_at,
            "useStatus": int(c.state), "userName": c.account_name, "deviceId": c.device_id,
            "deviceName": c.device_name, "orderCode": c.order_code, "useTime": c.used_at}


def _state(body: dict) -> VoucherState | None:
    return VoucherState(body["useStatus"]) if body.get("useStatus") else None


# --- coupons (back office) ---------------------------------------------------------------------------


@blp.route("/activity/PayCoupon/selectCouponList")
class CouponBatchesView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.PageQuery)
    @blp.ok(page_of(s.CouponBatchSchema))
    def post(self, body):
        """Coupon batches, newest first, each with how many codes are unused, reserved and used."""
        return page_body(_named_batches(_c().list_coupon_batches()(page_request(body))), _coupon_batch)


@blp.route("/activity/PayCoupon/createCoupon")
class CreateCouponsView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.CouponBatchBody)
    @blp.ok(s.CouponBatchSchema, refusals=(ve.ActivityNotFound,))
    def post(self, body):
        """Issue a batch of coupon codes: prefix (up to 2 capital letters or digits) and 14 random
        characters of an unambiguous alphabet (65 bits from a secure generator: not guessable),
        each usable once, on one order, within the validity, in the edition's currency. An amount
        off (cents) or 1-99 % off; a coupon that would make an order free is refused on it."""
        return _coupon_batch(_named_batch(_c().create_coupon_batch()(NewCouponBatch(
            body["prefix"], body["count"], CouponKind(body["couponType"]), body["amount"], body["startTime"],
            body["endTime"], body["remark"], body.get("activityId")))))


@blp.route("/activity/PayCoupon/updateCoupon")
class UpdateCouponsView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.BatchUpdateBody)
    @blp.ok(s.CouponBatchSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_BATCH)
    def put(self, body):
        """Enable or disable a batch (its unused codes are refused while disabled; a code an unpaid
        order holds stays with it), and change its remark."""
        return _coupon_batch(_named_batch(_c().update_coupon_batch()(body["id"], BatchStatus(body["status"]),
                                                                     body.get("remark"))))


@blp.route("/activity/PayCoupon/selectCouponCodeList")
class CouponsView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.BatchItemsQuery)
    @blp.ok(page_of(s.CouponSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_BATCH)
    def post(self, body):
        """A batch's codes with their state, and who reserved or used each, when, on which order."""
        return page_body(_c().list_coupons()(body["batchId"], _state(body), page_request(body)), _coupon)


@blp.route("/activity/PayCoupon/exportCoupon")
class ExportCouponsView(MethodView):
    @blp.requires(f"{PERMISSION}:export")
    @blp.arguments(s.BatchIdBody)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the batch's codes with their state and use, in the request's language")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_BATCH)
    def post(self, body):
        """A batch's codes as an XLSX file."""
        headers = [_t(h) for h in (N_("Coupon code"), N_("State"), N_("User"), N_("Order"), N_("Reserved at"),
                                    N_("Used at"))]

        def row(c: Coupon) -> list[object]:
            return [c.code, _t(STATE_NAMES[c.state]), c.account_name or "", c.order_code or "", _local(c.reserved_at),
                    _local(c.used_at)]

        return xlsx_download(_c().export_coupons()(body["id"], headers, row), f"coupons-{body['id']}.xlsx")


@blp.route("/activity/PayCoupon/selectReferences")
class ReferencesView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.ok(s.ReferencesSchema)
    def get(self):
        """What a batch may name: every service level (for cards) and every activity, named in the
        caller's language."""
        levels, activities = _c().voucher_references()()
        level_named = level_names(i for i, _ in levels)
        activity_named = activity_names(i for i, _ in activities)
        return {"levels": [{"id": i, "name": level_named.get(i, n)} for i, n in levels],
                "activities": [{"id": i, "name": activity_named.get(i, n)} for i, n in activities]}


# --- coupons (customer) --------------------------------------------------------------------------------


@blp.route("/activity/PayCoupon/checkCoupon")
class CheckCouponView(MethodView):
    @blp.arguments(s.CouponCheckBody)
    @blp.ok(s.CouponQuoteSchema, refusals=COUPON_REFUSALS)
    def post(self, body):
        """What a coupon takes off an order of `totalFee` (the quote's total): the paying drawer
        shows it, then places the order with `couponCode` and `couponFee`, which the server prices
        again and refuses (1101) if they differ. The order reserves the coupon while it is unpaid
        (2044 for anyone else's order), spends it when paid and releases it when closed unpaid."""
        q = _c().check_coupon()(context.caller_id(), body["couponCode"], body["totalFee"])
        return {"couponCode": q.code, "couponType": int(q.terms.kind), "amount": q.terms.value,
                "totalFee": q.total_cents, "couponFee": q.discount_cents, "payFee": q.payable_cents,
                "currency": q.terms.currency}


@blp.route("/activity/PayCoupon/selectMyCoupons")
class MyCouponsView(MethodView):
    @blp.arguments(s.MyPageQuery)
    @blp.ok(page_of(s.CouponSchema))
    def post(self, body):
        """The coupons the caller has on an unpaid order (reserved) or used, newest first."""
        return page_body(_c().my_coupons()(context.caller_id(), page_request(body)), _coupon)


# --- recharge cards (back office) ----------------------------------------------------------------------


@blp.route("/activity/PayCardSecret/selectCardSecretList")
class CardBatchesView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.PageQuery)
    @blp.ok(page_of(s.CardBatchSchema))
    def post(self, body):
        """Card batches, newest first, each with how many cards are unused and used."""
        return page_body(named_page(_named_batches(_c().list_card_batches()(page_request(body)))), _card_batch)


def _new_cards(body: dict) -> tuple[CardBatch, list]:
    batch, cards = _c().create_card_batch()(NewCardBatch(
        body["prefix"], body["count"], body["levelId"], body["timeLength"], body["startTime"], body["endTime"],
        body.get("remark") or "", body.get("activityId")))
    return _named_batch(batch), cards


CREATE_CARDS_DOC = """Issue a batch of recharge cards, each a number (prefix and 12 random characters) and a
        secret (16 random characters of an unambiguous alphabet, 74 bits from a secure generator).
        The secrets are answered this once; the server keeps only their digests. A card gives a
        device of a type the level is sold for that level for `timeLength` months, as a paid order
        would."""


@blp.route("/activity/PayCardSecret/createCardSecret")
class CreateCardsView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.CardBatchBody)
    @blp.ok(s.CreatedCardsSchema, refusals=(ve.ActivityNotFound, ve.LevelNotFound))
    def post(self, body):
        batch, cards = _new_cards(body)
        return {**_card_batch(batch), "cards": [{"cardNumber": c.card_number, "secret": c.secret} for c in cards]}

    post.__doc__ = f"{CREATE_CARDS_DOC} As JSON."


@blp.route("/activity/PayCardSecret/createCardSecretFile")
class CreateCardsFileView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.CardBatchBody)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the cards with their secrets (this once), headers in the request's language")
    @blp.alt_response(409, schema=ErrorEnvelope, description="code 2061: no such activity; code 2062: no such level")
    def post(self, body):
        batch, cards = _new_cards(body)
        headers = [_t(h) for h in (N_("Card number"), N_("Secret"), N_("Level"), N_("Months"), N_("Valid from"),
                                   N_("Valid until"))]
        rows = ([c.card_number, c.secret, batch.level_name or "", batch.months, _local(batch.validity.starts_at),
                 _local(batch.validity.ends_at)] for c in cards)
        return xlsx_download(_c().voucher_sheet().render(headers, rows), f"cards-{batch.id}.xlsx")

    post.__doc__ = f"{CREATE_CARDS_DOC} As an XLSX file (the batch's export with its secrets)."


@blp.route("/activity/PayCardSecret/updateCardSecret")
class UpdateCardsView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.BatchUpdateBody)
    @blp.ok(s.CardBatchSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_BATCH)
    def put(self, body):
        """Enable or disable a batch (its unused cards are refused while disabled), and change its remark."""
        return _card_batch(_named_batch(_c().update_card_batch()(body["id"], BatchStatus(body["status"]),
                                                                 body.get("remark"))))


@blp.route("/activity/PayCardSecret/selectCardList")
class CardsView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.BatchItemsQuery)
    @blp.ok(page_of(s.CardSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_BATCH)
    def post(self, body):
        """A batch's cards with their state, and who redeemed each, for which device, when, and the order."""
        return page_body(named_page(_c().list_cards()(body["batchId"], _state(body), page_request(body))), _card)


@blp.route("/activity/PayCardSecret/exportCardSecret")
class ExportCardsView(MethodView):
    @blp.requires(f"{PERMISSION}:export")
    @blp.arguments(s.BatchIdBody)
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the batch's cards with their state and use (never a secret: only digests are "
                                  "kept)")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NO_BATCH)
    def post(self, body):
        """A batch's cards as an XLSX file."""
        headers = [_t(h) for h in (N_("Card number"), N_("State"), N_("User"), N_("Device"), N_("Order"),
                                    N_("Used at"))]

        def row(c: Card) -> list[object]:
            return [c.card_number, _t(STATE_NAMES[c.state]), c.account_name or "", c.device_name or "",
                    c.order_code or "", _local(c.used_at)]

        return xlsx_download(_c().export_cards()(body["id"], headers, row), f"cards-{body['id']}.xlsx")


# --- recharge cards (customer) -------------------------------------------------------------------------


@blp.route("/activity/PayCardSecret/redeemCard")
class RedeemCardView(MethodView):
    @blp.arguments(s.RedeemCardBody)
    @blp.ok(s.RedeemedSchema, refusals=REDEEM_REFUSALS)
    @blp.alt_response(403, schema=ErrorEnvelope, description="a device the caller may only read")
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """Redeem a card for a device the caller may recharge: the device gets the card's level for
        its months as a paid order would (an order of payType 50, fee 0, is recorded). Once; a wrong
        number or secret is refused alike (2051), and five wrong tries lock the number for 15
        minutes (2052)."""
        order = _c().redeem_card()(context.caller_id(), body["deviceId"], body["cardNumber"], body["secret"])
        line = order.lines[0]
        # the level just given, as the caller's language names it (the order keeps its snapshot)
        name = level_names([line.level_id]).get(line.level_id or 0, order.description)
        return {"orderId": order.id, "orderCode": order.code, "levelName": name,
                "timeLength": line.months, "serviceExpiredDate": line.settled_expires_at}


@blp.route("/activity/PayCardSecret/selectMyCards")
class MyCardsView(MethodView):
    @blp.arguments(s.MyPageQuery)
    @blp.ok(page_of(s.CardSchema))
    def post(self, body):
        """The cards the caller redeemed, newest first."""
        return page_body(named_page(_c().my_cards()(context.caller_id(), page_request(body))), _card)
