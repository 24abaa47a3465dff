"""Offline purchases (issue 19; spec seed 001 sections 3-4, PayOfflineDeviceService and
PayOfflineExamine): service bought by contract or bank transfer, recorded by one operator and
approved by another before any device gets it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum

from core.shared.edition import PayType
from core.shared.identity import Stored
from core.shared.messages import N_

MAX_OFFLINE_DEVICES = 2000
REMARK_MAX = 200
OFFLINE_PAY_TYPES = (PayType.OFFLINE, PayType.BANK_TRANSFER)


class OfflineStatus(IntEnum):
    AWAITING_REVIEW = 1
    APPROVED = 2  # its devices were recharged (each device's state says how it went)
    REJECTED = 3


class RechargeState(IntEnum):
    """A device's state in an offline purchase (spec seed 001 section 4)."""

    NOT_RECHARGED = 0  # the purchase awaits review (or was rejected)
    RECHARGED = 1
    FAILED = 2  # approved, but the device could not get it (see its reason)


class RowProblem(IntEnum):
    """Why a GUID of an offline purchase cannot be recharged (its row of the check)."""

    UNKNOWN = 1  # no such device
    NOT_THE_CUSTOMERS = 2  # the device is not the customer's
    LEVEL_NOT_OFFERED = 3  # the level or its service time is not offered for the device's type
    DUPLICATE = 4  # listed twice
    INVALID = 5  # not a GUID at all


ROW_PROBLEMS = {RowProblem.UNKNOWN: N_("No device has this GUID"),
                RowProblem.NOT_THE_CUSTOMERS: N_("The device is not the customer's"),
                RowProblem.LEVEL_NOT_OFFERED: N_("The level or its service time is not offered for this device's type"),
                RowProblem.DUPLICATE: N_("Listed twice"), RowProblem.INVALID: N_("Not a device GUID")}
FAILURE_REASONS = {"deleted": N_("The device was deleted before the approval"),
                   "levelRefused": N_("The device's service cannot take this level now (lifelong, or the level is "
                                      "no longer offered)")}


@dataclass(frozen=True)
class OfflineContent:
    """What each device of the purchase gets: a level's service time, SMS and voice counts, or both."""

    level_id: int | None = None
    level_year_id: int | None = None
    months: int = 0
    sms_count: int = 0
    voice_count: int = 0
    country_code: str | None = None  # of the SMS and voice counts


@dataclass(frozen=True)
class OfflineDevice:
    guid: str
    device_id: int | None  # None: deleted since
    device_name: str | None = None
    state: RechargeState = RechargeState.NOT_RECHARGED
    reason: str | None = None  # a FAILURE_REASONS key
    expires_before: datetime | None = None
    expires_after: datetime | None = None

    @property
    def stored_device_id(self) -> int:
        """The device's id, which every device of a purchase has when it is recorded."""
        assert self.device_id is not None
        return self.device_id


@dataclass(frozen=True)
class Candidate:
    """A device as an offline purchase checks it."""

    device_id: int
    guid: str
    name: str
    type_id: int
    owner_account_id: int


@dataclass(frozen=True)
class Customer:
    account_id: int
    user_name: str


@dataclass(frozen=True)
class OfflinePurchase(Stored):
    id: int | None
    customer: Customer
    content: OfflineContent
    amount_cents: int  # what the contract or transfer paid, in `currency`
    currency: str
    pay_type: PayType
    remark: str
    status: OfflineStatus
    created_by: int
    created_at: datetime
    devices: tuple[OfflineDevice, ...] = ()
    device_count: int = 0
    recharged_count: int = 0
    failed_count: int = 0
    reviewed_by: int | None = None
    reviewed_at: datetime | None = None
    review_note: str | None = None
    order_id: int | None = None  # the paid order approval recorded
    creator_name: str | None = None  # read back with it
    reviewer_name: str | None = None


@dataclass(frozen=True)
class OfflineFilter:
    status: OfflineStatus | None = None
    customer: str | None = None  # part of the customer's user name
    guid: str | None = None  # part of a device's GUID
