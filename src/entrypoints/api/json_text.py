"""The application's JSON, which a field may write itself: a chart's 2,000 readings written as
text cost under half of what the standard encoder takes for them as dicts (ReadingList). Such a field
answers RawJSON, and the provider puts its text in the response where the encoder would have
written the value, byte for byte the same.
"""

from __future__ import annotations

import json
import math
import secrets
from typing import Any

from entrypoints.api.input_guard import GuardedJSONProvider

_COMPACT = (",", ":")
# What the encoder writes in place of a RawJSON before its text replaces it: no value can hold it.
_MARK = f"raw-json-{secrets.token_hex(16)}-"


class RawJSON:
    """JSON text, written compact (no spaces), as the encoder writes compact JSON."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def json_number(value: float | None) -> str:
    """A probe's value as the encoder writes it: null, a float's repr, NaN or Infinity."""
    if value is None:
        return "null"
    if type(value) is float and math.isfinite(value):
        return repr(value)
    return json.dumps(value)


class FloatTexts(dict[float, str]):
    """Floats as the encoder writes them, each distinct value written once: a chart's thousands of
    readings repeat a few hundred values. Index it with floats only (an int equals its float and
    is written without the point); zero is never kept, as 0.0 and -0.0 are one key but two texts."""

    def __missing__(self, value: float) -> str:
        text = json_number(value)
        if value and math.isfinite(value):
            self[value] = text
        return text


class JSONProvider(GuardedJSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        fragments: list[str] = []
        default = kwargs.pop("default", self.default)
        # Indented or spaced out (debug), the text is read back and encoded like any value.
        as_written = kwargs.get("indent") is None and kwargs.get("separators") == _COMPACT

        def encoded(value: Any) -> Any:
            if not isinstance(value, RawJSON):
                return default(value)
            if not as_written:
                return json.loads(value.text)
            fragments.append(value.text)
            return f"{_MARK}{len(fragments) - 1}"

        text = super().dumps(obj, default=encoded, **kwargs)
        for index, fragment in enumerate(fragments):
            text = text.replace(f'"{_MARK}{index}"', fragment, 1)
        return text
