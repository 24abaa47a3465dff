from __future__ import annotations

from core.platform.model import CustomPage, DictItem, Notice, candidate_domains
from core.platform.ports import PlatformUnitOfWork
from core.shared.clock import Clock
from core.shared.paging import Page, PageRequest


class FindCustomPage:
    """The platform of the longest registered domain that the host falls under."""

    def __init__(self, uow: PlatformUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, host: str) -> CustomPage | None:
        domains = candidate_domains(host)
        if not domains:
            return None
        with self._uow as uow:
            pages = {page.top_domain: page for page in uow.custom_pages.by_top_domains(domains)}
        return next((pages[d] for d in domains if d in pages), None)


class FindNotice:
    def __init__(self, uow: PlatformUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, camp: int, platform: int, notice_type: int) -> Notice | None:
        with self._uow as uow:
            return uow.notices.latest_in_force(camp, platform, notice_type, self._clock.now())


class ListNotices:
    SORTABLE = ("publishedAt", "noticeId")

    def __init__(self, uow: PlatformUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, request: PageRequest, notice_type: int | None = None) -> Page[Notice]:
        with self._uow as uow:
            return uow.notices.page(request, notice_type)


class ListDictionary:
    def __init__(self, uow: PlatformUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, data_type: str) -> list[DictItem]:
        with self._uow as uow:
            return uow.dictionary.items(data_type)
