"""The geofences' refusals (codes 2141-2159)."""

from __future__ import annotations

from core.geofences.model import DEVICE_LIMIT, FENCE_LIMIT, FENCES_OF_DEVICE_LIMIT
from core.shared.errors import RuleViolation


class FenceLimit(RuleViolation):
    """The owner (an account's own fences, or an organization's) holds the most there may be."""

    code = 2141
    message = FENCE_LIMIT


class FenceDeviceLimit(RuleViolation):
    code = 2142
    message = DEVICE_LIMIT


class DeviceFenceLimit(RuleViolation):
    """The device is watched by as many fences as a device may be (each reading is judged against
    each of them)."""

    code = 2143
    message = FENCES_OF_DEVICE_LIMIT
