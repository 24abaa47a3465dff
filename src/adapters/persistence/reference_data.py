"""Reference data every installation has: the permission catalogue, the built-in roles, the
built-in device permission templates and the dictionaries. `coldchain migrate` synchronises it
after the schema migrations; it is idempotent."""

from __future__ import annotations

from babel import Locale
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from adapters.persistence.models import DeviceTemplateRow, DictItemRow, PermissionRow, RolePermissionRow, RoleRow
from core.permissions import catalogue
from core.permissions.roles import BUILT_IN
from core.platform.model import COUNTRY_CODE, IDENTITY, INDUSTRY
from core.shared.edition import LANGUAGES
from core.sharing.model import BUILT_IN_TEMPLATES

# code: (en-US, zh-CN, es-ES, ru-RU, pt-PT, de-DE, zh-TW)
IDENTITIES = {
    "1": ("Business owner or executive", "企业主或管理者", "Propietario o directivo", "Владелец или руководитель",
          "Proprietário ou gestor", "Inhaber oder Geschäftsführung", "企業主或管理者"),
    "2": ("Quality assurance", "质量管理", "Control de calidad", "Контроль качества", "Garantia de qualidade",
          "Qualitätssicherung", "品質管理"),
    "3": ("Logistics or warehouse", "物流或仓储", "Logística o almacén", "Логистика или склад",
          "Logística ou armazém", "Logistik oder Lager", "物流或倉儲"),
    "4": ("Engineer or technician", "工程师或技术人员", "Ingeniero o técnico", "Инженер или техник",
          "Engenheiro ou técnico", "Ingenieur oder Techniker", "工程師或技術人員"),
    "5": ("Purchasing", "采购", "Compras", "Закупки", "Compras", "Einkauf", "採購"),
    "6": ("Researcher or laboratory staff", "科研或实验室人员", "Investigador o personal de laboratorio",
          "Исследователь или сотрудник лаборатории", "Investigador ou técnico de laboratório",
          "Forschung oder Labor", "科研或實驗室人員"),
    "7": ("Other", "其他", "Otro", "Другое", "Outro", "Sonstiges", "其他"),
}
INDUSTRIES = {
    "1": ("Pharmaceuticals", "医药", "Farmacéutica", "Фармацевтика", "Farmacêutica", "Pharmazie", "醫藥"),
    "2": ("Vaccines and disease control", "疫苗与疾控", "Vacunas y control de enfermedades",
          "Вакцины и контроль заболеваний", "Vacinas e controlo de doenças", "Impfstoffe und Seuchenschutz",
          "疫苗與疾管"),
    "3": ("Hospitals and healthcare", "医院与医疗", "Hospitales y salud", "Больницы и здравоохранение",
          "Hospitais e saúde", "Krankenhäuser und Gesundheitswesen", "醫院與醫療"),
    "4": ("Food and beverage", "食品饮料", "Alimentos y bebidas", "Продукты питания и напитки",
          "Alimentos e bebidas", "Lebensmittel und Getränke", "食品飲料"),
    "5": ("Cold-chain logistics", "冷链物流", "Logística de cadena de frío", "Логистика холодовой цепи",
          "Logística de cadeia de frio", "Kühlkettenlogistik", "冷鏈物流"),
    "6": ("Retail and supermarkets", "零售与商超", "Comercio minorista y supermercados", "Розница и супермаркеты",
          "Retalho e supermercados", "Einzelhandel und Supermärkte", "零售與商超"),
    "7": ("Agriculture and fresh produce", "农业与生鲜", "Agricultura y productos frescos",
          "Сельское хозяйство и свежие продукты", "Agricultura e produtos frescos",
          "Landwirtschaft und Frischware", "農業與生鮮"),
    "8": ("Laboratories and research", "实验室与科研", "Laboratorios e investigación", "Лаборатории и исследования",
          "Laboratórios e investigação", "Labore und Forschung", "實驗室與科研"),
    "9": ("Catering", "餐饮", "Restauración", "Общественное питание", "Restauração", "Gastronomie", "餐飲"),
    "10": ("Other", "其他", "Otro", "Другое", "Outro", "Sonstiges", "其他"),
}
# dial code -> territory (one territory per dial code; devices store the dial code)
DIAL_CODES = (
    ("86", "CN"), ("1", "US"), ("852", "HK"), ("853", "MO"), ("886", "TW"), ("44", "GB"), ("49", "DE"),
    ("33", "FR"), ("39", "IT"), ("34", "ES"), ("351", "PT"), ("7", "RU"), ("81", "JP"), ("82", "KR"),
    ("65", "SG"), ("60", "MY"), ("66", "TH"), ("84", "VN"), ("62", "ID"), ("63", "PH"), ("91", "IN"),
    ("61", "AU"), ("64", "NZ"), ("55", "BR"), ("52", "MX"), ("54", "AR"), ("56", "CL"), ("57", "CO"),
    ("51", "PE"), ("27", "ZA"), ("20", "EG"), ("971", "AE"), ("966", "SA"), ("90", "TR"), ("31", "NL"),
    ("32", "BE"), ("41", "CH"), ("43", "AT"), ("46", "SE"), ("47", "NO"), ("45", "DK"), ("358", "FI"),
    ("48", "PL"), ("420", "CZ"), ("380", "UA"), ("30", "GR"), ("353", "IE"), ("234", "NG"), ("254", "KE"),
    ("212", "MA"),
)


def _labels(texts: tuple[str, ...]) -> dict[str, str]:
    return dict(zip(LANGUAGES, texts, strict=True))


def dictionary_items() -> list[tuple[str, str, str, dict[str, str], int]]:
    items = []
    for data_type, table in ((IDENTITY, IDENTITIES), (INDUSTRY, INDUSTRIES)):
        for sort, (code, texts) in enumerate(table.items()):
            items.append((data_type, code, texts[0], _labels(texts), sort))
    locales = {lang: Locale.parse(lang.replace("-", "_")) for lang in LANGUAGES}
    for sort, (dial, territory) in enumerate(DIAL_CODES):
        labels = {lang: f"{loc.territories[territory]} (+{dial})" for lang, loc in locales.items()}
        items.append((COUNTRY_CODE, dial, f"+{dial}", labels, sort))
    return items


def synchronise(session: Session) -> None:
    wanted = {p.name: p for p in catalogue.ALL}
    existing = {row.name: row for row in session.scalars(select(PermissionRow))}
    for name, permission in wanted.items():
        scenes = ",".join(str(s) for s in sorted(permission.scenes))
        row = existing.get(name) or PermissionRow(name=name)
        row.scenes, row.back_office = scenes, permission.back_office
        session.add(row)
    stale = set(existing) - set(wanted)
    if stale:
        session.execute(delete(RolePermissionRow).where(RolePermissionRow.permission_name.in_(stale)))
        session.execute(delete(PermissionRow).where(PermissionRow.name.in_(stale)))
    session.flush()

    for definition in BUILT_IN:
        role = session.scalars(select(RoleRow).where(RoleRow.code == definition.code)).first()
        if role is None:
            role = RoleRow(code=definition.code)
            session.add(role)
        role.name, role.role_type, role.built_in = definition.name, int(definition.role_type), True
        role.description = definition.description or None
        session.flush()
        held = set(session.scalars(select(RolePermissionRow.permission_name)
                                   .where(RolePermissionRow.role_id == role.id)))
        for name in definition.permissions - held:
            session.add(RolePermissionRow(role_id=role.id, permission_name=name))
        removed = held - definition.permissions
        if removed:
            session.execute(delete(RolePermissionRow).where(RolePermissionRow.role_id == role.id,
                                                            RolePermissionRow.permission_name.in_(removed)))

    synchronise_templates(session)

    items = {(r.data_type, r.data_code): r for r in session.scalars(select(DictItemRow))}
    for data_type, code, value, labels, sort in dictionary_items():
        item = items.get((data_type, code)) or DictItemRow(data_type=data_type, data_code=code)
        item.data_value, item.labels, item.sort = value, labels, sort
        session.add(item)
    session.flush()


def synchronise_templates(session: Session) -> None:
    """The built-in device permission templates (core/sharing)."""
    templates = {r.name: r for r in session.scalars(select(DeviceTemplateRow)
                                                    .where(DeviceTemplateRow.owner_account_id.is_(None)))}
    for name, grant in BUILT_IN_TEMPLATES:
        template = templates.get(name) or DeviceTemplateRow(owner_account_id=None, name=name)
        template.name_key, template.view_mask, template.operate_mask = name.casefold(), grant.view, grant.operate
        session.add(template)
    session.flush()
