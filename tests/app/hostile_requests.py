"""The requests of the hostile-input test, each made from the seed and its number alone.

Routes come from the app's url_map and form fields from the app's forms, so that a route or
a field added later is covered without touching this module. A request is a route's method
with its path parameters filled (the test's own ids, the other account's, hostile values),
a query string, extra headers, and a body: a valid-looking form or document with a few
fields made hostile, or junk. Routes with more inputs get more requests.
"""

from __future__ import annotations

import inspect
import random
import re
import urllib.parse
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf import FlaskForm
from wtforms import FieldList

from scorekeeper import forms
from scorekeeper.figures import reads
from scorekeeper.models import STATUSES
from scorekeeper.registry import GAMES, get_game
from scorekeeper.rules import SUITS
from scorekeeper.views import PUBLIC_ENDPOINTS

from . import hostile_corpus as corpus
from .hostile_bodies import api_body, form_body, mutate
from .hostile_client import API, SIGNED_IN, SIGNED_OUT, TOKEN_MARK
from .hostile_data import OTHER, OWN, MatchFacts, Prepared
from .hostile_server import PASSWORD

#: Query parameters that pages and the API read, by endpoint; others get a generic few.
QUERY_KEYS = {
    "auth.login": ["next"],
    "auth.language": ["next"],
    "matches.history": ["game", "status", "player", "page", "note"],
    "matches.enter_deal": ["trump", "declarer"],
    "players.detail": ["game"],
    "statistics.leaderboard": ["period", "from", "to", "min", "sort", "dir"],
    "statistics.leaderboard_csv": ["period", "from", "to", "min", "sort", "dir"],
    "statistics.head_to_head": ["a", "b", "page"],
    "api.list_matches": ["page", "per_page"],
    "share.old_state": ["version"],
    "share.live": ["preview"],
}
GENERIC_KEYS = ["next", "page", "per_page", "to", "from", "cards", "version", "lang", "x", "game", "player"]
OTHER_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "PROPFIND"]
#: Routes that hash a password whenever they accept a form, and the share of requests they keep.
HASHING = {("auth.login", "POST"): 0.75, ("auth.signup", "POST"): 0.5, ("auth.setup", "POST"): 0.5}


@dataclass(frozen=True)
class Route:
    """One method of one rule of the url_map."""

    endpoint: str
    rule: str
    method: str
    converters: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        """Return the method and the rule, as reports name the route."""
        return f"{self.method} {self.rule}"


@dataclass
class Spec:
    """A generated request, its secrets still placeholders (see hostile_client)."""

    index: int
    route: Route
    mode: str
    method: str
    values: dict[str, str]
    query: str
    headers: list[tuple[str, str]]
    body: bytes | None
    match: MatchFacts | None

    @property
    def path(self) -> str:
        """Return the path with its parameters filled and the query string."""
        path = re.sub(r"<(?:[^:<>]+:)?(\w+)>", lambda m: self.values[m.group(1)], self.route.rule)
        return path + (f"?{self.query}" if self.query else "")

    @property
    def label(self) -> str:
        """Return the method sent and the route's rule."""
        return f"{self.method} {self.route.rule}"

    def on(self, match: MatchFacts) -> Spec:
        """Return the same request about another match (of the same kind)."""
        return replace(self, values={**self.values, "match_id": str(match.id)}, match=match)


def discover_routes(app: Flask) -> list[Route]:
    """Return every method (but HEAD and OPTIONS) of every rule of the app's url_map."""
    found = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        converters = tuple(
            (name, converter or "default")
            for converter, name in re.findall(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>", rule.rule)
        )
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append(Route(rule.endpoint, rule.rule, method, converters))
    return found


def form_field_names(app: Flask) -> list[str]:
    """Return the name of every field of every form the app defines (lists as name-0 … name-7)."""
    classes: list[Any] = [
        cls
        for _, cls in inspect.getmembers(forms, inspect.isclass)
        if issubclass(cls, FlaskForm) and cls is not FlaskForm
    ]
    classes += [forms.new_match_form_class(game) for game in GAMES.values()]
    names = {"rename-name", "csrf_token"}
    with app.test_request_context():
        for cls in classes:
            for form_field in cls(meta={"csrf": False}):
                if isinstance(form_field, FieldList):
                    names.update(f"{form_field.name}-{i}" for i in range(forms.MAX_SEATS))
                else:
                    names.add(form_field.name)
    return sorted(names)


def static_files(app: Flask) -> list[str]:
    """Return the paths of the app's static files, relative to the static folder."""
    folder = Path(app.static_folder or "")
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


class Generator:
    """Makes request number `index` of a seed, from the routes, the forms and the prepared data."""

    def __init__(
        self, seed: int, routes: list[Route], field_names: list[str], statics: list[str], prepared: Prepared
    ) -> None:
        self.seed, self.routes, self.field_names, self.statics = seed, routes, field_names, statics
        self.prepared = prepared
        sample = next((m for m in prepared.matches if m.game == "pocha"), None)
        self.weights = [self._weight(route, sample) for route in routes]

    def _weight(self, route: Route, sample: MatchFacts | None) -> float:
        """Return how often to choose a route: more often the more inputs it reads."""
        inputs = len(route.converters) + len(QUERY_KEYS.get(route.endpoint, []))
        if route.method not in ("GET", "HEAD", "OPTIONS"):
            if route.endpoint.startswith("api."):
                inputs += 6
            else:
                inputs += 1 + len(self._form_template(route.endpoint, sample, {}, random.Random(0)))
        weight = 1.0 + min(inputs, 10) / 2
        # Every sign-in or sign-up a form accepts costs a deliberately slow password hash (a tenth
        # of a second of processor): these get a smaller share, so that the run stays short.
        return weight * HASHING.get((route.endpoint, route.method), 1.0)

    def make(self, index: int) -> Spec:
        """Return request `index`: the first ones walk every route once, the rest are drawn by weight."""
        rng = random.Random(f"{self.seed}:{index}")
        route = self.routes[index] if index < len(self.routes) else rng.choices(self.routes, self.weights)[0]
        mode = self._mode(route, rng)
        method = route.method if rng.random() > 0.04 else rng.choice(OTHER_METHODS)
        match: MatchFacts | None = None
        values: dict[str, str] = {}
        for name, converter in route.converters:
            value, match = self._path_value(name, converter, match, rng)
            values[name] = value
        query = self._query(route, rng)
        headers = self._headers(mode, rng)
        body_headers, body = self._body(route, method, mode, match, values, rng)
        return Spec(index, route, mode, method, values, query, headers + body_headers, body, match)

    # ------------------------------------------------------------ who sends it, and where

    @staticmethod
    def _mode(route: Route, rng: random.Random) -> str:
        """Return who sends a request: mostly a script for the API, a signed-in browser for the pages."""
        if route.endpoint.startswith("api."):
            weights = (0.15, 0.1, 0.75)
        elif route.endpoint in PUBLIC_ENDPOINTS:
            weights = (0.5, 0.4, 0.1)
        else:
            weights = (0.15, 0.7, 0.15)
        return rng.choices([SIGNED_OUT, SIGNED_IN, API], weights)[0]

    def _path_value(
        self, name: str, converter: str, match: MatchFacts | None, rng: random.Random
    ) -> tuple[str, MatchFacts | None]:
        """Return a value for one path parameter (and the prepared match it names, if one)."""
        roll = rng.random()
        owner = OWN if roll < 0.65 else OTHER if roll < 0.8 else None
        if owner is None and name != "number":
            return self._hostile_segment(converter, rng), match
        owner = owner or OWN
        if name == "match_id":
            chosen = rng.choice(self.prepared.matches_of(owner))
            return str(chosen.id), chosen
        if name == "number":
            if match is not None and roll < 0.85:
                return str(rng.randint(1, match.deals + 1)), match
            return rng.choice([str(rng.randint(1, 3)), self._hostile_segment(converter, rng)]), match
        if name in ("game_name", "game"):
            return rng.choice(sorted(GAMES)), match
        if name == "year":  # a calendar year played, or any the seasons' pages take
            return rng.choice(["2026", str(rng.randint(1900, 9998))]), match
        pools: dict[str, list[Any]] = {
            "player_id": self.prepared.players[owner],
            "token_id": self.prepared.token_ids[owner],
            "token": self.prepared.shares(owner),
            "filename": self.statics,
        }
        if pools.get(name):
            return str(rng.choice(pools[name])), match
        if converter == "int":  # a parameter added later: any of the account's ids
            ids = [m.id for m in self.prepared.matches_of(owner)] + self.prepared.players[owner]
            return str(rng.choice(ids)), match
        return self._hostile_segment(converter, rng), match

    def _hostile_segment(self, converter: str, rng: random.Random) -> str:
        """Return a path segment no link of the app makes."""
        if converter == "path" and rng.random() < 0.5:
            return rng.choice(
                [
                    "../scorekeeper/config.py",
                    "..%2f..%2fREADME.md",
                    "%2e%2e/%2e%2e/etc/passwd",
                    "icons/",
                    "icons/../app.css",
                    "app.css%00.png",
                    "/etc/passwd",
                    "app.css/x",
                ]
            )
        if rng.random() < 0.7:
            return rng.choice(corpus.PATH_SEGMENTS)
        return urllib.parse.quote(corpus.text(rng), safe="", errors="surrogatepass")

    # ------------------------------------------------------------ query and headers

    def _query_value(self, key: str, rng: random.Random) -> str:
        """Return a value for a query parameter: of the kind it takes, or hostile."""
        if rng.random() < (0.1 if key == "next" else 0.25):
            return corpus.text(rng) if rng.random() < 0.5 else corpus.number(rng)
        known: dict[str, list[str]] = {
            "period": list(reads.PERIODS),
            "sort": list(reads.LEADERBOARD_COLUMNS),
            "dir": ["asc", "desc"],
            "game": sorted(GAMES),
            "status": list(STATUSES),
            "trump": ["none", *SUITS],
            "declarer": ["passed", "0", "1", "2", "3", "8"],
            "lang": ["es", "xx"],
        }
        if key == "next":
            return rng.choice(corpus.REDIRECTS)
        if key == "note":  # the history's search: words of a note, or any text (control characters among them)
            return corpus.note(rng) or ""
        if key in ("from", "to"):  # the ends of the calendar often: a day added or taken falls off it
            return rng.choice(corpus.DATES[:2] if rng.random() < 0.3 else corpus.DATES)
        if key in ("player", "a", "b"):
            owner = OWN if rng.random() < 0.7 else OTHER
            return str(rng.choice(self.prepared.players[owner])) if rng.random() < 0.7 else corpus.number(rng)
        if key in known:
            return rng.choice(known[key])
        return corpus.number(rng)

    def _query(self, route: Route, rng: random.Random) -> str:
        """Return a query string: the route's own parameters mostly, others at times, or raw junk."""
        keys = QUERY_KEYS.get(route.endpoint, [])
        if rng.random() < 0.05:
            return rng.choice(corpus.RAW_QUERIES)
        if not (keys and rng.random() < 0.75) and rng.random() > 0.2:
            return ""
        chosen = rng.sample(keys, rng.randint(1, len(keys))) if keys else []
        if not keys or rng.random() < 0.2:
            chosen.append(rng.choice(GENERIC_KEYS))
        pairs = [(key, self._query_value(key, rng)) for key in chosen]
        if pairs and rng.random() < 0.1:
            pairs.append((pairs[0][0], self._query_value(pairs[0][0], rng)))  # the same key twice
        return "&".join(
            f"{urllib.parse.quote(k, safe='')}={urllib.parse.quote(v, safe='', errors='surrogatepass')}"
            for k, v in pairs
        )

    @staticmethod
    def _headers(mode: str, rng: random.Random) -> list[tuple[str, str]]:
        """Return the headers a request carries besides its body's: a token, and odd ones at times."""
        headers = []
        if mode == API:
            good = f"Bearer {TOKEN_MARK}"
            headers.append(("Authorization", good if rng.random() < 0.92 else rng.choice(corpus.AUTHORIZATIONS)))
        elif rng.random() < 0.04:
            headers.append(("Authorization", rng.choice(corpus.AUTHORIZATIONS)))
        if rng.random() < 0.1:
            headers.append(("Accept-Language", rng.choice(corpus.LANGUAGES)))
        if rng.random() < (0.05 if mode == SIGNED_OUT else 0.01):
            headers.append(("Cookie", rng.choice(corpus.COOKIES)))
        if rng.random() < 0.02:
            headers.append(("X-Forwarded-For", rng.choice(["1.2.3.4", "x", "1.2.3.4, 5.6.7.8", "::1", "%00"])))
        if rng.random() < 0.01:
            headers.append(("Host", rng.choice(["example.com:99999", "[::1]", "a" * 300, "evil.example/..", "x y"])))
        return headers

    # ------------------------------------------------------------ bodies

    def _body(
        self, route: Route, method: str, mode: str, match: MatchFacts | None, values: dict[str, str], rng: random.Random
    ) -> tuple[list[tuple[str, str]], bytes | None]:
        """Return a request's body and the headers that describe it."""
        if route.endpoint.startswith("api."):
            return api_body(route.endpoint, method, match, rng)
        if method in ("GET", "HEAD", "OPTIONS") and rng.random() > 0.03:
            return [], None
        fields = self._form_template(route.endpoint, match, values, rng)
        return form_body(mutate(fields, rng, self.field_names), mode, rng)

    def _form_template(
        self, endpoint: str, match: MatchFacts | None, values: dict[str, str], rng: random.Random
    ) -> list[tuple[str, str]]:
        """Return the fields a browser would post to `endpoint` (made hostile afterwards)."""
        if endpoint == "auth.login":
            password = corpus.text(rng) if rng.random() < 0.25 else PASSWORD
            return [("username", rng.choice([OWN, OTHER, "nobody", OWN.upper(), f" {OWN} "])), ("password", password)]
        if endpoint in ("auth.setup", "auth.signup"):
            password = rng.choice([PASSWORD, "x", corpus.text(rng)])
            return [("username", f"guest{rng.randrange(10**6)}"), ("password", password), ("confirm", password)]
        if endpoint == "auth.language":
            return [
                ("language", rng.choice(["en", "es", "it", "nb", "xx", ""])),
                ("next", rng.choice(corpus.REDIRECTS)),
            ]
        if endpoint == "auth.account":
            return [("name", rng.choice(["script", "", "x" * 41]))]
        if endpoint == "players.index":
            return [("name", rng.choice(["Marta", "Ana", "Luis", "Pepe"]) + str(rng.randrange(100)))]
        if endpoint == "players.rename":
            return [("rename-name", rng.choice(["Marta", "Luis", "Ana"]))]
        if endpoint == "matches.new":
            return _new_match_fields(values.get("game_name", "tute2"), rng)
        if endpoint == "matches.rematch":
            return [("leader", str(rng.randrange(4)))]
        if endpoint in ("matches.save_deal", "matches.save_bids", "matches.edit_deal"):
            return _deal_fields(endpoint, match, values, rng)
        if endpoint == "nights.save_note":
            return [("note", corpus.note(rng) or "")]
        if endpoint in ("seasons.index", "seasons.edit"):
            return _season_fields(rng)
        if endpoint == "nights.save_gap":
            return [("night_gap", str(rng.randint(0, 13)))]
        if endpoint == "auth.time_zone":
            return [("time_zone", rng.choice(["Europe/Madrid", "America/New_York", "UTC", "", "Nowhere/Else"]))]
        if endpoint == "share.state":  # the live view's script: a share link's secret, and the version it shows
            shares = self.prepared.shares(OWN)
            return [
                ("secret", rng.choice(shares) if shares and rng.random() < 0.7 else corpus.text(rng)),
                ("version", str(rng.randint(0, 9)) if rng.random() < 0.6 else corpus.number(rng)),
            ]
        if endpoint in (
            "auth.logout",
            "auth.revoke_token",
            "players.archive",
            "matches.undo",
            "matches.abandon",
            "matches.delete",
            "share.create",
            "share.revoke",
        ):
            return []
        return [
            (name, corpus.number(rng) if rng.random() < 0.5 else corpus.text(rng))  # a form added later
            for name in rng.sample(self.field_names, 4)
        ]


def _season_fields(rng: random.Random) -> list[tuple[str, str]]:
    """Return the fields of a season's form: its name, days, league points and best-of."""
    first = rng.choice(["2026-01-01", "2026-09-01", *corpus.DATES[:2]])
    return [
        ("name", rng.choice(["Liga de otoño", "Liga", "Verano"]) + str(rng.randrange(100))),
        ("starts_on", first),
        ("ends_on", rng.choice(["2026-12-31", "2026-11-30", first])),
        ("win_points", str(rng.randint(0, 5))),
        ("shared_points", rng.choice(["1", "0"])),
        ("other_points", "0"),
        ("best_of", rng.choice(["", "1", "10"])),
    ]


def _new_match_fields(game_name: str, rng: random.Random) -> list[tuple[str, str]]:
    """Return the fields of a new-match form: seats, first dealer (or leader) and house rules."""
    game = get_game(game_name) if game_name in GAMES else get_game("tute2")
    seats = rng.randint(game.min_players, game.max_players)
    fields = [
        (
            f"players-{seat}",
            rng.choice(["Ana", "Luis", "Carmen", "Diego", "Eva", "Félix", "Gema", "Hugo"])
            + ("" if rng.random() < 0.7 else str(seat)),
        )
        for seat in range(seats)
    ]
    fields.append(("leader" if game.name == "tute4" else "first_dealer", str(rng.randrange(seats))))
    for spec in game.option_specs:
        name = f"opt_{spec.name}"
        if spec.kind == "bool":
            if rng.random() < 0.5:
                fields.append((name, "y"))
        elif spec.kind == "int":
            fields.append((name, rng.choice(["", str(spec.default or 1), str(rng.randint(0, 50))])))
        else:
            allowed = [str(c) for c in spec.choices] + (["custom"] if spec.kind == "schedule" else [])
            fields.append((name, rng.choice(allowed)))
            if spec.kind == "schedule":
                fields.append(("schedule_list", rng.choice(["1 2 3", "5 5 5 5", "1", "0", "99", "1e9"])))
    return fields


def _deal_fields(
    endpoint: str, match: MatchFacts | None, values: dict[str, str], rng: random.Random
) -> list[tuple[str, str]]:
    """Return the fields of a deal form for the match: Tute's deal, or Pocha's bids (and tricks)."""
    game = match.game if match else rng.choice(sorted(GAMES))
    seats = match.seats if match else get_game(game).min_players
    deals = match.deals if match else 1
    number = values.get("number") if endpoint == "matches.edit_deal" else str(deals + 1 + rng.choice([0, 0, 0, 1, -1]))
    fields = [("number", number or "1"), ("dealer", str(rng.randrange(seats)))]
    if endpoint == "matches.edit_deal":
        fields.append(("version", str(rng.randint(1, deals + 3))))
    if game == "subastado":
        fields += [("declarer", rng.choice(["passed", *[str(seat) for seat in range(seats + 1)]]))]
        fields += [("bid", str(rng.choice([60, 80, 85, 230, 62, 55, 300]))), ("points", str(rng.randint(0, 120)))]
        fields += [("trump", rng.choice(SUITS))]
        fields += [("last_trick", "y")] if rng.random() < 0.5 else []
        fields += [(f"cante_{suit}", "y") for suit in SUITS if rng.random() < 0.2]
        if rng.random() < 0.05:
            fields += [("tute_seat", str(rng.randrange(seats))), ("tute_kind", rng.choice(["reyes", "caballos"]))]
        return fields
    if game != "pocha":
        points = rng.randint(0, 120)
        sides = len(get_game(game).sides(seats))
        # One side's points typed, or all but the last (which the form fills in), as a phone sends them.
        typed = [str(points)] if sides == 2 else [str(points), str(rng.randint(0, 120 - points))]
        fields += [
            ("trump", rng.choice(SUITS)),
            *[(f"points{side}", typed[side] if side < len(typed) else "") for side in range(sides)],
            ("last_trick", str(rng.randrange(sides))),
            ("tute_seat", ""),
        ]
        fields += [(f"cante_{suit}", str(rng.randrange(seats)) if rng.random() < 0.2 else "") for suit in SUITS]
        if rng.random() < 0.1:
            fields += [("tute_seat", str(rng.randrange(seats))), ("tute_kind", rng.choice(["reyes", "caballos"]))]
        return fields
    cards = (match.next_cards if match else None) or rng.randint(1, 5)
    fields += [("cards", str(cards)), ("trump", rng.choice(["none", *SUITS]))]
    fields += [(f"bids-{seat}", str(rng.randint(0, cards))) for seat in range(seats)]
    if endpoint == "matches.save_bids" and rng.random() < 0.5:
        # Bids from the several phones (the client threads) of one table: some name the version they
        # correct, most replace nothing (bids already in are then refused, with what is in).
        fields.append(
            (
                "version",
                match.etag.strip('"').split("-")[0].lstrip("v")
                if match and rng.random() < 0.5
                else str(rng.randint(0, 9)),
            )
        )
    if endpoint != "matches.save_bids":
        fields += [(f"tricks-{seat}", str(rng.randint(0, cards))) for seat in range(seats)]
    return fields
