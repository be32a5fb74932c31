"""The real server for the hostile-input test: gunicorn with several sync workers on one
database, its accounts and first API tokens made with the command line, and a watch on its
log for workers that time out, die or are booted again."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ..conftest import CHEAP_PASSWORD_HASH
from .servers import PASSWORD, free_port  # every test server's account password, and a port to serve on

#: Worker processes; a few, so that one stuck worker leaves the others answering.
WORKERS = int(os.environ.get("SCOREKEEPER_FUZZ_WORKERS", "4"))
#: Seconds gunicorn lets a worker spend on one request before it kills it and boots another.
WORKER_TIMEOUT = 5
#: As much as anyone may try: the test signs in again every time a request signs it out.
GENEROUS = "1000000 per minute"

_BOOTED = re.compile(r"Booting worker with pid: (\d+)")
#: Lines of gunicorn's log that say a worker did not simply keep serving.
_TROUBLE = re.compile(
    r"WORKER TIMEOUT|Worker exit|exited with code|was sent SIG|Perhaps out of memory"
    r"|Exception in worker process|Unhandled exception in main loop"
)
_LOG_HEADER = re.compile(r"^\[\d{4}-\d\d-\d\d[ T]")


@dataclass
class Server:
    """A running gunicorn: its address, its process, and every line of its log as it comes."""

    port: int
    process: subprocess.Popen[bytes]
    env: dict[str, str]
    lines: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    reader: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Return the server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def follow(self, stream: IO[bytes]) -> None:
        """Keep every line gunicorn writes (run in a thread until the stream closes)."""
        for raw in iter(stream.readline, b""):
            with self.lock:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def mark(self) -> int:
        """Return a position in the log, for `since`."""
        with self.lock:
            return len(self.lines)

    def since(self, mark: int) -> list[str]:
        """Return the log lines written after `mark`."""
        with self.lock:
            return self.lines[mark:]

    def booted(self) -> list[int]:
        """Return the pid of every worker booted so far, in order."""
        return [int(found.group(1)) for line in self.since(0) if (found := _BOOTED.search(line))]

    def troubles(self) -> list[str]:
        """Return what gunicorn's log tells of workers timing out, dying or booting again."""
        found = [line for line in self.since(0) if _TROUBLE.search(line)]
        again = len(self.booted()) - WORKERS
        if not found and again <= 0:
            return []
        timeouts = [line for line in found if "WORKER TIMEOUT" in line]
        return [f"{len(timeouts)} worker timeouts, {again} workers booted again; gunicorn said:", *(timeouts or found)]

    def worker_pids(self) -> set[int]:
        """Return the pids of gunicorn's worker processes right now (its children)."""
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text()
        except OSError:
            return set()
        return {int(pid) for pid in children.split()}

    def cpu_seconds(self) -> float:
        """Return the processor time gunicorn and its workers (live or ended) have used so far."""
        total = 0
        for pid in [self.process.pid, *self.worker_pids()]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # its own time
            if pid == self.process.pid:
                total += int(fields[13]) + int(fields[14])  # and that of the workers it has seen end
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """Stop gunicorn and its workers, and read its log to the end."""
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        if self.reader is not None:
            self.reader.join(5)
        if self.process.stderr is not None:
            self.process.stderr.close()


def tracebacks(lines: list[str]) -> list[tuple[str, str]]:
    """Return the app's logged exceptions as (first line, whole text) pairs, in order."""
    found: list[tuple[str, str]] = []
    block: list[str] = []
    for line in [*lines, "[0000-00-00 end]"]:
        if _LOG_HEADER.match(line):
            if block and len(block) > 1:
                found.append((block[0], "\n".join(block)))
            block = [line] if "Exception on" in line or "Error handling request" in line else []
        elif block:
            block.append(line)
    return found


def flask_command(env: dict[str, str], *args: str, stdin: bytes | None = None) -> str:
    """Run `flask --app scorekeeper ARGS` on the test's database; return what it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", *args],
        input=stdin,
        env=env,
        check=True,
        capture_output=True,
    )
    return done.stdout.decode()


def server_environment(database_url: str, instance: Path) -> dict[str, str]:
    """Return the environment the command line and gunicorn run the app with.

    Passwords are hashed the test suite's cheap way: with scrypt, the sign-ins (the test's own,
    again after every request that signs it out, and the generated ones) took half the server's time.
    """
    return {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": "hostile input",
        "SCOREKEEPER_PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
        "SCOREKEEPER_INSTANCE_PATH": str(instance),
        "SCOREKEEPER_SIGNUP_OPEN": "true",
        "SCOREKEEPER_SIGN_IN_LIMIT_PER_ADDRESS": GENEROUS,
        "SCOREKEEPER_SIGN_IN_LIMIT_PER_ACCOUNT": GENEROUS,
        "SCOREKEEPER_SIGN_UP_LIMIT_PER_ADDRESS": GENEROUS,
    }


def create_account(env: dict[str, str], username: str) -> None:
    """Make the account `username` with the command line (which also brings the database up to date)."""
    flask_command(env, "user", "create", username, "--password-stdin", stdin=f"{PASSWORD}\n".encode())


def create_token(env: dict[str, str], username: str) -> str:
    """Make an API token for `username` with the command line; return it."""
    return flask_command(env, "token", "create", username, "--label", "hostile input").strip().splitlines()[-1]


def start_server(env: dict[str, str]) -> Server:
    """Start gunicorn (the app loaded once, before the workers fork) and wait until every worker is up."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--preload",
            "-w",
            str(WORKERS),
            "-b",
            f"127.0.0.1:{port}",
            "--timeout",
            str(WORKER_TIMEOUT),
            "--graceful-timeout",
            "2",
            "--limit-request-line",
            "0",
            "--log-level",
            "info",
            "scorekeeper:create_app()",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    server = Server(port, process, env)
    assert process.stderr is not None
    server.reader = threading.Thread(target=server.follow, args=(process.stderr,), daemon=True)
    server.reader.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn did not start:\n" + "\n".join(server.since(0)))
        try:
            with urllib.request.urlopen(server.url + "/offline", timeout=2):
                pass
            if len(server.booted()) >= WORKERS:
                return server
        except (urllib.error.URLError, ConnectionError):
            pass
        time.sleep(0.1)
    server.stop()
    raise RuntimeError("gunicorn did not answer within a minute:\n" + "\n".join(server.since(0)))
