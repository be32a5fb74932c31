"""What every game does, each with the worked example of its folder (`examples.py`): a whole
match entered through the deal form to its end and a rematch, through the JSON API, a refused deal
said at its field with every value kept, a deal corrected and one taken back, and export then import.

Nothing here knows a game: the forms are filled from the engine's deals by each game's own deal form
(as its correction page fills it), and what is expected is what the engine says of the example. The
games are the registry's, and those of the folders under tests/ that give worked examples (Lowball,
a game that exists for the tests), registered for their own tests alone.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator, Mapping
from html.parser import HTMLParser
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper.games.web import web_game
from scorekeeper.registry import FOLDER_OF, GAMES, get_game, score_match
from scorekeeper.rules import RuleViolation
from scorekeeper.rules.examples import Example

from ..conftest import Browser, folder_registered, signed_in
from .test_api import Api, token_for
from .test_cli import fresh_app, run, without_stamp

#: The games of the folders under tests/ that give worked examples, by name: the suite registers
#: each for its own tests alone, as the registry would any folder.
TEST_GAMES = {
    game.name: f"tests.{path.parent.name}"
    for path in sorted(Path(__file__).resolve().parents[1].glob("*/examples.py"))
    for game in import_module(f"tests.{path.parent.name}.rules").GAMES
}
#: Every registered game, and those under tests/.
pytestmark = pytest.mark.parametrize("game", [*GAMES, *TEST_GAMES])


@pytest.fixture
def registered(game: str) -> Iterator[str]:
    """Register the game under test if it is one under tests/, for this test alone."""
    if game not in TEST_GAMES:
        yield game
        return
    with folder_registered(TEST_GAMES[game]):
        yield game


@pytest.fixture
def app(registered: str, app: Flask) -> Flask:
    """The app of the conftest, made once the game under test is registered (its pages are read then)."""
    return app


def example_of(game: str) -> Example:
    """Return the worked example the game's folder gives."""
    examples: Mapping[str, Example] = import_module(f"{FOLDER_OF[game]}.examples").EXAMPLES
    return examples[game]


class _FormReader(HTMLParser):
    """Read the fields of a page's forms as a browser would send them (checked boxes only, each
    select's chosen option), with the names of every field, sent or not."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._select: str | None = None
        self._chosen: str | None = None
        self._first: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.forms.append({"action": found.get("action", ""), "values": {}, "names": set()})
            return
        if not self.forms:
            return
        form = self.forms[-1]
        name = found.get("name")
        if tag == "input" and name and found.get("type") not in ("submit", "button"):
            form["names"].add(name)
            if found.get("type") not in ("checkbox", "radio") or "checked" in found:
                form["values"][name] = found.get("value", "on" if found.get("type") == "checkbox" else "")
        elif tag == "select" and name:
            form["names"].add(name)
            self._select, self._chosen, self._first = name, None, None
        elif tag == "option" and self._select is not None:
            value = found.get("value", "")
            self._first = value if self._first is None else self._first
            if "selected" in found:
                self._chosen = value

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None and self.forms:
            chosen = self._chosen if self._chosen is not None else self._first
            if chosen is not None:
                self.forms[-1]["values"][self._select] = chosen
            self._select = None


def posted_form(page: str, action_end: str) -> dict[str, Any]:
    """Return the values and field names of the page's form that posts to an address ending `action_end`."""
    reader = _FormReader()
    reader.feed(page)
    return next(form for form in reader.forms if form["action"].endswith(action_end))


def side_names(game: str, players: list[str]) -> list[str]:
    """Return the names of the sides of a table of `players`."""
    return [" & ".join(players[seat] for seat in side) for side in get_game(game).sides(len(players))]


def deal_fields(app: Flask, game: str, players: list[str], deal: Mapping[str, Any]) -> tuple[dict[str, str], set[str]]:
    """Return the fields of the game's deal form filled with an engine's `deal` (as its correction page
    fills them), and the names of all its fields."""
    with app.test_request_context():
        form = web_game(game).deal_form(players, side_names(game, players))
        form.load(deal)
        rendered = "".join(str(field()) for field in form)  # each field's widget, as its page draws it
    found = posted_form(f'<form action="/filled">{rendered}</form>', "/filled")
    values: dict[str, str] = found["values"]
    names: set[str] = found["names"]
    for hidden in ("number", "version", "csrf_token"):
        values.pop(hidden, None)
    return values, names - {"number", "version", "csrf_token"}


def form_field(app: Flask, game: str, engine_field: str) -> str:
    """Return the name the game's deal form shows an engine field's problems at (a group's own name)."""
    players = list(example_of(game).players)
    with app.test_request_context():
        fields = web_game(game).deal_form(players, side_names(game, players)).error_fields()
    parts = engine_field.split(".")
    found = next(fields[key] for end in range(len(parts), 0, -1) if (key := ".".join(parts[:end])) in fields)
    return found.removeprefix("@")


def messages_at(page: str, name: str) -> str:
    """Return what a page says in the box of messages of the field (or group of fields) `name`."""
    found = re.search(rf'data-errors-for="{re.escape(name)}"[^>]*>(.*?)</div>', page, re.DOTALL)
    assert found is not None, name
    return found.group(1)


def option_fields(game: str, options: Mapping[str, Any]) -> dict[str, str | None]:
    """Return the new-match form's house rule fields for `options` (None: a box left unticked)."""
    fields: dict[str, str | None] = {}
    for spec in get_game(game).option_specs:
        if spec.name not in options:
            continue
        value = options[spec.name]
        if spec.kind == "bool":
            fields[f"opt_{spec.name}"] = "y" if value else None
        elif spec.kind == "schedule" and isinstance(value, list):
            fields[f"opt_{spec.name}"], fields["schedule_list"] = "custom", " ".join(str(cards) for cards in value)
        else:
            fields[f"opt_{spec.name}"] = str(value)
    return fields


def start_on_the_page(browser: Browser, game: str, example: Example) -> int:
    """Fill the new-match form with the example's players and house rules; return the new match's id."""
    form = posted_form(browser.get(f"/matches/new/{game}").get_data(as_text=True), "")
    data = {key: value for key, value in form["values"].items() if not key.startswith("players-")}
    data.update({f"players-{seat}": name for seat, name in enumerate(example.players)})
    for key, value in option_fields(game, example.options).items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    response = browser.post(f"/matches/new/{game}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.location.rsplit("/", 1)[1])


def enter_on_the_page(browser: Browser, app: Flask, game: str, match_id: int, deal: Mapping[str, Any]) -> Any:
    """Enter `deal` through the deal form, in its steps (bids, then tricks, where the game has them);
    return the last answer."""
    values, names = deal_fields(app, game, list(example_of(game).players), deal)
    for step in ("bids", "deal") if get_game(game).bids_first else ("deal",):
        page = browser.get(f"/matches/{match_id}/deal").get_data(as_text=True)
        form = posted_form(page, f"/{step}")
        data = {key: value for key, value in form["values"].items() if key not in names}
        answer = browser.post(form["action"], data={**data, **values})
        if answer.status_code != 302:
            return answer
    return answer


def api_for(app: Flask) -> Api:
    return Api(app.test_client(), token_for(app, "ana"))


def started_through_the_api(app: Flask, game: str, deals: int) -> int:
    """Create the example's match with its first `deals` deals through the API; return its id."""
    created = api_for(app).post("/api/v1/matches", example_of(game).document(game, deals))
    assert created.status_code == 201, created.get_json()
    return int(created.get_json()["id"])


def stored(app: Flask, match_id: int) -> dict[str, Any]:
    """Return the match as the API answers it."""
    answer: dict[str, Any] = api_for(app).get(f"/api/v1/matches/{match_id}").get_json()
    return answer


def test_a_whole_match_through_the_deal_form_ends_as_the_engine_says_and_offers_a_rematch(
    app: Flask, game: str
) -> None:
    ana, example = signed_in(app, "ana"), example_of(game)
    match_id = start_on_the_page(ana, game, example)
    for deal in example.deals:
        answer = enter_on_the_page(ana, app, game, match_id, deal)
        assert answer.status_code == 302, answer.get_data(as_text=True)
    shown = stored(app, match_id)
    assert shown["match"]["deals"] == [dict(deal) for deal in example.deals]
    expected = score_match(example.document(game))
    assert expected["finished"] and shown["result"] == expected and shown["status"] == "finished"
    board = ana.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'href="/matches/{match_id}/deal"' not in board  # nothing more to enter
    rematch = ana.post(f"/matches/{match_id}/rematch")
    assert rematch.status_code == 302
    assert stored(app, int(rematch.location.rsplit("/", 1)[1]))["match"]["deals"] == []


def test_a_whole_match_through_the_api_ends_as_the_engine_says(app: Flask, game: str) -> None:
    api, example = api_for(app), example_of(game)
    created = api.post("/api/v1/matches", example.document(game, 0))
    assert created.status_code == 201
    match_id = created.get_json()["id"]
    for number, deal in enumerate(example.deals, start=1):
        answer = api.post(f"/api/v1/matches/{match_id}/deals", {**deal, "number": number})
        assert answer.status_code == 201, answer.get_json()
        assert answer.get_json()["result"] == score_match(example.document(game, number))
    late = api.post(f"/api/v1/matches/{match_id}/deals", {**example.deals[-1], "number": len(example.deals) + 1})
    assert late.status_code == 422 and late.get_json()["errors"][0]["code"] == "match_finished"


def test_a_refused_deal_is_said_at_its_field_with_every_value_kept_and_nothing_stored(app: Flask, game: str) -> None:
    ana, example = signed_in(app, "ana"), example_of(game)
    match_id = started_through_the_api(app, game, 1)
    document = example.document(game, 1)
    document["deals"].append(dict(example.refused.deal))
    with pytest.raises(RuleViolation) as refused:
        score_match(document)
    problem = next(error for error in refused.value.errors if error["field"] == example.refused.field)
    assert problem["code"] == example.refused.code
    answer = enter_on_the_page(ana, app, game, match_id, example.refused.deal)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    sent, _ = deal_fields(app, game, list(example.players), example.refused.deal)
    kept = posted_form(page, "/deal")
    assert {key: kept["values"].get(key) for key in sent if key in kept["names"]} == {
        key: value for key, value in sent.items() if key in kept["names"]
    }
    assert html.escape(str(problem["message"])) in messages_at(page, form_field(app, game, str(problem["field"])))
    assert len(stored(app, match_id)["match"]["deals"]) == 1
    api = api_for(app).post(f"/api/v1/matches/{match_id}/deals", {**example.refused.deal, "number": 2})
    assert api.status_code == 422 and problem in api.get_json()["errors"]


def test_a_deal_corrected_on_its_page_and_the_last_taken_back_rescore_the_whole_match(app: Flask, game: str) -> None:
    ana, example = signed_in(app, "ana"), example_of(game)
    match_id = started_through_the_api(app, game, 2)
    page = ana.get(f"/matches/{match_id}/deals/1/edit").get_data(as_text=True)
    form = posted_form(page, "/deals/1/edit")
    values, names = deal_fields(app, game, list(example.players), example.other_first_deal)
    data = {key: value for key, value in form["values"].items() if key not in names}
    assert ana.post(form["action"], data={**data, **values}).status_code == 302
    document = example.document(game, 2)
    document["deals"][0] = dict(example.other_first_deal)
    assert stored(app, match_id)["match"]["deals"] == document["deals"]
    assert stored(app, match_id)["result"] == score_match(document)
    assert ana.post(f"/matches/{match_id}/undo").status_code == 302
    document["deals"].pop()
    assert stored(app, match_id)["result"] == score_match(document)


def test_export_then_import_keeps_the_game_s_matches_exactly(app: Flask, game: str, tmp_path: Path) -> None:
    started_through_the_api(app, game, len(example_of(game).deals))
    started_through_the_api(app, game, 1)
    exported = run(app, "export")
    assert exported.exit_code == 0
    data = json.loads(exported.output)
    assert [match["status"] for match in data["accounts"][0]["matches"]] == ["finished", "playing"]
    backup = tmp_path / "backup.json"
    backup.write_text(exported.output)
    other = fresh_app(tmp_path, "restored")
    assert run(other, "import", str(backup)).exit_code == 0
    assert without_stamp(json.loads(run(other, "export").output)) == without_stamp(data)
