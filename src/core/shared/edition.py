"""The two editions of the product, switched by one setting."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

LANGUAGES: tuple[str, ...] = ("en-US", "zh-CN", "es-ES", "ru-RU", "pt-PT", "de-DE", "zh-TW")


class PayType(int, Enum):
    WECHAT = 1
    ALIPAY = 2
    PAYPAL = 20
    GOOGLE_PAY = 30
    CARD_PAYMENT_REQUEST = 40
    RECHARGE_CARD = 50  # a prepaid recharge card redeemed (core.vouchers): paid at once, fee 0, no provider
    OFFLINE = 60  # an offline purchase paid by contract (core.ordering.offline): no provider
    BANK_TRANSFER = 61  # an offline purchase paid by bank transfer


# What a payer may choose: the pay types a provider handles.
PAYMENT_PAY_TYPES: tuple[PayType, ...] = tuple(
    p for p in PayType if p not in (PayType.RECHARGE_CARD, PayType.OFFLINE, PayType.BANK_TRANSFER))


@dataclass(frozen=True)
class EditionProfile:
    name: str
    currency: str
    default_language: str
    pay_types: tuple[PayType, ...]
    fixed_country_code: str | None
    default_country_code: str
    default_time_zone: str


class Edition(StrEnum):
    DOMESTIC = "domestic"
    INTERNATIONAL = "international"

    @property
    def profile(self) -> EditionProfile:
        return _PROFILES[self]


_PROFILES = {
    Edition.DOMESTIC: EditionProfile(
        name="domestic",
        currency="CNY",
        default_language="zh-CN",
        pay_types=(PayType.WECHAT, PayType.ALIPAY),
        fixed_country_code="86",
        default_country_code="86",
        default_time_zone="Asia/Shanghai",
    ),
    Edition.INTERNATIONAL: EditionProfile(
        name="international",
        currency="USD",
        default_language="en-US",
        pay_types=(PayType.PAYPAL, PayType.GOOGLE_PAY, PayType.CARD_PAYMENT_REQUEST),
        fixed_country_code=None,
        default_country_code="1",
        default_time_zone="UTC",
    ),
}


def reading_languages(language: str | None, edition: Edition | str) -> tuple[str, ...]:
    """Where a reader's catalogue names come from: their language, then the platform's default
    (`edition`'s, or the default language itself)."""
    default = edition.profile.default_language if isinstance(edition, Edition) else edition
    return tuple(dict.fromkeys(lang for lang in (language, default) if lang))
