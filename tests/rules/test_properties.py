"""Property-based tests of the rules engine (hypothesis)."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.tute.rules import cante_value
from scorekeeper.registry import CODES, check_bids, check_match, get_game, score_match
from scorekeeper.rules import SUITS, MatchResult, RuleViolation

from . import pocha_oracle as oracle
from .test_pocha_oracle import pocha_matches

POSSIBLE_POINTS = st.integers(0, 120).filter(lambda p: p not in (1, 119))

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(10**30), 10**30)
    | st.just(0).map(lambda _: 10**5000)
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.sampled_from(SUITS + ("reyes", "juegos", "classic")),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)


@st.composite
def tute_deals(draw: st.DrawFn, seats: int, options: dict[str, Any], dealer: int | None = None) -> dict[str, Any]:
    """Draw a valid Tute deal for a table of `seats` under `options`, dealt by `dealer` (any seat if None)."""
    if dealer is None:
        dealer = draw(st.integers(0, seats - 1))
    deal: dict[str, Any] = {"dealer": dealer, "trump": draw(st.sampled_from(SUITS))}
    suits = draw(st.lists(st.sampled_from(SUITS), unique=True, max_size=4))
    deal["cantes"] = [{"seat": draw(st.integers(0, seats - 1)), "suit": suit} for suit in suits]
    if options.get("tute") != "off" and draw(st.integers(0, 9)) == 0:
        holder = draw(st.integers(0, seats - 1))
        kind = draw(st.sampled_from(["reyes", "caballos"]))
        deal["tute"] = {"seat": holder, "kind": kind}
        deal["cantes"] = [{"seat": holder, "suit": suit} for suit in suits]  # nobody else holds a Rey or Caballo
        most = 104 if kind == "reyes" else 108  # the declarer's four cards (4 or 3 points each) are in no trick
        first = draw(POSSIBLE_POINTS.filter(lambda p: p <= most))
        second = draw(POSSIBLE_POINTS.filter(lambda p: p + first <= most))
        third = [draw(POSSIBLE_POINTS.filter(lambda p: p + first + second <= most))] if seats == 3 else []
        if draw(st.booleans()):
            deal["points"] = [first, second, *third]
    else:
        first = draw(POSSIBLE_POINTS)
        if seats == 3:  # each player a side: the third has what the other two left
            second = draw(POSSIBLE_POINTS.filter(lambda p: p + first <= 120 and 120 - first - p not in (1, 119)))
            deal["points"] = [first, second, 120 - first - second]
        else:
            deal["points"] = [first, 120 - first]
        deal["last_trick"] = draw(st.integers(0, len(deal["points"]) - 1))
    return deal


tute_options = st.fixed_dictionaries(
    {},
    optional={
        "last_trick_bonus": st.integers(0, 50),
        "mode": st.sampled_from(["juegos", "points"]),
        "double_over_100": st.booleans(),
        "tute": st.sampled_from(["deal", "match", "off"]),
        "deck": st.sampled_from([40, 48]),
    },
)


@st.composite
def tute_matches(draw: st.DrawFn) -> dict[str, Any]:
    """Draw a valid Tute match: deals are added until the match ends or the draw stops."""
    game = draw(st.sampled_from(["tute2", "tute3", "tute4"]))
    seats = int(game[-1])
    options = draw(tute_options)
    if draw(st.booleans()):
        limit = 99 if options.get("mode", "juegos") == "juegos" else 400
        options["target"] = draw(st.integers(1, limit))
    doc: dict[str, Any] = {"game": game, "players": [f"P{i}" for i in range(seats)], "options": options, "deals": []}
    for _ in range(draw(st.integers(0, 12))):
        doc["deals"].append(draw(tute_deals(seats, options)))
        if score_match(doc)["finished"]:
            break
    return doc


def assert_rejects_cleanly_or_scores(document: Any) -> None:
    try:
        result = score_match(document)
    except RuleViolation as violation:
        assert violation.errors
        for error in violation.errors:
            assert set(error) == {"deal", "field", "code", "message"}
            assert error["code"] in CODES
            assert isinstance(error["message"], str) and error["message"]
    else:
        assert set(result) == {
            "game",
            "sides",
            "deals",
            "totals",
            "juegos",
            "finished",
            "winners",
            "next_dealer",
            "next_cards",
        }


FIELD_PATHS = [
    (),
    ("game",),
    ("players",),
    ("players", 0),
    ("options",),
    ("options", "target"),
    ("options", "schedule"),
    ("deals",),
    ("deals", 0),
    ("deals", 0, "dealer"),
    ("deals", 0, "trump"),
    ("deals", 0, "points"),
    ("deals", 0, "points", 1),
    ("deals", 0, "last_trick"),
    ("deals", 0, "cantes"),
    ("deals", 0, "cantes", 0),
    ("deals", 0, "cantes", 0, "seat"),
    ("deals", 0, "cantes", 0, "suit"),
    ("deals", 0, "tute"),
    ("deals", 0, "cards"),
    ("deals", 0, "bids"),
    ("deals", 0, "bids", 0),
    ("deals", 0, "tricks"),
    ("deals", 0, "tricks", 3),
]

BASES = [
    {
        "game": "tute2",
        "players": ["Ana", "Luis"],
        "options": {"target": 3},
        "deals": [
            {
                "dealer": 0,
                "trump": "copas",
                "points": [78, 42],
                "last_trick": 0,
                "cantes": [{"seat": 0, "suit": "oros"}],
            }
        ],
    },
    {
        "game": "tute4",
        "players": ["Ana", "Luis", "Carmen", "Pedro"],
        "options": {"mode": "points"},
        "deals": [
            {
                "dealer": 3,
                "trump": "oros",
                "points": [30, 12],
                "cantes": [{"seat": 2, "suit": "oros"}],
                "tute": {"seat": 2, "kind": "reyes"},
            }
        ],
    },
    {
        "game": "tute3",
        "players": ["Ana", "Luis", "Carmen"],
        "options": {"mode": "points", "target": 150},
        "deals": [{"dealer": 2, "trump": "bastos", "points": [60, 60, 0], "last_trick": 2}],
    },
    {
        "game": "pocha",
        "players": ["Ana", "Luis", "Carmen", "Pedro"],
        "options": {"schedule": "classic"},
        "deals": [{"dealer": 0, "cards": 1, "trump": None, "bids": [1, 0, 0, 1], "tricks": [1, 0, 0, 0]}],
    },
]


def replace_at(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """Return a copy of `document` with the value at `path` replaced (or the whole document)."""
    if not path:
        return value
    copied = copy.deepcopy(document)
    target = copied
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return copied


@settings(max_examples=400)
@given(base=st.sampled_from(BASES), path=st.sampled_from(FIELD_PATHS), value=json_values)
def test_any_value_in_any_field_scores_or_raises_rule_violation(base: Any, path: tuple[Any, ...], value: Any) -> None:
    try:
        document = replace_at(base, path, value)
    except (IndexError, KeyError, TypeError):
        return  # the path does not exist in this game's document
    assert_rejects_cleanly_or_scores(document)


@given(field=st.sampled_from(["dealer", "cards", "trump", "bids", "tricks", "extra"]), value=json_values)
def test_any_value_in_the_bids_before_play_is_checked_or_refused_cleanly(field: str, value: Any) -> None:
    bids = {"dealer": 3, "cards": 1, "trump": "oros", "bids": [0, 0, 0, 0], field: value}
    try:
        deal = check_bids(BASES[-1] | {"deals": []}, bids)
    except RuleViolation as violation:
        assert violation.errors and all(error["code"] in CODES for error in violation.errors)
    else:
        assert deal.tricks == ()


@given(json_values)
def test_any_json_value_as_a_whole_document_is_refused_cleanly(value: Any) -> None:
    assert_rejects_cleanly_or_scores(value)


@given(game=st.sampled_from(["tute2", "tute3", "tute4"]), options=tute_options, data=st.data())
def test_a_valid_played_out_tute_deal_scores_120_plus_bonus_plus_cantes(
    game: str, options: dict[str, Any], data: st.DataObject
) -> None:
    options["tute"] = "off"
    seats = int(game[-1])
    deal = data.draw(tute_deals(seats, options))
    doc = {"game": game, "players": [f"P{i}" for i in range(seats)], "options": options, "deals": [deal]}
    scores = score_match(doc)["deals"][0]["scores"]
    cantes = sum(cante_value(c["suit"], deal["trump"]) for c in deal["cantes"])
    assert sum(scores) == 120 + options.get("last_trick_bonus", 10) + cantes


@given(pocha_matches())
def test_a_valid_pocha_match_is_finished_exactly_when_its_schedule_is_complete(doc: dict[str, Any]) -> None:
    schedule = oracle.schedule(len(doc["players"]), doc["options"])
    assert score_match(doc)["finished"] is (len(doc["deals"]) == len(schedule))


@given(pocha_matches())
def test_pocha_winners_are_the_players_with_the_best_total(doc: dict[str, Any]) -> None:
    expected = oracle.result(doc)
    result = score_match(doc)
    assert result["totals"] == expected["totals"]
    if result["finished"]:
        best = max(expected["totals"])
        assert result["winners"] == [seat for seat, total in enumerate(expected["totals"]) if total == best]
    else:
        assert result["winners"] == []


@given(tute_matches())
def test_tute_winner_has_the_best_standing(doc: dict[str, Any]) -> None:
    result = score_match(doc)
    if not result["finished"]:
        assert result["winners"] == []
        return
    [winner] = result["winners"]
    losers = [side for side in range(len(result["sides"])) if side != winner]
    last = doc["deals"][-1]
    ended_by_tute = "tute" in last and (doc["options"].get("tute") == "match" or doc["options"].get("mode") == "points")
    if ended_by_tute:
        assert result["deals"][-1]["winner"] == winner
    elif result["juegos"] is not None:
        assert result["juegos"][winner] >= doc["options"].get("target", 3) > max(result["juegos"][s] for s in losers)
    else:
        totals = result["totals"]
        assert totals[winner] == max(totals)
        tied = [side for side, total in enumerate(totals) if total == totals[winner]]
        if result["deals"][-1]["winner"] in tied:  # else the first of the tied in the order of play
            assert winner == result["deals"][-1]["winner"]


@given(st.one_of(tute_matches(), pocha_matches()))
def test_rescoring_the_same_document_gives_the_same_result_and_leaves_it_untouched(doc: dict[str, Any]) -> None:
    before = copy.deepcopy(doc)
    first = score_match(doc)
    assert score_match(doc) == first
    assert doc == before
    assert [d["number"] for d in first["deals"]] == list(range(1, len(doc["deals"]) + 1))
    assert first["totals"] == [sum(d["scores"][i] for d in first["deals"]) for i in range(len(first["sides"]))]


@given(st.one_of(tute_matches(), pocha_matches()))
def test_the_juegos_each_deal_earned_add_up_to_the_match_s_juegos(doc: dict[str, Any]) -> None:
    result = check_match(doc)
    running = result.running_juegos()
    if result.juegos is None:
        assert running == [] and all(deal.juegos is None for deal in result.deals)
        return
    assert len(running) == len(result.deals)
    assert (running[-1] if running else tuple(0 for _ in result.sides)) == result.juegos
    for deal in result.deals:  # only a deal's winner earns juegos
        assert deal.juegos is not None
        assert all(count == 0 for side, count in enumerate(deal.juegos) if side != deal.winner)


@given(st.one_of(tute_matches(), pocha_matches()))
def test_a_result_rebuilt_from_its_cached_form_is_the_result(doc: dict[str, Any]) -> None:
    try:
        result = check_match(doc)
    except RuleViolation:
        return
    cached = json.loads(json.dumps(result.to_dict()))  # as the database gives it back
    assert MatchResult.from_dict(cached) == result
    assert MatchResult.from_dict(cached).running_totals() == result.running_totals()


@given(st.one_of(tute_matches(), pocha_matches()))
def test_a_deficit_is_at_least_the_final_gap_and_none_for_a_side_never_behind(doc: dict[str, Any]) -> None:
    try:
        result = check_match(doc)
    except RuleViolation:
        return
    deficits = get_game(result.game).deficits(result)
    assert len(deficits) == len(result.sides) and min(deficits) >= 0
    running = result.running_totals()
    for side, deficit in enumerate(deficits):
        assert deficit >= max(result.totals) - result.totals[side]
        never_behind = all(totals[side] == max(totals) for totals in running)
        assert (deficit == 0) is never_behind
