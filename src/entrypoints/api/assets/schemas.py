from __future__ import annotations

from marshmallow import fields, validate

from core.assets.errors import DeviceInOtherAsset, DeviceInYourAsset, DeviceLimit
from core.assets.model import (
    ATTRIBUTE_KEY_MAX,
    ATTRIBUTE_VALUE_MAX,
    ATTRIBUTES_MAX,
    FIELD_MAX,
    MAX_DEVICES,
    NAME_MAX,
    REMARK_MAX,
    field_problem,
    name_problem,
    refused,
    remark_problem,
)
from core.assets.model import CHARACTERS as _CHARACTERS
from entrypoints.api.devices.schemas import DEVICE_ID
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema
from entrypoints.api.validators import rule

Length, Range = validate.Length, validate.Range
MAX_ID = 2**31 - 1
ASSET_ID = fields.Integer(required=True, validate=Range(1, MAX_ID))
BIND_REFUSALS = (DeviceLimit, DeviceInYourAsset, DeviceInOtherAsset)
# The core's rules on the trimmed values; the length bound first, so a huge value costs nothing.
NAME = fields.String(
    required=True, validate=[Length(max=NAME_MAX * 5), rule(lambda v: name_problem(v.strip()))],
    metadata={"description": f"1 to {NAME_MAX} characters once trimmed, no emoji nor control characters"})


def _short(description: str) -> fields.String:
    return fields.String(allow_none=True,
                         validate=[Length(max=FIELD_MAX * 5), rule(lambda v: field_problem(v.strip()))],
                         metadata={"description": f"{description}: optional, up to {FIELD_MAX} characters once "
                                                  "trimmed; empty or null is none"})


REMARK = fields.String(allow_none=True,
                       validate=[Length(max=REMARK_MAX * 5), rule(lambda v: remark_problem(v.strip()))],
                       metadata={"description": f"optional note up to {REMARK_MAX} characters; empty or null is none"})


class AttributeSchema(Schema):
    key = fields.String(required=True, validate=[
        Length(1, ATTRIBUTE_KEY_MAX * 5), rule(lambda v: _CHARACTERS if refused(v) else None)],
        metadata={"description": f"the attribute's name, 1 to {ATTRIBUTE_KEY_MAX} characters once trimmed, unique "
                                 "in the asset whatever its case"})
    value = fields.String(required=True, validate=[
        Length(max=ATTRIBUTE_VALUE_MAX * 5), rule(lambda v: _CHARACTERS if refused(v) else None)],
        metadata={"description": f"up to {ATTRIBUTE_VALUE_MAX} characters"})


class AssetInputSchema(Schema):
    assetName = NAME
    assetType = _short("what it is (fridge, cold room, truck box)")
    assetNumber = _short("the owner's number for it (searchable)")
    brand = _short("its maker")
    model = _short("its model")
    volume = _short("its volume as written (\"280 L\")")
    customs = fields.List(fields.Nested(AttributeSchema), load_default=list, validate=Length(max=ATTRIBUTES_MAX),
                          metadata={"description": f"custom key/value pairs in order, at most {ATTRIBUTES_MAX}"})
    remark = REMARK


class AssetInsertSchema(AssetInputSchema):
    organizationId = fields.Integer(allow_none=True, validate=Range(1, MAX_ID), metadata={
        "description": "one of the caller's organizations where it changes devices (its creator or an "
                       "administrator): the asset is the organization's; null or left out: the caller's own. "
                       "Not changed later"})


class AssetUpdateSchema(AssetInputSchema):
    id = ASSET_ID


class AssetIdSchema(Schema):
    id = ASSET_ID


class AssetPageQuery(PageQuery):
    sortField = fields.String(validate=validate.OneOf(["assetName"]), metadata={"description": "by name"})
    keyword = fields.String(validate=Length(1, NAME_MAX * 5), metadata={
        "description": "part of the name or of the number, any case"})


class BindSchema(Schema):
    id = ASSET_ID
    deviceIds = fields.List(DEVICE_ID, required=True, validate=Length(1, MAX_DEVICES * 4), metadata={
        "description": f"device ids (a repeated id counts once), each the caller's to change and of the asset's "
                       f"owner's kind (an organization's devices only in its assets, devices in no organization "
                       f"only in personal ones); the asset holds {MAX_DEVICES} at most"})


class BoundDeviceSchema(Schema):
    deviceId = fields.Integer(required=True)
    deviceName = fields.String(required=True)
    deviceGuid = fields.String(required=True)
    deviceTypeName = fields.String(required=True)
    online = fields.Boolean(required=True)
    alarming = fields.Boolean(required=True)
    enabled = fields.Boolean(required=True, metadata={"description": "false while its asset is disabled"})


class AssetSchema(Schema):
    id = fields.Integer(required=True)
    assetName = fields.String(required=True)
    assetType = fields.String(required=True, allow_none=True)
    assetNumber = fields.String(required=True, allow_none=True)
    brand = fields.String(required=True, allow_none=True)
    model = fields.String(required=True, allow_none=True)
    volume = fields.String(required=True, allow_none=True)
    customs = fields.List(fields.Nested(AttributeSchema), required=True)
    remark = fields.String(required=True, allow_none=True)
    enabled = fields.Boolean(required=True, metadata={"description": "false: its devices and their alarm rules are "
                                                                     "off"})
    createdAt = LocalDateTime(required=True)
    deviceCount = fields.Integer(required=True, metadata={"description": f"its devices, {MAX_DEVICES} at most"})
    organizationId = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the organization it belongs to; null: its maker's own"})
    organizationName = fields.String(required=True, allow_none=True)
    changeable = fields.Boolean(required=True, metadata={
        "description": "the caller may change, enable, disable, bind to and delete it (false: a read-only member "
                       "of its organization)"})


class AssetDetailSchema(AssetSchema):
    devices = fields.List(fields.Nested(BoundDeviceSchema), required=True, metadata={
        "description": "its devices the caller sees, by name"})


class AssetDeletedSchema(Schema):
    released = fields.Integer(required=True, metadata={"description": "devices that were in it, now in none"})
