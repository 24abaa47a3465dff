"""What an operator does to the catalogue. Every change is checked whole before anything is
written, and answers InvalidInput naming each field (`names.ru-RU.name`, `options.2.serviceFee`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.catalogue.errors import (
    DeviceTypeHasActivePackage,
    GiftLevelElsewhere,
    ItemInUse,
    LevelInUse,
    PackageEnabledTwice,
    PackageHasNoDeviceTypes,
    PackageHasNoLevels,
    PackageStoppedTwice,
)
from core.catalogue.model import (
    CODE_FORMAT,
    CODE_TAKEN,
    ITEM_CODE,
    ITEM_CODE_FORMAT,
    ITEM_CODE_TAKEN,
    ITEM_LABEL_MAX,
    ITEM_NAME_MAX,
    ITEM_SUPPLEMENT_MAX,
    LEVEL_DESCRIPTION_MAX,
    LEVEL_NAME_MAX,
    PACKAGE_CODE,
    PACKAGE_NAME_MAX,
    UNKNOWN_DEVICE_TYPE,
    UNKNOWN_ITEM,
    UNKNOWN_OPTION,
    DeviceTypeRef,
    Gift,
    Item,
    ItemDraft,
    Level,
    LevelDraft,
    Package,
    PackageDraft,
    PackageFilter,
    PackageStatus,
    Problems,
    clean_texts,
    gift_problems,
    option_problems,
    plan_options,
    text_problem,
)
from core.catalogue.ports import CatalogueAdminRepository, CatalogueAdminUnitOfWork, IconStore
from core.shared.clock import Clock
from core.shared.edition import Edition
from core.shared.errors import InvalidInput, NotFound
from core.shared.paging import Page, PageRequest


def _raise(problems: Problems) -> None:
    if problems.messages:
        raise InvalidInput.of(problems.messages, problems.params)


class CatalogueAdmin:
    """The operator's calls on items, packages, levels, device types and the gift."""

    def __init__(self, uow: CatalogueAdminUnitOfWork, clock: Clock, edition: Edition, icons: IconStore) -> None:
        self._uow, self._clock, self._icons = uow, clock, icons
        self._default = edition.profile.default_language

    # --- items ---------------------------------------------------------------------------------

    def items(self) -> list[Item]:
        with self._uow as uow:
            return uow.catalogue_admin.items()

    def _item(self, draft: ItemDraft, problems: Problems) -> ItemDraft:
        texts = clean_texts(draft.texts, self._default, problems, "names", ITEM_NAME_MAX, ITEM_SUPPLEMENT_MAX)
        label = (draft.label or "").strip() or None
        if label is not None and (problem := text_problem(label, ITEM_LABEL_MAX, required=False)):
            problems.add("itemLabel", problem[0], **problem[1])
        return replace(draft, label=label, texts=texts)

    def save_item(self, draft: ItemDraft, *, new: bool) -> Item:
        problems = Problems()
        draft = replace(draft, code=draft.code.strip())
        if not ITEM_CODE.match(draft.code):
            problems.add("itemCode", ITEM_CODE_FORMAT)
        draft = self._item(draft, problems)
        with self._uow as uow:
            repo = uow.catalogue_admin
            existing = repo.item(draft.code) if "itemCode" not in problems.messages else None
            if new and existing is not None:
                problems.add("itemCode", ITEM_CODE_TAKEN)
            elif not new and existing is None and "itemCode" not in problems.messages:
                raise NotFound()
            _raise(problems)
            text = draft.texts[self._default]
            (repo.add_item if new else repo.update_item)(draft, text.name, text.description)
            item = repo.item(draft.code)
            uow.commit()
        assert item is not None
        return item

    def delete_item(self, code: str) -> None:
        with self._uow as uow:
            repo = uow.catalogue_admin
            if repo.item(code) is None:
                raise NotFound()
            if repo.item_in_use(code):
                raise ItemInUse()
            repo.delete_item(code)
            uow.commit()

    def sort_items(self, codes: Sequence[str]) -> list[Item]:
        with self._uow as uow:
            repo = uow.catalogue_admin
            known = {i.code for i in repo.items()}
            if set(codes) != known or len(codes) != len(known):
                raise InvalidInput("itemCodes", UNKNOWN_ITEM)
            repo.sort_items(codes)
            items = repo.items()
            uow.commit()
        return items

    # --- packages ------------------------------------------------------------------------------

    def packages(self, where: PackageFilter, request: PageRequest) -> Page[Package]:
        with self._uow as uow:
            return uow.catalogue_admin.packages(where, request)

    def package(self, package_id: int) -> tuple[Package, list[Level], Gift | None]:
        with self._uow as uow:
            repo = uow.catalogue_admin
            package = repo.package(package_id)
            if package is None:
                raise NotFound()
            return package, repo.levels(package_id), repo.gift(package_id)

    def device_types(self) -> list[DeviceTypeRef]:
        with self._uow as uow:
            return uow.catalogue_admin.device_types()

    def _package_draft(self, repo: CatalogueAdminRepository, draft: PackageDraft, package_id: int | None
                       ) -> PackageDraft:
        problems = Problems()
        code = draft.code.strip()
        if not PACKAGE_CODE.match(code):
            problems.add("packageCode", CODE_FORMAT)
        elif repo.code_taken(code, package_id):
            problems.add("packageCode", CODE_TAKEN)
        texts = clean_texts(draft.texts, self._default, problems, "names", PACKAGE_NAME_MAX, None)
        type_ids = tuple(dict.fromkeys(draft.device_type_ids))
        known = {t.id for t in repo.device_types()}
        if any(t not in known for t in type_ids):
            problems.add("deviceTypeIds", UNKNOWN_DEVICE_TYPE)
        _raise(problems)
        return PackageDraft(code, texts, type_ids)

    def _one_active_per_type(self, repo: CatalogueAdminRepository, package_id: int, type_ids: Sequence[int],
                             language: str | None) -> None:
        """One enabled package per device type (a device would otherwise be offered two price lists);
        the refusal names the other package in the caller's language."""
        languages = tuple(dict.fromkeys(lang for lang in (language, self._default) if lang))
        clash = repo.active_packages(type_ids, package_id, languages)
        if clash:
            raise DeviceTypeHasActivePackage(type=clash[0].type_name, package=clash[0].package_name)

    def add_package(self, draft: PackageDraft) -> Package:
        """A new package is stopped: it is enabled once its levels are priced."""
        with self._uow as uow:
            repo = uow.catalogue_admin
            draft = self._package_draft(repo, draft, None)
            package_id = repo.add_package(draft, draft.texts[self._default].name, self._clock.now())
            package = repo.package(package_id)
            uow.commit()
        assert package is not None
        return package

    def update_package(self, package_id: int, draft: PackageDraft, language: str | None = None) -> Package:
        """Name, code and device types; an enabled package keeps one enabled package per type."""
        with self._uow as uow:
            repo = uow.catalogue_admin
            current = repo.package(package_id, lock=True)
            if current is None:
                raise NotFound()
            draft = self._package_draft(repo, draft, package_id)
            if current.status is PackageStatus.ENABLED:
                if not draft.device_type_ids:
                    raise PackageHasNoDeviceTypes()
                self._one_active_per_type(repo, package_id, draft.device_type_ids, language)
            repo.update_package(package_id, draft, draft.texts[self._default].name)
            package = repo.package(package_id)
            uow.commit()
        assert package is not None
        return package

    def set_device_types(self, package_id: int, type_ids: Sequence[int], language: str | None = None) -> Package:
        with self._uow as uow:
            current = uow.catalogue_admin.package(package_id)
        if current is None:
            raise NotFound()
        texts = {self._default: current.own, **current.texts}
        return self.update_package(package_id, PackageDraft(current.code, texts, tuple(type_ids)), language)

    def enable(self, package_id: int, language: str | None = None) -> Package:
        with self._uow as uow:
            repo = uow.catalogue_admin
            package = repo.package(package_id, lock=True)
            if package is None:
                raise NotFound()
            if package.status is PackageStatus.ENABLED:
                raise PackageEnabledTwice()
            if not package.device_type_ids:
                raise PackageHasNoDeviceTypes()
            if not any(level.options for level in repo.levels(package_id)):
                raise PackageHasNoLevels()
            self._one_active_per_type(repo, package_id, package.device_type_ids, language)
            repo.set_status(package_id, PackageStatus.ENABLED, self._clock.now())
            package = repo.package(package_id)
            uow.commit()
        assert package is not None
        return package

    def stop(self, package_id: int) -> Package:
        """A stopped package is no longer offered; what it sold stays sold (devices keep their
        level until their service ends)."""
        with self._uow as uow:
            repo = uow.catalogue_admin
            package = repo.package(package_id, lock=True)
            if package is None:
                raise NotFound()
            if package.status is PackageStatus.STOPPED:
                raise PackageStoppedTwice()
            repo.set_status(package_id, PackageStatus.STOPPED, self._clock.now())
            package = repo.package(package_id)
            uow.commit()
        assert package is not None
        return package

    # --- levels --------------------------------------------------------------------------------

    def levels(self, package_id: int) -> list[Level]:
        with self._uow as uow:
            repo = uow.catalogue_admin
            if repo.package(package_id) is None:
                raise NotFound()
            return repo.levels(package_id)

    def _level_draft(self, repo: CatalogueAdminRepository, draft: LevelDraft, current: Level | None) -> LevelDraft:
        problems = Problems()
        texts = clean_texts(draft.texts, self._default, problems, "names", LEVEL_NAME_MAX, LEVEL_DESCRIPTION_MAX)
        codes = tuple(dict.fromkeys(draft.item_codes))
        known = {i.code for i in repo.items()}
        if any(c not in known for c in codes):
            problems.add("itemCodes", UNKNOWN_ITEM)
        option_problems(draft.options, problems)
        mine = {o.id for o in current.options} if current else set()
        for index, option in enumerate(draft.options):
            if option.id is not None and option.id not in mine:
                problems.add(f"options.{index}.id", UNKNOWN_OPTION)
        _raise(problems)
        return LevelDraft(texts, codes, draft.options)

    def _write_options(self, repo: CatalogueAdminRepository, level_id: int, current: Level | None,
                       draft: LevelDraft) -> None:
        plan = plan_options(current.options if current else (), draft.options)
        repo.retire_options(plan.retire, self._clock.now())
        repo.delete_options(plan.delete)
        for option_id, values, sort in plan.keep:
            repo.update_option(option_id, values, sort)
        for values, sort in plan.add:
            repo.add_option(level_id, values, sort)

    def add_level(self, package_id: int, draft: LevelDraft) -> Level:
        with self._uow as uow:
            repo = uow.catalogue_admin
            if repo.package(package_id, lock=True) is None:
                raise NotFound()
            draft = self._level_draft(repo, draft, None)
            text = draft.texts[self._default]
            level_id = repo.add_level(package_id, draft.texts, text.name, text.description, draft.item_codes)
            self._write_options(repo, level_id, None, draft)
            level = repo.level(level_id)
            uow.commit()
        assert level is not None
        return level

    def update_level(self, level_id: int, draft: LevelDraft) -> Level:
        """Names, items and durations. A sold duration's price or length is never changed: the
        row is retired (no longer offered, still what its orders name) and a new one added."""
        with self._uow as uow:
            repo = uow.catalogue_admin
            current = repo.level(level_id)
            if current is None:
                raise NotFound()
            repo.package(current.package_id, lock=True)
            draft = self._level_draft(repo, draft, current)
            text = draft.texts[self._default]
            repo.update_level(level_id, draft.texts, text.name, text.description, draft.item_codes)
            self._write_options(repo, level_id, current, draft)
            level = repo.level(level_id)
            uow.commit()
        assert level is not None
        return level

    def delete_level(self, level_id: int) -> None:
        with self._uow as uow:
            repo = uow.catalogue_admin
            level = repo.level(level_id)
            if level is None:
                raise NotFound()
            if level.in_use:
                raise LevelInUse()
            repo.delete_level(level_id)
            uow.commit()
        if level.icon:
            self._icons.discard(level.icon)

    def sort_levels(self, package_id: int, level_ids: Sequence[int]) -> list[Level]:
        with self._uow as uow:
            repo = uow.catalogue_admin
            if repo.package(package_id) is None:
                raise NotFound()
            known = [level.id for level in repo.levels(package_id)]
            if sorted(known) != sorted(level_ids):
                raise InvalidInput("levelIds", UNKNOWN_OPTION)
            repo.sort_levels(package_id, level_ids)
            levels = repo.levels(package_id)
            uow.commit()
        return levels

    def set_icon(self, level_id: int, data: bytes) -> Level:
        with self._uow as uow:
            if uow.catalogue_admin.level(level_id) is None:
                raise NotFound()
        name = self._icons.store(level_id, data)
        with self._uow as uow:
            repo = uow.catalogue_admin
            level = repo.level(level_id)
            if level is None:
                self._icons.discard(name)
                raise NotFound()
            repo.set_icon(level_id, name)
            uow.commit()
        if level.icon:
            self._icons.discard(level.icon)
        return replace(level, icon=name)

    def icon(self, level_id: int) -> bytes:
        with self._uow as uow:
            level = uow.catalogue_admin.level(level_id)
        data = self._icons.load(level.icon) if level is not None and level.icon else None
        if data is None:
            raise NotFound()
        return data

    # --- gift ----------------------------------------------------------------------------------

    def gift(self, package_id: int) -> Gift | None:
        with self._uow as uow:
            repo = uow.catalogue_admin
            if repo.package(package_id) is None:
                raise NotFound()
            return repo.gift(package_id)

    def save_gift(self, package_id: int, gift: Gift) -> Gift:
        """What a new device of the package's types gets; months 0 gives nothing."""
        problems = Problems()
        gift_problems(gift, problems)
        _raise(problems)
        with self._uow as uow:
            repo = uow.catalogue_admin
            if repo.package(package_id, lock=True) is None:
                raise NotFound()
            if gift.level_id is not None:
                level = repo.level(gift.level_id)
                if level is None or level.package_id != package_id:
                    raise GiftLevelElsewhere()
            repo.save_gift(package_id, gift)
            uow.commit()
        return gift
