"""Account pictures on disk. An upload is trusted for nothing: its first bytes must say JPEG or
PNG whatever its name, its dimensions are read from the header before any pixel is decoded (a
small file can declare a picture of billions of pixels), and what is kept is a fresh PNG
re-encoded from the pixels, so nothing of the upload but its picture is ever served."""

from __future__ import annotations

import io
import re
import secrets
import warnings
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from core.shared.errors import InvalidInput
from core.shared.messages import N_

MAX_PHOTO_BYTES = 1024 * 1024  # the request body limit as well (entrypoints/api/app.py)
MAX_SIDE = 4096
KEPT_SIDE = 512
_SIGNATURES = {b"\xff\xd8\xff": "JPEG", b"\x89PNG\r\n\x1a\n": "PNG"}
_NAME = re.compile(r"^\d+-[0-9a-f]{16}\.png$")

NOT_AN_IMAGE = N_("Upload a JPG or PNG picture")
TOO_LARGE = N_("The picture may be at most {max} MB")
TOO_MANY_PIXELS = N_("The picture may be at most {max} pixels wide and high")


class FilePhotoStore:
    def __init__(self, directory: Path) -> None:
        self._dir = directory

    def store(self, account_id: int, data: bytes) -> str:
        if len(data) > MAX_PHOTO_BYTES:
            raise InvalidInput("file", TOO_LARGE, max=MAX_PHOTO_BYTES >> 20)
        kind = next((k for sig, k in _SIGNATURES.items() if data.startswith(sig)), None)
        if kind is None:
            raise InvalidInput("file", NOT_AN_IMAGE)
        try:
            with warnings.catch_warnings():
                # Pillow warns of (and past twice its limit refuses) a picture of too many pixels
                # when it opens the header; a warning becomes the same refusal.
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                image = Image.open(io.BytesIO(data), formats=[kind])
                if max(image.size) > MAX_SIDE:
                    raise InvalidInput("file", TOO_MANY_PIXELS, max=MAX_SIDE)
                image.load()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
            raise InvalidInput("file", TOO_MANY_PIXELS, max=MAX_SIDE) from error
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
            raise InvalidInput("file", NOT_AN_IMAGE) from error
        pixels = image.convert("RGBA" if "A" in image.getbands() or image.mode == "P" else "RGB")
        pixels.thumbnail((KEPT_SIDE, KEPT_SIDE))
        out = io.BytesIO()
        pixels.save(out, "PNG", optimize=True)
        name = f"{account_id}-{secrets.token_hex(8)}.png"
        self._dir.mkdir(parents=True, exist_ok=True)
        (self._dir / name).write_bytes(out.getvalue())
        return name

    def _path(self, name: str) -> Path | None:
        # Names come from the database, written by store(); checked anyway, so no path escapes.
        return self._dir / name if _NAME.match(name) else None

    def load(self, name: str) -> bytes | None:
        path = self._path(name)
        try:
            return path.read_bytes() if path else None
        except FileNotFoundError:
            return None

    def discard(self, name: str) -> None:
        path = self._path(name)
        if path:
            path.unlink(missing_ok=True)
