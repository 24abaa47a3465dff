"""The tiles a user keeps on the home page, in their order (spec seed 001 sections 2 and 9: the
home page's tiles are the user's to choose, and at least 5 are kept)."""

from __future__ import annotations

from collections.abc import Sequence

from core.accounts.ports import AccountsUnitOfWork
from core.shared.clock import Clock
from core.shared.errors import InvalidInput
from core.shared.messages import N_

# The device counts of the home page, then its service-expiry counts.
HOME_TILES = ("total", "online", "offline", "alarm", "disabled", "expired", "notEnabled", "scrapped", "expiring30",
              "expiring90")
DEFAULT_TILES = HOME_TILES[:8]
MIN_TILES = 5
TOO_FEW = N_("Keep at least {count} tiles on the home page")
UNKNOWN = N_("Choose tiles from the listed ones, each once")


def tiles_problem(tiles: Sequence[str]) -> str | None:
    if len(set(tiles)) != len(tiles) or not set(tiles) <= set(HOME_TILES):
        return UNKNOWN
    if len(tiles) < MIN_TILES:
        return TOO_FEW
    return None


class GetHomeTiles:
    def __init__(self, uow: AccountsUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> tuple[str, ...]:
        with self._uow as uow:
            saved = uow.accounts.home_tiles(account_id)
        # A tile retired since it was saved is left out; too few left: the defaults again.
        kept = tuple(tile for tile in saved or () if tile in HOME_TILES)
        return kept if len(kept) >= MIN_TILES else DEFAULT_TILES


class SaveHomeTiles:
    def __init__(self, uow: AccountsUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, tiles: Sequence[str]) -> tuple[str, ...]:
        problem = tiles_problem(tiles)
        if problem:
            raise InvalidInput("tiles", problem, count=MIN_TILES)
        with self._uow as uow:
            uow.accounts.save_home_tiles(account_id, tuple(tiles), self._clock.now())
            uow.commit()
        return tuple(tiles)
