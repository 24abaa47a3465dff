"""Ids the database gives: an entity has none (`id` None) until a repository stores it."""

from __future__ import annotations


class NotStoredYet(RuntimeError):
    """A new entity was used where only a stored one can be (a bug, not a refusal)."""


class Stored:
    """Mixed into an entity whose `id` the database assigns. What a repository returns, or has
    just added, is stored: code that holds one asks for `stored_id`, an int, instead of passing
    `id` on as if it could not be None; a new one used by mistake fails there, by name."""

    id: int | None

    @property
    def stored_id(self) -> int:
        if self.id is None:
            raise NotStoredYet(f"this {type(self).__name__} has no id until a repository stores it")
        return self.id
