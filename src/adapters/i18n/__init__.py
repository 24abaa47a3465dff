"""Message catalogues (Babel .po files under locales/) and the lookup of the caller's language.

Catalogues are read straight from the .po files at start-up, so a fresh clone needs no compile
step. Messages formatted by marshmallow ("Longer than maximum length 50.") are translated by
matching them against the templated message ids of the catalogue.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from string import Formatter

from babel.messages.pofile import read_po

from core.shared.edition import LANGUAGES

LOCALES_DIR = Path(__file__).parent / "locales"
_PREFIX_FALLBACK = {"zh-hk": "zh-TW", "zh-mo": "zh-TW", "zh-hant": "zh-TW", "zh": "zh-CN", "en": "en-US",
                    "es": "es-ES", "ru": "ru-RU", "pt": "pt-PT", "de": "de-DE"}


def message_key(context: str | None, msgid: str) -> str:
    """A message's key in a catalogue: its id, behind its context and gettext's separator (EOT)
    when it has one, so "Device" of a context never takes the place of the plain "Device"."""
    return f"{context}\x04{msgid}" if context else msgid


def resolve_language(accept_language: str | None, default: str) -> str:
    """The best of the seven languages for an Accept-Language header, else the edition's default."""
    if not accept_language:
        return default
    ranked = []
    for position, part in enumerate(accept_language.split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, position, tag.strip().lower()))
    exact = {lang.lower(): lang for lang in LANGUAGES}
    for _, _, tag in sorted(ranked):
        if tag in exact:
            return exact[tag]
        for prefix, language in _PREFIX_FALLBACK.items():
            if tag == prefix or tag.startswith(prefix + "-"):
                return language
    return default


class Translator:
    def __init__(self, locales_dir: Path = LOCALES_DIR) -> None:
        self._catalogues: dict[str, dict[str, str]] = {}
        for language in LANGUAGES:
            path = locales_dir / language.replace("-", "_") / "LC_MESSAGES" / "messages.po"
            entries: dict[str, str] = {}
            if path.exists():
                with path.open("rb") as handle:
                    for message in read_po(handle):
                        msgid, text = message.id, message.string
                        # singular messages only (a plural one holds tuples of ids and of strings)
                        if isinstance(msgid, str) and isinstance(text, str) and msgid and text and not message.fuzzy:
                            entries[message_key(message.context, msgid)] = text
            self._catalogues[language] = entries

    def catalogue(self, language: str) -> dict[str, str]:
        return self._catalogues.get(language, {})

    def translate(self, msgid: str, language: str, **params: object) -> str:
        text = self._catalogues.get(language, {}).get(msgid) or msgid
        if params:
            try:
                return text.format(**params)
            except (KeyError, IndexError, ValueError):
                return msgid.format(**params)
        return text

    def pgettext(self, context: str, msgid: str, language: str) -> str:
        """A message marked with NC_(context, msgid) in `language`, else its id."""
        return self._catalogues.get(language, {}).get(message_key(context, msgid)) or msgid

    @cached_property
    def _templates(self) -> list[tuple[re.Pattern[str], str]]:
        """Regexes for every message id with {placeholders}, from the English catalogue."""
        patterns = []
        for msgid in self._catalogues.get("en-US", {}):
            names = [name for _, name, _, _ in Formatter().parse(msgid) if name]
            if not names:
                continue
            regex = ""
            for literal, name, _, _ in Formatter().parse(msgid):
                regex += re.escape(literal)
                if name:
                    regex += f"(?P<{name}>.+?)" if regex.count(f"(?P<{name}>") == 0 else f"(?P={name})"
            patterns.append((re.compile(f"^{regex}$", re.DOTALL), msgid))
        return patterns

    def translate_text(self, text: str, language: str) -> str:
        """Translate a message that may already have been formatted with its parameters."""
        catalogue = self._catalogues.get(language, {})
        if text in catalogue:
            return catalogue[text]
        for pattern, msgid in self._templates:
            match = pattern.match(text)
            if match and msgid in catalogue:
                return self.translate(msgid, language, **match.groupdict())
        return text
