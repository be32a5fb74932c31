"""Times are shown in the viewer's time zone (the browser's, or the one the account fixes), in
the page's language; they are stored in UTC."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import Match, User

from ..conftest import Browser
from .matchhelpers import start
from .test_matches import text

STARTED = datetime(2026, 11, 30, 15, 35, tzinfo=UTC)  # 16:35 in Madrid, 10:35 in New York


def _started_at_a_known_moment(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    with app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None
        match.created_at = STARTED
        db.session.commit()


def test_times_follow_the_browser_s_time_zone(ana: Browser, app: Flask) -> None:
    _started_at_a_known_moment(ana, app)
    assert "started Nov 30, 2026, 3:35 PM" in text(ana.get("/"))  # no zone said yet: UTC
    ana.client.set_cookie("tz", "Europe/Madrid")
    home = ana.get("/").get_data(as_text=True)
    assert 'started <time datetime="2026-11-30T15:35:00Z" data-shows="moment">Nov 30, 2026, 4:35\u202fPM</time>' in home
    assert 'data-time-zone="Europe/Madrid"' in home
    ana.client.set_cookie("tz", "America/New_York")
    assert "Nov 30, 2026, 10:35 AM" in text(ana.get("/history/1"))
    ana.client.set_cookie("tz", "Mars/Olympus_Mons")  # not a time zone: UTC
    assert "3:35 PM" in text(ana.get("/"))
    with app.app_context():
        stored = db.session.get(Match, 1)
        assert stored is not None and stored.created_at.replace(tzinfo=UTC) == STARTED


def test_times_are_in_the_page_s_language(ana: Browser, app: Flask) -> None:
    _started_at_a_known_moment(ana, app)
    ana.client.set_cookie("tz", "Europe/Madrid")
    ana.post("/language", data={"language": "es", "next": "/"})
    assert "30 nov 2026, 16:35" in text(ana.get("/"))
    ana.post("/language", data={"language": "nb", "next": "/"})
    assert "30. nov. 2026, 16:35" in text(ana.get("/"))


def test_a_card_s_date_follows_the_viewer_s_zone_and_language_view_after_view(ana: Browser, app: Flask) -> None:
    """The cards' dates are kept from one request to the next: each zone and language gets its own."""
    start(ana, "tute2", ["Ana", "Luis"])
    with app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None
        match.created_at = datetime(2026, 11, 30, 23, 30, tzinfo=UTC)  # 1 December in Madrid
        db.session.commit()
    shown = []
    for zone, language in (("UTC", "en"), ("Europe/Madrid", "en"), ("UTC", "en"), ("Europe/Madrid", "es")):
        ana.client.set_cookie("tz", zone)
        ana.post("/language", data={"language": language, "next": "/"})
        shown.append(re.findall(r'data-shows="date">([^<]+)<', ana.get("/history").get_data(as_text=True)))
    assert shown == [["Nov 30, 2026"], ["Dec 1, 2026"], ["Nov 30, 2026"], ["1 dic 2026"]]


def test_the_account_may_fix_a_time_zone(ana: Browser, app: Flask) -> None:
    _started_at_a_known_moment(ana, app)
    ana.client.set_cookie("tz", "Europe/Madrid")
    assert "This browser's (now Europe/Madrid)" in text(ana.get("/account"))
    ana.post("/account/time-zone", data={"time_zone": "America/New_York"})
    assert "10:35 AM" in text(ana.get("/")) and "data-time-zone-fixed" in ana.get("/").get_data(as_text=True)
    refused = text(ana.post("/account/time-zone", data={"time_zone": "Nowhere/Atlantis"}, follow_redirects=True))
    assert "Choose a time zone from the list." in refused
    ana.post("/account/time-zone", data={"time_zone": ""})
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username == "ana"))
        assert user is not None and user.time_zone is None
    assert "4:35 PM" in text(ana.get("/"))  # the browser's again
