"""The catalogue operators run (issue 18; spec 001 section 7, /service/package): service items,
packages, their levels and duration options, device types, the free gift. Every call needs the
route permission `order.servicePackage` with its action (query, detail, add, edit, delete, enable,
disable); customers and other operators get 403.

What is sold is never changed. An order line keeps its own snapshot (fee, months, bonus months,
the level's name as the order's description) and names the duration row it bought; a duration row
an order or an auto-renew agreement names is never edited in what it sells: saving a level with
another price, length, currency or discount for it retires the row (no longer offered, still
readable by its orders) and adds a new one, the way payment platforms archive a price and create
another. A stopped package is no longer offered; what it sold stays sold."""

from __future__ import annotations

from flask import Response
from flask.views import MethodView

from core.catalogue import errors as ce
from core.catalogue.model import (
    Gift,
    Item,
    ItemDraft,
    Level,
    LevelDraft,
    LocalText,
    OptionDraft,
    Package,
    PackageDraft,
    PackageFilter,
    PackageStatus,
    Texts,
)
from entrypoints.api import context
from entrypoints.api.catalogue import schemas as s
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request

blp = ApiBlueprint("catalogue", __name__, description=(
    "Service catalogue (back office; permission `order.servicePackage`): items, packages, levels, duration prices "
    "per currency, device types (one enabled package per type), free gift; names per language, customers reading "
    "their own with the platform's default as fallback. What is sold is never changed: an order keeps its own "
    "snapshot (fee, months, bonus months, the level's name) and the id of the duration row it bought; a row an "
    "order or an auto-renew agreement names is immutable in what it sells, so a new price, length, currency or "
    "discount for it retires the row (no longer offered) and adds a new one, as payment platforms archive a price "
    "and create another. A stopped package leaves the customers' cards and quotes at once."))

PERMISSION = "order.servicePackage"
NOT_FOUND = "no such package, level or item"
ICON_URL = "/api/payment/PayServiceLevel/icon?levelId={}"


def _admin():
    return context.container().catalogue_admin()


def _default_language() -> str:
    return context.container().settings().edition.profile.default_language


def _texts_out(texts: Texts, own: LocalText) -> dict:
    out = {lang: {"name": t.name, "description": t.description} for lang, t in texts.items()}
    out.setdefault(_default_language(), {"name": own.name, "description": own.description})
    return out


def _pick(texts: Texts, own: LocalText) -> LocalText:
    return texts.get(context.language.get()) or texts.get(_default_language()) or own


def _texts_in(names: dict) -> dict[str, LocalText]:
    return {lang: LocalText(t.get("name") or "", t.get("description")) for lang, t in names.items()}


def _item_row(i: Item) -> dict:
    return {"itemCode": i.code, "itemLabel": i.label, "sort": i.sort, "itemName": _pick(i.texts, i.own).name,
            "names": _texts_out(i.texts, i.own)}


def _package_row(p: Package) -> dict:
    return {"id": p.id, "packageCode": p.code, "packageName": _pick(p.texts, p.own).name,
            "names": _texts_out(p.texts, p.own), "status": int(p.status), "enableTime": p.enabled_at,
            "gmtCreate": p.created_at, "deviceTypeIds": list(p.device_type_ids), "levelCount": p.level_count,
            "sold": p.sold}


def _level_row(level: Level) -> dict:
    return {"levelId": level.id, "packageId": level.package_id, "levelName": _pick(level.texts, level.own).name,
            "names": _texts_out(level.texts, level.own),
            "levelIcon": ICON_URL.format(level.id) if level.icon else None, "sort": level.sort,
            "itemCodes": list(level.item_codes), "inUse": level.in_use,
            "options": [{"id": o.id, "timeLength": o.months, "serviceFee": o.service_fee_cents,
                         "dataFee": o.data_fee_cents, "currency": o.currency, "discount": o.discount,
                         "topStatus": o.recommended, "sold": o.sold} for o in level.options]}


def _gift_row(package_id: int, gift: Gift | None) -> dict:
    if gift is None:
        return {"packageId": package_id, "levelId": None, "timeLength": 2, "smsCount": 0, "voiceCount": 0,
                "configured": False}
    return {"packageId": package_id, "levelId": gift.level_id, "timeLength": gift.months,
            "smsCount": gift.sms_count, "voiceCount": gift.voice_count, "configured": True}


def _level_draft(body: dict) -> LevelDraft:
    return LevelDraft(_texts_in(body["names"]), tuple(body.get("itemCodes", [])), tuple(
        OptionDraft(o.get("id"), o["timeLength"], o["serviceFee"], o.get("dataFee", 0), o["currency"],
                    o.get("discount", 100), o.get("topStatus", False)) for o in body["options"]))


def _package_draft(body: dict) -> PackageDraft:
    return PackageDraft(body["packageCode"], _texts_in(body["names"]), tuple(body.get("deviceTypeIds", [])))


def _not_found(func):
    return blp.alt_response(404, schema=ErrorEnvelope, description=NOT_FOUND)(func)


# --- items ---------------------------------------------------------------------------------------


@blp.route("/PayServiceItem/selectAllItem")
class ItemListView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.ok(s.ItemSchema, many=True)
    def get(self):
        """Every service item, in catalogue order, with its names per language."""
        return [_item_row(i) for i in _admin().items()]


@blp.route("/PayServiceItem/insert")
class ItemInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.ItemBody)
    @blp.ok(s.ItemSchema)
    def post(self, body):
        """A new item, last in the catalogue (code, label, name and supplement per language)."""
        return _item_row(_admin().save_item(ItemDraft(body["itemCode"], body.get("itemLabel"),
                                                      _texts_in(body["names"])), new=True))


@blp.route("/PayServiceItem/update")
class ItemUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.ItemBody)
    @blp.ok(s.ItemSchema)
    @_not_found
    def put(self, body):
        """The item's label and names (its code names it and does not change)."""
        return _item_row(_admin().save_item(ItemDraft(body["itemCode"], body.get("itemLabel"),
                                                      _texts_in(body["names"])), new=False))


@blp.route("/PayServiceItem/delete")
class ItemDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.ItemCodeQuery, location="query")
    @blp.ok(refusals=(ce.ItemInUse,))
    @_not_found
    def delete(self, query):
        """An item no level includes."""
        _admin().delete_item(query["itemCode"])


@blp.route("/PayServiceItem/sortItem")
class ItemSortView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.ItemSortBody)
    @blp.ok(s.ItemSchema, many=True)
    def post(self, body):
        """Every item code in the new order (422 unless exactly the catalogue's codes)."""
        return [_item_row(i) for i in _admin().sort_items(body["itemCodes"])]


# --- packages ------------------------------------------------------------------------------------


@blp.route("/PayServicePackages/selectPackagesList")
class PackagePageView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.PackagePageQuery)
    @blp.ok(page_of(s.PackageSchema))
    def post(self, body):
        """Packages, newest first, by part of a name (any language) or code, status, device type."""
        status = body.get("status")
        where = PackageFilter(body.get("packageName"), body.get("packageCode"),
                              PackageStatus(status) if status is not None else None, body.get("deviceTypeId"))
        return page_body(_admin().packages(where, page_request(body)), _package_row)


@blp.route("/PayServicePackages/selectPackagesDetail")
class PackageDetailView(MethodView):
    @blp.requires(f"{PERMISSION}:detail")
    @blp.arguments(s.PackageIdQuery, location="query")
    @blp.ok(s.PackageDetailSchema)
    @_not_found
    def get(self, query):
        """A package with its levels (durations, items, names per language) and its free gift."""
        package, levels, gift = _admin().package(query["id"])
        return {"package": _package_row(package), "levels": [_level_row(lv) for lv in levels],
                "gift": _gift_row(package.id, gift)}


@blp.route("/PayServicePackages/insert")
class PackageInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.PackageBody)
    @blp.ok(s.PackageSchema)
    def post(self, body):
        """A new package, stopped: add its levels, then enable it. Code exactly 8 digits and unique
        (422 on packageCode), name up to 20 in the default language at least."""
        return _package_row(_admin().add_package(_package_draft(body)))


@blp.route("/PayServicePackages/update")
class PackageUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.PackageUpdateBody)
    @blp.ok(s.PackageSchema, refusals=(ce.DeviceTypeHasActivePackage, ce.PackageHasNoDeviceTypes))
    @_not_found
    def put(self, body):
        """Code, names and device types. An enabled package keeps at least one device type, and
        no type it takes may have another enabled package."""
        return _package_row(_admin().update_package(body["id"], _package_draft(body), context.language.get()))


@blp.route("/PayServicePackages/enableServicePackage")
class PackageEnableView(MethodView):
    @blp.requires(f"{PERMISSION}:enable")
    @blp.arguments(s.PackageIdBody)
    @blp.ok(s.PackageSchema, refusals=(ce.DeviceTypeHasActivePackage, ce.PackageHasNoDeviceTypes,
                                        ce.PackageHasNoLevels, ce.PackageEnabledTwice))
    @_not_found
    def post(self, body):
        """Offer the package to the devices of its types: one enabled package per device type
        (a second is refused, naming the type and the package to stop first)."""
        return _package_row(_admin().enable(body["id"], context.language.get()))


@blp.route("/PayServicePackages/stopServicePackage")
class PackageStopView(MethodView):
    @blp.requires(f"{PERMISSION}:disable")
    @blp.arguments(s.PackageIdBody)
    @blp.ok(s.PackageSchema, refusals=(ce.PackageStoppedTwice,))
    @_not_found
    def post(self, body):
        """No longer offered (its levels leave the customers' cards and quotes at once); what it
        sold stays sold, and devices keep their service until it ends."""
        return _package_row(_admin().stop(body["id"]))


# --- device types --------------------------------------------------------------------------------


def _type_rows() -> list[dict]:
    admin = _admin()
    active: dict[int, int] = {}
    enabled = admin.packages(PackageFilter(status=PackageStatus.ENABLED), page_request(
        {"start": 1, "pageSize": 1000}))
    for package in enabled.items:
        for type_id in package.device_type_ids:
            active[type_id] = package.id
    return [{"id": t.id, "typeName": t.name, "typeCode": t.code, "activePackageId": active.get(t.id)}
            for t in admin.device_types()]


@blp.route("/PayServiceDeviceTypeRel/selectAllTypeList")
class TypeListView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.ok(s.PackageDeviceTypeSchema, many=True)
    def get(self):
        """Every device type, with the enabled package serving it."""
        return _type_rows()


@blp.route("/PayServiceDeviceTypeRel/selectSelectedTypeList")
class SelectedTypeListView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.PackageQuery, location="query")
    @blp.ok(s.PackageDeviceTypeSchema, many=True)
    @_not_found
    def get(self, query):
        """The device types the package serves."""
        package, _levels, _gift = _admin().package(query["packageId"])
        return [t for t in _type_rows() if t["id"] in package.device_type_ids]


@blp.route("/PayServiceDeviceTypeRel/insert")
class TypeRelView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.DeviceTypeRelBody)
    @blp.ok(s.PackageSchema, refusals=(ce.DeviceTypeHasActivePackage, ce.PackageHasNoDeviceTypes))
    @_not_found
    def post(self, body):
        """Set the device types the package serves (replacing the previous set)."""
        return _package_row(_admin().set_device_types(body["packageId"], body["deviceTypeIds"],
                                                               context.language.get()))


# --- levels --------------------------------------------------------------------------------------


@blp.route("/PayServiceLevel/selectServiceLevels")
class LevelListView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.PackageQuery, location="query")
    @blp.ok(s.AdminLevelSchema, many=True)
    @_not_found
    def get(self, query):
        """The package's levels in order, each with its live durations (retired ones left out)."""
        return [_level_row(lv) for lv in _admin().levels(query["packageId"])]


@blp.route("/PayServiceLevel/insert")
class LevelInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:add")
    @blp.arguments(s.LevelInsertBody)
    @blp.ok(s.AdminLevelSchema)
    @_not_found
    def post(self, body):
        """A new level, last in its package: names (up to 20) per language, items, and at least one
        duration row with months, service fee, data fee (cents), currency and discount filled."""
        return _level_row(_admin().add_level(body["packageId"], _level_draft(body)))


@blp.route("/PayServiceLevel/update")
class LevelUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.LevelUpdateBody)
    @blp.ok(s.AdminLevelSchema)
    @_not_found
    def put(self, body):
        """The level's names, items and durations, as a whole. A duration left out is deleted, or
        retired if sold; a sold duration given another price, length, currency or discount is
        retired and replaced by a new row (new id), so the orders that bought it keep it as sold."""
        return _level_row(_admin().update_level(body["levelId"], _level_draft(body)))


@blp.route("/PayServiceLevel/delete")
class LevelDeleteView(MethodView):
    @blp.requires(f"{PERMISSION}:delete")
    @blp.arguments(s.LevelIdQuery, location="query")
    @blp.ok(refusals=(ce.LevelInUse,))
    @_not_found
    def delete(self, query):
        """A level never sold and held by no device."""
        _admin().delete_level(query["levelId"])


@blp.route("/PayServiceLevel/sortLevel")
class LevelSortView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.LevelSortBody)
    @blp.ok(s.AdminLevelSchema, many=True)
    @_not_found
    def post(self, body):
        """Every level id of the package, in the new order (the first is shown first)."""
        return [_level_row(lv) for lv in _admin().sort_levels(body["packageId"], body["levelIds"])]


@blp.route("/PayServiceLevel/uploadLevelIcon")
class LevelIconUploadView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.IconUploadFiles, location="files")
    @blp.arguments(s.IconUploadForm, location="form")
    @blp.ok(s.AdminLevelSchema)
    @_not_found
    def post(self, files, form):
        """Replace the level's icon: a real JPG or PNG (by content) of at most 1 MB and 4096 pixels
        a side (else 422 on `file`; 413 over the request limit), kept re-encoded as a PNG."""
        from adapters.images.account_photos import MAX_PHOTO_BYTES

        data = files["file"].stream.read(MAX_PHOTO_BYTES + 1)
        return _level_row(_admin().set_icon(form["levelId"], data))


@blp.route("/PayServiceLevel/icon")
class LevelIconView(MethodView):
    @blp.arguments(s.LevelIdQuery, location="query")
    @blp.alt_response(200, success=True, content_type="image/png", schema={"type": "string", "format": "binary"},
                      description="the level's icon (PNG)")
    @_not_found
    def get(self, query):
        """A level's icon, for any signed-in user (the level cards show it)."""
        return Response(_admin().icon(query["levelId"]), mimetype="image/png",
                        headers={"Cache-Control": "private, max-age=3600", "X-Content-Type-Options": "nosniff"})


# --- free gift -----------------------------------------------------------------------------------


@blp.route("/PayServicePresentation/selectListByDomain")
class GiftView(MethodView):
    @blp.requires(f"{PERMISSION}:query")
    @blp.arguments(s.PackageQuery, location="query")
    @blp.ok(s.GiftSchema)
    @_not_found
    def get(self, query):
        """The package's free gift to new devices of its types."""
        return _gift_row(query["packageId"], _admin().gift(query["packageId"]))


def _save_gift(body: dict) -> dict:
    gift = Gift(body.get("levelId"), body["timeLength"], body.get("smsCount", 0), body.get("voiceCount", 0))
    return _gift_row(body["packageId"], _admin().save_gift(body["packageId"], gift))


@blp.route("/PayServicePresentation/insert")
class GiftInsertView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.GiftBody)
    @blp.ok(s.GiftSchema, refusals=(ce.GiftLevelElsewhere,))
    @_not_found
    def post(self, body):
        """Set the gift a new device of the package's types gets: one of its levels for 0 to 120
        months (0: none), SMS and voice counts. Replaces the historical two free months."""
        return _save_gift(body)


@blp.route("/PayServicePresentation/update")
class GiftUpdateView(MethodView):
    @blp.requires(f"{PERMISSION}:edit")
    @blp.arguments(s.GiftBody)
    @blp.ok(s.GiftSchema, refusals=(ce.GiftLevelElsewhere,))
    @_not_found
    def put(self, body):
        """As insert."""
        return _save_gift(body)
