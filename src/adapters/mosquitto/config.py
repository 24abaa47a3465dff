"""The Mosquitto set-up of production, written from the console's data by `coldchain mqtt-config`.

- `passwd`: one `username:hash` line per device (its GUID) plus the ingest workers' `ingest`;
- `acl`: a device may publish only its own telemetry and status and read only its own commands
  (patterns on %u, the user name, so adding a device never changes this file); `ingest` may
  read every device's telemetry and status, directly or through the shared subscription;
- `mosquitto.conf`: one listener, no anonymous access, both files above, persistence, and
  queue limits sized for ingest workers that acknowledge only after their batch commits.
"""

from __future__ import annotations

import grp
import os
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from core.devices.credentials import INGEST_USERNAME
from core.devices.ports import BrokerAccount

SHARE_GROUP = "ingest"
BROKER_GROUP = "mosquitto"  # Mosquitto drops root for this user and group, then reads the files


@dataclass(frozen=True)
class BrokerLayout:
    """Where the files will live on the broker host, and how it listens."""

    config_dir: Path
    persistence_dir: Path = Path("/var/lib/mosquitto")
    port: int = 1883
    bind: str = "0.0.0.0"


def password_file(accounts: Iterable[BrokerAccount]) -> str:
    lines = []
    for account in accounts:
        if ":" in account.username or "\n" in account.username:
            raise ValueError(f"a broker user name may not contain ':' or a line break: {account.username!r}")
        lines.append(f"{account.username}:{account.password_hash}\n")
    return "".join(lines)


def acl_file(ingest_username: str = INGEST_USERNAME, share_group: str = SHARE_GROUP) -> str:
    return f"""# Written by `coldchain mqtt-config`; regenerate rather than edit.

# Every device logs in with its GUID as user name (%u): it may publish its own telemetry and
# status (its last will included) and read its own commands. Nothing else, so one device can
# neither pose as another nor read another's data.
pattern write devices/%u/telemetry
pattern write devices/%u/status
pattern read devices/%u/commands

# The ingest workers read every device's telemetry and status, directly or through the shared
# subscription that splits the load between them.
user {ingest_username}
topic read devices/+/telemetry
topic read devices/+/status
topic read $share/{share_group}/devices/+/telemetry
topic read $share/{share_group}/devices/+/status
"""


def mosquitto_conf(layout: BrokerLayout) -> str:
    config_dir, data_dir = layout.config_dir, layout.persistence_dir
    return f"""# Mosquitto 2 configuration of the cold-chain console, written by `coldchain mqtt-config`.
# Reload after a new passwd (devices added, passwords rotated): kill -HUP <pid> or
# `systemctl reload mosquitto`; connected clients stay connected.

per_listener_settings false
allow_anonymous false
password_file {config_dir / "passwd"}
acl_file {config_dir / "acl"}

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
# A session nobody resumes within a week is dropped with its queue.
persistent_client_expiration 7d
set_tcp_nodelay true

# MQTT v5, 3.1.1 and 3.1 clients on one listener.
listener {layout.port} {layout.bind}
protocol mqtt
"""


def _write(path: Path, content: str, mode: int) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(content)
    temporary.chmod(mode)
    if os.geteuid() == 0:
        with suppress(KeyError):  # root writes, the broker's group reads; nobody else sees the hashes
            os.chown(temporary, -1, grp.getgrnam(BROKER_GROUP).gr_gid)
    temporary.replace(path)


def write_broker_config(out_dir: Path, accounts: Iterable[BrokerAccount], layout: BrokerLayout) -> list[Path]:
    """Write passwd, acl and mosquitto.conf into `out_dir`; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = [(out_dir / "passwd", password_file(accounts), 0o640), (out_dir / "acl", acl_file(), 0o640),
             (out_dir / "mosquitto.conf", mosquitto_conf(layout), 0o644)]
    for path, content, mode in files:
        _write(path, content, mode)
    return [path for path, _, _ in files]
