"""Devices and service expiry (api-contract section 4)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from flask.views import MethodView

from core.devices.commands import AddDevice, ChangeDevice, QueryEnergy, QueryHistory, QueryTrack
from core.devices.expiry import ExpiredFlag, ExpiringDevice, ExpiryReminder
from core.devices.model import Device, DeviceFilter, DeviceType, VipState, format_type_code
from core.devices.sheets import MAX_SHEET_BYTES, RowReport
from core.shared import errors as e
from core.shared.messages import N_
from core.shared.paging import PageRequest
from core.telemetry.model import Position
from entrypoints.api import context
from entrypoints.api.devices import schemas as s
from entrypoints.api.framework import XLSX, ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request, xlsx_download
from entrypoints.api.level_names import named, named_page

blp = ApiBlueprint("devices", __name__, description="Devices and service expiry")


def _expired_row(d: ExpiringDevice) -> dict:
    return {"id": d.id, "typeId": d.type_id, "deviceTypeName": d.type_name, "deviceName": d.device_name,
            "deviceGuid": d.guid, "serviceExpiredDate": d.service_expires_at, "access": int(d.access)}


def _reminder(reminder: ExpiryReminder) -> dict:
    message = reminder.message
    if message is not None:
        message = context.translated(message, **reminder.params)
    return {"id": reminder.account_id, "pushMessages": message, "expiredFlag": int(reminder.flag)}


@blp.route("/Device/getExpiredServiceDevice")
class ExpiredServiceDeviceView(MethodView):
    @blp.arguments(s.ExpiredDeviceQuery, location="query")
    @blp.ok(s.ExpiredDevicePageSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description="accountId is not the caller's (the answer an "
                                                             "unknown account gets)")
    def get(self, query):
        """The caller's devices (own and organizations') by service expiry, for the expired-service
        dialog: 1 expired, 2 expiring within 30 days, 3 within 90 days, 4 any expiry date.
        Lifelong service (year 2099 or later) is never expired nor expiring. Sorted by device type
        name, then expiry, then id; 5 rows a page unless pageSize says otherwise."""
        list_expiring = context.container().list_expiring_devices()
        page = list_expiring(context.caller_id(), ExpiredFlag(query["expiredFlag"]),
                             PageRequest(query["start"], query["pageSize"]), query.get("accountId"))
        return {"items": [_expired_row(d) for d in page.items], "total": page.total_count}


@blp.route("/DeviceExpireInfo/getExpiredInfoByType")
class ExpiredInfoView(MethodView):
    @blp.arguments(s.ExpiredInfoQuery, location="query")
    @blp.ok(s.ExpiredInfoSchema)
    def get(self, query):
        """Whether to warn the caller about service expiry after login. expiredFlag 1: at least one
        visible device has expired; 2: none has, but at least one expires within 30 days; 0:
        nothing to say. pushMessages counts both in the request's language ("Devices with expired
        service: 2; expiring within 30 days: 1"), null with flag 0. id is the caller's account
        id: the reminder is per account."""
        reminder = context.container().expiry_reminder()
        return _reminder(reminder(context.caller_id()))


# --- the device registry ------------------------------------------------------------------------

NOT_VISIBLE = "no such device, or not one the caller may see (the same answer, so ids cannot be probed)"
WRITE_REFUSED = "the caller may only read the device (a member of its organization), or lacks the permission"
OWNER_ONLY = f"{WRITE_REFUSED}; or is not its owner (an administrator of its organization)"
_FLAGS = {0: False, 1: True}



def _device_row(d: Device) -> dict:
    return {
        "deviceId": d.id, "deviceName": d.name, "deviceGuid": d.guid, "typeId": d.type_id,
        "deviceTypeName": d.type_name, "typeScenes": list(d.type_scenes), "levelId": d.level_id,
        "levelName": d.level_name, "serviceExpiredDate": d.service_expires_at, "vipInfo": {"state": int(d.vip_state)},
        "smsCount": d.sms_count, "voiceCount": d.voice_count, "countryCode": d.country_code,
        "simIccid": d.sim_iccid, "jcIccidStatus": d.jc_iccid_status, "agreementStatus": int(d.agreement_active),
        "nodeType": d.node_type, "status": d.status, "remark": d.remark, "ownerId": d.owner_account_id,
        "ownerName": d.owner_name, "isOwner": d.owned_by(context.caller_id()), "access": int(d.access),
        "permissions": s.permissions_of(d.grant), "sharedWithMe": d.grant.shared,
        "organizationId": d.organization_id, "organizationName": d.organization_name, "online": int(d.online),
        "alarmState": d.alarm_state, "lastReadingAt": d.last_reading_at, "temperature": d.last_temperature,
        "humidity": d.last_humidity, "displayPrecision": d.display_precision, "temperatureUnit": d.temperature_unit,
        "activatedAt": d.activated_at, "createdAt": d.created_at, "energy": d.energy,
        "position": position_row(d.position, d.position_at), "scrappedAt": d.scrapped_at,
        "projectId": d.project_id, "projectName": d.project_name,
    }


def position_row(p: Position | None, ts: datetime | None) -> dict | None:
    """A position as the API gives it (a device's last, a point of its track or of a trip's route)."""
    return None if p is None or ts is None else {"lat": p.lat, "lon": p.lon, "acc": p.accuracy_m, "ts": ts}


def _device_detail(d: Device) -> dict:
    [d] = named([d])  # its level in the caller's language
    limits = {limit.probe: limit for limit in d.limits}
    reading = None
    if d.last_reading_at is not None:
        reading = {"ts": d.last_reading_at, "temperature": d.last_temperature, "humidity": d.last_humidity}
    probes = []
    for probe in d.probes:
        limit = limits.get(probe)
        probes.append({"probe": probe, "upperLimit": limit.upper_limit if limit else None,
                       "lowerLimit": limit.lower_limit if limit else None,
                       "ruleEnabled": bool(limit and limit.enabled)})
    return {**_device_row(d), "lastSeenAt": d.last_seen_at, "lastReading": reading, "probes": probes}


def _type_row(t: DeviceType) -> dict:
    return {"typeId": t.id, "typeName": t.name, "typeCode": format_type_code(t.code), "seriesName": t.series_name,
            "addType": t.add_type, "scenes": list(t.scenes), "probes": list(t.probes)}


def device_filter(body: Any) -> DeviceFilter:
    """The list's filters as DevicePageQuery names them (the device list export takes them too)."""
    return DeviceFilter(
        name=body.get("deviceName"), guid=body.get("deviceGuid"), type_id=body.get("typeId"),
        status=body.get("status"), scene=body.get("scene"), online=_FLAGS.get(body.get("online")),
        alarm=_FLAGS.get(body.get("alarm")), level_id=body.get("levelId"),
        vip_state=VipState(body["vipState"]) if "vipState" in body else None,
        scrapped=_FLAGS.get(body.get("scrapped")), project_id=body.get("projectId"),
        calibration_due=_FLAGS.get(body.get("calibrationDue")))


@blp.route("/Device/page")
class DevicePageView(MethodView):
    @blp.requires("device.list")
    @blp.arguments(s.DevicePageQuery)
    @blp.ok(page_of(s.DeviceSchema))
    def post(self, body):
        """The devices the caller may see (its own and its organizations'), a page at a time.
        Filters narrow the list: deviceName and deviceGuid match a part in any case; scene is
        the list's tab (1 cold-chain monitoring, 2 smart cold storage, 3 smart freezer, from the
        device type's scenes); online, alarm, status and scrapped are 0 or 1; vipState as vipInfo.state;
        projectId one project's devices (0: those in no project).
        Temperatures are in Celsius whatever temperatureUnit says: the client converts them."""
        page = context.container().list_devices()(context.caller_id(), device_filter(body), page_request(body))
        return page_body(named_page(page), _device_row)  # levels in the caller's language


@blp.route("/Device/markers")
class DeviceMarkersView(MethodView):
    @blp.requires("device.list")
    @blp.arguments(s.DeviceFilterQuery)
    @blp.ok(s.DeviceMarkersSchema)
    def post(self, body):
        """The devices of the list's filters that reported a position, as markers for a map: a few
        fields each, every such device up to the first 10,000 by deviceId (truncated says when
        more matched). The home page's map and the list's map mode read it instead of a page."""
        found = context.container().map_devices()(context.caller_id(), device_filter(body))
        return {"markers": [{"deviceId": m.id, "deviceName": m.name, "lat": m.position.lat, "lon": m.position.lon,
                             "status": m.status, "online": int(m.online), "alarmState": m.alarm_state,
                             "activatedAt": m.activated_at, "scrappedAt": m.scrapped_at} for m in found.markers],
                "total": found.total, "truncated": found.truncated}


@blp.route("/Device/get")
class DeviceView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.DeviceDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """One device with its last reading (Celsius and % RH) and its probes: those its type
        reports, each with the limits of its alarm rule (null without one)."""
        return _device_detail(context.container().get_device()(context.caller_id(), query["deviceId"]))


@blp.route("/Device/insert")
class DeviceInsertView(MethodView):
    @blp.requires("device.list:add")
    @blp.arguments(s.DeviceInsertSchema)
    @blp.ok(s.DeviceAddedSchema, refusals=(e.DeviceAlreadyAdded, e.DeviceTypeNotAddable))
    @blp.alt_response(404, schema=ErrorEnvelope, description="no device type has this typeId")
    def post(self, body):
        """Add the device in hand by its GUID. The caller becomes its owner; a GUID already added
        (in any case of its letters) is refused with 1012, a type that is not published or is
        "app only" with 1013. A new device gets the free gift of its type's enabled package
        (PayServicePresentation: a level for some months, SMS and voice counts; two months at the
        package's free level where none is set), the edition's country code unless one is given, and its
        MQTT broker login: user name = GUID, a random password returned here once and never again
        (rotate it to get a new one)."""
        added = context.container().add_device()(AddDevice(
            account_id=context.caller_id(), guid=body["deviceGuid"], name=body["deviceName"], type_id=body["typeId"],
            remark=body.get("remark"), country_code=body.get("countryCode"),
            display_precision=body["displayPrecision"], temperature_unit=body["temperatureUnit"]))
        return {"device": _device_detail(added.device),
                "credentials": {"username": added.credentials.username, "password": added.credentials.password}}


@blp.route("/Device/update")
class DeviceUpdateView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=WRITE_REFUSED)  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.DeviceUpdateSchema)
    @blp.ok(s.DeviceDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def put(self, body):
        """Change a device's name (1-50), remark (up to 120; empty clears it), display precision
        (0-4 decimals), temperature unit (C or F: how the client shows values, which stay in
        Celsius) or country code (86 only on the domestic edition). Fields left out keep their
        value; null is refused. The owner, and the creator and administrators of the device's
        organization may do it; its other members only read it (403)."""
        return _device_detail(context.container().update_device()(ChangeDevice(
            account_id=context.caller_id(), device_id=body["deviceId"], name=body.get("deviceName"),
            remark=body.get("remark"),
            display_precision=body.get("displayPrecision"), temperature_unit=body.get("temperatureUnit"),
            country_code=body.get("countryCode"))))


@blp.route("/Device/delete")
class DeviceDeleteView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=OWNER_ONLY)  # outermost: covers the permission
    @blp.requires("device.list:delete")
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(refusals=[e.RecordsKeptByFda])
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def delete(self, query):
        """Delete a device with its readings, alarm rules and broker login. Only its owner may:
        everyone else in its organization gets 403 (and the caller must hold device.list:delete).
        Refused while FDA mode keeps its records (its organization's, else its owner's: 409)."""
        context.container().delete_device()(context.caller_id(), query["deviceId"])


@blp.route("/Device/credentials")
class BrokerCredentialView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.BrokerCredentialSchema, nullable=True)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """The device's MQTT user name and when its password was issued (never the password), or
        null when it has none yet."""
        credential = context.container().broker_credential()(context.caller_id(), query["deviceId"])
        return {"username": credential.username, "issuedAt": credential.issued_at} if credential else None


@blp.route("/Device/credentials/rotate")
class RotateCredentialsView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=OWNER_ONLY)  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.BrokerLoginSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, query):
        """A new random MQTT password for the device, returned this once; only its owner may ask
        (403 for everyone else in its organization). The broker accepts it at once, refuses the old
        one and closes the connections made with it."""
        login = context.container().rotate_broker_credentials()(context.caller_id(), query["deviceId"])
        return {"username": login.username, "password": login.password}


@blp.route("/Device/history")
class HistoryView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.HistoryQuery)
    @blp.ok(s.HistorySchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """A device's readings from startTime to endTime (both included; at most 366 days),
        for its chart. When more than maxPoints (default 2000, at most 5000) are stored, the range
        is cut into equal buckets and each keeps the readings holding the minimum and the maximum
        of each probe, so short peaks still show; `downsampled` says so and `total` counts what is
        stored. Temperatures in Celsius, humidity in % RH."""
        history = context.container().device_history()(QueryHistory(
            context.caller_id(), body["deviceId"], body["startTime"], body["endTime"], body["maxPoints"]))
        return {"points": history.points, "downsampled": history.downsampled, "total": history.total}


@blp.route("/Device/track")
class TrackView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.TrackQuery)
    @blp.ok(s.TrackSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """Where a device went from startTime to endTime (both included; at most 366 days): the
        positions its readings carried (telemetry lat, lon, acc), for its map. When more than
        maxPoints are stored, evenly spaced ones and the last. A device that never sent a
        position answers no points (its last position is the device's `position`)."""
        track = context.container().device_track()(QueryTrack(
            context.caller_id(), body["deviceId"], body["startTime"], body["endTime"], body["maxPoints"]))
        return {"points": [position_row(p.position, p.ts) for p in track.points], "downsampled": track.downsampled,
                "total": track.total}


@blp.route("/Device/energy")
class EnergyView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.EnergyQuery)
    @blp.ok(s.EnergySchema, refusals=(e.DeviceMeasuresNoEnergy,))
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, body):
        """Energy a device used per hour or per day from startTime to endTime (at most 92 days),
        from its meter's running total (telemetry kwh): each bucket sums the rises of the total
        that end in it, and a total that falls (a meter reset) counts from zero. Days are the
        caller's (X-Time-Zone). Refused with 1030 for a device whose type has no energy meter."""
        energy = context.container().device_energy()(QueryEnergy(
            context.caller_id(), body["deviceId"], body["startTime"], body["endTime"], body["interval"],
            getattr(context.time_zone.get(), "key", "UTC")))
        return {"unit": "kWh", "interval": body["interval"], "total": energy.total_kwh,
                "buckets": [{"ts": b.start, "kwh": b.kwh} for b in energy.buckets]}


@blp.route("/Device/homeCounts")
class HomeCountsView(MethodView):
    @blp.requires("home")
    @blp.arguments(s.HomeCountsQuery, location="query")
    @blp.ok(s.HomeCountsSchema)
    def get(self, query):
        """Counts of the devices the caller may see, for the home page: online now; offline
        (reported before, not online now); never reported (notEnabled); alarming; disabled;
        service expired; scrapped, which count in no other figure. online + offline + notEnabled +
        scrapped = total."""
        c = context.container().home_counts()(context.caller_id(), query.get("scene"))
        return {"total": c.total, "online": c.online, "offline": c.offline, "alarm": c.alarm,
                "disabled": c.disabled, "expired": c.expired, "notEnabled": c.not_enabled, "scrapped": c.scrapped}


@blp.route("/Device/operatorHomeCounts")
class OperatorHomeCountsView(MethodView):
    @blp.requires("dataBoard")
    @blp.ok(s.OperatorHomeCountsSchema)
    def get(self):
        """The operator home: customers, devices, online and alarming devices across every
        customer, and today's orders and revenue (cents, per currency); today is the day of the
        X-Time-Zone header. Back office only (the data board permission)."""
        c = context.container().operator_home_counts()(context.time_zone.get())
        return {"customers": c.customers, "devices": c.devices, "online": c.online, "alarm": c.alarm,
                "ordersToday": c.orders_today, "paidOrdersToday": c.paid_today,
                "revenueToday": [{"currency": m.currency, "payFee": m.cents} for m in c.revenue_today]}


@blp.route("/DeviceType/selectTypeList")
class DeviceTypeListView(MethodView):
    @blp.arguments(s.TypeListQuery, location="query")
    @blp.ok(s.DeviceTypeSchema, many=True)
    def get(self, query):
        """Published device types, by type code, for the list's filters and the add form (which
        offers only those whose addType is not 1, app only)."""
        return [_type_row(t) for t in context.container().list_device_types()(query.get("scene"))]


@blp.route("/Device/batchDelete")
class DeviceBatchDeleteView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=f"{OWNER_ONLY}, for any of the devices: then none "
                                                             "is deleted")  # outermost: covers the permission
    @blp.requires("device.list:delete")
    @blp.arguments(s.BatchDeleteSchema)
    @blp.ok(s.BatchDeletedSchema, refusals=[e.RecordsKeptByFda])
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_VISIBLE}, for any of the devices: then none "
                                                             "is deleted")
    def post(self, body):
        """Delete devices as Device/delete does, all or none: when any of them is not the caller's
        to delete, nothing is deleted and the answer is what deleting that one alone would get
        (404 not visible, 403 not its owner, 409 FDA mode keeps its records)."""
        ids = list(dict.fromkeys(body["deviceIds"]))
        context.container().delete_devices()(context.caller_id(), ids)
        return {"deleted": len(ids)}


@blp.route("/Device/scrap")
class DeviceScrapView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=f"{OWNER_ONLY}, for any of the devices: then none "
                                                             "is scrapped")  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.ScrapSchema)
    @blp.ok(s.ScrappedSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_VISIBLE}, for any of the devices: then none "
                                                             "is scrapped")
    def post(self, body):
        """Retire devices (broken, lost, decommissioned), all or none, as only their owner may. A
        scrapped device keeps its history, readable and exportable, and its settings; it counts as
        scrapped only on the home page, raises no alarm, gets no expiry reminder, cannot be
        recharged nor sent parameters (1031), and its broker login is disabled (its connection
        closed, what it still sends dropped). Each is a line of its operation log, with the reason."""
        scrapped = context.container().scrap_devices()(context.caller_id(), body["deviceIds"], body.get("reason"))
        return {"scrapped": len(scrapped)}


@blp.route("/Device/changeOrganization")
class DeviceOrganizationView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description="the caller may only read one of the devices, does not "
                      "own one it moves into an organization, or is not the creator or an administrator of the "
                      "organization: then none moves")  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.ChangeOrganizationSchema)
    @blp.ok(s.OrganizationChangedSchema, refusals=[e.RecordsStayWithFdaSubject])
    @blp.alt_response(404, schema=ErrorEnvelope, description=f"{NOT_VISIBLE}, for any of the devices, or an "
                      "organization the caller is not in: then none moves")
    def post(self, body):
        """Put devices into one of the caller's organizations, or take them out of any
        (organizationId null), all or none. Into one: the devices' owner, when the creator or an
        administrator of it; out: their owner or an administrator of their organization. The
        devices stay their owner's and keep their shares; their organization's members see and
        change them by their role at once. A device whose organization changes leaves its
        project; one in an asset is refused (422 on deviceIds), one whose records FDA mode keeps
        (its organization's, else its owner's) stays (409, 2352)."""
        moved = context.container().change_organization()(context.caller_id(), body["deviceIds"],
                                                          body["organizationId"])
        return {"moved": moved}


@blp.route("/Device/restore")
class DeviceRestoreView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=OWNER_ONLY)  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.RestoredSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, query):
        """Put a scrapped device back in service, as only its owner may: its broker login works again
        with the password it had, and the act is a line of its operation log. Its service expiry
        did not wait for it."""
        return {"restored": context.container().restore_device()(context.caller_id(), query["deviceId"])}


@blp.route("/Device/clearData")
class DeviceClearDataView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=OWNER_ONLY)  # outermost: covers the permission
    @blp.requires("device.list:edit")
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.DataClearedSchema, refusals=[e.RecordsKeptByFda])
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def post(self, query):
        """Delete the device's readings and alarm records (and forget its last reading), keeping
        the device, its settings, alarm limits and broker login. Only its owner may (the readings
        are the records an audit asks for); the act is recorded (who, when) and outlives the device.
        Refused while FDA mode keeps the device's records (409)."""
        readings, alarms = context.container().clear_device_data()(context.caller_id(), query["deviceId"])
        return {"readings": readings, "alarms": alarms}


SHEET_HEADERS = (N_("GUID"), N_("Device name"), N_("Device type (code or name)"))


def _row_report(row: RowReport) -> dict:
    translate = context.container().translator().translate
    login = row.credentials
    return {"row": row.number, "deviceGuid": row.guid, "outcome": row.outcome.value,
            "message": translate(row.problem, context.language.get()) if row.problem else None,
            "deviceId": row.device_id,
            "credentials": {"username": login.username, "password": login.password} if login else None}


@blp.route("/Device/batchInsert")
class DeviceBatchInsertView(MethodView):
    @blp.requires("device.list:import")
    @blp.arguments(s.SheetUploadSchema, location="files")
    @blp.arguments(s.SheetTypeSchema, location="form")
    @blp.ok(s.SheetReportSchema)
    def post(self, files, form):
        """Add the devices of an uploaded sheet (the template: Device/batchInsert/template), each
        as Device/insert adds one, and report every row: added (with its MQTT login, shown this
        once), alreadyAdded, unknownType or invalid. A file that is not such a sheet (not XLSX,
        over the size or row limit, unpacking to far more than it holds, holding formulas or
        characters no database stores) is refused whole with 422 (errors.file says why) and
        nothing is added."""
        data = files["file"].stream.read(MAX_SHEET_BYTES + 1)
        reports = context.container().add_devices_from_sheet()(context.caller_id(), data, form.get("typeId"))
        return {"rows": [_row_report(r) for r in reports],
                "added": sum(1 for r in reports if r.credentials is not None)}


@blp.route("/Device/batchInsert/template")
class DeviceSheetTemplateView(MethodView):
    @blp.requires("device.list:import")
    @blp.alt_response(200, success=True, content_type=XLSX, schema={"type": "string", "format": "binary"},
                      description="the XLSX to fill: its header in the request's language and a second sheet "
                                  "listing the device types that can be added")
    def get(self):
        """The sheet Device/batchInsert takes, empty."""
        language = context.language.get()
        translate = context.container().translator().translate
        data = context.container().device_sheet_template()([translate(h, language) for h in SHEET_HEADERS])
        return xlsx_download(data, "devices.xlsx")


# The contract's topics (api-contract section 7), {guid} standing for the device's GUID.
TOPICS = {"telemetry": "devices/{guid}/telemetry", "status": "devices/{guid}/status",
          "commands": "devices/{guid}/commands", "acks": "devices/{guid}/acks"}
EXAMPLE_READING = {"ts": "2026-05-01T08:00:00+08:00", "t": 4.5, "h": 61.2, "seq": 1}


@blp.route("/Device/connection")
class DeviceConnectionView(MethodView):
    @blp.ok(s.ConnectionSchema)
    def get(self):
        """How a technician connects a device to this installation's MQTT broker (MQTT_PUBLIC_URL):
        host, port, TLS, the topics it publishes and listens on and an example reading. It logs in
        with its GUID as user name and client id, and the password shown when it was added or its
        password rotated."""
        url = urlsplit(context.container().settings().mqtt_public_url)
        tls = url.scheme == "mqtts"
        return {"host": url.hostname, "port": url.port or (8883 if tls else 1883), "tls": tls, "topics": TOPICS,
                "examplePayload": json.dumps(EXAMPLE_READING)}
