from __future__ import annotations

from marshmallow import fields, validate

from core.geofences.errors import DeviceFenceLimit, FenceDeviceLimit, FenceLimit
from core.geofences.model import (
    MAX_AREAS,
    MAX_DEVICES_PER_FENCE,
    MAX_FENCES_PER_DEVICE,
    MAX_RADIUS_M,
    MAX_VERTICES,
    NAME_MAX,
    name_problem,
)
from entrypoints.api.devices.schemas import DEVICE_ID, Instant
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema
from entrypoints.api.validators import rule

Length, OneOf, Range = validate.Length, validate.OneOf, validate.Range
MAX_ID = 2**31 - 1
FENCE_ID = fields.Integer(required=True, validate=Range(1, MAX_ID))
CIRCLE, POLYGON = "circle", "polygon"
INSERT_REFUSALS = (FenceLimit,)
BIND_REFUSALS = (FenceDeviceLimit, DeviceFenceLimit)
# The length bounds only keep a hostile body cheap; the core's rules (1 to 10 areas, 3 to 100 points)
# refuse what passes them, with their own messages.
NAME = fields.String(
    required=True, validate=[Length(max=NAME_MAX * 5), rule(lambda v: name_problem(v.strip()))],
    metadata={"description": f"1 to {NAME_MAX} characters once trimmed, no emoji nor control characters"})


class PointSchema(Schema):
    lat = fields.Float(required=True, metadata={"description": "WGS 84 latitude, -90 to 90 degrees"})
    lon = fields.Float(required=True, metadata={"description": "WGS 84 longitude, -180 to 180 degrees"})


class AreaSchema(Schema):
    shape = fields.String(required=True, validate=OneOf([CIRCLE, POLYGON]),
                          metadata={"description": "circle (lat, lon, radius) or polygon (points)"})
    lat = fields.Float(allow_none=True, metadata={"description": "a circle's centre: latitude, degrees"})
    lon = fields.Float(allow_none=True, metadata={"description": "a circle's centre: longitude, degrees"})
    radius = fields.Float(allow_none=True, metadata={
        "description": f"a circle's radius in metres, required: more than 0, at most {int(MAX_RADIUS_M)}"})
    points = fields.List(fields.Nested(PointSchema), validate=Length(max=MAX_VERTICES * 10), metadata={
        "description": f"a polygon's vertices in order (the ring closes by itself): 3 to {MAX_VERTICES}, its edges "
                       "neither crossing nor touching, within 100 km of the first"})


class FenceInputSchema(Schema):
    name = NAME
    areas = fields.List(fields.Nested(AreaSchema), required=True, validate=Length(max=MAX_AREAS * 10), metadata={
        "description": f"1 to {MAX_AREAS} areas; a point inside any of them is inside the fence"})


class FenceInsertSchema(FenceInputSchema):
    organizationId = fields.Integer(allow_none=True, validate=Range(1, MAX_ID), metadata={
        "description": "one of the caller's organizations where it changes devices (its creator or an "
                       "administrator): the fence is the organization's; null or left out: the caller's own. "
                       "Not changed later"})


class FenceUpdateSchema(FenceInputSchema):
    id = FENCE_ID


class FenceIdSchema(Schema):
    id = FENCE_ID


class FencePageQuery(PageQuery):
    sortField = fields.String(validate=OneOf(["name"]), metadata={"description": "by name"})
    keyword = fields.String(validate=Length(1, NAME_MAX * 5), metadata={"description": "part of the name, any case"})


class FenceBindSchema(Schema):
    id = FENCE_ID
    deviceIds = fields.List(DEVICE_ID, required=True, validate=Length(1, MAX_DEVICES_PER_FENCE), metadata={
        "description": f"device ids (a repeated id counts once), each the caller's to change and of the fence's "
                       f"owner's kind (an organization's devices only with its fences, devices in no organization "
                       f"only with personal ones); a fence watches {MAX_DEVICES_PER_FENCE} devices at most, a device "
                       f"is watched by {MAX_FENCES_PER_DEVICE} fences at most"})


class FenceSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    areas = fields.List(fields.Nested(AreaSchema), required=True)
    createdAt = LocalDateTime(required=True)
    deviceCount = fields.Integer(required=True, metadata={"description": "the devices it watches"})
    organizationId = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the organization it belongs to; null: its maker's own"})
    organizationName = fields.String(required=True, allow_none=True)
    changeable = fields.Boolean(required=True, metadata={
        "description": "the caller may change it, link devices to it and delete it (false: a read-only member of "
                       "its organization)"})


class FenceDetailSchema(FenceSchema):
    deviceIds = fields.List(fields.Integer(), required=True, metadata={
        "description": "the devices it watches that the caller sees"})


class FenceDeletedSchema(Schema):
    released = fields.Integer(required=True, metadata={"description": "devices it watched"})


class EventQuery(PageQuery):
    fenceId = FENCE_ID
    deviceId = fields.Integer(validate=Range(1, MAX_ID), metadata={"description": "only this device's"})
    startTime = Instant(metadata={"description": "crossings at or after this time"})
    endTime = Instant(metadata={"description": "crossings at or before this time"})


class FenceEventSchema(Schema):
    id = fields.Integer(required=True)
    fenceId = fields.Integer(required=True)
    fenceName = fields.String(required=True)
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)
    entered = fields.Boolean(required=True, metadata={"description": "true: entered the fence; false: left it"})
    at = LocalDateTime(required=True, metadata={"description": "the time of the reading it was first seen on the new "
                                                               "side (not when the reading arrived)"})
