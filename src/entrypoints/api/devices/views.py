"""Devices and service expiry (api-contract section 4)."""

from __future__ import annotations

from flask.views import MethodView

from core.devices.expiry import ExpiredFlag, ExpiringDevice, ExpiryReminder
from core.shared.paging import PageRequest
from entrypoints.api import context
from entrypoints.api.devices import schemas as s
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope

blp = ApiBlueprint("devices", __name__, description="Devices and service expiry")


def _expired_row(d: ExpiringDevice) -> dict:
    return {"id": d.id, "typeId": d.type_id, "deviceTypeName": d.type_name, "deviceName": d.device_name,
            "deviceGuid": d.guid, "serviceExpiredDate": d.service_expires_at}


def _reminder(reminder: ExpiryReminder) -> dict:
    message = reminder.message
    if message is not None:
        message = context.container().translator().translate(message, context.language.get(), **reminder.params)
    return {"id": reminder.account_id, "pushMessages": message, "expiredFlag": int(reminder.flag)}


@blp.route("/Device/getExpiredServiceDevice")
class ExpiredServiceDeviceView(MethodView):
    @blp.arguments(s.ExpiredDeviceQuery, location="query")
    @blp.ok(s.ExpiredDevicePageSchema)
    @blp.alt_response(403, schema=ErrorEnvelope, description="accountId is not the caller's")
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
