from __future__ import annotations

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError


class Argon2PasswordHasher:
    """argon2id. The defaults are RFC 9106's low-memory profile (t=3, m=64 MiB, p=4); hashes
    made with weaker settings are upgraded at the next successful login."""

    def __init__(self, time_cost: int = 3, memory_cost_kib: int = 65536, parallelism: int = 4) -> None:
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_cost_kib,
                                      parallelism=parallelism, type=Type.ID)

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, password_hash: str, password: str) -> bool:
        try:
            return self._hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        try:
            return self._hasher.check_needs_rehash(password_hash)
        except InvalidHashError:
            return True
