"""The table goes on without a connection, and every refusal of a kept deal has a way out: a
match finished on another phone drops the deals kept for it, with one confirmation; a deal
form or scoreboard reloaded without a connection is the copy the phone kept, ready for the
next deal after those kept."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import PASSWORD, Phone, Server
from .test_offline_evening import (
    back_online,
    enter_tute,
    keep_tute_deals,
    queued,
    start_on_the_server,
    stored_deals,
    wait_for_queue,
)
from .test_table import ENTER, SAVE, enter_tute_deal

BANNER = "#offline-banner"


def sign_in(phone: Phone, username: str = "ana") -> None:
    phone.go("/login")
    phone.page.fill("#username", username)
    phone.page.fill("#password", PASSWORD)
    phone.page.click("button[type=submit]")
    phone.page.wait_for_url(phone.server.url + "/")


def colours(phone: Phone, selector: str) -> dict[str, str]:
    """The computed colour of the text of what `selector` names, and of what shows behind it: its
    own background, else the first one painted under it."""
    return dict(
        phone.page.eval_on_selector(
            selector,
            """node => {
        let under = node;
        while (under && getComputedStyle(under).backgroundColor === 'rgba(0, 0, 0, 0)') under = under.parentElement;
        return { color: getComputedStyle(node).color, behind: getComputedStyle(under || document.body).backgroundColor };
    }""",
        )
    )


def refused_as_finished_elsewhere(phone: Phone, browser: Any, server: Server) -> Phone:
    """Keep two deals on `phone` without a connection while another phone of the same account
    finishes the match (101 points), then bring the connection back; return the other phone."""
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 101})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    keep_tute_deals(phone, (70, 40))
    wait_for_queue(phone, 2)
    other = Phone(browser, server)
    sign_in(other)
    other.go("/matches/1")
    enter_tute_deal(other, "oros", 100, 0)  # 110 points: the match is over
    expect(other.page.locator("main")).to_contain_text("Ana")
    back_online(phone)
    expect(phone.page.locator(BANNER)).to_contain_text("finished on another phone", timeout=15000)
    return other


def test_kept_deals_of_a_match_finished_on_another_phone_are_listed_and_dropped_at_once(
    phone: Phone, browser: Any, server: Server
) -> None:
    other = refused_as_finished_elsewhere(phone, browser, server)
    banner = phone.page.locator(BANNER)
    expect(banner).to_contain_text(
        "The match was finished on another phone: the 2 deals kept on this phone can no longer be entered."
    )
    expect(banner.locator("li")).to_have_text(["Deal 1: Ana 80 · Luis 50", "Deal 2: Ana 50 · Luis 80"])
    expect(banner.locator("a")).to_have_count(0)  # nothing to correct in a finished match
    expect(banner.locator("button")).to_have_text(["Drop the 2 deals"])
    expect(phone.page.locator(SAVE)).to_be_disabled()  # the deal form offers no deal 3
    expect(phone.page.locator("form.deal-form")).to_contain_text("This match is over: no more deals can be entered.")
    seen = colours(phone, f"{BANNER} button")
    assert seen["color"] != seen["behind"], seen
    phone.go("/matches/1")  # the finished scoreboard lists them too, with the same way out
    expect(banner.locator("li")).to_have_count(2)
    dialogs: list[str] = []
    phone.page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    phone.tap(f"{BANNER} button")
    wait_for_queue(phone, 0)
    expect(banner).to_be_hidden()
    assert dialogs == ["Drop the 2 deals kept on this phone for this match? They cannot be entered any more."]
    assert phone.page.evaluate("localStorage.getItem('scorekeeper-refusal')") is None
    assert [(deal["number"], deal["points"][0]) for deal in stored_deals(server)] == [(1, 100)]
    phone.go("/matches/1")
    expect(banner).to_be_hidden()
    other.close()


def test_dropping_from_the_deal_form_of_a_finished_match_leads_to_its_scoreboard(
    phone: Phone, browser: Any, server: Server
) -> None:
    other = refused_as_finished_elsewhere(phone, browser, server)
    phone.page.once("dialog", lambda dialog: dialog.accept())
    phone.tap(f"{BANNER} button")
    phone.page.wait_for_url("**/matches/1")
    assert queued(phone) == []
    expect(phone.page.locator("form.deal-form")).to_have_count(0)
    other.close()


def test_a_match_abandoned_meanwhile_says_so(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    enter_tute(phone, 70, 0)
    wait_for_queue(phone, 1)
    from scorekeeper import services
    from scorekeeper.extensions import db
    from scorekeeper.models import Match

    with server.app.app_context():
        match = db.session.get(Match, 1)
        assert match is not None
        services.abandon_match(match)
        db.session.remove()
    back_online(phone)
    banner = phone.page.locator(BANNER)
    expect(banner).to_contain_text(
        "The match was abandoned on another phone: the deal kept on this phone can no longer be entered.", timeout=15000
    )
    expect(banner.locator("button")).to_have_text(["Drop the deal"])
    expect(banner.locator("li")).to_have_text(["Deal 1: Ana 80 · Luis 50"])


def test_a_wrong_kept_deal_still_offers_to_correct_it_or_drop_it_readably(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    enter_tute(phone, 70, 0)
    wait_for_queue(phone, 1)
    refusal = '<main><p class="error">⚠ Say which side took the last trick.</p></main>'
    # On the context: its routes also see what the page's service worker sends on its behalf.
    phone.context.route(
        "**/matches/1/deal",
        lambda route: (
            route.fulfill(status=422, body=refusal, content_type="text/html")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    back_online(phone)
    banner = phone.page.locator(BANNER)
    expect(banner).to_contain_text("Deal 1, kept on this phone, was refused: Say which side took the last trick.")
    expect(banner.locator("a")).to_have_text(["Correct it"])
    expect(banner.locator("button")).to_have_text(["Drop it"])
    for part in ("a", "button"):
        seen = colours(phone, f"{BANNER} {part}")
        assert seen["color"] != seen["behind"], seen
    expect(phone.page.locator(SAVE)).to_be_enabled()  # a match still being played: the next deal can come


def pages_kept(phone: Phone) -> list[str]:
    return list(
        phone.page.evaluate(
            "caches.open('scorekeeper-pages').then(c => c.keys()).then(keys => keys.map(k => new URL(k.url).pathname))"
        )
    )


def wait_for_kept(phone: Phone, paths: set[str]) -> None:
    for _ in range(100):
        if paths <= set(pages_kept(phone)):
            return
        phone.page.wait_for_timeout(100)
    assert paths <= set(pages_kept(phone))


def test_a_reload_without_a_connection_keeps_the_table_going(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    phone.go("/matches/1")
    phone.wait_for_the_service_worker()
    phone.go("/matches/1")  # through the worker now: the scoreboard is kept, and its deal form with it
    wait_for_kept(phone, {"/matches/1", "/matches/1/deal"})
    phone.tap(ENTER)
    phone.page.wait_for_selector("form.deal-form")
    phone.context.set_offline(True)
    phone.page.reload()
    expect(phone.page.locator("h1")).to_have_text("Deal 1")
    expect(phone.page.locator(BANNER)).to_contain_text("No connection")
    enter_tute(phone, 70, 0)
    wait_for_queue(phone, 1)
    phone.page.reload()  # the copy as it was online (deal 1), ready for the deal after the kept one
    expect(phone.page.locator("h1")).to_have_text("Deal 2")
    expect(phone.page.locator(SAVE)).to_have_text("Save deal 2")
    assert phone.page.input_value("select[name=dealer]") == "1"  # Luis deals the second deal
    expect(phone.page.locator("#kept-deals")).to_contain_text("Deal 1: Ana 80 · Luis 50")
    phone.go("/matches/1")  # the scoreboard's copy, with the kept deal and the totals it gives
    expect(phone.page.locator("#totals")).to_contain_text("Ana 80")
    expect(phone.page.locator("#totals")).to_contain_text("Luis 50")
    expect(phone.page.locator("#next .next-dealer")).to_have_text("Deal 2: Luis deals.")
    phone.tap("#kept-next")  # leads to the kept deal form
    expect(phone.page.locator("h1")).to_have_text("Deal 2")
    enter_tute(phone, 40, 1)
    wait_for_queue(phone, 2)
    expect(phone.page.locator("h1")).to_have_text("Deal 3")
    # The kept page's token may be older than the session: the deals go with the current one.
    phone.page.evaluate("""() => {
        document.querySelector('meta[name=csrf-token]').content = 'stale';
        const queue = JSON.parse(localStorage.getItem('scorekeeper-queue'));
        queue.forEach(item => { const body = new URLSearchParams(item.body); body.set('csrf_token', 'stale');
                                item.body = body.toString(); });
        localStorage.setItem('scorekeeper-queue', JSON.stringify(queue));
    }""")
    # Once they are sent the page reloads itself (600 ms later): wait for that reload, or under
    # load it cuts short the visit to the scoreboard below.
    with phone.page.expect_navigation(timeout=15000):
        back_online(phone)
        expect(phone.page.locator(BANNER)).to_contain_text("were sent", timeout=15000)
    wait_for_queue(phone, 0)
    deals = stored_deals(server)
    assert [(deal["number"], deal["points"][0], deal["dealer"]) for deal in deals] == [(1, 70, 0), (2, 40, 1)]
    phone.go("/matches/1")
    expect(phone.page.locator("#totals")).to_contain_text("Ana 120")  # 70 + the last trick, 40
    expect(phone.page.locator("#totals")).to_contain_text("Luis 140")  # 50, 80 + the last trick


def test_signing_out_drops_the_pages_kept_for_the_table(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "tute2", ["Ana", "Luis"], {"mode": "points", "target": 10000})
    phone.go("/matches/1")
    phone.wait_for_the_service_worker()
    phone.go("/matches/1")
    wait_for_kept(phone, {"/matches/1", "/matches/1/deal"})
    phone.go("/account")
    phone.tap("text=Sign out")
    phone.page.wait_for_selector("#username")
    for _ in range(50):
        if not pages_kept(phone):
            break
        phone.page.wait_for_timeout(100)
    assert pages_kept(phone) == []
    phone.context.set_offline(True)
    phone.go("/matches/1")
    expect(phone.page.locator("h1")).to_have_text("No connection")


def test_a_pocha_deal_form_reloaded_offline_goes_on_from_the_bids_and_deals_kept(phone: Phone, server: Server) -> None:
    start_on_the_server(server, "pocha", ["Ana", "Luis", "Carmen"], {})  # 1 1 1 2 …
    phone.go("/matches/1")
    phone.wait_for_the_service_worker()
    phone.go("/matches/1")
    wait_for_kept(phone, {"/matches/1", "/matches/1/deal"})
    phone.go("/matches/1/deal")
    phone.context.set_offline(True)
    for seat in (1, 2, 0):  # deal 1, Ana deals: everyone bids 0, Luis takes the trick
        phone.choose(f"bids-{seat}", 0)
    phone.tap(SAVE)
    phone.choose("tricks-1", 1)
    phone.choose("tricks-2", 0)
    phone.tap(SAVE)
    wait_for_queue(phone, 2)
    for seat in (2, 0, 1):  # deal 2's bids, Luis deals
        phone.choose(f"bids-{seat}", 0)
    phone.tap(SAVE)
    wait_for_queue(phone, 3)
    phone.page.reload()  # the copy is deal 1's bids: on to deal 2's tricks, with its bids as kept
    expect(phone.page.locator("#offline-tricks")).to_be_visible()
    expect(phone.page.locator(SAVE)).to_have_text("Save deal 2")
    assert phone.page.is_checked("input[name='bids-2'][value='0']")
    phone.choose("tricks-2", 1)
    phone.choose("tricks-0", 0)
    phone.tap(SAVE)
    wait_for_queue(phone, 4)
    expect(phone.page.locator("h1")).to_contain_text("Deal 3")
    back_online(phone)
    expect(phone.page.locator(BANNER)).to_contain_text("were sent", timeout=15000)
    deals = stored_deals(server)
    assert [(deal["number"], deal["dealer"], deal["tricks"]) for deal in deals] == [
        (1, 0, [0, 1, 0]),
        (2, 1, [0, 0, 1]),
    ]
