"""The `coldchain` command."""

from __future__ import annotations

import logging
import sys

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
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, workers: int | None, threads: int) -> None:
    """Serve the API under /api and the built web client at / (gunicorn)."""
    from gunicorn.app.base import BaseApplication

    from entrypoints.api.app import create_app
    from entrypoints.container import build_container

    settings = _settings(ctx)

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", workers or (1 if settings.is_sqlite else 2))
            self.cfg.set("threads", threads)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("accesslog", "-")
            self.cfg.set("loglevel", settings.log_level.lower())
            self.cfg.set("forwarded_allow_ips", "*" if settings.proxy_count else "127.0.0.1")
            # One shared control socket path would make two servers on one machine collide.
            self.cfg.set("control_socket_disable", True)

        def load(self):
            # Built in each worker, so no database connection crosses a fork.
            return create_app(build_container(settings))

    click.echo(f"serving the {settings.edition.value} edition on http://{host}:{port}/ "
               f"(database: {settings.database_url.split('@')[-1]})")
    Server().run()


@main.command()
@click.pass_context
def migrate(ctx: click.Context) -> None:
    """Bring the database schema up to date and synchronise roles, permissions and dictionaries."""
    from adapters.persistence.migrate import upgrade
    from entrypoints.container import build_container

    container = build_container(_settings(ctx))
    upgrade(container.engine())
    click.echo("database is up to date")


@main.command("demo-seed")
@click.pass_context
def demo_seed(ctx: click.Context) -> None:
    """Load demo accounts, devices, service packages, a white-label platform and a notice (idempotent)."""
    from entrypoints.container import build_container
    from entrypoints.demo_seed import seed

    report = seed(build_container(_settings(ctx)))
    click.echo(report)


@main.command()
def ingest() -> None:
    """Run an MQTT ingest worker (arrives with the devices-over-MQTT issue)."""
    click.echo("not yet: the MQTT ingest worker arrives with the devices-over-MQTT issue", err=True)
    sys.exit(1)


@main.command()
def simulate() -> None:
    """Simulate devices publishing readings (arrives with the devices-over-MQTT issue)."""
    click.echo("not yet: the device simulator arrives with the devices-over-MQTT issue", err=True)
    sys.exit(1)


if __name__ == "__main__":
    main()
