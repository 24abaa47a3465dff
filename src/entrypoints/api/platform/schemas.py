from __future__ import annotations

from marshmallow import fields, validate

from core.shared.messages import N_
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, OneOf, Regexp, Range = validate.Length, validate.OneOf, validate.Regexp, validate.Range
HOSTNAME = Regexp(r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?$",
                  error=N_("Enter a domain name such as console.example.com"))


class DictQuery(Schema):
    dataType = fields.String(required=True, validate=[Length(1, 50), Regexp(r"^[A-Z][A-Z0-9_]*$")],
                             metadata={"description": "ELITECH_IDENTITY, ELITECH_INDUSTRY, COUNTRY_CODE"})


class DictItemSchema(Schema):
    dataCode = fields.String(required=True)
    dataValue = fields.String(required=True)
    label = fields.String(required=True, metadata={"description": "in the request's language"})


class TopDomainQuery(Schema):
    topDomain = fields.String(required=True, validate=[Length(1, 253), HOSTNAME])


class CustomPageSchema(Schema):
    id = fields.Integer(required=True)
    topDomain = fields.String(required=True)
    companyName = fields.String(allow_none=True)
    title = fields.String(required=True)
    indexLogo = fields.String(allow_none=True)
    browserLogo = fields.String(allow_none=True)
    loginLogo = fields.String(allow_none=True)
    backGroundLogo = fields.String(allow_none=True)
    themeColor = fields.String(allow_none=True)
    styleModel = fields.String(allow_none=True, metadata={"description": "'junjia' restricts the menu"})
    defaultCamp = fields.Integer(required=True)
    enableRegister = fields.Integer(required=True)
    useElitechLogo = fields.Integer(required=True)
    forceHttps = fields.Integer(required=True)
    loginPage = fields.String(allow_none=True)
    recordCompany = fields.String(allow_none=True)
    recordNumber = fields.String(allow_none=True)
    recordConnection = fields.String(allow_none=True)
    policeFiling = fields.String(allow_none=True)
    policeConnection = fields.String(allow_none=True)


class NoticeQuery(Schema):
    noticeCamp = fields.Integer(required=True, validate=Range(min=0, max=2_147_483_647))
    noticePlatform = fields.Integer(required=True, validate=Range(min=1, max=99))
    noticeType = fields.Integer(required=True, validate=Range(min=1, max=99))


_IN_LANGUAGE = ("rich text (HTML) in the request's language (Accept-Language), else in the edition's "
                "default language, else in the first language written")


class NoticeSchema(Schema):
    noticeId = fields.Integer(required=True)
    noticeContent = fields.String(required=True, metadata={"description": _IN_LANGUAGE})


class NoticePageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["publishedAt", "noticeId"]))
    noticeType = fields.Integer(validate=Range(min=1, max=99))


class NoticeRowSchema(Schema):
    noticeId = fields.Integer(required=True)
    noticeCamp = fields.Integer(required=True)
    noticePlatform = fields.Integer(required=True)
    noticeType = fields.Integer(required=True)
    noticeContent = fields.String(required=True, metadata={"description": _IN_LANGUAGE})
    noticeContents = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "the rich text of each language written, by language code (en-US, zh-CN, zh-TW, de-DE, "
                       "es-ES, pt-PT, ru-RU)"})
    publishedAt = LocalDateTime(allow_none=True)
    expiresAt = LocalDateTime(allow_none=True)


class MapTilesSchema(Schema):
    url = fields.String(required=True, metadata={"description": "XYZ tile URL template ({z}/{x}/{y}); empty: no "
                                                                "tile server, the client draws country outlines"})
    attribution = fields.String(required=True)


class ConfigSchema(Schema):
    edition = fields.String(required=True, validate=OneOf(["domestic", "international"]))
    currency = fields.String(required=True)
    payTypes = fields.List(fields.Integer(), required=True, metadata={
        "description": "the pay types offered: the edition's whose payment provider is switched on"})
    defaultLanguage = fields.String(required=True)
    languages = fields.List(fields.String(), required=True)
    countryCode = fields.String(required=True, metadata={"description": "default country code of the edition"})
    countryCodeFixed = fields.Boolean(required=True, metadata={"description": "true where it cannot be changed"})
    wechatAppId = fields.String(required=True, metadata={"description": "for the WeChat OpenID step of mobile pages"})
    externalLinks = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                                metadata={"description": "outside sites of the routes plc, calibrationServe, "
                                                         "marketManage (only those configured)"})
    mapTiles = fields.Nested(MapTilesSchema, required=True, metadata={"description": "the maps' base layer"})


class HealthSchema(Schema):
    status = fields.String(required=True)
    database = fields.String(required=True)
