"""The benchmark runs end to end on a tiny history (its timings are its own business, not a test's)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bench import run


def deals_in(path: Path) -> int:
    connection = sqlite3.connect(path)
    try:
        return int(connection.execute("SELECT count(*) FROM deals").fetchone()[0])
    finally:
        connection.close()


def writes_in(path: Path) -> int:
    connection = sqlite3.connect(path)
    try:
        return int(connection.execute("SELECT count(*) FROM bench_writes").fetchone()[0])
    finally:
        connection.close()


def test_the_benchmark_measures_every_page_on_both_histories_and_serves_the_load(tmp_path: Path) -> None:
    out, kept = tmp_path / "figures.json", tmp_path / "kept"
    run.main(
        [
            "--matches",
            "4",
            "--rounds",
            "2",
            "--warmup",
            "1",
            "--seconds",
            "1",
            "--workers",
            "2",
            "--clients",
            "2",
            "--finishes",
            "2",
            "--json",
            str(out),
            "--workdir",
            str(kept),
        ]
    )
    figures = json.loads(out.read_text())
    for page in run.PAGES:
        small, full = figures["pages"][f"1/100 {page}"], figures["pages"][f"full {page}"]
        assert small["median_ms"] > 0 and full["p95_ms"] >= full["median_ms"]
        assert small["queries"] == full["queries"], page
    assert len(figures["store_ms"]["full"]) == 2
    assert len(figures["finish_ms"]["1/100"]) == len(figures["finish_ms"]["full"]) == 2
    # Every deal of those two matches is timed, the finishing ones among them, the same on both histories.
    assert len(figures["played_ms"]["1/100"]) == len(figures["played_ms"]["full"]) > 2
    assert set(figures["finish_ms"]["full"]) <= set(figures["played_ms"]["full"])
    # The import brought back every deal of the history it exported, the measured deals included.
    assert figures["import"]["deals"] > 4 * 5 and figures["import"]["deals_per_second"] > 0
    assert list(figures["load"]) == ["floor", "write floor", "scoreboard", "deal POST"]
    # The POSTs are held against the write floor, which commits a row; the reads against the read floor.
    assert {page for page, floor in figures["floors"].items() if floor == "write floor"} == {"write floor", "deal POST"}
    assert figures["floors"]["scoreboard"] == figures["floors"]["floor"] == "floor"
    assert figures["floor_ratios"]["full write floor"] == figures["floor_ratios"]["full floor"] == 1
    assert figures["pages"]["full write floor"]["queries"] > figures["pages"]["full floor"]["queries"]
    assert all(load["errors"] == 0 and load["requests_per_second"] > 0 for load in figures["load"].values())
    # The kept histories stay as they were built: the measured deals went to copies, and a
    # second run measures the same history again.
    built = deals_in(kept / "full.sqlite"), deals_in(kept / "small.sqlite")
    assert built[0] < figures["import"]["deals"]
    assert run.main(
        [
            "--matches",
            "4",
            "--rounds",
            "1",
            "--warmup",
            "0",
            "--finishes",
            "1",
            "--no-load",
            "--no-import",
            "--workdir",
            str(kept),
        ]
    ) in (0, 1)
    assert (deals_in(kept / "full.sqlite"), deals_in(kept / "small.sqlite")) == built
    # The write floor's rows went to the copies too.
    assert writes_in(kept / "full.sqlite") == writes_in(kept / "small.sqlite") == 0
    assert not [path for path in kept.iterdir() if path.name.endswith("-measured") or path.name == "load"]
