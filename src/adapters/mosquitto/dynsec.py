"""Mosquitto's dynamic-security plugin: the broker's logins and ACLs, as the console keeps them.

Two halves, one for each moment:

- at the broker's start, `dynamic_security_config` writes the plugin's JSON file from the
  database. The plugin stores each password exactly as the console keeps it (PBKDF2-SHA512:
  `password` and `salt` in base64, `iterations`; see passwords.py), so no password in clear is
  needed. The plugin reads this file only when the broker starts (not on a reload) and rewrites it
  from memory on every change, so it is written while the broker is stopped;
- while the broker runs, `DynsecBrokerAccess` sends `createClient`, `setClientPassword`,
  `disableClient`/`enableClient` (a scrapped or restored device) and `deleteClient` over
  `$CONTROL/dynamic-security/v1` as the console's own login: the device can connect at once, a
  new password closes the connections made with the old one, and a deleted or scrapped device is
  disconnected (a scrapped one keeps its password, refused until it is restored). These commands
  take the password in clear, which the console has only at the moment it issues one; a change
  the broker missed (it was down) is put right by the next start, and `coldchain mqtt-sync` says
  which are waiting for it (and disables or enables the logins of devices scrapped or restored
  meanwhile).

Checked against Mosquitto 2.0.11 (Debian): its plugin does not expand %u or %c in ACLs, so each
device has a role of its own naming its GUID; a subscription is checked as written, so the workers'
shared subscriptions are allowed by their `$share/+/...` form; ACL topics carry the devices'
listener's mount point, which the broker puts in front of everything a device names.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from adapters.messaging.short_connection import BrokerLogin, ConnectionFailed, short_connection
from core.devices.credentials import ADMIN_USERNAME, INGEST_USERNAME, BrokerAccounts
from core.devices.ports import BrokerAccount, BrokerGrant

log = logging.getLogger("coldchain.broker")

DEVICE_MOUNT_POINT = "fleet/"  # where the devices' topics sit on the broker, as the workers see them
CONTROL_TOPIC = "$CONTROL/dynamic-security/v1"
DEVICE_ROLE_PREFIX = "device-"
INGEST_ROLE = "coldchain-ingest"
ADMIN_ROLE = "coldchain-admin"
DEVICE_PUBLISHES = ("telemetry", "status", "acks")
DEVICE_READS = "commands"
SERVICE_USERNAMES = frozenset({INGEST_USERNAME, ADMIN_USERNAME})


def device_role(username: str) -> str:
    return f"{DEVICE_ROLE_PREFIX}{username}"


def _acl(acltype: str, topic: str) -> dict:
    return {"acltype": acltype, "topic": topic, "allow": True}


def device_acls(username: str, mount_point: str = DEVICE_MOUNT_POINT) -> list[dict]:
    """What one device may do: publish its own telemetry, status (its last will included) and
    answers to commands, and read its own commands. Nothing else, so no device can pose as another
    or read another's data."""
    own = f"{mount_point}devices/{username}"
    return [*(_acl("publishClientSend", f"{own}/{leaf}") for leaf in DEVICE_PUBLISHES),
            _acl("subscribePattern", f"{own}/{DEVICE_READS}"), _acl("publishClientReceive", f"{own}/{DEVICE_READS}")]


def ingest_acls(mount_point: str = DEVICE_MOUNT_POINT) -> list[dict]:
    """The workers read every device's telemetry, status and answers, directly or through a shared
    subscription (checked as written, hence the `$share/+/` forms); the console, with the same
    login, sends devices their commands (MqttCommandChannel)."""
    acls = [_acl("publishClientSend", f"{mount_point}devices/+/{DEVICE_READS}")]
    for leaf in DEVICE_PUBLISHES:
        topic = f"{mount_point}devices/+/{leaf}"
        acls += [_acl("subscribePattern", topic), _acl("subscribePattern", f"$share/+/{topic}"),
                 _acl("publishClientReceive", topic)]
    return acls


def admin_acls() -> list[dict]:
    control = "$CONTROL/dynamic-security/#"
    return [_acl("publishClientSend", control), _acl("publishClientReceive", control),
            _acl("subscribePattern", control)]


def fingerprint(password_hash: str) -> str:
    """Kept as the client's text name, so `coldchain mqtt-sync` can tell a login the broker holds
    from the one the database holds without either side showing a hash."""
    return hashlib.sha256(password_hash.encode()).hexdigest()[:16]


def _stored_password(password_hash: str) -> dict:
    """`$7$<iterations>$<salt>$<hash>` as the plugin's JSON keeps it."""
    try:
        _, version, iterations, salt, digest = password_hash.split("$")
        base64.b64decode(salt, validate=True), base64.b64decode(digest, validate=True)
        rounds = int(iterations)
    except ValueError:
        raise ValueError("not a Mosquitto $7$ password hash") from None
    if version != "7":
        raise ValueError(f"Mosquitto's plugin reads only $7$ (PBKDF2-SHA512) hashes, not ${version}$")
    return {"password": digest, "salt": salt, "iterations": rounds}


def _client(account: BrokerAccount, role: str, clientid: str | None = None) -> dict:
    client = {"username": account.username, "textName": fingerprint(account.password_hash),
              **_stored_password(account.password_hash), "roles": [{"rolename": role}]}
    if clientid is not None:
        client["clientid"] = clientid
    if account.disabled:
        client["disabled"] = True
    return client


def dynamic_security_config(accounts: BrokerAccounts, mount_point: str = DEVICE_MOUNT_POINT) -> dict:
    """The plugin's whole configuration. Each device must connect with its GUID as client id (the
    devices' listener gives it that id whatever it asks for), so no device can take over another
    client's session on any listener. Anything not granted is refused, reading included."""
    devices = [a for a in accounts.devices if a.username not in SERVICE_USERNAMES]
    clients = [_client(a, device_role(a.username), clientid=a.username) for a in devices]
    clients += [_client(a, INGEST_ROLE) for a in accounts.ingest]
    clients += [_client(a, ADMIN_ROLE) for a in accounts.admin]
    roles = [{"rolename": device_role(a.username), "acls": device_acls(a.username, mount_point)} for a in devices]
    roles += [{"rolename": INGEST_ROLE, "acls": ingest_acls(mount_point)},
              {"rolename": ADMIN_ROLE, "acls": admin_acls()}]
    return {"defaultACLAccess": {"publishClientSend": False, "publishClientReceive": False, "subscribe": False,
                                 "unsubscribe": True},
            "clients": clients, "groups": [], "roles": roles}


class BrokerUnreachable(Exception):
    pass


@dataclass(frozen=True)
class Convergence:
    """What `converge` did and could not do."""

    revoked: list[str]  # logins the broker held for devices that are gone: now refused
    stale: list[str]  # devices whose current password the broker lacks (it missed a grant)


class DynsecBrokerAccess:
    """BrokerAccess through the plugin's control topic, as the console's admin login. One short
    connection per change: devices change rarely, and nothing is held open between them."""

    def __init__(self, url: str, password: str, username: str = ADMIN_USERNAME,
                 mount_point: str = DEVICE_MOUNT_POINT, timeout_s: float = 5.0) -> None:
        self._login = BrokerLogin.of(url, username, password)
        self._mount_point, self._timeout = mount_point, timeout_s

    def grant(self, grants: Sequence[BrokerGrant]) -> None:
        if not grants:
            return
        try:
            existing = self._existing([g.username for g in grants])
            commands: list[dict] = []
            for grant in grants:
                commands += self._grant_commands(grant, grant.username in existing)
            self._check(self.send(commands))
        except BrokerUnreachable as error:
            log.warning("the broker did not take the new password of %s (%s): it takes it when it next starts "
                        "from the database (`coldchain mqtt-sync` lists what waits)",
                        ", ".join(g.username for g in grants), error)

    def revoke(self, usernames: Sequence[str]) -> None:
        if not usernames:
            return
        try:
            self._check(self.send(self._revoke_commands(usernames)), tolerate=("not found",))
        except BrokerUnreachable as error:
            log.warning("the broker still lets %s log in (%s): run `coldchain mqtt-sync` once it answers",
                        ", ".join(usernames), error)

    def disable(self, usernames: Sequence[str]) -> None:
        self._switch(usernames, "disableClient")

    def enable(self, usernames: Sequence[str]) -> None:
        self._switch(usernames, "enableClient")

    def _switch(self, usernames: Sequence[str], command: str) -> None:
        # disableClient also closes the client's connection; its password and role stay.
        if not usernames:
            return
        try:
            self._check(self.send([{"command": command, "username": name} for name in usernames]))
        except BrokerUnreachable as error:
            log.warning("the broker did not take %s of %s (%s): it does when it next starts from the database, "
                        "or at `coldchain mqtt-sync`", command, ", ".join(usernames), error)

    def converge(self, accounts: Sequence[BrokerAccount]) -> Convergence:
        """Refuse every device login the database no longer has, and say which devices' current
        passwords the broker lacks: those take effect when the broker next starts from a file
        written from the database. Raises BrokerUnreachable."""
        [listed] = self.send([{"command": "listClients", "verbose": True, "count": -1, "offset": 0}])
        self._check([listed])
        clients = [c for c in listed.get("data", {}).get("clients", []) if c["username"] not in SERVICE_USERNAMES]
        held = {c["username"]: c.get("textname") for c in clients}
        wanted = {a.username: fingerprint(a.password_hash) for a in accounts}
        gone = sorted(set(held) - set(wanted))
        if gone:
            self._check(self.send(self._revoke_commands(gone)), tolerate=("not found",))
        # scrapped devices' logins disabled, restored ones' enabled, where the broker missed it
        disabled = {a.username for a in accounts if a.disabled}
        switches = [{"command": "enableClient" if c["username"] not in disabled else "disableClient",
                     "username": c["username"]} for c in clients
                    if c["username"] in wanted and bool(c.get("disabled")) != (c["username"] in disabled)]
        if switches:
            self._check(self.send(switches))
        stale = sorted(name for name, print_ in wanted.items() if held.get(name) != print_)
        return Convergence(gone, stale)

    def _existing(self, usernames: Sequence[str]) -> set[str]:
        answers = self.send([{"command": "getClient", "username": name} for name in usernames])
        return {name for name, answer in zip(usernames, answers, strict=True) if "error" not in answer}

    def _grant_commands(self, grant: BrokerGrant, exists: bool) -> list[dict]:
        role = device_role(grant.username)
        if exists:
            # setClientPassword also closes the connections made with the old password.
            return [{"command": "setClientPassword", "username": grant.username, "password": grant.password},
                    {"command": "modifyClient", "username": grant.username,
                     "textname": fingerprint(grant.password_hash)}]
        return [{"command": "createRole", "rolename": role, "acls": device_acls(grant.username, self._mount_point)},
                {"command": "createClient", "username": grant.username, "password": grant.password,
                 "clientid": grant.username, "textname": fingerprint(grant.password_hash),
                 "roles": [{"rolename": role}]}]

    @staticmethod
    def _revoke_commands(usernames: Sequence[str]) -> list[dict]:
        # Deleting the client disconnects it; its role goes with it.
        return [command for name in usernames for command in (
            {"command": "deleteClient", "username": name}, {"command": "deleteRole", "rolename": device_role(name)})]

    @staticmethod
    def _check(answers: list[dict], tolerate: tuple[str, ...] = ("already exists",)) -> None:
        errors = [f"{a.get('command')}: {a['error']}" for a in answers
                  if "error" in a and not any(t in a["error"].lower() for t in tolerate)]
        if errors:
            raise BrokerUnreachable("; ".join(errors))

    def send(self, commands: list[dict]) -> list[dict]:
        """The plugin's answers, one per command, in order. Raises BrokerUnreachable."""
        answered = threading.Event()
        state: dict = {}

        def on_subscribe(client, _u, _mid, reason_codes, _props) -> None:
            if any(code.is_failure for code in reason_codes):
                state["refused"] = "the control topic's answers are not readable by this login"
                answered.set()
                return
            client.publish(CONTROL_TOPIC, json.dumps({"commands": commands}), qos=1)

        def on_message(_c, _u, message) -> None:
            state["answers"] = json.loads(message.payload).get("responses", [])
            answered.set()

        try:
            with short_connection(self._login, "coldchain-control", self._timeout) as client:
                client.on_subscribe, client.on_message = on_subscribe, on_message
                client.subscribe(f"{CONTROL_TOPIC}/response", qos=1)
                if not answered.wait(self._timeout):
                    raise BrokerUnreachable(f"no answer on {CONTROL_TOPIC}/response (is the dynamic-security "
                                            "plugin loaded?)")
        except ConnectionFailed as error:
            raise BrokerUnreachable(str(error)) from None
        if "refused" in state:
            raise BrokerUnreachable(state["refused"])
        answers = state["answers"]
        if len(answers) != len(commands):
            raise BrokerUnreachable(f"{len(answers)} answers to {len(commands)} commands")
        return answers


class NoBrokerAccess:
    """Where no broker holds the devices' logins: the development fallback broker (amqtt), which
    checks none, or a broker the console does not manage."""

    def grant(self, grants: Sequence[BrokerGrant]) -> None:
        pass

    def revoke(self, usernames: Sequence[str]) -> None:
        pass

    def disable(self, usernames: Sequence[str]) -> None:
        pass

    def enable(self, usernames: Sequence[str]) -> None:
        pass
