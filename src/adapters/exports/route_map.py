"""A report's route map as reportlab vector graphics: each device's route in its series colour with
its start and end marked, the trip's origin and destination fences under them, latitude and
longitude along the edges, a scale bar and a north arrow; over a base map of XYZ tiles when a tile
server is configured, on a plain ground otherwise. The arithmetic is map_projection's."""

from __future__ import annotations

import logging
from io import BytesIO
from typing import Any, Literal

from PIL import Image as PilImage
from reportlab.graphics.shapes import Circle, Drawing, Group, Image, Line, Polygon, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from adapters.exports import map_projection as mp
from adapters.exports.typeset import SERIES, font_for
from core.exports.ports import MapFence, MapTiles, RouteMap
from core.geofences.model import Circle as FenceCircle

log = logging.getLogger(__name__)

LABEL_SIZE = 6.5
LEFT, BOTTOM, TOP, RIGHT = 13 * mm, 5 * mm, 2 * mm, 2 * mm  # room for the edges' labels
LEGEND_ROW = 5 * mm
GROUND = colors.HexColor("#f3f5f7")
EDGE = colors.HexColor("#888888")
FENCE_COLOURS = {True: colors.HexColor("#2e7d32"), False: colors.HexColor("#c62828")}  # origin, destination


def _outline(fence: MapFence) -> list[list[tuple[float, float]]]:
    """Each area of the fence as a ring of (lat, lon)."""
    return [list(mp.circle_outline(a.lat, a.lon, a.radius_m)) if isinstance(a, FenceCircle) else list(a.vertices)
            for a in fence.areas]


def _flat(points: list[tuple[float, float]]) -> list[float]:
    return [c for point in points for c in point]


def _base_map(tiles: MapTiles, viewport: mp.Viewport) -> PilImage.Image | None:
    """The tiles under the viewport laid side by side and cut to it; None (logged) when the tile
    server fails in any way: the map is then drawn without them, never not drawn."""
    cover = mp.tile_cover(viewport)
    try:
        found = tiles.fetch(cover.zoom, cover.tiles())
        size, wrap = mp.TILE_PIXELS, 2 ** cover.zoom
        mosaic = PilImage.new("RGB", ((cover.last_x - cover.first_x + 1) * size,
                                      (cover.last_y - cover.first_y + 1) * size), "white")
        for y in range(cover.first_y, cover.last_y + 1):
            for x in range(cover.first_x, cover.last_x + 1):
                with PilImage.open(BytesIO(found[(x % wrap, y)])) as tile:
                    mosaic.paste(tile.convert("RGB").resize((size, size)),
                                 ((x - cover.first_x) * size, (y - cover.first_y) * size))
        return mosaic.crop(cover.crop(viewport))
    except Exception:  # noqa: BLE001 - a base map is a nicety: whatever went wrong, the routes are still drawn
        log.warning("the route map is drawn without its base map: the tiles of zoom %s could not be had",
                    cover.zoom, exc_info=True)
        return None


def _rect(x: float, y: float, width: float, height: float, **style: Any) -> Rect:
    rect = Rect(x, y, width, height)
    rect.setProperties(style)  # types-reportlab types Rect's keywords as one value each
    return rect


def _text(x: float, y: float, text: str, size: float = LABEL_SIZE,
          anchor: Literal["start", "middle", "end"] = "start",
          colour: colors.Color = colors.black) -> String:
    return String(x, y, text, fontName=font_for(text), fontSize=size, textAnchor=anchor, fillColor=colour)


def _marker(x: float, y: float, colour: colors.Color, start: bool) -> Group:
    """A start: a ring around a white dot; an end: a filled square."""
    if start:
        return Group(Circle(x, y, 2.8, fillColor=colors.white, strokeColor=colour, strokeWidth=1.4))
    return Group(_rect(x - 2.6, y - 2.6, 5.2, 5.2, fillColor=colour, strokeColor=colors.white, strokeWidth=0.6))


def _scale_bar(viewport: mp.Viewport, route: RouteMap) -> Group:
    metres, length = mp.scale_bar(viewport, viewport.width / 4)
    label = (route.kilometres.format(value=f"{metres / 1000:g}") if metres >= 1000
             else route.metres.format(value=f"{metres:g}"))
    x, y = 4 * mm, 3 * mm
    width = max(length, stringWidth(label, font_for(label), LABEL_SIZE)) + 4
    return Group(_rect(x - 2, y - 2, width, 9 * mm / 2 + 2, fillColor=colors.white, fillOpacity=0.8, strokeWidth=0,
                      strokeColor=None),
                 Line(x, y, x + length, y, strokeColor=colors.black, strokeWidth=1.2),
                 Line(x, y - 1.5, x, y + 1.5, strokeColor=colors.black, strokeWidth=0.8),
                 Line(x + length, y - 1.5, x + length, y + 1.5, strokeColor=colors.black, strokeWidth=0.8),
                 _text(x, y + 3, label))


def _north_arrow(viewport: mp.Viewport, north: str) -> Group:
    x, y = viewport.width - 6 * mm, viewport.height - 12 * mm  # Mercator's north is straight up
    return Group(Polygon([x, y + 8 * mm, x - 2 * mm, y + 2 * mm, x, y + 3 * mm, x + 2 * mm, y + 2 * mm],
                         fillColor=colors.black, strokeColor=colors.white, strokeWidth=0.5),
                 _text(x, y - 1 * mm, north, 8, "middle"))


def _edges(viewport: mp.Viewport) -> Group:
    """Latitudes up the left edge, longitudes along the bottom, with ticks."""
    group = Group()
    lats, lat_decimals = mp.latitude_ticks(viewport)
    for lat, y in lats:
        group.add(Line(-1.5 * mm, y, 0, y, strokeColor=EDGE, strokeWidth=0.5))
        group.add(_text(-2 * mm, y - 2, f"{lat:.{lat_decimals}f}°", anchor="end"))
    lons, lon_decimals = mp.longitude_ticks(viewport)
    for lon, x in lons:
        group.add(Line(x, -1.5 * mm, x, 0, strokeColor=EDGE, strokeWidth=0.5))
        group.add(_text(x, -4 * mm, f"{((lon + 180) % 360) - 180:.{lon_decimals}f}°", anchor="middle"))
    return group


def _legend(route: RouteMap, width: float) -> tuple[Group, float]:
    """Each device's colour, the start and end marks and the fences, in rows wrapped to the width;
    and the rows' height."""
    items: list[tuple[Group, str]] = []
    for index, track in enumerate(route.tracks):
        items.append((Group(Line(0, 2, 8, 2, strokeColor=SERIES[index % len(SERIES)], strokeWidth=2)), track.label))
    items.append((_marker(4, 2, colors.black, start=True), route.start))
    items.append((_marker(4, 2, colors.black, start=False), route.end))
    for fence in route.fences:
        items.append((Group(_rect(0, 0, 8, 4, fillColor=FENCE_COLOURS[fence.origin], fillOpacity=0.25,
                                 strokeColor=FENCE_COLOURS[fence.origin], strokeWidth=0.8)), fence.label))
    legend, x, row = Group(), 0.0, 0
    for symbol, label in items:
        wide = 11 + stringWidth(label, font_for(label), 7) + 6 * mm
        if x > 0 and x + wide > width:
            x, row = 0.0, row + 1
        symbol.translate(x, -row * LEGEND_ROW)
        legend.add(symbol)
        legend.add(_text(x + 11, 0.5 - row * LEGEND_ROW, label, 7))
        x += wide
    height = (row + 1) * LEGEND_ROW
    legend.translate(0, height - LEGEND_ROW + 1)
    return legend, height


def route_drawing(route: RouteMap, width: float, height: float) -> Drawing | None:
    """The map of the routes in width x height points (its legend included); None when no route
    has a point."""
    tracks = [(index, list(track.points)) for index, track in enumerate(route.tracks) if track.points]
    if not tracks:
        return None
    rings = [(fence, ring) for fence in route.fences for ring in _outline(fence)]
    legend, legend_height = _legend(route, width - LEFT)
    frame_w, frame_h = width - LEFT - RIGHT, height - BOTTOM - TOP - legend_height - 2 * mm
    viewport = mp.fit([p for _, points in tracks for p in points] + [p for _, ring in rings for p in ring],
                      frame_w, frame_h)
    drawing = Drawing(width, height)
    legend.translate(LEFT, 0)
    drawing.add(legend)
    frame = Group()
    frame.translate(LEFT, legend_height + 2 * mm + BOTTOM)
    base = _base_map(route.tiles, viewport) if route.tiles is not None else None
    if base is not None:
        frame.add(Image(0, 0, frame_w, frame_h, base))
    else:
        frame.add(_rect(0, 0, frame_w, frame_h, fillColor=GROUND, strokeColor=None, strokeWidth=0))
    for fence, ring in rings:
        colour = FENCE_COLOURS[fence.origin]
        frame.add(Polygon(_flat([viewport.to_frame(lat, lon) for lat, lon in ring]), fillColor=colour,
                          fillOpacity=0.2, strokeColor=colour, strokeWidth=0.8))
    for index, points in tracks:
        colour = SERIES[index % len(SERIES)]
        placed = [viewport.to_frame(lat, lon) for lat, lon in points]
        if len(placed) > 1:
            frame.add(PolyLine(_flat(placed), strokeColor=colour, strokeWidth=1.3, strokeLineJoin=1,
                               strokeLineCap=1))
    for index, points in tracks:  # the marks over every line
        colour = SERIES[index % len(SERIES)]
        frame.add(_marker(*viewport.to_frame(*points[0]), colour, start=True))
        if len(points) > 1:
            frame.add(_marker(*viewport.to_frame(*points[-1]), colour, start=False))
    frame.add(_scale_bar(viewport, route))
    frame.add(_north_arrow(viewport, route.north))
    if base is not None and route.attribution:
        frame.add(_text(frame_w - 1 * mm, 1 * mm, route.attribution, 5.5, "end", colors.HexColor("#333333")))
    frame.add(_rect(0, 0, frame_w, frame_h, fillColor=None, strokeColor=EDGE, strokeWidth=0.6))
    frame.add(_edges(viewport))
    drawing.add(frame)
    return drawing
