"""A phone sees times in its own time zone, from its very first page."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from scorekeeper.extensions import db
from scorekeeper.models import Match

from .conftest import Phone, Server


def test_the_first_page_and_every_later_one_show_the_phone_s_local_time(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, timezone_id="Europe/Madrid")
    phone.sign_up()
    phone.start_match("tute2", ["Ana", "Luis"])
    with server.app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None
        match.created_at = datetime(2026, 11, 30, 15, 35, tzinfo=UTC)
        db.session.commit()
        db.session.remove()
    phone.context.clear_cookies(name="tz")
    phone.go("/")  # the server does not know the zone yet: the page redoes its times
    assert "Nov 30, 2026, 4:35" in phone.page.locator("main time").first.inner_text()  # not 3:35, UTC
    assert any(cookie["name"] == "tz" and cookie["value"] == "Europe/Madrid" for cookie in phone.context.cookies())
    phone.go("/history/1")  # now the server writes them so
    assert 'data-time-zone="Europe/Madrid"' in phone.page.content()
    assert "Nov 30, 2026, 4:35" in phone.page.locator("main time").first.inner_text()
    phone.close()
