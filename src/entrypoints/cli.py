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


SERVE_THREADS = 8


def gunicorn_settings(bind: str, workers: int, threads: int, log_level: str) -> dict[str, object]:
    """How `coldchain serve` runs gunicorn, apart from its hooks (bench/floor.py serves the same way)."""
    return {
        "bind": bind, "workers": workers, "threads": threads, "worker_class": "gthread",
        # An idle connection is closed by its client or proxy, never by us first: gunicorn's 2 s
        # closed sockets that Node's fetch (4 s) and nginx or a load balancer (60 s) were about to
        # reuse, and the request written on them was lost ("other side closed").
        "keepalive": 75,
        # A line a request at INFO: LOG_LEVEL=warning or error leaves them out with the rest of
        # INFO, and with them the formatting that costs a small call as much as its view.
        "accesslog": "-" if log_level in ("DEBUG", "INFO") else None,
        "loglevel": log_level.lower(),
        # One shared control socket path would make two servers on one machine collide.
        "control_socket_disable": True,
    }


def frozen(app):
    """`app` once what a worker built to serve (modules, mappers, schemas, routes: some 200,000
    objects) is frozen: it lives as long as the worker, and the cyclic collector stops walking it
    on every full collection, which a request's thousands of short-lived objects set off; a fifth
    of Device/page's and history's CPU in-process."""
    import gc

    gc.collect()
    gc.freeze()
    return app


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=None, type=click.IntRange(1, 64),
              help="processes (default: 1 on SQLite, 2 on PostgreSQL)")
@click.option("--threads", default=SERVE_THREADS, show_default=True, type=click.IntRange(1, 128),
              help="threads per process")
@click.option("--simulate", is_flag=True, help="also publish simulated readings of the devices (demos)")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, workers: int | None, threads: int, simulate: bool) -> None:
    """Serve the API under /api and the built web client at / (gunicorn).

    With MQTT_EMBEDDED on (the development default) the server also runs one ingest worker and
    its broker, in a single process: with no MQTT_URL given, a private Mosquitto with production's
    set-up (devices on 127.0.0.1:18883, the worker and the console on 127.0.0.1:18884, files in
    var/mosquitto/); without Mosquitto, when nothing answers at MQTT_URL, an in-process broker
    that speaks MQTT 3.1.1 only and checks no credentials.
    In development it serves the payment sandbox at PAYMENT_SANDBOX_URL, once, unless something
    already answers there (`coldchain payment-sandbox`), which it then uses.
    With the SQLAlchemy job broker (JOBS_BROKER_URL=sqla+..., the development default) it also
    runs a job worker and beat (escalation, outbox delivery, reconciliation, reminders, retention)
    in one of its processes; on Redis or RabbitMQ run `coldchain jobs worker` and `coldchain jobs
    beat` beside it.
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
        from entrypoints.jobs.embedded import EmbeddedJobs, runs_embedded

        if runs_embedded(settings.jobs_broker_url):
            jobs = EmbeddedJobs(container)
            jobs.start()
            background.append(jobs)
        device_url = None
        if embedded:
            ingest = EmbeddedIngest(container)
            background.append(ingest)
            ingest.start()
            device_url = ingest.device_url
        if simulate:
            background.append(start_simulator(container, devices=50, interval_s=10.0, url=device_url))

    def stop_background(server, worker) -> None:
        for job in reversed(background):
            job.stop()

    def worker_ready(worker) -> None:
        worker.log.info("worker %s ready", worker.pid)

    class Server(BaseApplication):
        def load_config(self) -> None:
            # The in-process broker and ingest worker live in the one worker process: nothing
            # that holds connections crosses a fork.
            count = 1 if embedded else (workers or (1 if settings.is_sqlite else 2))
            for key, value in gunicorn_settings(f"{host}:{port}", count, threads, settings.log_level).items():
                self.cfg.set(key, value)
            self.cfg.set("worker_exit", stop_background)
            self.cfg.set("post_worker_init", worker_ready)
            self.cfg.set("forwarded_allow_ips", "*" if settings.proxy_count else "127.0.0.1")

        def load(self):
            # Built in each worker, so no database connection crosses a fork.
            container = build_container(settings)
            app = create_app(container)
            start_background(container)
            return frozen(app)

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
    paid (a lost notification), close those past their expiry. The job engine does this every
    minute (`coldchain jobs`); this runs it once, now."""
    from entrypoints.container import build_container

    outcome = build_container(_settings(ctx)).reconcile_payments()()
    click.echo(f"settled {outcome.settled}, closed {outcome.closed}, still unpaid {outcome.unpaid}, "
               f"failed {outcome.failed}")


@main.group(invoke_without_command=True)
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 1000), help="runs listed")
@click.pass_context
def jobs(ctx: click.Context, limit: int) -> None:
    """The job engine: escalation and alarm reminders, outbox delivery, payment reconciliation,
    expiry reminders, retention, partitions. Without a subcommand, the latest runs.

    \b
    Production runs on JOBS_BROKER_URL (Redis or RabbitMQ):
      coldchain jobs worker   as many as wanted (each a process with a few threads)
      coldchain jobs beat     exactly one: it sends each job on its schedule
    Under `coldchain serve` with the development default (a SQLite file) both run inside the server.
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(list_runs, limit=limit)


@jobs.command("list")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 1000), help="runs listed")
@click.pass_context
def list_runs(ctx: click.Context, limit: int) -> None:
    """The latest job runs, newest first: name, started, finished (UTC), outcome and what it did."""
    from entrypoints.container import build_container

    runs = build_container(_settings(ctx)).list_job_runs()(limit)
    if not runs:
        click.echo("no job has run yet")
        return
    click.echo(f"{'job':<26} {'started':<19} {'finished':<19} {'outcome':<9} detail")
    for run in runs:
        finished = f"{run.finished_at:%Y-%m-%d %H:%M:%S}" if run.finished_at else "-"
        click.echo(f"{run.name:<26} {run.started_at:%Y-%m-%d %H:%M:%S} {finished:<19} {run.outcome.value:<9} "
                   f"{run.error or run.detail or ''}")


@jobs.command()
@click.option("--concurrency", default=4, show_default=True, type=click.IntRange(1, 64),
              help="jobs run at once (threads)")
@click.pass_context
def worker(ctx: click.Context, concurrency: int) -> None:
    """Run a job worker until stopped (SIGTERM: it finishes the jobs it holds). A worker killed
    mid-job loses nothing: the job is acknowledged only when done, so the broker hands it to
    another worker, and every job is idempotent."""
    from entrypoints.container import build_container
    from entrypoints.jobs.app import create_celery_app

    settings = _settings(ctx)
    app = create_celery_app(settings, build_container(settings))
    # Threads: the jobs wait on the database and the providers, and no connection crosses a fork.
    app.worker_main(["worker", "--loglevel", settings.log_level, "--pool", "threads",
                     "--concurrency", str(concurrency)])


@jobs.command()
@click.pass_context
def beat(ctx: click.Context) -> None:
    """Send every job on its schedule until stopped. Run exactly one. At start it sends once
    every job whose last run is older than its period (a daily job missed while beat was down)."""
    from entrypoints.container import build_container
    from entrypoints.jobs.app import create_celery_app, send_overdue

    settings = _settings(ctx)
    container = build_container(settings)
    app = create_celery_app(settings, container)
    overdue = send_overdue(app, container)
    if overdue:
        click.echo(f"sent the overdue jobs once: {', '.join(overdue)}")
    app.start(["beat", "--loglevel", settings.log_level])


@jobs.command("run")
@click.argument("name")
@click.pass_context
def run_job(ctx: click.Context, name: str) -> None:
    """Run one job now, in this process (recorded like any run): e.g. purge_expired_readings."""
    from core.jobs.use_cases import RecordedRun
    from entrypoints.container import build_container
    from entrypoints.jobs.catalogue import BY_NAME

    if name not in BY_NAME:
        raise click.BadParameter(f"one of {', '.join(BY_NAME)}", param_hint="NAME")
    container = build_container(_settings(ctx))
    job = BY_NAME[name]
    click.echo(RecordedRun(container.uow(), container.clock())(name, lambda: job.run(container)))


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
    report = seed(build_container(settings), alarms=True, inbox=True, teams=True, calibration=True)
    click.echo(report)


@main.command("mqtt-config")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="directory to write mosquitto.conf and dynamic-security.json into")
@click.option("--config-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="where the files will live on the broker host, as mosquitto.conf names them [default: --out]")
@click.option("--persistence-dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("/var/lib/mosquitto"), show_default=True,
              help="Mosquitto's persistence_location (writable by the mosquitto user)")
@click.option("--port", default=1883, show_default=True, type=click.IntRange(1, 65535),
              help="the devices' listener")
@click.option("--bind", default="0.0.0.0", show_default=True, help="address the devices' listener binds")
@click.option("--ingest-port", default=1884, show_default=True, type=click.IntRange(1, 65535),
              help="the listener of the ingest workers and the console")
@click.option("--ingest-bind", default="127.0.0.1", show_default=True,
              help="address the ingest listener binds: one devices cannot reach")
@click.option("--plugin", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="the dynamic-security plugin on the broker host [default: this machine's, else Debian's path]")
@click.pass_context
def mqtt_config(ctx: click.Context, out_dir: Path, config_dir: Path | None, persistence_dir: Path, port: int,
                bind: str, ingest_port: int, ingest_bind: str, plugin: Path | None) -> None:
    """Write the Mosquitto 2 set-up of production into --out, from the database.

    \b
    dynamic-security.json  the logins and ACLs of Mosquitto's dynamic-security
                    plugin: every device (user name = client id = its GUID,
                    its PBKDF2-SHA512 hash as the console keeps it) with a role
                    that may publish only devices/<GUID>/telemetry, .../status
                    and .../acks and read devices/<GUID>/commands; `ingest`
                    (MQTT_INGEST_PASSWORD), which reads every device's
                    telemetry, status and acks, also as the shared subscription
                    $share/ingest/fleet/devices/+/...; and `broker-admin`
                    (MQTT_ADMIN_PASSWORD), the console's own login
    mosquitto.conf  the devices' listener (--port; topics under the mount point
                    fleet/, client id = user name) and the ingest listener
                    (--ingest-port), allow_anonymous false, the plugin,
                    persistence, max_queued_messages 100000,
                    max_inflight_messages 0 (MQTT v5 clients set their own
                    Receive Maximum)

    While the broker runs, the console itself lets devices in as they are added
    or given new passwords and cuts them off as they are deleted, over the
    plugin's control topic as `broker-admin` (through MQTT_URL). The plugin
    reads its file only at start and rewrites it on every change: run this
    command while the broker is stopped, before each start (systemd
    ExecStartPre=), so a change the broker missed while it was down is in it;
    `coldchain mqtt-sync` says whether any is waiting. Files are written 0660
    (the plugin's, which its directory must let the broker replace) and 0644,
    group mosquitto when run as root. Start the broker with
    `mosquitto -c <config-dir>/mosquitto.conf`.
    """
    from adapters.mosquitto.config import DEFAULT_PLUGIN, BrokerLayout, find_mosquitto, write_broker_config
    from entrypoints.container import build_container

    settings = _settings(ctx)
    missing = [name for name, value in (("MQTT_INGEST_PASSWORD", settings.mqtt_ingest_password),
                                        ("MQTT_ADMIN_PASSWORD", settings.mqtt_admin_password)) if not value]
    if missing:
        click.echo(f"configuration error: {' and '.join(missing)} must be set (the ingest workers' and the "
                   "console's broker passwords)", err=True)
        sys.exit(2)
    container = build_container(settings)
    accounts = container.broker_accounts()(settings.mqtt_ingest_password, settings.mqtt_admin_password)
    installed = find_mosquitto()
    layout = BrokerLayout((config_dir or out_dir).resolve(), persistence_dir, port, bind, ingest_port, ingest_bind,
                          plugin=plugin or (installed.plugin if installed else DEFAULT_PLUGIN))
    for path in write_broker_config(out_dir, accounts, layout):
        click.echo(f"wrote {path}")
    click.echo(f"{len(accounts.devices)} device logins on port {port}; the ingest and console logins on "
               f"{ingest_bind}:{ingest_port}")


@main.command("mqtt-sync")
@click.pass_context
def mqtt_sync(ctx: click.Context) -> None:
    """Bring the running broker's device logins in line with the database, after it missed changes
    (it was down or unreachable when devices changed): deleted devices are refused and cut off.

    A password the broker missed cannot be sent again (only its hash is kept): such devices are
    listed, and exit status 1 says so; they can log in once the broker has restarted from files
    written by `coldchain mqtt-config` (or, under `make run`, once `coldchain serve` restarts).
    """
    from adapters.mosquitto.dynsec import BrokerUnreachable, DynsecBrokerAccess
    from entrypoints.container import build_container

    settings = _settings(ctx)
    if not settings.mqtt_admin_password:
        click.echo("configuration error: MQTT_ADMIN_PASSWORD must be set (the console's broker password)", err=True)
        sys.exit(2)
    container = build_container(settings)
    accounts = container.broker_accounts()(None).devices
    try:
        outcome = DynsecBrokerAccess(settings.mqtt_url, settings.mqtt_admin_password).converge(accounts)
    except BrokerUnreachable as error:
        click.echo(f"the broker at {settings.mqtt_url} did not answer: {error}", err=True)
        sys.exit(2)
    click.echo(f"{len(accounts)} device logins; refused {len(outcome.revoked)} of deleted devices"
               + (f" ({', '.join(outcome.revoked)})" if outcome.revoked else ""))
    if outcome.stale:
        click.echo(f"{len(outcome.stale)} devices' current passwords are not in the running broker "
                   f"({', '.join(outcome.stale[:20])}{', ...' if len(outcome.stale) > 20 else ''}): run "
                   "`coldchain mqtt-config` while the broker is stopped, then start it", err=True)
        sys.exit(1)


@main.command()
@click.option("--batch-size", default=10_000, show_default=True, type=click.IntRange(100, 1_000_000),
              help="readings deleted per transaction")
@click.pass_context
def retention(ctx: click.Context, batch_size: int) -> None:
    """Delete readings no longer kept: those of devices whose service expired more than three
    months ago, up to expiry + 3 months, and those of deleted devices. Retention waits for the
    devices whose records FDA mode keeps. Each batch is its own transaction. The job engine does
    this daily (`coldchain jobs`); this runs it once, now."""
    from core.devices.retention import PurgeExpiredReadings
    from entrypoints.container import build_container

    container = build_container(_settings(ctx))
    report = PurgeExpiredReadings(container.uow(), container.clock(), batch_size)()
    click.echo(f"deleted {report.readings} readings of {report.devices} devices past retention and "
               f"{report.orphans} readings of deleted devices; FDA mode keeps the readings of {report.kept} devices")


@main.command("fda-verify")
@click.option("--account", "account_name", metavar="NAME", help="an account's own records, by its user name")
@click.option("--organization", "organization_id", metavar="ID", type=click.IntRange(1, 2**31 - 1),
              help="an organization's records, by its id")
@click.pass_context
def fda_verify(ctx: click.Context, account_name: str | None, organization_id: int | None) -> None:
    """Recompute an FDA audit trail (21 CFR Part 11): every link's SHA-256 over its operation-log
    entry, the changes it covers and the previous link's hash (core/fda/trail.py documents the
    document hashed). Exit status 0 when every link holds, 1 naming the first that does not, 2
    for no such account or organization."""
    from core.fda.trail import REASONS
    from core.shared.errors import NotFound
    from entrypoints.container import build_container

    if (account_name is None) == (organization_id is None):
        raise click.UsageError("give one of --account and --organization")
    try:
        verification = build_container(_settings(ctx)).verify_subject_trail()(account_name, organization_id)
    except NotFound:
        click.echo("no such account" if account_name is not None else "no such organization", err=True)
        sys.exit(2)
    whose = f"{verification.name} ({verification.subject.key})"
    broken = verification.first_broken
    if broken is None:
        click.echo(f"the audit trail of {whose} verified: {verification.links} links, newest hash "
                   f"{verification.head_hash or '-'}")
        return
    click.echo(f"the audit trail of {whose} is BROKEN at link {broken.seq} (operation-log entry "
               f"{broken.operation_id} of {broken.at:%Y-%m-%d %H:%M:%S} UTC): {REASONS[broken.reason]} "
               f"[{broken.reason.value}]; {verification.links} links")
    sys.exit(1)


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
@click.option("--truck", "truck", metavar="GUID", help="this cold-chain device drives the delivery route (out of its "
              "depot at 31.23 N 121.47 E, 11 km north into a yard and back), for fences around both")
@click.pass_context
def simulate(ctx: click.Context, devices: int, interval: float, seed: int | None, truck: str | None) -> None:
    """Publish realistic readings of registered devices to MQTT_DEVICE_URL until Ctrl-C: drift
    around each device's set point, door openings, and now and then an excursion that raises alarms.

    Each simulated device logs in as itself with a new broker password the simulator gives it (the
    console keeps only hashes), so its real counterpart's password stops working: refused when
    APP_ENV=production."""
    import signal
    import threading

    from entrypoints.container import build_container
    from entrypoints.ingest import start_simulator

    settings = _settings(ctx)
    if settings.app_env == "production":
        click.echo("refused: the simulator gives the devices it drives new broker passwords; it does not run when "
                   "APP_ENV=production", err=True)
        sys.exit(2)
    container = build_container(settings)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    simulator = start_simulator(container, devices=devices, interval_s=interval, seed=seed, truck=truck)
    click.echo(f"simulating {len(simulator.devices)} devices every {interval:g} s on {simulator.url}; Ctrl-C stops")
    stop.wait()
    simulator.stop()


@main.command()
@click.pass_context
def openapi(ctx: click.Context) -> None:
    """Print the API's OpenAPI document (JSON), as GET /api/openapi.json serves it; the web client's
    tests compare its schemas with it. Nothing is connected to: the app is built, not served."""
    from entrypoints.api.app import create_app
    from entrypoints.container import build_container

    response = create_app(build_container(_settings(ctx))).test_client().get("/api/openapi.json")
    click.echo(response.get_data(as_text=True))


if __name__ == "__main__":
    main()
