"""Lighthouse on a signed-in scoreboard: a demo database to serve, and runs of Lighthouse with its cookie.

    python -m bench.lighthouse demo /tmp/lh-demo/db.sqlite       # account ana, a Pocha and a Tute match
    python -m bench.lighthouse cookie http://127.0.0.1:5088 > /tmp/lh-demo/headers.json
    python -m bench.lighthouse run http://127.0.0.1:5088/matches/1 --runs 3

`run` signs in, runs Lighthouse (mobile, performance only, Chromium headless) as many times as
asked and prints each score with its metrics, then the median. Lighthouse itself is not a
dependency of the project: it runs through npx (LIGHTHOUSE names another command; CHROME_PATH
the browser, /usr/bin/chromium by default).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

USERNAME, PASSWORD = "ana", "a long secret"
#: Lighthouse 12 is the newest that runs on Node 20 (13 needs Node 22).
LIGHTHOUSE = "npx --yes lighthouse@12.8.2"
METRICS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "speed-index",
)


def make_demo(database: Path) -> None:
    """Create a database with the account ana, a played-out Pocha match for four and a Tute match for four."""
    from scorekeeper import create_app, services

    from . import history

    database.parent.mkdir(parents=True, exist_ok=True)
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database.resolve()}",
            "SECRET_KEY": "demo",
            "INSTANCE_PATH": str(database.parent.resolve()),
        }
    )
    with app.app_context():
        user = services.create_user(USERNAME, PASSWORD)
        for game, match in history.reference_scoreboards(user).items():
            print(f"/matches/{match.id}: {game}, {len(match.deals)} deals, {match.status}")


def session_cookie(base: str) -> str:
    """Sign in to the app at `base` and return the Cookie header that carries the sign-in."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/login").read().decode()
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    if token is None:
        raise SystemExit(f"no sign-in form at {base}/login")
    form = urllib.parse.urlencode({"csrf_token": token.group(1), "username": USERNAME, "password": PASSWORD})
    answer = opener.open(f"{base}/login", data=form.encode())
    if answer.url.rstrip("/").endswith("/login"):
        raise SystemExit(f"signing in as {USERNAME} failed (run `demo` for the database first)")
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


def run_lighthouse(url: str, headers: Path, output: Path) -> dict[str, object]:
    """Run Lighthouse once on `url` with the extra headers in `headers`; return its report."""
    command = [
        *shlex.split(os.environ.get("LIGHTHOUSE", LIGHTHOUSE)),
        url,
        "--only-categories=performance",
        "--form-factor=mobile",
        "--chrome-flags=--headless=new --no-sandbox",
        "--output=json",
        f"--output-path={output}",
        f"--extra-headers={headers}",
        "--quiet",
    ]
    environment = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    subprocess.run(command, check=True, env=environment)
    report: dict[str, object] = json.loads(output.read_text())
    return report


def summary(report: dict[str, object]) -> tuple[int, str]:
    """Return a report's performance score and a line of its metrics."""
    categories = report["categories"]
    audits = report["audits"]
    assert isinstance(categories, dict) and isinstance(audits, dict)
    score = round(categories["performance"]["score"] * 100)
    metrics = ", ".join(f"{name} {audits[name]['displayValue']}" for name in METRICS)
    return score, metrics.replace("\xa0", " ")


def main(argv: list[str] | None = None) -> None:
    """Make the demo database, print the sign-in cookie, or run Lighthouse, as the command line says."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo").add_argument("database", type=Path)
    commands.add_parser("cookie").add_argument("base")
    run = commands.add_parser("run")
    run.add_argument("url")
    run.add_argument("--runs", type=int, default=3)
    run.add_argument("--keep", type=Path, help="a folder for the JSON reports")
    arguments = parser.parse_args(argv)
    if arguments.command == "demo":
        make_demo(arguments.database)
        return
    if arguments.command == "cookie":
        print(json.dumps({"Cookie": session_cookie(arguments.base.rstrip("/"))}))
        return
    parts = urllib.parse.urlsplit(arguments.url)
    folder = Path(arguments.keep or tempfile.mkdtemp(prefix="lighthouse-"))
    folder.mkdir(parents=True, exist_ok=True)
    headers = folder / "headers.json"
    headers.write_text(json.dumps({"Cookie": session_cookie(f"{parts.scheme}://{parts.netloc}")}))
    scores = []
    for number in range(1, arguments.runs + 1):
        score, metrics = summary(run_lighthouse(arguments.url, headers, folder / f"report-{number}.json"))
        scores.append(score)
        print(f"run {number}: {score}  ({metrics})", flush=True)
    print(f"median {statistics.median(scores):g} of {scores}; reports in {folder}")


if __name__ == "__main__":
    main(sys.argv[1:])
