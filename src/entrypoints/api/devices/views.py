"""Devices and service expiry (api-contract section 4)."""

from __future__ import annotations

from flask.views import MethodView

from core.devices.commands import AddDevice, ChangeDevice, QueryHistory
from core.devices.expiry import ExpiredFlag, ExpiringDevice, ExpiryReminder
from core.devices.model import Device, DeviceFilter, DeviceType, VipState, format_type_code
from core.shared import errors as e
from core.shared.paging import PageRequest
from entrypoints.api import context
from entrypoints.api.devices import schemas as s
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope, page_body, page_of, page_request

blp = ApiBlueprint("devices", __name__, description="Devices and service expiry")


def _expired_row(d: ExpiringDevice) -> dict:
    return {"id": d.id, "typeId": d.type_id, "deviceTypeName": d.type_name, "deviceName": d.device_name,
            "deviceGuid": d.guid, "serviceExpiredDate": d.service_expires_at, "access": int(d.access)}


def _reminder(reminder: ExpiryReminder) -> dict:
    message = reminder.message
    if message is not None:
        message = context.container().translator().translate(message, context.language.get(), **reminder.params)
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
        page = list_expiring(context.current_principal().account_id, ExpiredFlag(query["expiredFlag"]),
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
        return _reminder(reminder(context.current_principal().account_id))


# --- the device registry ------------------------------------------------------------------------

NOT_VISIBLE = "no such device, or not one the caller may see (the same answer, so ids cannot be probed)"
WRITE_REFUSED = "the caller may only read the device (a member of its organization), or lacks the permission"
OWNER_ONLY = f"{WRITE_REFUSED}; or is not its owner (an administrator of its organization)"
_FLAGS = {0: False, 1: True}


def _caller() -> int:
    return context.current_principal().account_id


def _device_row(d: Device) -> dict:
    return {
        "deviceId": d.id, "deviceName": d.name, "deviceGuid": d.guid, "typeId": d.type_id,
        "deviceTypeName": d.type_name, "typeScenes": list(d.type_scenes), "levelId": d.level_id,
        "levelName": d.level_name, "serviceExpiredDate": d.service_expires_at, "vipInfo": {"state": int(d.vip_state)},
        "smsCount": d.sms_count, "voiceCount": d.voice_count, "countryCode": d.country_code,
        "simIccid": d.sim_iccid, "jcIccidStatus": d.jc_iccid_status, "agreementStatus": int(d.agreement_active),
        "nodeType": d.node_type, "status": d.status, "remark": d.remark, "ownerId": d.owner_account_id,
        "ownerName": d.owner_name, "isOwner": d.owned_by(_caller()), "access": int(d.access),
        "organizationId": d.organization_id, "organizationName": d.organization_name, "online": int(d.online),
        "alarmState": d.alarm_state, "lastReadingAt": d.last_reading_at, "temperature": d.last_temperature,
        "humidity": d.last_humidity, "displayPrecision": d.display_precision, "temperatureUnit": d.temperature_unit,
        "activatedAt": d.activated_at, "createdAt": d.created_at,
    }


def _device_detail(d: Device) -> dict:
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


@blp.route("/Device/page")
class DevicePageView(MethodView):
    @blp.requires("device.list")
    @blp.arguments(s.DevicePageQuery)
    @blp.ok(page_of(s.DeviceSchema))
    def post(self, body):
        """The devices the caller may see (its own and its organizations'), a page at a time.
        Filters narrow the list: deviceName and deviceGuid match a part in any case; scene is
        the list's tab (1 cold-chain monitoring, 2 smart cold storage, 3 smart freezer, from the
        device type's scenes); online, alarm and status are 0 or 1; vipState as vipInfo.state.
        Temperatures are in Celsius whatever temperatureUnit says: the client converts them."""
        where = DeviceFilter(
            name=body.get("deviceName"), guid=body.get("deviceGuid"), type_id=body.get("typeId"),
            status=body.get("status"), scene=body.get("scene"), online=_FLAGS.get(body.get("online")),
            alarm=_FLAGS.get(body.get("alarm")), level_id=body.get("levelId"),
            vip_state=VipState(body["vipState"]) if "vipState" in body else None)
        page = context.container().list_devices()(_caller(), where, page_request(body))
        return page_body(page, _device_row)


@blp.route("/Device/get")
class DeviceView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.DeviceDetailSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """One device with its last reading (Celsius and % RH) and its probes: those its type
        reports, each with the limits of its alarm rule (null without one)."""
        return _device_detail(context.container().get_device()(_caller(), query["deviceId"]))


@blp.route("/Device/insert")
class DeviceInsertView(MethodView):
    @blp.requires("device.list:add")
    @blp.arguments(s.DeviceInsertSchema)
    @blp.ok(s.DeviceAddedSchema, refusals=(e.DeviceAlreadyAdded, e.DeviceTypeNotAddable))
    @blp.alt_response(404, schema=ErrorEnvelope, description="no device type has this typeId")
    def post(self, body):
        """Add the device in hand by its GUID. The caller becomes its owner; a GUID already added
        (in any case of its letters) is refused with 1012, a type that is not published or is
        "app only" with 1013. A new device gets two months of free service (at the free level of
        its type's package, if any), the edition's country code unless one is given, and its
        MQTT broker login: user name = GUID, a random password returned here once and never again
        (rotate it to get a new one)."""
        added = context.container().add_device()(AddDevice(
            account_id=_caller(), guid=body["deviceGuid"], name=body["deviceName"], type_id=body["typeId"],
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
            account_id=_caller(), device_id=body["deviceId"], name=body.get("deviceName"), remark=body.get("remark"),
            display_precision=body.get("displayPrecision"), temperature_unit=body.get("temperatureUnit"),
            country_code=body.get("countryCode"))))


@blp.route("/Device/delete")
class DeviceDeleteView(MethodView):
    @blp.alt_response(403, schema=ErrorEnvelope, description=OWNER_ONLY)  # outermost: covers the permission
    @blp.requires("device.list:delete")
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok()
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def delete(self, query):
        """Delete a device with its readings, alarm rules and broker login. Only its owner may:
        everyone else in its organization gets 403 (and the caller must hold device.list:delete)."""
        context.container().delete_device()(_caller(), query["deviceId"])


@blp.route("/Device/credentials")
class BrokerCredentialView(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(s.DeviceIdQuery, location="query")
    @blp.ok(s.BrokerCredentialSchema, nullable=True)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """The device's MQTT user name and when its password was issued (never the password), or
        null when it has none yet."""
        credential = context.container().broker_credential()(_caller(), query["deviceId"])
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
        login = context.container().rotate_broker_credentials()(_caller(), query["deviceId"])
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
            _caller(), body["deviceId"], body["startTime"], body["endTime"], body["maxPoints"]))
        return {"points": history.points, "downsampled": history.downsampled, "total": history.total}


@blp.route("/Device/homeCounts")
class HomeCountsView(MethodView):
    @blp.requires("home")
    @blp.arguments(s.HomeCountsQuery, location="query")
    @blp.ok(s.HomeCountsSchema)
    def get(self, query):
        """Counts of the devices the caller may see, for the home page: online now; offline
        (reported before, not online now); never reported (notEnabled); alarming; disabled;
        service expired. online + offline + notEnabled = total."""
        c = context.container().home_counts()(_caller(), query.get("scene"))
        return {"total": c.total, "online": c.online, "offline": c.offline, "alarm": c.alarm,
                "disabled": c.disabled, "expired": c.expired, "notEnabled": c.not_enabled}


@blp.route("/DeviceType/selectTypeList")
class DeviceTypeListView(MethodView):
    @blp.arguments(s.TypeListQuery, location="query")
    @blp.ok(s.DeviceTypeSchema, many=True)
    def get(self, query):
        """Published device types, by type code, for the list's filters and the add form (which
        offers only those whose addType is not 1, app only)."""
        return [_type_row(t) for t in context.container().list_device_types()(query.get("scene"))]
