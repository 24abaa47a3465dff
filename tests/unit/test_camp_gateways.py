"""A white-label platform's orders go through its own merchant account (adapters/payments/gateways.py
CampGateways): the real adapters, built from the camp's fields; nothing here is sent anywhere."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

import pytest

from adapters.payments.configs import PaymentConfigs
from adapters.payments.development_credentials import generate
from adapters.payments.gateways import ProviderSwitchedOff, camp_gateways
from adapters.payments.provider_config import ProviderDefaults
from core.ordering.payments import InvalidNotification, Provider
from core.shared.edition import PayType
from payment_sandbox.wechat import sign, to_xml

CONSOLE = "https://console.example.com"
CAMP_KEY = secrets.token_hex(16)
CAMP_WECHAT = {"appId": "wxcamp0001", "mchId": "1900000201", "apiKey": CAMP_KEY}


def payment_result(app_id: str, mch_id: str, key: str) -> bytes:
    fields = {"return_code": "SUCCESS", "result_code": "SUCCESS", "appid": app_id, "mch_id": mch_id,
              "nonce_str": secrets.token_hex(8), "out_trade_no": "20261127000001", "total_fee": "9900",
              "fee_type": "CNY", "transaction_id": "4200000000000000000000000001", "time_end": "20261127100000"}
    fields["sign"] = sign(fields, key)
    return to_xml(fields)


@pytest.fixture
def accounts():
    return {1: {"wechat": (datetime(2026, 11, 27, tzinfo=UTC), dict(CAMP_WECHAT))}}


@pytest.fixture
def gateways(tmp_path, accounts):
    credentials = generate()
    configs = PaymentConfigs.from_env({}, ProviderDefaults(False, "http://127.0.0.1:9",
                                                           credentials.console_environment()))
    offered = (Provider.WECHAT, Provider.ALIPAY)
    built = camp_gateways(configs, offered, offered, CONSOLE, lambda camp: accounts.get(camp, {}), tmp_path)
    built.credentials = credentials  # type: ignore[attr-defined]
    return built


def test_a_camp_with_its_own_wechat_account_verifies_its_notifications_with_its_key_only(gateways):
    console, camp = gateways.at(0), gateways.at(1)
    assert camp[PayType.WECHAT] is not console[PayType.WECHAT]
    assert camp[PayType.ALIPAY] is console[PayType.ALIPAY]  # no own Alipay account: the console's
    note = camp[PayType.WECHAT].parse_notification({}, payment_result("wxcamp0001", "1900000201", CAMP_KEY))
    assert (note.order_code, note.amount_cents, note.paid) == ("20261127000001", 9900, True)
    with pytest.raises(InvalidNotification):  # the console's key knows nothing of the camp's account
        console[PayType.WECHAT].parse_notification({}, payment_result("wxcamp0001", "1900000201", CAMP_KEY))
    c = gateways.credentials
    with pytest.raises(InvalidNotification):  # nor does the camp's of the console's
        camp[PayType.WECHAT].parse_notification({}, payment_result(c.wechat_app_id, c.wechat_mch_id,
                                                                   c.wechat_api_key))


def test_a_camps_gateways_are_built_once_and_again_when_its_account_changes(gateways, accounts):
    first = gateways.at(1)
    assert gateways.at(1) is first and gateways.at(2) is gateways.at(0)
    accounts[1] = {"wechat": (datetime(2026, 11, 27, tzinfo=UTC), {**CAMP_WECHAT, "mchId": "1900000202"})}
    assert gateways.at(1) is not first


def test_a_camp_account_that_cannot_be_used_switches_the_provider_off_for_it_never_paying_the_console(
        gateways, accounts):
    accounts[3] = {"wechat": (datetime(2026, 11, 27, tzinfo=UTC), {**CAMP_WECHAT, "apiKey": ""})}
    assert not gateways.at(3).offers(PayType.WECHAT) and gateways.at(3).offers(PayType.ALIPAY)
    with pytest.raises(ProviderSwitchedOff):
        gateways.at(3)[PayType.WECHAT].query(None)
    assert gateways.at(0).offers(PayType.WECHAT)


def test_the_consoles_own_accounts_are_the_environments_whatever_is_stored(gateways, accounts):
    accounts[0] = {"wechat": (datetime(2026, 11, 27, tzinfo=UTC), dict(CAMP_WECHAT))}
    assert gateways.at(0)[PayType.WECHAT] is gateways[PayType.WECHAT] is not gateways.at(1)[PayType.WECHAT]


def test_a_camp_account_of_a_provider_not_offered_is_ignored(gateways, accounts):
    stripe = {"secretKey": "sk_test_x", "webhookSecret": "whsec_x"}
    accounts[4] = {"stripe": (datetime(2026, 11, 27, tzinfo=UTC), stripe)}
    assert gateways.at(4) is gateways.at(0)
