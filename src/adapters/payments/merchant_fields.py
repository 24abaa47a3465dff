"""What a platform's merchant account at each provider is made of: the fields an operator fills
(PayPdWxConfig, PayPdAliConfig and the international ones), how each is checked, and how they
replace the console's own configuration for that platform's orders.

The API roots (WECHAT_PAY_BASE_URL, ALIPAY_GATEWAY_URL...) stay the console's: an operator names an
account, never where the console sends money requests."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey, RSAPublicKey
from cryptography.hazmat.primitives.serialization import (
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
    load_pem_public_key,
)

from adapters.payments.configs import PaymentConfigs
from core.ordering.payments import Provider
from core.platform.model import MerchantField
from core.shared.messages import N_

Problem = tuple[str, dict[str, Any]]
Check = Callable[[str], Problem | None]

MAX_KEY = 8192  # characters: a 4096-bit RSA key in PEM is about 3,300


def _at_most(limit: int) -> Check:
    return lambda v: (N_("At most {max} characters"), {"max": limit}) if len(v) > limit else None


def _matching(pattern: str, message: str) -> Check:
    compiled = re.compile(pattern)
    return lambda v: None if compiled.fullmatch(v) else (message, {})


def _der(value: str) -> bytes:
    """A key written as the base64 body of its PEM (as Alipay's tools give it), markers optional."""
    body = re.sub(r"-----[A-Z ]+-----|\s", "", value)
    return base64.b64decode(body, validate=True)


def _loads(*loaders: Callable[[str], object], kind: type) -> Check:
    def check(value: str) -> Problem | None:
        for load in loaders:
            try:
                if isinstance(load(value), kind):
                    return None
            except (ValueError, TypeError, binascii.Error):
                continue
        return N_("Not a valid key or certificate"), {}
    return check


RSA_PRIVATE = _loads(lambda v: load_pem_private_key(v.encode(), None), lambda v: load_der_private_key(_der(v), None),
                     kind=RSAPrivateKey)
RSA_PUBLIC = _loads(lambda v: load_pem_public_key(v.encode()), lambda v: load_der_public_key(_der(v)),
                    kind=RSAPublicKey)
CERTIFICATE = _loads(lambda v: x509.load_pem_x509_certificate(v.encode()), kind=x509.Certificate)
PRIVATE_KEY_PEM = _loads(lambda v: load_pem_private_key(v.encode(), None), kind=RSAPrivateKey)
LETTERS_DIGITS = N_("Letters and digits only")


@dataclass(frozen=True)
class Spec:
    field: MerchantField
    attribute: str  # of the provider's configuration dataclass
    checks: tuple[Check, ...] = ()
    as_file: bool = False  # the SDK takes a path: the value is written to a private file


def _spec(name: str, attribute: str, *checks: Check, secret: bool = False, required: bool = False,
          multiline: bool = False, as_file: bool = False) -> Spec:
    return Spec(MerchantField(name, secret, required, multiline), attribute, checks, as_file)


SPECS: dict[Provider, tuple[Spec, ...]] = {
    Provider.WECHAT: (
        _spec("appId", "app_id", _at_most(32), _matching(r"[A-Za-z0-9_]+", LETTERS_DIGITS), required=True),
        _spec("mchId", "mch_id", _at_most(32), _matching(r"[0-9]+", N_("Digits only")), required=True),
        # API v2 keys are 32 characters the merchant sets on the merchant platform
        _spec("apiKey", "api_key", _matching(r"[A-Za-z0-9]{32}", N_("32 letters and digits")), secret=True,
              required=True),
        _spec("papayPlanId", "papay_plan_id", _at_most(32), _matching(r"[0-9]+", N_("Digits only"))),
        _spec("mchCert", "mch_cert", _at_most(MAX_KEY), CERTIFICATE, multiline=True, as_file=True),
        _spec("mchKey", "mch_key", _at_most(MAX_KEY), PRIVATE_KEY_PEM, secret=True, multiline=True, as_file=True),
        _spec("oauthSecret", "oauth_secret", _at_most(64), _matching(r"[A-Za-z0-9]+", LETTERS_DIGITS), secret=True),
    ),
    Provider.ALIPAY: (
        _spec("appId", "app_id", _at_most(32), _matching(r"[0-9]+", N_("Digits only")), required=True),
        _spec("privateKey", "app_private_key", _at_most(MAX_KEY), RSA_PRIVATE, secret=True, required=True,
              multiline=True),
        _spec("alipayPublicKey", "alipay_public_key", _at_most(MAX_KEY), RSA_PUBLIC, required=True, multiline=True),
        _spec("agreementSignScene", "agreement_sign_scene", _at_most(64),
              _matching(r"[A-Z_]+\|[A-Z_]+", N_("Two words in capitals joined by |, as INDUSTRY|DIGITAL_MEDIA"))),
    ),
    Provider.STRIPE: (
        _spec("secretKey", "secret_key", _at_most(255), _matching(r"(sk|rk)_[A-Za-z0-9_]+", N_("Starts with sk_")),
              secret=True, required=True),
        _spec("webhookSecret", "webhook_secret", _at_most(255), _matching(r"whsec_[A-Za-z0-9_]+",
                                                                          N_("Starts with whsec_")),
              secret=True, required=True),
        _spec("publishableKey", "publishable_key", _at_most(255), _matching(r"pk_[A-Za-z0-9_]+",
                                                                            N_("Starts with pk_"))),
    ),
    Provider.PAYPAL: (
        _spec("clientId", "client_id", _at_most(128), _matching(r"[A-Za-z0-9_-]+", LETTERS_DIGITS), required=True),
        _spec("clientSecret", "client_secret", _at_most(128), _matching(r"[A-Za-z0-9_-]+", LETTERS_DIGITS),
              secret=True, required=True),
    ),
}


class ProviderMerchantFields:
    """The MerchantFields of the providers offered (PAYMENT_PROVIDERS)."""

    def __init__(self, offered: Sequence[Provider]) -> None:
        self._offered = tuple(offered)

    def providers(self) -> tuple[str, ...]:
        return tuple(p.value for p in self._offered)

    def fields(self, provider: str) -> tuple[MerchantField, ...]:
        return tuple(s.field for s in SPECS[Provider(provider)])

    def problems(self, provider: str, values: Mapping[str, str]) -> dict[str, Problem]:
        found: dict[str, Problem] = {}
        for spec in SPECS[Provider(provider)]:
            value = values.get(spec.field.name)
            if value:
                problem = next((p for p in (check(value) for check in spec.checks) if p is not None), None)
                if problem is not None:
                    found[spec.field.name] = problem
        return found


def camp_configs(console: PaymentConfigs, provider: Provider, values: Mapping[str, str],
                 key_dir: Path) -> PaymentConfigs:
    """The console's configurations with the provider's made the camp's: the camp's account in place
    of the console's credentials. A field the camp left empty is empty (an account is not half the
    console's); a certificate or key the SDK reads from a file is written under `key_dir` (0600)."""
    own = console.of(provider)
    replaced: dict[str, str | None] = {}
    for spec in SPECS[provider]:
        value = values.get(spec.field.name) or None
        if value is not None and spec.as_file:
            value = str(_private_file(key_dir, value))
        replaced[spec.attribute] = value if value is not None or _optional(own, spec.attribute) else ""
    return dataclasses.replace(console, **{provider.value: dataclasses.replace(own, **replaced)})  # type: ignore


def _optional(config: object, attribute: str) -> bool:
    hint = str({f.name: f.type for f in dataclasses.fields(config)}[attribute])  # type: ignore[arg-type]
    return "None" in hint


def _private_file(directory: Path, content: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = directory / f"{hashlib.sha256(content.encode()).hexdigest()}.pem"
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(content)
    return path
