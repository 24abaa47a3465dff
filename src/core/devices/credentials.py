"""Each device logs in to the MQTT broker as itself: the user name is its GUID and the password
a random secret shown once, when issued or rotated. Only a hash in the broker's own format is
kept, so the broker's logins are written from the table when it starts (`coldchain mqtt-config`),
and the running broker is told of each change once it has committed (BrokerAccess)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from core.devices.access import OWNER_ONLY, Access, accessible
from core.devices.events import DeviceEvent, DeviceEventKind
from core.devices.grants import Element, permitted
from core.devices.ports import (
    BrokerAccess,
    BrokerAccount,
    BrokerCredential,
    BrokerGrant,
    BrokerPasswordHasher,
    DevicesUnitOfWork,
)
from core.devices.rules import guid_problem
from core.shared.clock import Clock
from core.shared.errors import Forbidden

# The ingest workers' login and the console's own (which changes the running broker's logins):
# names no device can have, as a GUID is 8 to 32 letters and digits.
INGEST_USERNAME = "ingest"
ADMIN_USERNAME = "broker-admin"


def claimable_by_a_device(client_id: str) -> bool:
    """Whether a device could connect under this MQTT client id: the broker gives each device its
    GUID as client id, so an ingest worker's id must be something no GUID can be."""
    return guid_problem(client_id) is None


def new_password() -> str:
    """24 URL-safe characters (144 random bits): safe to type into a device's set-up page. Never
    one that starts with "-": a spreadsheet opening the batch add's CSV of logins would read it
    as a formula, and a shell as an option."""
    while (password := secrets.token_urlsafe(18)).startswith("-"):
        pass
    return password


@dataclass(frozen=True)
class BrokerLogin:
    """Credentials in clear, returned once and never stored."""

    username: str
    password: str


def issue_credentials(uow: DevicesUnitOfWork, hasher: BrokerPasswordHasher, device_id: int, guid: str,
                      clock: Clock, generate: Callable[[], str] = new_password) -> BrokerGrant:
    """Give a device a new password inside the caller's unit of work; hand the grant to
    BrokerAccess once the unit of work has committed."""
    password = generate()
    password_hash = hasher.hash(password)
    uow.broker_credentials.save(device_id, guid, password_hash, clock.now())
    return BrokerGrant(guid, password, password_hash)


def login_of(grant: BrokerGrant) -> BrokerLogin:
    return BrokerLogin(grant.username, grant.password)


class RotateBrokerCredentials:
    """A new password for the device's broker login: the broker takes it, and refuses the old one
    (closing a connection made with it), as soon as it is committed. Only the owner may do it."""

    def __init__(self, uow: DevicesUnitOfWork, hasher: BrokerPasswordHasher, clock: Clock, broker: BrokerAccess,
                 generate: Callable[[], str] = new_password) -> None:
        self._uow, self._hasher, self._clock, self._generate = uow, hasher, clock, generate
        self._broker = broker

    def __call__(self, account_id: int, device_id: int) -> BrokerLogin:
        with self._uow as uow:
            device = accessible(uow.device_registry.visible(account_id, device_id), Access.WRITE)
            if not device.owned_by(account_id):
                raise Forbidden(OWNER_ONLY)
            grant = issue_credentials(uow, self._hasher, device.id, device.guid, self._clock, self._generate)
            uow.device_events.record(DeviceEvent(device.id, device.guid, account_id,
                                                 DeviceEventKind.CREDENTIALS_ROTATED, self._clock.now()))
            uow.commit()
        self._broker.grant([grant])
        return login_of(grant)


class GetBrokerCredential:
    """The device's broker user name and when its password was issued; never the password."""

    def __init__(self, uow: DevicesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_id: int) -> BrokerCredential | None:
        with self._uow as uow:
            permitted(uow.device_registry.visible(account_id, device_id), Element.INFO)
            return uow.broker_credentials.of_device(device_id)


@dataclass(frozen=True)
class BrokerAccounts:
    """The broker's logins, by the listener they belong to: devices never log in where the ingest
    workers do."""

    devices: list[BrokerAccount]
    ingest: list[BrokerAccount]
    admin: list[BrokerAccount] = field(default_factory=list)


class ListBrokerAccounts:
    """Every device's login for the broker's logins, the ingest workers' one, and the console's
    own, with which it changes the running broker's logins."""

    def __init__(self, uow: DevicesUnitOfWork, hasher: BrokerPasswordHasher) -> None:
        self._uow, self._hasher = uow, hasher

    def __call__(self, ingest_password: str | None, admin_password: str | None = None) -> BrokerAccounts:
        """The service logins whose password is given (a password hashed anew each time)."""
        with self._uow as uow:
            devices = uow.broker_credentials.accounts()

        def service(username: str, password: str | None) -> list[BrokerAccount]:
            return [BrokerAccount(username, self._hasher.hash(password))] if password else []

        return BrokerAccounts(devices, service(INGEST_USERNAME, ingest_password),
                              service(ADMIN_USERNAME, admin_password))
