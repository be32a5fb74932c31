"""Hostile input against the real server: thousands of generated requests, across every route of
the url_map, signed out, signed in and with an API token, never get a server error, never
take longer than a phone would wait, never leave a worker stuck, and never lose their
connection.

Settings (environment variables): SCOREKEEPER_FUZZ_SEED (random unless set; printed),
SCOREKEEPER_FUZZ_REQUESTS (5,000), SCOREKEEPER_FUZZ_CLIENTS (4 client threads),
SCOREKEEPER_FUZZ_WORKERS (4 gunicorn workers), SCOREKEEPER_FUZZ_SLOW (2 seconds).
"""

from __future__ import annotations

import os
import random
import tempfile
import threading
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from scorekeeper import create_app

from ..conftest import DATABASES
from .hostile_client import API, SIGNED_IN, SIGNED_OUT, Connection, Visitor
from .hostile_data import OWN, Stock
from .hostile_report import Failure, kind_of, report
from .hostile_requests import Generator, Route, discover_routes, form_field_names, static_files
from .hostile_server import (
    PASSWORD,
    WORKERS,
    Server,
    create_account,
    create_token,
    server_environment,
    start_server,
)

#: 5,000 requests by default, in a developer's run of the suite and in CI alike.
REQUESTS = int(os.environ.get("SCOREKEEPER_FUZZ_REQUESTS", "5000"))
CLIENTS = int(os.environ.get("SCOREKEEPER_FUZZ_CLIENTS", "4"))
SLOW = float(os.environ.get("SCOREKEEPER_FUZZ_SLOW", "2"))
#: Every so many requests, the prepared matches that requests deleted or changed are made again.
KEEP_EVERY = 400


def seed() -> int:
    """Return the seed of this run: SCOREKEEPER_FUZZ_SEED, or a new random one."""
    chosen = os.environ.get("SCOREKEEPER_FUZZ_SEED")
    return int(chosen) if chosen else random.SystemRandom().randrange(10**9)


@dataclass
class Tally:
    """What the clients saw, gathered from every thread."""

    answers: Counter[str] = field(default_factory=Counter)
    routes: Counter[str] = field(default_factory=Counter)
    route_seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    modes: Counter[str] = field(default_factory=Counter)
    restored: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Run:
    """Client threads that take the next request number, make that request, send it and tally the answer."""

    def __init__(self, server: Server, stock: Stock, generator: Generator, count: int) -> None:
        self.server, self.stock, self.generator, self.count = server, stock, generator, count
        self.tally = Tally()
        self.numbers = iter(range(count))
        self.numbers_lock = threading.Lock()

    def next_number(self) -> int | None:
        """Return the number of the next request to send, or None when all were taken."""
        with self.numbers_lock:
            return next(self.numbers, None)

    def problem(self, text: str) -> None:
        """Note something that went wrong besides a failing answer."""
        with self.tally.lock:
            self.tally.problems.append(text)

    def client(self) -> None:
        """Send requests until there are none left, as the three visitors, each kept as it should be."""
        connection = Connection(self.server.port)
        try:
            browser = Visitor(SIGNED_IN, OWN, PASSWORD)
            browser.sign_in(connection)
            stranger = Visitor(SIGNED_OUT, OWN, PASSWORD)
            stranger.sign_out(connection)
            visitors = {
                SIGNED_IN: browser,
                SIGNED_OUT: stranger,
                API: Visitor(API, OWN, PASSWORD, api_token=browser.new_api_token(connection)),
            }
            while (number := self.next_number()) is not None:
                if number % KEEP_EVERY == KEEP_EVERY - 1:
                    self.keep()
                try:
                    self.send(connection, visitors, number)
                except Exception:  # a fault of the test itself: say so, and carry on with the next request
                    self.problem(f"request {number} could not be made or sent:\n{traceback.format_exc()}")
        except RuntimeError as error:
            self.problem(f"a client stopped: {error}")
        finally:
            connection.close()

    def keep(self) -> None:
        """Make the prepared matches that requests deleted or changed again."""
        try:
            made = self.stock.keep()
        except RuntimeError as error:
            self.problem(f"making the prepared matches again: {error}")
            return
        with self.tally.lock:
            self.tally.restored["made prepared matches again"] += made

    def send(self, connection: Connection, visitors: dict[str, Visitor], number: int) -> None:
        """Make request `number`, send it as its visitor, tally the answer, and put the visitor back."""
        spec = self.generator.make(number)
        visitor = visitors[spec.mode]
        answer = visitor.request(connection, spec.method, spec.path, spec.headers, spec.body)
        failing = kind_of(answer, SLOW)
        try:
            restored = visitor.restore(connection, spec.headers, answer, visitors[SIGNED_IN])
        except RuntimeError as error:
            restored = None
            self.problem(f"after request {number} ({spec.label}): {error}")
        with self.tally.lock:
            self.tally.answers[str(answer.status or answer.error)] += 1
            self.tally.routes[spec.route.label] += 1
            self.tally.route_seconds[spec.route.label] += answer.seconds
            self.tally.modes[spec.mode] += 1
            self.tally.seconds.append(answer.seconds)
            if restored:
                self.tally.restored[restored] += 1
            if failing:
                self.tally.failures.append(Failure(spec, answer, failing))

    def go(self, clients: int) -> float:
        """Run the clients to the end; return how long it took."""
        started = time.perf_counter()
        threads = [threading.Thread(target=self.client, name=f"hostile client {n}") for n in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return time.perf_counter() - started


@pytest.fixture
def served(database_url: str, tmp_path: Path) -> Iterator[tuple[Server, Stock]]:
    """Serve the app with gunicorn on the test's database, with the prepared data on it."""
    env = server_environment(database_url, tmp_path / "instance")
    create_account(env, OWN)  # with the command line, which also brings a fresh PostgreSQL schema up to date
    with ThreadPoolExecutor(1) as pool:
        token = pool.submit(create_token, env, OWN)
        server = start_server(env)
    try:
        stock = Stock(server, token.result())
        stock.prepare()
        yield server, stock
        stock.connection.close()
    finally:
        server.stop()


def routes_and_fields() -> tuple[list[Route], list[str], list[str]]:
    """Return the app's routes, its forms' field names and its static files (from an app of its own)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "routes",
                "INSTANCE_PATH": folder,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/routes.sqlite",
            }
        )
        return discover_routes(app), form_field_names(app), static_files(app)


def _percentile(values: list[float], share: float) -> float:
    """Return the value below which `share` of the values lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def summary(
    run: Run,
    chosen_seed: int,
    seconds: float,
    cpu: tuple[float, float, float, float],
    routes: list[Route],
    database: str,
) -> str:
    """Return what the run did, whatever came of it."""
    tally = run.tally
    times = tally.seconds
    heaviest = sorted(tally.route_seconds.items(), key=lambda item: -item[1])[:5]
    return "\n".join(
        [
            f"Hostile input: seed {chosen_seed} (SCOREKEEPER_FUZZ_SEED={chosen_seed} sends the same requests), "
            f"{len(times)} requests in {seconds:.1f} s ({len(times) / max(seconds, 1e-9):.0f}/s) from {CLIENTS} "
            f"clients to {WORKERS} gunicorn workers on {database}",
            f"  processor time: server {cpu[0]:.0f} s, clients {cpu[1]:.0f} s; the machine's load average "
            f"{cpu[2]:.1f} before, {cpu[3]:.1f} after",
            f"  answers: {dict(sorted(tally.answers.items()))}",
            f"  as: {dict(tally.modes)}; then: {dict(tally.restored)}",
            f"  time: median {_percentile(times, 0.5) * 1000:.0f} ms, p95 {_percentile(times, 0.95) * 1000:.0f} ms, "
            f"p99 {_percentile(times, 0.99) * 1000:.0f} ms, slowest {max(times, default=0):.2f} s",
            f"  routes: {sum(1 for r in routes if tally.routes[r.label])} of {len(routes)} methods of the url_map; "
            f"fewest requests: {min((tally.routes[r.label] for r in routes), default=0)}",
            "  most time: " + ", ".join(f"{label} {total:.0f} s/{tally.routes[label]}" for label, total in heaviest),
        ]
    )


# Once a run, on the last database configured: PostgreSQL in CI, where requests meet each other's
# locks, else SQLite. Ten thousand requests take a minute and a half; the other tests run on both.
# Alone: an answer slower than SLOW fails it, and another worker's tests would slow the server.
@pytest.mark.alone
@pytest.mark.parametrize("database_url", DATABASES[-1:], indirect=True)
def test_hostile_requests_never_break_the_server(served: tuple[Server, Stock], database_url: str) -> None:
    server, stock = served
    chosen_seed = seed()
    print(f"\nHostile input: seed {chosen_seed}, {REQUESTS} requests", flush=True)
    routes, field_names, statics = routes_and_fields()
    generator = Generator(chosen_seed, routes, field_names, statics, stock.prepared)
    workers_before = server.worker_pids()
    run = Run(server, stock, generator, max(REQUESTS, len(routes)))
    cpu_before, client_before, load_before = server.cpu_seconds(), time.process_time(), os.getloadavg()[0]
    seconds = run.go(CLIENTS)
    time.sleep(1)  # let gunicorn's log catch up
    cpu = (server.cpu_seconds() - cpu_before, time.process_time() - client_before, load_before, os.getloadavg()[0])
    troubles = server.troubles()
    workers_after = server.worker_pids()
    if workers_after != workers_before:
        troubles.append(f"the workers changed: {sorted(workers_before)} before, {sorted(workers_after)} after")
    if server.process.poll() is not None:
        troubles.append(f"gunicorn stopped (exit code {server.process.returncode})")
    text = summary(run, chosen_seed, seconds, cpu, routes, database_url.split(":")[0])
    print(text, flush=True)
    problems = run.tally.problems + stock.problems + troubles
    failures = run.tally.failures
    entries = report(server, stock, failures, SLOW) if failures and server.process.poll() is None else []
    if entries or problems:
        details = "\n\n".join(
            [text, "\n".join(problems), *(f"{n}. {entry}" for n, entry in enumerate(entries, start=1))]
        )
        pytest.fail(
            f"{len(failures)} requests failed, {len(entries)} distinct; other problems: {len(problems)} "
            f"lines (seed {chosen_seed}):\n\n{details}",
            pytrace=False,
        )
