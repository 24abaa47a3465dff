"""Automatic renewal on fakes, in milliseconds (core.ordering.renewals): an order asking for it
starts with the provider's authorisation; once paid, the agreement is signed; the job reminds,
charges on the date and settles once; a failed charge is retried on a schedule and the agreement
ends after the last; a run resumed after a crash charges the same renewal order again, never a
second one; cancelling ends it at the provider too. (Through the API and each provider's sandbox:
tests/integration/test_renewals_api.py and the providers' recurring tests.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.devices.expiry import LIFELONG_EXPIRY
from core.devices.model import NewDevice, add_months
from core.inbox.model import Recipient
from core.ordering.commands import CreateServiceOrder
from core.ordering.errors import RenewalNotOffered
from core.ordering.model import RENEWAL_CHARGED, RENEWAL_DUE, RENEWAL_ENDED, RENEWAL_FAILED, PayStatus
from core.ordering.renewals import RENEW_BEFORE, CancelAgreement, ChargeDueAgreements, SignAgreements
from core.shared.edition import PayType
from tests.unit.fakes import FakePaymentGateways
from tests.unit.test_ordering_use_cases import LOGGER, OWNER, STANDARD, YEAR, Shop

NOW = datetime(2026, 5, 31, 12, 0, tzinfo=UTC)


class Renewals(Shop):
    """A shop whose device was paid for a year with automatic renewal, and the jobs."""

    def __init__(self) -> None:
        super().__init__()
        self.uow.inbox.recipients[OWNER] = Recipient("13800000001", "alice@example.com", "en-US")
        gateways = FakePaymentGateways(self.gateway)
        self.sign = SignAgreements(self.uow, gateways, self.clock)
        self.charge = ChargeDueAgreements(self.uow, gateways, self.settle, self.clock)
        self.cancel_renewal = CancelAgreement(self.uow, gateways, self.clock)
        self.placed = self.place(CreateServiceOrder(
            OWNER, (self.device_id,), STANDARD.id, YEAR.id, STANDARD.package_id, PayType.WECHAT,
            YEAR.service_fee_cents, YEAR.service_fee_cents, auto_renew=True))
        self.pay(self.placed)

    @property
    def agreement(self):
        return self.uow.agreements.active(self.device_id)

    @property
    def expiry(self) -> datetime | None:
        return self.uow.device_registry.devices[self.device_id].service_expires_at

    def messages(self) -> list[str]:
        return [m.template for m in self.uow.inbox.rows]

    def at(self, moment: datetime) -> None:
        self.clock.advance(seconds=(moment - self.clock.now()).total_seconds())


def test_the_order_starts_with_the_authorisation_and_the_paid_order_signs_the_agreement_once():
    shop = Renewals()
    assert shop.gateway.mandates_asked == [f"AR{shop.placed.order_code}"]
    assert shop.sign() == 1 and shop.sign() == 0
    agreement = shop.agreement
    assert agreement is not None and agreement.mandate == f"mandate-AR{shop.placed.order_code}"
    assert (agreement.total_fee_cents, agreement.next_execution_at) == (YEAR.service_fee_cents,
                                                                        add_months(NOW, 12) - RENEW_BEFORE)


def test_automatic_renewal_is_for_one_device():
    shop = Renewals()
    second = shop.uow.device_registry.add(NewDevice(
        "RCW360A0000002", "Freezer", LOGGER.id, OWNER, None, None, "86", 1, "C", None, NOW))  # type: ignore[arg-type]
    with pytest.raises(RenewalNotOffered):
        shop.place(CreateServiceOrder(OWNER, (shop.device_id, second), STANDARD.id, YEAR.id, STANDARD.package_id,
                                      PayType.WECHAT, YEAR.service_fee_cents, 2 * YEAR.service_fee_cents,
                                      auto_renew=True))


def test_the_job_reminds_once_then_charges_on_the_date_and_the_service_runs_a_year_more():
    shop = Renewals()
    shop.sign()
    due = shop.agreement.next_execution_at
    paid_until = shop.expiry
    shop.at(due - timedelta(days=2))
    run = shop.charge()
    assert (run.reminded, run.charged) == (1, 0) and shop.charge().reminded == 0  # told once
    shop.at(due)
    run = shop.charge()
    assert (run.charged, run.failed) == (1, 0)
    assert shop.expiry == add_months(paid_until, 12)
    renewal = [o for o in shop.uow.orders.rows.values() if o.code != shop.placed.order_code]
    assert [(o.status, o.order_fee_cents, o.pay_type) for o in renewal] == [(PayStatus.PAID, YEAR.service_fee_cents,
                                                                              PayType.WECHAT)]
    assert shop.agreement.next_execution_at == add_months(paid_until, 12) - RENEW_BEFORE
    assert shop.messages()[-2:] == [RENEWAL_DUE, RENEWAL_CHARGED]  # one message a charge, not 'order paid' too
    assert shop.charge().charged == 0  # nothing due any more


def test_a_failed_charge_is_retried_and_the_agreement_ends_after_the_third():
    shop = Renewals()
    shop.sign()
    shop.gateway.charges = [False, False, False]
    paid_until = shop.expiry
    shop.at(shop.agreement.next_execution_at)
    assert shop.charge().failed == 1
    assert (shop.agreement.failures, shop.agreement.next_execution_at) == (1, shop.clock.now() + timedelta(days=1))
    shop.at(shop.agreement.next_execution_at)
    shop.charge()
    assert shop.agreement.next_execution_at == shop.clock.now() + timedelta(days=2)
    shop.at(shop.agreement.next_execution_at)
    assert shop.charge().ended == 1 and shop.agreement is None
    assert shop.expiry == paid_until and shop.messages()[-3:] == [RENEWAL_FAILED, RENEWAL_FAILED, RENEWAL_ENDED]
    closed = [o for o in shop.uow.orders.rows.values() if o.code != shop.placed.order_code]
    assert len(closed) == 3 and {o.status for o in closed} == {PayStatus.CLOSED}


def test_a_failure_then_a_success_charges_once_and_clears_the_failures():
    shop = Renewals()
    shop.sign()
    shop.gateway.charges = [False]
    shop.at(shop.agreement.next_execution_at)
    shop.charge()
    shop.at(shop.agreement.next_execution_at)
    assert shop.charge().charged == 1 and shop.agreement.failures == 0
    assert sum(o.status is PayStatus.PAID for o in shop.uow.orders.rows.values()) == 2


def test_a_run_resumed_after_a_crash_charges_the_same_renewal_order_again():
    shop = Renewals()
    shop.sign()
    due = shop.agreement.next_execution_at
    shop.at(due)
    # as if a run had taken the charge, placed its order and stopped before the provider answered
    order = shop.charge._renewal_order(shop.agreement, shop.clock.now())
    assert order is not None and shop.charge().charged == 0  # held: no second run takes it
    shop.clock.advance(minutes=31)
    assert shop.charge().charged == 1
    assert shop.gateway.charged == [order.code]  # that order, not a new one
    assert sum(o.status is PayStatus.PAID for o in shop.uow.orders.rows.values()) == 2


def test_cancelling_ends_it_here_and_at_the_provider_and_nothing_is_charged():
    shop = Renewals()
    shop.sign()
    mandate = shop.agreement.mandate
    shop.cancel_renewal(OWNER, shop.device_id)
    assert shop.agreement is None and shop.gateway.cancelled == [mandate]
    shop.at(add_months(NOW, 12))
    assert shop.charge().charged == 0 and shop.gateway.charged == []


def test_no_authorisation_no_agreement():
    shop = Renewals()
    shop.gateway.mandate = lambda request, code: None  # type: ignore[method-assign]
    assert shop.sign() == 0 and shop.agreement is None


def test_a_device_lifelong_since_is_not_charged_and_its_agreement_ends():
    shop = Renewals()
    shop.sign()
    shop.uow.device_registry.update(shop.device_id, {"service_expires_at": LIFELONG_EXPIRY})
    shop.at(shop.agreement.next_execution_at)
    assert shop.charge().charged == 0 and shop.gateway.charged == []
    assert shop.agreement is None and shop.messages()[-1] == RENEWAL_ENDED
