"""Automatic renewal that really charges (issue 19; spec seed 000 sections 2 and 4: current service,
auto-renew, unAgreement).

- A customer paying a year of a level for one device may ask to renew automatically: the payment
  starts through the provider's own recurring mechanism (core.ordering.payments.RecurringPayments),
  so the payer authorises later charges with it.
- Once the order is paid, SignAgreements asks the provider for the authorisation and records the
  agreement: the device's level and service time, at the price paid for the device, charged again
  RENEW_BEFORE its service runs out.
- ChargeDueAgreements (a scheduled job) tells the customer REMIND_BEFORE a charge, then charges each
  due agreement: a renewal order is placed and charged under the authorisation, and settled as any
  paid order is (SettleOrder: once). A run takes a due charge with a conditional write and keeps the
  renewal order, so a run resumed after a crash charges the same order again (the provider's
  idempotency makes it one charge), never a second one. A failed charge is retried after
  RETRIES[n]; after the last, the agreement ends; the customer is told each time.
- The customer cancels it (unAgreement) here and at the provider.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from core.devices.expiry import is_lifelong
from core.inbox.model import MessageKind, SystemMessage
from core.inbox.posting import post
from core.ordering.model import (
    RENEWAL_CHARGED,
    RENEWAL_DUE,
    RENEWAL_ENDED,
    RENEWAL_FAILED,
    RENEWAL_REVOKED,
    Agreement,
    CloseReason,
    Order,
    OrderKind,
    OrderLine,
    PayStatus,
    agreement_code,
    new_order_code,
)
from core.ordering.payments import (
    MandateEnded,
    PaymentGateways,
    PaymentResult,
    Provider,
    payment_request,
    provider_of,
)
from core.ordering.ports import OrderingUnitOfWork
from core.ordering.use_cases import SettleOrder, visible_devices
from core.shared.clock import Clock
from core.shared.edition import PayType
from core.shared.errors import NoActiveAgreement
from core.shared.money import display_amount

log = logging.getLogger("coldchain.payments.renewals")

RENEW_BEFORE = timedelta(days=1)  # a renewal is charged this long before the service runs out
REMIND_BEFORE = timedelta(days=3)  # the customer is told of a charge this long before it
RETRIES = (timedelta(days=1), timedelta(days=2))  # after the first and second failures; the third ends it
HOLD = timedelta(minutes=30)  # a run's hold on a due charge: then another run may resume it
# A charge the provider accepted but has yet to take is asked about again by the next runs (each
# after HOLD), never charged anew, for this long after its renewal order was placed; then it is a
# failure like a refusal (and the order closed with it).
PENDING_FOR = timedelta(days=1)
SIGN_WITHIN = timedelta(days=2)  # a paid order's authorisation is looked for this long
BATCH = 100


@dataclass(frozen=True)
class RenewalRun:
    reminded: int = 0
    charged: int = 0
    failed: int = 0
    ended: int = 0
    pending: int = 0  # accepted by the provider, not yet taken: asked about again by a later run


def _message(uow: OrderingUnitOfWork, agreement: Agreement, template: str, language: str, now: datetime,
             **params: object) -> None:
    assert agreement.account_id is not None
    dated = {k: f"{v:%Y-%m-%d}" if isinstance(v, datetime) else v for k, v in params.items()}  # UTC days
    post(uow, SystemMessage(agreement.account_id, MessageKind.PAYMENT, template,
                            {"device": agreement.device_id, "level": agreement.level_name,
                             "amount": display_amount(agreement.total_fee_cents, agreement.currency),
                             "currency": agreement.currency, **dated}, now), language)


class SignAgreements:
    """Records the agreement of each paid order whose payer asked for automatic renewal, once the
    provider says the payer authorised it."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, clock: Clock) -> None:
        self._uow, self._gateways, self._clock = uow, gateways, clock

    def __call__(self) -> int:
        now = self._clock.now()
        with self._uow as uow:
            orders = uow.agreements.unsigned_orders(now - SIGN_WITHIN, BATCH)
        signed = 0
        for order in orders:
            recurring = self._gateways.at(order.camp).recurring(order.pay_type)
            if recurring is None or len(order.lines) != 1:
                continue
            try:
                mandate = recurring.mandate(payment_request(order), agreement_code(order.code))
            except Exception:  # one provider's outage must not stop the others
                log.exception("the authorisation of order %s could not be asked for", order.code)
                continue
            if mandate is None:
                continue
            with self._uow as uow:
                order = uow.orders.get(order.stored_id) or order
                line = order.lines[0]
                if line.level_id is None or line.level_year_id is None or line.settled_expires_at is None:
                    continue
                names = uow.catalogue.level_names([line.level_id], ())
                uow.agreements.add(Agreement(
                    line.device_id, line.level_id, names.get(line.level_id, order.description), line.level_year_id,
                    int(order.pay_type), line.fee_cents, order.currency, line.settled_expires_at - RENEW_BEFORE,
                    account_id=order.account_id, code=agreement_code(order.code), mandate=mandate, camp=order.camp),
                    order.stored_id, now)
                uow.commit()
            signed += 1
        return signed


class ChargeDueAgreements:
    """The scheduled job: reminders, then every due charge."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, settle: SettleOrder, clock: Clock,
                 default_language: str = "en-US") -> None:
        self._uow, self._gateways, self._settle, self._clock = uow, gateways, settle, clock
        self._language = default_language

    def __call__(self) -> RenewalRun:
        now = self._clock.now()
        reminded = self._remind(now)
        with self._uow as uow:
            due = uow.agreements.due(now, BATCH)
        charged = failed = ended = pending = 0
        for agreement in due:
            outcome = self._charge(agreement, now)
            charged += outcome == "charged"
            failed += outcome in ("failed", "ended")
            ended += outcome == "ended"
            pending += outcome == "pending"
        return RenewalRun(reminded, charged, failed, ended, pending)

    def _remind(self, now: datetime) -> int:
        with self._uow as uow:
            upcoming = uow.agreements.to_remind(now + REMIND_BEFORE, BATCH)
            for agreement in upcoming:
                _message(uow, agreement, RENEWAL_DUE, self._language, now, date=agreement.next_execution_at)
                uow.agreements.mark_reminded(agreement.stored_id, agreement.next_execution_at)
            uow.commit()
        return len(upcoming)

    def _charge(self, agreement: Agreement, now: datetime) -> str:
        order = self._renewal_order(agreement, now)
        if order is None:
            return "taken"
        recurring = self._gateways.at(agreement.camp).recurring(order.pay_type)
        try:
            if recurring is None or agreement.mandate is None:
                raise RuntimeError("the provider's recurring payments are switched off")
            result = recurring.charge(agreement.mandate, payment_request(order))
        except Exception as error:  # no answer: a failure like a refusal (the order code makes a retry the same)
            log.exception("renewal %s of agreement %s: the provider did not answer", order.code, agreement.id)
            result = PaymentResult(paid=False, error=str(error)[:100] or type(error).__name__)
        if result.paid:
            outcome = self._settle(order.code, result.amount_cents, result.currency, result.reference,
                                   tell_payer=False)  # RENEWAL_CHARGED tells
            if outcome.paid:
                with self._uow as uow:
                    settled = uow.orders.get(order.stored_id)
                    expiry = settled.lines[0].settled_expires_at if settled else None
                    if expiry is None or expiry - RENEW_BEFORE <= now:
                        # paid, but the device could not take it (its line says so; support refunds
                        # it): charging on would take money for nothing, so the agreement ends
                        log.error("renewal %s paid but not credited: agreement %s ends", order.code, agreement.id)
                        uow.agreements.charge_failed(agreement.stored_id, len(RETRIES) + 1, None, "notCredited")
                        _message(uow, agreement, RENEWAL_ENDED, self._language, now)
                        uow.commit()
                        return "ended"
                    uow.agreements.charged(agreement.stored_id, expiry - RENEW_BEFORE)
                    _message(uow, agreement, RENEWAL_CHARGED, self._language, now, orderCode=order.code,
                             date=expiry)
                    uow.commit()
                return "charged"
            result = replace(result, paid=False, error=outcome.value)
        elif result.pending and now < order.created_at + PENDING_FOR:
            # Closing it now would let the deduction land on a closed order while a retry charges
            # again: the hold stands, and the run after it asks the provider about this same charge.
            log.info("renewal %s of agreement %s accepted by the provider, not yet taken", order.code, agreement.id)
            return "pending"
        return self._failed(agreement, order, result.error or "declined", now)

    def _renewal_order(self, agreement: Agreement, now: datetime) -> Order | None:
        """The run's renewal order, taken with the due charge: the one an interrupted run left
        (charged again under its code, the provider answers with the same charge), or a new one;
        None when another run took the charge, or the agreement ended because its level's service
        time is no longer offered for the device."""
        with self._uow as uow:
            left = uow.orders.get(agreement.charging_order_id) if agreement.charging_order_id else None
            if left is not None and left.status is not PayStatus.CLOSED:
                order = left
            else:
                months = self._months(uow, agreement, now)
                if months is None:
                    uow.agreements.charge_failed(agreement.stored_id, len(RETRIES) + 1, None, "levelNotOffered")
                    _message(uow, agreement, RENEWAL_ENDED, self._language, now)
                    uow.commit()
                    return None
                order = uow.orders.add(Order(
                    None, new_order_code(now), agreement.account_id or 0, OrderKind.SERVICE,
                    PayType(agreement.pay_type), agreement.currency, agreement.total_fee_cents, False,
                    agreement.level_name, now, (OrderLine(agreement.device_id, agreement.total_fee_cents,
                                                          agreement.level_id, agreement.level_year_id, months),),
                    camp=agreement.camp))
            if not uow.agreements.claim(agreement.stored_id, agreement.next_execution_at, now + HOLD,
                                        order.stored_id):
                return None  # rolled back with a new order: another run charges it
            uow.commit()
            return order

    @staticmethod
    def _months(uow: OrderingUnitOfWork, agreement: Agreement, now: datetime) -> int | None:
        """The months of the agreement's service time, as the catalogue offers it for the device now."""
        device = uow.device_service.services_for_update([agreement.device_id]).get(agreement.device_id)
        if device is None or (device.service.expires_at is not None and is_lifelong(device.service.expires_at)):
            return None  # deleted, or lifelong since: nothing to renew
        levels = uow.catalogue.levels_for_type(device.type_id, agreement.account_id or 0, now, agreement.currency)
        return next((o.months for lv in levels if lv.id == agreement.level_id for o in lv.options
                     if o.id == agreement.level_year_id), None)

    def _failed(self, agreement: Agreement, order: Order, error: str, now: datetime) -> str:
        failures = agreement.failures + 1
        retry = now + RETRIES[failures - 1] if failures <= len(RETRIES) else None
        with self._uow as uow:
            uow.orders.mark_closed(order.stored_id, now, CloseReason.EXPIRED)
            uow.agreements.charge_failed(agreement.stored_id, failures, retry, error[:200])
            if retry is None:
                _message(uow, agreement, RENEWAL_ENDED, self._language, now)
            else:
                _message(uow, agreement, RENEWAL_FAILED, self._language, now, date=retry)
            uow.commit()
        log.warning("renewal %s of agreement %s failed (%s), %s", order.code, agreement.id, error,
                    "ended" if retry is None else f"retried at {retry:%Y-%m-%d %H:%M}")
        return "ended" if retry is None else "failed"


class CancelAgreement:
    """unAgreement: the customer ends the device's automatic renewal here and at the provider. A
    provider that does not answer does not keep it running: nothing is charged any more, since
    only this console charges it; the provider's side is logged for support."""

    def __init__(self, uow: OrderingUnitOfWork, gateways: PaymentGateways, clock: Clock) -> None:
        self._uow, self._gateways, self._clock = uow, gateways, clock

    def __call__(self, account_id: int, device_id: int) -> None:
        with self._uow as uow:
            visible_devices(uow, account_id, [device_id], operate=True)
            agreement = uow.agreements.active(device_id)
            if agreement is None:
                raise NoActiveAgreement()
            if not uow.agreements.cancel(device_id, self._clock.now()):
                raise NoActiveAgreement()
            uow.commit()
        recurring = self._gateways.at(agreement.camp).recurring(PayType(agreement.pay_type))
        if recurring is not None and agreement.mandate and agreement.code:
            try:
                recurring.cancel(agreement.mandate, agreement.code)
            except Exception:
                log.exception("agreement %s cancelled here, but not at its provider", agreement.id)


class EndRevokedAgreement:
    """The provider's word that a payer's authorisation has ended (the payer cancelled it in WeChat
    or Alipay): its active agreement ends at once, so nothing is charged or promised under it, and
    the customer is told. One ended already (by unAgreement, whose end the provider also tells), or
    not of this provider's and camp's account, changes nothing. Whether it ended one."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock, default_language: str = "en-US") -> None:
        self._uow, self._clock, self._language = uow, clock, default_language

    def __call__(self, provider: Provider, note: MandateEnded, camp: int = 0) -> bool:
        with self._uow as uow:
            agreement = uow.agreements.by_code(note.code)
            if (agreement is None or provider_of(PayType(agreement.pay_type)) is not provider
                    or agreement.camp != camp
                    or (note.mandate and agreement.mandate and note.mandate != agreement.mandate)):
                return False
            uow.agreements.charge_failed(agreement.stored_id, agreement.failures, None, "revokedByPayer")
            _message(uow, agreement, RENEWAL_REVOKED, self._language, self._clock.now())
            uow.commit()
        log.info("agreement %s ended: its authorisation was cancelled at %s", agreement.id, provider.value)
        return True
