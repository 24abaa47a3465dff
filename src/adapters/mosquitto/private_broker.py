"""`make run`'s broker: the machine's Mosquitto, started by `coldchain serve` as a process of its
own with production's set-up (config.py) on ports and files of its own under var/mosquitto/, so
a Mosquitto the machine already runs (on 1883) is neither used nor disturbed."""

from __future__ import annotations

import getpass
import logging
import os
import signal
import subprocess
import time
from pathlib import Path

from adapters.messaging.embedded_broker import broker_answers
from adapters.mosquitto.config import BrokerLayout, MosquittoInstall, write_broker_config
from core.devices.credentials import BrokerAccounts

log = logging.getLogger("coldchain.broker")


class PrivateMosquitto:
    def __init__(self, install: MosquittoInstall, root: Path, device_port: int, ingest_port: int,
                 bind: str = "127.0.0.1") -> None:
        self.install, self.root = install, root
        self.device_port, self.ingest_port, self.bind = device_port, ingest_port, bind
        self._process: subprocess.Popen | None = None

    @property
    def log_file(self) -> Path:
        return self.root / "mosquitto.log"

    def start(self, accounts: BrokerAccounts, timeout: float = 10.0) -> None:
        """Write its logins from the database (every start: what the database says is what the
        broker knows) and start it; returns once both listeners answer."""
        data = self.root / "data"
        data.mkdir(parents=True, exist_ok=True)
        _stop_left_over(self.root / "mosquitto.pid", self.install.binary)
        # Started by root, Mosquitto would drop to the `mosquitto` user, which cannot write the
        # plugin's file under the developer's var/: it runs as whoever runs the console.
        layout = BrokerLayout(self.root, data, self.device_port, self.bind, self.ingest_port, self.bind,
                              plugin=self.install.plugin, user=getpass.getuser(), log_file=self.log_file,
                              pid_file=self.root / "mosquitto.pid")
        write_broker_config(self.root, accounts, layout)
        self._process = subprocess.Popen([str(self.install.binary), "-c", str(self.root / "mosquitto.conf")],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + timeout
        for port in (self.device_port, self.ingest_port):
            while not broker_answers(self.bind, port, timeout=0.2):
                if self._process.poll() is not None:
                    error = self._process.stderr.read().decode(errors="replace") if self._process.stderr else ""
                    raise RuntimeError(f"Mosquitto stopped at start ({error.strip() or 'see ' + str(self.log_file)})")
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"Mosquitto did not listen on {self.bind}:{port} (see {self.log_file})")
                time.sleep(0.05)
        log.info("private Mosquitto (pid %s): devices on %s:%s, console and ingest on %s:%s, files in %s",
                 self._process.pid, self.bind, self.device_port, self.bind, self.ingest_port, self.root)

    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def stop(self) -> None:
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.terminate()  # Mosquitto saves its persistence file on SIGTERM
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(5)
        if self._process.stderr is not None:
            self._process.stderr.close()
        self._process = None


def _stop_left_over(pid_file: Path, binary: Path) -> None:
    """A broker an earlier console left running (it was killed before it could stop it) holds the
    ports and the files: stop it, if it is still that Mosquitto."""
    try:
        pid = int(pid_file.read_text().strip())
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
    except (OSError, ValueError):
        return
    if Path(command).name != binary.name:
        return
    log.info("stopping the private Mosquitto an earlier console left running (pid %s)", pid)
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
