"""The links handed to other phones and apps (entry and share links, their QR codes, the API's `Link`
headers) are written under the site's configured public address, never under what a request says its
Host is."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper import create_app

from ..conftest import Browser
from .matchhelpers import start
from .test_api import TUTE, Api, token_for

PUBLIC = "https://scores.example.org"
FORGED = {"Host": "evil.example"}


def also_at(browser: Browser, host: str) -> None:
    """Have the browser send its cookies to `host` too, as if it had reached the site under that name."""
    for name in ("session", "remember_token"):
        found = browser.client.get_cookie(name)
        if found is not None:
            browser.client.set_cookie(name, found.value, domain=host.split(":")[0])


def test_links_are_written_under_the_public_address_whatever_host_a_request_names(ana: Browser, app: Flask) -> None:
    app.config["PUBLIC_URL"] = PUBLIC
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/entry-link")
    ana.post("/matches/1/share")
    also_at(ana, "evil.example")
    page = ana.client.get("/matches/1", headers=FORGED).get_data(as_text=True)
    assert "evil.example" not in page
    assert re.search(rf'href="{PUBLIC}/join#[\w-]{{43}}"', page) and re.search(rf'href="{PUBLIC}/live#[\w-]{{43}}"', page)
    assert f'data-share-url="{PUBLIC}/join#' in page
    api = Api(app.test_client(), token_for(app, "ana"))
    api.headers.update(FORGED)
    api.post("/api/v1/matches", TUTE)
    assert api.post("/api/v1/matches/1/share", None).get_json()["url"].startswith(f"{PUBLIC}/live#")
    assert api.post("/api/v1/matches/1/entry-link", None).get_json()["url"].startswith(f"{PUBLIC}/join#")
    listed = api.get("/api/v1/matches?per_page=1")
    assert listed.headers["Link"].startswith(f"<{PUBLIC}/api/v1/matches?page=2&per_page=1>")


def test_without_a_public_address_links_follow_the_address_the_phone_used(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/entry-link")
    also_at(ana, "192.168.1.20")
    page = ana.client.get("/matches/1", headers={"Host": "192.168.1.20:5000"}).get_data(as_text=True)
    assert 'href="http://192.168.1.20:5000/join#' in page  # `flask run` on the table's Wi-Fi


def test_a_public_address_under_a_path_keeps_it(ana: Browser, app: Flask) -> None:
    app.config["PUBLIC_URL"] = "https://example.org/scores"
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/share")
    assert 'href="https://example.org/scores/live#' in ana.get("/matches/1").get_data(as_text=True)


@pytest.mark.parametrize("wrong", ["scores.example.org", "ftp://scores.example.org", "https://", "https://x.org/?a=1",
                                   "https://x.org/#top"])
def test_a_public_address_that_is_not_one_stops_the_start(wrong: str, tmp_path: object) -> None:
    with pytest.raises(ValueError, match="SCOREKEEPER_PUBLIC_URL"):
        create_app({"PUBLIC_URL": wrong, "SECRET_KEY": "x", "AUTO_MIGRATE": False,
                    "SQLALCHEMY_DATABASE_URI": "sqlite://", "INSTANCE_PATH": str(tmp_path)})
