"""What an operator does to activities and SMS/voice packages (order.servicePackage)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from core.pricing.model import AlertKind as PricedKind
from core.pricing.model import AlertPackage as PricedAlert
from core.pricing.rules import alert_package_discount, alert_package_price
from core.promotions.errors import ActivityOverlap, TooManyAlertPackages
from core.promotions.model import (
    ALERT_PACKAGES_PER_KIND,
    BAD_COUNT,
    BAD_DISCOUNT,
    BAD_FEE,
    BAD_KIND,
    ENDS_BEFORE_START,
    MAX_BONUS_MONTHS,
    MAX_OPTIONS,
    MAX_TARGETS,
    NO_OPTIONS,
    NO_ROWS,
    NO_TARGETS,
    OFFERS_NOTHING,
    SORT_MISMATCH,
    TOO_MANY_ALERT_PACKAGES,
    UNKNOWN_ACCOUNT,
    UNKNOWN_OPTION,
    Activity,
    ActivityDeposit,
    ActivityDraft,
    ActivityFilter,
    ActivityOrder,
    AlertActivityDetail,
    AlertKind,
    AlertPackage,
    AlertPackageDraft,
    AlertSales,
    ImportReport,
    ImportRow,
    Nature,
    OptionActivity,
    OptionInForce,
    OptionLabel,
    OptionSales,
    PackageActivityDetail,
    Period,
    SalesSummary,
    Status,
    TargetAccount,
    alert_problems,
    clean_names,
    name_problem,
    names_problems,
    overlap,
    period_problems,
    summary_of,
)
from core.promotions.ports import PromotionSheets, PromotionsUnitOfWork
from core.shared.clock import Clock
from core.shared.edition import Edition, reading_languages
from core.shared.errors import InvalidInput, NotFound
from core.shared.money import NO_DISCOUNT
from core.shared.paging import Page, PageRequest

MAX_EXPORT_ROWS = 10_000
COPY_SUFFIX = " (2)"


def cleaned_activity(draft: ActivityDraft) -> ActivityDraft:
    """The draft trimmed, or InvalidInput naming every field that breaks a rule."""
    draft = replace(draft, name=draft.name.strip(), names=clean_names(draft.names),
                    account_ids=tuple(dict.fromkeys(draft.account_ids)) if draft.nature is Nature.DIRECTIONAL else ())
    problems: dict[str, str] = {}
    if (problem := name_problem(draft.name)):
        problems["name"] = problem
    problems.update(names_problems(draft.names))
    if draft.ends_at <= draft.starts_at:
        problems["endTime"] = ENDS_BEFORE_START
    ids = [o.level_year_id for o in draft.options]
    if not draft.options or len(draft.options) > MAX_OPTIONS or len(set(ids)) != len(ids):
        problems["options"] = NO_OPTIONS
    for option in draft.options:
        if not 1 <= option.discount <= NO_DISCOUNT or not 0 <= option.bonus_months <= MAX_BONUS_MONTHS:
            problems["options"] = BAD_DISCOUNT
        elif option.discount == NO_DISCOUNT and option.bonus_months == 0:
            problems["options"] = OFFERS_NOTHING
    if draft.nature is Nature.DIRECTIONAL and not 1 <= len(draft.account_ids) <= MAX_TARGETS:
        problems["accountIds"] = NO_TARGETS
    if problems:
        raise InvalidInput.of(problems)
    return draft


def _check_references(uow: PromotionsUnitOfWork, draft: ActivityDraft) -> None:
    option_ids = frozenset(o.level_year_id for o in draft.options)
    if uow.promotions.known_options(option_ids) != option_ids:
        raise InvalidInput("options", UNKNOWN_OPTION)
    accounts = frozenset(draft.account_ids)
    if accounts and uow.promotions.live_accounts(accounts) != accounts:
        raise InvalidInput("accountIds", UNKNOWN_ACCOUNT)


def _refuse_overlap(uow: PromotionsUnitOfWork, activity: ActivityDraft | Activity, own_id: int | None) -> None:
    option_ids = frozenset(o.level_year_id for o in activity.options)
    other = overlap(activity.starts_at, activity.ends_at, option_ids, uow.promotions.activities_on(option_ids),
                    own_id)
    if other is not None:
        raise ActivityOverlap(name=other.name)


def _activity(uow: PromotionsUnitOfWork, activity_id: int) -> Activity:
    found = uow.promotions.activity(activity_id)
    if found is None:
        raise NotFound()
    return found


class ListActivities:
    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, where: ActivityFilter, request: PageRequest) -> Page[Activity]:
        with self._uow as uow:
            return uow.promotions.activity_page(where, request)


class GetActivity:
    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, activity_id: int) -> Activity:
        with self._uow as uow:
            return _activity(uow, activity_id)


class ListActivityOptions:
    """Every year option an activity may be linked to, with its package and level."""

    def __init__(self, uow: PromotionsUnitOfWork, edition: Edition) -> None:
        self._uow, self._edition = uow, edition

    def __call__(self, language: str | None = None) -> list[OptionLabel]:
        """Named in `language` where the catalogue has it, else the platform's default."""
        with self._uow as uow:
            return uow.promotions.option_labels(languages=reading_languages(language, self._edition))


class SearchTargetAccounts:
    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, text: str) -> list[TargetAccount]:
        text = text.strip()
        if not text:
            return []
        with self._uow as uow:
            return uow.promotions.search_accounts(text, 20)


class SaveActivity:
    """Insert (no id: enabled at once, so refused when it overlaps an enabled one) or update (an
    enabled activity is checked again; a stopped one is not, until it is enabled)."""

    def __init__(self, uow: PromotionsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, draft: ActivityDraft, activity_id: int | None = None) -> Activity:
        draft = cleaned_activity(draft)
        with self._uow as uow:
            uow.promotions.serialize("activities")
            status = Status.ENABLED if activity_id is None else _activity(uow, activity_id).status
            _check_references(uow, draft)
            if status is Status.ENABLED:
                _refuse_overlap(uow, draft, activity_id)
            if activity_id is None:
                activity_id = uow.promotions.add_activity(draft, status, self._clock.now())
            else:
                uow.promotions.change_activity(activity_id, draft)
            uow.commit()
            return _activity(uow, activity_id)


class SetActivityStatus:
    """Enable (refused when it would overlap another enabled activity) or stop: a stopped
    activity offers nothing, the packages' own prices are shown and charged again."""

    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, activity_id: int, status: Status) -> Activity:
        with self._uow as uow:
            uow.promotions.serialize("activities")
            activity = _activity(uow, activity_id)
            if status is Status.ENABLED:
                _refuse_overlap(uow, activity, activity_id)
            uow.promotions.set_activity_status(activity_id, status)
            uow.commit()
            return _activity(uow, activity_id)


class DeleteActivity:
    """The activity and its links go; orders placed at its price keep what they were charged."""

    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, activity_id: int) -> None:
        with self._uow as uow:
            _activity(uow, activity_id)
            uow.promotions.delete_activity(activity_id)
            uow.commit()


class CopyActivity:
    """A stopped copy (so it overlaps nothing until its dates or options change and it is enabled)."""

    def __init__(self, uow: PromotionsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, activity_id: int) -> Activity:
        with self._uow as uow:
            source = _activity(uow, activity_id)
            name = source.name[:20 - len(COPY_SUFFIX)].rstrip() + COPY_SUFFIX
            draft = ActivityDraft(name, source.nature, source.starts_at, source.ends_at, source.options,
                                  tuple(a.id for a in source.accounts), dict(source.names))
            new_id = uow.promotions.add_activity(draft, Status.STOPPED, self._clock.now())
            uow.commit()
            return _activity(uow, new_id)


class ListDeposits:
    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, request: PageRequest) -> Page[ActivityDeposit]:
        with self._uow as uow:
            return uow.promotions.deposits(request)


class ListActivityOrders:
    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, activity_id: int, request: PageRequest) -> Page[ActivityOrder]:
        with self._uow as uow:
            _activity(uow, activity_id)
            return uow.promotions.activity_orders(activity_id, request)


class ExportActivityOrders:
    def __init__(self, uow: PromotionsUnitOfWork, sheets: PromotionSheets) -> None:
        self._uow, self._sheets = uow, sheets

    def __call__(self, activity_id: int, headers: list[str],
                 row: Callable[[ActivityOrder], list[object]]) -> bytes:
        with self._uow as uow:
            _activity(uow, activity_id)
            orders = list(uow.promotions.every_activity_order(activity_id, MAX_EXPORT_ROWS))
        return self._sheets.render(headers, (row(o) for o in orders))


# --- SMS and voice packages ---------------------------------------------------------------------


def cleaned_alert(draft: AlertPackageDraft) -> AlertPackageDraft:
    draft = replace(draft, name=draft.name.strip(), country_code=draft.country_code.strip(),
                    currency=draft.currency.strip().upper(), names=clean_names(draft.names))
    problems = alert_problems(draft)
    if problems:
        raise InvalidInput.of(problems)
    return draft


def _alert(uow: PromotionsUnitOfWork, package_id: int) -> AlertPackage:
    found = uow.promotions.alert_package(package_id)
    if found is None:
        raise NotFound()
    return found


def _add_alert(uow: PromotionsUnitOfWork, draft: AlertPackageDraft) -> int:
    count = uow.promotions.count_alert_packages(draft.country_code, draft.kind)
    if count >= ALERT_PACKAGES_PER_KIND:
        raise TooManyAlertPackages()
    return uow.promotions.add_alert_package(draft, count)


class ListAlertPackagesAdmin:
    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, country_code: str | None, kind: AlertKind | None) -> list[AlertPackage]:
        with self._uow as uow:
            return uow.promotions.alert_packages(country_code, kind)


class ActivityNames:
    """The names of activities in a reader's language (a coupon or card batch names its activity)."""

    def __init__(self, uow: PromotionsUnitOfWork, edition: Edition) -> None:
        self._uow, self._edition = uow, edition

    def __call__(self, activity_ids: list[int], language: str | None) -> dict[int, str]:
        if not activity_ids:
            return {}
        with self._uow as uow:
            return uow.promotions.activity_names(activity_ids, reading_languages(language, self._edition))


class AlertPackageNames:
    """The names of SMS/voice packages in a reader's language, for the customer's drawer (a package
    without one keeps its default name)."""

    def __init__(self, uow: PromotionsUnitOfWork, edition: Edition) -> None:
        self._uow, self._edition = uow, edition

    def __call__(self, package_ids: list[int], language: str | None) -> dict[int, str]:
        with self._uow as uow:
            return uow.promotions.alert_package_names(package_ids, reading_languages(language, self._edition))


class SaveAlertPackage:
    """Insert (at most 5 of a kind per country code) or update (moving one to another country
    code or kind counts there too)."""

    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, draft: AlertPackageDraft, package_id: int | None = None) -> AlertPackage:
        draft = cleaned_alert(draft)
        with self._uow as uow:
            uow.promotions.serialize("alertPackages")
            if package_id is None:
                package_id = _add_alert(uow, draft)
            else:
                before = _alert(uow, package_id)
                if (before.country_code, before.kind) != (draft.country_code, draft.kind) and \
                        uow.promotions.count_alert_packages(draft.country_code, draft.kind) >= ALERT_PACKAGES_PER_KIND:
                    raise TooManyAlertPackages()
                uow.promotions.change_alert_package(package_id, draft)
            uow.commit()
            return _alert(uow, package_id)


class DeleteAlertPackage:
    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, package_id: int) -> None:
        with self._uow as uow:
            _alert(uow, package_id)
            uow.promotions.delete_alert_package(package_id)
            uow.commit()


class SortAlertPackages:
    """The packages of one country code and kind in the order given (every one of them, once)."""

    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, country_code: str, kind: AlertKind, ordered_ids: list[int]) -> list[AlertPackage]:
        with self._uow as uow:
            uow.promotions.serialize("alertPackages")
            current = uow.promotions.alert_packages(country_code, kind)
            if sorted(ordered_ids) != sorted(p.id for p in current):
                raise InvalidInput("ids", SORT_MISMATCH)
            uow.promotions.sort_alert_packages(ordered_ids)
            uow.commit()
            return uow.promotions.alert_packages(country_code, kind)


_KINDS = {"sms": AlertKind.SMS, "1": AlertKind.SMS, "短信": AlertKind.SMS, "voice": AlertKind.VOICE,
          "2": AlertKind.VOICE, "语音": AlertKind.VOICE}


def _whole(text: str) -> int | None:
    text = text.strip()
    if text.endswith(".0"):
        text = text[:-2]
    return int(text) if text.isdigit() and len(text) <= 12 else None


def _draft_of(row: ImportRow) -> tuple[AlertPackageDraft | None, str | None, str | None]:
    """The row as a draft, or (None, field, problem)."""
    cells = list(row.cells) + [""] * (7 - len(row.cells))
    kind_text, country, name, fee, currency, count, discount = (c.strip() for c in cells[:7])
    kind = _KINDS.get(kind_text.casefold())
    if kind is None:
        return None, "kind", BAD_KIND
    fee_cents, count_n = _whole(fee), _whole(count)
    discount_n = _whole(discount) if discount else NO_DISCOUNT
    if fee_cents is None:
        return None, "packageFee", BAD_FEE
    if count_n is None:
        return None, "smsCount", BAD_COUNT
    if discount_n is None:
        return None, "discount", BAD_DISCOUNT
    draft = AlertPackageDraft(kind, country, name, fee_cents, currency.upper(), count_n, discount_n)
    try:
        return cleaned_alert(draft), None, None
    except InvalidInput as refused:
        field, problem = next(iter(refused.problems.items()))
        return None, field, problem


class ImportAlertPackages:
    """Each row of the sheet added as `insert` would, or reported with why not (the limit of 5 a
    kind per country code counts the rows added above it); a file that is not such a sheet is
    refused whole and nothing is added."""

    def __init__(self, uow: PromotionsUnitOfWork, sheets: PromotionSheets) -> None:
        self._uow, self._sheets = uow, sheets

    def __call__(self, data: bytes) -> list[ImportReport]:
        rows = self._sheets.read(data)
        if not rows:
            raise InvalidInput("file", NO_ROWS)
        reports: list[ImportReport] = []
        with self._uow as uow:
            uow.promotions.serialize("alertPackages")
            for row in rows:
                draft, field, problem = _draft_of(row)
                name = (row.cells[2] if len(row.cells) > 2 else "")[:40]
                if draft is None:
                    reports.append(ImportReport(row.number, name, False, field=field, problem=problem))
                    continue
                if uow.promotions.count_alert_packages(draft.country_code, draft.kind) >= ALERT_PACKAGES_PER_KIND:
                    reports.append(ImportReport(row.number, name, False, field="countryCode",
                                                problem=TOO_MANY_ALERT_PACKAGES))
                    continue
                reports.append(ImportReport(row.number, draft.name, True, package_id=_add_alert(uow, draft)))
            uow.commit()
        return reports


class AlertSheetTemplate:
    def __init__(self, sheets: PromotionSheets) -> None:
        self._sheets = sheets

    def __call__(self, headers: list[str]) -> bytes:
        example: Iterator[list[object]] = iter([["SMS", "86", "SMS 100", 1000, "CNY", 100, 100]])
        return self._sheets.render(headers, example)


# --- what was sold, what is in force ------------------------------------------------------------

HISTORY_MAX = 50


def _period(period: Period) -> Period:
    if problems := period_problems(period):
        raise InvalidInput.of(problems)
    return period


class ServiceSalesSummary:
    """Paid service orders over a period per year option, named in the reader's language (an
    option deleted since keeps its row, unnamed), with the totals per currency."""

    def __init__(self, uow: PromotionsUnitOfWork, edition: Edition) -> None:
        self._uow, self._edition = uow, edition

    def __call__(self, period: Period, package_id: int | None = None,
                 language: str | None = None) -> SalesSummary[OptionSales]:
        period = _period(period)
        with self._uow as uow:
            sales = uow.promotions.option_sales(period, package_id)
            labels = {o.level_year_id: o for o in uow.promotions.option_labels(
                frozenset(s.level_year_id for s in sales), reading_languages(language, self._edition))} \
                if sales else {}
        return summary_of(period, [replace(s, label=labels.get(s.level_year_id)) for s in sales])


class AlertSalesSummary:
    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, period: Period, country_code: str | None = None) -> SalesSummary[AlertSales]:
        period = _period(period)
        with self._uow as uow:
            return summary_of(period, uow.promotions.alert_sales(period, country_code))


class AlertActivityDetailQuery:
    """An SMS/voice package with the discount charged now (its activity discount, when it has one,
    taking precedence as the customer's drawer applies it) and the history of its price terms."""

    def __init__(self, uow: PromotionsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, package_id: int) -> AlertActivityDetail:
        with self._uow as uow:
            package = _alert(uow, package_id)
            activity_discount = uow.promotions.alert_activity_discount(package_id)
            history = uow.promotions.alert_price_history(package_id, HISTORY_MAX)
        priced = PricedAlert(package.id, PricedKind(int(package.kind)), package.country_code, package.name,
                             package.fee_cents, package.currency, package.count, package.discount, activity_discount)
        return AlertActivityDetail(package, activity_discount, alert_package_discount(priced),
                                   alert_package_price(priced), history)


class PackageActivityDetailQuery:
    """A service package's year options still offered, each with the enabled activities on it
    that have not ended: the one in force now first (directional ones too, marked so)."""

    def __init__(self, uow: PromotionsUnitOfWork, edition: Edition, clock: Clock) -> None:
        self._uow, self._edition, self._clock = uow, edition, clock

    def __call__(self, package_id: int, language: str | None = None) -> PackageActivityDetail:
        now = self._clock.now()
        with self._uow as uow:
            found = uow.promotions.package_option_labels(package_id, reading_languages(language, self._edition))
            if found is None:
                raise NotFound()
            name, options = found
            activities = uow.promotions.activities_linked(frozenset(o.level_year_id for o in options))
        rows = []
        for option in options:
            on_it = []
            for activity in activities:
                offer = next((o for o in activity.options if o.level_year_id == option.level_year_id), None)
                if offer is None or activity.status is not Status.ENABLED or activity.ends_at <= now:
                    continue
                on_it.append(OptionActivity(activity, offer.discount, offer.bonus_months,
                                            activity.starts_at <= now))
            on_it.sort(key=lambda a: (not a.in_force, a.activity.starts_at, a.activity.id))
            rows.append(OptionInForce(option, on_it))
        return PackageActivityDetail(package_id, name, rows)
