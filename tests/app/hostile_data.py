"""The data the hostile-input test finds on the server: two accounts, each with players (one
archived), matches of every game in progress (the subastado's too) and finished, an abandoned one, a Pocha match
whose bids are in and whose tricks are awaited, a shared live link and API tokens — made
through the app's own API and pages, as a phone and a script would, and made again while
the test runs whenever its requests delete or change them."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from .hostile_client import API, SIGNED_IN, SIGNED_OUT, TOKEN_MARK, Answer, Connection, Visitor
from .hostile_server import PASSWORD, Server

#: The account the test signs in as, and the other one whose ids it must not reach.
OWN, OTHER = "ana", "bea"
TUTE_DEAL = {
    "dealer": 0,
    "trump": "oros",
    "points": [70, 50],
    "last_trick": 0,
    "cantes": [{"seat": 0, "suit": "copas"}],
}
AUCTION_DEAL = {"dealer": 0, "declarer": 1, "bid": 60, "trump": "copas", "points": 70, "last_trick": True, "cantes": []}
POCHA_DEAL = {"dealer": 0, "cards": 1, "trump": None, "bids": [1, 1, 1], "tricks": [1, 0, 0]}
#: What each account plays, by what the test calls it: (match document, what is done to it next).
MATCHES: dict[str, tuple[dict[str, Any], str]] = {
    "tute2 in progress": ({"game": "tute2", "players": ["Ana", "Luis"], "deals": [TUTE_DEAL]}, ""),
    "tute2 finished": (
        {"game": "tute2", "players": ["Ana", "Luis"], "options": {"target": 1}, "deals": [TUTE_DEAL]},
        "",
    ),
    "tute4 in progress": (
        {"game": "tute4", "players": ["Ana", "Luis", "Carmen", "Diego"], "deals": [TUTE_DEAL]},
        "share",
    ),
    "tute4 finished": (
        {
            "game": "tute4",
            "players": ["Ana", "Luis", "Carmen", "Diego"],
            "options": {"target": 1},
            "deals": [TUTE_DEAL],
        },
        "",
    ),
    "pocha waiting for bids": ({"game": "pocha", "players": ["Ana", "Luis", "Carmen"], "deals": [POCHA_DEAL]}, ""),
    "pocha waiting for tricks": (
        {"game": "pocha", "players": ["Ana", "Luis", "Carmen"], "deals": [POCHA_DEAL]},
        "bids",
    ),
    "pocha finished": (
        {
            "game": "pocha",
            "players": ["Ana", "Luis"],
            "options": {"schedule": [1]},
            "deals": [{**POCHA_DEAL, "bids": [1, 1], "tricks": [1, 0]}],
        },
        "",
    ),
    "tute2 abandoned": ({"game": "tute2", "players": ["Ana", "Carmen"], "deals": [TUTE_DEAL]}, "abandon"),
    "subastado in progress": ({"game": "subastado", "players": ["Ana", "Luis", "Carmen"], "deals": [AUCTION_DEAL]}, ""),
}
FORM = [("Content-Type", "application/x-www-form-urlencoded")]


@dataclass(frozen=True)
class MatchFacts:
    """What the request generator needs to know of a prepared match, and how to tell it was changed."""

    id: int
    owner: str
    kind: str
    game: str
    seats: int
    deals: int
    next_cards: int | None
    etag: str
    share: str | None


@dataclass
class Prepared:
    """The ids and secrets of the prepared data, by account; a match's place in `matches` is kept
    when it is made again."""

    matches: list[MatchFacts] = field(default_factory=list)
    players: dict[str, list[int]] = field(default_factory=dict)
    token_ids: dict[str, list[int]] = field(default_factory=dict)

    def matches_of(self, owner: str) -> list[MatchFacts]:
        """Return the matches of one account."""
        return [m for m in self.matches if m.owner == owner]

    def shares(self, owner: str) -> list[str]:
        """Return the secrets of one account's shared live views."""
        return [m.share for m in self.matches if m.owner == owner and m.share]


def _ids(page: bytes, pattern: str) -> list[int]:
    """Return the ids a page links to, by a pattern with one group."""
    return sorted({int(found) for found in re.findall(pattern.encode(), page)})


class Stock:
    """Makes the prepared data through the API and the pages, and makes again what requests deleted
    or changed, so that later requests still meet a match of every kind."""

    def __init__(self, server: Server, own_token: str) -> None:
        self.connection = Connection(server.port)
        self.lock = threading.Lock()
        self.prepared = Prepared()
        self.problems: list[str] = []
        self.browsers = {owner: Visitor(SIGNED_IN, owner, PASSWORD) for owner in (OWN, OTHER)}
        self.apis = {owner: Visitor(API, owner, PASSWORD, api_token=own_token) for owner in (OWN, OTHER)}

    @staticmethod
    def _expect(answer: Answer, status: int, what: str) -> Answer:
        """Return the answer if it has the status expected of a step of the preparation, else stop."""
        if answer.status != status:
            raise RuntimeError(
                f"preparing the data: {what} answered {answer.status} {answer.error or ''}: {answer.body[:300]!r}"
            )
        return answer

    @staticmethod
    def _signed_out(answer: Answer) -> bool:
        """Tell whether an answer says the browser's sign-in was ended meanwhile (by a request of the test
        that signed every browser of the account out): sent to sign in, or its CSRF token gone with it."""
        to_sign_in = answer.status == 302 and urllib.parse.urlsplit(answer.header("Location")).path == "/login"
        return to_sign_in or (answer.status == 400 and b"CSRF" in answer.body)

    def _as_browser(self, owner: str, method: str, path: str, fields: dict[str, Any] | None = None) -> Answer:
        """Send a request as the account's browser, signing in again while its sign-in keeps being ended."""
        browser = self.browsers[owner]
        for _ in range(5):
            body = None if fields is None else urllib.parse.urlencode({**fields, "csrf_token": browser.csrf}).encode()
            answer = browser.request(self.connection, method, path, FORM if body is not None else [], body)
            if not self._signed_out(answer):
                return answer
            browser.sign_in(self.connection)
        raise RuntimeError(f"preparing the data: {method} {path} keeps sending {owner} to sign in")

    def _form(self, owner: str, path: str, fields: dict[str, Any]) -> Answer:
        """Post a form as the account's browser (signing in again if it was signed out)."""
        return self._expect(self._as_browser(owner, "POST", path, fields), 302, f"POST {path}")

    def _api(self, owner: str, method: str, path: str, body: Any = None) -> Answer:
        """Call the API as the account (with a new token if its token was revoked)."""
        headers = [("Authorization", f"Bearer {TOKEN_MARK}")]
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            headers.append(("Content-Type", "application/json"))
        answer = self.apis[owner].request(self.connection, method, path, headers, data)
        if answer.status == 401:
            if owner != OWN:
                self.problems.append(f"{owner}'s API token stopped working, though only {OWN} sent requests")
            self.apis[owner].api_token = self.browsers[owner].new_api_token(self.connection)
            answer = self.apis[owner].request(self.connection, method, path, headers, data)
        return answer

    def _start(self, owner: str, kind: str) -> MatchFacts:
        """Make a match of a kind for an account: through the API, then its pages for what follows."""
        document, then = MATCHES[kind]
        for _ in range(5):  # on PostgreSQL, a match made while requests change others may meet a 409: try again
            answer = self._api(owner, "POST", "/api/v1/matches", document)
            if answer.status != 409:
                break
            time.sleep(0.1)
        created = json.loads(self._expect(answer, 201, f"creating {kind}").body)
        result, match_id = created["result"], created["id"]
        if then == "bids":
            bids = {f"bids-{seat}": 0 for seat in range(len(document["players"]))}
            self._form(
                owner,
                f"/matches/{match_id}/bids",
                {
                    "number": len(document["deals"]) + 1,
                    "dealer": result["next_dealer"],
                    "cards": result["next_cards"],
                    "trump": "none",
                    **bids,
                },
            )
        elif then in ("abandon", "share"):
            self._form(owner, f"/matches/{match_id}/{then}", {})
        share = None
        if then == "share":
            board = self._expect(self._as_browser(owner, "GET", f"/matches/{match_id}"), 200, "a scoreboard").body
            links = re.findall(r"/live(?:\?preview=[0-9a-f]{32})?#([A-Za-z0-9_-]{20,})", board.decode())
            if not links:
                raise RuntimeError(f"preparing the data: the scoreboard of match {match_id} shows no share link")
            share = links[0]
        etag = self._expect(self._api(owner, "GET", f"/api/v1/matches/{match_id}"), 200, "reading a match")
        return MatchFacts(
            match_id,
            owner,
            kind,
            document["game"],
            len(document["players"]),
            len(document["deals"]),
            result.get("next_cards"),
            etag.header("ETag"),
            share,
        )

    def fresh(self, owner: str, kind: str) -> MatchFacts:
        """Make one more match of a kind (to send a failing request again on it as it was)."""
        with self.lock:
            return self._start(owner, kind)

    def prepare(self, copies: int = 2) -> Prepared:
        """Make the other account (by signing up) and both accounts' data; return the ids the generator uses.

        The test's own account (made with the command line, like its token) gets `copies` of
        every match.
        """
        stranger = Visitor(SIGNED_OUT, OTHER, PASSWORD)
        stranger.sign_out(self.connection)
        self._expect(
            stranger.request(
                self.connection,
                "POST",
                "/signup",
                FORM,
                urllib.parse.urlencode(
                    {"username": OTHER, "password": PASSWORD, "confirm": PASSWORD, "csrf_token": stranger.csrf}
                ).encode(),
            ),
            302,
            "signing up",
        )
        for owner in (OWN, OTHER):
            browser = self.browsers[owner]
            browser.sign_in(self.connection)
            if owner == OTHER:
                self.apis[owner].api_token = browser.new_api_token(self.connection)
            for _ in range(copies if owner == OWN else 1):
                self.prepared.matches += [self._start(owner, kind) for kind in MATCHES]
            self._form(owner, "/players/", {"name": f"Invitado de {owner}"})
            page = self._expect(browser.request(self.connection, "GET", "/players/"), 200, "the players page").body
            players = _ids(page, r'href="/players/(\d+)"')
            self._form(owner, f"/players/{players[-1]}/archive", {})
            self.prepared.players[owner] = players
            browser.new_api_token(self.connection)
            page = self._expect(browser.request(self.connection, "GET", "/account"), 200, "the account page").body
            self.prepared.token_ids[owner] = _ids(page, r"/account/tokens/(\d+)/revoke")
            if not (players and self.prepared.token_ids[owner] and self.prepared.shares(owner)):
                raise RuntimeError(f"preparing the data: no players, tokens or share links found for {owner}")
        return self.prepared

    def keep(self) -> int:
        """Make again every prepared match that is gone or changed; return how many (0 if busy already).

        The other account's matches must never change: only the test's own account sends requests.
        """
        if not self.lock.acquire(blocking=False):
            return 0
        try:
            made = 0
            for slot, facts in enumerate(list(self.prepared.matches)):
                answer = self._api(facts.owner, "GET", f"/api/v1/matches/{facts.id}")
                if answer.status == 200 and answer.header("ETag") == facts.etag:
                    continue
                if facts.owner != OWN:
                    self.problems.append(
                        f"{facts.owner}'s match {facts.id} ({facts.kind}) changed, though only "
                        f"{OWN} sent requests: {answer.status} {answer.header('ETag')}"
                    )
                self.prepared.matches[slot] = self._start(facts.owner, facts.kind)
                made += 1
            return made
        finally:
            self.lock.release()
