"""A geofence, its areas and their rules (spec 001 sections 3 and 5: "name required up to 20;
radius required; at most 10 areas"), and the crossings the ingest detects."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.geofences.geometry import circle_margin_m, is_simple, polygon_margin_m
from core.shared.messages import N_
from core.shared.text import has_refused_characters

NAME_MAX = 20
MAX_AREAS = 10  # spec 001 section 9: "10 fence areas"
MIN_VERTICES, MAX_VERTICES = 3, 100
# Not in the spec: a circle wider than a large city is no fence, and geometry.py's plane is exact
# enough only at that scale. A polygon's vertices stay as close to its first one.
MAX_RADIUS_M = 50_000.0
MAX_SPAN_M = 100_000.0
# Not in the spec: enough for a fleet's depots and customers, few enough that the ingest's
# per-reading work stays small (each reading is judged against every fence watching its device).
MAX_FENCES_PER_OWNER = 500
MAX_DEVICES_PER_FENCE = 200
MAX_FENCES_PER_DEVICE = 20

NAME_REQUIRED = N_("Fence name or radius empty")  # spec 001 section 8, word for word
NAME_LENGTH = N_("A fence name is at most 20 characters")
CHARACTERS = N_("Emoji and control characters are not allowed here")
AREAS_REQUIRED = N_("A fence needs at least one area")
AREAS_LIMIT = N_("At most 10 fence areas")
RADIUS_REQUIRED = N_("Fence name or radius empty")
RADIUS_RANGE = N_("The radius is more than 0 and at most {max} metres")
LATITUDE = N_("A latitude is between -90 and 90 degrees")
LONGITUDE = N_("A longitude is between -180 and 180 degrees")
VERTEX_COUNT = N_("A polygon has 3 to 100 points")
SELF_CROSSING = N_("The polygon's edges cross or touch each other")
TOO_WIDE = N_("An area spans at most {max} km")
READ_ONLY_FENCE = N_("You may only read this fence: its organization's administrators change it")
NOT_YOUR_ORGANIZATION = N_("You may not make fences in this organization")
ORGANIZATION_DEVICE = N_("An organization's device is watched only by a fence of the same organization")
PERSONAL_DEVICE = N_("A device in no organization is watched only by a personal fence")
FENCE_LIMIT = N_("You hold the most fences there may be ({max}); delete one first")
DEVICE_LIMIT = N_("A fence watches at most {max} devices")
FENCES_OF_DEVICE_LIMIT = N_("The device {device} is already watched by {max} fences")

# The system messages of a crossing (adapters/notifications/templates.py holds their texts).
FENCE_ENTERED = "fence_entered"  # params: device, guid, fence, time
FENCE_LEFT = "fence_left"


@dataclass(frozen=True)
class Circle:
    lat: float
    lon: float
    radius_m: float

    def margin_m(self, lat: float, lon: float) -> float:
        return circle_margin_m((self.lat, self.lon), self.radius_m, (lat, lon))


@dataclass(frozen=True)
class Polygon:
    vertices: tuple[tuple[float, float], ...]  # (lat, lon), the ring closes by itself

    def margin_m(self, lat: float, lon: float) -> float:
        return polygon_margin_m(self.vertices, (lat, lon))


Area = Circle | Polygon


def margin_m(areas: Sequence[Area], lat: float, lon: float) -> float:
    """How far inside the fence (the union of its areas) the point is, in metres; negative: how
    far outside. Inside an area, the distance to that area's edge (the deepest one); outside all,
    the distance to the nearest. Where areas overlap the union's edge may be further away: the
    margin then understates, which only makes a vague fix count as undecided a little sooner."""
    margins = [area.margin_m(lat, lon) for area in areas]
    return max(margins)


def _finite(value: float, low: float, high: float) -> bool:
    return math.isfinite(value) and low <= value <= high


def _point_problem(lat: float, lon: float) -> str | None:
    if not _finite(lat, -90.0, 90.0):
        return LATITUDE
    if not _finite(lon, -180.0, 180.0):
        return LONGITUDE
    return None


def area_problem(area: Area) -> tuple[str, dict[str, Any]] | None:
    """What is wrong with an area (the message and its parameters), None when nothing is."""
    if isinstance(area, Circle):
        if problem := _point_problem(area.lat, area.lon):
            return problem, {}
        if not math.isfinite(area.radius_m) or not 0 < area.radius_m <= MAX_RADIUS_M:
            return RADIUS_RANGE, {"max": int(MAX_RADIUS_M)}
        return None
    if not MIN_VERTICES <= len(area.vertices) <= MAX_VERTICES:
        return VERTEX_COUNT, {}
    for lat, lon in area.vertices:
        if problem := _point_problem(lat, lon):
            return problem, {}
    first = area.vertices[0]
    if any(-Circle(first[0], first[1], MAX_SPAN_M).margin_m(lat, lon) > 0 for lat, lon in area.vertices):
        return TOO_WIDE, {"max": int(MAX_SPAN_M / 1000)}
    return None if is_simple(area.vertices) else (SELF_CROSSING, {})


def name_problem(name: str) -> str | None:
    """What is wrong with a (trimmed) fence name, None when nothing is."""
    if not name:
        return NAME_REQUIRED
    if len(name) > NAME_MAX:
        return NAME_LENGTH
    return CHARACTERS if has_refused_characters(name, symbols=True) else None


def areas_problem(areas: Sequence[Area]) -> tuple[str, dict[str, Any]] | None:
    if not areas:
        return AREAS_REQUIRED, {}
    if len(areas) > MAX_AREAS:
        return AREAS_LIMIT, {}
    for area in areas:
        if problem := area_problem(area):
            return problem
    return None


@dataclass
class Fence:
    id: int | None
    owner_account_id: int  # its maker; the owner itself when no organization's
    name: str
    areas: tuple[Area, ...]
    created_at: datetime
    organization_id: int | None = None  # None: its owner account's own
    organization_name: str | None = None  # (read, not stored)
    device_ids: tuple[int, ...] = ()  # the devices it watches that the reader sees (read, not stored)
    device_count: int = 0  # all the devices it watches (read, not stored)
    changeable: bool = False  # the reader may change it (core.shared.ownership.may_change; filled when read)


@dataclass(frozen=True)
class WatchedFence:
    """A fence watching a device, as the ingest judges it: its areas and the link's dwell state."""

    fence_id: int
    device_id: int
    owner_account_id: int
    fence_name: str
    device_name: str
    device_guid: str
    areas: tuple[Area, ...]
    state: DwellState


@dataclass(frozen=True)
class DwellState:
    """Where a device is known to be against one fence, and a run of readings on the other side
    that has not lasted long enough to flip it (dwell.py)."""

    inside: bool | None = None  # None: not known yet
    pending_inside: bool | None = None  # the side of the run, None: no run
    pending_since: datetime | None = None  # the run's first reading
    pending_count: int = 0
    judged_at: datetime | None = None  # the latest reading judged (later ones only)


@dataclass(frozen=True)
class Crossing:
    device_id: int
    fence_id: int
    entered: bool
    at: datetime  # the reading's time, never when it arrived


@dataclass(frozen=True)
class FenceEvent:
    id: int
    fence_id: int
    fence_name: str
    device_id: int
    device_name: str
    entered: bool
    at: datetime


@dataclass(frozen=True)
class EventQuery:
    fence_id: int
    device_id: int | None = None
    since: datetime | None = None
    until: datetime | None = None
