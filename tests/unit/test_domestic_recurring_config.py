"""What WeChat Pay's papay and Alipay's agreement pay are configured with: a plan and a sign scene
that only switch automatic renewal on, never the provider's payments off."""

import json
from dataclasses import asdict

from adapters.payments.configs import PaymentConfigs
from adapters.payments.development_credentials import FILE_NAME, development_credentials, generate
from adapters.payments.gateways import provider_gateways
from adapters.payments.provider_config import ProviderDefaults
from core.ordering.payments import Provider
from core.shared.edition import PayType
from entrypoints.settings import load_settings
from tests.unit.test_settings_and_adapters import production

DOMESTIC = (Provider.WECHAT, Provider.ALIPAY)


def test_in_production_renewals_wait_for_the_plan_and_sign_scene_while_payments_go_on(tmp_path):
    settings = load_settings(production(tmp_path))  # starts: neither is a credential payments need
    assert (settings.payments.wechat.papay_plan_id, settings.payments.alipay.agreement_sign_scene) == (None, None)
    assert set(DOMESTIC) <= set(settings.switched_on_providers)
    gateways = provider_gateways(settings.payments, DOMESTIC, DOMESTIC, "https://console.example.com")
    assert gateways.offers(PayType.WECHAT) and gateways.recurring(PayType.WECHAT) is None
    assert gateways.offers(PayType.ALIPAY) and gateways.recurring(PayType.ALIPAY) is None

    renewing = load_settings(production(tmp_path, WECHAT_PAPAY_PLAN_ID="77001",
                                        ALIPAY_AGREEMENT_SIGN_SCENE="INDUSTRY|CARRENTAL")).payments
    assert (renewing.wechat.papay_plan_id, renewing.alipay.agreement_sign_scene) == ("77001", "INDUSTRY|CARRENTAL")
    gateways = provider_gateways(renewing, DOMESTIC, DOMESTIC, "https://console.example.com")
    assert gateways.recurring(PayType.WECHAT) is not None and gateways.recurring(PayType.ALIPAY) is not None


def test_in_development_the_sandbox_plan_and_a_sign_scene_are_the_defaults(tmp_path):
    payments = load_settings({"VAR_DIR": str(tmp_path)}).payments
    assert payments.wechat.papay_plan_id == development_credentials(tmp_path).wechat_papay_plan_id
    assert payments.alipay.agreement_sign_scene == "INDUSTRY|DIGITAL_MEDIA"
    elsewhere = PaymentConfigs.from_env({}, ProviderDefaults(production=False))  # tests: the sandbox's too
    assert elsewhere.wechat.papay_plan_id == generate().wechat_papay_plan_id


def test_development_credentials_written_before_papay_are_read_with_the_sandbox_plan(tmp_path):
    older = {k: v for k, v in asdict(generate()).items() if k != "wechat_papay_plan_id"}
    (tmp_path / FILE_NAME).write_text(json.dumps(older))
    credentials = development_credentials(tmp_path)
    assert credentials.wechat_api_key == older["wechat_api_key"]
    assert credentials.console_environment()["WECHAT_PAPAY_PLAN_ID"] == generate().wechat_papay_plan_id
