"""Demo data for `make run`, the browser tests and anyone trying the console.

Idempotent: every record is found by its natural key (user name, GUID, package code, domain)
and created only when missing, so running it twice changes nothing.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import select
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session

from adapters.persistence import models as m
from core.accounts.model import AccountType
from core.accounts.rules import normalize_login_name
from core.alarms.commands import DealWithAlarm
from core.alarms.model import Handling
from core.calibration.due_dates import DEFAULT_INTERVAL_MONTHS, due_date
from core.devices.credentials import new_password
from core.devices.expiry import LIFELONG_EXPIRY
from core.inbox.model import ORGANIZATION_INVITATION, MessageKind, SystemMessage
from core.inbox.posting import post
from core.ordering.model import ORDER_PAID
from core.permissions import roles
from core.shared.edition import Edition, PayType
from core.sharing.model import VIEW_ONLY
from core.telemetry.model import Reading
from core.telemetry.use_cases import StoreReadings
from entrypoints.container import Container

DEMO_PASSWORD = "Coldchain#2026"


@dataclass(frozen=True)
class DemoAccount:
    user_name: str
    role: str
    account_type: AccountType
    phone: str | None
    email: str
    identity: str | None = "3"
    industry: str | None = "5"
    wallet: int = 0
    company: str | None = None


ACCOUNTS = (
    DemoAccount("admin", roles.SYSTEM_ADMIN.code, AccountType.SYSTEM, "13800000000", "admin@coldchain.example"),
    DemoAccount("operator", roles.OPERATOR.code, AccountType.SYSTEM, "13800000009", "operator@coldchain.example"),
    DemoAccount("alice", roles.PERSONAL_CUSTOMER.code, AccountType.PERSONAL, "13800000001", "alice@example.com"),
    DemoAccount("acme", roles.ENTERPRISE_CUSTOMER.code, AccountType.ENTERPRISE, "13800000002", "it@acme.example",
                wallet=1, company="Acme Cold Chain Co."),
    DemoAccount("bob", roles.PERSONAL_CUSTOMER.code, AccountType.PERSONAL, "13800000003", "bob@acme.example",
                identity=None, industry=None),
    DemoAccount("calibadmin", roles.CALIBRATION_ADMIN.code, AccountType.SYSTEM, "13800000004",
                "calibration@coldchain.example"),
)
# An administrator of Acme's organization, seeded with the teams (`seed(teams=True)`).
CAROL = DemoAccount("carol", roles.PERSONAL_CUSTOMER.code, AccountType.PERSONAL, "13800000006", "carol@acme.example")
# A read-only member of Acme's organization (the built-in member role: sees its devices, changes
# nothing), seeded with the teams too.
DAVE = DemoAccount("dave", roles.PERSONAL_CUSTOMER.code, AccountType.PERSONAL, "13800000007", "dave@acme.example")
# Demo user names are below the 6-character minimum of sign-up on purpose: they are the
# spec's names, created here, never through the register call.

# Two price lists, in cents of their currency: both are seeded whatever the edition, and each
# edition reads only its own. The dollar list is priced for its market, not converted from yuan.
PRICES = {
    "CNY": {"basic_12": 9900, "basic_24": 18800, "basic_36": 26900, "pro_12": 19900, "pro_24": 37800,
            "pro_life": 99900, "sms_100": 1000, "sms_500": 4500, "sms_1000": 8000, "voice_50": 1500,
            "voice_200": 5000},
    "USD": {"basic_12": 1990, "basic_24": 3790, "basic_36": 5390, "pro_12": 3990, "pro_24": 7590,
            "pro_life": 19900, "sms_100": 500, "sms_500": 2000, "sms_1000": 3500, "voice_50": 800,
            "voice_200": 2500},
}
# level: year options as (months, price key, discount); the free level costs nothing in any currency
YEAR_OPTIONS = {
    "free": ((12, None, 100),),
    "basic": ((12, "basic_12", 100), (24, "basic_24", 95), (36, "basic_36", 90)),
    "pro": ((12, "pro_12", 100), (24, "pro_24", 95), (1200, "pro_life", 100)),
}
ALERT_PACKAGES = (("sms_100", 1, 100), ("sms_500", 1, 500), ("sms_1000", 1, 1000), ("voice_50", 2, 50),
                  ("voice_200", 2, 200))
ALERT_COUNTRY = {"CNY": "86", "USD": "1"}  # SMS and voice packages: +86 in yuan, +1 in dollars
ITEMS = {  # code: (domestic name, international name)
    "DATA_QUERY_EXPORT": ("数据查询导出（最长3年历史）", "Data query and export (up to 3 years of history)"),
    "ALARM_SMS": ("短信告警（超限短信通知）", "SMS alarms (text message on every limit breach)"),
    "ALARM_VOICE": ("语音告警（超限电话通知）", "Voice alarms (phone call on every limit breach)"),
    "AI_QA": ("AI问答（用自然语言查询数据）", "AI Q&A (ask questions about your data)"),
}
# The demo catalogue's names in every language of the console (catalogue_texts); the rows'
# own columns keep the edition's default language, the fallback.
ITEM_TEXTS = {
    "DATA_QUERY_EXPORT": {
        "en-US": "Data query and export (up to 3 years of history)", "zh-CN": "数据查询导出（最长3年历史）",
        "zh-TW": "資料查詢匯出（最長3年歷史）", "ru-RU": "Поиск и экспорт данных (история до 3 лет)",
        "de-DE": "Datenabfrage und Export (bis zu 3 Jahre Verlauf)",
        "es-ES": "Consulta y exportación de datos (hasta 3 años de historial)",
        "pt-PT": "Consulta e exportação de dados (até 3 anos de histórico)"},
    "ALARM_SMS": {
        "en-US": "SMS alarms (text message on every limit breach)", "zh-CN": "短信告警（超限短信通知）",
        "zh-TW": "簡訊告警（超限簡訊通知）", "ru-RU": "SMS-тревоги (сообщение при каждом выходе за предел)",
        "de-DE": "SMS-Alarme (Nachricht bei jeder Grenzwertüberschreitung)",
        "es-ES": "Alarmas SMS (mensaje en cada superación de límite)",
        "pt-PT": "Alarmes por SMS (mensagem em cada violação de limite)"},
    "ALARM_VOICE": {
        "en-US": "Voice alarms (phone call on every limit breach)", "zh-CN": "语音告警（超限电话通知）",
        "zh-TW": "語音告警（超限電話通知）", "ru-RU": "Голосовые тревоги (звонок при каждом выходе за предел)",
        "de-DE": "Sprachalarme (Anruf bei jeder Grenzwertüberschreitung)",
        "es-ES": "Alarmas de voz (llamada en cada superación de límite)",
        "pt-PT": "Alarmes de voz (chamada em cada violação de limite)"},
    "AI_QA": {
        "en-US": "AI Q&A (ask questions about your data)", "zh-CN": "AI问答（用自然语言查询数据）",
        "zh-TW": "AI問答（用自然語言查詢資料）", "ru-RU": "ИИ-ответы (вопросы о ваших данных)",
        "de-DE": "KI-Fragen (Fragen zu Ihren Daten stellen)", "es-ES": "Preguntas IA (pregunte sobre sus datos)",
        "pt-PT": "Perguntas IA (pergunte sobre os seus dados)"},
}
LEVEL_TEXTS = {  # key: language: (name, description)
    "free": {"en-US": ("Free", "Upload and view data"), "zh-CN": ("免费版", "基础数据上传与查看"),
             "zh-TW": ("免費版", "基礎資料上傳與檢視"), "ru-RU": ("Бесплатный", "Загрузка и просмотр данных"),
             "de-DE": ("Kostenlos", "Daten hochladen und ansehen"), "es-ES": ("Gratis", "Subir y ver datos"),
             "pt-PT": ("Gratuito", "Enviar e ver dados")},
    "basic": {"en-US": ("Basic", "Data export and SMS alarms"), "zh-CN": ("基础版", "数据导出与短信告警"),
              "zh-TW": ("基礎版", "資料匯出與簡訊告警"), "ru-RU": ("Базовый", "Экспорт данных и SMS-тревоги"),
              "de-DE": ("Basis", "Datenexport und SMS-Alarme"),
              "es-ES": ("Básico", "Exportación de datos y alarmas SMS"),
              "pt-PT": ("Básico", "Exportação de dados e alarmes SMS")},
    "pro": {"en-US": ("Professional", "Every alarm channel and AI Q&A"), "zh-CN": ("专业版", "全部告警渠道与AI问答"),
            "zh-TW": ("專業版", "全部告警管道與AI問答"), "ru-RU": ("Профессиональный", "Все каналы тревог и ИИ-ответы"),
            "de-DE": ("Professionell", "Alle Alarmkanäle und KI-Fragen"),
            "es-ES": ("Profesional", "Todos los canales de alarma y preguntas IA"),
            "pt-PT": ("Profissional", "Todos os canais de alarme e perguntas IA")},
}
PACKAGE_TEXTS = {"en-US": "Standard cloud plan", "zh-CN": "标准云服务", "zh-TW": "標準雲端服務",
                 "ru-RU": "Стандартный облачный", "de-DE": "Standard-Cloud-Tarif", "es-ES": "Plan nube estándar",
                 "pt-PT": "Plano nuvem padrão"}
ACTIVITY_TEXTS = {  # the demo activity's name per language (at most 20 characters), by edition
    True: {"en-US": "Singles' Day sale", "zh-CN": "双11促销", "zh-TW": "雙11促銷", "ru-RU": "Распродажа 11.11",
           "de-DE": "Singles-Day-Aktion", "es-ES": "Oferta 11.11", "pt-PT": "Promoção 11.11"},
    False: {"en-US": "Winter sale", "zh-CN": "冬季促销", "zh-TW": "冬季促銷", "ru-RU": "Зимняя распродажа",
            "de-DE": "Winteraktion", "es-ES": "Rebajas de invierno", "pt-PT": "Promoção de inverno"},
}
FREE_GIFT_MONTHS = 2  # what a new device always got: the free level for two months


ALARM_DEVICES = ("RCW360A0000003", "RCW360A0000001", "RCW360A0000002", "CR2A000000001")  # fridge, cold rooms
LEVEL_TEXT = {  # key: (domestic name, international name, domestic description, international description)
    "free": ("免费版", "Free", "基础数据上传与查看", "Upload and view data"),
    "basic": ("基础版", "Basic", "数据导出与短信告警", "Data export and SMS alarms"),
    "pro": ("专业版", "Professional", "全部告警渠道与AI问答", "Every alarm channel and AI Q&A"),
}


class _Seeder:
    def __init__(self, session: Session, edition: Edition, password_hash: str, now: datetime) -> None:
        self.s, self.edition, self.hash, self.now = session, edition, password_hash, now
        self.domestic = edition is Edition.DOMESTIC
        self.created: list[str] = []

    def _one(self, model, **where):
        return self.s.scalars(select(model).filter_by(**where)).first()

    def _get_or_add(self, model, where: dict, **values):
        row = self._one(model, **where)
        if row is None:
            row = model(**where, **values)
            self.s.add(row)
            self.s.flush()
            self.created.append(f"{model.__tablename__}:{next(iter(where.values()))}")
        return row

    def role_id(self, code: str) -> int:
        return self._one(m.RoleRow, code=code).id

    def accounts(self) -> dict[str, m.AccountRow]:
        rows = {a.user_name: self.account(a) for a in ACCOUNTS}
        if self.s.get(m.PremiumMembershipRow, rows["acme"].id) is None:
            self.s.add(m.PremiumMembershipRow(account_id=rows["acme"].id, expires_at=self.now + timedelta(days=200)))
        return rows

    def account(self, a: DemoAccount) -> m.AccountRow:
        row = self._get_or_add(
            m.AccountRow, {"user_name_key": normalize_login_name(a.user_name)}, user_name=a.user_name,
            password_hash=self.hash, phone=a.phone, email=a.email, account_type=int(a.account_type),
            status=1, company=a.company, created_at=self.now)
        if self.s.get(m.AccountRoleRow, (row.id, self.role_id(a.role))) is None:
            self.s.add(m.AccountRoleRow(account_id=row.id, role_id=self.role_id(a.role)))
        if self.s.get(m.UserProfileRow, row.id) is None:
            self.s.add(m.UserProfileRow(account_id=row.id, wallet_status=a.wallet, elitech_identity=a.identity,
                                        elitech_industry=a.industry, enable_protect=0, enable_fda=0))
        return row

    def teams(self, owners: dict[str, m.AccountRow], org: m.OrganizationRow) -> None:
        """carol, an administrator of Acme's organization, dave, a read-only member of it, and
        alice's cold room A shared with bob under the built-in "View only" template."""
        for demo, role in ((CAROL, roles.ORG_ADMIN), (DAVE, roles.ORG_MEMBER)):
            member = self.account(demo)
            if self.s.get(m.OrganizationMemberRow, (org.id, member.id)) is None:
                self.s.add(m.OrganizationMemberRow(organization_id=org.id, account_id=member.id,
                                                   role_id=self.role_id(role.code)))
        room = self._one(m.DeviceRow, guid="RCW360A0000001")
        view_only = self._one(m.DeviceTemplateRow, owner_account_id=None, name=VIEW_ONLY)
        if self._one(m.DeviceShareRow, device_id=room.id, sharee_account_id=owners["bob"].id) is None:
            self.s.add(m.DeviceShareRow(device_id=room.id, owner_account_id=owners["alice"].id,
                                        sharee_account_id=owners["bob"].id, template_id=view_only.id,
                                        created_at=self.now))
            self.created.append("device_shares:RCW360A0000001")

    def organization(self, acme: m.AccountRow, bob: m.AccountRow) -> m.OrganizationRow:
        org = self._get_or_add(m.OrganizationRow, {"name": "Acme Cold Chain"}, creator_account_id=acme.id,
                               created_at=self.now)
        for account, role in ((acme, roles.ORG_CREATOR), (bob, roles.ORG_MEMBER)):
            if self.s.get(m.OrganizationMemberRow, (org.id, account.id)) is None:
                self.s.add(m.OrganizationMemberRow(organization_id=org.id, account_id=account.id,
                                                   role_id=self.role_id(role.code)))
        return org

    def device_types(self) -> dict[str, m.DeviceTypeRow]:
        loggers = self._get_or_add(m.DeviceSeriesRow, {"series_name": "RCW cloud loggers"})
        rooms = self._get_or_add(m.DeviceSeriesRow, {"series_name": "Cold storage monitors"})
        spec = {
            "wifi": (0x8001, "RCW-360 Wi-Fi Logger", loggers, "1", "t,h"),
            "cellular": (0x8002, "LogEt 8 4G Logger", loggers, "1", "t,h"),
            "room": (0x8003, "CR-2 Cold Room Monitor", rooms, "2", "t,h,kwh"),  # with its compressor's meter
            "freezer": (0x8004, "FZ-1 Freezer Monitor", rooms, "3", "t,h"),
        }
        return {key: self._get_or_add(m.DeviceTypeRow, {"type_code": code}, type_name=name, series_id=series.id,
                                      add_type=0, scenes=scenes, status=2, probes=probes)
                for key, (code, name, series, scenes, probes) in spec.items()}

    def catalogue(self, types: dict[str, m.DeviceTypeRow]) -> dict[str, m.ServiceLevelRow]:
        # the spec's package names are at most 20 characters
        package = self._get_or_add(m.ServicePackageRow, {"package_code": "10000001"},
                                   package_name="标准云服务" if self.domestic else "Standard cloud plan",
                                   status=1, enabled_at=self.now, created_at=self.now)
        for t in types.values():
            if self.s.get(m.PackageDeviceTypeRow, (package.id, t.id)) is None:
                self.s.add(m.PackageDeviceTypeRow(package_id=package.id, device_type_id=t.id))
        for sort, (code, names) in enumerate(ITEMS.items()):
            self._get_or_add(m.ServiceItemRow, {"item_code": code}, item_name=names[0 if self.domestic else 1],
                             item_label=code, sort=sort)
        levels = {}
        items = {"free": ["DATA_QUERY_EXPORT"], "basic": ["DATA_QUERY_EXPORT", "ALARM_SMS"], "pro": list(ITEMS)}
        for sort, key in enumerate(("free", "basic", "pro")):
            text = LEVEL_TEXT[key]
            name = text[0 if self.domestic else 1]
            level = self._one(m.ServiceLevelRow, package_id=package.id, sort=sort)
            if level is None:
                level = m.ServiceLevelRow(package_id=package.id, sort=sort, level_name=name,
                                          level_describe=text[2 if self.domestic else 3])
                self.s.add(level)
                self.s.flush()
                for code in items[key]:
                    self.s.add(m.LevelItemRow(level_id=level.id, item_code=code))
                self.created.append(f"service_levels:{name}")
            for currency, prices in PRICES.items():
                if self._one(m.LevelYearOptionRow, level_id=level.id, currency=currency) is None:
                    for option_sort, (months, price, discount) in enumerate(YEAR_OPTIONS[key]):
                        self.s.add(m.LevelYearOptionRow(
                            level_id=level.id, time_length=months, service_fee_cents=prices[price] if price else 0,
                            currency=currency, data_fee_cents=0, discount=discount, sort=option_sort,
                            top_status=int(option_sort == 0 and key == "pro")))
                    self.created.append(f"level_year_options:{name}:{currency}")
            levels[key] = level
            for language, (level_name, describe) in LEVEL_TEXTS[key].items():
                self._text("level", level.id, language, level_name, describe)
        for code, texts in ITEM_TEXTS.items():
            for language, item_name in texts.items():
                self._text("item", code, language, item_name, None)
        for language, package_name in PACKAGE_TEXTS.items():
            self._text("package", package.id, language, package_name, None)
        if self.s.get(m.PackageGiftRow, package.id) is None:
            self.s.add(m.PackageGiftRow(package_id=package.id, level_id=levels["free"].id, months=FREE_GIFT_MONTHS,
                                        sms_count=0, voice_count=0))
        self.s.flush()
        activity = self._get_or_add(
            m.ActivityRow, {"name": "双11促销" if self.domestic else "Winter sale"}, nature=1,
            starts_at=self.now - timedelta(days=10), ends_at=self.now + timedelta(days=20), status=1,
            created_at=self.now)
        for language, activity_name in ACTIVITY_TEXTS[self.domestic].items():
            self._text("activity", activity.id, language, activity_name, None)
        for currency in PRICES:  # the activity offers the same on either price list
            for option, (discount, bonus) in zip(self.options(levels["pro"], currency)[:2], ((80, 2), (75, 3)),
                                                 strict=True):
                if self.s.get(m.ActivityYearOptionRow, (activity.id, option.id)) is None:
                    self.s.add(m.ActivityYearOptionRow(activity_id=activity.id, level_year_id=option.id,
                                                       activity_discount=discount, presentation_month=bonus))
            country = ALERT_COUNTRY[currency]
            for sort, (key, kind, count) in enumerate(ALERT_PACKAGES):
                name = f"{'SMS' if kind == 1 else 'Voice'} {count} (+{country})"
                self._get_or_add(m.SmsPackageRow, {"package_name": name, "currency": currency}, kind=kind,
                                 country_code=country, package_fee_cents=PRICES[currency][key], count=count,
                                 discount=90 if count >= 500 else 100, sort=sort, status=1)
        return levels

    def _text(self, kind: str, key: object, language: str, name: str, description: str | None) -> None:
        self._get_or_add(m.CatalogueTextRow, {"owner_kind": kind, "owner_key": str(key), "language": language},
                         name=name, description=description)

    def options(self, level: m.ServiceLevelRow, currency: str) -> list[m.LevelYearOptionRow]:
        return list(self.s.scalars(select(m.LevelYearOptionRow).filter_by(level_id=level.id, currency=currency)
                                   .order_by(m.LevelYearOptionRow.sort, m.LevelYearOptionRow.id)))

    def devices(self, owners: dict[str, m.AccountRow], org: m.OrganizationRow, types, levels) -> None:
        country = self.edition.profile.default_country_code
        alice, acme = owners["alice"], owners["acme"]

        def days(n: int) -> datetime:
            return self.now + timedelta(days=n)

        sim1, sim2, sim3 = "89860012345678900001", "89860012345678900002", "89860012345678900003"
        spec = [
            # guid, name, type, owner, level, expiry, SIM, data plan (1 active), SMS, voice
            ("RCW360A0000001", "Cold room A logger", "wifi", alice, "basic", days(200), None, 0, 120, 30),
            ("RCW360A0000002", "Cold room B logger", "wifi", alice, "basic", days(20), sim1, 1, 60, 10),
            ("RCW360A0000003", "Vaccine fridge logger", "wifi", alice, "free", days(-15), None, 0, 10, 0),
            ("LOGET8A0000001", "Truck 12 tracker", "cellular", alice, "pro", LIFELONG_EXPIRY, sim2, 1, 800, 200),
            ("FZ1A000000001", "Pharmacy freezer", "freezer", alice, "pro", days(100), None, 0, 300, 80),
            ("CR2A000000001", "Dock cold room", "room", alice, "basic", days(60), sim3, 2, 45, 5),
            ("CR2B000000001", "Warehouse 1 cold room", "room", acme, "pro", days(300), None, 0, 500, 100),
            ("RCW360B0000001", "Warehouse 1 door logger", "wifi", acme, "basic", days(5), None, 0, 20, 0),
        ]
        for guid, name, type_key, owner, level, expiry, sim, plan, sms, voice in spec:
            self._get_or_add(
                m.DeviceRow, {"guid": guid}, device_name=name, type_id=types[type_key].id, owner_account_id=owner.id,
                organization_id=org.id if owner is acme else None, sim_iccid=sim, jc_iccid_status=plan,
                level_id=levels[level].id, service_expires_at=expiry, sms_count=sms, voice_count=voice,
                country_code=country, node_type=1, display_precision=1, temperature_unit="C", status=1,
                created_at=self.now)
        freezer = self._one(m.DeviceRow, guid="FZ1A000000001")
        if self._one(m.AutoRenewAgreementRow, device_id=freezer.id) is None:
            option = self.options(levels["pro"], self.edition.profile.currency)[0]
            self.s.add(m.AutoRenewAgreementRow(
                device_id=freezer.id, level_id=levels["pro"].id, level_year_id=option.id,
                pay_type=1 if self.domestic else 30, total_fee_cents=option.service_fee_cents, status=1,
                next_execution_at=freezer.service_expires_at - timedelta(days=1), created_at=self.now,
                # as the development gateway authorises it (core.ordering.renewals): charged on its date
                account_id=freezer.owner_account_id, code="ARDEMOFREEZER", mandate="dev-mandate-ARDEMOFREEZER"))
            self.created.append("auto_renew_agreements:FZ1A000000001")

    def project(self, acme: m.AccountRow, org: m.OrganizationRow) -> None:
        """Acme's organization's project with its two warehouse devices (its members read it, carol
        changes it), put there once: a device taken out of it later stays out. One made by an
        older seed as acme's own becomes the organization's."""
        name = "Warehouse 1"
        found = self._one(m.ProjectRow, owner_account_id=acme.id, name_key=name.casefold())
        if found is not None:
            found.organization_id = org.id
            return
        project = self._get_or_add(m.ProjectRow, {"name_key": name.casefold(), "organization_id": org.id},
                                   owner_account_id=acme.id, name=name, remark="Cold room and its door",
                                   created_at=self.now)
        for guid in ("CR2B000000001", "RCW360B0000001"):
            self._one(m.DeviceRow, guid=guid).project_id = project.id

    def asset(self, alice: m.AccountRow) -> None:
        """alice's pharmacy vaccine store, watched by its fridge logger and the pharmacy freezer, bound
        once: a device taken out of it later stays out."""
        name = "Pharmacy vaccine store"
        if self._one(m.AssetRow, owner_account_id=alice.id, name=name) is not None:
            return
        asset = m.AssetRow(owner_account_id=alice.id, name=name, asset_type="Vaccine refrigerator", number="PH-001",
                           brand="Haier", model="HYC-290", volume="290 L",
                           attributes=[["Location", "Pharmacy back room"], ["Compartments", "2"]],
                           remark="Keep between 2 and 8 °C", enabled=True, created_at=self.now)
        self.s.add(asset)
        self.s.flush()
        self.created.append(f"assets:{name}")
        for guid in ("RCW360A0000003", "FZ1A000000001"):
            self._one(m.DeviceRow, guid=guid).asset_id = asset.id

    def alarm_rules(self) -> None:
        """2-8 °C on alice's vaccine fridge and cold rooms: after 5 minutes outside, alice gets an SMS
        and an e-mail at once (level 1) and the duty manager an SMS 15 minutes later (level 2)."""
        for guid in ALARM_DEVICES:
            device = self._one(m.DeviceRow, guid=guid)
            if device is None or self._one(m.AlarmRuleRow, device_id=device.id, probe="t") is not None:
                continue
            rule = m.AlarmRuleRow(device_id=device.id, probe="t", name=f"{device.device_name}: 2-8 °C",
                                  upper_limit=8.0, lower_limit=2.0, delay_seconds=300, level1_minutes=0,
                                  level2_minutes=15, level3_minutes=30, enabled=True, created_at=self.now,
                                  updated_at=self.now)
            self.s.add(rule)
            self.s.flush()
            self.s.add_all([
                m.AlarmRecipientRow(rule_id=rule.id, level=1, name="Alice", phone="13800000001",
                                    email="alice@example.com", voice=False),
                m.AlarmRecipientRow(rule_id=rule.id, level=2, name="Duty manager", phone="13800000005",
                                    email=None, voice=True),
            ])
            self.created.append(f"alarm_rules:{guid}")

    def platform(self) -> None:
        self._get_or_add(
            m.CustomPageRow, {"top_domain": "demo.localhost"}, company_name="Demo Refrigeration Ltd.",
            title="Demo Cold Chain Cloud", theme_color="#0f9d58", style_model="default", default_camp=1,
            enable_register=1, use_elitech_logo=0, force_https=0, record_company="Demo Refrigeration Ltd.",
            record_number="京ICP备00000000号-1", record_connection="https://beian.miit.gov.cn/")
        self._get_or_add(
            m.CustomPageRow, {"top_domain": "junjia.localhost"}, company_name="Junjia Cold Storage",
            title="Junjia Cold Storage Monitor", theme_color="#1f6feb", style_model="junjia", default_camp=2,
            enable_register=0, use_elitech_logo=0, force_https=0)
        notice = self._one(m.NoticeRow, camp=0, platform=1, notice_type=1)
        if notice is None:
            self.s.add(m.NoticeRow(camp=0, platform=1, notice_type=1, contents=MAINTENANCE_NOTICE,
                                   published_at=self.now - timedelta(days=1), created_at=self.now))
            self.created.append("notices:maintenance")
        elif MAINTENANCE_NOTICE.keys() - notice.contents.keys():
            # A notice migrated from one language gets the others; what it holds stays.
            notice.contents = {**MAINTENANCE_NOTICE, **notice.contents}
            self.created.append("notices:maintenance languages")


MAINTENANCE_NOTICE = {
    "en-US": "<p><strong>Scheduled maintenance</strong>: the console will be read-only on Sunday 02:00-03:00 "
             "(UTC+8). Devices keep recording and alarms keep working.</p>",
    "zh-CN": "<p><strong>计划维护</strong>：周日 02:00-03:00（UTC+8）控制台将处于只读状态。"
             "设备照常记录，报警照常工作。</p>",
    "zh-TW": "<p><strong>計畫維護</strong>：週日 02:00-03:00（UTC+8）控制台將處於唯讀狀態。"
             "設備照常記錄，警報照常運作。</p>",
    "de-DE": "<p><strong>Geplante Wartung</strong>: Die Konsole ist am Sonntag von 02:00 bis 03:00 Uhr (UTC+8) "
             "schreibgeschützt. Die Geräte zeichnen weiter auf, und Alarme funktionieren weiterhin.</p>",
    "es-ES": "<p><strong>Mantenimiento programado</strong>: la consola será de solo lectura el domingo de 02:00 a "
             "03:00 (UTC+8). Los dispositivos siguen registrando y las alarmas siguen funcionando.</p>",
    "pt-PT": "<p><strong>Manutenção programada</strong>: a consola ficará só de leitura no domingo, das 02:00 às "
             "03:00 (UTC+8). Os dispositivos continuam a registar e os alarmes continuam a funcionar.</p>",
    "ru-RU": "<p><strong>Плановое обслуживание</strong>: в воскресенье с 02:00 до 03:00 (UTC+8) консоль будет "
             "доступна только для чтения. Устройства продолжают запись, тревоги продолжают работать.</p>",
}


# alice's devices get a week of history, so charts are not empty before the simulator runs. It
# ends UPLOADED_BEFORE the seeding: what the loggers had uploaded before the console started
# (the simulator carries on from now), and never in the way of readings that tests publish.
# guid: (temperature set point, humidity, door openings per day, hours more without readings)
DEMO_HISTORY = {
    "RCW360A0000001": (3.5, 74.0, 6, 0),
    "RCW360A0000002": (4.0, 71.0, 4, 0),
    "RCW360A0000003": (5.0, 45.0, 10, 6),  # service expired; it stopped reporting this morning
    "LOGET8A0000001": (4.5, 62.0, 12, 0),  # a delivery truck: doors open at every stop
    "FZ1A000000001": (-20.0, 35.0, 3, 0),
    "CR2A000000001": (4.0, 82.0, 8, 0),
}
HISTORY_DAYS, HISTORY_STEP, UPLOADED_BEFORE = 7, timedelta(minutes=5), timedelta(hours=2)
# Where the demo devices stand (a warehouse district of Shanghai), for the maps; the truck's
# tracker drives a round from here, and the cold rooms' meters count their compressors' kWh.
DEMO_PLACES = {
    "RCW360A0000001": (31.2304, 121.4737), "RCW360A0000002": (31.2310, 121.4751),
    "RCW360A0000003": (31.2286, 121.4690), "LOGET8A0000001": (31.2200, 121.5000),
    "FZ1A000000001": (31.2420, 121.4950), "CR2A000000001": (31.2150, 121.4400),
    "CR2B000000001": (31.1980, 121.4600), "RCW360B0000001": (31.1985, 121.4610),
}
TRUCK, METERED = "LOGET8A0000001", ("CR2A000000001",)
DEMO_WAYBILL = "WB-DEMO-0001"


@functools.cache
def _demo_readings(guid: str, set_point: float, humidity: float, doors_per_day: int, end: datetime) -> list[dict]:
    """A mean-reverting drift around the set point with a small daily swing, and door openings
    that warm the air for a quarter of an hour; seeded by the GUID, so every run is the same.
    Kept for the process (callers copy the rows): the suites seed the demo for each test and the
    `end`, on a 5-minute grid, repeats."""
    rng = random.Random(guid)
    steps = int(timedelta(days=HISTORY_DAYS) / HISTORY_STEP)
    door_chance = doors_per_day / (timedelta(days=1) / HISTORY_STEP)
    t, h, door = set_point, humidity, 0.0
    rows = []
    for i in range(steps + 1):
        ts = end - (steps - i) * HISTORY_STEP
        if i < steps - 3 and rng.random() < door_chance:
            door = rng.uniform(2.0, 4.5)
        daily = 0.3 * math.sin(2 * math.pi * (ts.hour * 60 + ts.minute) / 1440)
        t += 0.2 * (set_point + daily - t) + rng.gauss(0, 0.08)
        h += 0.15 * (humidity - h) + rng.gauss(0, 0.6)
        rows.append({"device_id": None, "ts": ts, "temperature": round(t + door, 1),
                     "humidity": round(min(99.0, max(1.0, h + 2 * door)), 1), "seq": i, "received_at": ts,
                     "latitude": None, "longitude": None, "accuracy_m": None, "kwh": None})
        door *= 0.55
    times = [end - (steps - i) * HISTORY_STEP for i in range(steps + 1)]
    if guid == TRUCK:  # a fix every 5 minutes on a daily loop of about 20 km
        lat0, lon0 = DEMO_PLACES[guid]
        for row, ts in zip(rows, times, strict=True):
            turn = 2 * math.pi * (ts.hour * 60 + ts.minute) / 1440
            row.update(latitude=round(lat0 + 0.03 * math.sin(turn), 6),
                       longitude=round(lon0 + 0.04 * math.cos(turn) - 0.04, 6), accuracy_m=float(rng.randint(5, 25)))
    if guid in METERED:  # the meter's running total: about 1.2 kW, more while a door lets the heat in
        total, hours = 1000.0, HISTORY_STEP.total_seconds() / 3600
        for row in rows:
            total += (1.2 + 0.5 * max(0.0, cast(float, row["temperature"]) - set_point)) * hours
            row["kwh"] = round(total, 3)
    return rows


@functools.cache
def _bound_readings(dialect: Dialect, *history: Any) -> tuple[str, list[str] | None, list[dict]]:
    """The INSERT of a device's demo readings, its parameters' order if positional, and the rows
    as the driver takes them: SQLAlchemy's conversion of every value was half of a seed's time
    (measured), and the suites seed for each test."""
    table = m.ReadingRow.__table__
    statement = table.insert().compile(dialect=dialect)
    processors = {c.name: c.type.dialect_impl(dialect).bind_processor(dialect) for c in table.columns}
    rows = [{name: processor(row[name]) if processor else row[name] for name, processor in processors.items()}
            for row in _demo_readings(*history)]
    return str(statement), list(statement.positiontup or []) if statement.positional else None, rows


def _insert_readings(session: Session, device_id: int, *history: Any) -> None:
    connection = session.connection()
    if connection.dialect.name == "postgresql":  # COPY: a fraction of an INSERT's time for 2,000 rows
        columns = [column.name for column in m.ReadingRow.__table__.columns]
        cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        with cursor, cursor.copy(f"COPY readings ({', '.join(columns)}) FROM STDIN") as copy:
            for row in _demo_readings(*history):
                copy.write_row([device_id if name == "device_id" else row[name] for name in columns])
        return
    statement, order, rows = _bound_readings(connection.dialect, *history)
    parameters = [{**row, "device_id": device_id} for row in rows]
    connection.exec_driver_sql(
        statement, [tuple(row[name] for name in order) for row in parameters] if order else parameters)


def _demo_history(seeder: _Seeder) -> None:
    end = seeder.now.replace(second=0, minute=seeder.now.minute - seeder.now.minute % 5) - UPLOADED_BEFORE
    for guid, (set_point, humidity, doors, silent_hours) in DEMO_HISTORY.items():
        device = seeder._one(m.DeviceRow, guid=guid)
        if device is None or seeder.s.scalar(select(m.ReadingRow.ts).filter_by(device_id=device.id).limit(1)):
            continue
        history = (guid, set_point, humidity, doors, end - timedelta(hours=silent_hours))
        _insert_readings(seeder.s, device.id, *history)
        rows = _demo_readings(*history)
        last = rows[-1]
        device.activated_at, device.last_reading_at = rows[0]["ts"], last["ts"]
        device.last_temperature, device.last_humidity = last["temperature"], last["humidity"]
        device.online = silent_hours == 0  # connected: seen by the broker now, uploading in batches
        if last["latitude"] is not None:
            device.last_latitude, device.last_longitude = last["latitude"], last["longitude"]
            device.last_accuracy_m, device.last_position_at = last["accuracy_m"], last["ts"]
        device.last_seen_at = seeder.now if device.online else last["ts"]
        seeder.created.append(f"readings:{guid}")


def _demo_trip(seeder: _Seeder) -> None:
    """alice's depot and clinic fences and the truck's delivery between them on the history's last
    whole morning (the truck's loop leaves the one at midnight and reaches the other at noon): a
    finished waybill with its trip report, route and excursions, and a template for the next."""
    alice = seeder._one(m.AccountRow, user_name_key="alice")
    truck = seeder._one(m.DeviceRow, guid=TRUCK)
    if truck is None or truck.last_reading_at is None or seeder._one(m.WaybillRow, order_number=DEMO_WAYBILL):
        return
    lat, lon = DEMO_PLACES[TRUCK]
    fences = []
    for name, place in (("Depot", (lat, lon)), ("City clinic", (lat, lon - 0.08))):
        fence = m.GeofenceRow(owner_account_id=alice.id, name=name, areas=[{"circle": [*place, 500]}],
                              created_at=seeder.now)
        seeder.s.add(fence)
        seeder.s.flush()
        seeder.s.add(m.GeofenceLinkRow(fence_id=fence.id, device_id=truck.id, pending_count=0))
        fences.append(fence.id)
    day = (truck.last_reading_at - timedelta(hours=12)).replace(hour=0, minute=0, second=0, microsecond=0)
    particulars = {"goods_name": "Flu vaccines", "upper_limit": 8.0, "lower_limit": 2.0,
                   "sender_name": "Central pharmacy", "sender_phone": "+86 21 5555 0100",
                   "sender_address": "88 Dock Road, Shanghai", "receiver_name": "City clinic",
                   "receiver_phone": "+86 21 5555 0199", "receiver_address": "9 Pharmacy Lane, Shanghai",
                   "alarm_contacts": [["Alice", "+86 138 0000 0001", None]], "planned_start": None,
                   "planned_stop": None, "origin_fence_id": fences[0], "destination_fence_id": fences[1]}
    waybill = m.WaybillRow(owner_account_id=alice.id, order_number=DEMO_WAYBILL, express_number="SF1234567890",
                           cooler_code="CB-07", state=2, started_at=day + timedelta(minutes=5),
                           finished_at=day + timedelta(hours=11, minutes=55), created_at=day - timedelta(hours=1),
                           **particulars)
    seeder.s.add(waybill)
    seeder.s.flush()
    seeder.s.add(m.WaybillDeviceRow(waybill_id=waybill.id, device_id=truck.id, running=False))
    seeder.s.add(m.WaybillTemplateRow(owner_account_id=alice.id, name="Vaccines to the clinic",
                                      particulars=particulars, created_at=seeder.now))
    seeder.created.append(f"waybills:{DEMO_WAYBILL}")


def _demo_places(seeder: _Seeder) -> None:
    """Fixed devices stand where they were installed: a position once, when their history began
    (so whatever a device reports from now on is newer)."""
    for guid, (lat, lon) in DEMO_PLACES.items():
        device = seeder._one(m.DeviceRow, guid=guid)
        if device is not None and device.last_position_at is None:
            device.last_latitude, device.last_longitude, device.last_accuracy_m = lat, lon, 10.0
            device.last_position_at = device.created_at - timedelta(days=HISTORY_DAYS)


def _demo_device_calibration(seeder: _Seeder) -> None:
    """alice's vaccine fridge logger was calibrated a year and ten days ago under a 12-month interval:
    its calibration is overdue (the device list's "Calibration due" finds it, the detail shows the
    dates), long enough that the reminder job no longer writes about it (DUE_NOTICE_WITHIN), so
    the demo's inbox is what the seed puts there; set once, a later calibration stays. (Cold room A
    is at the lab: _demo_calibration.)"""
    device = seeder._one(m.DeviceRow, guid="RCW360A0000003")
    if seeder.s.get(m.DeviceCalibrationRow, device.id) is not None:
        return
    calibrated_on = (seeder.now - timedelta(days=375)).date()
    seeder.s.add(m.DeviceCalibrationRow(device_id=device.id, calibrated_on=calibrated_on,
                                        due_on=due_date(calibrated_on, DEFAULT_INTERVAL_MONTHS),
                                        certificate=f"CAL-{calibrated_on.year}-000917"))
    seeder.created.append("device_calibrations:RCW360A0000003")


def _demo_broker_credentials(seeder: _Seeder, hasher) -> None:
    """Every demo device can log in to the broker; the passwords are random and never shown
    (rotate one in the console to get a usable password)."""
    missing = seeder.s.scalars(select(m.DeviceRow).where(
        ~select(m.DeviceCredentialRow.device_id).where(m.DeviceCredentialRow.device_id == m.DeviceRow.id).exists(),
        m.DeviceRow.guid.in_([*DEMO_HISTORY, "CR2B000000001", "RCW360B0000001"]))).all()
    for device in missing:
        seeder.s.add(m.DeviceCredentialRow(device_id=device.id, username=device.guid,
                                           password_hash=hasher.hash(new_password()), created_at=seeder.now))
        seeder.created.append(f"device_credentials:{device.guid}")


# (GUID, hours before its last reading, minutes after the start -> °C): each excursion goes through
# the real ingest transaction, so the alarms, their levels and the alerts are what a device's
# readings would raise. Off the history's 5-minute grid, so no reading replaces a stored one.
DEMO_EXCURSIONS = (
    ("RCW360A0000003", 0, ((0, 8.6), (3, 10.2), (5, 11.7), (8, 11.1))),  # fridge: warm, then silent
    ("RCW360A0000001", 30, ((0, 1.7), (4, 0.9), (6, 0.6), (14, 1.2), (22, 1.8), (27, 3.1))),  # froze, recovered
    ("RCW360A0000002", 5, ((0, 8.4), (6, 9.3), (12, 8.2), (16, 6.0))),  # door left open
)


def _demo_alarms(container: Container) -> list[str]:
    """Alarm messages for the message centre: alice's three excursions, one already handled."""
    with Session(container.engine()) as session:
        # The excursions go just before each device's last reading: without history there are none.
        devices = {guid: (device_id, last) for guid, device_id, last in session.execute(
            select(m.DeviceRow.guid, m.DeviceRow.id, m.DeviceRow.last_reading_at)
            .where(m.DeviceRow.guid.in_([guid for guid, _, _ in DEMO_EXCURSIONS]))) if last is not None}
        ids = [device_id for device_id, _ in devices.values()]
        if len(devices) < len(DEMO_EXCURSIONS) or session.scalar(
                select(m.AlarmMessageRow.id).where(m.AlarmMessageRow.device_id.in_(ids)).limit(1)):
            return []
        alice = session.execute(select(m.AccountRow.id).filter_by(user_name_key="alice")).scalar_one()
    store = StoreReadings(container.uow(), container.clock(), container.evaluate_alarms(),
                          container.detect_crossings())
    for guid, hours, points in DEMO_EXCURSIONS:
        device_id, last = devices[guid]
        start = last - timedelta(hours=hours, minutes=-2)
        store([Reading(device_id, start + timedelta(minutes=minute), t, 60.0) for minute, t in points])
    container.escalate_alarms()()
    with Session(container.engine()) as session:
        recovered = session.execute(select(m.AlarmMessageRow.id).where(
            m.AlarmMessageRow.device_id == devices["RCW360A0000001"][0]).limit(1)).scalar_one()
    container.deal_alarm()(DealWithAlarm(alice, recovered, Handling.APPROVE, "门已关好，压缩机已复位"))
    return [f"alarm_messages:{guid}" for guid, _, _ in DEMO_EXCURSIONS]


def _demo_inbox(container: Container) -> list[str]:
    """alice's system messages: acme's invitation to its organization (to approve or reject) and
    a payment result; once."""
    with Session(container.engine()) as session:
        alice = session.scalars(select(m.AccountRow.id).filter_by(user_name_key="alice")).one()
        if session.scalars(select(m.SystemMessageRow.id).filter_by(account_id=alice).limit(1)).first() is not None:
            return []
    now = container.clock().now().replace(microsecond=0)
    messages = [
        SystemMessage(alice, MessageKind.PAYMENT, ORDER_PAID, {"orderCode": "DEMO0001", "amount": "99",
                                                              "currency": "CNY"}, now - timedelta(days=2)),
        SystemMessage(alice, MessageKind.INVITATION, ORGANIZATION_INVITATION,
                      {"inviter": "acme", "organization": "Acme Cold Chain"}, now - timedelta(hours=3),
                      needs_decision=True, subject="organization:demo"),
    ]
    uow = container.uow()
    with uow:
        for message in messages:
            post(uow, message, container.settings().edition.profile.default_language)
        uow.commit()
    return [f"system message {message.template}" for message in messages]


# --- calibration (issue 21): the lab's price list for the demo loggers and one application of alice's, received, so the
# lab's screens (calibadmin, /admin/order/list) show something to work on. Rows, not the use cases: its payment is demo.
DEMO_CALIBRATION = "CAL20261120DEMQ2345"
CALIBRATION_PRICES = {"CNY": 30_000, "USD": 5_000}  # cents per device, standard points; extra and express cost more


def _demo_calibration(seeder: _Seeder, types: dict[str, m.DeviceTypeRow]) -> None:
    currency = seeder.edition.profile.currency
    base = CALIBRATION_PRICES.get(currency, 5_000)
    for key in ("wifi", "cellular", "freezer"):
        for service, factor in ((1, 1), (2, 2), (3, 3)):
            seeder._get_or_add(m.CalibrationPriceRow, {"device_type_id": types[key].id, "service": service,
                                                       "currency": currency}, price_cents=base * factor)
    if seeder._one(m.CalibrationApplicationRow, number=DEMO_CALIBRATION) is not None:
        return
    alice = seeder._one(m.AccountRow, user_name_key="alice")
    room = seeder._one(m.DeviceRow, guid="RCW360A0000001")
    paid = seeder.now - timedelta(days=3)
    application = seeder._get_or_add(
        m.CalibrationApplicationRow, {"number": DEMO_CALIBRATION}, applicant_account_id=alice.id,
        customer_name="Alice's Pharmacy", contact_name="Alice", contact_phone="13800000001",
        contact_email="alice@example.com", return_address="12 Harbour Road, Shenzhen",
        customer_address="12 Harbour Road, Shenzhen", currency=currency, total_cents=base, status=4,
        quick_order=False, handled=True, inbound_tracking="SF1029384756", pay_type=int(PayType.OFFLINE),
        paid_cents=base, paid_at=paid, refund_cents=0, refund_state=0, created_at=paid, updated_at=seeder.now)
    seeder.s.add(m.CalibrationLineRow(application_id=application.id, line_index=1, service=1,
                                      device_type_id=types["wifi"].id, model=types["wifi"].type_name,
                                      serial=room.guid, price_cents=base, device_id=room.id))


def seed(container: Container, *, alarms: bool = False, history: bool = True, inbox: bool = False,
         teams: bool = False, calibration: bool = False) -> str:
    """The demo data; `alarms` also raises alice's demo alarms (the CLI does, the tests of the
    alarm rules start without any), `inbox` posts her demo system messages (the CLI does, the
    tests of the inbox start with none), `teams` adds carol as an administrator of Acme, dave as
    a read-only member of it, and shares alice's cold room A with bob view-only (the CLI does;
    the tests of who sees what start without them); without `history` the devices have no stored readings (tests
    of recharge need none, and writing them is most of the seed's time); `calibration` adds the lab's demo
    price list and alice's received application (the CLI does; the tests of calibration start without them)."""
    settings = container.settings()
    now = container.clock().now().replace(microsecond=0)
    with Session(container.engine()) as session:
        if session.scalars(select(m.RoleRow).limit(1)).first() is None:
            raise SystemExit("the database has no roles yet: run `coldchain migrate` first")
        existing = session.scalars(select(m.AccountRow).filter_by(user_name_key="admin")).first()
        password_hash = existing.password_hash if existing else container.hasher().hash(DEMO_PASSWORD)
        seeder = _Seeder(session, settings.edition, password_hash, now)
        owners = seeder.accounts()
        org = seeder.organization(owners["acme"], owners["bob"])
        types = seeder.device_types()
        levels = seeder.catalogue(types)
        seeder.devices(owners, org, types, levels)
        seeder.project(owners["acme"], org)
        if teams:
            seeder.teams(owners, org)
        seeder.asset(owners["alice"])
        seeder.alarm_rules()
        _demo_broker_credentials(seeder, container.broker_hasher())
        if history:
            _demo_history(seeder)
            _demo_trip(seeder)
            _demo_device_calibration(seeder)
        _demo_places(seeder)
        seeder.platform()
        if calibration:
            _demo_calibration(seeder, types)
        session.commit()
    if alarms:
        seeder.created.extend(_demo_alarms(container))
    if inbox:
        seeder.created.extend(_demo_inbox(container))
    if not seeder.created:
        return "demo data already present; nothing changed"
    return f"demo data loaded ({len(seeder.created)} records); log in as alice / {DEMO_PASSWORD}"
