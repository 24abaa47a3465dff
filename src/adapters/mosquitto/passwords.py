"""Mosquitto's password hash (the `$7$` format of mosquitto_passwd in Mosquitto 2.x):
PBKDF2-HMAC-SHA512 over a 12-byte random salt, written `$7$<iterations>$<base64 salt>$<base64
hash>` with a 64-byte hash, which the dynamic-security plugin stores as it is (dynsec.py): the
broker's logins are written straight from the device_credentials table."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

# mosquitto_passwd's own default. More rounds would only slow every broker login: the device
# passwords are 144 random bits, which no dictionary reaches, so stretching adds nothing.
ITERATIONS = 101
SALT_BYTES = 12
HASH_BYTES = 64


def _pbkdf2(password: str, salt: bytes, iterations: int, length: int = HASH_BYTES) -> bytes:
    return hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, length)


class MosquittoPasswordHasher:
    def __init__(self, iterations: int = ITERATIONS) -> None:
        self._iterations = iterations

    def hash(self, password: str) -> str:
        salt = os.urandom(SALT_BYTES)
        digest = _pbkdf2(password, salt, self._iterations)
        return f"$7${self._iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"

    @staticmethod
    def verify(password_hash: str, password: str) -> bool:
        try:
            _, version, iterations, salt, digest = password_hash.split("$")
            expected = base64.b64decode(digest, validate=True)
            actual = _pbkdf2(password, base64.b64decode(salt, validate=True), int(iterations), len(expected))
        except ValueError:
            return False
        return version == "7" and hmac.compare_digest(expected, actual)
