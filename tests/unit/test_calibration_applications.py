"""Calibration applications on fakes: the status ladder and who moves it, cancelling with and without
a refund at each status, prices frozen on the application, quick orders, tracking numbers, and who
reaches an application (its account, the lab, an anonymous customer by token or by number and contact)."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest

from core.calibration.errors import (
    AlreadyCancelled,
    AlreadyReceived,
    AlreadyReturned,
    CertificatesMissing,
    DetailsLocked,
    NotPayable,
    OfflinePaymentRefused,
    PaymentDiffers,
    ServiceNotPriced,
    StatusChangeRefused,
    TokenRequired,
    TrackingNotNow,
)
from core.calibration.model import (
    NUMBER_PATTERN,
    TRANSITIONS,
    Caller,
    CancelCheck,
    Contact,
    InvoiceDetails,
    InvoiceType,
    ItemRequest,
    Mover,
    PriceConf,
    RefundState,
    Service,
    Status,
    cancel_check,
    is_cancelled,
    may_move,
    new_application_number,
)
from core.calibration.ports import ApplicationFilter, RefundAnswer
from core.calibration.use_cases import (
    Apply,
    CancelApplication,
    ChangeStatus,
    CheckCancel,
    HandleQuickOrder,
    IssueCertificate,
    ListApplications,
    PlaceQuickOrder,
    QuoteApplication,
    ReadApplication,
    RecordResult,
    ResumeRefunds,
    SetPrice,
    SettlePayment,
    SetTrackingNumber,
    StartPayment,
    UpdateDetails,
)
from core.shared.edition import Edition, PayType
from core.shared.errors import Forbidden, InvalidInput, NotAuthenticated, NotFound, PayTypeNotOffered, PriceChanged
from core.shared.paging import PageRequest
from tests.support.clock import MutableClock
from tests.unit.calibration_fakes import (
    ALICE,
    ALICE_DEVICE,
    AS_ALICE,
    BOB,
    BOB_DEVICE,
    DOMESTIC,
    LAB,
    LOGGER,
    T0,
    FakePayments,
    FakeUnitOfWork,
    apply,
    at_status,
    console_item,
    content,
    details,
    pay,
    typed_item,
)

S = Status
C, L, P = Mover.CUSTOMER, Mover.LAB, Mover.PAYMENT
AS_BOB = Caller(BOB)


@pytest.fixture
def uow():
    return FakeUnitOfWork()


@pytest.fixture
def clock():
    return MutableClock(T0)


# --- the ladder -----------------------------------------------------------------------------------


def test_an_application_moves_only_along_the_table_and_only_by_who_may_move_it():
    moves = {(a, b, m) for a, b, m in product(Status, Status, Mover) if may_move(a, b, m)}
    assert moves == {
        (S.SUBMITTED, S.PAID, P), (S.SUBMITTED, S.PAID, L),  # the lab: a quick order paid at the counter
        (S.PAID, S.AWAITING_DEVICES, C), (S.PAID, S.AWAITING_DEVICES, L),
        (S.AWAITING_DEVICES, S.RECEIVED, L), (S.RECEIVED, S.IN_CALIBRATION, L), (S.IN_CALIBRATION, S.RETURNED, L),
        (S.SUBMITTED, S.CANCELLED_BY_CUSTOMER, C), (S.PAID, S.CANCELLED_BY_CUSTOMER, C),
        (S.AWAITING_DEVICES, S.CANCELLED_BY_CUSTOMER, C),
        *((s, S.CANCELLED_BY_LAB, L) for s in (S.SUBMITTED, S.PAID, S.AWAITING_DEVICES, S.RECEIVED,
                                              S.IN_CALIBRATION)),
    }
    assert all(not is_cancelled(source) for source, _ in TRANSITIONS)  # nothing leaves a cancellation


def test_a_status_above_6_is_cancelled_as_the_spec_says():
    assert [s for s in Status if is_cancelled(s)] == [S.CANCELLED_BY_CUSTOMER, S.CANCELLED_BY_LAB]
    assert is_cancelled(9) and not is_cancelled(6)


@pytest.mark.parametrize("status, mover, expected", [
    (S.SUBMITTED, C, CancelCheck(True, None, 0)),
    (S.PAID, C, CancelCheck(True, None, 110000)),
    (S.AWAITING_DEVICES, C, CancelCheck(True, None, 110000)),
    (S.RECEIVED, C, CancelCheck(False, AlreadyReceived.code)),
    (S.IN_CALIBRATION, C, CancelCheck(False, AlreadyReceived.code)),
    (S.RETURNED, C, CancelCheck(False, AlreadyReturned.code)),
    (S.SUBMITTED, L, CancelCheck(True, None, 0)),
    (S.PAID, L, CancelCheck(True, None, 110000)),
    (S.AWAITING_DEVICES, L, CancelCheck(True, None, 110000)),
    (S.RECEIVED, L, CancelCheck(True, None, 0)),  # received: the operators decide a refund by hand
    (S.IN_CALIBRATION, L, CancelCheck(True, None, 0)),
    (S.RETURNED, L, CancelCheck(False, AlreadyReturned.code)),
])
def test_cancel_check_says_at_each_status_whether_cancelling_is_possible_and_what_it_pays_back(
        uow, clock, status, mover, expected):
    application, _ = at_status(uow, clock, status)
    assert cancel_check(application, mover) == expected
    caller = LAB if mover is L else AS_ALICE
    assert CheckCancel(uow)(caller, application.id) == expected


def test_a_cancelled_application_cannot_be_cancelled_again_nor_moved(uow, clock):
    application, _ = at_status(uow, clock, S.PAID)
    CancelApplication(uow, FakePayments(), clock)(AS_ALICE, application.id)
    assert cancel_check(uow.calibration_applications.get(application.id), L) == CancelCheck(False,
                                                                                            AlreadyCancelled.code)
    with pytest.raises(AlreadyCancelled):
        CancelApplication(uow, FakePayments(), clock)(LAB, application.id)
    with pytest.raises(AlreadyCancelled):
        ChangeStatus(uow, clock)(LAB, application.id, S.AWAITING_DEVICES)


@pytest.mark.parametrize("status", [S.PAID, S.AWAITING_DEVICES])
def test_cancelling_a_paid_application_before_the_devices_arrive_refunds_all_that_was_paid(uow, clock, status):
    application, _ = at_status(uow, clock, status)
    payments = FakePayments()
    cancelled = CancelApplication(uow, payments, clock)(AS_ALICE, application.id)
    assert (cancelled.refund_cents, cancelled.refund_state) == (110000, RefundState.SUCCEEDED)
    [refund] = payments.refunds
    assert (refund.number, refund.amount_cents, refund.total_cents, refund.pay_type, refund.reference) == (
        application.number, 110000, 110000, PayType.ALIPAY, "ali-1")
    stored = uow.calibration_applications.get(application.id)
    assert (stored.status, stored.refund_cents, stored.refund_state) == (S.CANCELLED_BY_CUSTOMER, 110000,
                                                                         RefundState.SUCCEEDED)


def test_cancelling_an_unpaid_application_asks_no_refund_and_withdraws_its_started_payment(uow, clock):
    application, _ = at_status(uow, clock, S.SUBMITTED)
    payments = FakePayments()
    StartPayment(uow, payments, DOMESTIC)(AS_ALICE, application.id, PayType.WECHAT)
    cancelled = CancelApplication(uow, payments, clock)(AS_ALICE, application.id)
    assert (cancelled.application.status, cancelled.refund_cents, cancelled.refund_state) == (
        S.CANCELLED_BY_CUSTOMER, 0, RefundState.NONE)
    assert payments.refunds == [] and [p.number for p in payments.closed] == [application.number]
    with pytest.raises(NotPayable):
        StartPayment(uow, payments, DOMESTIC)(AS_ALICE, application.id, PayType.WECHAT)


@pytest.mark.parametrize("status", [S.RECEIVED, S.IN_CALIBRATION])
def test_a_customer_cannot_cancel_once_the_lab_holds_the_devices_but_the_lab_can_without_a_refund(
        uow, clock, status):
    application, _ = at_status(uow, clock, status)
    payments = FakePayments()
    with pytest.raises(AlreadyReceived):
        CancelApplication(uow, payments, clock)(AS_ALICE, application.id)
    cancelled = CancelApplication(uow, payments, clock)(LAB, application.id)
    assert (cancelled.application.status, cancelled.refund_cents) == (S.CANCELLED_BY_LAB, 0)
    assert payments.refunds == []


def test_a_refund_the_provider_cannot_be_asked_stays_pending_and_is_asked_again_under_the_same_code(uow, clock):
    application, _ = at_status(uow, clock, S.PAID)
    down = FakePayments(fail=True)
    cancelled = CancelApplication(uow, down, clock)(AS_ALICE, application.id)
    assert cancelled.refund_state is RefundState.PENDING
    assert uow.calibration_applications.get(application.id).status is S.CANCELLED_BY_CUSTOMER  # cancelled anyway
    up = FakePayments(RefundAnswer.SUCCEEDED)
    assert ResumeRefunds(uow, up)() == {application.number: RefundState.SUCCEEDED}
    assert down.refunds[0].refund_code == up.refunds[0].refund_code  # the provider pays it once
    assert ResumeRefunds(uow, up)() == {}


def test_the_lab_completes_an_application_only_once_every_device_has_an_issued_certificate(uow, clock):
    application, _ = at_status(uow, clock, S.IN_CALIBRATION)
    first, second = application.lines
    draft = RecordResult(uow, clock, DOMESTIC)(LAB, application.id, first.index, content())
    IssueCertificate(uow, clock, DOMESTIC, "ECL")(LAB, draft.id)
    RecordResult(uow, clock, DOMESTIC)(LAB, application.id, second.index, content())  # a draft only
    with pytest.raises(CertificatesMissing):
        ChangeStatus(uow, clock)(LAB, application.id, S.RETURNED)
    draft = uow.calibration_certificates.latest(application.id, second.index)
    IssueCertificate(uow, clock, DOMESTIC, "ECL")(LAB, draft.id)
    assert ChangeStatus(uow, clock)(LAB, application.id, S.RETURNED).status is S.RETURNED


def test_the_lab_moves_one_step_at_a_time_and_a_customer_not_at_all(uow, clock):
    application, _ = at_status(uow, clock, S.AWAITING_DEVICES)
    with pytest.raises(StatusChangeRefused):
        ChangeStatus(uow, clock)(LAB, application.id, S.IN_CALIBRATION)  # skips received
    with pytest.raises(StatusChangeRefused):
        ChangeStatus(uow, clock)(LAB, application.id, S.PAID)  # back down
    with pytest.raises(StatusChangeRefused):
        ChangeStatus(uow, clock)(LAB, application.id, S.CANCELLED_BY_LAB)  # a cancellation refunds: its own call
    with pytest.raises(Forbidden):
        ChangeStatus(uow, clock)(AS_ALICE, application.id, S.RECEIVED)
    assert ChangeStatus(uow, clock)(LAB, application.id, S.RECEIVED).status is S.RECEIVED


# --- paying and pricing ---------------------------------------------------------------------------


def test_the_prices_are_frozen_on_the_application_and_the_total_is_their_sum_in_cents(uow, clock):
    items = (console_item(service=Service.EXPRESS), typed_item(), typed_item("SN-0002", Service.STANDARD_POINTS))
    quote = QuoteApplication(uow, DOMESTIC)(AS_ALICE, items)
    assert [line.price_cents for line in quote.lines] == [60000, 80000, 80000] and quote.total_cents == 220000
    application = apply(uow, clock, items=items, shown_total_cents=220000).application
    SetPrice(uow, DOMESTIC)(LAB, PriceConf(LOGGER, Service.EXPRESS, "CNY", 99900))
    stored = uow.calibration_applications.get(application.id)
    assert (stored.currency, stored.total_cents, [line.price_cents for line in stored.lines]) == (
        "CNY", 220000, [60000, 80000, 80000])
    assert (stored.lines[0].serial, stored.lines[0].model, stored.lines[0].device_id) == (
        ALICE_DEVICE.guid, "RCW-360", ALICE_DEVICE.id)
    assert QuoteApplication(uow, DOMESTIC)(AS_ALICE, items).total_cents == 259900  # new applications only


def test_a_total_the_customer_saw_that_differs_from_the_server_s_is_refused(uow, clock):
    with pytest.raises(PriceChanged):
        apply(uow, clock, shown_total_cents=109999)
    assert uow.calibration_applications.rows == {}


def test_only_the_edition_s_currency_prices_an_application(uow, clock):
    with pytest.raises(ServiceNotPriced):
        apply(uow, clock, items=(typed_item(type_id=LOGGER, service=Service.EXPRESS),
                                 typed_item("X1", Service.EXPRESS, type_id=999)))
    international = QuoteApplication(uow, Edition.INTERNATIONAL)(AS_ALICE, (typed_item(type_id=LOGGER),))
    assert (international.currency, international.total_cents) == ("USD", 4999)
    with pytest.raises(InvalidInput):
        SetPrice(uow, DOMESTIC)(LAB, PriceConf(LOGGER, Service.EXPRESS, "USD", 5000))


@pytest.mark.parametrize("cents", [0, -100, 30050, 10**12, True])
def test_a_price_is_positive_bounded_and_in_whole_yuan(uow, cents):
    with pytest.raises(InvalidInput):
        SetPrice(uow, DOMESTIC)(LAB, PriceConf(LOGGER, Service.EXPRESS, "CNY", cents))


def test_only_the_lab_sets_prices(uow):
    with pytest.raises(Forbidden):
        SetPrice(uow, DOMESTIC)(AS_ALICE, PriceConf(LOGGER, Service.EXPRESS, "CNY", 100))


def test_a_payment_settles_once_and_only_for_the_amount_the_application_charges(uow, clock):
    application = apply(uow, clock).application
    settle = SettlePayment(uow, clock)
    with pytest.raises(PaymentDiffers):
        settle(application.number, 109900, "CNY", PayType.ALIPAY, "ali-1")
    with pytest.raises(PaymentDiffers):
        settle(application.number, 110000, "USD", PayType.ALIPAY, "ali-1")
    assert settle(application.number, 110000, "cny", PayType.ALIPAY, "ali-1") is True
    assert settle(application.number, 110000, "CNY", PayType.ALIPAY, "ali-1") is False  # a repeated notification
    stored = uow.calibration_applications.get(application.id)
    assert (stored.status, stored.paid_cents, stored.pay_type) == (S.PAID, 110000, PayType.ALIPAY)


def test_a_cancelled_unpaid_application_is_not_settled_by_a_late_payment(uow, clock):
    application = apply(uow, clock).application
    CancelApplication(uow, FakePayments(), clock)(AS_ALICE, application.id)
    with pytest.raises(NotPayable):
        SettlePayment(uow, clock)(application.number, 110000, "CNY", PayType.ALIPAY, "ali-1")


def test_an_unpaid_application_is_paid_later_through_the_edition_s_providers_only(uow, clock):
    application = apply(uow, clock).application
    payments = FakePayments()
    started = StartPayment(uow, payments, DOMESTIC)(AS_ALICE, application.id, PayType.WECHAT)
    assert started.payer_fields == {"payQrCode": f"weixin://pay/{application.number}"}
    assert (payments.started[0].amount_cents, payments.started[0].currency) == (110000, "CNY")
    assert uow.calibration_applications.get(application.id).payment_reference == f"wx-{application.number}"
    with pytest.raises(PayTypeNotOffered):
        StartPayment(uow, payments, DOMESTIC)(AS_ALICE, application.id, PayType.PAYPAL)
    with pytest.raises(NotFound):
        StartPayment(uow, payments, DOMESTIC)(AS_BOB, application.id, PayType.WECHAT)
    pay(uow, clock, application)
    with pytest.raises(NotPayable):
        StartPayment(uow, payments, DOMESTIC)(AS_ALICE, application.id, PayType.WECHAT)


# --- devices on an application ----------------------------------------------------------------------


def test_a_console_device_must_be_the_applicant_s_with_its_own_guid(uow, clock):
    for caller, item in ((AS_ALICE, console_item(BOB_DEVICE)), (Caller(), console_item()),
                         (AS_ALICE, replace(console_item(), guid="RCW360A0000009"))):
        with pytest.raises(InvalidInput) as refused:
            apply(uow, clock, caller, items=(item,))
        assert refused.value.problems == {"devices[0].guid": "Choose one of your devices"}


def test_a_device_is_on_an_application_once(uow, clock):
    with pytest.raises(InvalidInput) as refused:
        apply(uow, clock, items=(typed_item("SN-1"), typed_item("sn-1")))
    assert refused.value.field == "devices[1]"
    with pytest.raises(InvalidInput):
        apply(uow, clock, items=(console_item(), console_item()))


def test_form_rules_name_every_wrong_field(uow, clock):
    bad = details(customer_name=" ", contact=Contact("Li\u200bLei", None, None), return_address="x" * 201)
    items = (ItemRequest(Service.EXTRA_POINTS, device_type_id=LOGGER, model="M", serial_number="bad serial!"),
             ItemRequest(Service.STANDARD_POINTS, device_id=ALICE_DEVICE.id, guid="RCW360A0000001",
                         serial_number="S1"))
    with pytest.raises(InvalidInput) as refused:
        Apply(uow, clock, DOMESTIC)(AS_ALICE, bad, items)
    assert set(refused.value.problems) == {"customerName", "contactName", "contactPhone", "returnAddress",
                                           "devices[0].pointsNote", "devices[0].serialNumber", "devices[1]"}
    with pytest.raises(InvalidInput) as refused:
        Apply(uow, clock, DOMESTIC)(AS_ALICE, details(), tuple(typed_item(f"S{i}") for i in range(51)))
    assert refused.value.problems == {"devices": "Choose 1 to 50 devices"}


# --- quick orders -----------------------------------------------------------------------------------


def test_a_quick_order_is_the_lab_s_completed_later_and_paid_at_the_counter(uow, clock):
    sparse = details(customer_name=None, return_address=None)
    with pytest.raises(Forbidden):
        PlaceQuickOrder(uow, clock, DOMESTIC)(AS_ALICE, sparse, (typed_item(),))
    placed = PlaceQuickOrder(uow, clock, DOMESTIC)(LAB, sparse, (typed_item(),))
    application = placed.application
    assert application.quick_order and not application.handled and placed.access_token
    assert [a.id for a in ListApplications(uow)(LAB, ApplicationFilter(quick_order=True), PageRequest(),
                                                everyone=True).items] == [application.id]
    with pytest.raises(InvalidInput):
        HandleQuickOrder(uow, clock)(LAB, application.id, sparse)  # completed means complete
    handled = HandleQuickOrder(uow, clock)(LAB, application.id, details())
    assert handled.handled and handled.details.return_address == "1 Harbour Road, Shanghai"
    paid = ChangeStatus(uow, clock)(LAB, application.id, S.PAID)
    assert (paid.status, paid.paid_cents, paid.pay_type) == (S.PAID, 80000, PayType.OFFLINE)


def test_the_lab_marks_paid_only_its_quick_orders(uow, clock):
    application = apply(uow, clock).application
    with pytest.raises(OfflinePaymentRefused):
        ChangeStatus(uow, clock)(LAB, application.id, S.PAID)


def test_a_quick_order_for_an_account_is_that_account_s(uow, clock):
    placed = PlaceQuickOrder(uow, clock, DOMESTIC)(LAB, details(), (console_item(),), account_id=ALICE)
    assert placed.access_token is None and placed.application.lines[0].device_id == ALICE_DEVICE.id
    assert ReadApplication(uow)(AS_ALICE, placed.application.id).id == placed.application.id


# --- tracking numbers -------------------------------------------------------------------------------


def test_the_inbound_tracking_number_tells_the_lab_the_devices_are_on_their_way(uow, clock):
    application, _ = at_status(uow, clock, S.SUBMITTED)
    track = SetTrackingNumber(uow, clock)
    with pytest.raises(TrackingNotNow):
        track(AS_ALICE, application.id, "SF1234567890")  # not paid yet
    pay(uow, clock, application)
    moved = track(AS_ALICE, application.id, " SF1234567890 ")
    assert (moved.status, moved.inbound_tracking) == (S.AWAITING_DEVICES, "SF1234567890")
    assert track(AS_ALICE, application.id, "YT99887766").inbound_tracking == "YT99887766"  # corrected
    with pytest.raises(InvalidInput):
        track(AS_ALICE, application.id, "SF 123\n")
    with pytest.raises(Forbidden):
        track(AS_ALICE, application.id, "SF1234567890", outbound=True)
    with pytest.raises(TrackingNotNow):
        track(LAB, application.id, "SF1234567890", outbound=True)  # the devices are not even here


def test_the_outbound_tracking_number_is_the_lab_s_once_calibrating(uow, clock):
    application, _ = at_status(uow, clock, S.IN_CALIBRATION)
    back = SetTrackingNumber(uow, clock)(LAB, application.id, "SF0000000001", outbound=True)
    assert back.outbound_tracking == "SF0000000001" and back.inbound_tracking == "SF1234567890"
    with pytest.raises(TrackingNotNow):
        SetTrackingNumber(uow, clock)(AS_ALICE, application.id, "SF1234567891")  # received: too late


# --- who reaches an application ------------------------------------------------------------------------


def test_an_application_number_is_readable_and_not_in_sequence():
    numbers = {new_application_number(T0) for _ in range(200)}
    assert len(numbers) == 200
    assert all(NUMBER_PATTERN.match(n) and n.startswith("CAL20260302") and len(n) == 19 for n in numbers)


def test_a_stranger_cannot_read_nor_change_another_s_application(uow, clock):
    application = apply(uow, clock).application
    for ref in (application.id, application.number):
        with pytest.raises(NotFound):
            ReadApplication(uow)(AS_BOB, ref)
        with pytest.raises(NotFound):
            CancelApplication(uow, FakePayments(), clock)(AS_BOB, ref)
        with pytest.raises(NotFound):  # a number and the right contact do not open an account's application
            ReadApplication(uow)(Caller(contact="li@acme.example"), ref)
    with pytest.raises(NotFound):
        UpdateDetails(uow, clock)(AS_BOB, application.id, details())
    with pytest.raises(NotFound):
        ReadApplication(uow)(AS_BOB, 999)  # a missing one is answered alike
    assert ListApplications(uow)(AS_BOB, ApplicationFilter(), PageRequest()).items == []
    assert [a.id for a in ListApplications(uow)(AS_ALICE, ApplicationFilter(), PageRequest()).items] == [
        application.id]
    with pytest.raises(Forbidden):
        ListApplications(uow)(AS_ALICE, ApplicationFilter(), PageRequest(), everyone=True)
    with pytest.raises(NotAuthenticated):
        ListApplications(uow)(Caller(), ApplicationFilter(), PageRequest())
    assert ReadApplication(uow)(LAB, application.id).id == application.id


def test_an_anonymous_customer_acts_by_token_and_reads_by_number_and_contact(uow, clock):
    applied = apply(uow, clock, Caller(), items=(typed_item(),))
    application, token = applied.application, applied.access_token
    assert application.applicant_account_id is None and token and application.access_digest != token
    number = application.number
    lower = number.lower()
    assert ReadApplication(uow)(Caller(token=token), lower).id == application.id
    assert ReadApplication(uow)(Caller(contact="LI@acme.example"), number).id == application.id
    assert ReadApplication(uow)(Caller(contact="+86 13800138000"), number).id == application.id
    for stranger in (Caller(), Caller(token="x" * 32), Caller(contact="13900139000"), Caller(contact=" "),
                     Caller(contact="someone@else.example")):
        with pytest.raises(NotFound):
            ReadApplication(uow)(stranger, number)
    with pytest.raises(NotFound):  # ids are sequential: never enough for an anonymous caller
        ReadApplication(uow)(Caller(token=token), application.id)
    with pytest.raises(TokenRequired):  # number and contact only read
        CancelApplication(uow, FakePayments(), clock)(Caller(contact="li@acme.example"), number)
    with pytest.raises(NotFound):  # another account's session does not open it either
        ReadApplication(uow)(AS_BOB, number)
    cancelled = CancelApplication(uow, FakePayments(), clock)(Caller(token=token), number)
    assert cancelled.application.status is S.CANCELLED_BY_CUSTOMER


def test_an_anonymous_customer_s_application_climbs_the_ladder_like_any(uow, clock):
    application, _ = at_status(uow, clock, S.RETURNED, caller=Caller())
    assert application.status is S.RETURNED and application.inbound_tracking == "SF1234567890"


def test_details_are_the_customer_s_until_the_devices_arrive_and_the_lab_s_until_complete(uow, clock):
    application, _ = at_status(uow, clock, S.AWAITING_DEVICES)
    assert UpdateDetails(uow, clock)(AS_ALICE, application.id, details(remark="Ring first")).details.remark == (
        "Ring first")
    ChangeStatus(uow, clock)(LAB, application.id, S.RECEIVED)
    with pytest.raises(DetailsLocked):
        UpdateDetails(uow, clock)(AS_ALICE, application.id, details())
    assert UpdateDetails(uow, clock)(LAB, application.id, details(remark="Fixed")).details.remark == "Fixed"


def test_the_base_info_keeps_the_invoice_and_the_invoice_call_changes_it_alone(uow, clock):
    application, _ = at_status(uow, clock, S.AWAITING_DEVICES)
    wanted = InvoiceDetails(InvoiceType.ENTERPRISE, "Acme Cold Chain Ltd", "91310000MA1FL00000")
    invoiced = UpdateDetails(uow, clock).invoice(AS_ALICE, application.id, wanted)
    assert (invoiced.details.invoice, invoiced.details.remark) == (wanted, None)
    rewritten = UpdateDetails(uow, clock)(AS_ALICE, application.id, details(remark="Ring first"))
    assert (rewritten.details.invoice, rewritten.details.remark) == (wanted, "Ring first")
    assert ReadApplication(uow)(AS_ALICE, application.id).details.invoice == wanted
    assert UpdateDetails(uow, clock).invoice(AS_ALICE, application.id, None).details.invoice is None
    ChangeStatus(uow, clock)(LAB, application.id, S.RECEIVED)
    with pytest.raises(DetailsLocked):
        UpdateDetails(uow, clock).invoice(AS_ALICE, application.id, wanted)
