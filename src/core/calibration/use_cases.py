"""The calibration service's use cases: pricing and applying (with an account or without, or by
the lab as a quick order), paying, cancelling with its refund, tracking numbers, the lab's status
changes, certificates recorded, issued and corrected, due dates and their reminders.

Who may do what is decided here, from the Caller the entrypoint fills (model.reach): an account
reaches its own applications, the lab (the calibration admin role) every one, an anonymous customer
theirs by number with its access token (to act) or its contact (to read). Anything else is
answered as if the application did not exist."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from core.calibration.certificates import Certificate, CertificateContent, CertificateStatus, certificate_number
from core.calibration.due_dates import (
    DUE_NOTICE_WITHIN,
    INTERVAL_MONTHS_RANGE,
    DueCandidate,
    ReminderStage,
    due_date,
    due_message,
    interval_months,
    reminder_due,
)
from core.calibration.errors import (
    AlreadyCancelled,
    AlreadyReceived,
    AlreadyReturned,
    CertificateIssued,
    CertificateNotIssued,
    CertificatesMissing,
    DetailsLocked,
    NotPayable,
    NotQuickOrder,
    OfflinePaymentRefused,
    PaymentDiffers,
    ResultsNotNow,
    ServiceNotPriced,
    StatusChangeRefused,
    TokenRequired,
    TrackingNotNow,
)
from core.calibration.model import (
    Application,
    Caller,
    CancelCheck,
    Details,
    InvoiceDetails,
    ItemRequest,
    Line,
    Mover,
    PriceConf,
    Quote,
    Reach,
    RefundState,
    Status,
    cancel_check,
    cancelled_status,
    is_cancelled,
    may_move,
    new_access_token,
    new_application_number,
    normalized_number,
    reach,
    token_digest,
)
from core.calibration.ports import (
    ApplicationFilter,
    ApplicationPayment,
    ApplicationPayments,
    ApplicationRefund,
    CalibrationUnitOfWork,
    DeviceCalibration,
    PayScene,
    RefundAnswer,
    scene_offered,
)
from core.calibration.rules import (
    checked_content,
    checked_details,
    checked_form,
    checked_items,
    content_from_json,
    price_problem,
    statement,
    tracking_number,
)
from core.inbox.posting import post
from core.shared.clock import Clock
from core.shared.edition import Edition, PayType
from core.shared.errors import (
    DomainError,
    Forbidden,
    InvalidInput,
    NotAuthenticated,
    NotFound,
    PaymentFailed,
    PayTypeNotOffered,
    PriceChanged,
)
from core.shared.messages import N_
from core.shared.paging import Page, PageRequest

log = logging.getLogger("coldchain.calibration")

NOT_YOUR_DEVICE = N_("Choose one of your devices")
SAME_DEVICE_TWICE = N_("This device is on the application already")
INTERVAL_RANGE = N_("An interval is 1 to 120 months")
ApplicationRef = int | str  # an id (accounts and the lab), or a number (anyone)


# --- reaching an application ---------------------------------------------------------------------


def _find(uow: CalibrationUnitOfWork, caller: Caller, ref: ApplicationRef) -> tuple[Application | None, bool]:
    if isinstance(ref, str):
        number = normalized_number(ref)
        return (uow.calibration_applications.by_number(number) if number else None), True
    if caller.anonymous:  # ids are sequential: an anonymous customer names theirs by number only
        return None, False
    return uow.calibration_applications.get(ref), False


def reached(uow: CalibrationUnitOfWork, caller: Caller, ref: ApplicationRef, needed: Reach) -> tuple[Application,
                                                                                                     Reach]:
    """The application and what the caller may do with it, when that is at least `needed`:
    NotFound when the caller may not see it (another's and a missing one alike), TokenRequired for
    a customer who only reads it, Forbidden for a customer asking what only the lab does."""
    application, by_number = _find(uow, caller, ref)
    found = Reach.NONE if application is None else reach(application, caller, by_number)
    if application is None or found is Reach.NONE:
        raise NotFound()
    if found < needed:
        raise TokenRequired() if found is Reach.READ else Forbidden()
    return application, found


def _lab(caller: Caller) -> None:
    if not caller.lab:
        raise Forbidden()


def _mover(found: Reach) -> Mover:
    return Mover.LAB if found is Reach.LAB else Mover.CUSTOMER


class _Today:
    """The lab's date now, in the edition's time zone (a certificate's dates are the lab's days)."""

    def __init__(self, clock: Clock, edition: Edition) -> None:
        self._clock, self._zone = clock, ZoneInfo(edition.profile.default_time_zone)

    def __call__(self) -> date:
        return self._clock.now().astimezone(self._zone).date()


# --- pricing and applying ------------------------------------------------------------------------


def _resolve(uow: CalibrationUnitOfWork, account_id: int | None, items: tuple[ItemRequest, ...],
             currency: str) -> Quote:
    """The lines of the items at today's prices: a console device must be one the account may
    change, with the GUID it has; a device is on an application once."""
    prices = {(p.device_type_id, p.service): p.price_cents for p in uow.calibration_prices.of_currency(currency)}
    wanted = [item.device_id for item in items if item.device_id is not None]
    devices = uow.calibrated_devices.changeable(account_id, wanted) if wanted and account_id is not None else {}
    lines, seen = [], set()
    for index, item in enumerate(items, start=1):
        path = f"devices[{index - 1}]"
        if item.device_id is not None:
            device = devices.get(item.device_id)
            if device is None or device.guid.upper() != (item.guid or "").upper():
                raise InvalidInput(f"{path}.guid", NOT_YOUR_DEVICE)
            type_id, model, serial = device.type_id, device.type_name, device.guid
        else:
            assert item.device_type_id is not None and item.model and item.serial_number
            type_id, model, serial = item.device_type_id, item.model, item.serial_number
        key = (type_id, serial.upper())
        if key in seen:
            raise InvalidInput(path, SAME_DEVICE_TWICE)
        seen.add(key)
        price = prices.get((type_id, item.service))
        if price is None:
            raise ServiceNotPriced(service=int(item.service), type=model)
        lines.append(Line(index, item.service, type_id, model, serial, price, item.device_id, item.points_note))
    return Quote(currency, tuple(lines))


@dataclass(frozen=True)
class Applied:
    application: Application
    access_token: str | None  # an application without an account's, shown this once (model ACCESS)


def _store(uow: CalibrationUnitOfWork, account_id: int | None, details: Details, quote: Quote, now: datetime,
           quick: bool) -> Applied:
    token = new_access_token() if account_id is None else None
    application = Application(
        None, new_application_number(now), account_id, details, quote.lines, quote.currency, quote.total_cents,
        Status.SUBMITTED, now, now, quick_order=quick, handled=not quick,
        access_digest=token_digest(token) if token else None)
    stored = uow.calibration_applications.add(application)
    uow.commit()
    return Applied(stored, token)


class QuoteApplication:
    """PriceConf/get/price for a whole application: what apply would charge."""

    def __init__(self, uow: CalibrationUnitOfWork, edition: Edition) -> None:
        self._uow, self._currency = uow, edition.profile.currency

    def __call__(self, caller: Caller, items: tuple[ItemRequest, ...]) -> Quote:
        clean = checked_items(items)
        with self._uow as uow:
            return _resolve(uow, caller.account_id, clean, self._currency)


class Apply:
    """A customer's application, with or without an account. `shown_total_cents`, the total the
    customer saw, is only checked: the server prices it, and the prices are frozen on its lines."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency = uow, clock, edition.profile.currency

    def __call__(self, caller: Caller, details: Details, items: tuple[ItemRequest, ...],
                 shown_total_cents: int | None = None) -> Applied:
        clean_details, clean_items = checked_form(details, items)
        with self._uow as uow:
            quote = _resolve(uow, caller.account_id, clean_items, self._currency)
            if shown_total_cents is not None and shown_total_cents != quote.total_cents:
                raise PriceChanged()
            return _store(uow, caller.account_id, clean_details, quote, self._clock.now(), quick=False)


class PlaceQuickOrder:
    """applyQuickOrder: the lab takes an order on the phone or at the counter, for a customer with
    an account (`account_id`) or without; the customer and return address may wait (HandleQuickOrder)."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._currency = uow, clock, edition.profile.currency

    def __call__(self, caller: Caller, details: Details, items: tuple[ItemRequest, ...],
                 account_id: int | None = None) -> Applied:
        _lab(caller)
        clean_details, clean_items = checked_form(details, items, quick=True)
        with self._uow as uow:
            quote = _resolve(uow, account_id, clean_items, self._currency)
            return _store(uow, account_id, clean_details, quote, self._clock.now(), quick=True)


def _update_details(uow: CalibrationUnitOfWork, application: Application, details: Details, handled: bool,
                    now: datetime) -> Application:
    uow.calibration_applications.update_details(application.stored_id, details, handled, now)
    uow.commit()
    return replace(application, details=details, handled=handled, updated_at=now)


class HandleQuickOrder:
    """handleQuickOrder: the lab completes a quick order's details (its invoice stays); they are
    then checked in full."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, caller: Caller, application_id: int, details: Details) -> Application:
        with self._uow as uow:
            application, _ = reached(uow, caller, application_id, Reach.LAB)
            if not application.quick_order:
                raise NotQuickOrder()
            if application.cancelled:
                raise AlreadyCancelled()
            clean = checked_details(replace(details, invoice=application.details.invoice))
            return _update_details(uow, application, clean, True, self._clock.now())


class UpdateDetails:
    """update/baseInfo (the details but the invoice, which stays) and, by `invoice`, update/invoice
    (the invoice alone): the customer's until the lab holds the devices, the lab's until the
    application is complete. Read and written in one transaction, so neither loses the other's."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, caller: Caller, ref: ApplicationRef, details: Details) -> Application:
        return self._revise(caller, ref, lambda current: replace(details, invoice=current.invoice))

    def invoice(self, caller: Caller, ref: ApplicationRef, invoice: InvoiceDetails | None) -> Application:
        return self._revise(caller, ref, lambda current: replace(current, invoice=invoice))

    def _revise(self, caller: Caller, ref: ApplicationRef, change: Callable[[Details], Details]) -> Application:
        with self._uow as uow:
            application, found = reached(uow, caller, ref, Reach.CUSTOMER)
            last = Status.IN_CALIBRATION if found is Reach.LAB else Status.AWAITING_DEVICES
            if application.cancelled or application.status > last:
                raise DetailsLocked()
            clean = checked_details(change(application.details),
                                    quick=application.quick_order and not application.handled)
            return _update_details(uow, application, clean, application.handled, self._clock.now())


# --- paying ---------------------------------------------------------------------------------------


def _payment(application: Application, pay_type: PayType, scene: PayScene = PayScene.NATIVE,
             open_id: str | None = None) -> ApplicationPayment:
    return ApplicationPayment(application.number, application.total_cents, application.currency, pay_type,
                              f"Calibration {application.number}", application.created_at,
                              application.payment_reference, scene, open_id)


@dataclass(frozen=True)
class PaymentBegun:
    """What the payer is shown (payQrCode, approveUrl, ... as ordering names them) and the
    application it pays, as it was read to start the payment."""

    payer_fields: dict[str, str]
    application: Application


class StartPayment:
    """An unpaid application paid now or later ("apply later"), by one of the edition's providers,
    where the payer is (`scene`: a QR code on a PC, inside WeChat with the payer's OpenID, Alipay's
    mobile page)."""

    def __init__(self, uow: CalibrationUnitOfWork, payments: ApplicationPayments, edition: Edition) -> None:
        self._uow, self._payments, self._edition = uow, payments, edition

    def __call__(self, caller: Caller, ref: ApplicationRef, pay_type: PayType, scene: PayScene = PayScene.NATIVE,
                 open_id: str | None = None) -> PaymentBegun:
        if pay_type not in self._edition.profile.pay_types or not scene_offered(pay_type, scene):
            raise PayTypeNotOffered()
        if scene is PayScene.JSAPI and not open_id:
            raise InvalidInput("openId", N_("Open this page in WeChat to pay with WeChat Pay"))
        with self._uow as uow:
            application, _ = reached(uow, caller, ref, Reach.CUSTOMER)
            if application.status is not Status.SUBMITTED:
                raise NotPayable()
        try:
            started = self._payments.start(_payment(application, pay_type, scene, open_id))
        except Exception as error:  # refused or unreachable: nothing started, the customer tries again
            log.exception("payment of calibration %s not started", application.number)
            raise PaymentFailed() from error
        with self._uow as uow:
            uow.calibration_applications.set_payment(application.stored_id, int(pay_type), started.reference)
            uow.commit()
        return PaymentBegun(started.payer_fields, application)


def _settle(uow: CalibrationUnitOfWork, number: str, amount_cents: int, currency: str | None,
            pay_type: PayType | None, reference: str | None, now: datetime) -> bool:
    """`pay_type` None: the one the payment was started with (the development pay link's)."""
    application = uow.calibration_applications.by_number(number)
    if application is None:
        raise NotFound()
    if application.paid_at is not None:
        return False
    paid_by = int(pay_type) if pay_type is not None else application.pay_type
    if paid_by is None:
        raise NotPayable()
    if not may_move(application.status, Status.PAID, Mover.PAYMENT):
        # cancelled unpaid, then paid anyway: the money is the customer's; the operators
        # refund it from the provider's records (the notification is kept for them)
        raise NotPayable()
    if amount_cents != application.total_cents or (currency or "").upper() != application.currency.upper():
        raise PaymentDiffers(number=number)
    settled = uow.calibration_applications.mark_paid(application.stored_id, amount_cents, paid_by, reference, now)
    uow.commit()
    return settled


class SettlePayment:
    """The provider's word that an application is paid (its notification, or reconciliation asking
    it). True when this call settled it; False when it was settled already (a repeated word)."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, number: str, amount_cents: int, currency: str | None, pay_type: PayType | None,
                 reference: str | None) -> bool:
        with self._uow as uow:
            return _settle(uow, number, amount_cents, currency, pay_type, reference, self._clock.now())


class ConfirmPayment:
    """confirmCalibration: the page the provider sends the payer back to asks whether the
    application is paid. Unpaid with a payment started, the provider is asked once (its
    notification may be late or lost) and what it took settles it as a notification would.
    With a wallet's `payment_method` (Stripe), its customer has it charged now."""

    def __init__(self, uow: CalibrationUnitOfWork, payments: ApplicationPayments, clock: Clock) -> None:
        self._uow, self._payments, self._clock = uow, payments, clock

    def __call__(self, caller: Caller, ref: ApplicationRef, payment_method: str | None = None) -> Application:
        with self._uow as uow:
            application, _ = reached(uow, caller, ref, Reach.CUSTOMER if payment_method else Reach.READ)
        if application.status is not Status.SUBMITTED or application.pay_type is None:
            return application
        pay_type = PayType(application.pay_type)
        try:
            taken = self._payments.paid(_payment(application, pay_type), payment_method)
        except Exception as error:  # the provider did not answer: the notification still settles it
            log.exception("payment of calibration %s not asked", application.number)
            if payment_method:
                raise PaymentFailed() from error
            taken = None
        if taken is None and payment_method:  # the wallet's payment method was declined
            raise PaymentFailed()
        if taken is not None:
            try:
                with self._uow as uow:
                    _settle(uow, application.number, taken.amount_cents, taken.currency, pay_type, taken.reference,
                            self._clock.now())
            except (NotPayable, PaymentDiffers):  # kept as it is: the operators see the provider's records
                log.warning("calibration %s: the provider's payment does not settle it", application.number)
        with self._uow as uow:
            return reached(uow, caller, ref, Reach.READ)[0]


# --- cancelling -----------------------------------------------------------------------------------

_REFUSALS: dict[int, type[DomainError]] = {e.code: e for e in (AlreadyCancelled, AlreadyReceived, AlreadyReturned)}


class CheckCancel:
    """cancel/check: whether the caller may cancel now, and what would be paid back."""

    def __init__(self, uow: CalibrationUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, caller: Caller, ref: ApplicationRef) -> CancelCheck:
        with self._uow as uow:
            application, found = reached(uow, caller, ref, Reach.CUSTOMER)
            return cancel_check(application, _mover(found))


@dataclass(frozen=True)
class Cancelled:
    application: Application
    refund_cents: int
    refund_state: RefundState


def _refund_request(application: Application) -> ApplicationRefund:
    assert application.pay_type is not None
    return ApplicationRefund(application.number, f"{application.number}R", application.refund_cents,
                             application.paid_cents, application.currency, PayType(application.pay_type),
                             application.payment_reference)


def _ask_refund(uow: CalibrationUnitOfWork, payments: ApplicationPayments, application: Application) -> RefundState:
    """The provider asked to pay the refund back; its answer recorded. Unreachable, it stays pending
    and ResumeRefunds asks again with the same refund code (paid once)."""
    try:
        answer = payments.refund(_refund_request(application))
    except Exception:  # the provider could not be asked: nothing is lost, it is asked again
        log.exception("calibration refund of %s not asked", application.number)
        return RefundState.PENDING
    state = {RefundAnswer.SUCCEEDED: RefundState.SUCCEEDED, RefundAnswer.FAILED: RefundState.FAILED,
             RefundAnswer.PENDING: RefundState.PENDING}[answer]
    if state is not RefundState.PENDING:
        with uow:
            uow.calibration_applications.set_refund_state(application.stored_id, state)
            uow.commit()
    return state


class CancelApplication:
    """cancel/apply (and the lab's cancellation through applicationStatus): cancelled by the table's
    rule, and what was paid and not received paid back through the provider it was paid with.
    The status moves and the refund is owed in one transaction first, so a provider that fails or
    hangs never leaves a paid application open; the refund is asked after."""

    def __init__(self, uow: CalibrationUnitOfWork, payments: ApplicationPayments, clock: Clock) -> None:
        self._uow, self._payments, self._clock = uow, payments, clock

    def __call__(self, caller: Caller, ref: ApplicationRef) -> Cancelled:
        now = self._clock.now()
        with self._uow as uow:
            application, found = reached(uow, caller, ref, Reach.CUSTOMER)
            mover = _mover(found)
            check = cancel_check(application, mover)
            if not check.possible:
                raise _REFUSALS[check.reason or AlreadyCancelled.code]()
            target = cancelled_status(mover)
            state = RefundState.PENDING if check.refund_due_cents else RefundState.NONE
            if not uow.calibration_applications.cancel(application.stored_id, application.status, target, now,
                                                       check.refund_due_cents, state):
                raise StatusChangeRefused()
            uow.commit()
        application = replace(application, status=target, cancelled_at=now, refund_cents=check.refund_due_cents,
                              refund_state=state, updated_at=now)
        if state is RefundState.PENDING:
            state = _ask_refund(self._uow, self._payments, application)
        elif _started_unpaid(application):
            self._close(application)
        return Cancelled(replace(application, refund_state=state), check.refund_due_cents, state)


    def _close(self, application: Application) -> None:
        """A payment started for it is withdrawn; one the customer completes anyway is refused by
        SettlePayment, and the operators refund it from the provider's records."""
        assert application.pay_type is not None
        try:
            self._payments.close(_payment(application, PayType(application.pay_type)))
        except Exception:  # the provider's own expiry closes it at worst (two hours)
            log.exception("payment of the cancelled calibration %s not closed", application.number)


def _started_unpaid(application: Application) -> bool:
    """Cancelled unpaid with a payment started at a provider."""
    return application.paid_at is None and application.pay_type is not None


class ResumeRefunds:
    """The job: refunds still pending are asked again (same refund code: the provider pays once,
    and answers an accepted one with its outcome)."""

    def __init__(self, uow: CalibrationUnitOfWork, payments: ApplicationPayments) -> None:
        self._uow, self._payments = uow, payments

    def __call__(self, limit: int = 100) -> dict[str, RefundState]:
        with self._uow as uow:
            pending = uow.calibration_applications.pending_refunds(limit)
        return {a.number: _ask_refund(self._uow, self._payments, a) for a in pending}


class RecordRefundOutcome:
    """The provider's notification of a pending refund's outcome; one finished already stays as it is.
    With the amount and currency the provider says, a refund in another is refused (PaymentDiffers)."""

    def __init__(self, uow: CalibrationUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, number: str, succeeded: bool, amount_cents: int | None = None,
                 currency: str | None = None) -> bool:
        with self._uow as uow:
            application = uow.calibration_applications.by_number(number)
            if application is None:
                raise NotFound()
            if amount_cents is not None and (amount_cents != application.refund_cents or
                                             (currency or "").upper() != application.currency.upper()):
                raise PaymentDiffers(number=number)
            if application.refund_state is not RefundState.PENDING:
                return False
            state = RefundState.SUCCEEDED if succeeded else RefundState.FAILED
            uow.calibration_applications.set_refund_state(application.stored_id, state)
            uow.commit()
            return True


# --- the ladder -----------------------------------------------------------------------------------


class SetTrackingNumber:
    """trackingNumber: the inbound one (customer -> lab) by the customer or the lab once paid and
    until the devices arrive, which tells the lab they are on their way (paid -> awaiting devices);
    the outbound one (lab -> customer) by the lab once calibrating."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, caller: Caller, ref: ApplicationRef, number: str, outbound: bool = False) -> Application:
        clean = tracking_number(number)
        now = self._clock.now()
        with self._uow as uow:
            application, found = reached(uow, caller, ref, Reach.LAB if outbound else Reach.CUSTOMER)
            repository = uow.calibration_applications
            if outbound:
                if application.status not in (Status.IN_CALIBRATION, Status.RETURNED):
                    raise TrackingNotNow()
                repository.set_tracking(application.stored_id, None, clean, now)
                uow.commit()
                return replace(application, outbound_tracking=clean, updated_at=now)
            if application.status not in (Status.PAID, Status.AWAITING_DEVICES):
                raise TrackingNotNow()
            status = application.status
            if status is Status.PAID:
                if not (may_move(status, Status.AWAITING_DEVICES, _mover(found)) and repository.move(
                        application.stored_id, status, Status.AWAITING_DEVICES, now)):
                    raise StatusChangeRefused()
                status = Status.AWAITING_DEVICES
            repository.set_tracking(application.stored_id, clean, None, now)
            uow.commit()
            return replace(application, inbound_tracking=clean, status=status, updated_at=now)


def _all_certified(uow: CalibrationUnitOfWork, application: Application) -> bool:
    issued = {c.line_index for c in uow.calibration_certificates.of_application(application.stored_id)
              if c.status is CertificateStatus.ISSUED}
    return all(line.index in issued for line in application.lines)


class ChangeStatus:
    """applicationStatus: the lab moves an application up the ladder by TRANSITIONS. A cancellation
    goes through CancelApplication (it owes a refund); the lab marks paid only its quick orders
    (paid at the counter or by transfer); complete (6) needs every device's certificate issued."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, caller: Caller, application_id: int, target: Status) -> Application:
        now = self._clock.now()
        with self._uow as uow:
            application, _ = reached(uow, caller, application_id, Reach.LAB)
            source = application.status
            if is_cancelled(target) or not may_move(source, target, Mover.LAB):
                raise AlreadyCancelled() if application.cancelled else StatusChangeRefused()
            repository = uow.calibration_applications
            if target is Status.PAID:
                if not application.quick_order:
                    raise OfflinePaymentRefused()
                moved = repository.mark_paid(application.stored_id, application.total_cents, int(PayType.OFFLINE),
                                             None, now)
                application = replace(application, paid_cents=application.total_cents, paid_at=now,
                                      pay_type=int(PayType.OFFLINE))
            else:
                if target is Status.RETURNED and not _all_certified(uow, application):
                    raise CertificatesMissing()
                moved = repository.move(application.stored_id, source, target, now)
            if not moved:
                raise StatusChangeRefused()
            uow.commit()
            return replace(application, status=target, updated_at=now)


# --- reading --------------------------------------------------------------------------------------


class ReadApplication:
    """get/applicationInfo: for its customer (or one who has its number and contact), and the lab."""

    def __init__(self, uow: CalibrationUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, caller: Caller, ref: ApplicationRef) -> Application:
        with self._uow as uow:
            return reached(uow, caller, ref, Reach.READ)[0]


class ListApplications:
    """page/ApplicationOrder (the caller's own) and, for the lab, page/allApplicationOrder and
    page/allQuickOrder (everyone's)."""

    def __init__(self, uow: CalibrationUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, caller: Caller, where: ApplicationFilter, request: PageRequest,
                 everyone: bool = False) -> Page[Application]:
        if everyone:
            _lab(caller)
            with self._uow as uow:
                return uow.calibration_applications.page(where, request)
        if caller.account_id is None:
            raise NotAuthenticated()  # an anonymous customer opens theirs by number, one at a time
        with self._uow as uow:
            return uow.calibration_applications.of_account(caller.account_id, where, request)


class ListPrices:
    def __init__(self, uow: CalibrationUnitOfWork, edition: Edition) -> None:
        self._uow, self._currency = uow, edition.profile.currency

    def __call__(self) -> list[PriceConf]:
        with self._uow as uow:
            return uow.calibration_prices.of_currency(self._currency)


class SetPrice:
    """The lab's price of a service for a type, in the edition's currency only; applications made
    already keep the prices they were made at."""

    def __init__(self, uow: CalibrationUnitOfWork, edition: Edition) -> None:
        self._uow, self._currency = uow, edition.profile.currency

    def __call__(self, caller: Caller, price: PriceConf) -> PriceConf:
        _lab(caller)
        if price.currency != self._currency:
            raise InvalidInput("currency", N_("Prices are in the edition's currency"))
        if problem := price_problem(price.price_cents, price.currency):
            raise InvalidInput("price", problem)
        with self._uow as uow:
            uow.calibration_prices.put(price)
            uow.commit()
        return price


# --- certificates ---------------------------------------------------------------------------------


def _at_lab(application: Application) -> None:
    if application.status not in (Status.RECEIVED, Status.IN_CALIBRATION):
        raise ResultsNotNow()


class _Results:
    """A device's results kept as a draft, changed freely until issued."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._today = uow, clock, _Today(clock, edition)

    def _record(self, caller: Caller, application_id: int, line_index: int,
                content: CertificateContent | Callable[[Certificate | None], CertificateContent]) -> Certificate:
        """`content`, or what it makes of the device's latest certificate (None: it has none yet)."""
        with self._uow as uow:
            application, _ = reached(uow, caller, application_id, Reach.LAB)
            _at_lab(application)
            line = next((x for x in application.lines if x.index == line_index), None)
            if line is None:
                raise NotFound()
            certificates = uow.calibration_certificates
            latest = certificates.latest(application.stored_id, line_index)
            if callable(content):
                content = content(latest)
            if latest is None:
                # A typed serial that is a console device's GUID is that device: the lab held it, so
                # its certificate dates the device in the console (its owner need not have ordered it).
                device_id = line.device_id
                if device_id is None:
                    device_id = uow.calibrated_devices.by_guid(line.serial)
                stored = certificates.add(Certificate(None, application.stored_id, line_index, 1,
                                                      CertificateStatus.DRAFT, content, self._clock.now(),
                                                      device_id=device_id))
            elif latest.status is CertificateStatus.DRAFT and certificates.update_draft(latest.stored_id, content):
                stored = replace(latest, content=content)
            else:
                raise CertificateIssued()
            uow.commit()
            return stored


class RecordResult(_Results):
    """ResultInfo insert and update."""

    def __call__(self, caller: Caller, application_id: int, line_index: int,
                 content: CertificateContent) -> Certificate:
        return self._record(caller, application_id, line_index, checked_content(content, self._today()))


class ImportCertificate(_Results):
    """importCert: a device's results from JSON, read by the same rules (rules.content_from_json)."""

    def __call__(self, caller: Caller, application_id: int, line_index: int, raw: object) -> Certificate:
        return self._record(caller, application_id, line_index, content_from_json(raw, self._today()))


class ExplainResult(_Results):
    """result/explain: the lab's explanation of a device's results, kept as its draft's remarks
    (printed on the certificate); a device with no results yet is NotFound, an issued one is
    corrected instead (CertificateIssued)."""

    def __call__(self, caller: Caller, application_id: int, line_index: int, explanation: str) -> Certificate:
        today = self._today()

        def explained(latest: Certificate | None) -> CertificateContent:
            if latest is None:
                raise NotFound()
            return checked_content(replace(latest.content, remarks=explanation), today)

        return self._record(caller, application_id, line_index, explained)


def _record_on_device(uow: CalibrationUnitOfWork, certificate: Certificate) -> None:
    """A console device's calibration date and due date follow its newest certificate."""
    if certificate.device_id is None or certificate.reference is None:
        return
    devices = uow.calibrated_devices
    known = devices.calibration(certificate.device_id)
    if known is None:  # the device was deleted since
        return
    calibrated_on = certificate.content.calibrated_on
    if known.calibrated_on is not None and known.calibrated_on > calibrated_on:
        return  # a later calibration (another application) stands
    months = interval_months(known.device_months, known.type_months)
    devices.record(certificate.device_id, calibrated_on, due_date(calibrated_on, months), certificate.reference)


class IssueCertificate:
    """A draft issued under the next number of the year: immutable from now on (7.8.8)."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock, edition: Edition, lab_prefix: str) -> None:
        self._uow, self._clock, self._today, self._prefix = uow, clock, _Today(clock, edition), lab_prefix

    def __call__(self, caller: Caller, certificate_id: int) -> Certificate:
        today, now = self._today(), self._clock.now()
        with self._uow as uow:
            certificate = uow.calibration_certificates.get(certificate_id)
            if certificate is None:
                raise NotFound()
            application, _ = reached(uow, caller, certificate.application_id, Reach.LAB)
            _at_lab(application)
            if certificate.status is not CertificateStatus.DRAFT:
                raise CertificateIssued()
            checked_content(certificate.content, today)  # a rule may have tightened since it was recorded
            number = certificate_number(self._prefix, today.year, uow.certificate_numbers.next_sequence(today.year))
            if not uow.calibration_certificates.issue(certificate.stored_id, number, today, now):
                raise CertificateIssued()
            issued = replace(certificate, status=CertificateStatus.ISSUED, number=number, issued_on=today,
                             issued_at=now)
            _record_on_device(uow, issued)
            uow.commit()
            return issued


class CorrectCertificate:
    """A correction of an issued certificate: version n + 1 issued at once under the same number,
    saying why it replaces version n, which is marked superseded and stays readable. Allowed after
    the devices went back: that is when a customer finds a mistake."""

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._today = uow, clock, _Today(clock, edition)

    def __call__(self, caller: Caller, certificate_id: int, content: CertificateContent, reason: str) -> Certificate:
        today = self._today()
        clean, why = checked_content(content, today), statement(reason, "reason")
        now = self._clock.now()
        with self._uow as uow:
            certificates = uow.calibration_certificates
            current = certificates.get(certificate_id)
            if current is None:
                raise NotFound()
            application, _ = reached(uow, caller, current.application_id, Reach.LAB)
            if application.cancelled:
                raise AlreadyCancelled()
            if current.status is not CertificateStatus.ISSUED or not certificates.supersede(current.stored_id, now):
                raise CertificateNotIssued()
            corrected = certificates.add(replace(
                current, id=None, version=current.version + 1, status=CertificateStatus.ISSUED, content=clean,
                created_at=now, issued_on=today, issued_at=now, superseded_at=None, amendment=why))
            _record_on_device(uow, corrected)
            uow.commit()
            return corrected


class ReadCertificates:
    """queryResultList: every version of the application's certificates. Its customer reads those
    issued and superseded (marked so); the lab its drafts as well."""

    def __init__(self, uow: CalibrationUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, caller: Caller, ref: ApplicationRef) -> list[Certificate]:
        with self._uow as uow:
            application, found = reached(uow, caller, ref, Reach.READ)
            every = uow.calibration_certificates.of_application(application.stored_id)
            return every if found is Reach.LAB else [c for c in every if c.status is not CertificateStatus.DRAFT]


# --- due dates ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeviceCalibrationView:
    """A device's calibration as its detail shows it: the dates, the interval in force (its own, its
    type's or the default) and whether the caller may change that interval."""

    calibration: DeviceCalibration
    interval_months: int
    changeable: bool


class ReadDeviceCalibration:
    """A device's calibration dates and certificate, for whoever may see the device; another's and a
    missing one are not found alike."""

    def __init__(self, uow: CalibrationUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, caller: Caller, device_id: int) -> DeviceCalibrationView:
        if caller.account_id is None:
            raise NotAuthenticated()
        with self._uow as uow:
            devices = uow.calibrated_devices
            known = devices.calibration(device_id) if devices.visible(caller.account_id, device_id) else None
            if known is None:
                raise NotFound()
            return DeviceCalibrationView(known, interval_months(known.device_months, known.type_months),
                                         bool(devices.changeable(caller.account_id, [device_id])))


class SetCalibrationInterval:
    """A device's own calibration interval (None: its type's), by whoever may change the device;
    its due date follows from its last calibration."""

    def __init__(self, uow: CalibrationUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, caller: Caller, device_id: int, months: int | None) -> DeviceCalibrationView:
        if caller.account_id is None:
            raise NotAuthenticated()
        low, high = INTERVAL_MONTHS_RANGE
        if months is not None and not low <= months <= high:
            raise InvalidInput("intervalMonths", INTERVAL_RANGE)
        with self._uow as uow:
            devices = uow.calibrated_devices
            known = devices.calibration(device_id) if devices.changeable(caller.account_id, [device_id]) else None
            if known is None:
                raise NotFound()
            in_force = interval_months(months, known.type_months)
            due_on = None if known.calibrated_on is None else due_date(known.calibrated_on, in_force)
            devices.set_interval(device_id, months, due_on)
            uow.commit()
            return DeviceCalibrationView(replace(known, device_months=months, due_on=due_on), in_force, True)


@dataclass(frozen=True)
class DueReminder:
    candidate: DueCandidate
    stage: ReminderStage


class SendDueReminders:
    """The reminder job: which devices' owners are told today that a calibration falls due. Each
    (device, due date, stage) is recorded and posted in one transaction, the record refused when it
    exists, so a run retried or run twice posts none twice."""

    LOOK_AHEAD = timedelta(days=max(ReminderStage))

    def __init__(self, uow: CalibrationUnitOfWork, clock: Clock, edition: Edition) -> None:
        self._uow, self._clock, self._today = uow, clock, _Today(clock, edition)
        self._language = edition.profile.default_language

    def __call__(self) -> list[DueReminder]:
        today, picked, now = self._today(), [], self._clock.now()
        with self._uow as uow:
            reminders = uow.calibration_reminders
            for candidate in reminders.candidates(today - DUE_NOTICE_WITHIN, today + self.LOOK_AHEAD):
                stage = reminder_due(candidate.due_on, today, candidate.sent)
                if stage is not None and reminders.record(candidate.device_id, candidate.due_on, stage, now):
                    post(uow, due_message(candidate, stage, now), self._language)
                    picked.append(DueReminder(candidate, stage))
            uow.commit()
        return picked
