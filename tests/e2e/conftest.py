"""End-to-end fixtures: the app served on loopback, and Debian's Chromium driven by Playwright at a
phone's size (390×844, touch). Without a browser these tests skip, except under CI=true, where a
missing browser fails the run."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app

from ..conftest import CHEAP_PASSWORD_HASH, LOCAL_NETWORK

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
    "locale": "en-US",
}
PASSWORD = "a long secret"


def _browser_missing() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (install Debian's chromium package)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Start Chromium once for the whole run."""
    missing = _browser_missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the end-to-end tests need a browser under CI: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield chromium
        chromium.close()


class InFlight:
    """Count the requests a test server is answering, so that stopping it can wait for the last one."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()

    def __enter__(self) -> None:
        with self.changed:
            self.count += 1

    def __exit__(self, *exc: object) -> None:
        with self.changed:
            self.count -= 1
            self.changed.notify_all()

    def wait_for_none(self, timeout: float) -> bool:
        """Wait until no request is being answered; tell whether that happened within `timeout` seconds."""
        with self.changed:
            return self.changed.wait_for(lambda: self.count == 0, timeout)


def answered_from_memory(app: Any, in_flight: InFlight) -> Any:
    """Wrap a WSGI app so that each answer is read whole before it is sent, and counted while it is made.

    A browser may drop a connection in the middle of a static file (a service worker's install
    cut short by the end of a test), and the development server then leaves the file open,
    which a test run that turns warnings into errors reports against whichever test comes next.
    """

    def wsgi(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        with in_flight:
            body = app(environ, start_response)
            try:
                return [b"".join(body)]
            finally:
                if hasattr(body, "close"):
                    body.close()

    return wsgi


class Server:
    """The app on a loopback port, in a thread of this process, on a fresh database.

    It listens on 127.0.0.1, where the owner's phone opens it as on the quick start, and on the same port
    of LOCAL_NETWORK (127.0.0.2), which stands in for this computer's address on the local network:
    the links the owner hands out lead the other phones there, and no test reaches the real network.
    """

    def __init__(self, tmp_path: Path, database_url: str | None = None) -> None:
        # SETUP_OPEN: the phone makes the first account at /setup, as on the quick start.
        self.app = create_app(
            {
                "SECRET_KEY": "e2e",
                "INSTANCE_PATH": str(tmp_path),
                "SETUP_OPEN": True,
                "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
                "LOCAL_NETWORK_ADDRESS": LOCAL_NETWORK,
                "SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{tmp_path / 'e2e.sqlite'}",
            }
        )
        self.in_flight = InFlight()
        for _ in range(20):  # the port free on 127.0.0.1 may be taken on the other address: take another
            served = answered_from_memory(self.app, self.in_flight)
            self.httpd = make_server("127.0.0.1", 0, served, threaded=True)
            try:
                self.network = make_server(LOCAL_NETWORK, self.httpd.server_port, served, threaded=True)
                break
            except OSError:
                self.httpd.server_close()
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.network_url = f"http://{LOCAL_NETWORK}:{self.httpd.server_port}"
        self.threads = [
            # A short poll: stopping waits for the loop to see it, half a second at the default.
            threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
            for server in (self.httpd, self.network)
        ]
        for thread in self.threads:
            thread.start()

    def stop(self) -> None:
        for server, thread in zip((self.httpd, self.network), self.threads, strict=True):
            server.shutdown()
            thread.join(5)
            server.server_close()
        # The development server answers in daemon threads, which closing it does not wait for: a
        # request still being answered would give its connection back to the pool after the engine
        # let it go, and that pool's connections would be left open until collected, in a later test.
        assert self.in_flight.wait_for_none(30), "a request was still being answered 30 s after the server stopped"
        from scorekeeper.extensions import db

        with self.app.app_context():
            db.engine.dispose()


@pytest.fixture
def server(tmp_path: Path, browser: Any, database_url: str) -> Iterator[Server]:
    """Serve a fresh app for one test (on SQLite, and again on PostgreSQL when its URL is set and the
    test is marked `both_databases`)."""
    running = Server(tmp_path, database_url)
    yield running
    running.stop()


class Phone:
    """One phone at the table: a browser context with a page, counting the taps it makes."""

    def __init__(self, browser: Any, server: Server, **options: Any) -> None:
        self.context = browser.new_context(**{**PHONE, **options})
        self.page = self.context.new_page()
        self.server = server
        self.taps = 0
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def go(self, path: str) -> Any:
        return self.page.goto(self.server.url + path)

    def tap(self, selector: str) -> None:
        """Tap once on what `selector` names (a counted touch, as a thumb would)."""
        self.page.locator(selector).first.tap()
        self.taps += 1

    def choose(self, name: str, value: object) -> None:
        """Tap the big button of one choice: the label that holds radio `name`=`value`."""
        self.tap(f"label.choice:has(input[name='{name}'][value='{value}'])")

    def type(self, selector: str, text: str) -> None:
        """Tap a field and type digits (the tap counts, the digits do not)."""
        self.tap(selector)
        self.page.locator(selector).fill(text)

    def text(self) -> str:
        return str(self.page.locator("main").inner_text())

    def sign_up(self, username: str = "ana") -> None:
        """Make the account and open the home page signed in, the form posted from the phone's own cookies.

        Posting the form as the page would, rather than filling it in, spares each test two page
        loads; `sign_up_on_the_page` fills it in, for the test of the first visit itself.
        """
        form = self.context.request.get(self.server.url + "/")  # the first account's form, or the sign-up's
        token = re.search(r'name="csrf_token" [^>]*value="([^"]+)"', form.text())
        assert token, form.text()
        fields = {"csrf_token": token.group(1), "username": username, "password": PASSWORD, "confirm": PASSWORD}
        made = self.context.request.post(form.url, form=fields)
        assert made.ok and made.url == self.server.url + "/", (made.status, made.url)
        self.go("/")

    def wait_for_the_service_worker(self) -> None:
        """Wait until the service worker is active and controls the page, reloading it if it was loaded before.

        Evaluated promises rather than a polled expression: the page's Content Security Policy
        forbids the eval() with which Playwright polls a string. A page whose load began before the
        worker claimed the open pages stays uncontrolled until it is loaded again.
        """
        self.page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        if not self.page.evaluate("() => navigator.serviceWorker.controller !== null"):
            self.page.reload()
        assert self.page.evaluate("() => navigator.serviceWorker.controller !== null"), "no service worker"

    def sign_up_on_the_page(self, username: str = "ana") -> None:
        """Make the account by filling in the form the first visit shows, as a player does."""
        self.go("/")
        self.page.fill("#username", username)
        self.page.fill("#password", PASSWORD)
        self.page.fill("#confirm", PASSWORD)
        self.page.click("button[type=submit]")
        self.page.wait_for_url(self.server.url + "/")

    def start_match(self, game: str, players: list[str], **choices: str) -> None:
        self.go(f"/matches/new/{game}")
        for seat, name in enumerate(players):
            self.page.fill(f"#players-{seat}", name)
        for field, value in choices.items():
            if field in ("leader", "first_dealer"):
                self.page.select_option(f"#{field}", value)
        if any(key.startswith("opt_") or key == "schedule_list" for key in choices):
            self.page.click("main summary")
            for field, value in choices.items():
                if field.startswith("opt_"):
                    self.page.select_option(f"#{field}", value)
                elif field == "schedule_list":
                    self.page.fill("#schedule_list", value)
        self.page.click("text=Start the match")
        self.page.wait_for_selector("#totals")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def phone(browser: Any, server: Server) -> Iterator[Phone]:
    """A phone signed in as 'ana'."""
    device = Phone(browser, server)
    device.sign_up()
    yield device
    assert device.errors == [], device.errors
    device.close()
