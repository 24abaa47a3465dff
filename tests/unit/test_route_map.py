"""The route map's arithmetic (adapters/exports/map_projection.py): Web Mercator against the tile
servers' published formula, a fit that keeps every point in the frame with the same scale across
and up, the degenerate trips (one point, one place), the scale bar, the edge labels and the tiles
a frame takes; and the drawing's own cases (no position, a single one)."""

from __future__ import annotations

import math

import pytest
from reportlab.graphics.shapes import Drawing, String

from adapters.exports import map_projection as mp
from adapters.exports.route_map import route_drawing
from core.exports.ports import MapFence, MapTrack, RouteMap
from core.geofences.model import Circle

SHANGHAI = (31.23, 121.47)
METRES_PER_DEGREE_LAT = 111_320.0  # near enough along a meridian for a 1 % check


def osm_tile(lat: float, lon: float, zoom: int) -> tuple[int, int]:
    """The tile holding a place, by the OpenStreetMap wiki's formula (not map_projection's)."""
    n = 2 ** zoom
    phi = math.radians(lat)
    return int((lon + 180) / 360 * n), int((1 - math.asinh(math.tan(phi)) / math.pi) / 2 * n)


@pytest.mark.parametrize("lat,lon", [(0, 0), SHANGHAI, (-33.87, 151.21), (64.15, -21.94), (85.0, 179.9)])
def test_mercator_agrees_with_the_tile_servers_and_inverts(lat, lon):
    x, y = mp.mercator(lat, lon)
    for zoom in (1, 7, 15):
        assert (math.floor(x * 2 ** zoom), math.floor(y * 2 ** zoom)) == osm_tile(lat, lon, zoom)
    assert (mp.latitude_of(y), mp.longitude_of(x)) == pytest.approx((lat, lon), abs=1e-9)


def test_the_corners_of_the_world():
    assert mp.mercator(0, 0) == pytest.approx((0.5, 0.5))
    assert mp.mercator(mp.MAX_LATITUDE, -180)[0] == pytest.approx(0) and mp.mercator(89.9, 0)[1] == pytest.approx(0)
    assert mp.mercator(-mp.MAX_LATITUDE, 180) == pytest.approx((1, 1))


def frame_distance(viewport: mp.Viewport, a: tuple[float, float], b: tuple[float, float]) -> float:
    (ax, ay), (bx, by) = viewport.to_frame(*a), viewport.to_frame(*b)
    return math.hypot(ax - bx, ay - by)


@pytest.mark.parametrize("width,height", [(500, 300), (300, 500), (400, 400)])
def test_a_fit_keeps_every_point_inside_with_its_padding_centred_and_the_ground_s_proportions(width, height):
    lat0, lon0 = 60.0, 10.0  # far north, where an unscaled lat/lon plot would be twice too wide
    km_north = (lat0 + 1000 / METRES_PER_DEGREE_LAT, lon0)
    km_east = (lat0, lon0 + 1000 / (METRES_PER_DEGREE_LAT * math.cos(math.radians(lat0))))
    points = [(lat0, lon0), km_north, km_east, (lat0 + 0.05, lon0 + 0.2)]
    viewport = mp.fit(points, width, height, padding=0.1)
    placed = [viewport.to_frame(*p) for p in points]
    assert all(0 < x < width and 0 < y < height for x, y in placed)
    xs, ys = [x for x, _ in placed], [y for _, y in placed]
    assert (min(xs) + max(xs)) / 2 == pytest.approx(width / 2) and (min(ys) + max(ys)) / 2 == pytest.approx(height / 2)
    # the points' extent fills the frame's tighter side but for the padding: 1 / 1.2 of it
    assert max((max(xs) - min(xs)) / width, (max(ys) - min(ys)) / height) == pytest.approx(1 / 1.2)
    # a kilometre is as long northwards as eastwards, and the scale bar's metres agree with the ground
    north, east = frame_distance(viewport, points[0], km_north), frame_distance(viewport, points[0], km_east)
    assert north == pytest.approx(east, rel=0.01)
    assert 1000 / north == pytest.approx(viewport.metres_per_point(), rel=0.02)
    assert viewport.to_frame(*km_north)[1] > placed[0][1]  # north is up


@pytest.mark.parametrize("points", [[SHANGHAI], [SHANGHAI] * 5], ids=["one point", "one place"])
def test_one_point_or_one_place_shows_the_ground_around_it(points):
    viewport = mp.fit(points, 400, 200, min_span_m=1000)
    assert viewport.to_frame(*SHANGHAI) == pytest.approx((200, 100))
    shown_up = 200 * viewport.metres_per_point()
    assert 1000 <= shown_up < 1300  # the least span, and its padding


def test_a_fit_of_nothing_or_into_nothing_is_refused():
    with pytest.raises(ValueError):
        mp.fit([], 100, 100)
    with pytest.raises(ValueError):
        mp.fit([SHANGHAI], 0, 100)


@pytest.mark.parametrize("value,below,above", [(1, 1, 1), (7.3, 5, 10), (0.034, 0.02, 0.05), (1999, 1000, 2000),
                                               (250, 200, 500)])
def test_round_numbers(value, below, above):
    assert mp.nice_below(value) == pytest.approx(below) and mp.nice_above(value) == pytest.approx(above)


def test_the_scale_bar_is_a_round_distance_of_its_true_length():
    viewport = mp.fit([SHANGHAI, (31.33, 121.52)], 500, 300)
    metres, length = mp.scale_bar(viewport, 125)
    assert metres / 10 ** math.floor(math.log10(metres)) in (1, 2, 5)
    assert 125 / 2.5 <= length <= 125 and metres == pytest.approx(length * viewport.metres_per_point())


def test_edge_labels_are_round_degrees_inside_the_frame():
    viewport = mp.fit([SHANGHAI, (31.33, 121.52)], 500, 300)
    lats, lat_decimals = mp.latitude_ticks(viewport)
    lons, lon_decimals = mp.longitude_ticks(viewport)
    assert 2 <= len(lats) <= 5 and 2 <= len(lons) <= 5 and lat_decimals == lon_decimals == 2
    assert all(0 <= y <= 300 for _, y in lats) and all(0 <= x <= 500 for _, x in lons)
    assert [y for _, y in lats] == sorted(y for _, y in lats)  # southernmost lowest
    step = lats[1][0] - lats[0][0]
    assert all(round(lat / step, 6).is_integer() for lat, _ in lats)


def test_the_tiles_cover_the_frame_in_sixteen_at_most_at_the_sharpest_zoom_that_fits():
    viewport = mp.fit([SHANGHAI, (31.33, 121.52)], 500, 300)
    cover = mp.tile_cover(viewport)
    assert 1 <= cover.count <= 16 and mp.cover(viewport, cover.zoom + 1).count > 16
    left, top, right, bottom = cover.crop(viewport)
    width, height = (cover.last_x - cover.first_x + 1) * 256, (cover.last_y - cover.first_y + 1) * 256
    assert 0 <= left < right <= width and 0 <= top < bottom <= height
    assert (right - left) / (bottom - top) == pytest.approx(500 / 300, rel=0.01)
    assert osm_tile(*SHANGHAI, cover.zoom) in cover.tiles()
    city = mp.tile_cover(mp.fit([SHANGHAI], 500, 300, min_span_m=200))
    assert city.zoom == 18  # as sharp as tiles go, in few tiles


def test_tiles_across_the_antimeridian_are_numbered_round_it():
    cover = mp.TileCover(3, 7, 8, 2, 2)
    assert cover.tiles() == [(7, 2), (0, 2)]


def test_a_circle_fence_s_outline_is_its_radius_away_on_the_ground():
    ring = mp.circle_outline(*SHANGHAI, 500, sides=8)
    viewport = mp.fit(ring, 400, 400)
    centre = viewport.to_frame(*SHANGHAI)
    for lat, lon in ring:
        x, y = viewport.to_frame(lat, lon)
        assert math.hypot(x - centre[0], y - centre[1]) * viewport.metres_per_point() == pytest.approx(500, rel=0.01)


def route(*tracks: list[tuple[float, float]]) -> RouteMap:
    return RouteMap("Route", [MapTrack(f"Logger {i}", t) for i, t in enumerate(tracks)],
                    [MapFence("Origin", [Circle(*SHANGHAI, 300)], True)], "Start", "End", "None recorded",
                    "{value} m", "{value} km", "N")


def strings(node) -> list[str]:
    """The texts of a drawing, depth first."""
    if isinstance(node, String):
        return [node.text]
    return [text for child in getattr(node, "contents", []) for text in strings(child)]


def test_a_map_is_drawn_for_a_single_position_and_not_for_none():
    assert route_drawing(route([], []), 500, 300) is None
    drawing = route_drawing(route([SHANGHAI], []), 500, 300)
    assert isinstance(drawing, Drawing)
    texts = strings(drawing)
    assert {"Logger 0", "Logger 1", "Start", "End", "Origin", "N"} <= set(texts)
    assert any(t.endswith(" m") or t.endswith(" km") for t in texts)  # the scale bar
    assert any(t.startswith("31.") for t in texts) and any(t.startswith("121.") for t in texts)  # the edges


@pytest.mark.parametrize("template,fetched", [
    ("", None), ("https://tiles.example.com/{z}/{x}/{y}.png", "https://tiles.example.com/3/4/5.png"),
    ("/tiles/{z}/{x}/{y}.png", "https://console.example.com/tiles/3/4/5.png")])
def test_the_report_s_tiles_come_from_the_maps_configuration(tmp_path, template, fetched):
    from entrypoints.container import build_container
    from tests.support.fixtures import settings_for_tests

    settings = settings_for_tests(f"sqlite:///{tmp_path}/t.db", tmp_path, MAP_TILE_URL=template,
                                  PUBLIC_BASE_URL="https://console.example.com")
    tiles = build_container(settings).map_tiles()
    assert (tiles.url(3, 4, 5) if tiles else None) == fetched
