"""The scoreboard's weight: a played-out match's page and every file it loads travel compressed, in
at most 60 KB, and its static files are kept by the browser until they change."""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

import brotli
import pytest
from backports import zstd
from flask import Flask

from bench import history
from scorekeeper import services

from ..conftest import Browser

#: The most a scoreboard and everything it loads may transfer.
BUDGET = 60 * 1024
DECODERS = {"gzip": gzip.decompress, "br": brotli.decompress, "zstd": zstd.decompress}
#: Chromium's header; and gzip alone, the encoding that compresses least.
ENCODINGS = ("gzip, deflate, br, zstd", "gzip")


@pytest.fixture
def played(app: Flask, ana: Browser) -> dict[str, int]:
    """Play a Pocha match for four (28 deals) and a Tute match for four to their end; return their ids."""
    with app.app_context():
        user = services.user_named("ana")
        assert user is not None
        played = history.reference_scoreboards(user)
        assert all(match.status == "finished" for match in played.values())
        return {game: match.id for game, match in played.items()}


def transferred(response: Any) -> int:
    """Return the bytes an answer puts on the wire: its header lines and its body as sent."""
    head = sum(len(f"{name}: {value}\r\n") for name, value in response.headers.items())
    return head + len(response.get_data())


def decoded(response: Any) -> bytes:
    """Return the body of an answer as the browser reads it, decompressed."""
    body: bytes = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    return DECODERS[encoding](body) if encoding else body


def loads(page: str, worker: str) -> list[str]:
    """Return what a scoreboard loads on a first visit: the files its head and body name, its
    manifest, its service worker, and the files that worker keeps for offline use."""
    found = re.findall(r'<(?:link|script|img)\b[^>]*?\b(?:href|src)="(/[^"]*)"', page)
    found += re.findall(r'\bdata-sw="(/[^"]*)"', page)
    shell = re.search(r"const SHELL = (\[.*?\]);", worker)
    assert shell, "the service worker names no shell"
    found += json.loads(shell.group(1))
    return list(dict.fromkeys(found))  # a file named twice is fetched once


def weigh(browser: Browser, path: str, accept: str) -> tuple[int, dict[str, Any]]:
    """Return the bytes a first visit to `path` transfers, and each answer by its address."""
    headers = {"Accept-Encoding": accept}
    answers = {path: browser.get(path, headers=headers)}
    page = decoded(answers[path]).decode()
    worker = decoded(browser.get("/sw.js", headers=headers)).decode()
    for url in loads(page, worker):
        with browser.get(url, headers=headers) as answer:
            answer.get_data()  # read before the file closes
            answers[url] = answer
    assert all(answer.status_code == 200 for answer in answers.values()), {
        url: answer.status_code for url, answer in answers.items()
    }
    return sum(transferred(answer) for answer in answers.values()), answers


@pytest.mark.parametrize("accept", ENCODINGS)
@pytest.mark.parametrize("game", ["pocha", "tute4"])
def test_a_played_out_scoreboard_and_all_it_loads_weigh_at_most_60_kb(
    ana: Browser, played: dict[str, int], game: str, accept: str
) -> None:
    total, answers = weigh(ana, f"/matches/{played[game]}", accept)
    assert any(url.endswith("/app.css") for url in answers) and any(url.endswith("/app.js") for url in answers)
    assert "/manifest.webmanifest" in answers and "/sw.js" in answers
    assert total <= BUDGET, {url: transferred(answer) for url, answer in answers.items()}


def test_text_answers_are_compressed_and_read_back_whole(ana: Browser, played: dict[str, int]) -> None:
    path = f"/matches/{played['pocha']}"
    _, answers = weigh(ana, path, "gzip")
    plain = {url: ana.get(url) for url in answers}
    texts = [
        url
        for url, answer in plain.items()
        if answer.mimetype.startswith("text/") or answer.mimetype.endswith(("json", "javascript"))
    ]
    assert path in texts and len(texts) >= 6
    try:
        for url in texts:
            sent, whole = answers[url], plain[url].get_data()
            if len(whole) < 1000:
                continue  # a tiny file gains nothing from it
            assert sent.headers["Content-Encoding"] == "gzip", url
            assert "Accept-Encoding" in sent.headers["Vary"], url
            # A page carries a CSRF token signed with the second it was made in: two reads a second
            # apart differ there and nowhere else.
            assert without_csrf_tokens(decoded(sent)) == without_csrf_tokens(whole), url
            assert len(sent.get_data()) < len(whole) / 2, url
    finally:
        for answer in plain.values():
            answer.close()


def without_csrf_tokens(body: bytes) -> bytes:
    """Return a page with the values of its CSRF tokens (the meta tag's, the forms' fields) taken out."""
    return re.sub(rb'(csrf[-_]token"[^>]*?(?:content|value)=")[^"]*', rb"\1", body)


def test_static_files_by_digest_are_kept_a_year_and_other_addresses_are_checked(
    ana: Browser, played: dict[str, int]
) -> None:
    page = ana.get(f"/matches/{played['pocha']}").get_data(as_text=True)
    styles = re.search(r'href="(/static/v/[0-9a-f]+/app\.css)"', page)
    assert styles, "the stylesheet's address names no digest"
    with ana.get("/static/app.css") as plain:
        whole = plain.get_data()
    for url, kept in ((styles.group(1), True), ("/static/app.css", False), ("/static/v/0123456789ab/app.css", False)):
        with ana.get(url) as answer:
            assert answer.status_code == 200 and answer.get_data() == whole
            control = answer.headers["Cache-Control"]
            assert ("immutable" in control and "max-age=31536000" in control) is kept, (url, control)
            assert "no-cache" in control or kept, (url, control)
            assert "Cookie" not in answer.headers.get("Vary", ""), url  # a new cookie must not void them


def test_the_api_keeps_its_etags_whole(app: Flask, ana: Browser, played: dict[str, int]) -> None:
    with app.app_context():
        user = services.user_named("ana")
        assert user is not None
        token = services.create_api_token(user, "weight")
    headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": "gzip, br, zstd"}
    answer = ana.client.get(f"/api/v1/matches/{played['tute4']}", headers=headers)
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers
    assert re.fullmatch(r'"v\d+-[0-9a-f]+"', answer.headers["ETag"])  # what If-Match sends back
