"""Flask commands for the person who hosts Scorekeeper: accounts, API tokens, backups, recomputing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext

from . import services
from .db import backup
from .extensions import db
from .models import DEFAULT_NIGHT_GAP_HOURS
from .reads import transfer
from .web import hosting


def register(app: Flask) -> None:
    """Attach the scorekeeper's commands to `app`'s command line."""
    app.cli.add_command(user)
    app.cli.add_command(token)
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(recompute)
    app.cli.add_command(backup_command)
    app.cli.add_command(version_command)


def _require_current_schema() -> None:
    """Stop a command that reads or writes the data through this version's tables on a database not yet upgraded.

    The app is made for any command whatever its database's revision (`db upgrade` and `backup`
    must reach an outdated one), so the others check it here rather than fail on a missing column.
    """
    shown = hosting.describe(db.engine.url)
    problem = hosting.schema_problem(shown, hosting.read_schema(shown))
    if problem is not None:
        raise click.ClickException(problem)


user = AppGroup("user", help="Manage accounts.")


@user.command("create")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
def user_create(name: str, password_stdin: bool) -> None:
    """Create the account NAME."""
    _require_current_schema()
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        account = services.create_user(name, password)
    except services.InvalidInput as error:
        raise click.ClickException(error.message) from error
    click.echo(f"Created the account {account.username}.")


token = AppGroup("token", help="Manage API tokens.")


@token.command("create")
@click.argument("name")
@click.option("--label", default="command line", help="What the token is for.")
def token_create(name: str, label: str) -> None:
    """Print a new API token for the account NAME (only its hash is kept: copy it now)."""
    _require_current_schema()
    account = services.user_named(name)
    if account is None:
        raise click.ClickException(f"There is no account called {name}.")
    try:
        secret = services.create_api_token(account, label)
    except services.InvalidInput as error:
        raise click.ClickException(error.message) from error
    click.echo(f"A new API token for {account.username}; it is shown only once:", err=True)
    click.echo(secret)


@click.command("export")
@with_appcontext
@click.option("--user", "username", help="Export only this account.")
def export_command(username: str | None) -> None:
    """Write every account's players and matches to standard output as JSON."""
    _require_current_schema()
    try:
        data = transfer.export_data(username)
    except transfer.DamagedFile as error:
        raise click.ClickException(str(error)) from error
    click.echo(json.dumps(data, ensure_ascii=False, indent=1))


@click.command("import")
@with_appcontext
@click.argument("path", type=click.File("r", encoding="utf-8"))
@click.option("--user", "username", help="Import every match into this existing account.")
def import_command(path: TextIO, username: str | None) -> None:
    """Import an export file: all of it, or nothing if any part of it is damaged."""
    _require_current_schema()
    try:
        data = json.load(path)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise click.ClickException(f"The file is not JSON: {error}. Nothing was imported.") from error
    into = None
    if username is not None:
        into = services.user_named(username)
        if into is None:
            raise click.ClickException(f"There is no account called {username}. Nothing was imported.")
    try:
        accounts = transfer.read_export(data)
        report = services.import_accounts(accounts, into)
    except transfer.DamagedFile as error:
        problems = "\n  ".join(error.problems)
        raise click.ClickException(f"The file is damaged; nothing was imported:\n  {problems}") from error
    except services.ServiceError as error:
        raise click.ClickException(f"{error.message} Nothing was imported.") from error
    click.echo(
        f"Imported {report['matches']} matches, {report['players']} players, {report['seasons']} seasons and "
        f"{report['accounts']} accounts; {report['skipped']} matches were there already."
    )
    if report["unset"]:
        made = "1 account was" if report["unset"] == 1 else f"{report['unset']} accounts were"
        click.echo(
            f"{made} made without some of its settings (language, time zone, night gap), which a file of 0.2.0 "
            f"or earlier does not carry: until set on the account page, the language and time zone follow each "
            f"browser and a night ends after {DEFAULT_NIGHT_GAP_HOURS} hours without a deal."
        )


@click.command("backup")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(path: Path) -> None:
    """Copy the live SQLite database to PATH, consistently, while the app keeps running."""
    try:
        size = backup.backup_sqlite(db.engine, path)
    except backup.BackupError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"Backed up the database to {path} ({size} bytes).")


@click.command()
@with_appcontext
def recompute() -> None:
    """Rebuild every match's scores, status and cached figures from its deals."""
    _require_current_schema()
    click.echo(f"Recomputed {services.recompute_all()} matches.")


@click.command("version")
@with_appcontext
def version_command() -> None:
    """Print Scorekeeper's version and the schema revision it needs (the start's log line names the database's)."""
    schema = hosting.read_schema(hosting.describe(db.engine.url))
    click.echo(
        f"Scorekeeper {hosting.package_version()}, schema revision {schema.head} "
        f"(the database's: {schema.revision or 'none'})"
    )
