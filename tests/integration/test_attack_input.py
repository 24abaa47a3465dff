"""Issue 13 item 10: hostile input is refused at the edge, for every documented call at once.

A lone surrogate (which the database drivers cannot encode), JSON nested a thousand deep, 900 KB
of `[`, a 900,000-digit number, invalid UTF-8 or NUL, in a JSON body, a query string or a form,
are answered 422 in the envelope, in the caller's language, before any view runs; nothing is
changed. Every operation of /api/openapi.json is attacked, anonymously and with a valid token, on
SQLite and on PostgreSQL. Headers the views read, odd paths of the web client and oversized
bodies streamed to a real server never give a 500 either."""

from __future__ import annotations

import http.client
import itertools
import json
import socket
from urllib.parse import urlsplit

import pytest
from sqlalchemy import text

from core.shared.edition import LANGUAGES
from entrypoints.api.app import create_app
from entrypoints.container import build_container
from tests.support.api import ApiClient
from tests.support.demo_copy import seeded
from tests.support.fixtures import _make_app, settings_for_tests
from tests.support.payments import served

NOT_ALLOWED = "Contains a character that is not allowed."
NOT_UTF8 = "Not a valid utf-8 string."
TOO_DEEP = "The data is nested more than 32 levels deep."
TOO_MANY_DIGITS = "Numbers may have at most 20 digits."

# body -> (the field the refusal names, its message)
HOSTILE_BODIES = {
    "a lone surrogate in a value": (b'{"deviceName": "\\ud800x"}', "deviceName", NOT_ALLOWED),
    "a lone low surrogate in a key": (b'{"\\udfffname": 1}', "_schema", NOT_ALLOWED),
    "a lone surrogate deep in a list": (b'{"deviceIdList": [1, {"a": ["ok", "\\udbff"]}]}', "deviceIdList",
                                        NOT_ALLOWED),
    "a surrogate written as UTF-8 bytes": (b'{"deviceName": "\xed\xa0\x80x"}', "_schema", NOT_UTF8),
    "invalid UTF-8": (b'{"deviceName": "\xff\xfe"}', "_schema", NOT_UTF8),
    "NUL inside a list": (b'{"deviceIdList": ["a\\u0000"]}', "deviceIdList", NOT_ALLOWED),
    "JSON nested 1,000 deep": (b"[" * 1000 + b"]" * 1000, "_schema", TOO_DEEP),
    "objects nested 33 deep": (b'{"a":' * 33 + b"1" + b"}" * 33, "_schema", TOO_DEEP),
    "900 KB of [": (b"[" * 900_000, "_schema", TOO_DEEP),
    "a 900,000-digit number": (b'{"deviceId": ' + b"9" * 900_000 + b"}", "_schema", TOO_MANY_DIGITS),
    "a 21-digit integer": (b'{"start": -100000000000000000000}', "_schema", TOO_MANY_DIGITS),
    "a float beyond double": (b'{"start": 1e999999}', "_schema", "Number too large."),
    "NaN": (b'{"start": NaN}', "_schema", "Special numeric values (nan or infinity) are not permitted."),
}
# query or form value (percent-encoded as sent) -> its message
HOSTILE_VALUES = {
    "%ED%A0%80x": NOT_UTF8,  # U+D800 as UTF-8 bytes: not UTF-8, which has no surrogates
    "a%FFb": NOT_UTF8,
    "%C0%80": NOT_UTF8,  # an over-long NUL
    "a%00b": NOT_ALLOWED,
    "a+%00": NOT_ALLOWED,
}


def operations(api: ApiClient) -> list[tuple[str, str, dict]]:
    spec = api.client.get("/api/openapi.json").get_json()
    return [(method.upper(), path, operation) for path, item in spec["paths"].items()
            for method, operation in item.items() if method in ("get", "post", "put", "delete", "patch")]


def assert_refused(response, language: str, translator, field: str, message: str) -> None:
    """422 in the envelope, in `language`, naming `field` with `message` (translated)."""
    assert response.status_code == 422, (response.status_code, response.data[:300])
    assert response.headers["Content-Type"] == "application/json"
    body = response.get_json()
    assert body["code"] == 422 and body["data"] is None
    assert body["msg"] == translator.translate("Invalid input", language)
    expected = translator.translate_text(message, language)
    if language != "en-US":
        assert expected != message, f"{message!r} is not translated into {language}"
    assert body["errors"] == {field: [expected]}, body


@pytest.fixture
def alice(api, recharge_demo) -> str:
    return api.token("alice")


def test_every_call_refuses_every_hostile_json_body_with_a_translated_422(api, container, alice):
    languages = itertools.cycle(LANGUAGES)
    translator = container.translator()
    calls = operations(api)
    assert len(calls) > 60
    for method, path, _ in calls:
        for name, (body, field, message) in HOSTILE_BODIES.items():
            for token in (None, alice):
                language = next(languages)
                headers = {"Accept-Language": language, "Content-Type": "application/json"}
                if token:
                    headers["Authorization"] = f"Bearer {token}"
                response = api.client.open(path, method=method, data=body, headers=headers)
                try:
                    assert_refused(response, language, translator, field, message)
                except AssertionError as failure:
                    raise AssertionError(f"{method} {path} with {name} ({'token' if token else 'anonymous'}): "
                                         f"{failure}") from None


def test_every_documented_query_parameter_refuses_what_is_not_utf_8_or_holds_nul(api, container, alice):
    languages = itertools.cycle(LANGUAGES)
    translator = container.translator()
    attacked = 0
    for method, path, operation in operations(api):
        for parameter in (p["name"] for p in operation.get("parameters", []) if p["in"] == "query"):
            for value, message in HOSTILE_VALUES.items():
                language = next(languages)
                response = api.client.open(path, method=method, query_string=f"{parameter}={value}",
                                           headers={"Accept-Language": language, "Authorization": f"Bearer {alice}"})
                attacked += 1
                try:
                    assert_refused(response, language, translator, parameter, message)
                except AssertionError as failure:
                    raise AssertionError(f"{method} {path}?{parameter}={value}: {failure}") from None
    assert attacked > 100


def test_every_call_refuses_a_hostile_form(api, container, alice):
    translator = container.translator()
    for method, path, _ in operations(api):
        for value, message in HOSTILE_VALUES.items():
            response = api.client.open(path, method=method, data=f"deviceName={value}",
                                       headers={"Accept-Language": "zh-TW", "Authorization": f"Bearer {alice}",
                                                "Content-Type": "application/x-www-form-urlencoded"})
            try:
                assert_refused(response, "zh-TW", translator, "deviceName", message)
            except AssertionError as failure:
                raise AssertionError(f"{method} {path} with the form deviceName={value}: {failure}") from None


def device(api, token: str, guid: str) -> dict:
    reply = api.call("POST", "/device/Device/page", token=token, json={"deviceGuid": guid})
    return reply.data["data"][0]


def test_a_hostile_device_update_changes_nothing(api, container, alice):
    before = device(api, alice, "RCW360A0000001")
    translator = container.translator()
    for body, field, message in (
        (b'{"deviceId": %d, "deviceName": "\\ud800x", "remark": "fine"}', "deviceName", NOT_ALLOWED),
        (b'{"deviceId": %d, "remark": "\\udc00", "deviceName": "renamed"}', "remark", NOT_ALLOWED),
        (b'{"deviceId": %d, "deviceName": "renamed", "displayPrecision": 1' + b"0" * 30 + b"}", "_schema",
         TOO_MANY_DIGITS),
    ):
        response = api.client.put("/api/device/Device/update", data=body % before["deviceId"],
                                  headers={"Authorization": f"Bearer {alice}", "Accept-Language": "ru-RU",
                                           "Content-Type": "application/json"})
        assert_refused(response, "ru-RU", translator, field, message)
    assert device(api, alice, "RCW360A0000001") == before


def test_a_hostile_login_is_refused_and_the_account_still_logs_in(api, container, recharge_demo):
    response = api.client.post("/api/base/BaseAccount/login",
                               data=b'{"userName": "alice\\ud800", "accountPassword": "x", "loginType": 1}',
                               headers={"Accept-Language": "es-ES", "Content-Type": "application/json"})
    assert_refused(response, "es-ES", container.translator(), "userName", NOT_ALLOWED)
    assert api.login("alice").status == 200


def test_a_hostile_bill_is_not_stored(api, container, alice):
    def bills() -> list:
        return api.call("POST", "/payment/PayUserBill/selectListByDomain", token=alice, json={}).data

    before = bills()
    bill = {"invoiceType": 1, "billMode": 2, "personalName": "Alice Zhang", "billUserName": "Alice",
            "billPhone": "13800000001", "billMail": "alice@example.com"}
    body = json.dumps(bill).replace('"Alice Zhang"', '"Alice \\udfff Zhang"').encode()
    response = api.client.post("/api/payment/PayUserBill/insert", data=body,
                               headers={"Authorization": f"Bearer {alice}", "Accept-Language": "pt-PT",
                                        "Content-Type": "application/json"})
    assert_refused(response, "pt-PT", container.translator(), "personalName", NOT_ALLOWED)
    assert bills() == before
    assert api.call("POST", "/payment/PayUserBill/insert", token=alice, json=bill).status == 200  # the honest one


def test_honest_json_just_inside_the_limits_is_accepted(api, alice):
    reply = api.call("POST", "/device/Device/page", token=alice,
                     json={"deviceName": "Cold room \U0001f9ca", "start": 1, "pageSize": 10})
    assert reply.status == 200
    deep = b'{"deviceIdList": ' + b"[" * 31 + b"]" * 31 + b"}"  # 32 levels: refused by the schema, not the edge
    response = api.client.post("/api/payment/PayOrder/selectBatchQuote", data=deep,
                               headers={"Authorization": f"Bearer {alice}", "Content-Type": "application/json"})
    assert response.status_code == 422 and "deviceIdList" in response.get_json()["errors"]
    assert TOO_DEEP not in response.get_data(as_text=True)
    # the longest double a JSON writer prints (17 digits and a 3-digit exponent) reaches the schema
    response = api.client.post("/api/device/Device/page", data=b'{"start": 1.7976931348623157e+308}',
                               headers={"Authorization": f"Bearer {alice}", "Content-Type": "application/json"})
    assert response.status_code == 422 and list(response.get_json()["errors"]) == ["start"]


# --- a real server: headers, streamed bodies, the web client's paths ---------------------------------


def raw_request(url: str, request: bytes) -> tuple[int, dict, bytes]:
    """Sends bytes as they are (headers no HTTP client would let through) and reads the answer."""
    address = urlsplit(url)
    with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
        connection.sendall(request)
        response = http.client.HTTPResponse(connection)
        response.begin()
        return response.status, dict(response.getheaders()), response.read()


HOSTILE_HEADERS = [
    b"Accept-Language: \xff\xfe;q=nan, de;q=1e999, " + b"zh;q=0.5," * 400,
    b"Accept-Language: \x00",
    b"X-Time-Zone: ../../../../etc/passwd",
    b"X-Time-Zone: Asia/Shanghai\x00",
    b"X-Time-Zone: \xed\xa0\x80",
    b"X-Time-Zone: " + b"A" * 4000,
    b"Authorization: Bearer \xff\xfe\x00",
    b"Authorization: Bearer " + b"x" * 6000,
    b"Authorization: \xed\xa0\x80",
    b"Cookie: jc_captcha=\xff\xfe; jc_captcha=" + b"a" * 4000,
]


LOGIN_WITH_CAPTCHA = b'{"userName": "alice", "accountPassword": "x", "loginType": 1, "verifyCode": "abcd"}'


def test_hostile_headers_never_give_a_500_on_a_real_server(app):
    calls = [(b"GET /api/base/config", b"", {200: 0}),
             (b"GET /api/base/BaseAccount/accountInfo?timestamp=1", b"", {401: 2010}),
             (b"POST /api/base/BaseAccount/login", LOGIN_WITH_CAPTCHA, {409: 1004, 429: 429})]  # reads the cookie
    with served(app.flask) as (url, _):
        for header in HOSTILE_HEADERS:
            for call, body, answers in calls:
                status, _, answer = raw_request(
                    url, call + b" HTTP/1.1\r\nHost: console\r\nContent-Type: application/json\r\n"
                    + b"Content-Length: %d\r\n" % len(body) + header + b"\r\nConnection: close\r\n\r\n" + body)
                assert status in answers, (header[:40], call, status, answer[:200])
                assert json.loads(answer)["code"] == answers[status]


def test_forwarded_headers_a_client_wrote_never_give_a_500_nor_escape_the_throttle(tmp_path):
    # With PROXY_COUNT set and no proxy that overwrites them, the client writes X-Forwarded-*:
    # 200 characters of address reached the login record (varchar 64) and failed with a 500.
    app = _make_app(f"sqlite:///{tmp_path / 'proxied.db'}", tmp_path, PROXY_COUNT="1")
    seeded(app, history=False)
    wrong = b'{"userName": "alice", "accountPassword": "Wrong#Pass1", "loginType": 1}'
    right = b'{"userName": "alice", "accountPassword": "Coldchain#2026", "loginType": 1}'
    forged = [b"X-Forwarded-For: " + b"a" * 200, b"X-Forwarded-For: 10.0.0.1, " + b"\xe2\x80\x8b" * 70,
              b"X-Forwarded-For: 999.1.1.1", b"X-Forwarded-Proto: javascript"]
    with served(app.flask) as (url, _):
        def login(header: bytes, body: bytes) -> tuple[int, dict]:  # never a 500: json.loads an envelope
            status, _, answer = raw_request(
                url, b"POST /api/base/BaseAccount/login HTTP/1.1\r\nHost: console\r\n"
                b"Content-Type: application/json\r\n" + header + b"\r\nContent-Length: %d\r\n" % len(body)
                + b"Connection: close\r\n\r\n" + body)
            return status, json.loads(answer)

        status, answer = login(b"X-Forwarded-For: 203.0.113.9", right)
        assert status == 200 and answer["data"]["token"], answer
        codes = []
        for header in forged:
            codes.append(login(header, wrong)[1]["code"])
            app.clock.advance(minutes=1)  # past the growing delay: it is the image code that stops them
        # counted against one address: wrong three times, then the image code is asked for
        assert codes == [1001, 1001, 1001, 1014], codes
        invalid = app.container.translator().translate("Invalid input", "zh-CN")
        assert login(b"X-Forwarded-Host: " + b"h" * 300, wrong) == (422, {"code": 422, "msg": invalid, "data": None})
        # forged addresses count against the address the calls came from; a proxy's real one is kept
        with app.container.engine().connect() as connection:
            failed_from = set(connection.execute(text("SELECT address FROM login_failures")).scalars())
            logged_in_from = set(connection.execute(text("SELECT client_address FROM login_sessions")).scalars())
        assert failed_from == {"127.0.0.1"} and logged_in_from == {"203.0.113.9"}, (failed_from, logged_in_from)


def test_a_cookie_holding_nul_is_refused_before_the_login_reads_it(app):
    # PostgreSQL cannot compare text with NUL in it: the captcha lookup failed with a 500.
    with served(app.flask) as (url, _):
        status, _, answer = raw_request(
            url, b"POST /api/base/BaseAccount/login HTTP/1.1\r\nHost: console\r\nAccept-Language: zh-CN\r\n"
            b"Content-Type: application/json\r\nCookie: theme=dark; jc_captcha=ab\x00cd\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(LOGIN_WITH_CAPTCHA) + LOGIN_WITH_CAPTCHA)
    translator = app.container.translator()
    assert status == 422, answer[:200]
    assert json.loads(answer) == {"code": 422, "msg": translator.translate("Invalid input", "zh-CN"), "data": None,
                                  "errors": {"jc_captcha": [translator.translate(NOT_ALLOWED, "zh-CN")]}}


def test_a_streamed_body_over_a_mebibyte_is_a_413_envelope(app):
    with served(app.flask) as (url, _):
        address = urlsplit(url)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        chunks = (b'{"userName": "' + b"a" * 65536 if i == 0 else b"a" * 65536 for i in range(20))
        connection.request("POST", "/api/base/BaseAccount/login", body=chunks, encode_chunked=True,
                           headers={"Content-Type": "application/json", "Accept-Language": "de-DE"})
        response = connection.getresponse()
        body = json.loads(response.read())
        connection.close()
    assert response.status == 413 and response.getheader("Content-Type") == "application/json"
    assert body == {"code": 413, "msg": app.container.translator().translate("The request is too large", "de-DE"),
                    "data": None}


def test_odd_paths_of_the_web_client_never_give_a_500(tmp_path):
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<div id=root></div>")
    settings = settings_for_tests(f"sqlite:///{tmp_path / 'x.db'}", tmp_path, WEB_DIST=str(dist))
    client = create_app(build_container(settings)).test_client()
    for path in ("/%00", "/assets/%00x.js", "/%ED%A0%80", "/a%FFb", "/" + "a" * 300, "/a" * 3000,
                 "/assets/" + "b" * 260 + ".js"):
        response = client.get(path)
        assert response.status_code in (200, 404), (path[:40], response.status_code)
        if response.status_code == 200:
            assert response.data == b"<div id=root></div>"
