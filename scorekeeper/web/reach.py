"""Where the table's phones reach the app: the addresses its server listens on, this computer's address on the
local network, and the command that serves the network when the server listens on this computer only.

The start's line says it (`phones_reach`), and a page opened on this computer itself names the command
(templates/matches/_reach.html). The server is `flask run` (the quick start) or gunicorn; the app learns
its addresses from the one that is loading it, as neither hands them to an app factory.
"""

from __future__ import annotations

import inspect
import ipaddress
import shlex
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import ScriptInfo

#: An address of TEST-NET-1 (RFC 5737), which no network routes: connecting a UDP socket to it sends
#: nothing, and makes the system pick the interface it would leave by, so this computer's address there.
_ROUTE_PROBE = ("192.0.2.1", 9)
#: Where `Listening` is kept on the app, for the pages.
EXTENSION = "scorekeeper.listening"


@dataclass(frozen=True)
class Listening:
    """How the server that loaded the app listens: its name, scheme and addresses (host, port), and the
    command, as the host started it, that serves the local network in its place."""

    server: str
    scheme: str
    addresses: tuple[tuple[str, int], ...]
    #: Unix sockets it listens on (gunicorn behind a proxy).
    sockets: tuple[str, ...]
    network_command: str


def is_loopback(host: str) -> bool:
    """Tell whether a host name or address names this computer only."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_every_address(host: str) -> bool:
    """Tell whether a server listening on `host` listens on every interface (0.0.0.0, ::, or the empty host)."""
    try:
        return not host or ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def local_network_address() -> str | None:
    """Return the address at which the phones of the local network reach this computer (the
    LOCAL_NETWORK_ADDRESS setting, else the one its system would route by), or None when it has none."""
    configured = str(current_app.config.get("LOCAL_NETWORK_ADDRESS") or "").strip()
    if configured:
        return configured
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            found = str(probe.getsockname()[0])
    except OSError:  # no network at all: no route to anything but this computer
        return None
    address = ipaddress.ip_address(found)
    return None if address.is_loopback or address.is_unspecified else found


def _program(name: str) -> list[str]:
    """Return the command line that starts the program running now (`name`), as the host typed it."""
    if Path(sys.argv[0]).name == "__main__.py":  # python -m NAME
        return [sys.executable, "-m", name]
    return [sys.argv[0]]


def _flask_run() -> Listening | None:
    """Return how `flask run` listens, if it is the command loading the app (its options are its context's)."""
    context = click.get_current_context(silent=True)
    if context is None or context.info_name != "run" or context.find_object(ScriptInfo) is None:
        return None
    host, port = str(context.params.get("host") or "127.0.0.1"), int(context.params.get("port") or 5000)
    command = [*_program("flask"), "--app", "scorekeeper", "run", "--host", "0.0.0.0", "--port", str(port)]
    scheme = "https" if context.params.get("cert") else "http"
    return Listening("flask run", scheme, ((host, port),), (), shlex.join(command))


def _gunicorn_settings() -> Any:
    """Return the settings of the gunicorn loading the app, or None when no gunicorn is.

    gunicorn hands an app factory nothing of its settings, which it reads from its command line, its
    environment and its configuration file; the application object holding them (whose `wsgi()` calls
    the factory, in the master with --preload, else in each worker) is one of the factory's callers.
    """
    base = sys.modules.get("gunicorn.app.base")
    if base is None:
        return None
    frame = inspect.currentframe()
    while frame is not None:
        caller = frame.f_locals.get("self")
        if isinstance(caller, base.BaseApplication):
            return caller.cfg
        frame = frame.f_back
    return None


def _with_bind(arguments: list[str], bind: str) -> list[str]:
    """Return gunicorn's arguments with `bind` in place of the addresses they name (or added, if none), and
    the values of the settings they set (`-e NAME=VALUE`, a secret key or a database's password among
    them) left out: the command goes to the host's log and onto the owner's pages."""
    kept: list[str] = ["--bind", bind]
    skip = setting = False
    for argument in arguments:
        if skip:
            skip = False
        elif setting:
            setting = False
            kept.append(f"{argument.split('=', 1)[0]}=…")
        elif argument in ("-b", "--bind"):
            skip = True
        elif argument in ("-e", "--env"):
            setting = True
            kept.append(argument)
        elif argument.startswith(("--env=", "-e")):
            option, value = ("--env", argument[6:]) if argument.startswith("--env=") else ("-e", argument[2:])
            kept += [option, f"{value.split('=', 1)[0]}=…"]
        elif not argument.startswith(("--bind=", "-b")):
            kept.append(argument)
    return kept


def _gunicorn() -> Listening | None:
    """Return how gunicorn listens, if it is loading the app."""
    settings = _gunicorn_settings()
    if settings is None:
        return None
    addresses = tuple((str(host), int(port)) for host, port in (a for a in settings.address if isinstance(a, tuple)))
    sockets = tuple(str(path) for path in settings.address if isinstance(path, str))
    port = addresses[0][1] if addresses else 8000
    command = [*_program("gunicorn"), *_with_bind(sys.argv[1:], f"0.0.0.0:{port}")]
    return Listening("gunicorn", "https" if settings.is_ssl else "http", addresses, sockets, shlex.join(command))


def find_listening(app: Flask) -> Listening | None:
    """Find how the server loading the app listens (None: not `flask run` or gunicorn), and keep it for the pages."""
    listening = _flask_run() or _gunicorn()
    if listening is not None:
        app.extensions[EXTENSION] = listening
    return listening


def network_command(port: int | None) -> str:
    """Return the command that serves the app to the local network: the running server's, else `flask run`'s."""
    listening: Listening | None = current_app.extensions.get(EXTENSION)
    if listening is not None:
        return listening.network_command
    return shlex.join(["flask", "--app", "scorekeeper", "run", "--host", "0.0.0.0", "--port", str(port or 5000)])


def phones_reach(listening: Listening | None) -> str | None:
    """Say, for the start's line, which address the table's phones open, or why they cannot reach the app
    and the command that lets them in; None when the server is not known (nor the site's address set)."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return f"the table's phones open {public}"
    if listening is None:
        return None
    served = [(host, port) for host, port in listening.addresses if not is_loopback(host)]
    if not served:
        if listening.sockets and not listening.addresses:
            return f"the table's phones open the address of the proxy in front of unix:{listening.sockets[0]}"
        here = ", ".join(f"{host}:{port}" for host, port in listening.addresses)
        behind = " (behind a proxy, name the site's address in SCOREKEEPER_PUBLIC_URL instead)"
        return (
            f"the table's phones cannot reach it: {listening.server} listens on {here}, this computer only; "
            f"to serve the local network, start it with `{listening.network_command}`"
            f"{behind if listening.server == 'gunicorn' else ''}"
        )
    host, port = served[0]
    if _is_every_address(host):
        found = local_network_address()
        if found is None:
            return (
                "the table's phones cannot reach it: this computer is on no local network (join the table's "
                "Wi-Fi, or name this computer's address in SCOREKEEPER_LOCAL_NETWORK_ADDRESS)"
            )
        host = found
    name = f"[{host}]" if ":" in host else host
    return f"the table's phones open {listening.scheme}://{name}:{port}/"
