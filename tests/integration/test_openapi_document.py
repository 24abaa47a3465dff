"""The published OpenAPI document describes what the server does."""

from __future__ import annotations

import pytest

from entrypoints.api.input_guard import MAX_DEPTH, MAX_DIGITS

PUBLIC = {
    ("post", "/api/base/BaseAccount/login"), ("post", "/api/base/BaseAccount/code/login"),
    ("post", "/api/base/BaseAccount/register"),
    ("post", "/api/base/BaseAccount/forgot"), ("get", "/api/base/BaseAccount/code/phone"),
    ("get", "/api/base/BaseAccount/code/email"), ("get", "/api/base/BaseAccount/newVerify"),
    ("get", "/api/base/BaseCustomPage/queryByTopDomain"), ("get", "/api/base/config"),
    ("get", "/api/base/health"), ("get", "/api/payment/development/pay"),
    ("post", "/api/payment/notify/wechat"), ("post", "/api/payment/notify/alipay"),
    ("post", "/api/payment/notify/stripe"), ("get", "/api/payment/paypal/return"),
    # a white-label platform's own merchant account notifies at its camp's path
    ("post", "/api/payment/notify/wechat/{camp}"), ("post", "/api/payment/notify/alipay/{camp}"),
    ("post", "/api/payment/notify/stripe/{camp}"),
    ("get", "/api/payment/paypal/cancel"), ("get", "/api/payment/payment/getOpenId"),
    # Whoever was handed a PDF report (an auditor, a customer's customer) checks its code.
    ("get", "/api/device/DeviceDataExport/verify"),
    # The waybills' quick query for receivers without an account (/quick/query, /pcQuick/waybill).
    ("get", "/api/device/QuickSearch/waybill"), ("get", "/api/device/QuickSearch/share"),
    ("get", "/api/device/QuickSearch/sharePdf"), ("get", "/api/device/QuickSearch/verify"),
    # The calibration price list (issue 21). The calls a customer without an account makes take a token
    # optionally (security [{}, bearerAuth]): they are not in this set.
    ("get", "/api/calibration/PriceConf/get/price"),
}


@pytest.fixture
def spec(api):
    response = api.client.get("/api/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete", "patch"):
                yield method, path, operation


def resolve(spec, schema):
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def strings(spec, schema, where):
    schema = resolve(spec, schema)
    for name, prop in schema.get("properties", {}).items():
        prop = resolve(spec, prop)
        if prop.get("type") == "string":
            yield f"{where}.{name}", prop
        yield from strings(spec, prop, f"{where}.{name}")


def test_only_the_contract_s_public_calls_go_without_a_token(spec):
    assert spec["security"] == [{"bearerAuth": []}]
    public = {(m, p) for m, p, op in operations(spec) if op.get("security") == []}
    assert public == PUBLIC


def test_every_string_a_client_sends_is_bounded(spec):
    unbounded = []
    for method, path, operation in operations(spec):
        sources = [(p["name"], p["schema"]) for p in operation.get("parameters", []) if p["in"] == "query"]
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body:
            sources += list(strings(spec, body["schema"], "body"))
        for name, schema in sources:
            if schema.get("type") == "string" and "maxLength" not in schema and "enum" not in schema:
                unbounded.append(f"{method} {path} {name}")
    assert unbounded == []


PROVIDER_FACING = {"/api/payment/notify/wechat", "/api/payment/notify/alipay", "/api/payment/notify/stripe",
                   "/api/payment/notify/wechat/{camp}", "/api/payment/notify/alipay/{camp}",
                   "/api/payment/notify/stripe/{camp}", "/api/payment/paypal/return", "/api/payment/paypal/cancel"}


def test_every_call_documents_its_success_envelope(spec):
    for method, path, operation in operations(spec):
        if path in PROVIDER_FACING:  # answered as the provider expects, or a redirect for the payer
            continue
        ok = operation["responses"]["200"]["content"]
        if "application/json" not in ok and all(c["schema"].get("format") == "binary" for c in ok.values()):
            continue  # a file (a captcha image, a spreadsheet template)
        envelope = resolve(spec, ok["application/json"]["schema"])
        assert {"code", "msg", "data"} <= set(envelope["properties"]), f"{method} {path}"


def test_business_codes_are_listed(spec):
    description = spec["info"]["description"]
    for code in (1001, 1002, 1003, 1004, 1005, 1006, 1007):
        assert f"- {code}:" in description


def test_the_input_every_call_refuses_is_published_with_its_limits(spec):
    description = " ".join(spec["info"]["description"].split())
    assert f"JSON nested more than {MAX_DEPTH} levels" in description
    assert f"numbers of more than {MAX_DIGITS} digits" in description
    assert "not UTF-8, or holds NUL or a lone surrogate" in description
    assert "preflight (OPTIONS) is refused with 403" in description
