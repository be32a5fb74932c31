"""The app served by gunicorn with several worker processes, for tests of what real concurrent requests do."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

WORKERS = 4
PASSWORD = "a long secret"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served(database_url: str, folder: Path, settings: Mapping[str, str] | None = None,
           workers: int = WORKERS) -> Iterator[tuple[str, str]]:
    """Serve the app on `database_url` with an account 'ana' (PASSWORD); yield its URL and an API token of ana's.

    `settings` are more SCOREKEEPER_* variables for the server.
    """
    env = {**os.environ, "SCOREKEEPER_DATABASE_URL": database_url, "SCOREKEEPER_SECRET_KEY": "concurrency",
           "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"), **(settings or {})}
    flask = [sys.executable, "-m", "flask", "--app", "scorekeeper"]
    subprocess.run([*flask, "user", "create", "ana", "--password-stdin"], input=f"{PASSWORD}\n".encode(), env=env,
                   check=True, capture_output=True)
    token = subprocess.run([*flask, "token", "create", "ana"], env=env, check=True,
                           capture_output=True, text=True).stdout.strip().splitlines()[-1]
    port = free_port()
    # A short graceful timeout: stopping waits for no request, and gunicorn's workers can take
    # seconds to exit on a busy machine.
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "--preload", "-w", str(workers), "-b",
                               f"127.0.0.1:{port}", "--graceful-timeout", "3", "scorekeeper:create_app()"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
