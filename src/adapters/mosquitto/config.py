"""The Mosquitto set-up of production, written from the console's data by `coldchain mqtt-config`.

Two listeners, each with its own logins and ACL (`per_listener_settings`):

- the devices' listener. Each device logs in with its GUID and may publish only its own telemetry,
  status and command answers and read only its own commands (`devices.passwd`, `devices.acl`:
  patterns on %u, so adding a device never changes the ACL). Everything a device names lives under
  the mount point `fleet/` on the broker, so a device cannot reach a topic outside it: a
  subscription to the workers' `$share/ingest/...` becomes the ordinary filter
  `fleet/$share/ingest/...`, which matches nothing and takes no share of the workers' load.
  Mosquitto 2.0's acl_file cannot refuse a SUBSCRIBE (it checks only what is delivered), and
  the dynamic-security plugin, which can, neither expands %u nor rereads its file on a reload.
  The broker gives each device its user name as client id, so no device can connect under
  another client's id and take over its session;
- the ingest listener, on an address devices do not reach (127.0.0.1 by default), where only the
  ingest workers' account logs in (`ingest.passwd`, `ingest.acl`): it reads every device's
  telemetry, status and answers, directly or through the shared subscription.

`mosquitto.conf` adds persistence and queue limits sized for workers that acknowledge only after
their batch commits, and refuses a packet larger than the ingest takes. Every file is reread on a
reload (SIGHUP).
"""

from __future__ import annotations

import grp
import os
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from core.devices.credentials import BrokerAccounts
from core.devices.ports import BrokerAccount
from core.telemetry.parsing import MAX_PAYLOAD_BYTES

SHARE_GROUP = "ingest"
BROKER_GROUP = "mosquitto"  # Mosquitto drops root for this user and group, then reads the files
DEVICE_MOUNT_POINT = "fleet/"  # where the devices' topics sit on the broker, as the workers see them


@dataclass(frozen=True)
class BrokerLayout:
    """Where the files will live on the broker host, and how it listens."""

    config_dir: Path
    persistence_dir: Path = Path("/var/lib/mosquitto")
    port: int = 1883
    bind: str = "0.0.0.0"
    ingest_port: int = 1884
    ingest_bind: str = "127.0.0.1"


def password_file(accounts: Iterable[BrokerAccount]) -> str:
    lines = []
    for account in accounts:
        if ":" in account.username or "\n" in account.username:
            raise ValueError(f"a broker user name may not contain ':' or a line break: {account.username!r}")
        lines.append(f"{account.username}:{account.password_hash}\n")
    return "".join(lines)


def devices_acl(mount_point: str = DEVICE_MOUNT_POINT) -> str:
    return f"""# Written by `coldchain mqtt-config`; regenerate rather than edit.

# Every device logs in with its GUID as user name (%u). It names its topics without the mount
# point (devices/<GUID>/telemetry), which the broker puts in front, so the rules carry it too.
# It may publish its own telemetry, its status (its last will included) and its answers to
# commands, and read its own commands. Nothing else, so one device can neither pose as another
# nor read another's data.
pattern write {mount_point}devices/%u/telemetry
pattern write {mount_point}devices/%u/status
pattern write {mount_point}devices/%u/acks
pattern read {mount_point}devices/%u/commands
"""


def ingest_acl(accounts: Iterable[BrokerAccount], mount_point: str = DEVICE_MOUNT_POINT) -> str:
    rules = "".join(f"""
user {account.username}
topic read {mount_point}devices/+/telemetry
topic read {mount_point}devices/+/status
topic read {mount_point}devices/+/acks
""" for account in accounts)
    return f"""# Written by `coldchain mqtt-config`; regenerate rather than edit.

# The ingest workers read every device's telemetry, status and answers, directly or through the
# shared subscription $share/{SHARE_GROUP}/{mount_point}devices/+/... that splits the load between them
# (what a client may read is checked on each message delivered, by its topic).
{rules}"""


MAX_PACKET_BYTES = MAX_PAYLOAD_BYTES + 4096


def mosquitto_conf(layout: BrokerLayout, mount_point: str = DEVICE_MOUNT_POINT) -> str:
    config_dir, data_dir = layout.config_dir, layout.persistence_dir
    return f"""# Mosquitto 2 configuration of the cold-chain console, written by `coldchain mqtt-config`.
# Reload after new files (devices added, passwords rotated): kill -HUP <pid> or
# `systemctl reload mosquitto`; connected clients stay connected.

# Each listener has its own logins and ACL: devices never log in where the ingest workers do.
per_listener_settings true

# Messages a worker has not acknowledged survive a broker restart.
persistence true
persistence_location {data_dir}/
autosave_interval 60

# Ingest workers acknowledge QoS 1 messages only once their batch is committed, and keep a
# persistent session: let the broker queue plenty for a worker that is busy or restarting,
# and put no cap of its own on the messages in flight to a client (an MQTT v5 client states its
# own limit, Receive Maximum, when it connects).
max_queued_messages 100000
max_inflight_messages 0
# A packet larger than the biggest message the ingest takes (its payload, with room for the topic
# and headers) disconnects its sender, so it never reaches a worker's memory or the queues.
max_packet_size {MAX_PACKET_BYTES}
# A session nobody resumes within a week is dropped with its queue.
persistent_client_expiration 7d
set_tcp_nodelay true

# Devices (MQTT v5, 3.1.1 and 3.1). All their topics live under {mount_point} on the broker, so no
# subscription of theirs reaches the workers' shared subscription or anything else outside it;
# their client id is their user name (the GUID), so none can take over another client's session.
listener {layout.port} {layout.bind}
protocol mqtt
mount_point {mount_point}
use_username_as_clientid true
allow_anonymous false
password_file {config_dir / "devices.passwd"}
acl_file {config_dir / "devices.acl"}

# The console's ingest workers, on an address the devices do not reach.
listener {layout.ingest_port} {layout.ingest_bind}
protocol mqtt
allow_anonymous false
password_file {config_dir / "ingest.passwd"}
acl_file {config_dir / "ingest.acl"}
"""


def _write(path: Path, content: str, mode: int) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(content)
    temporary.chmod(mode)
    if os.geteuid() == 0:
        with suppress(KeyError):  # root writes, the broker's group reads; nobody else sees the hashes
            os.chown(temporary, -1, grp.getgrnam(BROKER_GROUP).gr_gid)
    temporary.replace(path)


def write_broker_config(out_dir: Path, accounts: BrokerAccounts, layout: BrokerLayout) -> list[Path]:
    """Write both listeners' password files and ACLs, and mosquitto.conf, into `out_dir`; returns
    their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = [(out_dir / "devices.passwd", password_file(accounts.devices), 0o640),
             (out_dir / "devices.acl", devices_acl(), 0o640),
             (out_dir / "ingest.passwd", password_file(accounts.ingest), 0o640),
             (out_dir / "ingest.acl", ingest_acl(accounts.ingest), 0o640),
             (out_dir / "mosquitto.conf", mosquitto_conf(layout), 0o644)]
    for path, content, mode in files:
        _write(path, content, mode)
    return [path for path, _, _ in files]
