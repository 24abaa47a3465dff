"""The assets' refusals (codes 18xx)."""

from __future__ import annotations

from core.assets.model import DEVICE_LIMIT, IN_OTHER_ASSET, IN_YOUR_ASSET
from core.shared.errors import RuleViolation


class DeviceLimit(RuleViolation):
    code = 1821
    message = DEVICE_LIMIT


class DeviceInYourAsset(RuleViolation):
    """The device is in another asset of the caller's: the message names both."""

    code = 1822
    message = IN_YOUR_ASSET


class DeviceInOtherAsset(RuleViolation):
    """The device is in someone else's asset (its organization's owner put it there): the message
    names the device, which the caller sees, and not the asset, which it does not."""

    code = 1823
    message = IN_OTHER_ASSET
