"""The `coldchain` command."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from urllib.parse import urlsplit

import click

from entrypoints.settings import ConfigError, Settings, load_settings


def _settings(ctx: click.Context) -> Settings:
    return ctx.obj["settings"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.pass_context
def main(ctx: click.Context) -> None:
    """Cold-chain console: serve the API and web client, migrate, load demo data.

    Configuration comes from the environment (see README.md, "Configuration").
    """
    try:
        settings = load_settings()
    except ConfigError as error:
        click.echo(f"configuration error: {error}", err=True)
        sys.exit(2)
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    ctx.obj = {"settings": settings}


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=None, type=click.IntRange(1, 64),
              help="processes (default: 1 on SQLite, 2 on PostgreSQL)")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 128), help="threads per process")
@click.option("--simulate", is_flag=True, help="also publish simulated readings of the devices (demos)")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, workers: int | None, threads: int, simulate: bool) -> None:
    """Serve the API under /api and the built web client at / (gunicorn).

    With MQTT_EMBEDDED on (the development default) the server also runs one ingest worker and,
    when no broker answers at MQTT_URL, an in-process broker; it then runs a single process.
    In development it serves the payment sandbox at PAYMENT_SANDBOX_URL, once, unless something
    already answers there (`coldchain payment-sandbox`), which it then uses.
    """
    from gunicorn.app.base import BaseApplication

    from entrypoints.api.app import create_app
    from entrypoints.container import build_container
    from entrypoints.local_sandbox import start_local_sandbox

    settings = _settings(ctx)
    embedded = settings.mqtt_embedded
    background: list = []

    def start_background(container) -> None:
        from entrypoints.ingest import EmbeddedIngest, start_simulator
        from entrypoints.payments import PeriodicReconciliation

        reconciliation = PeriodicReconciliation(container)
        reconciliation.start()
        background.append(reconciliation)

        if embedded:
            ingest = EmbeddedIngest(container)
            ingest.start()
            background.append(ingest)
        if simulate:
            background.append(start_simulator(container, devices=50, interval_s=10.0))

    def stop_background(server, worker) -> None:
        for job in reversed(background):
            job.stop()

    def worker_ready(worker) -> None:
        worker.log.info("worker %s ready", worker.pid)

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            # The in-process broker and ingest worker live in the one worker process: nothing
            # that holds connections crosses a fork.
            self.cfg.set("workers", 1 if embedded else (workers or (1 if settings.is_sqlite else 2)))
            self.cfg.set("worker_exit", stop_background)
            self.cfg.set("post_worker_init", worker_ready)
            self.cfg.set("threads", threads)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("accesslog", "-")
            self.cfg.set("loglevel", settings.log_level.lower())
            self.cfg.set("forwarded_allow_ips", "*" if settings.proxy_count else "127.0.0.1")
            # One shared control socket path would make two servers on one machine collide.
            self.cfg.set("control_socket_disable", True)

        def load(self):
            # Built in each worker, so no database connection crosses a fork.
            container = build_container(settings)
            app = create_app(container)
            start_background(container)
            return app

    click.echo(f"serving the {settings.edition.value} edition on http://{host}:{port}/ "
               f"(database: {settings.database_url.split('@')[-1]})")
    # In the master, before the workers fork, so all of them share one sandbox and none of them
    # competes for its port (a worker that failed to bind it used to exit and be rebooted forever).
    sandbox = start_local_sandbox(settings)
    server = Server()
    if sandbox is not None:
        server.cfg.set("on_exit", lambda arbiter: sandbox.stop())  # the master's exit, not a worker's
    server.run()


@main.command()
@click.pass_context
def migrate(ctx: click.Context) -> None:
    """Bring the database schema up to date and synchronise roles, permissions and dictionaries."""
    from adapters.persistence.migrate import upgrade
    from entrypoints.container import build_container

    container = build_container(_settings(ctx))
    upgrade(container.engine())
    click.echo("database is up to date")


@main.command()
@click.pass_context
def reconcile(ctx: click.Context) -> None:
    """Ask the payment providers about orders unpaid for a few minutes: settle those they say are
    paid (a lost notification), close those past their expiry. `coldchain serve` does this every
    minute; run it from cron where no server runs it."""
    from entrypoints.container import build_container

    outcome = build_container(_settings(ctx)).reconcile_payments()()
    click.echo(f"settled {outcome.settled}, closed {outcome.closed}, still unpaid {outcome.unpaid}, "
               f"failed {outcome.failed}")


@main.command("payment-sandbox")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=None, type=int, help="default: the port of PAYMENT_SANDBOX_URL")
@click.pass_context
def payment_sandbox(ctx: click.Context, host: str, port: int | None) -> None:
    """Serve the local sandbox of WeChat Pay, Alipay, Stripe and PayPal (development and demos),
    with the credentials the console uses in development (generated under var/). Refused when
    APP_ENV=production: the sandbox pays every order."""
    from werkzeug.serving import run_simple

    from entrypoints.local_sandbox import SandboxUnavailable, sandbox_app

    settings = _settings(ctx)
    try:
        app = sandbox_app(settings, settings.providers.sandbox_url)
    except SandboxUnavailable as error:
        click.echo(f"refused: {error}", err=True)
        sys.exit(2)
    port = port or urlsplit(settings.providers.sandbox_url).port or 8001
    click.echo(f"payment sandbox on http://{host}:{port}/ (payer pages under /pay/)")
    run_simple(host, port, app, threaded=True)


@main.command("demo-seed")
@click.pass_context
def demo_seed(ctx: click.Context) -> None:
    """Load demo accounts, devices, service packages, a white-label platform and a notice (idempotent).
    Refused when APP_ENV=production: every demo account has the published password."""
    from entrypoints.container import build_container
    from entrypoints.demo_seed import seed

    settings = _settings(ctx)
    if settings.app_env == "production":
        click.echo("refused: demo-seed loads accounts whose password is published in the README; it does not run "
                   "when APP_ENV=production", err=True)
        sys.exit(2)
    report = seed(build_container(settings), alarms=True)
    click.echo(report)


@main.command("mqtt-config")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="directory to write the password files, ACLs and mosquitto.conf into")
@click.option("--config-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="where the files will live on the broker host, as mosquitto.conf names them [default: --out]")
@click.option("--persistence-dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("/var/lib/mosquitto"), show_default=True,
              help="Mosquitto's persistence_location (writable by the mosquitto user)")
@click.option("--port", default=1883, show_default=True, type=click.IntRange(1, 65535),
              help="the devices' listener")
@click.option("--bind", default="0.0.0.0", show_default=True, help="address the devices' listener binds")
@click.option("--ingest-port", default=1884, show_default=True, type=click.IntRange(1, 65535),
              help="the ingest workers' listener")
@click.option("--ingest-bind", default="127.0.0.1", show_default=True,
              help="address the ingest workers' listener binds: one devices cannot reach")
@click.pass_context
def mqtt_config(ctx: click.Context, out_dir: Path, config_dir: Path | None, persistence_dir: Path, port: int,
                bind: str, ingest_port: int, ingest_bind: str) -> None:
    """Write the Mosquitto 2 set-up of production into --out: two listeners,
    each with its own logins and ACL.

    \b
    devices.passwd  every device (user name = its GUID, PBKDF2-SHA512 hash as
                    mosquitto_passwd writes it)
    devices.acl     a device may publish only devices/<GUID>/telemetry, .../status
                    and .../acks and read devices/<GUID>/commands
    ingest.passwd   the ingest workers' user `ingest`, whose password is
                    MQTT_INGEST_PASSWORD (generated into var/ outside production)
    ingest.acl      `ingest` may read every device's telemetry, status and acks,
                    also as the shared subscription $share/ingest/fleet/devices/+/...
    mosquitto.conf  the devices' listener (--port; topics under the mount point
                    fleet/, client id = user name) and the ingest listener
                    (--ingest-port), allow_anonymous false, persistence,
                    max_queued_messages 100000, max_inflight_messages 0 (MQTT v5
                    clients set their own Receive Maximum)

    Run it again after devices are added or passwords rotated, then reload
    Mosquitto (kill -HUP or `systemctl reload mosquitto`). Files holding hashes
    are written 0640, group mosquitto when run as root. Start the broker with
    `mosquitto -c <config-dir>/mosquitto.conf`; workers then connect to the
    ingest listener as `ingest`.
    """
    from adapters.mosquitto.config import BrokerLayout, write_broker_config
    from entrypoints.container import build_container

    settings = _settings(ctx)
    if not settings.mqtt_ingest_password:
        click.echo("configuration error: MQTT_INGEST_PASSWORD must be set (the ingest workers' broker password)",
                   err=True)
        sys.exit(2)
    container = build_container(settings)
    accounts = container.broker_accounts()(settings.mqtt_ingest_password)
    layout = BrokerLayout((config_dir or out_dir).resolve(), persistence_dir, port, bind, ingest_port, ingest_bind)
    for path in write_broker_config(out_dir, accounts, layout):
        click.echo(f"wrote {path}")
    click.echo(f"{len(accounts.devices)} device logins on port {port} and the ingest login on {ingest_bind}:"
               f"{ingest_port}")


@main.command()
@click.option("--batch-size", default=10_000, show_default=True, type=click.IntRange(100, 1_000_000),
              help="readings deleted per transaction")
@click.pass_context
def retention(ctx: click.Context, batch_size: int) -> None:
    """Delete readings no longer kept: those of devices whose service expired more than three
    months ago, up to expiry + 3 months, and those of deleted devices. Each batch is its own
    transaction; run it daily (cron or a systemd timer)."""
    from core.devices.retention import PurgeExpiredReadings
    from entrypoints.container import build_container

    container = build_container(_settings(ctx))
    report = PurgeExpiredReadings(container.uow(), container.clock(), batch_size)()
    click.echo(f"deleted {report.readings} readings of {report.devices} devices past retention and "
               f"{report.orphans} readings of deleted devices")


def _worker_client_id(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    from core.devices.credentials import claimable_by_a_device

    if value is not None and claimable_by_a_device(value):
        raise click.BadParameter(f"{value!r} could be a device's GUID, and a device connects under its GUID; "
                                 "give the worker an id with a character other than letters and digits, "
                                 "e.g. ingest-a")
    return value


@main.command()
@click.option("--client-id", callback=_worker_client_id,
              help="MQTT client id; keep it stable per worker so a restart resumes its session. Never letters and "
                   "digits alone, which a device's GUID could be (default: ingest-<host>-$INGEST_INSTANCE)")
@click.option("--share-group", default="ingest", show_default=True,
              help="shared-subscription group: workers of one group split the load")
@click.option("--topic-prefix", help="where the devices' topics sit on the broker: '' for a broker without a mount "
                                    "point (default: fleet/, where `coldchain mqtt-config` mounts the devices)")
@click.option("--batch-size", type=click.IntRange(1, 20000), help="readings per transaction (default 2000)")
@click.option("--max-latency-ms", type=click.IntRange(10, 10000), help="longest wait before a flush (default 200)")
@click.option("--retire", is_flag=True, help="retire this client id for good: take over its session, and when "
                                             "stopped store what it held and end the session")
@click.pass_context
def ingest(ctx: click.Context, client_id: str | None, share_group: str, topic_prefix: str | None,
           batch_size: int | None, max_latency_ms: int | None, retire: bool) -> None:
    """Run one MQTT ingest worker until stopped (SIGTERM or Ctrl-C).

    It subscribes with QoS 1 to $share/<group>/fleet/devices/+/telemetry and .../status on MQTT_URL
    (the ingest listener) over MQTT v5, stores readings in batches and acknowledges them only after
    they are committed. Run as many as the load needs, each with its own --client-id. A message it
    cannot read is refused and acknowledged; if storing fails in a way retrying cannot mend, it
    exits with status 1, acknowledging nothing, for its supervisor to start it again.
    """
    from entrypoints.container import build_container
    from entrypoints.ingest import run_forever, worker_config

    container = build_container(_settings(ctx))
    config = worker_config(container, client_id=client_id, share_group=share_group, topic_prefix=topic_prefix,
                           batch_size=batch_size, max_latency_s=max_latency_ms / 1000 if max_latency_ms else None,
                           retire=retire or None)
    sys.exit(run_forever(container, config))


@main.command()
@click.option("--devices", default=20, show_default=True, type=click.IntRange(1, 10000),
              help="how many of the registered devices to simulate")
@click.option("--interval", default=10.0, show_default=True, type=click.FloatRange(0.1, 3600),
              help="seconds between two readings of a device")
@click.option("--seed", type=int, help="repeatable readings")
@click.option("--username", help="broker user (anonymous when absent)")
@click.option("--password", help="broker password")
@click.pass_context
def simulate(ctx: click.Context, devices: int, interval: float, seed: int | None, username: str | None,
             password: str | None) -> None:
    """Publish realistic readings of registered devices to MQTT_URL until Ctrl-C: drift around each
    device's set point, door openings, and now and then an excursion that raises alarms."""
    import signal
    import threading

    from entrypoints.container import build_container
    from entrypoints.ingest import start_simulator

    container = build_container(_settings(ctx))
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    simulator = start_simulator(container, devices=devices, interval_s=interval, seed=seed, username=username,
                                password=password)
    click.echo(f"simulating {len(simulator.devices)} devices every {interval:g} s on "
               f"{container.settings().mqtt_url}; Ctrl-C stops")
    stop.wait()
    simulator.stop()


if __name__ == "__main__":
    main()
