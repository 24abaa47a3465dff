"""White-label pages, notices, dictionaries and the client configuration."""

from __future__ import annotations

from dataclasses import asdict

from flask.views import MethodView
from sqlalchemy import text

from core.ordering.payments import Provider, offered_pay_types
from core.platform.model import CustomPage, Notice
from core.shared.edition import LANGUAGES
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, page_body, page_of, page_request
from entrypoints.api.platform import schemas as s

blp = ApiBlueprint("platform", __name__, description="White label, notices, dictionaries, configuration")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _custom_page(page: CustomPage) -> dict:
    data = {_camel(k): v for k, v in asdict(page).items() if k not in ("remark", "independent")}
    data["backGroundLogo"] = data.pop("backgroundLogo")
    return data


def _notice_content(n: Notice) -> str:
    """The notice in the request's language, else the edition's, else any written."""
    return n.content(context.language.get(), context.container().settings().edition.profile.default_language)


def _notice_row(n: Notice) -> dict:
    return {"noticeId": n.id, "noticeCamp": n.camp, "noticePlatform": n.platform, "noticeType": n.notice_type,
            "noticeContent": _notice_content(n), "noticeContents": n.contents, "publishedAt": n.published_at,
            "expiresAt": n.expires_at}


@blp.route("/BaseDict/queryByType")
class DictionaryView(MethodView):
    @blp.arguments(s.DictQuery, location="query")
    @blp.ok(s.DictItemSchema, many=True)
    def get(self, query):
        """Items of one dictionary with labels in the request's language (empty for an unknown type)."""
        list_dictionary = context.container().list_dictionary()
        default = context.container().settings().edition.profile.default_language
        language = context.language.get()
        return [{"dataCode": i.data_code, "dataValue": i.data_value, "label": i.label(language, default)}
                for i in list_dictionary(query["dataType"])]


@blp.route("/BaseCustomPage/queryByTopDomain")
class CustomPageView(MethodView):
    @blp.public
    @blp.arguments(s.TopDomainQuery, location="query")
    @blp.ok(s.CustomPageSchema, nullable=True)
    def get(self, query):
        """The white-label platform of a host name (its own or a parent domain's), or null."""
        find = context.container().find_custom_page()
        page = find(query["topDomain"])
        return _custom_page(page) if page else None


@blp.route("/BaseNotice/queryNotice")
class NoticeView(MethodView):
    @blp.arguments(s.NoticeQuery)
    @blp.ok(s.NoticeSchema, nullable=True)
    def post(self, body):
        """The newest notice in force for a platform (camp), client platform and type, or null; its
        text in the request's language (Accept-Language), else in the edition's default language,
        else in the first language it is written in."""
        find = context.container().find_notice()
        notice = find(body["noticeCamp"], body["noticePlatform"], body["noticeType"])
        return {"noticeId": notice.id, "noticeContent": _notice_content(notice)} if notice else None


@blp.route("/BaseNotice/queryNoticePage")
class NoticePageView(MethodView):
    @blp.requires("notice.list:query")
    @blp.arguments(s.NoticePageQuery)
    @blp.ok(page_of(s.NoticeRowSchema))
    def post(self, body):
        """Back office: all notices, a page at a time."""
        list_notices = context.container().list_notices()
        page = list_notices(page_request(body), body.get("noticeType"))
        return page_body(page, _notice_row)


def _wechat_app_id(camp: int) -> str | None:
    if Provider.WECHAT not in context.container().settings().payment_providers:
        return None
    view = context.container().get_merchant_config()(camp, Provider.WECHAT.value)
    return next((f.value for f in view.fields if f.spec.name == "appId"), None) if view.own else None


@blp.route("/config")
class ConfigView(MethodView):
    @blp.public
    @blp.ok(s.ConfigSchema)
    def get(self):
        """What the client needs to know about this installation's edition."""
        settings = context.container().settings()
        profile = settings.edition.profile
        camp = context.camp()  # the platform's merchant accounts: what it offers, its WeChat app
        pay_types = offered_pay_types(settings.edition, context.container().payment_gateways().at(camp))
        return {"edition": profile.name, "currency": profile.currency,
                "payTypes": [int(p) for p in pay_types], "defaultLanguage": profile.default_language,
                "languages": list(LANGUAGES), "countryCode": profile.default_country_code,
                "countryCodeFixed": profile.fixed_country_code is not None,
                "wechatAppId": _wechat_app_id(camp) or settings.payments.wechat.app_id,
                "externalLinks": settings.providers.external_links,
                "mapTiles": {"url": settings.map_tile_url, "attribution": settings.map_tile_attribution}}


@blp.route("/health")
class HealthView(MethodView):
    @blp.public
    @blp.ok(s.HealthSchema)
    def get(self):
        """Liveness and database reachability, for load balancers."""
        with context.container().engine().connect() as connection:
            connection.execute(text("SELECT 1"))
        return {"status": "ok", "database": "ok"}
