"""Placing, paying and settling orders (api-contract section 5). The server prices every order
from its own catalogue; the client's figures are only compared with it."""

from __future__ import annotations

import functools
import logging
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from core.devices.model import Device, in_service
from core.inbox.model import MessageKind, SystemMessage
from core.inbox.posting import post
from core.ordering.bills import Bill
from core.ordering.commands import ConfirmPayment, CreateAlertOrder, CreateServiceOrder
from core.ordering.errors import RenewalNotOffered
from core.ordering.invoices import open_for_paid_order
from core.ordering.model import (
    MAX_DEVICES_PER_ORDER,
    ORDER_PAID,
    PAID_STATES,
    Agreement,
    CloseReason,
    ManualHandling,
    Order,
    OrderKind,
    OrderLine,
    PaymentFailure,
    PayStatus,
    agreement_code,
    new_order_code,
)
from core.ordering.payments import PaymentGateways, PaymentStart, payment_request, payment_validity, same_currency
from core.ordering.ports import OrderingUnitOfWork, ServicedDevice
from core.ordering.settlement import credit_devices, level_result
from core.ordering.unpaid_orders import close_with_provider, supersede_earlier
from core.pricing.level_change import LevelChange, ServiceState
from core.pricing.model import AlertKind, AlertPackage
from core.pricing.quotes import (
    SERVICE_NODE,
    DeviceQuote,
    find_level,
    one_type,
    plan_of,
    quote_devices,
    visible_devices,
)
from core.pricing.rules import alert_package_price, is_lifelong_term
from core.shared.clock import Clock
from core.shared.edition import Edition, PayType
from core.shared.errors import (
    AgreementActive,
    BillRequired,
    CountryCodeMismatch,
    InvalidInput,
    LevelNotOffered,
    NotFound,
    NothingToBuy,
    OrderNotPayable,
    PaymentFailed,
    PaymentMethodUnavailable,
    PayTypeNotOffered,
    PriceChanged,
)
from core.shared.messages import N_
from core.shared.money import Money, display_amount
from core.shared.paging import Page, PageRequest
from core.vouchers.errors import CouponReserved
from core.vouchers.model import Coupon, CouponQuote, VoucherState, normalized_code, quote_coupon

log = logging.getLogger(__name__)
WALLET_PAY_TYPES = frozenset({PayType.GOOGLE_PAY, PayType.CARD_PAYMENT_REQUEST})
# What a refused wallet payment answers (1112), in the payer's language.
FAILURE_MESSAGES = {
    PaymentFailure.DECLINED: N_("Your card was declined and nothing was charged. Try again, or use another card."),
    PaymentFailure.CANCELLED: N_("The payment was cancelled and nothing was charged."),
    PaymentFailure.FAILED: N_("The payment could not be completed. Please try again."),
}


@dataclass(frozen=True)
class OrderPlaced:
    order_id: int
    order_code: str
    total_cents: int
    payment: PaymentStart
    currency: str
    quotes: tuple[DeviceQuote, ...] = ()  # a service order's: what each device pays and will have


class _PlaceOrder:
    """What placing any order shares: the pay type, the batch bound, the bill, then storing the
    order and starting its payment."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, clock: Clock, edition: Edition) -> None:
        self._uow, self._gateways, self._clock, self._edition = uow, gateways, clock, edition
        self._currency = edition.profile.currency  # the only price list an edition reads

    def _check_pay_type(self, pay_type: PayType, camp: int) -> None:
        check_pay_type(pay_type, self._edition, self._gateways.at(camp))

    @staticmethod
    def _check_batch(device_ids: Sequence[int]) -> None:
        if not device_ids:
            raise InvalidInput("deviceIdList", N_("Choose at least one device"))
        if len(set(device_ids)) > MAX_DEVICES_PER_ORDER:
            raise InvalidInput("deviceIdList", N_("Order has too many products, contact support"))

    @staticmethod
    def _bill(uow: OrderingUnitOfWork, account_id: int, apply_flag: bool, bill_id: int | None) -> Bill | None:
        if not apply_flag:
            return None
        if bill_id is None:
            raise BillRequired()
        bill = uow.bills.get(account_id, bill_id)
        if bill is None:
            raise NotFound()
        return bill

    @staticmethod
    def _check_sim(devices: Sequence[Device], sim_iccid: str | None) -> None:
        if sim_iccid and (len(devices) != 1 or (devices[0].sim_iccid or "") != sim_iccid):
            raise InvalidInput("simIccid", N_("This is not the device's SIM card"))

    def _coupon(self, uow: OrderingUnitOfWork, account_id: int, code: str | None, client_fee: int | None,
                total: Money, now: datetime) -> tuple[Coupon, CouponQuote] | None:
        """The coupon a customer entered, priced on the order's total (None without one); its
        discount must be the one the client showed."""
        if not code:
            return None
        coupon = uow.coupons.by_code(normalized_code(code))
        held_by_caller = False
        if coupon is not None and coupon.state is VoucherState.RESERVED and coupon.order_id is not None:
            holder = uow.orders.get(coupon.order_id)
            held_by_caller = (holder is not None and holder.account_id == account_id
                              and holder.status is PayStatus.UNPAID)
        quote = quote_coupon(coupon, total.cents, total.currency, now, held_by_caller)
        if client_fee != quote.discount_cents:
            raise PriceChanged()
        assert coupon is not None
        return coupon, quote

    def _take_back(self, coupon: Coupon, account_id: int) -> None:
        """The coupon is held by the caller's own earlier unpaid order (the paying drawer asks for a
        new order at each change): that order is closed, superseded, which releases it."""
        with self._uow as uow:
            holder = uow.orders.get(coupon.order_id) if coupon.order_id is not None else None
        if holder is None or holder.account_id != account_id or holder.status is not PayStatus.UNPAID:
            return
        if not close_with_provider(self._uow, self._gateways.at(holder.camp)[holder.pay_type], holder,
                                   CloseReason.SUPERSEDED,
                                   self._clock.now()):
            raise CouponReserved()

    def _place(self, order: Order, coupon: tuple[Coupon, CouponQuote] | None = None) -> OrderPlaced:
        order = replace(order, expires_at=order.created_at + payment_validity(order.pay_type))
        if coupon is not None:
            held, quote = coupon
            if held.state is VoucherState.RESERVED:
                self._take_back(held, order.account_id)
            order = replace(order, order_fee_cents=quote.payable_cents, coupon_code=held.code,
                            coupon_discount_cents=quote.discount_cents)
        with self._uow as uow:
            order = uow.orders.add(order)
            # One conditional write: of two orders racing for one coupon, one reserves it; the
            # other's order is rolled back with it, never stored.
            if coupon is not None and not uow.coupons.reserve(coupon[0].id, order.stored_id, order.account_id,
                                                              order.created_at):
                raise CouponReserved()
            uow.commit()
        # The provider is called outside the transaction: an order whose payment could not start
        # stays unpaid and harmless, and no database lock waits on the network.
        request = payment_request(order)
        gateways = self._gateways.at(order.camp)
        recurring = gateways.recurring(order.pay_type) if order.auto_renew else None
        try:
            if recurring is not None:  # the payer authorises the renewals with this payment
                start = recurring.start_with_mandate(request, agreement_code(order.code))
            else:
                start = gateways[order.pay_type].start(request)
        except Exception as error:
            raise PaymentFailed(N_("Failed to create order, please contact customer service")) from error
        with self._uow as uow:
            uow.orders.set_payment(order.stored_id, start.payer_fields(), start.reference)
            uow.commit()
        # Each change in the paying drawer asks for a new order: the earlier ones stop being payable.
        supersede_earlier(self._uow, self._gateways, order, self._clock.now())
        return OrderPlaced(order.stored_id, order.code, order.order_fee_cents, start, order.currency)


def _sum(amounts: Iterable[Money]) -> Money:
    """The total of the prices shown (each in what its currency shows, so the total is too);
    amounts of different currencies are refused (Money.__add__)."""
    return functools.reduce(operator.add, amounts)


def check_pay_type(pay_type: PayType, edition: Edition, gateways: PaymentGateways) -> None:
    if pay_type not in edition.profile.pay_types:
        raise PayTypeNotOffered()
    if not gateways.offers(pay_type):
        raise PaymentMethodUnavailable()


class PlaceServiceOrder(_PlaceOrder):
    def __call__(self, cmd: CreateServiceOrder) -> OrderPlaced:
        self._check_pay_type(cmd.pay_type, cmd.camp)
        self._check_batch(cmd.device_ids)
        now = self._clock.now()
        with self._uow as uow:
            devices = visible_devices(uow, cmd.account_id, cmd.device_ids, operate=True)
            in_service(devices)
            self._check_sim(devices, cmd.sim_iccid)
            type_id = one_type(devices)
            if any(d.node_type != SERVICE_NODE for d in devices):
                raise LevelNotOffered()
            levels = uow.catalogue.levels_for_type(type_id, cmd.account_id, now, self._currency)
            level = find_level(levels, cmd.level_id, cmd.package_id)
            option = level.option(cmd.level_year_id)
            if option is None:
                raise LevelNotOffered()
            quotes = quote_devices(devices, levels, level, option, now)  # what each device pays and will have
            for device in devices:
                agreement = uow.agreements.active(device.id)
                if agreement is not None and agreement.level_id != level.id:
                    raise AgreementActive()
            bill = self._bill(uow, cmd.account_id, cmd.apply_flag, cmd.bill_id)
            prices = [q.price for q in quotes]
            total = _sum(p.per_device for p in prices)
            headline = prices[0]
            if (cmd.service_fee_cents != option.service_fee_cents or cmd.total_fee_cents != total.cents
                    or (cmd.activity_id is not None and cmd.activity_id != headline.activity_id)
                    or (cmd.presentation_month is not None and cmd.presentation_month != headline.bonus_months)):
                raise PriceChanged()
            coupon = self._coupon(uow, cmd.account_id, cmd.coupon_code, cmd.coupon_fee_cents, total, now)
        lines = tuple(OrderLine(device_id=q.device.id, fee_cents=q.price.per_device_cents, level_id=level.id,
                                level_year_id=option.id, months=option.months, bonus_months=q.price.bonus_months,
                                promise=q.change)
                      for q in quotes)
        if cmd.auto_renew and (len(lines) != 1 or self._gateways.at(cmd.camp).recurring(cmd.pay_type) is None
                               or is_lifelong_term(option.months)):
            raise RenewalNotOffered()
        return replace(self._place(Order(
            id=None, code=new_order_code(now), account_id=cmd.account_id, kind=OrderKind.SERVICE,
            pay_type=cmd.pay_type, currency=total.currency, order_fee_cents=total.cents,
            apply_flag=cmd.apply_flag, description=level.name, created_at=now, lines=lines,
            bill_id=bill.id if bill else None, invoice=bill.snapshot() if bill else None,
            activity_id=headline.activity_id, auto_renew=cmd.auto_renew, camp=cmd.camp), coupon),
            quotes=tuple(quotes))


class PlaceAlertOrder(_PlaceOrder):
    def __call__(self, cmd: CreateAlertOrder) -> OrderPlaced:
        self._check_pay_type(cmd.pay_type, cmd.camp)
        self._check_batch(cmd.device_ids)
        fixed = self._edition.profile.fixed_country_code
        if fixed is not None and cmd.country_code != fixed:
            raise InvalidInput("countryCode", N_("The country code is {code}"), code=fixed)
        if cmd.sms_package_id is None and cmd.voice_package_id is None:
            raise NothingToBuy()
        now = self._clock.now()
        with self._uow as uow:
            devices = visible_devices(uow, cmd.account_id, cmd.device_ids, operate=True)
            in_service(devices)
            self._check_sim(devices, cmd.sim_iccid)
            codes = {d.country_code for d in devices if d.country_code} | {cmd.country_code}
            if len(codes) > 1:
                raise CountryCodeMismatch()
            sms = self._package(uow, cmd.sms_package_id, AlertKind.SMS, cmd.country_code)
            voice = self._package(uow, cmd.voice_package_id, AlertKind.VOICE, cmd.country_code)
            bill = self._bill(uow, cmd.account_id, cmd.apply_flag, cmd.bill_id)
            sms_count, voice_count = (sms.count if sms else 0), (voice.count if voice else 0)
            per_device = _sum(Money(alert_package_price(p), p.currency) for p in (sms, voice) if p)
            total = per_device.times(len(devices))
            if (cmd.sms_count != sms_count or cmd.voice_count != voice_count
                    or cmd.sms_fee_cents != (sms.fee_cents if sms else 0)
                    or cmd.voice_fee_cents != (voice.fee_cents if voice else 0)
                    or cmd.total_fee_cents != total.cents):
                raise PriceChanged()
            coupon = self._coupon(uow, cmd.account_id, cmd.coupon_code, cmd.coupon_fee_cents, total, now)
        lines = tuple(OrderLine(device_id=d.id, fee_cents=per_device.cents, sms_count=sms_count,
                                voice_count=voice_count) for d in devices)
        return self._place(Order(
            id=None, code=new_order_code(now), account_id=cmd.account_id, kind=OrderKind.ALERTS,
            pay_type=cmd.pay_type, currency=total.currency, order_fee_cents=total.cents,
            apply_flag=cmd.apply_flag, description=" + ".join(p.name for p in (sms, voice) if p), created_at=now,
            lines=lines, bill_id=bill.id if bill else None, invoice=bill.snapshot() if bill else None,
            country_code=cmd.country_code, camp=cmd.camp), coupon)

    def _package(self, uow: OrderingUnitOfWork, package_id: int | None, kind: AlertKind,
                 country_code: str) -> AlertPackage | None:
        if package_id is None:
            return None
        package = uow.catalogue.alert_package(package_id, self._currency)
        if package is None or package.kind is not kind or package.country_code != country_code:
            raise LevelNotOffered()
        return package


def _own_order(uow: OrderingUnitOfWork, account_id: int, order_id: int) -> Order:
    """The caller's order; another account's is answered as one that does not exist."""
    order = uow.orders.get(order_id)
    if order is None or order.account_id != account_id:
        raise NotFound()
    return order


class GetOrder:
    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, order_id: int) -> Order:
        with self._uow as uow:
            return _own_order(uow, account_id, order_id)


class ListMyOrders:
    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, status: PayStatus | None, request: PageRequest) -> Page[Order]:
        with self._uow as uow:
            return uow.orders.page(account_id, status, request)


class SettlementOutcome(StrEnum):
    SETTLED = "settled"  # paid now, devices credited
    ALREADY_SETTLED = "alreadySettled"  # a repeated notification: nothing more happens
    ALREADY_REFUNDED = "alreadyRefunded"  # paid, then refunded: nothing more happens
    UNKNOWN_ORDER = "unknownOrder"
    CURRENCY_MISMATCH = "currencyMismatch"
    AMOUNT_MISMATCH = "amountMismatch"
    # Paid although closed (superseded, cancelled, expired): the provider took the payer's money as
    # the order closed. The money is the customer's: the order is settled all the same.
    SETTLED_CLOSED = "settledClosed"
    NOT_PAYABLE = "notPayable"  # closed, and its payer page's close is exact (development)

    @property
    def paid(self) -> bool:
        """The order is paid now (by this payment or an earlier one)."""
        return self in (SettlementOutcome.SETTLED, SettlementOutcome.SETTLED_CLOSED, SettlementOutcome.ALREADY_SETTLED)


class SettleOrder:
    """An order becomes paid once and only once, however many notifications arrive and however
    many arrive together: the unpaid (or closed) -> paid write is conditional, and only the one
    that makes it credits the devices (and asks for the invoice an order placed with applyFlag
    wants), in the same transaction. Only what the order charges, in its own currency, pays it:
    an amount in another currency is no payment of it, whatever the figure."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock, default_language: str = "en-US") -> None:
        self._uow, self._clock, self._language = uow, clock, default_language

    def __call__(self, order_code: str, amount_cents: int, currency: str | None,
                 reference: str | None = None, *, closed_pays: bool = True,
                 handling: ManualHandling | None = None, tell_payer: bool = True) -> SettlementOutcome:
        """`closed_pays` False: the payment comes from a payer page whose close is exact (the
        development gateway's), so a closed order is not payable there. `handling`: an operator
        settles it on the provider's answer (core.ordering.back_office), recorded in its history
        in the same transaction. `tell_payer` False: the caller tells the payer itself (an automatic
        renewal's own message says it was charged)."""
        now = self._clock.now()
        with self._uow as uow:
            order = uow.orders.by_code(order_code)
            if order is None:
                return SettlementOutcome.UNKNOWN_ORDER
            if order.status in PAID_STATES:
                return SettlementOutcome.ALREADY_SETTLED
            if order.status is PayStatus.REFUNDED:
                return SettlementOutcome.ALREADY_REFUNDED
            if order.status is PayStatus.CLOSED and not closed_pays:
                return SettlementOutcome.NOT_PAYABLE
            if not same_currency(currency, order.currency):
                return SettlementOutcome.CURRENCY_MISMATCH
            if amount_cents != order.order_fee_cents:
                return SettlementOutcome.AMOUNT_MISMATCH
            if not uow.orders.mark_paid(order.stored_id, amount_cents, now, reference):
                return SettlementOutcome.ALREADY_SETTLED
            if order.coupon_code and not uow.coupons.spend(order.stored_id, order.coupon_code, order.account_id,
                                                          now):
                # Closed (its coupon released) and taken by another order before this payment
                # came: the payer paid the discounted price, which is honoured; support sees it.
                log.warning("order %s paid, but its coupon %s was taken by another order meanwhile", order.code,
                            order.coupon_code)
            if handling is not None:
                uow.orders.record_event(handling.event(order.stored_id, now))
            credit_devices(uow, order, now)
            open_for_paid_order(uow, order, amount_cents, now)  # placed with applyFlag: its invoice is asked for
            if tell_payer:
                post(uow, SystemMessage(order.account_id, MessageKind.PAYMENT, ORDER_PAID,
                                        {"orderCode": order.code,
                                         "amount": display_amount(amount_cents, order.currency),
                                         "currency": order.currency}, now), self._language)
            uow.commit()
        return SettlementOutcome.SETTLED if order.status is PayStatus.UNPAID else SettlementOutcome.SETTLED_CLOSED


@dataclass(frozen=True)
class LineResult:
    """What a device of an unpaid service order would get if the order were paid now."""

    line: OrderLine
    current_level_name: str | None
    change: LevelChange


class PreviewLevelResults:
    """What each device of an unpaid service order would get if it were paid now, as settlement
    would give it (Pay in My orders says it again before paying). A device whose change the rule
    now refuses, or that the caller no longer sees, is left out."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, order: Order) -> list[LineResult]:
        if order.kind is not OrderKind.SERVICE:
            return []
        now = self._clock.now()
        results = []
        with self._uow as uow:
            devices = {d.id: d for d in uow.device_registry.visible_many(order.account_id, order.device_ids)}
            for line in order.lines:
                device = devices.get(line.device_id)
                if device is None:
                    continue
                serviced = ServicedDevice(ServiceState(device.level_id, device.service_expires_at), device.type_id,
                                          plan_of(device))
                change = level_result(uow, order, line, serviced, now)
                if change is not None:
                    results.append(LineResult(line, device.level_name, change))
        return results


class ConfirmWalletPayment:
    """A wallet payment (Google Pay, the card payment-request button): the provider charges the
    payment method at once and the order is settled on its answer."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, settle: SettleOrder,
                 edition: Edition) -> None:
        self._uow, self._gateways, self._settle, self._edition = uow, gateways, settle, edition

    def __call__(self, cmd: ConfirmPayment) -> PayStatus:
        if cmd.pay_type not in WALLET_PAY_TYPES:
            raise PayTypeNotOffered()
        with self._uow as uow:
            order = _own_order(uow, cmd.account_id, cmd.order_id)
        gateways = self._gateways.at(order.camp)
        check_pay_type(cmd.pay_type, self._edition, gateways)
        if order.status is PayStatus.PAID:
            return order.status
        if order.status is not PayStatus.UNPAID:
            raise OrderNotPayable()
        if cmd.pay_fee_cents != order.order_fee_cents:
            raise PriceChanged()
        try:
            result = gateways[cmd.pay_type].confirm(replace(payment_request(order), pay_type=cmd.pay_type),
                                                    cmd.payment_method_id)
        except Exception as error:  # the provider did not answer: nothing was confirmed here
            raise PaymentFailed(failure=PaymentFailure.FAILED) from error
        if not result.paid:
            failure = result.failure or PaymentFailure.FAILED
            if result.failure is not None:  # the payer's attempt was refused: the order says so
                with self._uow as uow:
                    uow.orders.record_failure(order.stored_id, result.failure, result.attempt)
                    uow.commit()
            raise PaymentFailed(FAILURE_MESSAGES[failure], failure=failure)
        outcome = self._settle(order.code, result.amount_cents, result.currency, result.reference)
        if not outcome.paid:
            raise PaymentFailed()
        return PayStatus.PAID


class GetCurrentService:
    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_id: int) -> Agreement | None:
        with self._uow as uow:
            visible_devices(uow, account_id, [device_id])
            return uow.agreements.active(device_id)

