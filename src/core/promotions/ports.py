from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Protocol

from core.promotions.model import (
    Activity,
    ActivityDeposit,
    ActivityDraft,
    ActivityFilter,
    ActivityOrder,
    AlertKind,
    AlertPackage,
    AlertPackageDraft,
    AlertSales,
    ImportRow,
    OptionLabel,
    OptionSales,
    Period,
    PriceChange,
    Status,
    TargetAccount,
)
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class PromotionRepository(Protocol):
    def serialize(self, what: str) -> None:
        """From here until the transaction ends, no other transaction writes `what` ("activities" or
        "alertPackages"): the rules that count or compare rows (overlap, 5 a kind) then see every
        committed change. Called first in the transaction."""
        ...

    # --- activities
    def activity_page(self, where: ActivityFilter, request: PageRequest) -> Page[Activity]: ...
    def activity(self, activity_id: int) -> Activity | None: ...

    def activities_on(self, option_ids: frozenset[int]) -> list[Activity]:
        """Every activity linked to one of these year options, after locking the options' rows
        until the transaction ends (two operators enabling at once are checked one after the other)."""
        ...

    def known_options(self, option_ids: frozenset[int]) -> frozenset[int]: ...
    def option_labels(self, option_ids: frozenset[int] | None = None,
                      languages: Sequence[str] = ()) -> list[OptionLabel]:
        """The options with their package's and level's names in the first of `languages` that has
        one (the rows' own names without languages)."""
        ...
    def live_accounts(self, account_ids: frozenset[int]) -> frozenset[int]: ...

    def search_accounts(self, text: str, limit: int) -> list[TargetAccount]:
        """Live customer accounts whose user name, phone or e-mail holds the text, any case."""
        ...

    def add_activity(self, draft: ActivityDraft, status: Status, at: datetime) -> int: ...
    def change_activity(self, activity_id: int, draft: ActivityDraft) -> None: ...
    def set_activity_status(self, activity_id: int, status: Status) -> None: ...
    def delete_activity(self, activity_id: int) -> None: ...

    # --- what was sold at an activity's price
    def deposits(self, request: PageRequest) -> Page[ActivityDeposit]: ...
    def activity_orders(self, activity_id: int, request: PageRequest) -> Page[ActivityOrder]: ...
    def every_activity_order(self, activity_id: int, limit: int) -> Iterator[ActivityOrder]: ...

    def activity_names(self, activity_ids: list[int], languages: Sequence[str]) -> dict[int, str]:
        """Activity id -> its name in the first of `languages` that has one, else its own name."""
        ...

    # --- what was sold over a period, what is in force
    def option_sales(self, period: Period, package_id: int | None) -> list[OptionSales]:
        """Paid service orders whose payment falls in the period, per year option and currency
        summed (labels left None: option_labels names them)."""
        ...

    def alert_sales(self, period: Period, country_code: str | None) -> list[AlertSales]:
        """Paid SMS/voice orders whose payment falls in the period, per country code."""
        ...

    def package_option_labels(self, package_id: int, languages: Sequence[str]) -> tuple[str, list[OptionLabel]] | None:
        """The package's name and its year options still offered (None: no such package)."""
        ...

    def activities_linked(self, option_ids: frozenset[int]) -> list[Activity]:
        """Every activity linked to one of these year options (a read: nothing locked)."""
        ...

    def alert_activity_discount(self, package_id: int) -> int | None: ...

    def alert_price_history(self, package_id: int, limit: int) -> list[PriceChange]:
        """Changes of the package's price terms, newest first, as the operation log holds them."""
        ...

    # --- SMS and voice packages
    def alert_packages(self, country_code: str | None, kind: AlertKind | None) -> list[AlertPackage]: ...
    def alert_package(self, package_id: int) -> AlertPackage | None: ...

    def alert_package_names(self, package_ids: list[int], languages: Sequence[str]) -> dict[int, str]:
        """Package id -> its name in the first of `languages` that has one, else its own name."""
        ...

    def count_alert_packages(self, country_code: str, kind: AlertKind) -> int:
        """How many packages of the kind the country code has (serialize("alertPackages") first)."""
        ...

    def add_alert_package(self, draft: AlertPackageDraft, sort: int) -> int: ...
    def change_alert_package(self, package_id: int, draft: AlertPackageDraft) -> None: ...
    def delete_alert_package(self, package_id: int) -> None: ...
    def sort_alert_packages(self, ordered_ids: list[int]) -> None: ...


class PromotionsUnitOfWork(Transaction, Protocol):
    @property
    def promotions(self) -> PromotionRepository: ...


class PromotionSheets(Protocol):
    def read(self, data: bytes) -> list[ImportRow]:
        """The rows of the first sheet (a header row skipped), or SheetRefused for a file that
        is not such a sheet."""
        ...

    def render(self, headers: list[str], rows: Iterator[list[object]]) -> bytes:
        """An XLSX workbook of one sheet: the headers, then the rows."""
        ...
