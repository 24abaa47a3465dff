"""The refusals of coupons and recharge cards (HTTP 409 unless said), each with its stable code."""

from __future__ import annotations

from core.shared.errors import DomainError, RuleViolation
from core.shared.messages import N_


class CouponNotFound(RuleViolation):
    code = 2041
    message = N_("This coupon code does not exist")


class CouponNotValid(RuleViolation):
    code = 2042
    message = N_("This coupon is not valid now")


class CouponUsed(RuleViolation):
    code = 2043
    message = N_("This coupon has already been used")


class CouponReserved(RuleViolation):
    code = 2044
    message = N_("This coupon is held by another unpaid order")


class CouponCurrency(RuleViolation):
    code = 2045
    message = N_("This coupon is not for this currency")


class CouponTooLarge(RuleViolation):
    code = 2046
    message = N_("This coupon is worth the whole order or more: it cannot be used on it")


class CardRefused(RuleViolation):
    code = 2051
    message = N_("The card number or the secret is wrong")


class CardLocked(RuleViolation):
    code = 2052
    message = N_("Too many wrong tries: this card number is locked for {minutes} minutes")


class CardUsed(RuleViolation):
    code = 2053
    message = N_("This card has already been used")


class CardNotValid(RuleViolation):
    code = 2054
    message = N_("This card is not valid now")


class CardNotForDevice(RuleViolation):
    code = 2055
    message = N_("This card's level is not sold for this device's type")


class ActivityNotFound(RuleViolation):
    code = 2061
    message = N_("No such activity")


class LevelNotFound(RuleViolation):
    code = 2062
    message = N_("No such service level")


ERRORS: tuple[type[DomainError], ...] = (
    CouponNotFound, CouponNotValid, CouponUsed, CouponReserved, CouponCurrency, CouponTooLarge, CardRefused,
    CardLocked, CardUsed, CardNotValid, CardNotForDevice, ActivityNotFound, LevelNotFound,
)
