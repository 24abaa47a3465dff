"""The refusals of the catalogue (HTTP 409), each with its stable code (2001-2029; 2010 is the
shared NotAuthenticated and is skipped)."""

from __future__ import annotations

from core.shared.errors import DomainError, RuleViolation
from core.shared.messages import N_


class DeviceTypeHasActivePackage(RuleViolation):
    code = 2001
    message = N_("The device type {type} already has the enabled package {package}: stop it first")


class PackageHasNoLevels(RuleViolation):
    code = 2002
    message = N_("A package needs at least one level with a price before it is enabled")


class PackageHasNoDeviceTypes(RuleViolation):
    code = 2003
    message = N_("Choose the device types of the package before enabling it")


class LevelInUse(RuleViolation):
    code = 2004
    message = N_("This level has been sold or is held by devices: it cannot be deleted")


class ItemInUse(RuleViolation):
    code = 2005
    message = N_("This item is part of a level: remove it from the levels first")


class GiftLevelElsewhere(RuleViolation):
    code = 2006
    message = N_("The free gift's level must be one of this package's levels")


class PackageEnabledTwice(RuleViolation):
    code = 2007
    message = N_("The package is already enabled")


class PackageStoppedTwice(RuleViolation):
    code = 2008
    message = N_("The package is already stopped")


ERRORS: tuple[type[DomainError], ...] = (
    DeviceTypeHasActivePackage, PackageHasNoLevels, PackageHasNoDeviceTypes, LevelInUse, ItemInUse,
    GiftLevelElsewhere, PackageEnabledTwice, PackageStoppedTwice)
