"""The four providers of the sandbox."""

from __future__ import annotations

from payment_sandbox.alipay import AlipaySandbox
from payment_sandbox.paypal import PayPalSandbox
from payment_sandbox.provider import SandboxConfig, SandboxContext, SandboxProvider
from payment_sandbox.stripe import StripeSandbox
from payment_sandbox.wechat import WechatSandbox


def all_providers(context: SandboxContext, config: SandboxConfig) -> list[SandboxProvider]:
    return [WechatSandbox(context, config), AlipaySandbox(context, config), StripeSandbox(context, config),
            PayPalSandbox(context, config)]
