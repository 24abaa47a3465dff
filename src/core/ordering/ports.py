from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.devices.ports import DeviceRepository
from core.inbox.ports import Inbox
from core.notifications.ports import OutboxRepository
from core.ordering.bills import Bill
from core.ordering.invoice_model import Delivery, InvoiceFile, InvoiceFilter, InvoiceRequest, InvoiceRequestStatus
from core.ordering.model import (
    Agreement,
    CloseReason,
    DeskOrder,
    Order,
    OrderEvent,
    OrderFilter,
    OrderKind,
    OrderMove,
    PaymentFailure,
    PayStatus,
)
from core.ordering.offline_model import (
    Candidate,
    Customer,
    OfflineDevice,
    OfflineFilter,
    OfflinePurchase,
    OfflineStatus,
)
from core.ordering.payments import NotificationRecord
from core.ordering.refund_model import Refund, RefundStatus
from core.ordering.revenue import DeviceCounts, Figures, Period
from core.ordering.take_back import DeviceHolding, TakeBack
from core.pricing.level_change import ServiceState
from core.pricing.ports import CatalogueRepository
from core.pricing.rules import DataPlan
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction
from core.vouchers.ledger import CouponLedger


class OrderRepository(Protocol):
    def add(self, order: Order) -> Order:
        """Stores the order and its lines; returns it as stored: with its id, and each line with
        its device's name of now."""
        ...

    def get(self, order_id: int) -> Order | None: ...

    def by_code(self, code: str) -> Order | None: ...

    def set_payment(self, order_id: int, payment: dict[str, str], reference: str | None) -> None:
        """What the provider returned when the payment started."""
        ...

    def mark_paid(self, order_id: int, pay_fee_cents: int, paid_at: datetime, reference: str | None) -> bool:
        """Unpaid (or closed) -> paid, with the provider's settlement reference, in one conditional
        write; False when it was neither any more (a concurrent or repeated settlement). Only the
        caller that gets True applies the order."""
        ...

    def page(self, account_id: int, status: PayStatus | None, request: PageRequest) -> Page[Order]:
        """The account's orders, newest first, but those superseded unpaid (drafts of the paying
        drawer, which the customer never chose to keep)."""
        ...

    def by_reference(self, reference: str) -> Order | None:
        """The order whose payment the provider knows by this id."""
        ...

    def unpaid_created_before(self, instant: datetime, limit: int) -> list[Order]:
        """Unpaid orders placed before the instant, oldest first."""
        ...

    def record_service_result(self, order_id: int, device_id: int, expires_at: datetime | None,
                              recomputed: bool) -> None:
        """What settlement gave the device of a service line, and whether it was computed anew."""
        ...

    def mark_closed(self, order_id: int, at: datetime, reason: CloseReason) -> bool:
        """Unpaid -> closed in one conditional write; False when it was not unpaid any more."""
        ...

    def unpaid_for_devices(self, account_id: int, kind: OrderKind, device_ids: Sequence[int],
                           before_id: int) -> list[Order]:
        """The account's unpaid orders of the kind for exactly these devices, with ids below
        `before_id`."""
        ...

    def lock(self, order_id: int) -> Order | None:
        """The order, its row locked until the transaction ends (refunds of one order queue)."""
        ...

    def move_refunded(self, order_id: int, cents: int, move: OrderMove, at: datetime,
                      actor_id: int | None = None) -> bool:
        """One of the refund moves of ORDER_TRANSITIONS, adding `cents` (negative: given back) to
        what is refunded, in one conditional write, entered in the order's history as the actor's
        (None: the provider's answer); False when the order was in none of its sources."""
        ...

    def record_event(self, event: OrderEvent) -> None:
        """An entry of the order's history beside the moves its state writes record themselves
        (an operator's manual handling)."""
        ...

    def record_failure(self, order_id: int, failure: PaymentFailure, attempt: str | None) -> bool:
        """An unpaid order's failed attempt, in one conditional write: its reason, and one more
        failure counted, unless `attempt` (the provider's id of it) is the one recorded last (a
        decline told by the confirmation's answer and again by the webhook). False when nothing
        changed."""
        ...

    def set_invoice_wanted(self, order_ids: Sequence[int], wanted: bool) -> None:
        """applyFlag ("an invoice is wanted") of the orders: set by a request, cleared by its rejection."""
        ...

    def mark_invoiced(self, order_ids: Sequence[int]) -> None:
        """The orders' invoice status becomes invoiced (their invoice was issued)."""
        ...


class PaymentNotificationRepository(Protocol):
    """Every notification a provider sent, with the verdict on it, for audit."""

    def add(self, record: NotificationRecord) -> None: ...

    def recent(self, limit: int) -> list[NotificationRecord]:
        """Newest first."""
        ...


@dataclass(frozen=True)
class ServicedDevice:
    """What settling a service order reads of a device: its service, and what prices it."""

    service: ServiceState
    type_id: int
    plan: DataPlan


class DeviceServiceRepository(Protocol):
    """The service state of devices, written when an order is settled."""

    def services_for_update(self, device_ids: Sequence[int]) -> dict[int, ServicedDevice]:
        """The current service of each existing device, its row locked until the transaction
        ends, so two settlements of one device add up."""
        ...

    def set_service(self, device_id: int, level_id: int, expires_at: datetime) -> None: ...

    def add_alert_counts(self, device_id: int, sms: int, voice: int, country_code: str | None) -> None:
        """Adds to the counts in one write (no lost update); sets the country code of a device
        that has none."""
        ...

    def holdings_for_update(self, device_ids: Sequence[int]) -> dict[int, DeviceHolding]:
        """What each existing device has (service and counts), its row locked, in id order."""
        ...


class OfflinePurchaseRepository(Protocol):
    def customer(self, text: str) -> Customer | None:
        """The enabled customer account with this user name (any case), phone or e-mail."""
        ...

    def candidates(self, guids: Sequence[str]) -> dict[str, Candidate]:
        """The devices with these GUIDs, by GUID."""
        ...

    def add(self, purchase: OfflinePurchase) -> OfflinePurchase: ...

    def get(self, purchase_id: int) -> OfflinePurchase | None:
        """With its devices, their states, and the names of who recorded and who reviewed it."""
        ...

    def page(self, where: OfflineFilter, request: PageRequest) -> Page[OfflinePurchase]:
        """Newest first, without their devices (their counts only)."""
        ...

    def batch(self, where: OfflineFilter, before_id: int | None, limit: int) -> list[OfflinePurchase]:
        """Up to `limit` purchases with ids below `before_id`, highest first, with their devices."""
        ...

    def review(self, purchase_id: int, status: OfflineStatus, operator_id: int, at: datetime,
               note: str | None) -> bool:
        """Awaiting review -> `status` in one conditional write; False when reviewed already."""
        ...

    def set_outcome(self, purchase_id: int, order_id: int, devices: Sequence[OfflineDevice]) -> None:
        """The approval's order and each device's state."""
        ...

    def delete_awaiting(self, purchase_id: int) -> bool:
        """Deletes it while it awaits review; False otherwise."""
        ...


class RevenueQueries(Protocol):
    """The recharge statistics' aggregations (core.ordering.statistics), in one currency."""

    def by_period(self, periods: Sequence[Period], currency: str) -> list[Figures]:
        """The figures of each period, in its order: paid orders by when they were paid, refunds
        by when they succeeded."""
        ...

    def by_pay_type(self, start: datetime, end: datetime, currency: str) -> dict[int, Figures]: ...

    def by_camp(self, start: datetime, end: datetime, currency: str) -> dict[int, Figures]:
        """Payments and refunds by the camp of the platform the orders were placed through."""
        ...

    def by_level(self, start: datetime, end: datetime, currency: str) -> dict[int, Figures]:
        """Service orders' payments by the level bought (refunds are not split by level)."""
        ...

    def devices(self, start: datetime, end: datetime) -> DeviceCounts: ...


class RefundRepository(Protocol):
    def add(self, refund: Refund) -> Refund: ...

    def get(self, refund_id: int) -> Refund | None:
        """With what it took and the names of who asked and who decided."""
        ...

    def count(self, order_id: int) -> int:
        """How many refunds the order has had, whatever became of them (their codes' numbers)."""
        ...

    def awaiting_cents(self, order_id: int) -> int:
        """What the order's refunds awaiting approval reserve."""
        ...

    def set_take_backs(self, refund_id: int, take_backs: Sequence[TakeBack]) -> None: ...

    def decide(self, refund_id: int, status: RefundStatus, operator_id: int, at: datetime, note: str | None) -> bool:
        """Awaiting approval -> `status` in one conditional write; False when decided already."""
        ...

    def finish(self, refund_id: int, status: RefundStatus, at: datetime, *, reference: str | None = None,
               error: str | None = None) -> bool:
        """Processing -> succeeded or failed in one conditional write; False when finished already."""
        ...

    def by_code(self, refund_code: str) -> Refund | None:
        """The refund of our refund code (what the provider knows it by)."""
        ...

    def set_reference(self, refund_id: int, reference: str) -> bool:
        """The provider's id of a refund it accepted, kept while it is processing; False otherwise."""
        ...

    def of_order(self, order_id: int) -> list[Refund]:
        """Oldest first."""
        ...

    def awaiting(self, limit: int) -> list[Refund]:
        """Refunds awaiting approval, oldest first."""
        ...

    def processing_before(self, instant: datetime, limit: int) -> list[Refund]:
        """Refunds still in flight that started before the instant, oldest first."""
        ...


class InvoiceRepository(Protocol):
    """Invoice requests (core.ordering.invoices), each read with its orders, its file's name and
    size (never its content, but by `file`) and the names of its account and of its decider."""

    def add(self, request: InvoiceRequest) -> InvoiceRequest:
        """Stores it with its orders, each covered by it (an order covered already by a waiting or
        issued request is refused by the database too: a unique index)."""
        ...

    def get(self, invoice_id: int) -> InvoiceRequest | None: ...

    def covering(self, order_ids: Sequence[int]) -> dict[int, int]:
        """Order id -> the waiting or issued request that covers it, of the orders that have one."""
        ...

    def decide(self, invoice_id: int, status: InvoiceRequestStatus, operator_id: int, at: datetime, *,
               delivery: Delivery | None = None, invoice_number: str | None = None,
               note: str | None = None) -> bool:
        """Requested -> issued or rejected in one conditional write (a rejected one covers its
        orders no more); False when it was decided already."""
        ...

    def attach(self, invoice_id: int, file: InvoiceFile, at: datetime) -> None:
        """Stores an issued request's PDF (`file.content`)."""
        ...

    def file(self, invoice_id: int) -> InvoiceFile | None:
        """The request's PDF with its content; None when it has none."""
        ...

    def invoiceable(self, account_id: int, limit: int) -> list[Order]:
        """The account's paid orders with something still paid (charged less refunded) that no
        waiting or issued request covers, most recently paid first."""
        ...

    def of_account(self, account_id: int, status: InvoiceRequestStatus | None,
                   request: PageRequest) -> Page[InvoiceRequest]:
        """The account's requests, newest first."""
        ...

    def page(self, where: InvoiceFilter, overdue_cutoff: datetime, request: PageRequest) -> Page[InvoiceRequest]:
        """Every account's, oldest first by default (the queue; sortOrder desc: newest first);
        `overdue` means waiting and made at or before `overdue_cutoff`."""
        ...

    def batch(self, where: InvoiceFilter, overdue_cutoff: datetime, before_id: int | None,
              limit: int) -> list[InvoiceRequest]:
        """Up to `limit` requests with ids below `before_id` (all when None), highest id first."""
        ...


class AgreementRepository(Protocol):
    def active(self, device_id: int) -> Agreement | None: ...

    def cancel(self, device_id: int, at: datetime) -> bool:
        """False when there was no active agreement."""
        ...

    def add(self, agreement: Agreement, first_order_id: int, at: datetime) -> Agreement:
        """A new active agreement; the device's earlier active one, if any, is cancelled with it."""
        ...

    def get(self, agreement_id: int) -> Agreement | None: ...

    def by_code(self, code: str) -> Agreement | None:
        """The active agreement of that code (ours, as the provider knows the authorisation)."""
        ...

    def due(self, now: datetime, limit: int) -> list[Agreement]:
        """Active agreements whose charge is due, oldest due first."""
        ...

    def to_remind(self, until: datetime, limit: int) -> list[Agreement]:
        """Active agreements charged before `until` whose customer has not been told of that charge
        (nor of one a run holds)."""
        ...

    def mark_reminded(self, agreement_id: int, charge_at: datetime) -> None: ...

    def claim(self, agreement_id: int, due_at: datetime, hold_until: datetime, order_id: int) -> bool:
        """Takes a due charge for one run, in one conditional write (its due time still `due_at`,
        moved to `hold_until` so no other run takes it meanwhile), with the renewal order charged;
        False when another run took it or it is no longer active."""
        ...

    def charged(self, agreement_id: int, next_at: datetime) -> None:
        """The charge succeeded: the next one is due at `next_at`, no failure counted."""
        ...

    def charge_failed(self, agreement_id: int, failures: int, retry_at: datetime | None, error: str) -> None:
        """A failed charge: retried at `retry_at`, or the agreement ends (None)."""
        ...

    def unsigned_orders(self, paid_since: datetime, limit: int) -> list[Order]:
        """Paid service orders whose payer asked for automatic renewal, without an agreement yet."""
        ...


class BillRepository(Protocol):
    """Invoice details, always of one account."""

    def of_account(self, account_id: int) -> list[Bill]:
        """The default first, then newest first."""
        ...

    def get(self, account_id: int, bill_id: int) -> Bill | None: ...

    def add(self, bill: Bill) -> Bill: ...

    def update(self, bill: Bill) -> None: ...

    def delete(self, account_id: int, bill_id: int) -> bool: ...

    def clear_default(self, account_id: int) -> None: ...


class OrderingUnitOfWork(Transaction, Protocol):
    """The orders' transaction: their own repositories, the catalogue that prices an order
    (core.pricing) and the device registry that says which devices the caller may order for
    (core.devices)."""

    @property
    def orders(self) -> OrderRepository: ...
    @property
    def bills(self) -> BillRepository: ...
    @property
    def agreements(self) -> AgreementRepository: ...
    @property
    def device_service(self) -> DeviceServiceRepository: ...
    @property
    def payment_notifications(self) -> PaymentNotificationRepository: ...
    @property
    def catalogue(self) -> CatalogueRepository: ...
    @property
    def device_registry(self) -> DeviceRepository: ...
    @property
    def inbox(self) -> Inbox: ...  # the payer is told of a paid order (core.inbox)
    @property
    def outbox(self) -> OutboxRepository: ...
    @property
    def coupons(self) -> CouponLedger: ...  # an order's coupon (core.vouchers)
    @property
    def order_desk(self) -> OrderDesk: ...  # every account's orders, for the back office
    @property
    def refunds(self) -> RefundRepository: ...
    @property
    def offline(self) -> OfflinePurchaseRepository: ...
    @property
    def revenue(self) -> RevenueQueries: ...
    @property
    def invoices(self) -> InvoiceRepository: ...


class OrderDesk(Protocol):
    """Every account's orders, for the back office (issue 19): operators see all of them."""

    def page(self, where: OrderFilter, request: PageRequest) -> Page[DeskOrder]:
        """Sorted by ORDER_SORT_FIELDS (gmtCreate by default), newest first; ties by id."""
        ...

    def batch(self, where: OrderFilter, before_id: int | None, limit: int) -> list[DeskOrder]:
        """Up to `limit` orders with ids below `before_id` (all when None), highest id first: the
        export reads the whole filtered list this way, a batch at a time."""
        ...

    def entry(self, order_id: int) -> DeskOrder | None: ...

    def history(self, order_id: int) -> list[OrderEvent]:
        """Oldest first, each with its actor's name."""
        ...

    def notifications(self, order_code: str) -> list[NotificationRecord]:
        """Every notification recorded about the order, oldest first."""
        ...

    def device_guids(self, device_ids: Sequence[int]) -> dict[int, str]:
        """The GUIDs of the devices that still exist."""
        ...
