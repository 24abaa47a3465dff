"""Service levels and activities named in the caller's language (Accept-Language), else the
platform's default, wherever one is shown: the rows carry the row's own (default-language) name,
these rename a page's worth of them in one query."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from core.shared.paging import Page
from entrypoints.api import context

T = TypeVar("T")


def level_names(level_ids: Iterable[int | None]) -> dict[int, str]:
    ids = sorted({i for i in level_ids if i})
    return context.container().level_names()(ids, context.language.get()) if ids else {}


def activity_names(activity_ids: Iterable[int | None]) -> dict[int, str]:
    ids = sorted({i for i in activity_ids if i})
    return context.container().activity_names()(ids, context.language.get()) if ids else {}


def named(items: Sequence[T]) -> list[T]:
    """`items` (frozen dataclasses with `level_id` and `level_name`) with their levels renamed."""
    rows: Sequence[Any] = items
    names = level_names(i.level_id for i in rows)
    return [replace(i, level_name=names[i.level_id]) if names.get(i.level_id, i.level_name) != i.level_name else i
            for i in rows]  # copied only when renamed: in the default language the names are the rows' own


def named_page(page: Page[T]) -> Page[T]:
    return replace(page, items=named(page.items))
