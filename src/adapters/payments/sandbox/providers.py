"""The four providers of the sandbox."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adapters.payments.sandbox.provider import SandboxContext, SandboxProvider

if TYPE_CHECKING:
    from adapters.payments.sandbox.app import SandboxConfig


def all_providers(context: SandboxContext, config: SandboxConfig) -> list[SandboxProvider]:
    from adapters.payments.sandbox.alipay import AlipaySandbox
    from adapters.payments.sandbox.paypal import PayPalSandbox
    from adapters.payments.sandbox.stripe import StripeSandbox
    from adapters.payments.sandbox.wechat import WechatSandbox

    return [WechatSandbox(context, config), AlipaySandbox(context, config), StripeSandbox(context, config),
            PayPalSandbox(context, config)]
