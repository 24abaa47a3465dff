"""A console device's calibration as its detail shows it: the date of its newest calibration, the
due date and the certificate that set them (an issued certificate writes them), and its own
interval, which whoever may change the device sets (issue 21, "Back into the console")."""

from __future__ import annotations

from flask.views import MethodView

from core.calibration.use_cases import DeviceCalibrationView
from entrypoints.api import context
from entrypoints.api.calibration import schemas as s
from entrypoints.api.calibration.views import caller
from entrypoints.api.devices.schemas import DeviceIdQuery
from entrypoints.api.devices.views import NOT_VISIBLE
from entrypoints.api.framework import ApiBlueprint, ErrorEnvelope

blp = ApiBlueprint("calibration_devices", __name__, description="A console device's calibration dates, certificate "
                                                                "and interval")



def _row(device_id: int, view: DeviceCalibrationView) -> dict:
    known = view.calibration
    return {"deviceId": device_id, "calibratedOn": known.calibrated_on, "dueOn": known.due_on,
            "certificate": known.certificate, "intervalMonths": view.interval_months,
            "ownIntervalMonths": known.device_months, "changeable": view.changeable}


@blp.route("/Device/calibration")
class DeviceCalibrationCall(MethodView):
    @blp.requires("device.detail")
    @blp.arguments(DeviceIdQuery, location="query")
    @blp.ok(s.DeviceCalibrationSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description=NOT_VISIBLE)
    def get(self, query):
        """The device's calibration, for whoever sees the device (a sharee and a read-only member too)."""
        device_id = query["deviceId"]
        return _row(device_id, context.container().read_device_calibration()(caller(), device_id))


@blp.route("/Device/interval")
class DeviceIntervalView(MethodView):
    @blp.requires("device.list:edit")
    @blp.arguments(s.IntervalSchema)
    @blp.ok(s.DeviceCalibrationSchema)
    @blp.alt_response(404, schema=ErrorEnvelope, description="no such device, or one the caller may not change")
    def post(self, body):
        """The device's own calibration interval (null: its type's again); its due date follows from
        its newest calibration."""
        device_id = body["deviceId"]
        return _row(device_id, context.container().set_calibration_interval()(caller(), device_id,
                                                                               body["intervalMonths"]))
