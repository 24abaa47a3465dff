"""Waybills (issue 20, /waybill/list and /waybill/detail/{waybillPk}): a shipment's record with its
goods, parties, temperature limits and the devices that watch it, from not started through in
progress to finished (model.TRANSITIONS).

While a waybill is in progress its limits take precedence over its devices' alarm rules for the
temperature probe: core.alarms judges each reading against the limits of the trip whose window
holds the reading's own timestamp, whatever its arrival (the adapters answer
AlarmRepository.trip_limits from the waybill tables). A waybill is its maker's own or one of its
organizations', read and changed by core.shared.ownership's rule like assets; a sharee of one of
its devices reads it and changes nothing.

Public to other contexts: `model`, `ports` and `fence_rules` (the geofence engine's hook).
"""

__all__ = ["fence_rules", "model", "ports"]
