"""Reading the image captcha as its user does: the renderer is replaced by one that records the
text it was asked to draw."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from dependency_injector import providers


class RecordingRenderer:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def render(self, text: str) -> bytes:
        self.texts.append(text)
        return b"\x89PNG fake"


@contextmanager
def captcha_reader(api, container) -> Iterator[Callable[[], dict[str, str]]]:
    """Yields a function that fetches a captcha and returns the login fields that answer it."""
    renderer = RecordingRenderer()
    with container.captcha_renderer.override(providers.Object(renderer)):
        def solve() -> dict[str, str]:
            captcha_id = api.client.get("/api/base/BaseAccount/newVerify").headers["X-Captcha-Id"]
            return {"captchaId": captcha_id, "verifyCode": renderer.texts[-1]}

        yield solve
