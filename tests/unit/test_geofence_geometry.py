"""Worked points against circles and polygons (core/geofences/geometry.py and model.py)."""

import math

import pytest

from core.geofences.geometry import haversine_m, is_simple
from core.geofences.model import (
    LATITUDE,
    RADIUS_RANGE,
    SELF_CROSSING,
    TOO_WIDE,
    VERTEX_COUNT,
    Circle,
    Polygon,
    area_problem,
    areas_problem,
    margin_m,
    name_problem,
)

# A square about 1.11 km a side (0.01 degree of latitude) at the Shanghai depot's latitude.
SQUARE = ((31.0, 121.0), (31.0, 121.01), (31.01, 121.01), (31.01, 121.0))


def test_one_hundredth_of_a_degree_of_latitude_is_about_1112_metres():
    assert haversine_m((31.23, 121.47), (31.24, 121.47)) == pytest.approx(1111.95, abs=0.1)


def test_a_degree_of_longitude_shrinks_with_the_cosine_of_the_latitude():
    at_60 = haversine_m((60.0, 10.0), (60.0, 11.0))
    assert at_60 == pytest.approx(haversine_m((0.0, 10.0), (0.0, 11.0)) * math.cos(math.radians(60)), rel=1e-3)


def test_a_point_500_m_from_the_centre_of_a_circle_of_1_km_is_500_m_inside():
    depot = Circle(31.23, 121.47, 1000)
    north_500 = 31.23 + 500 / 111195
    assert depot.margin_m(north_500, 121.47) == pytest.approx(500, abs=1)
    assert depot.margin_m(31.23 + 1500 / 111195, 121.47) == pytest.approx(-500, abs=1)


def test_the_centre_of_the_square_is_its_half_width_inside_and_a_point_beyond_its_edge_outside():
    square = Polygon(SQUARE)
    # the east-west half is the shorter: 0.005 deg of longitude x cos(31 deg) x 111.2 km
    assert square.margin_m(31.005, 121.005) == pytest.approx(476.6, abs=1)
    assert square.margin_m(31.02, 121.005) == pytest.approx(-1112, abs=2)  # 0.01 deg north of the north edge


def test_a_concave_polygon_leaves_its_notch_outside():
    # a U: the notch between its arms is outside, although inside its bounding box
    u_shape = Polygon(((0.0, 0.0), (0.0, 0.03), (0.03, 0.03), (0.03, 0.02), (0.01, 0.02), (0.01, 0.01),
                       (0.03, 0.01), (0.03, 0.0)))
    assert u_shape.margin_m(0.02, 0.015) < 0
    assert u_shape.margin_m(0.02, 0.005) > 0 and u_shape.margin_m(0.005, 0.015) > 0


def test_a_fence_across_the_antimeridian_holds_points_on_both_sides():
    strip = Polygon(((-1.0, 179.9), (-1.0, -179.9), (1.0, -179.9), (1.0, 179.9)))
    assert strip.margin_m(0.0, 179.95) > 0 and strip.margin_m(0.0, -179.95) > 0
    assert strip.margin_m(0.0, 179.0) < 0


def test_a_point_is_inside_a_fence_when_inside_any_of_its_areas():
    areas = (Circle(31.0, 121.0, 100), Polygon(SQUARE))
    assert margin_m(areas, 31.005, 121.005) > 0
    assert margin_m(areas, 30.9, 121.0) < 0


@pytest.mark.parametrize("ring, simple", [
    (SQUARE, True),
    (((31.0, 121.0), (31.01, 121.01), (31.0, 121.01), (31.01, 121.0)), False),  # a bow tie
    (((31.0, 121.0), (31.0, 121.01), (31.0, 121.02)), False),  # three points on a line enclose nothing
    (((31.0, 121.0), (31.0, 121.01), (31.0, 121.01), (31.01, 121.0)), False),  # a repeated vertex
    (((0.0, 0.0), (0.0, 0.02), (0.0, 0.01), (0.01, 0.01)), False),  # an edge folding back on its neighbour
    (((0.0, 0.0), (0.0, 0.02), (0.02, 0.02), (0.02, 0.0), (0.01, 0.02)), False),  # a vertex on another edge
])
def test_a_polygon_must_not_cross_or_touch_itself(ring, simple):
    assert is_simple(ring) is simple


@pytest.mark.parametrize("area, problem", [
    (Circle(31.0, 121.0, 0), RADIUS_RANGE),
    (Circle(31.0, 121.0, -5), RADIUS_RANGE),
    (Circle(31.0, 121.0, 1e308), RADIUS_RANGE),
    (Circle(31.0, 121.0, float("nan")), RADIUS_RANGE),
    (Circle(float("nan"), 121.0, 10), LATITUDE),
    (Circle(91.0, 121.0, 10), LATITUDE),
    (Polygon(SQUARE[:2]), VERTEX_COUNT),
    (Polygon(tuple((31.0 + 0.001 * math.sin(i / 101 * 6.28), 121.0 + 0.001 * math.cos(i / 101 * 6.28))
                   for i in range(101))), VERTEX_COUNT),
    (Polygon(((31.0, 121.0), (31.01, 121.01), (31.0, 121.01), (31.01, 121.0))), SELF_CROSSING),
    (Polygon(((0.0, 0.0), (0.0, 2.0), (2.0, 2.0))), TOO_WIDE),
])
def test_hostile_areas_are_refused(area, problem):
    assert area_problem(area)[0] == problem


def test_a_fence_has_one_to_ten_areas_and_a_name_of_at_most_20_characters():
    circle = Circle(31.0, 121.0, 100)
    assert areas_problem(()) is not None and areas_problem((circle,) * 11) is not None
    assert areas_problem((circle,) * 10) is None
    assert name_problem("Depot") is None and name_problem("x" * 21) is not None and name_problem("") is not None
    assert name_problem("bad \ud800") is not None
