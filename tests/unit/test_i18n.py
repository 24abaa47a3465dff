from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from adapters.i18n import LOCALES_DIR, Translator, message_key, resolve_language
from core.shared.edition import LANGUAGES
from core.shared.errors import BUSINESS_ERRORS, DomainError


@pytest.mark.parametrize("header,default,language", [
    ("zh-CN,zh;q=0.9,en;q=0.8", "en-US", "zh-CN"), ("en", "zh-CN", "en-US"), ("de-AT", "zh-CN", "de-DE"),
    ("zh-HK", "en-US", "zh-TW"), ("zh-Hant-TW", "en-US", "zh-TW"), ("zh", "en-US", "zh-CN"),
    ("fr-FR", "zh-CN", "zh-CN"), ("fr-FR", "en-US", "en-US"), ("", "en-US", "en-US"), (None, "zh-CN", "zh-CN"),
    ("fr;q=1, es;q=0.5", "en-US", "es-ES"), ("en;q=0", "zh-CN", "zh-CN"), ("pt-BR", "en-US", "pt-PT"),
    ("ru-RU;q=abc", "en-US", "en-US"),
])
def test_the_language_is_negotiated_from_accept_language(header, default, language):
    assert resolve_language(header, default) == language


def catalogue_ids(path: Path) -> set[str]:
    """Each message's key as the Translator's catalogue holds it (its context first, if any)."""
    with path.open("rb") as handle:
        return {message_key(m.context, m.id) for m in read_po(handle) if m.id}


TEMPLATE = catalogue_ids(LOCALES_DIR / "messages.pot")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_translates_every_message(language):
    translated = Translator().catalogue(language)
    assert TEMPLATE - set(translated) == set()


def test_the_template_holds_every_error_message_of_the_core():
    classes = [*BUSINESS_ERRORS, *DomainError.__subclasses__()]
    assert {c.message for c in classes} <= TEMPLATE


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_survive_translation(language):
    translator = Translator()
    for msgid in TEMPLATE:
        assert translator.translate(msgid, language, min=1, max=2, choices="a", minutes=3, seconds=4, code="5",
                                    equal=6, field="f", expired=7, expiring=8,
                                    level=1, device="d", value="9", limit="8", time="t", months=2, years=3,
                                    count=5, account="a", addresses="b", guid="g", date="2026-01-01", unit="u",
                                    shown=1, total=2, orderCode="o", amount="1.00", currency="CNY", inviter="i",
                                    organization="o", name="n", start="s", end="e", zone="z", url="u", file="x.csv",
                                    format="CSV", reason="r", type="t", package="p", asset="a", left="1.00 CNY",
                                    note="n", fence="f", camp=1, days=7, certificate="c", number="n", service="s",
                                        reference="r", page=1, pages=2, version=1, temperature="22.5", humidity="45",
                                        k=2, seq=1, operation=2, at="t", links=3, hours=1, until="u")


def test_a_message_with_a_context_keeps_its_own_translation_apart_from_the_same_words_without_one():
    translator = Translator()
    assert translator.translate("Account", "ru-RU") == "Учётная запись"
    assert translator.pgettext("operation log field", "Account", "ru-RU") == "Аккаунт"
    assert translator.pgettext("operation log field", "Nothing such", "ru-RU") == "Nothing such"


def test_formatted_library_messages_are_translated_with_their_values():
    translator = Translator()
    assert translator.translate_text("Longer than maximum length 50.", "zh-CN") != "Longer than maximum length 50."
    assert "50" in translator.translate_text("Longer than maximum length 50.", "de-DE")
    assert translator.translate_text("Something unforeseen.", "zh-CN") == "Something unforeseen."


def test_no_compiled_catalogues_are_needed():
    assert not list(LOCALES_DIR.rglob("*.mo"))


# Messages a catalogue may leave as they are: identifiers no language translates, and words a
# language uses as English does. Anything else equal to its msgid is English a user would read.
SAME_IN_EVERY_LANGUAGE = {"GUID", "Alipay", "Google Pay", "PayPal", "WeChat Pay", "SMS"}  # brands, SMS
MAP_SYMBOLS = {"N", "{value} km", "{value} m"}  # the route map's north and scale: as English writes them
SAME_IN = {
    # German writes these as English does (MKT: the abbreviation of mean kinetic temperature)
    "de_DE": {"Operator", "Alarm", "MKT", "Maximum", "Minimum", "Offline", "Online", "Status", "Name", "Details",
              "Export", "Format", "Layout", "Version", *MAP_SYMBOLS},
    "es_ES": {"No", "Total", *MAP_SYMBOLS},  # the Spanish answer and sum are the same words
    "pt_PT": {"Offline", "Online", "Total", *MAP_SYMBOLS},  # as the web catalogues' allow-list says
}


def catalogue_messages(language: str):
    path = LOCALES_DIR / language.replace("-", "_") / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        return [m for m in read_po(handle) if m.id]


def pairs(message) -> list[tuple[str, str]]:
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return [(ids[min(i, len(ids) - 1)], s) for i, s in enumerate(strings)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_has_an_empty_or_fuzzy_translation(language):
    unfinished = [m.id for m in catalogue_messages(language)
                  if m.fuzzy or any(not string for _, string in pairs(m))]
    assert unfinished == []


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en-US"])
def test_no_catalogue_leaves_english_behind(language):
    allowed = SAME_IN_EVERY_LANGUAGE | SAME_IN.get(language.replace("-", "_"), set())
    untranslated = [m.id for m in catalogue_messages(language)
                    if any(string == msgid and msgid not in allowed for msgid, string in pairs(m))]
    assert untranslated == []
