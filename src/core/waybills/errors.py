"""The waybills' refusals (codes 2101-2139)."""

from __future__ import annotations

from core.shared.errors import DomainError, NotFound, RuleViolation
from core.shared.messages import N_


class StateChangeRefused(RuleViolation):
    """A waybill goes from not started to in progress to finished, never back (model.TRANSITIONS)."""

    code = 2101
    message = N_("A waybill goes from not started to in progress to finished only")


class DeviceOnAnotherTrip(RuleViolation):
    """A device runs at most one waybill in progress at a time."""

    code = 2102
    message = N_("The device {device} is already on the waybill {name}, which is in progress")


class NoDeviceBound(RuleViolation):
    code = 2103
    message = N_("Bind a device to the waybill before starting it")


class WaybillFinished(RuleViolation):
    """A finished waybill is a record: its particulars, limits and devices stay as they were."""

    code = 2104
    message = N_("A finished waybill can no longer be changed")


class LimitsLockedWhileRunning(RuleViolation):
    """Its devices are being judged against the limits: a trip changes them only before it starts."""

    code = 2105
    message = N_("The limits and devices of a waybill in progress cannot be changed")


class ShareLinkUnavailable(NotFound):
    """A share link that has expired or been revoked (an unknown one is a plain 404)."""

    code = 2106
    message = N_("This link has expired or been revoked")


class NoDataForReport(RuleViolation):
    code = 2107
    message = N_("Device has no data")  # spec 001 section 8


class TemplateNameTaken(RuleViolation):
    code = 2108
    message = N_("You already have a waybill template with this name")


ERRORS: tuple[type[DomainError], ...] = (
    StateChangeRefused, DeviceOnAnotherTrip, NoDeviceBound, WaybillFinished, LimitsLockedWhileRunning,
    ShareLinkUnavailable, NoDataForReport, TemplateNameTaken,
)
