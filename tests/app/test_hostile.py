"""Hostile input to every form and every API endpoint: never a server error, always a message,
nothing stored by a refusal, and typed text always escaped on output."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, Deal, Match, Player, Season, User

from ..conftest import Browser
from .matchhelpers import bids_form, start, tute_form
from .test_api import Api, token_for

HOSTILE_TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "<script>alert('x')</script>",
            '"><img src=x onerror=alert(1)>',
            "'; DROP TABLE matches; --",
            "1 OR 1=1",
            "%00",
            "\u202eevil",
            "٣",
            "²",
            "-1",
            "1e9",
            "99999999999999999999999",
            "NaN",
            "",
            " ",
            "x" * 5000,
            "\U0001f0a1" * 50,
            "0x10",
            "None",
            "true",
            "[]",
            "{}",
            "\x00",
            "ana\x00",
            "\x7f\x1b[31m",
        ]
    ),
)
FORM_FIELDS = [
    "name",
    "rename-name",
    "username",
    "password",
    "confirm",
    "number",
    "version",
    "dealer",
    "trump",
    "points0",
    "points1",
    "last_trick",
    "cante_oros",
    "cante_copas",
    "tute_seat",
    "tute_kind",
    "cards",
    "bids-0",
    "bids-1",
    "bids-7",
    "tricks-0",
    "tricks-1",
    "players-0",
    "players-1",
    "players-2",
    "first_dealer",
    "leader",
    "opt_deck",
    "opt_target",
    "opt_mode",
    "opt_schedule",
    "schedule_list",
    "opt_exact_base",
    "language",
    "idempotency_key",
    "next",
    "declarer",
    "bid",
    "points",
    "win_points",
    "shared_points",
    "other_points",
    "best_of",
    "starts_on",
    "ends_on",
    "night_gap",
    "time_zone",
]


def form_paths(app: Flask) -> list[str]:
    """Every page route that takes a POST (signing out aside), with sample values in its URL."""
    from .test_routes import concrete

    found = {
        concrete(rule.rule)
        for rule in app.url_map.iter_rules()
        if "POST" in rule.methods and not rule.endpoint.startswith("api.") and rule.endpoint != "auth.logout"
    }
    # the other games' forms, the Pocha match's steps, the subastado's deal and its edit, the season's edit
    return sorted(
        found
        | {"/matches/new/pocha", "/matches/new/tute4", "/matches/2/bids", "/matches/2/deal"}
        | {"/matches/3/deal", "/matches/3/deals/1/edit", "/seasons/named/1/edit"}
    )


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | HOSTILE_TEXT,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "game",
                    "players",
                    "options",
                    "deals",
                    "dealer",
                    "trump",
                    "points",
                    "last_trick",
                    "cantes",
                    "tute",
                    "cards",
                    "bids",
                    "tricks",
                    "number",
                    "first_dealer",
                    "seat",
                    "suit",
                    "kind",
                    "x",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=25,
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def snapshot(app: Flask) -> tuple[Any, ...]:
    """Return what a refusal must leave as it was."""
    with app.app_context():
        counts = tuple(
            db.session.scalar(db.select(db.func.count()).select_from(model))
            for model in (User, ApiToken, Player, Match, Deal, Season)
        )
        matches = tuple(db.session.execute(db.select(Match.id, Match.version, Match.status)).all())
        names = tuple(db.session.scalars(db.select(Player.name).order_by(Player.id)))
        return counts, matches, names


def prepared(ana: Browser) -> None:
    start(ana, "tute2", ["Ana", "Luis"])
    ana.post("/matches/1/deal", data=tute_form(70, 0))
    start(ana, "pocha", ["Ana", "Luis"])
    ana.post("/matches/2/bids", data=bids_form([1, 1], number=1, dealer=0, cards=1))
    start(ana, "subastado", ["Ana", "Luis", "Carmen"])
    auction = {"number": 1, "dealer": 0, "declarer": "1", "bid": "60", "trump": "copas", "points": "70"}
    ana.post("/matches/3/deal", data=auction)
    season = {"name": "Liga", "starts_on": "2026-01-01", "ends_on": "2026-12-31", "win_points": "3"}
    ana.post("/seasons/", data={**season, "shared_points": "1", "other_points": "0", "best_of": ""})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), fields=st.lists(st.tuples(st.sampled_from(FORM_FIELDS), HOSTILE_TEXT), max_size=12))
def test_any_form_input_is_answered_with_a_message_and_never_a_server_error(
    ana: Browser, app: Flask, data: st.DataObject, fields: list[tuple[str, str]]
) -> None:
    paths = form_paths(app)
    assert len(paths) >= 20, paths
    path = data.draw(st.sampled_from(paths))
    if snapshot(app)[0][3] == 0:
        prepared(ana)
    before = snapshot(app)
    posted = MultiDict(fields)  # repeated fields included
    posted["csrf_token"] = ana.token
    response = ana.client.post(path, data=posted)
    event(f"form answered {response.status_code}")
    body = response.get_data(as_text=True)
    assert response.status_code < 500, body[:500]
    if 400 <= response.status_code < 500 and response.status_code != 404:
        assert 'class="error"' in body or "CSRF" in body, (path, response.status_code)
        assert snapshot(app) == before, path
    for _, text in fields:
        if "<" in text and len(text) > 3:
            assert text not in body, "typed text must be escaped"


#: Text a phone's keyboard or a script may send for "nothing", which no field may take for a value.
BLANKS = (" ", "\t", "\n", " \r\n")


def at_the_field(page: str, name: str) -> bool:
    """Tell whether a refused form says why at the field `name`: in its own messages, in its group's (a side's
    points under the card points), or in the set of fields it belongs to (the players, for their number)."""
    for box in {name, re.sub(r"-?\d+$", "", name)}:
        if re.search(rf'data-errors-for="{re.escape(box)}"[^>]*>\s*<p class="error">', page):
            return True
    fieldsets = re.findall(r"<fieldset\b.*?</fieldset>", page, re.S)
    return any(f'name="{name}"' in fieldset and '<p class="error">' in fieldset for fieldset in fieldsets)


def test_any_one_field_of_a_form_given_only_spaces_is_refused_at_a_field_or_read_as_left_empty(
    ana: Browser, app: Flask
) -> None:
    prepared(ana)

    def version(path: str) -> str:
        found = re.search(r'name="version"[^>]*value="([^"]*)"', ana.get(path).get_data(as_text=True))
        assert found, path
        return found.group(1)

    season = {
        "starts_on": "2026-01-01",
        "ends_on": "2026-12-31",
        "win_points": "3",
        "shared_points": "1",
        "other_points": "0",
        "best_of": "5",
    }
    # Each form as a phone fills it in, right in every field, so that the one field made blank is what decides.
    forms: dict[str, Any] = {
        "/matches/1/deals/1/edit": lambda: {
            **tute_form(70, 0),
            "cante_oros": "0",
            "version": version("/matches/1/deals/1/edit"),
        },
        "/matches/3/deals/1/edit": lambda: {
            **{"number": 1, "dealer": 0, "declarer": "1", "bid": "60", "trump": "copas", "points": "70"},
            **{"last_trick": "y", "cante_copas": "y", "version": version("/matches/3/deals/1/edit")},
        },
        "/matches/3/deal": lambda: {
            "number": 2,
            "dealer": 1,
            "declarer": "2",
            "bid": "60",
            "trump": "oros",
            "points": "70",
        },
        "/seasons/": lambda: {**season, "name": f"Liga {uuid.uuid4().hex[:6]}"},
        "/seasons/named/1/edit": lambda: {**season, "name": "Liga"},
        "/matches/new/subastado": lambda: {
            **{"players-0": "Ana", "players-1": "Luis", "players-2": "Carmen", "first_dealer": "0"},
            **{"opt_made": "bid", "opt_failed": "lose", "opt_tute": "off", "opt_target": "500"},
        },
        "/players/": lambda: {"name": f"Marta {uuid.uuid4().hex[:6]}"},
        "/account/night-gap": lambda: {"night_gap": "4"},
        "/account/time-zone": lambda: {"time_zone": "Europe/Madrid"},
    }
    refused = 0
    for path, fill in forms.items():
        for name in fill():
            for blank in BLANKS:
                body = {**fill(), name: blank}
                response = ana.post(path, data=body)
                page = response.get_data(as_text=True)
                assert response.status_code < 500, (path, name, blank, page[:500])
                if response.status_code == 422:
                    refused += 1
                    assert at_the_field(page, name), (path, name, blank)
                if response.status_code == 302 and path == "/matches/3/deal":
                    ana.post("/matches/3/undo")  # a blank read as left empty let the deal in: undone for the next
    assert refused > 50, refused


@SETTINGS
@given(
    endpoint=st.sampled_from(
        [
            "POST /api/v1/matches",
            "POST /api/v1/matches/1/deals",
            "PUT /api/v1/matches/1/deals/1",
            "PUT /api/v1/matches/1/deals/9",
            "DELETE /api/v1/matches/1/deals/1",
            "POST /api/v1/matches/2/deals",
        ]
    ),
    body=JSON_VALUES,
)
def test_any_api_body_is_answered_with_a_message_and_never_a_server_error(app: Flask, endpoint: str, body: Any) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    if snapshot(app)[0][3] == 0:
        api.post(
            "/api/v1/matches",
            {
                "game": "tute2",
                "players": ["Ana", "Luis"],
                "deals": [
                    {"dealer": 0, "trump": "oros", "points": [70, 50], "last_trick": 0},
                    {"dealer": 1, "trump": "oros", "points": [70, 50], "last_trick": 0},
                ],
            },
        )
        api.post("/api/v1/matches", {"game": "pocha", "players": ["Ana", "Luis"]})
    before = snapshot(app)
    method, path = endpoint.split(" ")
    response = api.client.open(
        path, method=method, data=json.dumps(body), headers={**api.headers, "Content-Type": "application/json"}
    )
    assert response.status_code < 500
    event(f"api answered {response.status_code}")
    answer = response.get_json()
    assert answer is not None
    if response.status_code >= 400:
        messages = [e["message"] for e in answer.get("errors", [])] or [answer.get("message")]
        assert all(isinstance(m, str) and m for m in messages), answer
        assert snapshot(app)[1:] == before[1:] and snapshot(app)[0][2:] == before[0][2:]


@SETTINGS
@given(token=HOSTILE_TEXT, version=HOSTILE_TEXT)
def test_any_share_token_is_answered_without_a_server_error(app: Flask, token: str, version: str) -> None:
    from urllib.parse import quote

    client = app.test_client()
    response = client.get(f"/live/{quote(token, safe='')}", query_string={"version": version})
    assert response.status_code in (303, 404, 308), response.status_code
    response = client.post("/live/state", data={"secret": token, "version": version})
    assert response.status_code in (200, 204, 404), response.status_code
    # The poll of a live view's page opened before 0.2, left open across the upgrade.
    response = client.get(f"/live/{quote(token, safe='')}/state", query_string={"version": version})
    assert response.status_code in (200, 404, 308), response.status_code


@SETTINGS
@given(
    note=st.one_of(
        HOSTILE_TEXT,
        st.sampled_from(["\ufb2c" * 200, "\ufb2c" * 67, "ΐ" * 200, "ﬃ" * 200]),
        st.text(alphabet="\ufb2cΐﬃße\u0301x ", max_size=260),
    )
)
def test_any_note_is_kept_within_its_room_or_refused_at_its_field(ana: Browser, app: Flask, note: str) -> None:
    if snapshot(app)[0][3] == 0:
        prepared(ana)
    api = Api(app.test_client(), token_for(app, "ana"))
    answers = [
        ana.post("/matches/1/note", data={"note": note}),
        api.client.patch("/api/v1/matches/1", json={"note": note}, headers=api.headers),
        api.post("/api/v1/matches", {"game": "tute2", "players": ["Ana", "Luis"], "note": note}),
    ]
    assert all(answer.status_code in (200, 201, 302, 422) for answer in answers), [a.status_code for a in answers]
    with app.app_context():
        for match in db.session.scalars(db.select(Match)):
            assert match.note is None or len(match.note) <= 200


def test_an_oversized_body_is_refused_without_a_server_error(app: Flask, ana: Browser) -> None:
    api = Api(app.test_client(), token_for(app, "ana"))
    huge = "x" * (3 * 1024 * 1024)
    assert (
        api.client.post(
            "/api/v1/matches", data=huge, headers={**api.headers, "Content-Type": "application/json"}
        ).status_code
        == 413
    )
    assert ana.post("/players/", data={"name": huge}).status_code == 413
