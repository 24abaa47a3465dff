"""Rules every call follows (api-contract section 1)."""

from __future__ import annotations

from dependency_injector import providers

from entrypoints.demo_seed import DEMO_PASSWORD


def test_an_unexpected_failure_is_a_bare_500_without_internals(api, container):
    class Broken:
        def __call__(self, *args, **kwargs):
            raise RuntimeError('SELECT password_hash FROM accounts WHERE id = 1 -- File "/srv/app.py"')

    with container.login.override(providers.Object(Broken())):
        reply = api.call("POST", "/base/BaseAccount/login", json={"userName": "alice", "accountPassword": "x"})
    assert (reply.status, reply.body) == (500, {"code": 500, "msg": "Server Exception", "data": None})


def test_an_unknown_path_is_a_404_envelope(api):
    reply = api.call("GET", "/base/nothing/here")
    assert (reply.status, reply.code) == (404, 404)


def test_a_wrong_method_is_a_405_with_allow(api):
    reply = api.call("DELETE", "/base/BaseAccount/login")
    assert (reply.status, reply.code) == (405, 405)
    assert "POST" in reply.headers["Allow"]


def test_a_body_over_a_megabyte_is_refused(api):
    response = api.client.post("/api/base/BaseAccount/login", data=b"{" + b" " * (1024 * 1024 + 10) + b"}",
                               content_type="application/json")
    assert response.status_code == 413 and response.get_json()["code"] == 413


def test_unknown_query_parameters_are_refused(api):
    reply = api.call("GET", "/base/BaseCustomPage/queryByTopDomain", query={"topDomain": "demo.localhost", "x": 1})
    assert reply.status == 422 and "x" in reply.body["errors"]


def test_a_json_array_body_is_a_422(api):
    reply = api.call("POST", "/base/BaseAccount/login", json=[{"userName": "alice", "accountPassword": DEMO_PASSWORD}])
    assert (reply.status, reply.code) == (422, 422)


def test_api_answers_are_not_cached_and_carry_protective_headers(api):
    reply = api.call("GET", "/base/config")
    assert reply.headers["Cache-Control"] == "no-store"
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["X-Frame-Options"] == "DENY"


def test_the_web_client_placeholder_is_served_when_not_built(api):
    response = api.client.get("/device/list")
    assert response.status_code == 200 and b"/api/openapi.json" in response.data


def test_the_web_client_is_served_with_history_fallback(tmp_path):
    from entrypoints.api.app import create_app
    from entrypoints.container import build_container
    from tests.support.fixtures import settings_for_tests

    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<div id=root></div>")
    (dist / "assets" / "app-1234.js").write_text("console.log(1)")
    settings = settings_for_tests(f"sqlite:///{tmp_path / 'x.db'}", tmp_path, WEB_DIST=str(dist))
    client = create_app(build_container(settings)).test_client()
    assert client.get("/").data == b"<div id=root></div>"
    assert client.get("/device/detail/5").data == b"<div id=root></div>"
    asset = client.get("/assets/app-1234.js")
    assert asset.data == b"console.log(1)" and "immutable" in asset.headers["Cache-Control"]
    assert client.get("/../../etc/passwd").data == b"<div id=root></div>"
    assert client.get("/api/unknown").status_code == 404
