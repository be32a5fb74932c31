"""Scorekeeper: keeps score at a real table for the Spanish card games (Tute, its subastado, and Pocha)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextlib import ExitStack
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from flask import Flask
from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

from .config import Defaults, check_public_url, load_or_create_secret_key, sqlite_url
from .web import hosting
from .web.paths import app_folder, checkout_root

#: This release's version, as pyproject.toml names it (also in the start's log line and `flask ... version`).
__version__ = hosting.package_version()


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the web app: configuration, extensions, blueprints, and an up-to-date database.

    The instance folder (database, secret key, config.py) is the folder named by
    SCOREKEEPER_INSTANCE_PATH (or INSTANCE_PATH in `test_config`); else instance/ at the top
    of a checkout, or Flask's own default for an installed package, <prefix>/var/scorekeeper-instance.
    It refuses to start (`hosting.StartRefused`) on a database it should not open: see `hosting`.
    """
    try:
        return _create_app(test_config)
    except hosting.StartRefused as refusal:
        raise hosting.as_the_server_shows_it(refusal) from None


def _create_app(test_config: Mapping[str, Any] | None) -> Flask:
    """Create the web app (see `create_app`)."""
    named = _named_instance(test_config)
    app = Flask(
        __name__,
        instance_path=_instance_path(named),
        instance_relative_config=True,
        template_folder=str(app_folder("templates")),
        static_folder=str(app_folder("static")),
    )
    from .games.web import template_folders

    # Each game keeps its templates in its folder; the pages name them "games/<folder>/<part>.html".
    app.jinja_loader = ChoiceLoader(
        [
            FileSystemLoader(app_folder("templates")),
            PrefixLoader({"games": PrefixLoader({n: FileSystemLoader(p) for n, p in template_folders().items()})}),
        ]
    )
    app.config.from_object(Defaults)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("SCOREKEEPER")
    else:
        app.config.update(test_config)
    _finish_config(app, named is not None)
    database = hosting.Database.before_opening(app.config["SQLALCHEMY_DATABASE_URI"])
    if app.config["PROXY_FIX"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        # The client's own address (for the sign-in limits) and scheme, as the proxies report them.
        hops = int(app.config["PROXY_FIX"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep match documents in their own order

    # models registers the tables
    from . import cli, extensions, models, services, views  # noqa: F401
    from .db import checkpoints, schema
    from .web import assets, reach, security

    extensions.db.init_app(app)
    extensions.end_reads_with_commit(app)
    extensions.migrate.init_app(app, extensions.db, directory=str(app_folder("migrations")))
    extensions.csrf.init_app(app)
    extensions.limiter.init_app(app)
    security.register(app)
    assets.register(app)
    extensions.login_manager.init_app(app)
    extensions.babel.init_app(
        app,
        locale_selector=views.select_language,
        timezone_selector=views.select_time_zone,
        default_translation_directories=str(app_folder("translations")),
    )
    views.register(app)
    cli.register(app)
    hosting.log_for_the_host(app)
    with app.app_context():
        extensions.configure_sqlite(extensions.db.engine, app.config["SQLITE_BUSY_TIMEOUT"])
        checkpoints.register(app, extensions.db.engine)
        migrating = ExitStack()
        try:
            # One process at a time reads the schema and migrates it (two hosts started at once, say):
            # the next finds nothing left to do.
            with hosting.opening(database.shown):
                migrating.enter_context(
                    schema.migrating_alone(extensions.db.engine, lambda: hosting.waiting_for_another(app, database))
                )
            found = hosting.read_schema(database.shown)
            migrate = app.config["AUTO_MIGRATE"] and found.known  # a newer version's is refused, never migrated
            if migrate:
                schema.apply_migrations()
                services.fill_missing_figures()
            listening = reach.find_listening(app)
            current = hosting.announce(app, database, found, migrated=migrate, reach=reach.phones_reach(listening))
            if not current and hosting.made_for_a_command():
                # `db upgrade`, say, which migrates once the app is made: the lock is its until it ends.
                hosting.keep_until_the_command_ends(migrating.pop_all())
        finally:
            migrating.close()
            # Hand no open connection to processes forked from this one (gunicorn --preload), and
            # leave none behind a start that failed.
            extensions.db.session.remove()
            extensions.db.engine.dispose()
    return app


def _named_instance(test_config: Mapping[str, Any] | None) -> str | None:
    """Return the instance folder the configuration names (INSTANCE_PATH, SCOREKEEPER_INSTANCE_PATH), if any."""
    named = (test_config or {}).get("INSTANCE_PATH") or os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    return str(named) if named else None


def _instance_path(named: str | None) -> str | None:
    """Return the instance folder that was asked for, or instance/ in a checkout; None lets Flask choose."""
    if named:
        return str(Path(named).resolve())
    root = checkout_root()
    return str(root / "instance") if root is not None else None


def _finish_config(app: Flask, instance_named: bool) -> None:
    """Derive the settings that depend on others: database URL, secret key, whether /setup is open."""
    url = app.config.get("SQLALCHEMY_DATABASE_URI") or app.config["DATABASE_URL"]
    named = bool(url) or instance_named
    if app.config["SETUP_OPEN"] is None:
        # The quick start's first visitor makes the first account; a server's host does, on the server.
        app.config["SETUP_OPEN"] = not named
    if not url:
        if not named:  # before anything is written in the folder
            hosting.refuse_a_new_database_beside_an_earlier_one(app)
        Path(app.instance_path).mkdir(mode=0o700, parents=True, exist_ok=True)
        url = sqlite_url(app.instance_path)
    if url.startswith(("postgres://", "postgresql://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]  # psycopg 3: the postgres extra's driver
    if url.startswith("postgresql+psycopg") and find_spec("psycopg") is None:
        raise hosting.StartRefused(
            "A PostgreSQL database needs psycopg, which the postgres extra installs: "
            "pip install 'scorekeeper[postgres]' (or '.[postgres]' in a checkout)"
        )
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_or_create_secret_key(app.instance_path)
    try:
        app.config["PUBLIC_URL"] = check_public_url(app.config.get("PUBLIC_URL"))
    except ValueError as error:
        raise hosting.StartRefused(str(error)) from None
