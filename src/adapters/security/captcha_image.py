from __future__ import annotations

from captcha.image import ImageCaptcha


class PillowCaptchaRenderer:
    def __init__(self, width: int = 120, height: int = 40) -> None:
        self._captcha = ImageCaptcha(width=width, height=height, font_sizes=(28, 32, 34))

    def render(self, text: str) -> bytes:
        return self._captcha.generate(text, format="png").getvalue()
