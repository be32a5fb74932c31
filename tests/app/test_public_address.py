"""The links handed to other phones and apps (entry and share links, their QR codes, the API's `Link`
headers) are written under the site's configured public address, never under what a request says its
Host is."""

from __future__ import annotations

import html
import logging
import os
import re
import select
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.web import reach
from scorekeeper.web.hosting import StartRefused

from ..conftest import CHEAP_PASSWORD_HASH, LOCAL_NETWORK, PASSWORD, Browser
from .matchhelpers import start
from .servers import HttpBrowser, free_port
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
    monkeypatch.setattr(reach.socket, "socket", lambda *args: RoutedSocket("192.168.1.20"))
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
    monkeypatch.setattr(reach.socket, "socket", lambda *args: RoutedSocket(routed))
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
    assert "the app serves this computer only." in page
    assert '<p class="command"><code>flask --app scorekeeper run --host 0.0.0.0 --port 5000</code></p>' in page
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


#: Where the start's line says the table's phones open the app, or the command that lets them in.
PHONES_OPEN = re.compile(r"the table's phones open (\S+)")
CANNOT_REACH = re.compile(
    r"the table's phones cannot reach it: (.+?) listens on (\S+), this computer only; "
    r"to serve the local network, start it with `([^`]+)`( \(behind a proxy, name the site's address in "
    r"SCOREKEEPER_PUBLIC_URL instead\))?$"
)


@contextmanager
def started(command: list[str], port: str, folder: Path, env: dict[str, str]) -> Iterator[tuple[str, str]]:
    """Start the app with a host's command line (on `port`); yield its start's line and its address on this computer."""
    with subprocess.Popen(command, cwd=folder, env=env, stderr=subprocess.PIPE, text=True) as server:
        assert server.stderr is not None
        try:
            line = ""
            deadline = time.monotonic() + 60
            while "schema revision" not in line and time.monotonic() < deadline:
                ready, _, _ = select.select([server.stderr], [], [], 1)
                said = server.stderr.readline() if ready else ""
                assert said or server.poll() is None, f"{shlex.join(command)} stopped"
                line = said or line
            assert "schema revision" in line, f"{shlex.join(command)} logged no start's line"
            url = f"http://127.0.0.1:{port}"
            until_it_answers(url)
            yield line.rstrip("\n"), url
        finally:
            server.terminate()
            server.wait(30)


def until_it_answers(url: str) -> None:
    """Wait until the app answers at `url` (its server listens once the start's line is logged)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/login", timeout=5) as page:
                assert page.status == 200
                return
        except (urllib.error.URLError, ConnectionError):
            assert time.monotonic() < deadline, f"nothing answers at {url}"
            time.sleep(0.1)


@pytest.fixture
def quick_start_with_a_table(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A quick start's instance folder holding ana's account and a match; return the
    folder the host runs the app from and the settings (this computer's address on the local network
    named only when it is on none, as a loopback address of its own)."""
    instance = tmp_path / "instance"
    made = create_app(
        {
            "SECRET_KEY": "quick start",
            "INSTANCE_PATH": str(instance),
            "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
        }
    )
    env = {name: value for name, value in os.environ.items() if not name.startswith("SCOREKEEPER_")}
    env.update(
        SCOREKEEPER_INSTANCE_PATH=str(instance),
        SCOREKEEPER_PASSWORD_HASH_METHOD=CHEAP_PASSWORD_HASH,
        HOME=str(tmp_path),  # gunicorn's control socket
    )
    with made.app_context():
        ana = services.create_user("ana", PASSWORD)
        services.start_match(ana, "tute2", ["Ana", "Luis"], {}, 0)
        if reach.local_network_address() is None:
            env["SCOREKEEPER_LOCAL_NETWORK_ADDRESS"] = "127.0.0.2"
        db.session.remove()
        db.engine.dispose()
    return tmp_path, env


def served_to_the_table(line: str) -> str:
    """Return the address the start's line says the table's phones open, checking that it answers there."""
    found = PHONES_OPEN.search(line)
    assert found, line
    host = urlsplit(found.group(1)).hostname
    assert host is not None and not host.startswith("127.0.0.1"), line
    until_it_answers(found.group(1).rstrip("/"))
    return found.group(1)


def test_flask_run_says_the_phones_cannot_reach_it_and_the_command_it_and_the_page_give_lets_them_in(
    quick_start_with_a_table: tuple[Path, dict[str, str]],
) -> None:
    folder, env = quick_start_with_a_table
    flask, port = str(Path(sys.executable).parent / "flask"), str(free_port())  # the quick start's .venv/bin/flask
    with started([flask, "--app", "scorekeeper", "run", "--port", port], port, folder, env) as (line, url):
        refused = CANNOT_REACH.search(line)
        assert refused and refused.groups()[:2] == ("flask run", f"127.0.0.1:{port}"), line
        command = [flask, "--app", "scorekeeper", "run", "--host", "0.0.0.0", "--port", port]
        assert refused.group(3) == shlex.join(command), line
        browser = HttpBrowser(url)
        assert browser.sign_in("ana", PASSWORD) == 302
        assert browser.post("/matches/1/entry-link", {})[0] == 302
        with browser.opener.open(f"{url}/matches/1", timeout=30) as answer:
            page = answer.read().decode()
        shown = re.search(r'<p class="command"><code>([^<]+)</code></p>', page)
        assert shown and html.unescape(shown.group(1)) == shlex.join(command), page
    with started(shlex.split(html.unescape(shown.group(1))), port, folder, env) as (line, _):
        assert served_to_the_table(line).endswith(f":{port}/")


def test_gunicorn_says_where_the_table_s_phones_reach_it_or_the_command_that_lets_them_in(
    quick_start_with_a_table: tuple[Path, dict[str, str]],
) -> None:
    folder, env = quick_start_with_a_table
    gunicorn, port = [sys.executable, "-m", "gunicorn", "--preload", "-w", "1"], str(free_port())
    app = "scorekeeper:create_app()"
    with started([*gunicorn, "-b", f"127.0.0.1:{port}", app], port, folder, env) as (line, _):
        refused = CANNOT_REACH.search(line)
        assert refused and refused.groups()[:2] == ("gunicorn", f"127.0.0.1:{port}"), line
        assert refused.group(4), line  # a gunicorn on this computer only may be behind a proxy
        command = [*gunicorn[:3], "--bind", f"0.0.0.0:{port}", *gunicorn[3:], app]
        assert refused.group(3) == shlex.join(command), line
    with started(command, port, folder, env) as (line, _):
        assert served_to_the_table(line).endswith(f":{port}/")


def test_a_site_s_start_says_the_phones_open_its_public_address(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="scorekeeper")
    create_app({"SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path), "PUBLIC_URL": PUBLIC})
    [line] = [record.getMessage() for record in caplog.records if "schema revision" in record.getMessage()]
    assert line.endswith(f"; the table's phones open {PUBLIC}")


def test_the_gunicorn_command_shown_keeps_no_setting_s_value() -> None:
    # The command goes to the host's log and onto the owner's pages: a secret key or a database's
    # password given to gunicorn with -e would be read there.
    shown = reach._with_bind(
        ["--preload", "-e", "SCOREKEEPER_SECRET_KEY=abc", "-b", "127.0.0.1:8000", "--env=SCOREKEEPER_DATABASE_URL=pw"]
        + ["-eSCOREKEEPER_PUBLIC_URL=x", "scorekeeper:create_app()"],
        "0.0.0.0:8000",
    )
    assert shown == [
        "--bind",
        "0.0.0.0:8000",
        "--preload",
        "-e",
        "SCOREKEEPER_SECRET_KEY=…",
        "--env",
        "SCOREKEEPER_DATABASE_URL=…",
        "-e",
        "SCOREKEEPER_PUBLIC_URL=…",
        "scorekeeper:create_app()",
    ]
