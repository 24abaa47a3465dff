"""Each white-label platform's merchant accounts (issue 19, PayPdWxConfig / PayPdAliConfig): set by
the system administrator only, secrets sealed in the database and never given back, hostile
values refused by field; the platform's orders are paid to its account (test_camp_payments.py)."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlalchemy import select

from adapters.persistence.models import OperationChangeRow, PaymentConfigRow
from tests.support.api import ok

OVERVIEW, GET, PUT, DELETE = ("/payment/PayPdConfig/overview", "/payment/PayPdConfig/selectByCamp",
                              "/payment/PayPdConfig/update", "/payment/PayPdConfig/delete")
API_KEY = "Camp1ApiKey0123456789abcdefWXYZ"[:28] + "9f3a"  # 32 letters and digits
WECHAT = {"appId": "wxcamp0001", "mchId": "1900000201", "apiKey": API_KEY}


def wechat(api, token, camp=1, **values):
    return api.call("PUT", PUT, token=token, json={"camp": camp, "provider": "wechat", "values": {**WECHAT, **values}})


def fields(view: dict) -> dict[str, dict]:
    return {f["name"]: f for f in view["fields"]}


def stored(container, camp: int, provider: str) -> PaymentConfigRow | None:
    with container.session_factory()() as session:
        return session.scalars(select(PaymentConfigRow).where(PaymentConfigRow.camp == camp,
                                                              PaymentConfigRow.provider == provider)).first()


@pytest.mark.usefixtures("recharge_demo")
def test_the_administrator_sets_a_platforms_wechat_account_whose_key_is_sealed_and_never_shown(api, container):
    admin = api.token("admin")
    overview = ok(api.call("GET", OVERVIEW, token=admin))
    assert overview["providers"] == ["wechat", "alipay"]
    camps = {c["camp"]: c for c in overview["camps"]}
    assert [p["topDomain"] for p in camps[1]["platforms"]] == ["demo.localhost"] and camps[0]["platforms"] == []
    assert camps[1]["own"] == {"wechat": False, "alipay": False}

    view = ok(wechat(api, admin))
    assert view["own"] and view["updatedBy"] == "admin"
    assert view["notifyUrl"].endswith("/api/payment/notify/wechat/1")
    shown = fields(view)
    assert shown["apiKey"] == {"name": "apiKey", "secret": True, "required": True, "multiline": False, "set": True,
                               "last4": "9f3a"}
    assert shown["appId"]["value"] == "wxcamp0001" and shown["mchCert"]["value"] == ""
    assert API_KEY not in str(ok(api.call("GET", GET, token=admin, query={"camp": 1, "provider": "wechat"})))
    row = stored(container, 1, "wechat")
    assert row is not None and API_KEY not in row.sealed_secrets and "apiKey" not in row.fields
    assert ok(api.call("GET", OVERVIEW, token=admin))["camps"][1]["own"]["wechat"] is True

    # a change leaving the key out keeps it; the operation log shows the change, the secret as ***
    again = ok(api.call("PUT", PUT, token=admin, json={"camp": 1, "provider": "wechat",
                                                       "values": {"mchId": "1900000202", "apiKey": None}}))
    assert fields(again)["apiKey"]["last4"] == "9f3a" and fields(again)["mchId"]["value"] == "1900000202"
    with container.session_factory()() as session:
        logged = " ".join(str(r.fields) for r in session.scalars(
            select(OperationChangeRow).where(OperationChangeRow.object_type == "paymentConfig")))
    assert "1900000202" in logged and API_KEY not in logged

    # the spec's WeChat call reads the same account; deleting it pays the camp to the console's again
    assert fields(ok(api.call("GET", "/payment/PayPdWxConfig/selectByCamp", token=admin,
                              query={"camp": 1})))["mchId"]["value"] == "1900000202"
    gone = ok(api.call("DELETE", DELETE, token=admin, query={"camp": 1, "provider": "wechat"}))
    assert gone["own"] is False and fields(gone)["apiKey"]["set"] is False
    assert stored(container, 1, "wechat") is None


@pytest.mark.usefixtures("recharge_demo")
def test_only_the_system_administrator_reads_or_changes_merchant_accounts(api, container):
    assert ok(api.call("GET", OVERVIEW, token=api.token("operator")))["camps"]  # the platforms page's list
    for user in ("alice", "acme", "bob"):
        assert api.call("GET", OVERVIEW, token=api.token(user)).status == 403
    for user in ("operator", "alice", "acme", "bob"):
        token = api.token(user)
        for method, path, kwargs in (("GET", GET, {"query": {"camp": 1, "provider": "wechat"}}),
                                     ("PUT", PUT, {"json": {"camp": 1, "provider": "wechat", "values": WECHAT}}),
                                     ("DELETE", DELETE, {"query": {"camp": 1, "provider": "wechat"}})):
            reply = api.call(method, path, token=token, **kwargs)
            assert (reply.status, reply.code) == (403, 403), (user, path, reply.body)
    assert api.call("GET", OVERVIEW).status == 401
    assert stored(container, 1, "wechat") is None


@pytest.mark.usefixtures("recharge_demo")
@pytest.mark.parametrize("values,field", [
    ({"apiKey": "short"}, "apiKey"),
    ({"mchId": "19000x"}, "mchId"),
    ({"appId": "wx" + "a" * 40}, "appId"),
    ({"mchCert": "-----BEGIN CERTIFICATE-----\nnot one\n-----END CERTIFICATE-----"}, "mchCert"),
    ({"nonsense": "1"}, "nonsense"),
    ({"appId": ""}, "appId"),  # required
])
def test_hostile_or_wrong_values_are_refused_by_field_in_the_callers_language_and_change_nothing(
        api, container, values, field):
    admin = api.token("admin")
    api.language = "ru-RU"
    reply = wechat(api, admin, **values)
    assert reply.status == 422, reply.body
    assert f"values.{field}" in str(reply.body) and any("\u0400" <= ch <= "\u04ff" for ch in str(reply.body))
    assert stored(container, 1, "wechat") is None


@pytest.mark.usefixtures("recharge_demo")
@pytest.mark.parametrize("call", [
    # the console's own accounts are its environment's: read, never set here
    ("PUT", PUT, {"json": {"camp": 0, "provider": "wechat", "values": WECHAT}}, 422),
    ("PUT", "/payment/PayPdWxConfig/updateWxConfig", {"json": {"camp": 0, "values": WECHAT}}, 422),
    ("DELETE", DELETE, {"query": {"camp": 0, "provider": "wechat"}}, 422),
    ("GET", GET, {"query": {"camp": -1, "provider": "wechat"}}, 422),
    ("GET", GET, {"query": {"camp": 10**12, "provider": "wechat"}}, 422),
    ("GET", GET, {"query": {"camp": 1, "provider": "stripe"}}, 404),  # not the domestic edition's
    ("GET", GET, {"query": {"camp": 1, "provider": "bank"}}, 422),
    ("PUT", PUT, {"json": {"camp": 1, "provider": "wechat", "values": {"apiKey": "x" * 9000}}}, 422),
    ("PUT", PUT, {"json": {"camp": 1, "provider": "wechat", "values": [1, 2]}}, 422),
])
def test_hostile_camps_and_providers_are_refused(api, call):
    method, path, kwargs, status = call
    assert api.call(method, path, token=api.token("admin"), **kwargs).status == status


@pytest.mark.usefixtures("recharge_demo")
def test_an_alipay_account_takes_rsa_keys_as_pem_or_as_their_base64_body(api, container):
    admin = api.token("admin")
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                    serialization.NoEncryption()).decode()
    public_body = "".join(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode().splitlines()[1:-1])
    refused = api.call("PUT", "/payment/PayPdAliConfig/updateAliConfig", token=admin, json={
        "camp": 2, "values": {"appId": "2021000000000002", "privateKey": public_body, "alipayPublicKey": public_body}})
    assert refused.status == 422 and "values.privateKey" in str(refused.body)
    view = ok(api.call("PUT", "/payment/PayPdAliConfig/updateAliConfig", token=admin, json={
        "camp": 2, "values": {"appId": "2021000000000002", "privateKey": private_pem, "alipayPublicKey": public_body,
                              "agreementSignScene": "INDUSTRY|DIGITAL_MEDIA"}}))
    assert fields(view)["privateKey"]["last4"] == private_pem.strip()[-4:] and view["provider"] == "alipay"
    assert fields(ok(api.call("GET", "/payment/PayPdAliConfig/selectByCamp", token=admin,
                              query={"camp": 2})))["alipayPublicKey"]["value"] == public_body


class Through:
    """The API as a browser on one of the platforms' domains calls it (its Host)."""

    def __init__(self, api, host: str) -> None:
        self.api, self.host = api, host

    def call(self, method, path, **kwargs):
        return self.api.call(method, path, headers={"Host": self.host}, **kwargs)


@pytest.mark.usefixtures("recharge_demo")
@pytest.mark.parametrize("host,camp", [("www.demo.localhost", 1), ("junjia.localhost:8000", 2),
                                       ("127.0.0.1", 0), ("stranger.example", 0)])
def test_an_order_is_paid_to_the_camp_of_the_platform_it_was_placed_through(api, container, host, camp):
    from adapters.persistence.models import OrderRow
    from tests.integration.test_recharge_api import COLD_ROOM_A, levels, options, service_order

    alice = api.token("alice")
    through = Through(api, host)
    room = ok(through.call("POST", "/device/Device/page", token=alice, json={"deviceGuid": COLD_ROOM_A}))["data"][0]
    basic = levels(through, alice, room["deviceId"])["Basic"]
    placed = ok(service_order(through, alice, [room["deviceId"]], basic, options(through, alice, room["deviceId"],
                                                                                 basic)[1]))
    with container.session_factory()() as session:
        assert session.scalar(select(OrderRow.camp).where(OrderRow.order_code == placed["orderCode"])) == camp
