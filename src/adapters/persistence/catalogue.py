"""The catalogue as operators run it (core/catalogue): items, packages, levels, duration options,
names per language (catalogue_texts, also those of activities and SMS/voice packages) and the free
gift (package_gifts)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, String, cast, delete, exists, func, or_, select, update
from sqlalchemy.orm import InstrumentedAttribute, Session

from adapters.persistence.models import (
    AutoRenewAgreementRow,
    CatalogueTextRow,
    DeviceRow,
    DeviceTypeRow,
    LevelItemRow,
    LevelYearOptionRow,
    OrderLineRow,
    PackageDeviceTypeRow,
    PackageGiftRow,
    ServiceItemRow,
    ServiceLevelRow,
    ServicePackageRow,
)
from core.catalogue.model import (
    ActivePackage,
    DeviceTypeRef,
    Gift,
    Item,
    ItemDraft,
    Level,
    LocalText,
    Option,
    OptionDraft,
    Package,
    PackageDraft,
    PackageFilter,
    PackageStatus,
    Texts,
)
from core.shared.paging import Page, PageRequest

PACKAGE, LEVEL, ITEM, ACTIVITY, SMS = "package", "level", "item", "activity", "sms"


def texts_of(session: Session, kind: str, keys: Iterable[object]) -> dict[str, dict[str, LocalText]]:
    """Owner key -> language -> text."""
    wanted = [str(k) for k in keys]
    found: dict[str, dict[str, LocalText]] = defaultdict(dict)
    if wanted:
        for row in session.scalars(select(CatalogueTextRow).where(CatalogueTextRow.owner_kind == kind,
                                                                  CatalogueTextRow.owner_key.in_(wanted))):
            found[row.owner_key][row.language] = LocalText(row.name, row.description)
    return found


def names_of(session: Session, kind: str, keys: Iterable[object]) -> dict[str, dict[str, str]]:
    """Owner key -> language -> name, for owners with a name only (activities, SMS/voice packages)."""
    return {key: {language: t.name for language, t in texts.items()}
            for key, texts in texts_of(session, kind, keys).items()}


def save_texts(session: Session, kind: str, key: object, texts: Mapping[str, LocalText]) -> None:
    """The owner's texts become `texts` (a language left out loses its text)."""
    session.execute(delete(CatalogueTextRow).where(CatalogueTextRow.owner_kind == kind,
                                                   CatalogueTextRow.owner_key == str(key)))
    session.add_all([CatalogueTextRow(owner_kind=kind, owner_key=str(key), language=language, name=t.name,
                                      description=t.description) for language, t in texts.items()])
    session.flush()


def drop_texts(session: Session, kind: str, keys: Iterable[object]) -> None:
    """With their owners: catalogue_texts has no foreign key to cascade from."""
    wanted = [str(k) for k in keys]
    if wanted:
        session.execute(delete(CatalogueTextRow).where(CatalogueTextRow.owner_kind == kind,
                                                       CatalogueTextRow.owner_key.in_(wanted)))


def localized_names(session: Session, kind: str, id_column: InstrumentedAttribute[Any],
                    fallback: InstrumentedAttribute[Any], ids: Iterable[Any],
                    languages: Sequence[str]) -> dict[Any, str]:
    """The names of the owners `ids` (of any of the five kinds) in the first of `languages` that has
    one, else their own column `fallback`: one query however many ids (a page's worth)."""
    wanted = list(set(ids))
    if not wanted:
        return {}
    key = id_column if isinstance(id_column.type, String) else cast(id_column, String)
    name = localized_name(kind, key, fallback, languages)
    return dict(session.execute(select(id_column, name).where(id_column.in_(wanted))).all())  # type: ignore[arg-type]


def localized_name(kind: str, key: ColumnElement[Any] | InstrumentedAttribute[Any],
                   fallback: ColumnElement[Any] | InstrumentedAttribute[Any], languages: Sequence[str],
                   column: str = "name") -> ColumnElement[Any]:
    """The owner's text in the first of `languages` that has one, else `fallback` (the row's own
    column, in the platform's default language)."""
    choices: list[Any] = []
    text = getattr(CatalogueTextRow, column)
    for language in languages:
        choices.append(select(text).where(CatalogueTextRow.owner_kind == kind,
                                          CatalogueTextRow.owner_key == key,
                                          CatalogueTextRow.language == language)
                       .correlate_except(CatalogueTextRow).scalar_subquery())
    if not choices:  # no language asked: the row's own column, as it is
        return fallback.expression if isinstance(fallback, InstrumentedAttribute) else fallback
    return func.coalesce(*choices, fallback)


class SqlAlchemyCatalogueAdmin:
    def __init__(self, session: Session) -> None:
        self._s = session

    def _save_texts(self, kind: str, key: object, texts: Texts) -> None:
        save_texts(self._s, kind, key, texts)

    def _drop_texts(self, kind: str, keys: Iterable[object]) -> None:
        drop_texts(self._s, kind, keys)

    # --- items ---------------------------------------------------------------------------------

    def _items(self, rows: Sequence[ServiceItemRow]) -> list[Item]:
        texts = texts_of(self._s, ITEM, (r.item_code for r in rows))
        return [Item(r.item_code, r.item_label, r.sort,
                     texts.get(r.item_code, {}), LocalText(r.item_name, r.item_supplement)) for r in rows]

    def items(self) -> list[Item]:
        return self._items(self._s.scalars(select(ServiceItemRow).order_by(ServiceItemRow.sort,
                                                                           ServiceItemRow.item_code)).all())

    def item(self, code: str) -> Item | None:
        row = self._s.get(ServiceItemRow, code)
        return self._items([row])[0] if row else None

    def add_item(self, draft: ItemDraft, default_text: str, description: str | None) -> None:
        last = self._s.scalar(select(func.max(ServiceItemRow.sort))) or 0
        self._s.add(ServiceItemRow(item_code=draft.code, item_name=default_text, item_supplement=description,
                                   item_label=draft.label, sort=last + 1))
        self._s.flush()
        self._save_texts(ITEM, draft.code, draft.texts)

    def update_item(self, draft: ItemDraft, default_text: str, description: str | None) -> None:
        self._s.execute(update(ServiceItemRow).where(ServiceItemRow.item_code == draft.code).values(
            item_name=default_text, item_supplement=description, item_label=draft.label))
        self._save_texts(ITEM, draft.code, draft.texts)

    def item_in_use(self, code: str) -> bool:
        return bool(self._s.scalar(select(exists().where(LevelItemRow.item_code == code))))

    def delete_item(self, code: str) -> None:
        self._drop_texts(ITEM, [code])
        self._s.execute(delete(ServiceItemRow).where(ServiceItemRow.item_code == code))

    def sort_items(self, codes: Sequence[str]) -> None:
        for sort, code in enumerate(codes):
            self._s.execute(update(ServiceItemRow).where(ServiceItemRow.item_code == code).values(sort=sort))

    # --- packages ------------------------------------------------------------------------------

    def _packages(self, rows: Sequence[ServicePackageRow]) -> list[Package]:
        ids = [r.id for r in rows]
        if not ids:
            return []
        types: dict[int, list[int]] = defaultdict(list)
        for package_id, type_id in self._s.execute(
                select(PackageDeviceTypeRow.package_id, PackageDeviceTypeRow.device_type_id)
                .where(PackageDeviceTypeRow.package_id.in_(ids)).order_by(PackageDeviceTypeRow.device_type_id)):
            types[package_id].append(type_id)
        counts: dict[int, int] = dict(self._s.execute(select(ServiceLevelRow.package_id, func.count())
                                      .where(ServiceLevelRow.package_id.in_(ids))
                                      .group_by(ServiceLevelRow.package_id)).all())
        sold = set(self._s.scalars(select(ServiceLevelRow.package_id).distinct().where(
            ServiceLevelRow.package_id.in_(ids), exists().where(OrderLineRow.level_id == ServiceLevelRow.id))))
        texts = texts_of(self._s, PACKAGE, ids)
        return [Package(r.id, r.package_code, texts.get(str(r.id), {}),
                        PackageStatus(r.status), r.enabled_at, r.created_at, tuple(types[r.id]), counts.get(r.id, 0),
                        r.id in sold, LocalText(r.package_name)) for r in rows]

    def packages(self, where: PackageFilter, request: PageRequest) -> Page[Package]:
        query = select(ServicePackageRow)
        if where.name:
            named = select(CatalogueTextRow.owner_key).where(
                CatalogueTextRow.owner_kind == PACKAGE,
                func.lower(CatalogueTextRow.name).contains(where.name.lower(), autoescape=True))
            query = query.where(or_(func.lower(ServicePackageRow.package_name).contains(where.name.lower(),
                                                                                       autoescape=True),
                                    func.cast(ServicePackageRow.id, CatalogueTextRow.owner_key.type).in_(named)))
        if where.code:
            query = query.where(ServicePackageRow.package_code.contains(where.code, autoescape=True))
        if where.status is not None:
            query = query.where(ServicePackageRow.status == int(where.status))
        if where.device_type_id is not None:
            query = query.where(exists().where(PackageDeviceTypeRow.package_id == ServicePackageRow.id,
                                               PackageDeviceTypeRow.device_type_id == where.device_type_id))
        total = self._s.scalar(select(func.count()).select_from(query.subquery())) or 0
        rows = self._s.scalars(query.order_by(ServicePackageRow.created_at.desc(), ServicePackageRow.id.desc())
                               .offset(request.offset).limit(request.page_size)).all()
        return Page(request.start, request.page_size, total, self._packages(rows))

    def package(self, package_id: int, *, lock: bool = False) -> Package | None:
        query = select(ServicePackageRow).where(ServicePackageRow.id == package_id)
        if lock:
            self._lock(update(ServicePackageRow).where(ServicePackageRow.id == package_id)
                       .values(status=ServicePackageRow.status))
            query = query.with_for_update()
        row = self._s.scalar(query.execution_options(populate_existing=True))
        return self._packages([row])[0] if row else None

    def _lock(self, statement) -> None:
        """On SQLite, a write that changes nothing takes the database's write lock now (no row
        locks there), so what is read next stays as read until the commit."""
        if self._s.get_bind().dialect.name == "sqlite":
            self._s.execute(statement.execution_options(synchronize_session=False))

    def code_taken(self, code: str, except_id: int | None = None) -> bool:
        query = exists().where(ServicePackageRow.package_code == code)
        if except_id is not None:
            query = query.where(ServicePackageRow.id != except_id)
        return bool(self._s.scalar(select(query)))

    def _set_types(self, package_id: int, type_ids: Sequence[int]) -> None:
        self._s.execute(delete(PackageDeviceTypeRow).where(PackageDeviceTypeRow.package_id == package_id))
        self._s.add_all([PackageDeviceTypeRow(package_id=package_id, device_type_id=t) for t in type_ids])
        self._s.flush()

    def add_package(self, draft: PackageDraft, default_name: str, at: datetime) -> int:
        row = ServicePackageRow(package_name=default_name, package_code=draft.code, status=int(PackageStatus.STOPPED),
                                enabled_at=None, created_at=at)
        self._s.add(row)
        self._s.flush()
        self._set_types(row.id, draft.device_type_ids)
        self._save_texts(PACKAGE, row.id, draft.texts)
        return row.id

    def update_package(self, package_id: int, draft: PackageDraft, default_name: str) -> None:
        self._s.execute(update(ServicePackageRow).where(ServicePackageRow.id == package_id)
                        .values(package_name=default_name, package_code=draft.code))
        self._set_types(package_id, draft.device_type_ids)
        self._save_texts(PACKAGE, package_id, draft.texts)

    def set_status(self, package_id: int, status: PackageStatus, at: datetime) -> None:
        values: dict[str, object] = {"status": int(status)}
        if status is PackageStatus.ENABLED:
            values["enabled_at"] = at
        self._s.execute(update(ServicePackageRow).where(ServicePackageRow.id == package_id).values(**values))

    def device_types(self) -> list[DeviceTypeRef]:
        return [DeviceTypeRef(r.id, r.type_name, r.type_code)
                for r in self._s.execute(select(DeviceTypeRow.id, DeviceTypeRow.type_name, DeviceTypeRow.type_code)
                                         .order_by(DeviceTypeRow.type_code))]

    def active_packages(self, type_ids: Sequence[int], except_id: int,
                        languages: Sequence[str] = ()) -> list[ActivePackage]:
        ids = sorted(set(type_ids))
        if not ids:
            return []
        self._lock(update(DeviceTypeRow).where(DeviceTypeRow.id.in_(ids)).values(status=DeviceTypeRow.status))
        self._s.execute(select(DeviceTypeRow.id).where(DeviceTypeRow.id.in_(ids)).order_by(DeviceTypeRow.id)
                        .with_for_update()).all()
        rows = self._s.execute(
            select(DeviceTypeRow.id, DeviceTypeRow.type_name, ServicePackageRow.id,
                   localized_name(PACKAGE, func.cast(ServicePackageRow.id, CatalogueTextRow.owner_key.type),
                                  ServicePackageRow.package_name, languages))
            .join(PackageDeviceTypeRow, PackageDeviceTypeRow.device_type_id == DeviceTypeRow.id)
            .join(ServicePackageRow, ServicePackageRow.id == PackageDeviceTypeRow.package_id)
            .where(DeviceTypeRow.id.in_(ids), ServicePackageRow.id != except_id,
                   ServicePackageRow.status == int(PackageStatus.ENABLED))
            .order_by(DeviceTypeRow.id)).all()
        return [ActivePackage(row[0], row[1], row[2], row[3]) for row in rows]

    # --- levels --------------------------------------------------------------------------------

    def _levels(self, rows: Sequence[ServiceLevelRow]) -> list[Level]:
        ids = [r.id for r in rows]
        if not ids:
            return []
        options = self._s.scalars(select(LevelYearOptionRow).where(
            LevelYearOptionRow.level_id.in_(ids), LevelYearOptionRow.retired_at.is_(None))
            .order_by(LevelYearOptionRow.sort, LevelYearOptionRow.id)).all()
        option_ids = [o.id for o in options]
        sold = set(self._s.scalars(select(OrderLineRow.level_year_id).distinct()
                                   .where(OrderLineRow.level_year_id.in_(option_ids)))) if option_ids else set()
        if option_ids:
            sold |= set(self._s.scalars(select(AutoRenewAgreementRow.level_year_id).distinct()
                                        .where(AutoRenewAgreementRow.level_year_id.in_(option_ids))))
        by_level: dict[int, list[Option]] = defaultdict(list)
        for o in options:
            by_level[o.level_id].append(Option(o.id, o.time_length, o.service_fee_cents, o.data_fee_cents, o.currency,
                                               o.discount, bool(o.top_status), o.sort, o.id in sold))
        items: dict[int, list[str]] = defaultdict(list)
        for level_id, code in self._s.execute(
                select(LevelItemRow.level_id, LevelItemRow.item_code)
                .join(ServiceItemRow, ServiceItemRow.item_code == LevelItemRow.item_code)
                .where(LevelItemRow.level_id.in_(ids)).order_by(ServiceItemRow.sort, ServiceItemRow.item_code)):
            items[level_id].append(code)
        in_use = set(self._s.scalars(select(OrderLineRow.level_id).distinct().where(OrderLineRow.level_id.in_(ids))))
        in_use |= set(self._s.scalars(select(DeviceRow.level_id).distinct().where(DeviceRow.level_id.in_(ids))))
        in_use |= set(self._s.scalars(select(AutoRenewAgreementRow.level_id).distinct()
                                      .where(AutoRenewAgreementRow.level_id.in_(ids))))
        texts = texts_of(self._s, LEVEL, ids)
        return [Level(r.id, r.package_id, texts.get(str(r.id), {}),
                      r.icon_url, r.sort, tuple(items[r.id]), tuple(by_level[r.id]), r.id in in_use,
                      LocalText(r.level_name, r.level_describe)) for r in rows]

    def levels(self, package_id: int) -> list[Level]:
        return self._levels(self._s.scalars(select(ServiceLevelRow).where(ServiceLevelRow.package_id == package_id)
                                            .order_by(ServiceLevelRow.sort, ServiceLevelRow.id)).all())

    def level(self, level_id: int) -> Level | None:
        row = self._s.get(ServiceLevelRow, level_id, populate_existing=True)
        return self._levels([row])[0] if row else None

    def _set_items(self, level_id: int, codes: Sequence[str]) -> None:
        self._s.execute(delete(LevelItemRow).where(LevelItemRow.level_id == level_id))
        self._s.add_all([LevelItemRow(level_id=level_id, item_code=c) for c in codes])
        self._s.flush()

    def add_level(self, package_id: int, texts: Texts, default_name: str, description: str | None,
                  item_codes: Sequence[str]) -> int:
        last = self._s.scalar(select(func.max(ServiceLevelRow.sort)).where(ServiceLevelRow.package_id == package_id))
        row = ServiceLevelRow(package_id=package_id, level_name=default_name, level_describe=description,
                              sort=(last if last is not None else -1) + 1)
        self._s.add(row)
        self._s.flush()
        self._set_items(row.id, item_codes)
        self._save_texts(LEVEL, row.id, texts)
        return row.id

    def update_level(self, level_id: int, texts: Texts, default_name: str, description: str | None,
                     item_codes: Sequence[str]) -> None:
        self._s.execute(update(ServiceLevelRow).where(ServiceLevelRow.id == level_id)
                        .values(level_name=default_name, level_describe=description))
        self._set_items(level_id, item_codes)
        self._save_texts(LEVEL, level_id, texts)

    @staticmethod
    def _option_values(option: OptionDraft, sort: int) -> dict[str, object]:
        return {"time_length": option.months, "service_fee_cents": option.service_fee_cents,
                "data_fee_cents": option.data_fee_cents, "currency": option.currency, "discount": option.discount,
                "top_status": int(option.recommended), "sort": sort}

    def add_option(self, level_id: int, option: OptionDraft, sort: int) -> int:
        row = LevelYearOptionRow(level_id=level_id, **self._option_values(option, sort))
        self._s.add(row)
        self._s.flush()
        return row.id

    def update_option(self, option_id: int, option: OptionDraft, sort: int) -> None:
        self._s.execute(update(LevelYearOptionRow).where(LevelYearOptionRow.id == option_id)
                        .values(**self._option_values(option, sort)))

    def retire_options(self, option_ids: Sequence[int], at: datetime) -> None:
        if option_ids:
            self._s.execute(update(LevelYearOptionRow).where(LevelYearOptionRow.id.in_(list(option_ids)))
                            .values(retired_at=at))

    def delete_options(self, option_ids: Sequence[int]) -> None:
        if option_ids:
            self._s.execute(delete(LevelYearOptionRow).where(LevelYearOptionRow.id.in_(list(option_ids))))

    def delete_level(self, level_id: int) -> None:
        self._drop_texts(LEVEL, [level_id])
        self._s.execute(delete(LevelItemRow).where(LevelItemRow.level_id == level_id))
        self._s.execute(delete(LevelYearOptionRow).where(LevelYearOptionRow.level_id == level_id))
        self._s.execute(update(PackageGiftRow).where(PackageGiftRow.level_id == level_id)
                        .values(level_id=None, months=0))
        self._s.execute(delete(ServiceLevelRow).where(ServiceLevelRow.id == level_id))

    def sort_levels(self, package_id: int, level_ids: Sequence[int]) -> None:
        for sort, level_id in enumerate(level_ids):
            self._s.execute(update(ServiceLevelRow).where(ServiceLevelRow.id == level_id,
                                                          ServiceLevelRow.package_id == package_id).values(sort=sort))

    def set_icon(self, level_id: int, icon: str | None) -> None:
        self._s.execute(update(ServiceLevelRow).where(ServiceLevelRow.id == level_id).values(icon_url=icon))

    # --- gift ----------------------------------------------------------------------------------

    def gift(self, package_id: int) -> Gift | None:
        row = self._s.get(PackageGiftRow, package_id, populate_existing=True)
        return Gift(row.level_id, row.months, row.sms_count, row.voice_count) if row else None

    def save_gift(self, package_id: int, gift: Gift) -> None:
        row = self._s.get(PackageGiftRow, package_id)
        if row is None:
            self._s.add(PackageGiftRow(package_id=package_id, level_id=gift.level_id, months=gift.months,
                                       sms_count=gift.sms_count, voice_count=gift.voice_count))
        else:
            row.level_id, row.months, row.sms_count, row.voice_count = (gift.level_id, gift.months, gift.sms_count,
                                                                         gift.voice_count)
        self._s.flush()
