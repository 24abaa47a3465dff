"""The route map's arithmetic, apart from drawing it: Web Mercator (the projection of every XYZ
tile server, so a base map lines up with the route, and conformal, so distances look right in
every direction at one place), fitting points into a frame with their aspect kept, the scale bar,
the edge labels and the tiles a frame needs.

World coordinates are Web Mercator's unit square: x from 0 at 180° W eastwards to 1 at 180° E, y
from 0 at the north edge (85.05° N) southwards to 1, as the tiles count them. A frame's point
coordinates are PDF's: from its lower left corner, y upwards.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

EARTH_RADIUS_M = 6_378_137.0  # WGS 84's, which Web Mercator scales by
EQUATOR_M = 2 * math.pi * EARTH_RADIUS_M  # one world unit at the equator
MAX_LATITUDE = 85.0511287798  # where Web Mercator's square ends
TILE_PIXELS = 256


def mercator(lat: float, lon: float) -> tuple[float, float]:
    """(x, y) in world units."""
    phi = math.radians(max(-MAX_LATITUDE, min(MAX_LATITUDE, lat)))
    return (lon + 180.0) / 360.0, 0.5 - math.log(math.tan(math.pi / 4 + phi / 2)) / (2 * math.pi)


def latitude_of(y: float) -> float:
    return math.degrees(2 * math.atan(math.exp((0.5 - y) * 2 * math.pi)) - math.pi / 2)


def longitude_of(x: float) -> float:
    return x * 360.0 - 180.0


def metres_per_unit(lat: float) -> float:
    """How many metres one world unit is at this latitude (Mercator stretches by 1 / cos φ)."""
    return EQUATOR_M * math.cos(math.radians(max(-MAX_LATITUDE, min(MAX_LATITUDE, lat))))


@dataclass(frozen=True)
class Viewport:
    """A frame of `width` x `height` points showing the world from (left, top) at `scale` points
    per world unit, the same across and up: the map's aspect is the world's."""

    left: float
    top: float
    scale: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width / self.scale

    @property
    def bottom(self) -> float:
        return self.top + self.height / self.scale

    def to_frame(self, lat: float, lon: float) -> tuple[float, float]:
        x, y = mercator(lat, lon)
        return (x - self.left) * self.scale, self.height - (y - self.top) * self.scale

    def metres_per_point(self) -> float:
        """At the frame's middle latitude (Mercator's scale changes northwards; over a trip's
        span little)."""
        return metres_per_unit(latitude_of((self.top + self.bottom) / 2)) / self.scale


def fit(points: Iterable[tuple[float, float]], width: float, height: float, padding: float = 0.08,
        min_span_m: float = 1_000.0) -> Viewport:
    """The viewport showing every (lat, lon) point in a frame of width x height points, centred,
    with `padding` (a share of the points' extent) on each side, and at least `min_span_m` across
    and up, so that one point, or many at one place, still show the ground around them. The scale
    is the same across and up; the side with room to spare shows more of the world."""
    projected = [mercator(lat, lon) for lat, lon in points]
    if not projected:
        raise ValueError("nothing to fit")
    if width <= 0 or height <= 0:
        raise ValueError("the frame has no area")
    xs, ys = [x for x, _ in projected], [y for _, y in projected]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    least = min_span_m / metres_per_unit(latitude_of(cy))
    dx = max(max(xs) - min(xs), least) * (1 + 2 * padding)
    dy = max(max(ys) - min(ys), least) * (1 + 2 * padding)
    scale = min(width / dx, height / dy)
    return Viewport(cx - width / scale / 2, cy - height / scale / 2, scale, width, height)


def nice_below(value: float) -> float:
    """The largest 1, 2 or 5 x 10^n not above `value` (> 0)."""
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (5, 2, 1) if step * power <= value * (1 + 1e-9))


def nice_above(value: float) -> float:
    """The smallest 1, 2 or 5 x 10^n not below `value` (> 0)."""
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= value * (1 - 1e-9))


def scale_bar(viewport: Viewport, longest: float) -> tuple[float, float]:
    """(metres, points): a round distance whose bar is at most `longest` points long."""
    metres = nice_below(longest * viewport.metres_per_point())
    return metres, metres / viewport.metres_per_point()


def ticks(low: float, high: float, most: int = 5) -> tuple[list[float], int]:
    """Round values between low and high for an edge's labels, at most `most` of them (at least
    1 when high > low), and the decimals that write them."""
    step = nice_above((high - low) / most)
    first = math.ceil(low / step - 1e-9)
    values = [round(n * step, 10) for n in range(first, math.floor(high / step + 1e-9) + 1)]
    return values, max(0, -math.floor(math.log10(step) + 1e-9))


def latitude_ticks(viewport: Viewport, most: int = 5) -> tuple[list[tuple[float, float]], int]:
    """[(latitude, its height in the frame)] along the left edge, and the decimals to write them."""
    values, decimals = ticks(latitude_of(viewport.bottom), latitude_of(viewport.top), most)
    return [(lat, viewport.to_frame(lat, 0.0)[1]) for lat in values], decimals


def longitude_ticks(viewport: Viewport, most: int = 5) -> tuple[list[tuple[float, float]], int]:
    """[(longitude, its place across the frame)] along the bottom edge, and the decimals."""
    values, decimals = ticks(longitude_of(viewport.left), longitude_of(viewport.right), most)
    return [(lon, viewport.to_frame(0.0, lon)[0]) for lon in values], decimals


@dataclass(frozen=True)
class TileCover:
    """The XYZ tiles under a viewport at `zoom`: columns first_x..last_x (not yet wrapped round the
    antimeridian) and rows first_y..last_y (inside the world)."""

    zoom: int
    first_x: int
    last_x: int
    first_y: int
    last_y: int

    @property
    def count(self) -> int:
        return (self.last_x - self.first_x + 1) * (self.last_y - self.first_y + 1)

    def tiles(self) -> list[tuple[int, int]]:
        """(x, y) of each tile as the server numbers it, row by row."""
        size = 2 ** self.zoom
        return [(x % size, y) for y in range(self.first_y, self.last_y + 1)
                for x in range(self.first_x, self.last_x + 1)]

    def crop(self, viewport: Viewport) -> tuple[int, int, int, int]:
        """The viewport's box (left, top, right, bottom) in the pixels of the tiles laid side by side."""
        size = 2 ** self.zoom * TILE_PIXELS
        return (round(viewport.left * size) - self.first_x * TILE_PIXELS,
                round(viewport.top * size) - self.first_y * TILE_PIXELS,
                round(viewport.right * size) - self.first_x * TILE_PIXELS,
                round(viewport.bottom * size) - self.first_y * TILE_PIXELS)


def cover(viewport: Viewport, zoom: int) -> TileCover:
    size = 2 ** zoom
    return TileCover(zoom, math.floor(viewport.left * size), math.ceil(viewport.right * size) - 1,
                     max(0, math.floor(viewport.top * size)), min(size - 1, math.ceil(viewport.bottom * size) - 1))


def tile_cover(viewport: Viewport, pixels_per_point: float = 2.0, most: int = 16, max_zoom: int = 18) -> TileCover:
    """The tiles to lay under the viewport: the zoom whose pixels are about `pixels_per_point` on
    the page (sharp in print), or a lower one when that would take more than `most` tiles."""
    wanted = math.ceil(math.log2(max(viewport.scale * pixels_per_point / TILE_PIXELS, 1.0)))
    zoom = max(0, min(max_zoom, wanted))
    while zoom > 0 and cover(viewport, zoom).count > most:
        zoom -= 1
    return cover(viewport, zoom)


def circle_outline(lat: float, lon: float, radius_m: float, sides: int = 72) -> Sequence[tuple[float, float]]:
    """A circle on the ground as (lat, lon) points round it: in Mercator, which is conformal, a
    small circle stays a circle of radius r / (metres per unit at its latitude)."""
    x, y = mercator(lat, lon)
    r = radius_m / metres_per_unit(lat)
    return [(latitude_of(y + r * math.sin(a)), longitude_of(x + r * math.cos(a)))
            for a in (2 * math.pi * i / sides for i in range(sides))]
