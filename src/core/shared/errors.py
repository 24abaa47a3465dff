"""Errors the core raises. Each carries a stable business code and an English message id.

The HTTP layer maps the class to a status; the code is what clients and QA suites rely on.
"""

from __future__ import annotations

from typing import Any

from core.shared.messages import N_


class DomainError(Exception):
    code: int = 409
    message: str = N_("The request was refused.")
    # What the client needs besides the message to act on the refusal: the envelope's `data`.
    data: dict[str, Any] | None = None

    def __init__(self, message: str | None = None, **params: Any) -> None:
        self.message = message or type(self).message
        self.params = params
        super().__init__(self.message.format(**params) if params else self.message)


class RuleViolation(DomainError):
    """A business rule refused the request (HTTP 409)."""


class InvalidInput(DomainError):
    """Input that passed the edge's shape checks but breaks a rule of the core (HTTP 422)."""

    code = 422

    def __init__(self, field: str, message: str, **params: Any) -> None:
        self.field = field
        self.problems = {field: message}
        # The parameters of each field's message ("At most {max} characters"), where it has some.
        self.problem_params: dict[str, dict[str, Any]] = {field: params} if params else {}
        super().__init__(message, **params)

    @classmethod
    def of(cls, problems: dict[str, str], params: dict[str, dict[str, Any]] | None = None) -> InvalidInput:
        """Several fields at once, each message with its parameters (by field) if it has any."""
        first, message = next(iter(problems.items()))
        params = params or {}
        error = cls(first, message, **params.get(first, {}))
        error.problems = dict(problems)
        error.problem_params = {field: p for field, p in params.items() if p}
        return error


class NotAuthenticated(DomainError):
    """No session, or an expired or revoked one (HTTP 401)."""

    code = 2010
    message = N_("Logon timeout, please login again")


class Forbidden(DomainError):
    code = 403
    message = N_("Access denied")


class NotFound(DomainError):
    code = 404
    message = N_("Not found")


class TooManyAttempts(DomainError):
    """Refused for a while after repeated failures (HTTP 429 with Retry-After)."""

    code = 429
    message = N_("Too many failed attempts, please try again in {minutes} minutes")
    seconds_message = N_("Too many failed attempts, please wait {seconds} s and try again")

    def __init__(self, retry_after_seconds: int) -> None:
        self.retry_after_seconds = max(1, retry_after_seconds)
        if self.retry_after_seconds < 120:  # the short waits of login throttling are said in seconds
            super().__init__(self.seconds_message, seconds=self.retry_after_seconds)
        else:
            super().__init__(minutes=-(-self.retry_after_seconds // 60))


# --- Business rules of the session and account area (HTTP 409 unless noted) -------------


class BadCredentials(DomainError):
    """Wrong user name or password; the same whether or not the user exists (HTTP 401). Says
    (data.captchaRequired) whether the next login of the name from the address needs the image
    code, so the login page shows it exactly when the server wants it."""

    code = 1001
    message = N_("Incorrect user name or password")

    def __init__(self, *, captcha_required: bool = False) -> None:
        super().__init__()
        self.data = {"captchaRequired": captcha_required}


class AccountDisabled(RuleViolation):
    code = 1002
    message = N_("This account has been disabled, please contact customer service")


class WrongVerificationCode(RuleViolation):
    code = 1003
    message = N_("The verification code is wrong or has expired")


class WrongCaptcha(RuleViolation):
    code = 1004
    message = N_("The image code is wrong or has expired")


class UserAlreadyExists(RuleViolation):
    code = 1005
    message = N_("User already exists")


class ContactAlreadyBound(RuleViolation):
    code = 1006
    message = N_("This phone number or e-mail address is already bound to another account")


class CodeSentTooOften(RuleViolation):
    code = 1007
    message = N_("A code was sent recently, please wait {seconds} seconds before asking again")


class WrongPassword(RuleViolation):
    """A signed-in caller confirmed an action with a wrong password. Not a 401: the caller's
    session is fine, and a 401 would log them out."""

    code = 1008
    message = N_("The password is wrong")


class ContactAlreadySet(RuleViolation):
    """Binding fills an empty phone or e-mail only; replacing one needs the password."""

    code = 1009
    message = N_("This account already has one; change it in your account settings")


class AlarmRuleExists(RuleViolation):
    code = 1010
    message = N_("This probe of the device already has an alarm rule")


class AlarmAlreadyHandled(RuleViolation):
    code = 1011
    message = N_("This alarm has already been handled")


class RuleHeldByAsset(RuleViolation):
    """A disabled asset holds its devices' alarm rules off (core/assets SetAssetState) and turns
    them back on when enabled; a rule switched on by hand meanwhile would alarm on a device its
    owner paused."""

    code = 1016
    message = N_("This device belongs to the disabled asset {asset}: enable the asset to switch its alarm "
                 "rules on, or keep this rule switched off")


class CaptchaRequired(RuleViolation):
    """Repeated failures for this name or from this address: a password login needs the image
    code as well (the right password with it gets in)."""

    code = 1014
    message = N_("Enter the characters in the image to log in")


class AccountProtected(RuleViolation):
    """Failures from many addresses: the password alone no longer logs this name in."""

    code = 1015
    message = N_("This account is protected after failed logins from many places: log in with the image "
                 "code, or with a code sent to your phone or e-mail")


# --- Devices (HTTP 409) -------------------------------------------------------------------


class DeviceAlreadyAdded(RuleViolation):
    """A GUID is one device: it is added once, by whoever has it in hand first."""

    code = 1012
    message = N_("This device has already been added")


class DeviceTypeNotAddable(RuleViolation):
    """Only published types whose addType allows the platform (not "app only") are added here."""

    code = 1013
    message = N_("Devices of this type cannot be added on the platform")


class DeviceMeasuresNoEnergy(RuleViolation):
    """Energy is asked only of devices whose type has an energy meter (a "kwh" probe)."""

    code = 1030
    message = N_("Device does not support this")


class DeviceScrapped(RuleViolation):
    """A scrapped device is kept for its history only: it is not recharged nor sent commands until
    its owner restores it."""

    code = 1031
    message = N_("This device has been scrapped: restore it first")


class RecordsKeptByFda(RuleViolation):
    """21 CFR Part 11: while FDA mode is on for a device's records (its organization's, else its
    owner's), its readings and alarm records are never deleted, neither with the device nor alone."""

    code = 2351
    message = N_("FDA mode keeps the records of {device}: its readings and alarms cannot be deleted while "
                 "FDA mode is on")


class RecordsStayWithFdaSubject(RuleViolation):
    """21 CFR Part 11: a device whose records FDA mode keeps (its organization's, else its owner's)
    does not move to another organization or back to its owner while it is on: its records would
    leave the audit trail and the control of whoever keeps them, and could then be deleted."""

    code = 2352
    message = N_("FDA mode keeps the records of {device} where they are: it cannot leave them while FDA mode is on")


# --- Recharge: orders, invoices (HTTP 409) ----------------------------------------------------


class PriceChanged(RuleViolation):
    """The client's figure differs from the server's own price: nothing is charged."""

    code = 1101
    message = N_("The price has changed, please refresh and try again")


class FreeLevelNotOrderable(RuleViolation):
    code = 1102
    message = N_("A free service level cannot be purchased")


class MixedDeviceTypes(RuleViolation):
    code = 1103
    message = N_("Only devices of the same type can be recharged together")


class CountryCodeMismatch(RuleViolation):
    code = 1104
    message = N_("Only devices sharing a country code can be recharged together")


class BillRequired(RuleViolation):
    code = 1105
    message = N_("Choose an invoice, or turn off the invoice option")


class NothingToBuy(RuleViolation):
    code = 1106
    message = N_("Choose an SMS or voice package")


class AgreementActive(RuleViolation):
    code = 1107
    message = N_("Cancel the automatic renewal of this device before changing its service level")


class PayTypeNotOffered(RuleViolation):
    code = 1108
    message = N_("This payment method is not offered here")


class LevelNotOffered(RuleViolation):
    """The level, year option or package is not in the catalogue of the device's type."""

    code = 1109
    message = N_("This service is not offered for this device")


class NoActiveAgreement(RuleViolation):
    code = 1110
    message = N_("This device has no automatic renewal to cancel")


class OrderNotPayable(RuleViolation):
    """Paid, refunded or closed already."""

    code = 1111
    message = N_("This order can no longer be paid")


class PaymentFailed(RuleViolation):
    """The provider did not take the payment; `data.failure` says why when it is known (declined,
    cancelled, failed), so the paying drawer can say it and offer a retry."""

    code = 1112
    message = N_("Payment failed")

    def __init__(self, message: str | None = None, *, failure: str | None = None) -> None:
        super().__init__(message)
        if failure is not None:
            self.data = {"failure": failure}


class TooManyBills(RuleViolation):
    code = 1113
    message = N_("You can keep at most {limit} invoices")


class OrderNotRefundable(RuleViolation):
    code = 1114
    message = N_("Order cannot be refunded or manually handled")


class PaymentMethodUnavailable(RuleViolation):
    """The pay type is the edition's, but its provider is switched off (not offered, or missing
    a credential it needs)."""

    code = 1115
    message = N_("This payment method is not available at the moment, please choose another")


class OrderNotCancellable(RuleViolation):
    """Paid or refunded: only an unpaid order is cancelled."""

    code = 1121
    message = N_("This order has been paid and can no longer be cancelled")


class CancelFailed(RuleViolation):
    """The provider did not withdraw the payment (unreachable, or the payer is paying it right now):
    the order stays unpaid, and reconciliation settles or closes it."""

    code = 1122
    message = N_("The order could not be cancelled just now, please try again in a minute")


class OrderExpired(RuleViolation):
    """Its payment stopped working at the provider: it is closed, and a new order is needed."""

    code = 1123
    message = N_("This order has expired, please place a new one")


class LifelongService(RuleViolation):
    """A device with lifelong service keeps it (core/pricing/level_change.py)."""

    code = 1124
    message = N_("This device has lifelong service: another level can only be bought for life")


class CurrentLevelNotValued(RuleViolation):
    """The device's level is no longer in its type's catalogue, so its remaining time has no price
    to be converted at."""

    code = 1125
    message = N_("The device's current level is no longer offered, so its remaining time cannot be converted: "
                 "please contact customer service")


class MessageAlreadyAnswered(RuleViolation):
    """A system message that asks for a decision takes one answer, never a second."""

    code = 1631
    message = N_("This message has already been answered")


class MessageNeedsNoAnswer(RuleViolation):
    code = 1632
    message = N_("This message asks for no answer")


BUSINESS_ERRORS: tuple[type[DomainError], ...] = (
    BadCredentials,
    AccountDisabled,
    WrongVerificationCode,
    WrongCaptcha,
    UserAlreadyExists,
    ContactAlreadyBound,
    CodeSentTooOften,
    WrongPassword,
    ContactAlreadySet,
    AlarmRuleExists,
    AlarmAlreadyHandled,
    RuleHeldByAsset,
    CaptchaRequired,
    AccountProtected,
    DeviceAlreadyAdded,
    DeviceTypeNotAddable,
    DeviceScrapped,
    RecordsKeptByFda,
    PriceChanged,
    FreeLevelNotOrderable,
    MixedDeviceTypes,
    CountryCodeMismatch,
    BillRequired,
    NothingToBuy,
    AgreementActive,
    PayTypeNotOffered,
    LevelNotOffered,
    NoActiveAgreement,
    OrderNotPayable,
    PaymentFailed,
    TooManyBills,
    OrderNotRefundable,
    PaymentMethodUnavailable,
    OrderNotCancellable,
    CancelFailed,
    OrderExpired,
    LifelongService,
    CurrentLevelNotValued,
    MessageAlreadyAnswered,
    MessageNeedsNoAnswer,
)
