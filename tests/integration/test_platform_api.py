"""White label, notices, dictionaries, configuration, profile."""

from __future__ import annotations

from datetime import timedelta

import pytest

pytestmark = pytest.mark.usefixtures("demo")


@pytest.mark.parametrize("host", ["demo.localhost", "DEMO.localhost", "www.demo.localhost", "a.b.demo.localhost"])
def test_a_custom_platform_is_found_by_its_domain_or_a_subdomain_without_a_token(api, host):
    reply = api.call("GET", "/base/BaseCustomPage/queryByTopDomain", query={"topDomain": host})
    assert reply.status == 200
    page = reply.data
    assert page["title"] == "Demo Cold Chain Cloud" and page["themeColor"] == "#0f9d58"
    assert {"indexLogo", "browserLogo", "loginLogo", "backGroundLogo", "styleModel", "defaultCamp",
            "enableRegister", "useElitechLogo", "recordNumber", "policeFiling"} <= set(page)


def test_a_domain_without_a_platform_gets_null(api):
    assert api.call("GET", "/base/BaseCustomPage/queryByTopDomain", query={"topDomain": "example.org"}).data is None


@pytest.mark.parametrize("host", ["bad host", "a" * 254, "-x.example", "http://demo.localhost"])
def test_a_malformed_domain_is_a_422(api, host):
    assert api.call("GET", "/base/BaseCustomPage/queryByTopDomain", query={"topDomain": host}).status == 422


def test_the_notice_in_force_is_returned(api, clock):
    token = api.token("alice")
    query = {"noticeCamp": 0, "noticePlatform": 1, "noticeType": 1}
    reply = api.call("POST", "/base/BaseNotice/queryNotice", token=token, json=query)
    assert "Scheduled maintenance" in reply.data["noticeContent"] and reply.data["noticeId"] > 0
    assert api.call("POST", "/base/BaseNotice/queryNotice", token=token,
                    json={**query, "noticeType": 2}).data is None
    assert api.call("POST", "/base/BaseNotice/queryNotice", json=query).code == 2010


def test_the_notice_list_is_for_those_who_may_manage_notices(api):
    path = "/base/BaseNotice/queryNoticePage"
    refused = api.call("POST", path, token=api.token("alice"), json={})
    assert (refused.status, refused.code) == (403, 403)
    page = api.call("POST", path, token=api.token("operator"), json={"start": 1, "pageSize": 10})
    assert page.status == 200
    assert page.data["start"] == 1 and page.data["pageSize"] == 10 and page.data["totalCount"] == 1
    assert page.data["data"][0]["publishedAt"]
    assert api.call("POST", path, token=api.token("operator"), json={"start": 2}).data["data"] == []


@pytest.mark.parametrize("body,field", [
    ({"pageSize": 201}, "pageSize"), ({"start": 0}, "start"), ({"sortField": "content"}, "sortField"),
    ({"sortOrder": "up"}, "sortOrder"),
])
def test_paging_is_bounded_and_sorting_whitelisted(api, body, field):
    reply = api.call("POST", "/base/BaseNotice/queryNoticePage", token=api.token("operator"), json=body)
    assert reply.status == 422 and field in reply.body["errors"]


def test_times_are_written_in_the_caller_s_zone(api):
    token = api.token("operator")
    rows = {}
    for zone in ("Asia/Shanghai", "America/New_York", "Not/AZone"):
        reply = api.call("POST", "/base/BaseNotice/queryNoticePage", token=token, json={},
                         headers={"X-Time-Zone": zone})
        rows[zone] = reply.data["data"][0]["publishedAt"]
    assert rows["Asia/Shanghai"].endswith("+08:00")
    assert rows["America/New_York"][-6:] in ("-05:00", "-04:00")
    assert rows["Not/AZone"].endswith("+08:00")  # an unknown zone falls back to the edition's


@pytest.mark.parametrize("language,label", [("en-US", "Cold-chain logistics"), ("zh-CN", "冷链物流"),
                                            ("de-DE", "Kühlkettenlogistik"), ("fr-FR", "冷链物流")])
def test_dictionary_labels_follow_the_language(api, language, label):
    reply = api.call("GET", "/base/BaseDict/queryByType", token=api.token("alice"),
                     query={"dataType": "ELITECH_INDUSTRY"}, headers={"Accept-Language": language})
    assert {"dataCode": "5", "dataValue": "Cold-chain logistics", "label": label} in reply.data


def test_country_codes_include_86_and_1(api):
    reply = api.call("GET", "/base/BaseDict/queryByType", token=api.token("alice"), query={"dataType": "COUNTRY_CODE"})
    codes = {item["dataCode"]: item["label"] for item in reply.data}
    assert codes["86"] == "China (+86)" and codes["1"] == "United States (+1)"
    assert api.call("GET", "/base/BaseDict/queryByType", token=api.token("alice"),
                    query={"dataType": "NO_SUCH_TYPE"}).data == []
    assert api.call("GET", "/base/BaseDict/queryByType", token=api.token("alice"),
                    query={"dataType": "lower"}).status == 422


def test_the_identity_dialog_saves_identity_and_industry(api):
    token = api.token("bob")
    assert api.account_info(token).data["userProfile"]["elitechIdentity"] is None
    saved = api.call("POST", "/base/BaseUserProfile/update", token=token,
                     json={"elitechIdentity": "2", "elitechIndustry": "1"})
    assert saved.code == 0
    profile = api.account_info(token).data["userProfile"]
    assert (profile["elitechIdentity"], profile["elitechIndustry"]) == ("2", "1")


@pytest.mark.parametrize("body,field", [
    ({"elitechIdentity": "99"}, "elitechIdentity"), ({"elitechIndustry": "x"}, "elitechIndustry"),
    ({"homePage": "javascript:alert(1)"}, "homePage"), ({"enableProtect": 2}, "enableProtect"),
    ({"walletStatus": 1}, "walletStatus"), ({}, "_schema"),
])
def test_profile_input_is_checked(api, body, field):
    reply = api.call("POST", "/base/BaseUserProfile/update", token=api.token("bob"), json=body)
    assert (reply.status, reply.code) == (422, 422) and field in reply.body["errors"]
    assert api.account_info(api.token("bob")).data["userProfile"]["walletStatus"] == 0


def test_config_tells_the_client_its_edition(api, international_app):
    from tests.support.api import ApiClient

    domestic = api.call("GET", "/base/config").data
    assert domestic == {"edition": "domestic", "currency": "CNY", "payTypes": [1, 2], "defaultLanguage": "zh-CN",
                        "languages": ["en-US", "zh-CN", "es-ES", "ru-RU", "pt-PT", "de-DE", "zh-TW"],
                        "countryCode": "86", "countryCodeFixed": True, "wechatAppId": "wxsandbox0000000",
                        "externalLinks": {}, "mapTiles": {"url": "", "attribution": ""}}
    abroad = ApiClient(international_app.flask.test_client()).call("GET", "/base/config").data
    assert (abroad["edition"], abroad["currency"], abroad["payTypes"], abroad["defaultLanguage"]) == (
        "international", "USD", [20, 30, 40], "en-US")
    assert abroad["countryCodeFixed"] is False


def test_messages_default_to_the_edition_s_language(api, international_app):
    from tests.support.api import ApiClient

    api.language = ""
    assert api.call("GET", "/base/BaseAccount/accountInfo").body["msg"] == "登录超时，请重新登录"
    abroad = ApiClient(international_app.flask.test_client(), language="")
    assert abroad.call("GET", "/base/BaseAccount/accountInfo").body["msg"] == "Logon timeout, please login again"


def test_premium_days_are_counted_down(api, clock):
    before = api.account_info(api.token("acme")).data["premiumState"]["expiredCount"]
    clock.advance(days=10)
    assert api.account_info(api.token("acme")).data["premiumState"]["expiredCount"] == before - 10
    clock.advance(days=200)
    assert api.account_info(api.token("acme")).data["premiumState"] == {"state": 0, "expiredCount": 0}


def test_an_expired_notice_is_no_longer_shown(api, clock, container):
    from sqlalchemy import update

    from adapters.persistence.models import NoticeRow

    with container.session_factory()() as session:
        session.execute(update(NoticeRow).values(expires_at=clock.now() + timedelta(hours=1)))
        session.commit()
    token = api.token("alice")
    query = {"noticeCamp": 0, "noticePlatform": 1, "noticeType": 1}
    assert api.call("POST", "/base/BaseNotice/queryNotice", token=token, json=query).data is not None
    clock.advance(hours=1)
    assert api.call("POST", "/base/BaseNotice/queryNotice", token=token, json=query).data is None


def test_health_is_public(api):
    assert api.call("GET", "/base/health").data == {"status": "ok", "database": "ok"}
