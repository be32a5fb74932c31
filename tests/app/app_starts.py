"""Starts of the app as a host makes them, each in a process of its own, killed (SIGKILL) at a chosen statement.

Run as `python -m tests.app.app_starts` from the top of the checkout: the process imports the
app and starts it once on a database of its own (`warm_up`), then reads requests from its
standard input, one JSON object a line, and answers each on its standard output once the start
it asked for is over. Each start is a child process forked from this one (as gunicorn's workers
are from a master that imported the app): it sets the SCOREKEEPER_* variables it was given and
calls `create_app()`, which applies the pending migrations and derives the missing figures, as a
host's first start after an upgrade does.

The child watches every statement and commit of every engine (the app's and the one the
migrations make for themselves): the statements are cut into segments, each ending with a
commit. A request names a point to kill the start at: after a segment's n-th statement that
writes (DDL or DML), or at the segment's commit, just before it is sent. Without one, the start
runs to its end and can write down what it ran, segment by segment, for the test to choose its
points from.

A request: {"environment": {...}, "log": path for the start's output, "kill": [segment, n] or
[segment, "commit"] or null, "record": path for the segments or null}. An answer:
{"exit": status} or {"signal": number}.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import traceback
from typing import Any

#: The first words of the statements that write: schema changes and changes of rows.
WRITES = frozenset({"CREATE", "DROP", "ALTER", "INSERT", "UPDATE", "DELETE", "REPLACE"})


def first_line(statement: str) -> str:
    """Return a statement's first line that says something (a CREATE TABLE of SQLAlchemy's begins with a newline)."""
    return statement.strip().split("\n", 1)[0]


def writes(statement: str) -> bool:
    """Tell whether a statement changes the schema or rows (rather than read, begin or set a PRAGMA)."""
    words = statement.split(None, 1)
    return bool(words) and words[0].upper() in WRITES


class Watcher:
    """Cuts a start's statements into segments at each commit, and kills the start at its point, if it has one."""

    def __init__(self, kill: list[Any] | None) -> None:
        self.kill = kill
        self.segments: list[list[str]] = [[]]  # each segment's writing statements, by their first line

    def listen(self) -> None:
        """Watch every engine, those made later included."""
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        event.listen(Engine, "after_cursor_execute", self.executed)
        event.listen(Engine, "commit", self.committing)

    def executed(self, _connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        """Note a statement that wrote; die here if this is the point."""
        if not writes(statement):
            return
        segment = self.segments[-1]
        segment.append(first_line(statement))
        if self.kill == [len(self.segments) - 1, len(segment) - 1]:
            die()

    def committing(self, _connection: Any) -> None:
        """Die before the commit if this is the point; else begin the next segment."""
        if self.kill == [len(self.segments) - 1, "commit"]:
            die()
        self.segments.append([])


def die() -> None:
    """End this process at once, as `kill -9` would: nothing is flushed, closed or rolled back."""
    os.kill(os.getpid(), signal.SIGKILL)


def start(request: dict[str, Any]) -> None:
    """Start the app as the request says, in this (forked) process, and leave with the start's outcome."""
    status = 1
    try:
        with open(request["log"], "w") as log:
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
        os.environ.update(request["environment"])
        watcher = Watcher(request.get("kill"))
        watcher.listen()
        from scorekeeper import create_app

        create_app()
        if request.get("record"):
            with open(request["record"], "w") as record:
                json.dump(watcher.segments, record)
        status = 0
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def warm_up() -> None:
    """Start the app once on a database of its own, which is then thrown away.

    What a process does at its first start only (above all, importing the pages' and the API's
    modules, which `views.register` imports then) is done before the children are forked, and each
    costs only its own start: about half as much. Nothing of that start is left open: `create_app`
    closes its connections before it returns, as it must for gunicorn's --preload.
    """
    import scorekeeper

    with tempfile.TemporaryDirectory() as folder:
        scorekeeper.create_app(
            {
                "SECRET_KEY": "warm-up",
                "INSTANCE_PATH": folder,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/warm-up.sqlite",
            }
        )


def serve() -> None:
    """Answer each request with the outcome of a start made in a child process."""
    import scorekeeper

    warm_up()
    print(json.dumps({"scorekeeper": scorekeeper.__file__}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        child = os.fork()
        if child == 0:
            start(request)
        _pid, status = os.waitpid(child, 0)
        outcome = {"signal": os.WTERMSIG(status)} if os.WIFSIGNALED(status) else {"exit": os.WEXITSTATUS(status)}
        print(json.dumps(outcome), flush=True)


if __name__ == "__main__":
    serve()
