"""Notices per language (issue 16): the notice in force is answered in the request's language,
else in the edition's (zh-CN here), else in the first language written. On SQLite and PostgreSQL
with the demo data."""

from __future__ import annotations

from datetime import timedelta

import pytest

from adapters.persistence.models import NoticeRow
from core.shared.edition import LANGUAGES
from entrypoints.demo_seed import MAINTENANCE_NOTICE
from tests.support.api import ok

pytestmark = pytest.mark.usefixtures("demo")
QUERY = {"noticeCamp": 0, "noticePlatform": 1, "noticeType": 1}


def publish(container, clock, contents: dict[str, str], after: timedelta = timedelta(0)) -> None:
    """A notice of the web pop-up, published `after` from now (newer than the demo's)."""
    with container.session_factory()() as session:
        session.add(NoticeRow(camp=0, platform=1, notice_type=1, contents=contents,
                              published_at=clock.now() + after, created_at=clock.now()))
        session.commit()


def notice_text(api, language: str) -> str:
    api.language = language
    return ok(api.call("POST", "/base/BaseNotice/queryNotice", token=api.token("alice"), json=QUERY))["noticeContent"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_demo_notice_is_read_in_each_language(api, language):
    assert notice_text(api, language) == MAINTENANCE_NOTICE[language]


def test_a_language_not_written_falls_back_to_the_edition_s_then_to_any(api, container, clock):
    publish(container, clock, {"de-DE": "<p>Wartung</p>", "zh-CN": "<p>维护</p>"})
    assert notice_text(api, "de-DE") == "<p>Wartung</p>"
    assert notice_text(api, "ru-RU") == "<p>维护</p>"  # the domestic edition's language
    clock.advance(seconds=1)
    publish(container, clock, {"de-DE": "<p>Wartung</p>", "pt-PT": "<p>Manutenção</p>"})
    assert notice_text(api, "ru-RU") == "<p>Manutenção</p>"  # the first in the order of LANGUAGES


def test_the_latest_notice_in_force_is_chosen_before_its_language(api, container, clock):
    publish(container, clock, {"ru-RU": "<p>Будущее</p>"}, after=timedelta(hours=1))  # not yet in force
    assert notice_text(api, "ru-RU") == MAINTENANCE_NOTICE["ru-RU"]
    clock.advance(hours=1)
    assert notice_text(api, "ru-RU") == "<p>Будущее</p>"
    assert notice_text(api, "en-US") == "<p>Будущее</p>"  # the newest wins even untranslated


def test_the_back_office_list_holds_every_language_and_the_caller_s(api):
    api.language = "de-DE"
    [row] = ok(api.call("POST", "/base/BaseNotice/queryNoticePage", token=api.token("operator"), json={}))["data"]
    assert row["noticeContents"] == MAINTENANCE_NOTICE
    assert row["noticeContent"] == MAINTENANCE_NOTICE["de-DE"]
