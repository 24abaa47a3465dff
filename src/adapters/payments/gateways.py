"""The gateway behind each pay type when PAYMENT_BACKEND is `providers`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adapters.payments.development import GatewaysByPayType
from core.shared.edition import PayType

if TYPE_CHECKING:
    from entrypoints.settings import Settings

NOTIFY_PATH = "/api/payment/notify"
PAYPAL_RETURN_PATH, PAYPAL_CANCEL_PATH = "/api/payment/paypal/return", "/api/payment/paypal/cancel"


def provider_gateways(settings: Settings) -> GatewaysByPayType:
    # Imported here: each SDK is large, and the development backend needs none of them.
    from adapters.payments.alipay import AlipayGateway
    from adapters.payments.paypal import PayPalGateway
    from adapters.payments.stripe_pay import StripeGateway
    from adapters.payments.wechat_pay import WechatPayGateway

    p, console = settings.providers, settings.public_base_url
    stripe = StripeGateway(p.stripe_api_base, p.stripe_secret_key, p.stripe_webhook_secret)
    return GatewaysByPayType({
        PayType.WECHAT: WechatPayGateway(p.wechat_pay_base_url, p.wechat_app_id, p.wechat_mch_id, p.wechat_api_key,
                                         f"{console}{NOTIFY_PATH}/wechat", mch_cert=p.wechat_mch_cert,
                                         mch_key=p.wechat_mch_key, oauth_secret=p.wechat_oauth_secret),
        PayType.ALIPAY: AlipayGateway(p.alipay_gateway_url, p.alipay_app_id, p.alipay_private_key,
                                      p.alipay_public_key, f"{console}{NOTIFY_PATH}/alipay"),
        PayType.PAYPAL: PayPalGateway(p.paypal_base_url, p.paypal_client_id, p.paypal_client_secret,
                                      f"{console}{PAYPAL_RETURN_PATH}", f"{console}{PAYPAL_CANCEL_PATH}"),
        PayType.GOOGLE_PAY: stripe,
        PayType.CARD_PAYMENT_REQUEST: stripe,
    })
