"""Finished exports on the local disk, under EXPORT_DIR, each named by its unguessable id."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import IO

# What stored_name makes: the id (URL-safe base64) and the format. Nothing else is ever opened,
# so no name can lead out of the directory.
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}\.(csv|xlsx|pdf)$")


class LocalExportFiles:
    def __init__(self, directory: Path) -> None:
        self._dir = Path(directory)

    def _checked(self, name: str) -> Path:
        if not _NAME.match(name):
            raise ValueError(f"not an export's file name: {name!r}")
        return self._dir / name

    def create(self, name: str) -> IO[bytes]:
        self._checked(name)
        self._dir.mkdir(parents=True, exist_ok=True)
        # Written beside its final place and renamed when whole: a reader never sees half a file,
        # and a retry after a crash starts a new one.
        return tempfile.NamedTemporaryFile(dir=self._dir, prefix=".partial-", suffix=f"-{name}", delete=False)

    def publish(self, handle: IO[bytes], name: str) -> int:
        handle.flush()
        os.fsync(handle.fileno())
        handle.close()
        target = self._checked(name)
        os.replace(handle.name, target)
        return target.stat().st_size

    def discard(self, handle: IO[bytes]) -> None:
        handle.close()
        Path(handle.name).unlink(missing_ok=True)

    def path(self, name: str) -> str | None:
        target = self._checked(name)
        return str(target) if target.is_file() else None

    def delete(self, name: str) -> None:
        self._checked(name).unlink(missing_ok=True)

    def digest(self, name: str) -> str:
        sha = hashlib.sha256()
        with open(self._checked(name), "rb") as handle:
            for block in iter(lambda: handle.read(1 << 16), b""):
                sha.update(block)
        return sha.hexdigest()
