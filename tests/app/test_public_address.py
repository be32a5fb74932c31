"""The links handed to other phones and apps (entry and share links, their QR codes, the API's `Link`
headers) are written under the site's configured public address, never under what a request says its
Host is."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.pages import addresses
from scorekeeper.web.hosting import StartRefused

from ..conftest import LOCAL_NETWORK, Browser
from .matchhelpers import start
from .test_api import TUTE, Api, token_for

PUBLIC = "https://scores.example.org"
FORGED = {"Host": "evil.example"}


def also_at(browser: Browser, host: str) -> None:
    """Have the browser send its cookies to `host` too, as if it had reached the site under that name."""
    for name in ("session", "remember_token"):
        found = browser.client.get_cookie(name)
        if found is not None:
            browser.client.set_cookie(name, found.value, domain=host.split(":")[0])


def test_links_are_written_under_the_public_address_whatever_host_a_request_names(ana: Browser, app: Flask) -> None:
    app.config["PUBLIC_URL"] = PUBLIC
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/entry-link")
    ana.post("/matches/1/share")
    also_at(ana, "evil.example")
    page = ana.client.get("/matches/1", headers=FORGED).get_data(as_text=True)
    assert "evil.example" not in page
    assert re.search(rf'href="{PUBLIC}/join#[\w-]{{43}}"', page) and re.search(
        rf'href="{PUBLIC}/live\?preview=[0-9a-f]{{32}}#[\w-]{{43}}"', page
    )
    assert f'data-share-url="{PUBLIC}/join#' in page
    api = Api(app.test_client(), token_for(app, "ana"))
    api.headers.update(FORGED)
    api.post("/api/v1/matches", TUTE)
    assert api.post("/api/v1/matches/1/share", None).get_json()["url"].startswith(f"{PUBLIC}/live?preview=")
    assert api.post("/api/v1/matches/1/entry-link", None).get_json()["url"].startswith(f"{PUBLIC}/join#")
    listed = api.get("/api/v1/matches?per_page=1")
    assert listed.headers["Link"].startswith(f"<{PUBLIC}/api/v1/matches?page=2&per_page=1>")


def test_without_a_public_address_links_follow_the_address_the_phone_used(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/entry-link")
    also_at(ana, "192.168.1.20")
    page = ana.client.get("/matches/1", headers={"Host": "192.168.1.20:5000"}).get_data(as_text=True)
    assert 'href="http://192.168.1.20:5000/join#' in page  # `flask run` on the table's Wi-Fi


def test_a_public_address_under_a_path_keeps_it(ana: Browser, app: Flask) -> None:
    app.config["PUBLIC_URL"] = "https://example.org/scores"
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/share")
    assert 'href="https://example.org/scores/live?preview=' in ana.get("/matches/1").get_data(as_text=True)


@pytest.mark.parametrize(
    "wrong", ["scores.example.org", "ftp://scores.example.org", "https://", "https://x.org/?a=1", "https://x.org/#top"]
)
def test_a_public_address_that_is_not_one_stops_the_start(wrong: str, tmp_path: object) -> None:
    with pytest.raises(StartRefused, match="SCOREKEEPER_PUBLIC_URL"):
        create_app(
            {
                "PUBLIC_URL": wrong,
                "SECRET_KEY": "x",
                "AUTO_MIGRATE": False,
                "SQLALCHEMY_DATABASE_URI": "sqlite://",
                "INSTANCE_PATH": str(tmp_path),
            }
        )


def test_a_page_opened_on_this_computer_hands_out_links_under_its_local_network_address(ana: Browser) -> None:
    """127.0.0.1 on another phone is that phone: the links are built from the address the app was given."""
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/entry-link")
    ana.post("/matches/1/share")
    also_at(ana, "127.0.0.1")
    page = ana.client.get("/matches/1", headers={"Host": "127.0.0.1:5000"}).get_data(as_text=True)
    assert re.search(rf'href="http://{LOCAL_NETWORK}:5000/join#[\w-]{{43}}"', page)
    assert re.search(rf'href="http://{LOCAL_NETWORK}:5000/live\?preview=[0-9a-f]{{32}}#[\w-]{{43}}"', page)
    assert "127.0.0.1" not in page
    assert f"this computer's address on the local network, {LOCAL_NETWORK}" in page


def test_the_local_network_address_found_is_the_one_the_system_routes_by(
    ana: Browser, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a setting, the address is the one a socket toward the network would leave from (no packet is sent)."""
    app.config["LOCAL_NETWORK_ADDRESS"] = ""
    monkeypatch.setattr(addresses.socket, "socket", lambda *args: RoutedSocket("192.168.1.20"))
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/entry-link")
    page = ana.client.get("/matches/1", headers={"Host": "localhost:5000"}).get_data(as_text=True)
    assert 'href="http://192.168.1.20:5000/join#' in page
    api = Api(app.test_client(), token_for(app, "ana"))
    api.headers["Host"] = "[::1]:8000"
    api.post("/api/v1/matches", TUTE)
    assert (
        api.post("/api/v1/matches/2/share", None).get_json()["url"].startswith("http://192.168.1.20:8000/live?preview=")
    )


@pytest.mark.parametrize("routed", ["127.0.1.1", "0.0.0.0", OSError("Network is unreachable")])
def test_a_computer_on_no_network_keeps_its_own_address_and_says_so(
    ana: Browser, app: Flask, routed: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.config["LOCAL_NETWORK_ADDRESS"] = ""
    monkeypatch.setattr(addresses.socket, "socket", lambda *args: RoutedSocket(routed))
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/share")
    also_at(ana, "127.0.0.1")
    page = ana.client.get("/matches/1", headers={"Host": "127.0.0.1:5000"}).get_data(as_text=True)
    assert 'href="http://127.0.0.1:5000/live?preview=' in page
    assert "This computer is on no local network, so this link opens on this computer only." in page


def test_a_server_listening_on_this_computer_only_is_told_to_serve_the_network(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/entry-link")
    also_at(ana, "127.0.0.1")
    served = {"SERVER_NAME": "127.0.0.1", "SERVER_PORT": "5000"}
    page = ana.client.get("/matches/1", headers={"Host": "127.0.0.1:5000"}, environ_overrides=served).get_data(
        as_text=True
    )
    assert "the app serves this computer only: restart it for the network (flask run --host 0.0.0.0)" in page
    everywhere = {"SERVER_NAME": "0.0.0.0", "SERVER_PORT": "5000"}
    page = ana.client.get("/matches/1", headers={"Host": "127.0.0.1:5000"}, environ_overrides=everywhere).get_data(
        as_text=True
    )
    assert "serves this computer only" not in page and f"the local network, {LOCAL_NETWORK}: the phones" in page


class RoutedSocket:
    """A UDP socket whose system would route toward the network through `routed` (or fail with it)."""

    def __init__(self, routed: object) -> None:
        self.routed = routed
        self.connected_to: object = None

    def __enter__(self) -> RoutedSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def connect(self, address: object) -> None:
        if isinstance(self.routed, OSError):
            raise self.routed
        self.connected_to = address

    def getsockname(self) -> tuple[object, int]:
        return (self.routed, 40000)
