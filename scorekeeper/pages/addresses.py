"""Addresses: those handed to other phones and apps (links, QR codes, `Link` headers), written under the
site's public address; and those of many rows of one kind (each match of a list, each player of a
board), built once.

Flask's url_for costs some 10 µs a call, as much as the rest of a list's row; a page of rows
asks the router once for the endpoint's address and puts each row's id in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app, request, url_for

from ..models import MAX_ID


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
    path = url_for(endpoint, **values)[len(request.script_root):]
    return f"{base}{path}"  # without a trailing slash: config.check_public_url took it off
