"""Geofences (issue 20, /waybill/geofence): areas on the map, 1 to 10 circles and polygons, that
devices are watched against; the ingest records each time a watched device enters or leaves one
(after a dwell that ignores GPS jitter) and tells the fence's owner in the system messages. An
account's own fence is its alone; an organization's is read by its members and changed by those
who change its devices, as its projects and assets are. A sharee of a device sees none of its
owner's fences."""

from __future__ import annotations

from flask.views import MethodView

from core.geofences.model import (
    LATITUDE,
    LONGITUDE,
    RADIUS_REQUIRED,
    Area,
    Circle,
    EventQuery,
    Fence,
    FenceEvent,
    Polygon,
)
from core.geofences.use_cases import FenceInput
from core.shared.errors import InvalidInput
from entrypoints.api import context
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request
from entrypoints.api.geofences import schemas as s

blp = ApiBlueprint("geofences", __name__, description="Geofences: areas devices are watched against")

PERMISSION = "waybill.geofence"
NOT_OWN = ("no such fence, or one the caller does not see: another account's, or an organization's it is not in "
           "(the same answer, so ids cannot be probed)")
READ_ONLY_FENCE = "an organization's fence the caller only reads (a read-only member): nothing changes"
DEVICE_HIDDEN = "or a device the caller may not see (or, to unbind, one the fence does not watch): nothing changes"
READ_ONLY = "the caller may only read one of the devices or the fence, or lacks the permission: nothing changes"


def _area(raw: dict) -> Area:
    if raw["shape"] == s.CIRCLE:
        if raw.get("radius") is None:
            raise InvalidInput("areas", RADIUS_REQUIRED)
        if raw.get("lat") is None:
            raise InvalidInput("areas", LATITUDE)
        if raw.get("lon") is None:
            raise InvalidInput("areas", LONGITUDE)
        return Circle(raw["lat"], raw["lon"], raw["radius"])
    return Polygon(tuple((p["lat"], p["lon"]) for p in raw.get("points") or ()))


def _input(body: dict) -> FenceInput:
    return FenceInput(body["name"], tuple(_area(a) for a in body["areas"]), body.get("organizationId"))


def _area_row(area: Area) -> dict:
    if isinstance(area, Circle):
        return {"shape": s.CIRCLE, "lat": area.lat, "lon": area.lon, "radius": area.radius_m, "points": []}
    return {"shape": s.POLYGON, "lat": None, "lon": None, "radius": None,
            "points": [{"lat": lat, "lon": lon} for lat, lon in area.vertices]}


def _row(f: Fence) -> dict:
    return {"id": f.id, "name": f.name, "areas": [_area_row(a) for a in f.areas], "createdAt": f.created_at,
            "deviceCount": f.device_count, "organizationId": f.organization_id,
            "organizationName": f.organization_name, "changeable": f.changeable}


def _detail(f: Fence) -> dict:
    return {**_row(f), "deviceIds": list(f.device_ids)}


def _event(e: FenceEvent) -> dict:
    return {"id": e.id, "fenceId": e.fence_id, "fenceName": e.fence_name, "deviceId": e.device_id,
            "deviceName": e.device_name, "entered": e.entered, "at": e.at}


@blp.route("/DeviceFence/page")
class FencePageView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.FencePageQuery)
    @blp.ok(page_of(s.FenceSchema))
    def post(self, body):
        """The caller's own fences and those of its organizations by name, found by part of the name."""
        page = context.container().list_fences()(context.caller_id(), body.get("keyword"), page_request(body))
        return page_body(page, _row)


@blp.route("/DeviceFence/get")
class FenceView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.FenceIdSchema, location="query")
    @blp.ok(s.FenceDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def get(self, query):
        """A fence the caller sees, with the devices it watches that the caller sees."""
        return _detail(context.container().get_fence()(context.caller_id(), query["id"]))


@blp.route("/DeviceFence/insert")
class FenceInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.FenceInsertSchema)
    @blp.ok(s.FenceDetailSchema, refusals=s.INSERT_REFUSALS)
    def post(self, body):
        """Make a fence watching no device: the caller's own, or one of an organization where the
        caller changes devices (422 on organizationId otherwise). A name, radius, point or area count
        that breaks its rule is refused with 422 naming it."""
        return _detail(context.container().create_fence()(context.caller_id(), _input(body)))


@blp.route("/DeviceFence/update")
class FenceUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.FenceUpdateSchema)
    @blp.ok(s.FenceDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY_FENCE)
    def put(self, body):
        """Replace a fence's name and areas by the insert's rules; its devices stay watched, each
        judged against the new areas from its next reading."""
        return _detail(context.container().update_fence()(context.caller_id(), body["id"], _input(body)))


@blp.route("/DeviceFence/delete")
class FenceDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.FenceIdSchema, location="query")
    @blp.ok(s.FenceDeletedSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY_FENCE)
    def delete(self, query):
        """Delete a fence with its crossings; its devices are no longer watched against it."""
        return {"released": context.container().delete_fence()(context.caller_id(), query["id"])}


@blp.route("/DeviceFence/bindDevices")
class FenceBindView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.FenceBindSchema)
    @blp.ok(s.FenceDetailSchema, refusals=s.BIND_REFUSALS)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; {DEVICE_HIDDEN}")
    def post(self, body):
        """Watch devices against a fence the caller may change, all or none: each the caller's to
        change and of the fence's owner's kind (422 on deviceIds otherwise). A device newly watched
        starts from an unknown state: the first side it is seen on is where it is, not a crossing."""
        return _detail(context.container().bind_fence_devices()(context.caller_id(), body["id"], body["deviceIds"]))


@blp.route("/DeviceFence/unbindDevices")
class FenceUnbindView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=READ_ONLY)
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.FenceBindSchema)
    @blp.ok(s.FenceDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_OWN}; {DEVICE_HIDDEN}")
    def post(self, body):
        """Stop watching devices against a fence the caller may change, all or none; their crossings
        stay in the fence's events."""
        return _detail(context.container().unbind_fence_devices()(context.caller_id(), body["id"],
                                                                  body["deviceIds"]))


@blp.route("/DeviceFence/events")
class FenceEventsView(MethodView):
    @blp.requires(PERMISSION)
    @blp.arguments(s.EventQuery)
    @blp.ok(page_of(s.FenceEventSchema))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_OWN)
    def post(self, body):
        """A fence's crossings (entered or left, at the reading's time), newest first, of the devices
        the caller sees."""
        query = EventQuery(body["fenceId"], body.get("deviceId"), body.get("startTime"), body.get("endTime"))
        page = context.container().list_fence_events()(context.caller_id(), query, page_request(body))
        return page_body(page, _event)
