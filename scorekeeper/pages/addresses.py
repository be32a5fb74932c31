"""Addresses: those handed to other phones and apps (links, QR codes, `Link` headers), written under the
site's public address or, for a page opened on this computer itself, under its address on the local
network; and those of many rows of one kind (each match of a list, each player of a board), built once.

Flask's url_for does as much work as the rest of a list's row; a page of rows asks the router
once for the endpoint's address and puts each row's id in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import current_app, request, url_for

from ..models import MAX_ID
from ..web.reach import is_loopback, local_network_address, network_command


def address_of(endpoint: str, key: str, **values: Any) -> Callable[[int], str]:
    """Return a function giving the address of `endpoint` for an id in `key` (the other values fixed).

    The router builds the address once around a stand-in id (the largest an id may be, which a
    value of a `<int:…>` rule shows as its digits), and each call puts the id in its place.
    """
    stand_in: dict[str, Any] = {**values, key: MAX_ID}
    head, found, tail = url_for(endpoint, **stand_in).rpartition(str(MAX_ID))
    if not found:  # the id is not in the path as digits (never so for an int rule): ask the router
        return lambda number: url_for(endpoint, **{**values, key: number})
    return lambda number: f"{head}{number}{tail}"


def public_url(endpoint: str, **values: Any) -> str:
    """Return the whole address of `endpoint` as the players' phones reach the site, for a link that
    leaves the page (a share or entry link, its QR code, an API's `Link` header).

    Under PUBLIC_URL when the host set it (a deployment), so that no such link is made of what a
    request says its Host is; else under the address this request came to (`flask run`).
    """
    base = current_app.config.get("PUBLIC_URL")
    if not base:
        return url_for(endpoint, _external=True, **values)
    path = url_for(endpoint, **values)[len(request.script_root) :]
    return f"{base}{path}"  # without a trailing slash: config.check_public_url took it off


@dataclass(frozen=True)
class TableAddress:
    """An address handed to the other phones at the table, and how far it reaches.

    `network` is this computer's address on the local network when the address was built from it (the
    page was opened on this computer itself); `served_here_only` says the app listens on loopback only,
    so that the other phones cannot open it until it serves the network, which `command` does; and
    `this_computer_only` says no local network address was found, and the address is this computer's own.
    """

    url: str
    network: str | None = None
    served_here_only: bool = False
    command: str | None = None
    this_computer_only: bool = False


def table_url(endpoint: str, **values: Any) -> TableAddress:
    """Return the address of `endpoint` that the other phones at the table open (an entry or share link).

    A page opened on this computer itself (127.0.0.1, localhost) would hand out an address that is,
    on any other phone, that phone: the link is built from this computer's address on the local
    network instead, at the same port. PUBLIC_URL, when set, is the address whatever the page's.
    """
    host = urlsplit(f"//{request.host}")
    if current_app.config.get("PUBLIC_URL") or not is_loopback(host.hostname or ""):
        return TableAddress(public_url(endpoint, **values))
    found = local_network_address()
    if found is None:
        return TableAddress(public_url(endpoint, **values), this_computer_only=True)
    name = f"[{found}]" if ":" in found else found
    port = f":{host.port}" if host.port else ""
    # The server's own address: the one it listens on (werkzeug and gunicorn both put it here).
    served_here_only = is_loopback(str(request.environ.get("SERVER_NAME", "")))
    return TableAddress(
        f"{request.scheme}://{name}{port}{url_for(endpoint, **values)}",
        network=found,
        served_here_only=served_here_only,
        command=network_command(host.port) if served_here_only else None,
    )
