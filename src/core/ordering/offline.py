"""Offline purchases (issue 19): an operator records service bought by contract or bank transfer
for a customer's devices (listed, or uploaded as a sheet of GUIDs and checked row by row); it waits
for a second operator's review (maker-checker). On approval, in one transaction, a paid order of
the offline pay type is recorded (so the purchase is in the order desk, the statistics and the
customer's orders, and can be refunded off-line) and each device is recharged as a paid order
recharges it (core.ordering.settlement); a device that cannot be (deleted since, a level its
service can no longer take) is marked failed with the reason while the others are recharged."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from core.devices.rules import guid_problem
from core.ordering.model import (
    MAX_DEVICES_PER_ORDER,
    Order,
    OrderEvent,
    OrderKind,
    OrderLine,
    PayStatus,
    new_order_code,
)
from core.ordering.offline_model import (
    MAX_OFFLINE_DEVICES,
    OFFLINE_PAY_TYPES,
    REMARK_MAX,
    Candidate,
    Customer,
    OfflineContent,
    OfflineDevice,
    OfflineFilter,
    OfflinePurchase,
    OfflineStatus,
    RechargeState,
    RowProblem,
)
from core.ordering.ports import OrderingUnitOfWork
from core.ordering.refunds import SameOperator
from core.ordering.settlement import credit_devices
from core.pricing.model import Level
from core.shared.clock import Clock
from core.shared.edition import Edition, PayType
from core.shared.errors import InvalidInput, NotFound, RuleViolation
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest

EXPORT_BATCH = 500
OFFLINE_EVENT = "offlinePurchase"  # the order event its approval records
assert MAX_DEVICES_PER_ORDER <= MAX_OFFLINE_DEVICES  # an offline purchase may be larger than a payer's order


class PurchaseNotAwaitingReview(RuleViolation):
    code = 1151
    message = N_("This offline purchase has already been reviewed")


class DevicesNotRechargeable(InvalidInput):
    """Some listed devices cannot get the purchase: nothing is recorded; `data.rows` says which and why."""

    def __init__(self, rows: Sequence[RowCheck]) -> None:
        super().__init__("guids", N_("{count} of the devices cannot be recharged: see each row"),
                         count=sum(1 for r in rows if r.problem is not None))
        self.data = {"rows": [{"row": r.number, "guid": r.guid, "problem": int(r.problem)}
                              for r in rows if r.problem is not None]}


@dataclass(frozen=True)
class RowCheck:
    number: int  # 1-based, as listed or as the sheet numbers its rows
    guid: str
    problem: RowProblem | None
    device: Candidate | None = None


@dataclass(frozen=True)
class NewOfflinePurchase:
    customer: str  # the customer's user name, phone or e-mail
    guids: tuple[tuple[int, str], ...]  # (row number, GUID)
    content: OfflineContent
    amount_cents: int
    pay_type: PayType
    remark: str


def _level(levels: Sequence[Level], content: OfflineContent) -> Level | None:
    level = next((lv for lv in levels if lv.id == content.level_id), None)
    return level if level is not None and level.option(content.level_year_id or 0) is not None else None


class CheckOfflineDevices:
    """Each GUID, as an offline purchase for the customer would take it: the customer's device,
    whose type offers the level and service time bought (when a level is bought)."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency = uow, clock, edition.profile.currency

    def __call__(self, customer: str, rows: Sequence[tuple[int, str]], content: OfflineContent
                 ) -> tuple[Customer, list[RowCheck]]:
        with self._uow as uow:
            return _checked(uow, customer, rows, content, self._clock.now(), self._currency)


def _checked(uow: OrderingUnitOfWork, customer_text: str, rows: Sequence[tuple[int, str]], content: OfflineContent,
             now: datetime, currency: str) -> tuple[Customer, list[RowCheck]]:
    customer = uow.offline.customer(customer_text.strip())
    if customer is None:
        raise InvalidInput("customer", N_("No customer account has this user name, phone or e-mail"))
    found = uow.offline.candidates([guid.strip().upper() for _, guid in rows])
    offered: dict[int, bool] = {}
    seen: set[str] = set()
    checks = []
    for number, text in rows:
        guid = text.strip().upper()
        device = found.get(guid)
        if guid_problem(guid) is not None:
            problem: RowProblem | None = RowProblem.INVALID
        elif guid in seen:
            problem = RowProblem.DUPLICATE
        elif device is None:
            problem = RowProblem.UNKNOWN
        elif device.owner_account_id != customer.account_id:
            problem = RowProblem.NOT_THE_CUSTOMERS
        else:
            if content.level_id is not None and device.type_id not in offered:
                levels = uow.catalogue.levels_for_type(device.type_id, customer.account_id, now, currency)
                offered[device.type_id] = _level(levels, content) is not None
            problem = RowProblem.LEVEL_NOT_OFFERED if content.level_id is not None and not offered[
                device.type_id] else None
        seen.add(guid)
        checks.append(RowCheck(number, guid, problem, device if problem is None else None))
    return customer, checks


def _content(uow: OrderingUnitOfWork, content: OfflineContent, customer: Customer, candidates: Sequence[Candidate],
             now: datetime, currency: str) -> OfflineContent:
    """The content with the service time's months, checked: something bought, counts sane."""
    if content.level_id is None and not (content.sms_count or content.voice_count):
        raise InvalidInput("levelId", N_("Choose a service level or SMS and voice counts"))
    if (content.level_id is None) != (content.level_year_id is None):
        raise InvalidInput("levelYearId", N_("Choose the service time of the level"))
    if content.level_id is None:
        return content
    levels = uow.catalogue.levels_for_type(candidates[0].type_id, customer.account_id, now, currency)
    level = _level(levels, content)
    option = level.option(content.level_year_id or 0) if level else None
    if option is None:
        raise InvalidInput("levelYearId", N_("The level or its service time is not offered for this device's type"))
    return replace(content, months=option.months)


class RecordOfflinePurchase:
    """An operator records an offline purchase; it waits for review. A device that cannot take it
    refuses the whole purchase (422, with a row per device): the operator fixes the list."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency = uow, clock, edition.profile.currency

    def __call__(self, operator_id: int, new: NewOfflinePurchase) -> OfflinePurchase:
        remark = new.remark.strip()
        if len(remark) > REMARK_MAX:
            raise InvalidInput("remark", N_("At most {max} characters"), max=REMARK_MAX)
        if new.pay_type not in OFFLINE_PAY_TYPES:
            raise InvalidInput("payType", N_("Choose offline (contract) or bank transfer"))
        if not new.guids:
            raise InvalidInput("guids", N_("List at least one device"))
        if len(new.guids) > MAX_OFFLINE_DEVICES:
            raise InvalidInput("guids", N_("At most {max} devices"), max=MAX_OFFLINE_DEVICES)
        now = self._clock.now()
        with self._uow as uow:
            customer, rows = _checked(uow, new.customer, new.guids, new.content, now, self._currency)
            if any(r.problem is not None for r in rows):
                raise DevicesNotRechargeable(rows)
            candidates = [r.device for r in rows if r.device is not None]
            content = _content(uow, new.content, customer, candidates, now, self._currency)
            purchase = uow.offline.add(OfflinePurchase(
                None, customer, content, new.amount_cents, self._currency, new.pay_type, remark,
                OfflineStatus.AWAITING_REVIEW, operator_id, now,
                tuple(OfflineDevice(c.guid, c.device_id, c.name) for c in candidates)))
            uow.commit()
            return purchase


def _split(total: int, parts: int) -> list[int]:
    """`total` cents in `parts` shares that differ by at most a cent and add up exactly."""
    share, extra = divmod(total, parts)
    return [share + (1 if i < extra else 0) for i in range(parts)]


class ReviewOfflinePurchase:
    """A second operator approves (the devices are recharged now, in one transaction) or rejects
    an offline purchase; the one who recorded it cannot review it."""

    def __init__(self, uow: OrderingUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, operator_id: int, purchase_id: int, approve: bool, note: str | None) -> OfflinePurchase:
        note = (note or "").strip()[:REMARK_MAX] or None
        now = self._clock.now()
        with self._uow as uow:
            purchase = uow.offline.get(purchase_id)
            if purchase is None:
                raise NotFound()
            if purchase.created_by == operator_id:
                raise SameOperator()
            target = OfflineStatus.APPROVED if approve else OfflineStatus.REJECTED
            if not uow.offline.review(purchase_id, target, operator_id, now, note):
                raise PurchaseNotAwaitingReview()
            if approve:
                self._recharge(uow, purchase, operator_id, now)
            uow.commit()
            stored = uow.offline.get(purchase_id)
        assert stored is not None
        return stored

    @staticmethod
    def _recharge(uow: OrderingUnitOfWork, purchase: OfflinePurchase, operator_id: int, now: datetime) -> None:
        content = purchase.content
        devices = purchase.devices
        fees = _split(purchase.amount_cents, max(len(devices), 1))
        names = uow.catalogue.level_names([content.level_id], ()) if content.level_id else {}
        ids = [d.stored_device_id for d in devices]
        before = {i: h.expires_at for i, h in uow.device_service.holdings_for_update(ids).items()}
        order = uow.orders.add(Order(
            None, new_order_code(now), purchase.customer.account_id,
            OrderKind.SERVICE if content.level_id else OrderKind.ALERTS, purchase.pay_type, purchase.currency,
            purchase.amount_cents, False, names.get(content.level_id or 0, "") or "SMS / voice", now,
            tuple(OrderLine(i, fee, content.level_id, content.level_year_id, content.months, 0, content.sms_count,
                            content.voice_count) for i, fee in zip(ids, fees, strict=True)),
            status=PayStatus.PAID, country_code=content.country_code, pay_fee_cents=purchase.amount_cents,
            paid_at=now))
        uow.orders.record_event(OrderEvent(order.stored_id, now, OFFLINE_EVENT, PayStatus.PAID, operator_id, None,
                                           {"offlinePurchase": purchase.id}))
        refused = credit_devices(uow, order, now)
        after = {i: h.expires_at for i, h in uow.device_service.holdings_for_update(list(before)).items()}
        outcomes = []
        for d in devices:  # a device deleted since is refused by credit_devices like any other
            reason = refused.get(d.stored_device_id)
            outcomes.append(replace(d, state=RechargeState.FAILED if reason else RechargeState.RECHARGED,
                                    reason=reason.value if reason else None,
                                    expires_before=before.get(d.stored_device_id),
                                    expires_after=after.get(d.stored_device_id)))
        uow.offline.set_outcome(purchase.stored_id, order.stored_id, outcomes)


class OfflinePurchases:
    """The list (paged, and whole for the export, a batch at a time), one purchase with its
    devices, and deleting one still awaiting review."""

    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def page(self, where: OfflineFilter, request: PageRequest) -> Page[OfflinePurchase]:
        with self._uow as uow:
            return uow.offline.page(where, request)

    def get(self, purchase_id: int) -> OfflinePurchase:
        with self._uow as uow:
            purchase = uow.offline.get(purchase_id)
        if purchase is None:
            raise NotFound()
        return purchase

    def every(self, where: OfflineFilter) -> Iterator[OfflinePurchase]:
        before: int | None = None
        while True:
            with self._uow as uow:
                batch = uow.offline.batch(where, before, EXPORT_BATCH)
            yield from batch
            if len(batch) < EXPORT_BATCH:
                return
            before = batch[-1].stored_id

    def delete(self, purchase_id: int) -> None:
        with self._uow as uow:
            if uow.offline.get(purchase_id) is None:
                raise NotFound()
            if not uow.offline.delete_awaiting(purchase_id):
                raise PurchaseNotAwaitingReview()
            uow.commit()
