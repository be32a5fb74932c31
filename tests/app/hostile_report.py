"""What the hostile-input test says when requests fail: each distinct defect once, with the
exact request that shows it (sent alone once more, to confirm it and to catch the traceback
it leaves in gunicorn's log)."""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass

from .hostile_client import API, CSRF_MARK, SIGNED_IN, SIGNED_OUT, TOKEN_MARK, Answer, Connection, Visitor
from .hostile_data import OWN, Stock
from .hostile_requests import Spec
from .hostile_server import PASSWORD, WORKER_TIMEOUT, Server, tracebacks

#: Failing requests sent alone again, at most, per route and kind of failure.
REPLAYS_PER_GROUP = 6


@dataclass
class Failure:
    """A request whose answer broke a promise: a server error, no answer, or a slow one."""

    spec: Spec
    answer: Answer
    kind: str


def kind_of(answer: Answer, slow: float) -> str | None:
    """Return how an answer fails (None if it does not): 'answered 5xx', 'no answer (…)', 'slower than …'."""
    if answer.error is not None:
        return f"no answer ({answer.error.split(':')[0]})"
    if answer.status is not None and answer.status >= 500:
        return f"answered {answer.status}"
    if answer.seconds > slow:
        return f"slower than {slow:g} s"
    return None


def compact(data: bytes | str) -> str:
    """Return a Python expression equal to `data`, with long runs of one character as repetitions."""
    pattern = re.compile(rb"(.)\1{19,}" if isinstance(data, bytes) else r"(.)\1{19,}", re.DOTALL)
    pieces, start = [], 0
    for run in pattern.finditer(data):  # type: ignore[arg-type]
        if run.start() > start:
            pieces.append(repr(data[start : run.start()]))
        pieces.append(f"{run.group(1)!r} * {len(run.group(0))}")
        start = run.end()
    if start < len(data) or not pieces:
        pieces.append(repr(data[start:]))
    return " + ".join(pieces)


def _shown(text: str) -> str:
    """Return text with the secrets' placeholders written as {names}."""
    return text.replace(CSRF_MARK, "{csrf}").replace(TOKEN_MARK, "{api_token}")


def describe(spec: Spec, fresh: bool = False) -> str:
    """Return the request as it can be sent again: method, path, headers, body (secrets as {names})."""
    who = {
        SIGNED_OUT: "signed out, with the session cookie of a GET /login",
        SIGNED_IN: f"signed in as {OWN} (password {PASSWORD!r}), with that session's cookie",
        API: f"a script with an API token of {OWN}, no cookies",
    }[spec.mode]
    lines = [f"    as: {who}; {{csrf}} is the CSRF token of the session's pages, {{api_token}} an API token"]
    if spec.match is not None and fresh:
        lines.append(
            f"    match {spec.match.id} is a fresh '{spec.match.kind}' match of {spec.match.owner}, "
            f"as the test prepares it (hostile_data.MATCHES)"
        )
    lines.append(f"    {spec.method} {compact(_shown(spec.path))}")
    lines += [f"    {name}: {compact(_shown(value))}" for name, value in spec.headers]
    if spec.body is not None:
        body = spec.body.replace(CSRF_MARK.encode(), b"{csrf}").replace(TOKEN_MARK.encode(), b"{api_token}")
        lines.append(f"    body = {compact(body)}")
    return "\n".join(lines)


def signature(text: str) -> str:
    """Return what tells one traceback's defect from another's: its exception and its deepest frame of the app."""
    lines = text.strip().splitlines()
    frames = [line.strip() for line in lines if line.strip().startswith("File ")]
    ours = [frame for frame in frames if "/scorekeeper/" in frame or "/templates/" in frame]
    where = (ours or frames or ["?"])[-1]
    where = re.sub(r'File ".*?/((?:scorekeeper|templates|site-packages)/[^"]+)"', r"\1", where)
    exception = _exception_line(text).split(":")[0]
    if any("handle_abort" in frame for frame in frames):  # gunicorn stopped it: WORKER TIMEOUT
        exception = "stuck until gunicorn killed the worker (WORKER TIMEOUT)"
    return f"{exception} at {where}"


def _exception_line(text: str) -> str:
    """Return the line of a traceback that names its exception (the last line if none does)."""
    lines = [line.strip() for line in text.strip().splitlines()]
    named = [line for line in lines if re.match(r"[A-Za-z_][\w.]*(Error|Exception|Violation|Exit)\w*: ", line)]
    return (named or lines or ["?"])[-1]


def condensed(text: str) -> list[str]:
    """Return a logged traceback without the frames of the web framework: the log line, the app's
    frames (and the deepest one, wherever it is) with their code, and the exception."""
    chained = re.split(
        r"\n\s*(?:The above exception was the direct cause of the following exception:"
        r"|During handling of the above exception, another exception occurred:)\n",
        text,
    )
    causes = [f"    (after {_exception_line(part)})" for part in chained[:-1] if part.strip()]
    lines = chained[-1].strip("\n").splitlines()
    if len(chained) > 1:
        lines = [text.splitlines()[0], *causes, *lines]
    frames = [n for n, line in enumerate(lines) if line.lstrip().startswith("File ")]
    if not frames:
        return lines
    kept = lines[: frames[0]]
    for position, start in enumerate(frames):
        end = frames[position + 1] if position + 1 < len(frames) else len(lines)
        block = [line for line in lines[start:end] if line.strip() and not set(line.strip()) <= set("^~")]
        if position + 1 == len(frames):
            kept += block  # the deepest frame, then the exception
        elif "/scorekeeper/" in block[0] or "/templates/" in block[0]:
            kept += block[:2]
    return kept


@dataclass
class Replay:
    """A failing request sent alone again: the request, its answer and what gunicorn logged meanwhile."""

    spec: Spec
    answer: Answer
    logged: str
    fresh: bool = False

    def outcome(self) -> str:
        """Return what came of it, in words."""
        answer = self.answer
        said = f"answered {answer.status}" if answer.error is None else f"no answer ({answer.error})"
        return f"{said} in {answer.seconds:.2f} s"


class Replayer:
    """Sends failing requests again, one at a time, as fresh visitors of their kind, about a fresh
    match of the kind the request was about (the one it named may have been changed meanwhile)."""

    def __init__(self, server: Server, stock: Stock, slow: float) -> None:
        self.server, self.stock, self.slow = server, stock, slow
        self.connection = Connection(server.port)
        browser = Visitor(SIGNED_IN, OWN, PASSWORD)
        browser.sign_in(self.connection)
        self.visitors = {
            SIGNED_IN: browser,
            SIGNED_OUT: Visitor(SIGNED_OUT, OWN, PASSWORD),
            API: Visitor(API, OWN, PASSWORD, api_token=browser.new_api_token(self.connection)),
        }

    def send(self, spec: Spec) -> Replay:
        """Send one request alone; keep its answer and what it logged (a traceback if there was one)."""
        visitor = self.visitors[spec.mode]
        if spec.mode == SIGNED_OUT:
            visitor.sign_out(self.connection)
        mark = self.server.mark()
        answer = visitor.request(self.connection, spec.method, spec.path, spec.headers, spec.body)
        time.sleep(1.5 if answer.seconds > WORKER_TIMEOUT - 1 else 0.2)  # let gunicorn's log catch up
        logged = self.server.since(mark)
        visitor.restore(self.connection, spec.headers, answer, self.visitors[SIGNED_IN])
        found = tracebacks(logged)
        if found:
            return Replay(spec, answer, found[-1][1])
        return Replay(spec, answer, "\n".join(line for line in logged if _WORKER_TROUBLE.search(line)))

    def replay(self, spec: Spec) -> Replay:
        """Send a failing request again: about a fresh match of its kind, else as it was sent."""
        if spec.match is not None:
            fresh = self.send(spec.on(self.stock.fresh(spec.match.owner, spec.match.kind)))
            if kind_of(fresh.answer, self.slow) or fresh.logged:
                fresh.fresh = True
                return fresh
        return self.send(spec)

    def defect(self, replay: Replay) -> str:
        """Name the defect a replay showed: its traceback's signature, gunicorn's complaint, or that it passed."""
        if "Traceback" in replay.logged:
            return signature(replay.logged)
        if replay.logged:
            return "; ".join(sorted({re.sub(r"\d+", "N", line.split("] ")[-1]) for line in replay.logged.splitlines()}))
        failing = kind_of(replay.answer, self.slow)
        if failing:
            return f"{failing} when sent alone too, nothing in the log"
        return (
            f"did not fail when sent alone (answered {replay.answer.status}): it needed what other requests "
            f"did meanwhile, or a machine less busy"
        )


def logged_during_run(server: Server, spec: Spec) -> str:
    """Return the first traceback gunicorn's log holds for the request's method and path, if any."""
    path = spec.path.partition("?")[0]
    for header, text in tracebacks(server.since(0)):
        if f"on {path} [{spec.method}]" in header or header.endswith(f"request {spec.method} {path}"):
            return text
    return ""


_WORKER_TROUBLE = re.compile(r"WORKER TIMEOUT|was sent|exited|Worker exiting")


def _shape(failure: Failure) -> tuple[object, ...]:
    """Return what tells failing requests of one route apart before they are sent again."""
    spec = failure.spec
    content_type = next((value for name, value in spec.headers if name == "Content-Type"), "")
    keys = tuple(sorted(re.findall(r"(?:^|&)([^=&]*)=", spec.query)))
    return spec.mode, content_type.split(";")[0], keys, (spec.body or b"")[:1]


def report(server: Server, stock: Stock, failures: list[Failure], slow: float) -> list[str]:
    """Send again a few failing requests of each route and kind; return one entry per distinct defect."""
    groups: dict[tuple[str, str], list[Failure]] = defaultdict(list)
    for failure in failures:
        groups[(failure.spec.label, failure.kind)].append(failure)
    entries = []
    replayer = Replayer(server, stock, slow)
    for (label, kind), members in sorted(groups.items()):
        members.sort(key=lambda f: len(f.spec.path) + len(f.spec.body or b""))
        shapes: dict[tuple[object, ...], Failure] = {}
        for member in members:
            shapes.setdefault(_shape(member), member)
        limit = 1 if kind.startswith(("no answer", "slower")) else REPLAYS_PER_GROUP
        by_defect: dict[str, tuple[Failure, Replay]] = {}
        for member in list(shapes.values())[:limit]:
            replay = replayer.replay(member.spec)
            defect = replayer.defect(replay)
            if not replay.logged and not kind_of(replay.answer, slow):
                during = logged_during_run(server, member.spec)  # what the request left when it failed
                if during:
                    replay = Replay(member.spec, replay.answer, during)
                    defect = f"{signature(during)} (in the run; not when sent alone)"
            by_defect.setdefault(defect, (member, replay))
        modes = ", ".join(sorted({m.spec.mode for m in members}))
        for defect, (member, replay) in by_defect.items():
            entry = [
                f"{label} [{member.spec.route.endpoint}]: {kind} ({len(members)} requests so, as {modes}; "
                f"{len(by_defect)} distinct way(s))",
                f"  defect: {defect}",
                f"  request (took {member.answer.seconds:.2f} s in the run; sent alone again: {replay.outcome()}):",
                describe(replay.spec, replay.fresh),
            ]
            if replay.logged:
                entry += ["  gunicorn's log:", *("    " + line for line in condensed(replay.logged))]
            entries.append("\n".join(entry))
    replayer.connection.close()
    return entries
