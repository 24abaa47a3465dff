"""Attacks on payment notifications (issue 13, items 1-3), performed against the console served over
HTTP on SQLite and PostgreSQL, with the providers' real SDK adapters and the payment sandbox, which
signs every notification as its provider does.

1. A provider whose credentials are missing is switched off: a WeChat Pay notification signed as
   wechatpy signs with an empty key (MD5 of the sorted fields, no key) settles nothing, the pay
   type is not offered and no order can be placed with it; production refuses to start instead.
2. A validly signed notification (or capture) in another currency than the order's settles nothing,
   for every provider, and reconciliation does not settle it either.
3. A genuine notification for an order refunded since is answered as received (the provider stops
   retrying), changes nothing and is recorded.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import requests
from sqlalchemy import func, select

from adapters.persistence.models import OrderRow, PaymentNotificationRow
from core.ordering.payment_flows import Reconciliation
from payment_sandbox.provider import deliver
from payment_sandbox.wechat import parse_xml, to_xml
from tests.integration.test_recharge_api import COLD_ROOM_A, COLD_ROOM_B, FRIDGE, device, levels, ok, options, refused
from tests.support.api import ApiClient
from tests.support.commands import production_env, run, serve_outcome
from tests.support.fixtures import _make_app, _postgres_database
from tests.support.payments import served

NOTIFY = "/api/payment/notify"
DOMESTIC_LEVEL, INTERNATIONAL_LEVEL = "Basic", "Professional"  # as an en-US reader sees them


def place(console, pay_type: int, level_name: str = DOMESTIC_LEVEL, guid: str = COLD_ROOM_A) -> dict:
    """alice orders a year of a level for her cold room A (or another device), paying by `pay_type`."""
    api, alice = console.api, console.api.token("alice")
    room = device(console.container, guid)
    level = levels(api, alice, room.id)[level_name]
    year = options(api, alice, room.id, level)[0]
    return api.call("POST", "/payment/PayOrder/createServiceOrder", token=alice, json={
        "deviceId": room.id, "levelId": level["levelId"], "levelYearId": year["id"],
        "servicePackageId": level["packageId"], "payType": pay_type, "serviceFee": year["serviceFee"],
        "totalFee": year["price"]})


def pay_status(console, order_id: int) -> int:
    reply = console.api.call("GET", "/payment/PayOrder/get", token=console.api.token("alice"), query={"pk": order_id})
    return ok(reply)["payStatus"]


def paid_orders(container) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(OrderRow).where(OrderRow.status == 2))


def verdicts(container) -> list[tuple[str, str]]:
    with container.session_factory()() as session:
        rows = session.scalars(select(PaymentNotificationRow).order_by(PaymentNotificationRow.id))
        return [(r.provider, r.verdict) for r in rows]


def recorded_bodies(container, provider: str) -> list[bytes]:
    with container.session_factory()() as session:
        rows = session.scalars(select(PaymentNotificationRow).where(PaymentNotificationRow.provider == provider)
                               .order_by(PaymentNotificationRow.id))
        return [r.body.encode() for r in rows]


def press(url: str, outcome: str = "pay", **form: str) -> requests.Response:
    """The payer on the sandbox's payer page (the QR code's or approve link's target)."""
    return requests.post(url, data={"outcome": outcome, **form}, allow_redirects=False, timeout=30)


def expiry(console):
    return device(console.container, COLD_ROOM_A).service_expires_at


# --- 1. a provider without its credentials is switched off ------------------------------------------


def keyless_sign(fields: dict[str, str]) -> str:
    """What wechatpy computes when its API key is empty: MD5 of the sorted non-empty fields, with no
    `&key=` at all. Anybody can compute it."""
    text = "&".join(f"{k}={fields[k]}" for k in sorted(fields) if fields[k])
    return hashlib.md5(text.encode()).hexdigest().upper()  # noqa: S324 (WeChat Pay v2's signature)


def forged_wechat_notification(world, order_code: str, total_cents: int) -> bytes:
    c = world.credentials  # the app id and merchant id are printed on every QR code: not secrets
    fields = {"return_code": "SUCCESS", "result_code": "SUCCESS", "appid": c.wechat_app_id, "mch_id": c.wechat_mch_id,
              "nonce_str": "forgedforgedforged", "openid": "oForgedPayer0000000000000000", "is_subscribe": "N",
              "trade_type": "NATIVE", "bank_type": "OTHERS", "total_fee": str(total_cents), "fee_type": "CNY",
              "cash_fee": str(total_cents), "transaction_id": "4200000000000000000000000001",
              "out_trade_no": order_code, "time_end": "20260301120000"}
    return to_xml({**fields, "sign": keyless_sign(fields)})


@dataclass
class Console:
    """A second console on the payments console's database, configured differently, served over
    HTTP (for providers) and through its Flask test client (for alice)."""

    url: str
    app: object

    @property
    def container(self):
        return self.app.container

    @property
    def api(self) -> ApiClient:
        return ApiClient(self.app.flask.test_client())

    def post(self, path: str, **kwargs) -> requests.Response:
        return requests.post(f"{self.url}{path}", timeout=30, **kwargs)


def _console_without(payments, database_url: str, var, *missing: str, **settings: str) -> Iterator[Console]:
    with served() as (url, holder):
        env = {**payments.world.provider_env(), "PUBLIC_BASE_URL": url, **dict.fromkeys(missing, ""), **settings}
        app = _make_app(database_url, var, **env)
        holder.app = app.flask
        yield Console(url, app)
        app.container.engine().dispose()


@pytest.fixture(scope="session")
def _keyless(_payments, database_url, tmp_path_factory) -> Iterator[Console]:
    yield from _console_without(_payments, database_url, tmp_path_factory.mktemp("keyless"), "WECHAT_API_KEY")


@pytest.fixture
def keyless(payments, _keyless) -> Console:
    """The domestic console restarted without WECHAT_API_KEY, on the same database."""
    return _keyless


def test_a_wechat_notification_signed_without_a_key_settles_nothing_on_a_console_without_the_key(payments, keyless):
    placed = ok(place(payments, 1))  # placed while WeChat Pay was configured
    before = expiry(payments)
    forged = forged_wechat_notification(payments.world, placed["orderCode"], placed["totalFee"])

    answer = keyless.post(f"{NOTIFY}/wechat", data=forged, headers={"Content-Type": "text/xml"})
    assert parse_xml(answer.content)["return_code"] == "FAIL"  # refused, whoever asks again
    assert pay_status(payments, placed["orderId"]) == 1 and expiry(payments) == before
    assert paid_orders(payments.container) == 0
    assert verdicts(payments.container)[-1] == ("wechat", "providerOff")
    # the console with its key refuses the same forgery on its signature
    answer = requests.post(f"{payments.world.console_url}{NOTIFY}/wechat", data=forged, timeout=30)
    assert parse_xml(answer.content)["return_code"] == "FAIL"
    assert verdicts(payments.container)[-1] == ("wechat", "badSignature")
    assert paid_orders(payments.container) == 0


def test_a_provider_without_its_key_is_not_offered_and_takes_no_order(payments, keyless):
    assert ok(keyless.api.call("GET", "/base/config"))["payTypes"] == [2]
    refused(place(keyless, 1), 409, 1115)
    assert place(keyless, 1).body["msg"] == "This payment method is not available at the moment, please choose another"
    with payments.container.session_factory()() as session:
        assert session.scalar(select(func.count()).select_from(OrderRow)) == 0  # nothing stored
    assert ok(place(keyless, 2))["payQrCode"]  # the other provider still works


@pytest.fixture(scope="session")
def _international_without_webhook_secret(_international_payments, tmp_path_factory) -> Iterator[Console]:
    app = _international_payments.app
    yield from _console_without(_international_payments, app.container.settings().database_url,
                                tmp_path_factory.mktemp("no-webhook-secret"), "STRIPE_WEBHOOK_SECRET",
                                EDITION="international")


def test_stripe_without_its_webhook_secret_is_not_offered_and_its_endpoint_refuses_everything(
        international_payments, _international_without_webhook_secret):
    console = _international_without_webhook_secret
    assert ok(console.api.call("GET", "/base/config"))["payTypes"] == [20]
    refused(place(console, 30, INTERNATIONAL_LEVEL), 409, 1115)
    placed = ok(place(international_payments, 40, INTERNATIONAL_LEVEL))
    stripe = international_payments.world.providers["stripe"]
    press(placed["approveUrl"], "pay-silently")  # Stripe took the money; its webhook is still to come
    headers, body = stripe.signed_event(placed_intent(international_payments, placed), "payment_intent.succeeded")
    answer = console.post(f"{NOTIFY}/stripe", data=body, headers=headers)
    assert answer.status_code == 400
    assert pay_status(international_payments, placed["orderId"]) == 1
    assert verdicts(international_payments.container)[-1] == ("stripe", "providerOff")


def placed_intent(console, placed: dict) -> str:
    payment = console.world.ledger.by_order("stripe", placed["orderCode"])
    assert payment is not None
    return payment.id


def test_the_wechat_adapter_cannot_be_built_with_an_empty_key():
    from adapters.payments.wechat_pay import WechatPayGateway

    for key in ("", "   "):
        with pytest.raises(ValueError, match="API key"):
            WechatPayGateway("http://127.0.0.1:9/wechat/", "wxsandbox0000000", "1900000109", key,
                             "https://console.example.com/api/payment/notify/wechat")


@pytest.fixture
def production_database() -> Iterator[str]:
    yield from _postgres_database()


@pytest.mark.postgres
def test_production_refuses_to_serve_an_offered_provider_without_its_key_and_serves_without_it_when_not_offered(
        tmp_path, production_database):
    env = production_env(production_database, WECHAT_API_KEY="")
    refused = serve_outcome(cwd=tmp_path, **env)
    assert refused.exit_code == 2, refused.output
    assert "WECHAT_API_KEY" in refused.output and "ALIPAY" not in refused.output
    assert "DATABASE_URL" not in refused.output

    # /config reads the platform of its host: a served production database is migrated
    assert run("migrate", cwd=tmp_path, **env, PAYMENT_PROVIDERS="alipay").returncode == 0
    served = serve_outcome(cwd=tmp_path, **env, PAYMENT_PROVIDERS="alipay")
    assert served.exit_code is None and served.config["payTypes"] == [2], served.output  # WeChat Pay not offered


# --- 2. another currency ------------------------------------------------------------------------------


@pytest.mark.parametrize("pay_type,provider", [(1, "wechat"), (2, "alipay")])
def test_a_payment_in_another_currency_settles_nothing_domestic(payments, pay_type, provider):
    placed = ok(place(payments, pay_type))
    before = expiry(payments)
    page = press(placed["payQrCode"], currency="USD")  # signed by the provider, fee_type / trans_currency USD
    assert "The merchant answered 200" in page.text
    assert pay_status(payments, placed["orderId"]) == 1 and expiry(payments) == before
    assert verdicts(payments.container) == [(provider, "currencyMismatch")]

    payments.clock.advance(minutes=5)  # the provider's query says paid, in USD: not settled either
    outcome = payments.container.reconcile_payments()()
    assert (outcome.settled, outcome.failed) == (0, 1)
    # a final verdict: recorded once, the order closed for support and asked about no more
    assert pay_status(payments, placed["orderId"]) == 4 and paid_orders(payments.container) == 0
    assert verdicts(payments.container) == [(provider, "currencyMismatch")] * 2
    payments.clock.advance(minutes=5)
    assert payments.container.reconcile_payments()() == Reconciliation()
    assert len(verdicts(payments.container)) == 2


def test_a_stripe_payment_in_another_currency_settles_nothing(international_payments):
    console = international_payments
    placed = ok(place(console, 40, INTERNATIONAL_LEVEL))
    before = expiry(console)
    page = press(placed["approveUrl"], currency="eur")
    assert "The merchant answered 400" in page.text  # Stripe is told to send it again
    assert pay_status(console, placed["orderId"]) == 1 and expiry(console) == before
    assert verdicts(console.container) == [("stripe", "currencyMismatch")]
    console.clock.advance(minutes=5)
    assert console.container.reconcile_payments()().settled == 0
    assert pay_status(console, placed["orderId"]) == 4  # closed for support: asked about no more


def test_a_paypal_capture_in_another_currency_settles_nothing(international_payments):
    console = international_payments
    placed = ok(place(console, 20, INTERNATIONAL_LEVEL))
    before = expiry(console)
    back = press(placed["approveUrl"], currency="EUR")
    assert back.status_code == 303  # to the console's return URL, which captures
    landed = requests.get(back.headers["Location"], allow_redirects=False, timeout=30)
    assert "payStatus=1" in landed.headers["Location"] and "error=1" in landed.headers["Location"]
    assert pay_status(console, placed["orderId"]) == 1 and expiry(console) == before
    console.clock.advance(minutes=5)
    assert console.container.reconcile_payments()().settled == 0
    assert pay_status(console, placed["orderId"]) == 4  # closed for support: asked about no more


# --- 3. a refunded order notified again -------------------------------------------------------------------


def refund(console, placed: dict) -> None:
    reply = console.api.call("POST", "/payment/PayRefund/refundOrder", token=console.api.token("operator"),
                             json={"orderId": placed["orderId"], "reason": "Refunded in the test"})
    assert ok(reply)["payStatus"] == 3


@pytest.mark.parametrize("pay_type,provider,accepted", [(1, "wechat", "SUCCESS"), (2, "alipay", "success")])
def test_a_refunded_order_notified_again_is_acknowledged_and_stays_refunded(payments, pay_type, provider, accepted):
    placed = ok(place(payments, pay_type))
    assert "The merchant answered 200" in press(placed["payQrCode"]).text
    refund(payments, placed)
    taken_back = expiry(payments)  # the refund took the year back
    [genuine] = recorded_bodies(payments.container, provider)

    retried = deliver(f"{payments.world.console_url}{NOTIFY}/{provider}", genuine,
                      {"Content-Type": "text/xml" if provider == "wechat" else "application/x-www-form-urlencoded"})
    assert retried.status == 200 and accepted in retried.body  # no more retries
    if provider == "wechat":
        assert parse_xml(retried.body.encode())["return_code"] == "SUCCESS"
    else:
        assert retried.body == "success"
    assert pay_status(payments, placed["orderId"]) == 3 and expiry(payments) == taken_back
    assert verdicts(payments.container) == [(provider, "settled"), (provider, "alreadyRefunded")]


def test_a_refunded_stripe_payment_notified_again_is_acknowledged_and_stays_refunded(international_payments):
    console = international_payments
    placed = ok(place(console, 40, INTERNATIONAL_LEVEL))
    assert "The merchant answered 200" in press(placed["approveUrl"]).text
    refund(console, placed)
    taken_back = expiry(console)  # the refund took the year back
    headers, body = console.world.providers["stripe"].signed_event(placed_intent(console, placed),
                                                                   "payment_intent.succeeded")
    retried = deliver(f"{console.world.console_url}{NOTIFY}/stripe", body, headers)
    assert retried.status == 200 and json.loads(retried.body) == {"received": True}
    assert pay_status(console, placed["orderId"]) == 3 and expiry(console) == taken_back
    assert verdicts(console.container) == [("stripe", "settled"), ("stripe", "alreadyRefunded")]


def test_figures_forged_and_foreign_currency_notifications_leave_every_order_as_it_was(payments, keyless):
    """The figures of items 1-2 on one database: N attacks, 0 orders changed."""
    # three devices: a second order for one device would supersede the first
    orders = [ok(place(payments, 1, guid=guid)) for guid in (COLD_ROOM_A, COLD_ROOM_B, FRIDGE)]
    for placed in orders:
        keyless.post(f"{NOTIFY}/wechat", data=forged_wechat_notification(payments.world, placed["orderCode"],
                                                                          placed["totalFee"]))
    for placed in orders:
        press(placed["payQrCode"], currency="USD")
    assert [pay_status(payments, p["orderId"]) for p in orders] == [1, 1, 1]
    assert paid_orders(payments.container) == 0
    assert [v for _, v in verdicts(payments.container)] == ["providerOff"] * 3 + ["currencyMismatch"] * 3
