"""A live view left open on a phone while the server is upgraded: the page of 0.1.0 goes on asking for
its link's state at the address that version answered, and is brought to today's page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import Phone, Server

#: The live view's page as 0.1.0 served it, its script the poll it shipped (static/app.js,
#: `setupLiveView`, word for word): every 3 s it asks `/live/<secret>/state?version=…`, swaps a 200's
#: `html` into the board, stops at a 404 saying the link is not shared, and asks again after anything else.
OLD_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tute (two players) · live</title></head>
<body><main>
<h1>Tute (two players) <small class="live-dot">live</small></h1>
<div id="live-board" data-live-url="/live/SECRET/state" data-version="1"
     data-gone="This live view is not shared (any more).">
  <div id="totals">The scoreboard as 0.1.0 drew it</div>
</div>
</main>
<script>
"use strict";
const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
function setupLiveView() {
  const board = $("#live-board");
  if (!board) return;
  const poll = async () => {
    try {
      const response = await fetch(`${board.dataset.liveUrl}?version=${board.dataset.version}`, { cache: "no-store" });
      if (response.status === 404) {
        board.replaceChildren(Object.assign(document.createElement("p"), { className: "banner muted", textContent: board.dataset.gone }));
        $$(".live-dot").forEach((dot) => dot.remove());
        return;  /* no longer shared: stop asking */
      }
      if (response.status === 200) {
        const state = await response.json();
        const fresh = document.createElement("div");
        fresh.innerHTML = state.html;
        const totals = $("#totals", board);
        const newTotals = $("#totals", fresh);
        if (totals && newTotals) {  /* keep the live region itself, so that the change is announced */
          totals.innerHTML = newTotals.innerHTML;
          newTotals.replaceWith(totals);
        }
        board.replaceChildren(...fresh.childNodes);
        board.dataset.version = state.version;
      }
    } catch (e) { /* no connection now: ask again later */ }
    setTimeout(poll, 3000);
  };
  setTimeout(poll, 3000);
}
document.addEventListener("DOMContentLoaded", setupLiveView);
</script>
</body></html>
"""


def test_a_live_view_open_since_before_the_upgrade_reloads_itself_into_today_s_page(
    phone: Phone, browser: Any, server: Server
) -> None:
    phone.start_match("tute2", ["Ana", "Luis"])
    phone.tap("text=Make a share link")
    link = phone.page.locator("a.share-link").get_attribute("href")
    assert link is not None
    secret = link.split("#", 1)[1]
    other = Phone(browser, server)  # not signed in
    old_address = f"{server.url}/live/{secret}"
    # The phone holds the page it opened before the upgrade: the page itself is the old one, once;
    # everything it asks of the server from then on is answered by the server of today.
    other.page.route(
        old_address,
        lambda route: route.fulfill(content_type="text/html", body=OLD_PAGE.replace("SECRET", secret)),
        times=1,
    )
    other.page.goto(old_address)
    expect(other.page.locator("#live-board")).to_contain_text("as 0.1.0 drew it")
    # At its next look it is today's page, at the link's address of today, and shows the scoreboard.
    other.page.wait_for_url(f"{server.url}/live#{secret}", timeout=10_000)
    expect(other.page.locator("#live-board")).to_contain_text("Deal 1: Ana deals.")
    expect(other.page.locator("h1")).to_contain_text("Tute (two players)")
    assert "not shared" not in other.text()
    assert other.errors == []
    other.close()
