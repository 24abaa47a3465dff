from __future__ import annotations

from dataclasses import dataclass

from core.shared.edition import PayType


@dataclass(frozen=True)
class CreateServiceOrder:
    """A service level for one device or a batch of one type. The fee fields are the client's
    figures, only checked: service_fee_cents the year option's listed fee, total_fee_cents what
    the whole order charges."""

    account_id: int
    device_ids: tuple[int, ...]
    level_id: int
    level_year_id: int
    package_id: int
    pay_type: PayType
    service_fee_cents: int
    total_fee_cents: int
    apply_flag: bool = False
    bill_id: int | None = None
    activity_id: int | None = None
    presentation_month: int | None = None
    sim_iccid: str | None = None
    coupon_code: str | None = None  # one coupon, taken off the total
    coupon_fee_cents: int | None = None  # what the client showed the coupon takes off: checked
    auto_renew: bool = False  # renew automatically through the provider's recurring mechanism (one device)
    camp: int = 0  # the camp of the platform it is placed through (core.platform.merchants)


@dataclass(frozen=True)
class CreateAlertOrder:
    """SMS and/or voice packages for one device or a batch of one country code. sms_fee_cents and
    voice_fee_cents are the packages' listed fees (0 without a package), total_fee_cents what the
    whole order charges."""

    account_id: int
    device_ids: tuple[int, ...]
    pay_type: PayType
    country_code: str
    sms_package_id: int | None
    sms_count: int
    sms_fee_cents: int
    voice_package_id: int | None
    voice_count: int
    voice_fee_cents: int
    total_fee_cents: int
    apply_flag: bool = False
    bill_id: int | None = None
    sim_iccid: str | None = None
    coupon_code: str | None = None
    coupon_fee_cents: int | None = None
    camp: int = 0


@dataclass(frozen=True)
class ConfirmPayment:
    """A wallet payment: the payment method the payer chose, to be charged for the order."""

    account_id: int
    order_id: int
    pay_type: PayType
    payment_method_id: str
    pay_fee_cents: int
