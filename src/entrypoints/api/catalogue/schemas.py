from __future__ import annotations

from flask_smorest.fields import Upload
from marshmallow import fields, validate

from adapters.images.account_photos import MAX_PHOTO_BYTES, MAX_SIDE
from core.catalogue.model import (
    CURRENCIES,
    ITEM_LABEL_MAX,
    ITEM_NAME_MAX,
    LEVEL_DESCRIPTION_MAX,
    LEVEL_NAME_MAX,
    MAX_FEE_CENTS,
    MAX_GIFT_COUNT,
    MAX_GIFT_MONTHS,
    MAX_MONTHS,
    MAX_OPTIONS,
    PACKAGE_NAME_MAX,
)
from core.shared.edition import LANGUAGES
from entrypoints.api.framework import LocalDateTime, PageQuery, Schema

Length, Range, OneOf = validate.Length, validate.Range, validate.OneOf
MAX_ID = 2**31 - 1
# Numbers are bounded generously here (the core's rules and messages decide, in the caller's
# language), texts at five times their limit, so a huge value costs nothing.
BIG = 10**12


def _id(description: str, required: bool = True) -> fields.Integer:
    return fields.Integer(required=required, validate=Range(1, MAX_ID), metadata={"description": description})


class TextSchema(Schema):
    name = fields.String(load_default="", validate=Length(max=500))
    description = fields.String(allow_none=True, validate=Length(max=1000))


def _names(what: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(validate=OneOf(LANGUAGES)), values=fields.Nested(TextSchema),
                       required=True, metadata={"description": f"{what} per language ({', '.join(LANGUAGES)}): the "
                                                               "platform's default language is required, a language "
                                                               "left out reads the default's"})


# --- items ---------------------------------------------------------------------------------------


class ItemBody(Schema):
    itemCode = fields.String(required=True, validate=Length(max=200), metadata={
        "description": "capital letters, digits and underscores, 2 to 40, starting with a letter; unique"})
    itemLabel = fields.String(allow_none=True, validate=Length(max=ITEM_LABEL_MAX * 5),
                              metadata={"description": f"up to {ITEM_LABEL_MAX} characters"})
    names = _names(f"name (up to {ITEM_NAME_MAX}) and supplement (description, up to 200)")


class ItemCodeQuery(Schema):
    itemCode = fields.String(required=True, validate=Length(1, 40))


class ItemSortBody(Schema):
    itemCodes = fields.List(fields.String(validate=Length(1, 40)), required=True, validate=Length(max=500),
                            metadata={"description": "every item code, in the new order"})


class ItemSchema(Schema):
    itemCode = fields.String(required=True)
    itemLabel = fields.String(required=True, allow_none=True)
    sort = fields.Integer(required=True)
    itemName = fields.String(required=True, metadata={"description": "in the caller's language, else the default's"})
    names = fields.Dict(required=True)


# --- packages ------------------------------------------------------------------------------------


class PackageBody(Schema):
    packageCode = fields.String(required=True, validate=Length(max=100),
                                metadata={"description": "exactly 8 digits, unique"})
    names = _names(f"name (up to {PACKAGE_NAME_MAX} characters)")
    deviceTypeIds = fields.List(fields.Integer(validate=Range(1, MAX_ID)), load_default=list, validate=Length(max=500),
                                metadata={"description": "the device types it serves"})


class PackageUpdateBody(PackageBody):
    id = _id("the package")


class PackageIdBody(Schema):
    id = _id("the package")


class PackageIdQuery(Schema):
    id = _id("the package")


class PackageQuery(Schema):
    packageId = _id("the package")


class PackagePageQuery(PageQuery):
    packageName = fields.String(validate=Length(1, 50), metadata={"description": "part of a name, any language"})
    packageCode = fields.String(validate=Length(1, 8), metadata={"description": "part of the code"})
    status = fields.Integer(validate=OneOf([0, 1]), metadata={"description": "1 enabled, 0 stopped"})
    deviceTypeId = _id("packages serving this device type", required=False)


class PackageSchema(Schema):
    id = fields.Integer(required=True)
    packageCode = fields.String(required=True)
    packageName = fields.String(required=True, metadata={"description": "in the caller's language, else the default's"})
    names = fields.Dict(required=True)
    status = fields.Integer(required=True, metadata={"description": "1 enabled, 0 stopped"})
    enableTime = LocalDateTime(required=True, allow_none=True, metadata={"description": "when last enabled"})
    gmtCreate = LocalDateTime(required=True)
    deviceTypeIds = fields.List(fields.Integer(), required=True)
    levelCount = fields.Integer(required=True)
    sold = fields.Boolean(required=True, metadata={"description": "an order names one of its levels"})


class PackageDeviceTypeSchema(Schema):
    id = fields.Integer(required=True)
    typeName = fields.String(required=True)
    typeCode = fields.Integer(required=True)
    activePackageId = fields.Integer(required=True, allow_none=True,
                                     metadata={"description": "the enabled package serving it, if any"})


class DeviceTypeRelBody(Schema):
    packageId = _id("the package")
    deviceTypeIds = fields.List(fields.Integer(validate=Range(1, MAX_ID)), required=True, validate=Length(max=500))


# --- levels --------------------------------------------------------------------------------------


class OptionBody(Schema):
    id = _id("an existing duration of the level; left out: a new one", required=False)
    timeLength = fields.Integer(required=True, validate=Range(-BIG, BIG),
                                metadata={"description": f"months, 1 to {MAX_MONTHS} ({MAX_MONTHS}: lifelong)"})
    serviceFee = fields.Integer(required=True, validate=Range(-BIG, BIG),
                                metadata={"description": f"cents, 0 to {MAX_FEE_CENTS}"})
    dataFee = fields.Integer(load_default=0, validate=Range(-BIG, BIG), metadata={"description": "cents"})
    currency = fields.String(required=True, validate=Length(max=3),
                             metadata={"description": f"ISO 4217: {', '.join(CURRENCIES)}"})
    discount = fields.Integer(load_default=100, validate=Range(-BIG, BIG),
                              metadata={"description": "percent charged, 1 to 100 (100: none)"})
    topStatus = fields.Boolean(load_default=False, metadata={"description": "recommended"})


class LevelBody(Schema):
    names = _names(f"name (up to {LEVEL_NAME_MAX}) and description (up to {LEVEL_DESCRIPTION_MAX})")
    itemCodes = fields.List(fields.String(validate=Length(1, 40)), load_default=list, validate=Length(max=100))
    options = fields.List(fields.Nested(OptionBody), required=True, validate=Length(max=MAX_OPTIONS * 4), metadata={
        "description": "the durations in order, each priced in one currency; a duration once sold keeps its row: "
                       "changing its months, fees, currency or discount retires it and adds a new one"})


class LevelInsertBody(LevelBody):
    packageId = _id("the package")


class LevelUpdateBody(LevelBody):
    levelId = _id("the level")


class LevelIdQuery(Schema):
    levelId = _id("the level")


class LevelSortBody(Schema):
    packageId = _id("the package")
    levelIds = fields.List(fields.Integer(validate=Range(1, MAX_ID)), required=True, validate=Length(max=200))


class IconUploadForm(Schema):
    levelId = fields.Integer(required=True, validate=Range(1, MAX_ID))


class IconUploadFiles(Schema):
    file = Upload(required=True, metadata={
        "maxLength": MAX_PHOTO_BYTES,
        "description": f"a JPG or PNG picture of at most {MAX_PHOTO_BYTES >> 20} MB and {MAX_SIDE} pixels a side; "
                       "kept re-encoded as a PNG of at most 512 pixels a side"})


class OptionSchema(Schema):
    id = fields.Integer(required=True)
    timeLength = fields.Integer(required=True)
    serviceFee = fields.Integer(required=True)
    dataFee = fields.Integer(required=True)
    currency = fields.String(required=True)
    discount = fields.Integer(required=True)
    topStatus = fields.Boolean(required=True)
    sold = fields.Boolean(required=True, metadata={
        "description": "an order names it: a change of what it sells makes a new duration"})


class AdminLevelSchema(Schema):
    levelId = fields.Integer(required=True)
    packageId = fields.Integer(required=True)
    levelName = fields.String(required=True)
    names = fields.Dict(required=True)
    levelIcon = fields.String(required=True, allow_none=True)
    sort = fields.Integer(required=True)
    itemCodes = fields.List(fields.String(), required=True)
    options = fields.List(fields.Nested(OptionSchema), required=True)
    inUse = fields.Boolean(required=True, metadata={"description": "sold or held by devices: cannot be deleted"})


# --- gift ----------------------------------------------------------------------------------------


class GiftBody(Schema):
    packageId = _id("the package")
    levelId = _id("one of the package's levels; needed when timeLength is above 0", required=False)
    timeLength = fields.Integer(required=True, validate=Range(-BIG, BIG),
                                metadata={"description": f"free months, 0 to {MAX_GIFT_MONTHS}"})
    smsCount = fields.Integer(load_default=0, validate=Range(-BIG, BIG),
                              metadata={"description": f"0 to {MAX_GIFT_COUNT}"})
    voiceCount = fields.Integer(load_default=0, validate=Range(-BIG, BIG),
                                metadata={"description": f"0 to {MAX_GIFT_COUNT}"})


class GiftSchema(Schema):
    packageId = fields.Integer(required=True)
    levelId = fields.Integer(required=True, allow_none=True)
    timeLength = fields.Integer(required=True)
    smsCount = fields.Integer(required=True)
    voiceCount = fields.Integer(required=True)
    configured = fields.Boolean(required=True, metadata={
        "description": "false: none set, a new device gets two months of the package's free level"})


class PackageDetailSchema(Schema):
    package = fields.Nested(PackageSchema, required=True)
    levels = fields.List(fields.Nested(AdminLevelSchema), required=True)
    gift = fields.Nested(GiftSchema, required=True)
