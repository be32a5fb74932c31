"""Two hosts of one site started at the same moment on one PostgreSQL database that their new version has
migrations for, as after an upgrade of both, or a reboot: the start that comes second waits for the first
one's migrations and then finds nothing to do; both serve, and nothing is lost.

Each host is gunicorn as deploy/scorekeeper.service runs it (--preload: the app, and its migrations,
start once before the workers fork), with the same settings but for its own port and home folder. Each
round starts from the history at the last release (tests/app/test_killed_upgrades.py makes it), and must
end with the rows a single start makes of it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..conftest import CHEAP_PASSWORD_HASH, PASSWORD
from .servers import HttpBrowser, free_port
from .test_killed_upgrades import (  # noqa: F401  (the fixtures the history at the release is made with)
    CHECKOUT,
    HEAD,
    RELEASE,
    PostgresRelease,
    assert_whole,
    facts,
    on_postgresql,
    postgres_release,
    starter,
)

#: The starts are tried again until they have met (one host found the other migrating) in a round
#: after the first `MIN_ROUNDS`, or `MAX_ROUNDS` have passed: every round checks that nothing was lost.
MIN_ROUNDS, MAX_ROUNDS = 3, 10
#: How long a host may take to answer after it was started (its migrations and figures included).
START_TIMEOUT = 180


@dataclass
class Host:
    """gunicorn serving the app on one port, started as the unit starts it, and what it wrote to its output."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        """Return what gunicorn and the app's start wrote so far."""
        return self.log.read_text(errors="replace")

    def answers(self) -> bool:
        """Tell whether the host answers its sign-in page."""
        try:
            with urllib.request.urlopen(self.url + "/login", timeout=5) as page:
                return bool(page.status == 200)
        except (urllib.error.URLError, ConnectionError):
            return False


@contextmanager
def host(database_url: str, folder: Path) -> Iterator[Host]:
    """Start gunicorn on the database as scorekeeper.service does (with one worker); stop it afterwards."""
    folder.mkdir(parents=True)
    environment = {
        **{name: value for name, value in os.environ.items() if not name.startswith("SCOREKEEPER_")},
        # The checkout's code, whatever is installed.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH")])),
        "HOME": str(folder),  # gunicorn's control socket, one per host
        "SCOREKEEPER_DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": "one site",
        "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"),
        "SCOREKEEPER_PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
    }
    port = free_port()
    log = folder / "gunicorn.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--preload", "--workers", "1", "--bind", f"127.0.0.1:{port}"]
            + ["--graceful-timeout", "3", "scorekeeper:create_app()"],
            cwd=folder,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        yield Host(f"http://127.0.0.1:{port}", process, log)
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def started(hosts: list[Host]) -> None:
    """Wait until every host answers or has exited (a start that failed)."""
    deadline = time.monotonic() + START_TIMEOUT
    waiting = list(hosts)
    while waiting and time.monotonic() < deadline:
        waiting = [one for one in waiting if one.process.poll() is None and not one.answers()]
        time.sleep(0.2)
    assert not waiting, f"a host neither answered nor stopped in {START_TIMEOUT} s:\n{waiting[0].output()[-3000:]}"


@on_postgresql
def test_two_hosts_started_together_on_pending_migrations_both_serve_and_lose_nothing(
    postgres_release: PostgresRelease,
    tmp_path: Path,
) -> None:
    overlapped = 0  # the rounds in which one host found the other migrating, and waited for it
    for number in range(MAX_ROUNDS):
        if number >= MIN_ROUNDS and overlapped:
            break
        url = postgres_release.schemas.copy(postgres_release.template)
        with ExitStack() as stack:
            hosts = [stack.enter_context(host(url, tmp_path / f"round-{number}" / name)) for name in ("a", "b")]
            started(hosts)
            for one in hosts:
                assert one.process.poll() is None and one.answers(), (
                    f"round {number}: a host did not start:\n{one.output()[-3000:]}"
                )
            outputs = [one.output() for one in hosts]
            assert "Traceback" not in "".join(outputs), f"round {number}:\n" + "\n".join(outputs)
            upgraded = [
                output for output in outputs if f"schema revision {HEAD} (upgraded just now from {RELEASE})" in output
            ]
            assert len(upgraded) == 1, f"round {number}: not one host upgraded the database:\n" + "\n".join(outputs)
            overlapped += any("Another process is migrating the database" in output for output in outputs)
            assert facts(url) == postgres_release.upgraded.facts, f"round {number}: the rows differ from one start's"
            assert_whole(url)
            for one in hosts:
                assert HttpBrowser(one.url).sign_in("ana", PASSWORD) == 302, (
                    f"round {number}: {one.url} signs nobody in"
                )
    assert overlapped > 0, "the two starts never met: the rounds tried nothing"
