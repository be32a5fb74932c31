"""The phone around the scoreboard: the live view, deals saved offline, dark mode, weight, accessibility."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Deal, User

from .conftest import Phone, Server
from .test_table import ENTER, SAVE, enter_tute_deal


def deal_count(server: Server) -> int:
    with server.app.app_context():
        return int(db.session.scalar(db.select(db.func.count()).select_from(Deal)))


def test_the_first_visit_makes_the_first_account_on_its_form_and_opens_the_home_page(
    browser: Any, server: Server
) -> None:
    phone = Phone(browser, server)
    phone.sign_up_on_the_page("ana")
    expect(phone.page.get_by_role("link", name="New match")).to_be_visible()
    with server.app.app_context():
        assert [user.username for user in db.session.scalars(db.select(User))] == ["ana"]
    assert phone.errors == []
    phone.close()


def test_the_live_view_on_another_phone_follows_new_and_edited_deals(
    phone: Phone, browser: Any, server: Server
) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.tap("text=Make a share link")
    link = phone.page.locator("a.share-link").get_attribute("href")
    assert link is not None and "/live?preview=" in link and "#" in link
    secret = link.split("#", 1)[1]
    other = Phone(browser, server)  # not signed in
    asked: list[str] = []
    other.page.on("request", lambda request: asked.append(request.url))
    other.page.goto(link)
    expect(other.page.locator("#live-board")).to_contain_text("Deal 1: Ana deals.")
    expect(other.page.locator("h1")).to_contain_text("Tute (two players)")
    enter_tute_deal(phone, "copas", 70, 0)
    expect(other.page.locator("#totals")).to_contain_text("80", timeout=5000)
    phone.tap("a[aria-label='Edit deal 1']")
    phone.page.fill("#points0", "90")
    phone.tap(SAVE)
    phone.page.wait_for_selector("#totals")
    expect(other.page.locator("#totals")).to_contain_text("100", timeout=5000)
    phone.tap("text=Stop sharing")
    phone.page.wait_for_selector("text=Make a share link")
    gone = "This live view is no longer shared."
    expect(other.page.locator("#live-board")).to_contain_text(gone, timeout=5000)  # the open page, at its next look
    other.page.goto(link)
    expect(other.page.locator("#live-board")).to_contain_text(gone)
    # The link's secret went in no request's address, only in the bodies of the page's own requests.
    assert asked and all(secret not in url.split("#", 1)[0] for url in asked)
    assert other.errors == []
    other.close()


def test_the_share_link_shows_its_qr_code_whole_and_hands_itself_to_the_phone_s_share_sheet(phone: Phone) -> None:
    # The phone's share sheet (the Web Share API), which headless Chromium lacks: note what it is given.
    phone.context.add_init_script("navigator.share = (data) => { window.shared = data; return Promise.resolve(); };")
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.tap("text=Make a share link")
    link = phone.page.locator("a.share-link").get_attribute("href")
    code = phone.page.locator("figure.qr-box svg").bounding_box()
    width = phone.page.evaluate("window.innerWidth")
    assert code is not None and 150 <= code["width"] <= width - 2 * 8 and code["width"] == code["height"]
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= width
    phone.tap("text=Send the link")
    assert phone.page.evaluate("window.shared") == {"title": "Live scoreboard", "url": link}


def test_without_a_share_sheet_the_send_button_stays_hidden(phone: Phone) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.tap("text=Make a share link")
    phone.page.wait_for_selector(".qr-box svg")  # the scoreboard came back: nothing is navigating now
    assert phone.page.evaluate("typeof navigator.share") == "undefined"
    expect(phone.page.locator("[data-share-url]")).to_be_hidden()


@pytest.mark.both_databases
def test_deals_saved_offline_are_sent_once_when_the_connection_returns(phone: Phone, server: Server) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.tap(ENTER)
    phone.context.set_offline(True)
    for number, points in ((1, 70), (2, 40)):
        phone.choose("trump", "oros")
        phone.type("#points0", str(points))
        phone.choose("last_trick", 0)
        phone.tap(SAVE)
        expect(phone.page.locator("#offline-banner")).to_contain_text("Saved on this phone")
        # kept on the phone, the form is ready for the next deal (wait for it: the fetch fails asynchronously)
        expect(phone.page.locator("h1")).to_contain_text(f"Deal {number + 1}")
    queued = json.loads(phone.page.evaluate("localStorage.getItem('scorekeeper-queue')"))
    assert len(queued) == 2 and deal_count(server) == 0
    phone.context.set_offline(False)
    phone.page.evaluate("window.dispatchEvent(new Event('online'))")
    # Once they are sent the page reloads itself (600 ms later) to show them stored: wait for
    # that reload, or under load it cuts short the visit to the scoreboard below.
    with phone.page.expect_navigation(timeout=10000):
        expect(phone.page.locator("#offline-banner")).to_contain_text("were sent", timeout=10000)
    phone.go("/matches/1")
    assert "won by Ana" in phone.text() and "40–80" in phone.text()
    # the phone retries (it never heard the answer): the server answers again and stores nothing new
    status = phone.page.evaluate(
        """item => fetch(item.action, {method: 'POST', body: item.body, credentials: 'same-origin',
             headers: {'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': item.key}})
             .then(r => r.status)""",
        queued[0],
    )
    assert status == 200 and deal_count(server) == 2


def test_a_pocha_deal_is_kept_whole_offline_bids_then_tricks(phone: Phone, server: Server) -> None:
    phone.start_match("pocha", ["Ana", "Luis", "Carmen"], opt_schedule="custom", schedule_list="2 2")
    phone.tap(".trump-start a[href$='trump=copas']")
    phone.context.set_offline(True)
    for seat in (1, 2, 0):
        phone.choose(f"bids-{seat}", 1)
    phone.tap(SAVE)
    expect(phone.page.locator("#offline-tricks")).to_be_visible()
    phone.choose("tricks-1", 2)
    phone.choose("tricks-2", 0)
    assert phone.page.is_checked("input[name='tricks-0'][value='0']")  # what is left
    phone.tap(SAVE)
    phone.page.wait_for_function("JSON.parse(localStorage.getItem('scorekeeper-queue')).length === 2")
    phone.context.set_offline(False)
    phone.page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(phone.page.locator("#offline-banner")).to_contain_text("were sent", timeout=10000)
    assert deal_count(server) == 1


def test_a_server_that_cannot_be_reached_keeps_the_deal_too(phone: Phone, server: Server) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.tap(ENTER)
    # On the context: its routes also see what the page's service worker sends on its behalf.
    phone.context.route(
        "**/matches/1/deal", lambda route: route.abort() if route.request.method == "POST" else route.continue_()
    )
    phone.choose("trump", "oros")
    phone.type("#points0", "70")
    phone.choose("last_trick", 0)
    phone.tap(SAVE)  # the phone thinks it is online, but the answer never comes
    expect(phone.page.locator("#offline-banner")).to_contain_text("Saved on this phone")
    phone.context.unroute("**/matches/1/deal")
    phone.page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(phone.page.locator("#offline-banner")).to_contain_text("were sent", timeout=10000)
    assert deal_count(server) == 1


def test_dark_mode_follows_the_system_and_the_toggle_is_remembered(browser: Any, server: Server) -> None:
    phone = Phone(browser, server, color_scheme="dark")
    phone.sign_up()
    background = "getComputedStyle(document.body).backgroundColor"
    dark = phone.page.evaluate(background)
    phone.tap("#theme-toggle")
    assert phone.page.get_attribute("html", "data-theme") == "light"
    phone.go("/")
    assert phone.page.get_attribute("html", "data-theme") == "light"
    assert phone.page.evaluate(background) != dark
    assert phone.page.get_attribute("#theme-toggle", "aria-pressed") == "false"
    phone.close()


def test_the_scoreboard_weighs_under_60_kb_and_asks_no_other_host(phone: Phone) -> None:
    phone.start_match("pocha", ["Ana", "Luis", "Carmen", "Pedro"])
    fresh = Phone(phone.page.context.browser, phone.server)
    fresh.context.add_cookies(phone.context.cookies())
    sizes: dict[str, int] = {}
    hosts: set[str] = set()

    def seen(response: Any) -> None:
        hosts.add(urlsplit(response.url).netloc)
        if response.status == 200:
            # What crossed the network, as the budget counts it: headers and the body as sent
            # (compressed), not the body the browser decoded.
            sent = response.request.sizes()
            sizes[response.url] = sent["responseHeadersSize"] + sent["responseBodySize"]

    fresh.page.on("response", seen)
    requested: list[str] = []
    fresh.page.on("request", lambda request: requested.append(request.url))
    fresh.go("/matches/1")
    fresh.page.wait_for_load_state("networkidle")
    # The answers' events reach the handler above only while Playwright is waited on: wait (a few
    # seconds at most) until the deferred script's has, as a loaded machine may take that long.
    for _ in range(50):
        if any(url.endswith("app.js") for url in sizes):
            break
        fresh.page.wait_for_timeout(100)
    assert {urlsplit(url).netloc for url in requested} == {urlsplit(phone.server.url).netloc}
    assert hosts == {urlsplit(phone.server.url).netloc}
    total = sum(sizes.values())
    assert total < 60 * 1024, sizes
    assert any(url.endswith("app.css") for url in sizes) and any(url.endswith("app.js") for url in sizes)
    fresh.close()


def test_the_screen_is_kept_awake_on_the_scoreboard(browser: Any, server: Server) -> None:
    phone = Phone(browser, server)
    phone.context.add_init_script("""
        window.__wakeLocks = 0;
        Object.defineProperty(navigator, 'wakeLock', {value: {request: () => { window.__wakeLocks++; return Promise.resolve({}); }}});
    """)
    phone.sign_up()
    assert phone.page.evaluate("window.__wakeLocks") == 0  # the home page lets the screen sleep
    phone.start_match("tute2", ["Ana", "Luis"])
    assert phone.page.evaluate("window.__wakeLocks") == 1
    phone.tap(ENTER)
    phone.page.wait_for_selector("form.deal-form")
    assert phone.page.evaluate("window.__wakeLocks") == 1
    phone.close()


def test_the_app_is_installable(phone: Phone) -> None:
    manifest = phone.page.evaluate("fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    phone.page.wait_for_function("navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready")
    registration = phone.page.evaluate("navigator.serviceWorker.ready.then(r => r.active && r.active.scriptURL)")
    assert registration.endswith("/sw.js")
    phone.context.set_offline(True)
    phone.page.goto(phone.server.url + "/history?never=seen")
    assert "No connection" in phone.page.locator("h1").inner_text()
    phone.context.set_offline(False)


def test_only_a_table_s_pages_are_kept_on_the_phone_and_signing_out_drops_them(phone: Phone, server: Server) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.wait_for_the_service_worker()
    phone.go("/matches/1")
    phone.go("/history")
    phone.go("/players/")
    script = """async () => {
        const urls = [];
        for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
        }
        return urls; }"""
    cached = phone.page.evaluate(script)
    pages = sorted(url for url in cached if not url.startswith("/static/") and url != "/offline")
    assert pages == ["/matches/1", "/matches/1/deal"], cached  # the match being played, and nothing else
    phone.go("/account")
    phone.tap("text=Sign out")
    phone.page.wait_for_selector("#username")
    for _ in range(50):  # the sign-in page drops them as it opens
        cached = phone.page.evaluate(script)
        if all(url.startswith("/static/") or url == "/offline" for url in cached):
            break
        phone.page.wait_for_timeout(100)
    assert cached and all(url.startswith("/static/") or url == "/offline" for url in cached), cached
