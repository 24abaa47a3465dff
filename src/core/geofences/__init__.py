"""Geofences (issue 20, /waybill/geofence): areas on the map (circles and polygons, 1 to 10 of
them) that devices are watched against. The ingest tells, per (device, fence), when a device
enters and leaves, after a dwell that ignores GPS jitter; each crossing is stored, tells the
fence's owner through the system messages and calls the FenceCrossingListener (waybills start on
leaving their origin and finish on entering their destination).

A fence is its maker's own or one of its organizations'; who reads and who changes it is
core.shared.ownership's rule, as for projects and assets, and a device is watched only by fences
of its own owner's kind.

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
