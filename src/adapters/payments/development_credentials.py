"""Credentials shared by the console and the payment sandbox (tools/payment_sandbox) in development:
generated once under var/ (like the development secret key), never committed. The console owns
them and the sandbox reads them, so the console needs no part of the sandbox to start. Imported
only outside production, which takes each provider's real credentials from the environment."""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

FILE_NAME = "payment-sandbox.json"


@dataclass(frozen=True)
class DevelopmentCredentials:
    wechat_app_id: str
    wechat_mch_id: str
    wechat_api_key: str  # WeChat Pay API v2 key: signs both ways
    alipay_app_id: str
    # RSA keys as Alipay's SDK takes them: the base64 body of the PEM, on one line, no markers.
    alipay_app_private_key: str  # PKCS#1: the merchant signs requests with it
    alipay_app_public_key: str  # SPKI: the sandbox verifies them
    alipay_private_key: str  # PKCS#1: the sandbox ("Alipay") signs answers and notifications
    alipay_public_key: str  # SPKI: the merchant verifies them
    stripe_secret_key: str
    stripe_publishable_key: str
    stripe_webhook_secret: str
    paypal_client_id: str
    paypal_client_secret: str
    # The papay contract template the sandbox signs WeChat contracts under (a default: older files lack it).
    wechat_papay_plan_id: str = "12535"

    def console_environment(self) -> dict[str, str]:
        """The console's side, as the variables that would set it: what each provider's
        configuration falls back to in development when its variable is unset."""
        return {
            "WECHAT_APP_ID": self.wechat_app_id, "WECHAT_MCH_ID": self.wechat_mch_id,
            "WECHAT_API_KEY": self.wechat_api_key, "WECHAT_PAPAY_PLAN_ID": self.wechat_papay_plan_id,
            "ALIPAY_APP_ID": self.alipay_app_id,
            "ALIPAY_PRIVATE_KEY": self.alipay_app_private_key, "ALIPAY_PUBLIC_KEY": self.alipay_public_key,
            "STRIPE_SECRET_KEY": self.stripe_secret_key, "STRIPE_PUBLISHABLE_KEY": self.stripe_publishable_key,
            "STRIPE_WEBHOOK_SECRET": self.stripe_webhook_secret, "PAYPAL_CLIENT_ID": self.paypal_client_id,
            "PAYPAL_CLIENT_SECRET": self.paypal_client_secret,
        }


def _pem_body(pem: bytes) -> str:
    return "".join(line for line in pem.decode().splitlines() if not line.startswith("-----"))


def _rsa_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo)
    return _pem_body(private), _pem_body(public)


def generate() -> DevelopmentCredentials:
    app_private, app_public = _rsa_pair()
    alipay_private, alipay_public = _rsa_pair()
    return DevelopmentCredentials(
        wechat_app_id="wxsandbox0000000", wechat_mch_id="1900000109", wechat_api_key=secrets.token_hex(16),
        alipay_app_id="2021000000000000", alipay_app_private_key=app_private, alipay_app_public_key=app_public,
        alipay_private_key=alipay_private, alipay_public_key=alipay_public,
        stripe_secret_key=f"sk_test_{secrets.token_hex(12)}", stripe_publishable_key=f"pk_test_{secrets.token_hex(12)}",
        stripe_webhook_secret=f"whsec_{secrets.token_hex(16)}",
        paypal_client_id=f"sandbox-{secrets.token_hex(8)}", paypal_client_secret=secrets.token_hex(16))


def development_credentials(var_dir: Path) -> DevelopmentCredentials:
    """The credentials under `var_dir`, generated on first use (readable by the owner only)."""
    path = var_dir / FILE_NAME
    if not path.exists():
        var_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            json.dump(asdict(generate()), handle, indent=1)
    return DevelopmentCredentials(**json.loads(path.read_text()))
