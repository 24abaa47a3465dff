"""Where a point is against a fence's areas, in pure Python.

Circles: the haversine great-circle distance to the centre, on a sphere of the mean Earth
radius. Polygons: the vertices are projected onto a plane tangent at the polygon's first vertex
(equirectangular: x = dlon * cos(lat0), y = dlat, in metres), then ray casting says inside or out
and the nearest edge gives the distance to the boundary. At fence scale (a depot, a town: up to
the 100 km an area may span) the projection's error is a few metres in a thousand, well below
GPS accuracy; it is not meant for areas spanning a country, nor near the poles. A longitude
difference is wrapped to [-180, 180), so a fence across the antimeridian still works.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

EARTH_RADIUS_M = 6_371_008.8  # the mean radius (IUGG)
_M_PER_DEG = math.pi * EARTH_RADIUS_M / 180

LatLon = tuple[float, float]


def haversine_m(a: LatLon, b: LatLon) -> float:
    """The great-circle distance between two (lat, lon) points in metres."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def _wrap(delta_lon: float) -> float:
    return (delta_lon + 180.0) % 360.0 - 180.0


@dataclass(frozen=True)
class Plane:
    """The tangent plane at `origin`: (lat, lon) -> (x, y) in metres."""

    origin: LatLon

    def project(self, point: LatLon) -> tuple[float, float]:
        cos_lat = math.cos(math.radians(self.origin[0]))
        return (_wrap(point[1] - self.origin[1]) * cos_lat * _M_PER_DEG, (point[0] - self.origin[0]) * _M_PER_DEG)


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _ray_casting(p: tuple[float, float], ring: Sequence[tuple[float, float]]) -> bool:
    """Whether p is inside the ring (even-odd rule: a horizontal ray to the right crosses it an odd
    number of times)."""
    x, y = p
    inside = False
    j = len(ring) - 1
    for i in range(len(ring)):
        (xi, yi), (xj, yj) = ring[i], ring[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def polygon_margin_m(vertices: Sequence[LatLon], point: LatLon) -> float:
    """The distance in metres from the point to the polygon's boundary: positive inside, negative
    outside."""
    plane = Plane(vertices[0])
    ring = [plane.project(v) for v in vertices]
    p = plane.project(point)
    nearest = min(_segment_distance(p, ring[i - 1], ring[i]) for i in range(len(ring)))
    return nearest if _ray_casting(p, ring) else -nearest


def circle_margin_m(centre: LatLon, radius_m: float, point: LatLon) -> float:
    """The distance in metres from the point to the circle: positive inside, negative outside."""
    return radius_m - haversine_m(centre, point)


def _orientation(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> int:
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    if abs(cross) < 1e-9:  # collinear within a nanometre squared: as good as on the line
        return 0
    return 1 if cross > 0 else -1


def _on_segment(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> bool:
    return min(a[0], b[0]) - 1e-9 <= p[0] <= max(a[0], b[0]) + 1e-9 and \
        min(a[1], b[1]) - 1e-9 <= p[1] <= max(a[1], b[1]) + 1e-9


def _segments_meet(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float],
                   d: tuple[float, float]) -> bool:
    o1, o2, o3, o4 = _orientation(a, b, c), _orientation(a, b, d), _orientation(c, d, a), _orientation(c, d, b)
    if o1 != o2 and o3 != o4:
        return True
    return ((o1 == 0 and _on_segment(a, b, c)) or (o2 == 0 and _on_segment(a, b, d))
            or (o3 == 0 and _on_segment(c, d, a)) or (o4 == 0 and _on_segment(c, d, b)))


def is_simple(vertices: Sequence[LatLon]) -> bool:
    """Whether the closed ring through the vertices neither crosses nor touches itself (two
    edges that are not neighbours never meet; neighbours meet only at their shared vertex) and
    encloses an area. O(n^2) edge pairs: at most 4,950 for the 100 vertices a polygon may have."""
    plane = Plane(vertices[0])
    ring = [plane.project(v) for v in vertices]
    n = len(ring)
    edges = [(ring[i], ring[(i + 1) % n]) for i in range(n)]
    if any(math.hypot(b[0] - a[0], b[1] - a[1]) < 1e-6 for a, b in edges):
        return False  # a repeated vertex: a zero-length edge
    for i in range(n):
        for j in range(i + 1, n):
            adjacent = j == i + 1 or (i == 0 and j == n - 1)
            a, b = edges[i]
            c, d = edges[j]
            if adjacent:
                # neighbours share one vertex; they overlap only when they fold back on each other
                shared, other_i, other_j = (b, a, d) if j == i + 1 else (a, b, c)
                if _orientation(other_i, shared, other_j) == 0 and \
                        (other_j[0] - shared[0]) * (other_i[0] - shared[0]) + \
                        (other_j[1] - shared[1]) * (other_i[1] - shared[1]) > 0:
                    return False
                continue
            if _segments_meet(a, b, c, d):
                return False
    area2 = sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1] for i in range(n))
    return abs(area2) > 1.0  # at least half a square metre: three vertices on a line enclose nothing
