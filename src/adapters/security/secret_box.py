"""Secrets the console keeps in its database (platforms' merchant keys), encrypted with keys from
the environment: Fernet (AES-128-CBC with HMAC-SHA256), the first key encrypting and every key
decrypting, so a key is rotated by putting the new one first and re-saving."""

from __future__ import annotations

import json
from collections.abc import Sequence

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

SECRET_BOX = "secret_box"  # the key of a session's `info` that holds its SecretBox (make_session_factory)


class SecretBoxError(Exception):
    """A stored secret none of the configured keys opens (a key left out of the rotation)."""


class SecretBox:
    def __init__(self, keys: Sequence[str]) -> None:
        if not keys:
            raise ValueError("a secret box needs at least one key")
        self._fernet = MultiFernet([Fernet(key.encode()) for key in keys])

    def seal(self, secrets: dict[str, str]) -> str:
        return self._fernet.encrypt(json.dumps(secrets, sort_keys=True).encode()).decode()

    def open(self, sealed: str) -> dict[str, str]:
        try:
            opened = json.loads(self._fernet.decrypt(sealed.encode()))
        except InvalidToken as error:
            raise SecretBoxError("a stored secret cannot be decrypted with CONFIG_ENCRYPTION_KEYS") from error
        return {str(k): str(v) for k, v in opened.items()}


def new_key() -> str:
    return Fernet.generate_key().decode()


def valid_key(key: str) -> bool:
    try:
        Fernet(key.encode())
    except (ValueError, TypeError):
        return False
    return True
