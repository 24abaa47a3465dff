"""Issue 13 item 16: what the server tells browsers. A Content-Security-Policy without inline or
evaluated script, Strict-Transport-Security when served over https, a Permissions-Policy, and a
clear refusal of cross-origin preflights (not a 401 that looks like a logged-out session).

The policies are checked on real answers of the console (its web client, its API) in both
editions; tests/e2e checks in Chromium that the console and the international paying drawer run
under them without one violation."""

from __future__ import annotations

import http.client
from urllib.parse import urlsplit

import pytest

from adapters.persistence.migrate import upgrade
from entrypoints.api.app import create_app
from entrypoints.container import build_container
from tests.support.fixtures import settings_for_tests
from tests.support.payments import served

INDEX = '<!doctype html><script type="module" src="/assets/index-1.js"></script><div id=root></div>'


def console(tmp_path, **env: str):
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True, exist_ok=True)
    (dist / "index.html").write_text(INDEX)
    (dist / "assets" / "index-1.js").write_text("console.log(1)")
    container = build_container(settings_for_tests(f"sqlite:///{tmp_path / 'x.db'}", tmp_path, WEB_DIST=str(dist),
                                                   **env))
    upgrade(container.engine())
    return create_app(container).test_client()


def policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request.path}"
    directives = {}
    for directive in filter(None, (part.strip() for part in header.split(";"))):
        name, *sources = directive.split()
        assert name not in directives, f"{name} given twice"
        directives[name] = sources
    return directives


@pytest.mark.parametrize("edition", ["domestic", "international"])
def test_every_answer_carries_a_policy_without_inline_or_foreign_script(tmp_path, edition):
    client = console(tmp_path, EDITION=edition)
    for path in ("/", "/user/login", "/assets/index-1.js", "/api/base/config", "/api/base/BaseAccount/newVerify",
                 "/api/openapi.json", "/api/nothing", "/mobilePay/paypal/callback"):
        csp = policy(client.get(path))
        assert csp["default-src"] == ["'self'"]
        assert csp["script-src"] == ["'self'"], csp["script-src"]  # no 'unsafe-inline', 'unsafe-eval', data:, hosts
        assert "script-src-attr" not in csp and "script-src-elem" not in csp
        assert csp["object-src"] == ["'none'"]
        assert csp["base-uri"] == ["'self'"]
        assert csp["frame-ancestors"] == ["'none'"]
        assert csp["form-action"] == ["'self'"]
        assert csp["connect-src"] == ["'self'"]
        assert csp["frame-src"] == ["'none'"]  # the payers' pages open in their own windows, never framed
        assert csp["style-src"] == ["'self'"]
        assert set(csp["img-src"]) >= {"'self'", "data:", "blob:"}  # QR codes, the captcha's blob
        assert not any("unsafe" in source for name, sources in csp.items() for source in sources
                       if name != "style-src-attr")


def test_no_payment_origin_is_allowed_where_no_widget_is_loaded(tmp_path):
    # Neither edition's client loads a provider's script or frame: PayPal's page and the wallets'
    # sheets open in windows of their own, so the sandbox (or the providers) appear nowhere.
    client = console(tmp_path, EDITION="international", PAYMENT_BACKEND="providers",
                     PAYMENT_SANDBOX_URL="http://127.0.0.1:8001")
    header = client.get("/").headers["Content-Security-Policy"]
    for origin in ("127.0.0.1:8001", "stripe", "paypal", "google", "*"):
        assert origin not in header


def test_hsts_only_when_served_over_https(tmp_path):
    plain = console(tmp_path / "plain")
    assert "Strict-Transport-Security" not in plain.get("/").headers
    assert "Strict-Transport-Security" not in plain.get("/", headers={"X-Forwarded-Proto": "https"}).headers

    proxied = console(tmp_path / "proxied", PROXY_COUNT="1")
    assert "Strict-Transport-Security" not in proxied.get("/api/base/config").headers
    for path in ("/", "/api/base/config"):
        hsts = proxied.get(path, headers={"X-Forwarded-Proto": "https"}).headers["Strict-Transport-Security"]
        assert hsts.startswith("max-age=") and int(hsts.split("=")[1].split(";")[0]) >= 31536000

    public_https = console(tmp_path / "public", PUBLIC_BASE_URL="https://console.example.com")
    assert "max-age=31536000" in public_https.get("/").headers["Strict-Transport-Security"]


def test_powerful_features_are_denied_and_payment_kept_to_the_console(tmp_path):
    client = console(tmp_path)
    for path in ("/", "/api/base/config"):
        features = dict(feature.strip().split("=", 1)
                        for feature in client.get(path).headers["Permissions-Policy"].split(","))
        for denied in ("camera", "microphone", "geolocation", "usb", "serial", "hid", "midi", "display-capture"):
            assert features[denied] == "()", denied
        assert features["payment"] == "(self)"


PREFLIGHT = {"Origin": "https://attacker.example", "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type"}


def test_a_cross_origin_preflight_is_refused_clearly_on_every_api_path(api, container):
    spec = api.client.get("/api/openapi.json").get_json()
    paths = [*spec["paths"], "/api/nothing/here", "/api/openapi.json"]
    assert len(paths) > 60
    for path in paths:
        for language in ("en-US", "zh-CN", "ru-RU"):
            response = api.client.options(path, headers={**PREFLIGHT, "Accept-Language": language})
            assert response.status_code == 403, (path, response.status_code, response.data[:200])
            assert response.get_json() == {
                "code": 403, "data": None,
                "msg": container.translator().translate("Cross-origin requests are not allowed.", language)}
            assert not [name for name, _ in response.headers if name.lower().startswith("access-control-")], path


def test_a_preflight_to_a_real_server_gets_no_permission_to_go_ahead(app):
    with served(app.flask) as (url, _):
        address = urlsplit(url)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        connection.request("OPTIONS", "/api/base/BaseAccount/accountInfo", headers=PREFLIGHT)
        response = connection.getresponse()
        body = response.read()
        connection.close()
    assert response.status == 403 and b'"code":403' in body
    assert response.getheader("Access-Control-Allow-Origin") is None
    assert response.getheader("Access-Control-Allow-Headers") is None


def test_same_origin_calls_are_unchanged(api, recharge_demo):
    # Browsers send Origin on a same-origin POST; it is not a preflight and goes through.
    reply = api.call("POST", "/base/BaseAccount/login", headers={"Origin": "http://localhost"},
                     json={"userName": "alice", "accountPassword": "Coldchain#2026", "loginType": 1})
    assert reply.status == 200 and reply.code == 0
    token = reply.data["token"]
    assert api.call("GET", "/base/BaseAccount/accountInfo", token=token, query={"timestamp": 1},
                    headers={"Origin": "http://localhost"}).status == 200
