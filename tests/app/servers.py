"""The app served by gunicorn with several worker processes, for tests of what real concurrent requests do."""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scorekeeper import create_app, services
from scorekeeper.extensions import db

from ..conftest import CHEAP_PASSWORD_HASH

WORKERS = 4
PASSWORD = "a long secret"


def free_port() -> int:
    """Return a TCP port on loopback that nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served(
    database_url: str, folder: Path, settings: Mapping[str, str] | None = None, workers: int = WORKERS
) -> Iterator[tuple[str, str]]:
    """Serve the app on `database_url` with an account 'ana' (PASSWORD); yield its URL and an API token of ana's.

    `settings` are more SCOREKEEPER_* variables for the server.
    """
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": "concurrency",
        "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"),
        "SCOREKEEPER_PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
        **(settings or {}),
    }
    token = account_with_token(database_url, folder / "instance")
    port = free_port()
    # A short graceful timeout: stopping waits for no request, and gunicorn's workers can take
    # seconds to exit on a busy machine.
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--preload",
            "-w",
            str(workers),
            "-b",
            f"127.0.0.1:{port}",
            "--graceful-timeout",
            "3",
            "scorekeeper:create_app()",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + "/login", timeout=2):
                break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    try:
        yield url, token
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def account_with_token(database_url: str, instance: Path) -> str:
    """Make the account 'ana' (PASSWORD) on the database, bringing it up to date first; return an API token of hers.

    Made in this process: the command line would start Python and the app twice more per server.
    """
    app = create_app(
        {
            "SECRET_KEY": "concurrency",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "INSTANCE_PATH": str(instance),
            "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
        }
    )
    with app.app_context():
        token = services.create_api_token(services.create_user("ana", PASSWORD), "concurrency")
        db.engine.dispose()
    return token


class _Stay(urllib.request.HTTPRedirectHandler):
    """Answer with the redirect itself, as a page sees it before the browser follows it."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class HttpBrowser:
    """A browser on a served app: its cookies, its pages' CSRF token, and the address it comes from
    (sent as X-Forwarded-For, for a server told to trust one proxy). It shows redirects rather than follow them."""

    def __init__(self, url: str, address: str | None = None) -> None:
        self.url, self.address = url, address
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _Stay()
        )
        self.token = self.csrf("/login")

    def _request(self, path: str, data: bytes | None = None) -> urllib.request.Request:
        headers = {"X-Forwarded-For": self.address} if self.address else {}
        return urllib.request.Request(self.url + path, data=data, headers=headers)

    def csrf(self, path: str) -> str:
        """Return the CSRF token of the session, from a page's meta tag."""
        with self.opener.open(self._request(path), timeout=30) as response:
            found = re.search(r'name="csrf-token" content="([^"]+)"', response.read().decode())
        assert found, path
        return found.group(1)

    def post(self, path: str, data: dict[str, str]) -> tuple[int, str]:
        """Post a form with the CSRF token; return the status and where it redirects (if it does)."""
        body = urllib.parse.urlencode({**data, "csrf_token": self.token}).encode()
        try:
            with self.opener.open(self._request(path, body), timeout=30) as response:
                return response.status, ""
        except urllib.error.HTTPError as answer:
            answer.close()
            return answer.code, answer.headers.get("Location", "")

    def sign_in(self, username: str, password: str) -> int:
        """Sign in; return the answer's status (302 when signed in, then with the session's new CSRF token)."""
        status, _ = self.post("/login", {"username": username, "password": password})
        if status == 302:
            self.token = self.csrf("/")
        return status
