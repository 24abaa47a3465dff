"""The Mosquitto set-up of production (and of `make run`'s private broker), written from the
console's data by `coldchain mqtt-config`.

Two listeners, one set of logins and ACLs, held by the dynamic-security plugin (dynsec.py):

- the devices' listener. Each device logs in with its GUID and its own password, and may publish
  only its own telemetry, status and command answers and read only its own commands. Everything a
  device names lives under the mount point `fleet/` on the broker, and the listener gives each
  device its user name as client id, so no device can connect under another client's id and take
  over its session (the plugin also ties each device's login to that id on any listener);
- the ingest listener, on an address devices do not reach (127.0.0.1 by default), where the
  ingest workers (user `ingest`) read every device's telemetry, status and answers, directly or
  through the shared subscription, and where the console (user `broker-admin`) changes the
  running broker's logins as devices are added, given new passwords or deleted.

`mosquitto.conf` adds persistence and queue limits sized for workers that acknowledge only after
their batch commits, and refuses a packet larger than the ingest takes. The plugin reads
`dynamic-security.json` when the broker starts and rewrites it itself on every change: write it
while the broker is stopped (e.g. `ExecStartPre=`), never while it runs.
"""

from __future__ import annotations

import glob
import grp
import json
import os
import shutil
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from adapters.mosquitto.dynsec import DEVICE_MOUNT_POINT, dynamic_security_config
from core.devices.credentials import BrokerAccounts
from core.telemetry.parsing import MAX_PAYLOAD_BYTES

__all__ = ["DEVICE_MOUNT_POINT", "BrokerLayout", "find_mosquitto", "mosquitto_conf", "write_broker_config"]

SHARE_GROUP = "ingest"
BROKER_GROUP = "mosquitto"  # Mosquitto drops root for this user and group, then reads the files
DYNSEC_FILE = "dynamic-security.json"
# Where Debian and a source build put the plugin.
PLUGIN_PLACES = ("/usr/lib/*/mosquitto_dynamic_security.so", "/usr/lib/mosquitto_dynamic_security.so",
                 "/usr/local/lib/mosquitto_dynamic_security.so")
DEFAULT_PLUGIN = Path("/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so")


@dataclass(frozen=True)
class MosquittoInstall:
    binary: Path
    plugin: Path


def find_mosquitto() -> MosquittoInstall | None:
    """The machine's Mosquitto broker and its dynamic-security plugin, if both are there."""
    binary = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.access(p, os.X_OK)), None)
    plugin = next((p for pattern in PLUGIN_PLACES for p in sorted(glob.glob(pattern))), None)
    return MosquittoInstall(Path(binary), Path(plugin)) if binary and plugin else None


@dataclass(frozen=True)
class BrokerLayout:
    """Where the files will live on the broker host, and how it listens."""

    config_dir: Path
    persistence_dir: Path = Path("/var/lib/mosquitto")
    port: int = 1883
    bind: str = "0.0.0.0"
    ingest_port: int = 1884
    ingest_bind: str = "127.0.0.1"
    plugin: Path = DEFAULT_PLUGIN
    user: str | None = None  # who Mosquitto runs as when started by root (default: mosquitto)
    log_file: Path | None = None  # default: Mosquitto's own (syslog or stderr)
    pid_file: Path | None = None


MAX_PACKET_BYTES = MAX_PAYLOAD_BYTES + 4096


def mosquitto_conf(layout: BrokerLayout, mount_point: str = DEVICE_MOUNT_POINT) -> str:
    config_dir, data_dir = layout.config_dir, layout.persistence_dir
    run_as = f"user {layout.user}\n" if layout.user else ""
    logging = f"log_dest file {layout.log_file}\n" if layout.log_file else ""
    pid = f"pid_file {layout.pid_file}\n" if layout.pid_file else ""
    return f"""# Mosquitto 2 configuration of the cold-chain console, written by `coldchain mqtt-config`.
# The console changes the logins of the running broker itself (devices added, passwords rotated,
# devices deleted); write these files again only while the broker is stopped.
{run_as}{logging}{pid}
# One set of logins and ACLs for both listeners, held by the dynamic-security plugin, which reads
# {DYNSEC_FILE} at start and rewrites it on every change (its directory must be writable by
# the broker's user). Each device may act only on its own topics and connect only under its own
# client id, on whichever listener it reaches.
per_listener_settings false
allow_anonymous false
plugin {layout.plugin}
plugin_opt_config_file {config_dir / DYNSEC_FILE}

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

# Devices (MQTT v5, 3.1.1 and 3.1). All their topics live under {mount_point} on the broker;
# their client id is their user name (the GUID), whatever they ask for.
listener {layout.port} {layout.bind}
protocol mqtt
mount_point {mount_point}
use_username_as_clientid true

# The console's ingest workers and its own login, on an address the devices do not reach.
listener {layout.ingest_port} {layout.ingest_bind}
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


def write_broker_config(out_dir: Path, accounts: BrokerAccounts, layout: BrokerLayout) -> list[Path]:
    """Write mosquitto.conf and the plugin's logins and ACLs into `out_dir`; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = [(out_dir / DYNSEC_FILE, json.dumps(dynamic_security_config(accounts), indent=1), 0o660),
             (out_dir / "mosquitto.conf", mosquitto_conf(layout), 0o644)]
    for path, content, mode in files:
        _write(path, content, mode)
    return [path for path, _, _ in files]
