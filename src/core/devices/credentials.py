"""Each device logs in to the MQTT broker as itself: the user name is its GUID and the password
a random secret shown once, when issued or rotated. Only a hash in the broker's own format is
kept, so the broker's password file is written from the table (`coldchain mqtt-config`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from core.devices.access import Access, accessible
from core.devices.ports import BrokerAccount, BrokerCredential, BrokerPasswordHasher, DevicesUnitOfWork
from core.devices.rules import guid_problem
from core.shared.clock import Clock
from core.shared.errors import Forbidden, NotFound
from core.shared.messages import N_

OWNER_ONLY = N_("Only the owner of the device may do this")
INGEST_USERNAME = "ingest"  # the ingest workers' login, known only to their own listener


def claimable_by_a_device(client_id: str) -> bool:
    """Whether a device could connect under this MQTT client id: the broker gives each device its
    GUID as client id, so an ingest worker's id must be something no GUID can be."""
    return guid_problem(client_id) is None


def new_password() -> str:
    """24 URL-safe characters (144 random bits): safe to type into a device's set-up page."""
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class BrokerLogin:
    """Credentials in clear, returned once and never stored."""

    username: str
    password: str


def issue_credentials(uow: DevicesUnitOfWork, hasher: BrokerPasswordHasher, device_id: int, guid: str, clock: Clock,
                      generate: Callable[[], str] = new_password) -> BrokerLogin:
    """Give a device a new password inside the caller's unit of work."""
    password = generate()
    uow.broker_credentials.save(device_id, guid, hasher.hash(password), clock.now())
    return BrokerLogin(guid, password)


class RotateBrokerCredentials:
    """A new password for the device's broker login; the old one stops working once the broker
    reloads its password file. Only the owner may do it."""

    def __init__(self, uow: DevicesUnitOfWork, hasher: BrokerPasswordHasher, clock: Clock,
                 generate: Callable[[], str] = new_password) -> None:
        self._uow, self._hasher, self._clock, self._generate = uow, hasher, clock, generate

    def __call__(self, account_id: int, device_id: int) -> BrokerLogin:
        with self._uow as uow:
            device = accessible(uow.device_registry.visible(account_id, device_id), Access.WRITE)
            if not device.owned_by(account_id):
                raise Forbidden(OWNER_ONLY)
            login = issue_credentials(uow, self._hasher, device.id, device.guid, self._clock, self._generate)
            uow.commit()
        return login


class GetBrokerCredential:
    """The device's broker user name and when its password was issued; never the password."""

    def __init__(self, uow: DevicesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_id: int) -> BrokerCredential | None:
        with self._uow as uow:
            if uow.device_registry.visible(account_id, device_id) is None:
                raise NotFound()
            return uow.broker_credentials.of_device(device_id)


@dataclass(frozen=True)
class BrokerAccounts:
    """The broker's logins, by the listener they belong to: devices never log in where the ingest
    workers do."""

    devices: list[BrokerAccount]
    ingest: list[BrokerAccount]


class ListBrokerAccounts:
    """Every device's login for the broker's password files, and the ingest workers' one."""

    def __init__(self, uow: DevicesUnitOfWork, hasher: BrokerPasswordHasher) -> None:
        self._uow, self._hasher = uow, hasher

    def __call__(self, ingest_password: str) -> BrokerAccounts:
        with self._uow as uow:
            devices = uow.broker_credentials.accounts()
        return BrokerAccounts(devices, [BrokerAccount(INGEST_USERNAME, self._hasher.hash(ingest_password))])
