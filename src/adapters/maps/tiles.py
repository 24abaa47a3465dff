"""XYZ tiles over HTTP from the tile server configured for the console's maps (MAP_TILE_URL, a
template with {z}, {x} and {y}; a site path is the console's own, under PUBLIC_BASE_URL). A report
asks for a few at once (at most `most`, fetched side by side, each within `timeout_s` and all
within `deadline_s`), names itself with a User-Agent as tile servers' policies ask, and takes
image files only, none larger than `max_bytes`. Any failure raises: the caller draws without them."""

from __future__ import annotations

import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from urllib.parse import urljoin

USER_AGENT = "coldchain-console/1.0 (trip report route maps)"


class TilesUnavailable(RuntimeError):
    pass


class HttpTiles:
    def __init__(self, url_template: str, base_url: str = "", user_agent: str = USER_AGENT, timeout_s: float = 3.0,
                 deadline_s: float = 8.0, most: int = 16, max_bytes: int = 1 << 20) -> None:
        self.url_template = urljoin(base_url, url_template) if url_template.startswith("/") else url_template
        self._user_agent, self._timeout_s, self._deadline_s = user_agent, timeout_s, deadline_s
        self._most, self._max_bytes = most, max_bytes

    def url(self, zoom: int, x: int, y: int) -> str:
        # {s}: the subdomain some templates rotate over; one will do
        return (self.url_template.replace("{z}", str(zoom)).replace("{x}", str(x)).replace("{y}", str(y))
                .replace("{s}", "a"))

    def _one(self, zoom: int, x: int, y: int) -> bytes:
        request = urllib.request.Request(self.url(zoom, x, y), headers={"User-Agent": self._user_agent,
                                                                        "Accept": "image/png,image/*"})
        with urllib.request.urlopen(request, timeout=self._timeout_s) as response:
            kind = response.headers.get("Content-Type", "")
            if response.status != 200 or not kind.startswith("image/"):
                raise TilesUnavailable(f"tile {zoom}/{x}/{y}: HTTP {response.status} {kind}")
            body = response.read(self._max_bytes + 1)
        if len(body) > self._max_bytes:
            raise TilesUnavailable(f"tile {zoom}/{x}/{y} is larger than {self._max_bytes} bytes")
        return body

    def fetch(self, zoom: int, tiles: Sequence[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
        wanted = list(dict.fromkeys(tiles))
        if len(wanted) > self._most:
            raise TilesUnavailable(f"{len(wanted)} tiles asked for, at most {self._most} are fetched")
        pool = ThreadPoolExecutor(max_workers=min(4, len(wanted) or 1), thread_name_prefix="map-tiles")
        try:
            futures = {pool.submit(self._one, zoom, x, y): (x, y) for x, y in wanted}
            done, late = wait(futures, timeout=self._deadline_s)
            if late:
                raise TilesUnavailable(f"{len(late)} tiles not fetched within {self._deadline_s} s")
            return {futures[f]: f.result() for f in done}
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
