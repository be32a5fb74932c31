"""Each rejection code of docs/rules.md, with the field it names and a message for players."""

from typing import Any

import pytest

from scorekeeper.registry import CODES, get_game, score_match
from scorekeeper.rules import RuleViolation

from .helpers import codes, match, tute_deal, violations


def pocha_deal(
    bids: list[int], tricks: list[int], *, cards: int = 1, dealer: int = 0, trump: Any = "oros"
) -> dict[str, Any]:
    return {"dealer": dealer, "cards": cards, "trump": trump, "bids": bids, "tricks": tricks}


THREE = ["Ana", "Luis", "Carmen"]
SUBASTADO_DEAL = {"dealer": 0, "declarer": 1, "bid": 80, "trump": "copas", "points": 62, "last_trick": True}
FIRST_POCHA = pocha_deal([1, 0, 0, 1], [1, 0, 0, 0])  # 1 card each; dealer seat 0 bids 1 of 2 allowed

CASES: list[tuple[str, Any, str, int | None]] = [
    ("malformed", match("tute2", [tute_deal(("70", 50), 0)]), "points", 1),
    ("game_unknown", {"game": "mus", "players": ["Ana", "Luis"]}, "game", None),
    ("options_invalid", match("tute2", [], {"last_trick_bonus": 51}), "options.last_trick_bonus", None),
    ("options_invalid", match("tute2", [], {"trumps": 3}), "options.trumps", None),
    ("players_count", match("tute4", [], players=["Ana", "Luis", "Carmen"]), "players", None),
    ("players_count", match("pocha", [], players=["Ana"]), "players", None),
    ("players_duplicate", match("pocha", [], players=["Ana", "Luis", "ana "]), "players.2", None),
    ("schedule_invalid", match("pocha", [], {"schedule": [1, 11]}), "options.schedule", None),
    ("schedule_invalid", match("pocha", [], {"schedule": [0]}), "options.schedule", None),
    ("dealer_invalid", match("tute2", [tute_deal(dealer=2)]), "dealer", 1),
    ("seat_invalid", match("tute2", [tute_deal(cantes=[(2, "oros")])]), "cantes.0.seat", 1),
    ("seat_invalid", match("tute4", [tute_deal(None, None, tute=(7, "reyes"))]), "tute.seat", 1),
    ("trump_invalid", match("tute2", [tute_deal(trump="hearts")]), "trump", 1),
    ("trump_invalid", match("tute2", [{"dealer": 0, "points": [70, 50], "last_trick": 0}]), "trump", 1),
    ("trump_invalid", match("pocha", [pocha_deal([1, 0, 0, 1], [1, 0, 0, 0], trump="sol")]), "trump", 1),
    ("points_impossible", match("tute2", [tute_deal((121, -1), 0)]), "points.0", 1),
    ("points_impossible", match("tute2", [tute_deal((1, 119), 0)]), "points.0", 1),
    ("points_total", match("tute2", [tute_deal((60, 50), 0)]), "points", 1),
    ("points_total", match("tute2", [tute_deal((80, 50), None, tute=(0, "reyes"))]), "points", 1),
    ("last_trick_invalid", match("tute2", [tute_deal(last_trick=None)]), "last_trick", 1),
    ("last_trick_invalid", match("tute2", [tute_deal(last_trick=2)]), "last_trick", 1),
    ("last_trick_invalid", match("tute2", [tute_deal(last_trick=0, tute=(0, "reyes"))]), "last_trick", 1),
    ("cante_suit_twice", match("tute4", [tute_deal(cantes=[(1, "copas"), (3, "copas")])]), "cantes.1.suit", 1),
    ("tute_disabled", match("tute2", [tute_deal(None, None, tute=(1, "caballos"))], {"tute": "off"}), "tute", 1),
    ("cards_range", match("pocha", [pocha_deal([0, 0, 0, 0], [0, 0, 0, 0], cards=0)]), "cards", 1),
    ("cards_range", match("pocha", [pocha_deal([0, 0, 0, 0], [0, 0, 0, 0], cards=11)]), "cards", 1),
    ("cards_schedule", match("pocha", [pocha_deal([1, 0, 0, 0], [1, 1, 0, 0], cards=2)]), "cards", 1),
    ("bid_range", match("pocha", [pocha_deal([1, 2, 0, 1], [1, 0, 0, 0])]), "bids.1", 1),
    ("bid_range", match("pocha", [pocha_deal([1, -1, 0, 1], [1, 0, 0, 0])]), "bids.1", 1),
    ("bid_hook", match("pocha", [pocha_deal([0, 0, 0, 1], [1, 0, 0, 0], dealer=3)]), "bids.3", 1),
    ("tricks_range", match("pocha", [pocha_deal([1, 0, 0, 1], [2, -1, 0, 0])]), "tricks.0", 1),
    ("tricks_total", match("pocha", [pocha_deal([1, 0, 0, 1], [1, 1, 0, 0])]), "tricks", 1),
    ("bid_range", match("subastado", [SUBASTADO_DEAL | {"bid": 55}], players=THREE), "bid", 1),
    ("bid_step", match("subastado", [SUBASTADO_DEAL | {"bid": 62}], players=THREE), "bid", 1),
    ("declarer_invalid", match("subastado", [SUBASTADO_DEAL | {"declarer": None}], players=THREE), "declarer", 1),
    ("declarer_invalid", match("subastado", [{"dealer": 0, "passed": True, "bid": 80}], players=THREE), "bid", 1),
    (
        "seat_invalid",
        match("subastado", [SUBASTADO_DEAL | {"cantes": [{"seat": 2, "suit": "oros"}]}], players=THREE),
        "cantes.0.seat",
        1,
    ),
    ("players_count", match("subastado", [], {"players": 4}, players=THREE), "players", None),
    ("match_finished", match("tute2", [tute_deal()] * 4), "deal", 4),
    ("match_finished", match("pocha", [FIRST_POCHA, FIRST_POCHA], {"schedule": [1]}), "deal", 2),
]


@pytest.mark.parametrize(("code", "document", "field", "deal"), CASES)
def test_rejection_has_the_code_the_field_the_deal_and_a_message(
    code: str, document: Any, field: str, deal: int | None
) -> None:
    errors = violations(document)
    assert {"deal": deal, "field": field, "code": code} in [
        {k: e[k] for k in ("deal", "field", "code")} for e in errors
    ]
    assert all(isinstance(e["message"], str) and len(str(e["message"])) > 10 for e in errors)


# The code table of docs/rules.md, copied here so that a code dropped from the engine is noticed.
RULES_MD_CODES = {
    "malformed",
    "game_unknown",
    "options_invalid",
    "players_count",
    "players_duplicate",
    "schedule_invalid",
    "dealer_invalid",
    "seat_invalid",
    "trump_invalid",
    "points_impossible",
    "points_total",
    "last_trick_invalid",
    "cante_suit_twice",
    "tute_disabled",
    "cards_range",
    "cards_schedule",
    "bid_range",
    "bid_step",
    "declarer_invalid",
    "bid_hook",
    "tricks_range",
    "tricks_total",
    "match_finished",
}


def test_every_code_in_rules_md_is_exercised_and_the_engine_has_no_other() -> None:
    assert {case[0] for case in CASES} == RULES_MD_CODES
    assert set(CODES) == RULES_MD_CODES


def test_all_problems_of_a_document_are_listed_not_only_the_first() -> None:
    doc = match("tute2", [tute_deal((60, 50), 0), tute_deal(dealer=5, trump="sol"), tute_deal(last_trick=None)])
    assert codes(doc) == ["points_total", "dealer_invalid", "trump_invalid", "last_trick_invalid"]
    assert [e["deal"] for e in violations(doc)] == [1, 2, 2, 3]


def test_problems_in_players_and_options_are_reported_together() -> None:
    doc = match("pocha", [], {"deck": 36, "hook": "yes"}, players=["Ana", "Ana"])
    assert codes(doc) == ["players_duplicate", "options_invalid", "malformed"]


def test_deal_after_a_tute_declared_under_tute_match_is_refused() -> None:
    deals = [tute_deal(None, None, tute=(0, "reyes")), tute_deal()]
    assert codes(match("tute2", deals, {"tute": "match"})) == ["match_finished"]


def test_a_finished_match_refuses_every_further_deal() -> None:
    result = score_match(match("tute2", [tute_deal()] * 3))
    assert result["finished"] is True
    assert codes(match("tute2", [tute_deal()] * 5)) == ["match_finished", "match_finished"]


def test_juegos_target_above_99_is_refused_but_allowed_in_points_mode() -> None:
    assert codes(match("tute2", [], {"target": 100})) == ["options_invalid"]
    assert score_match(match("tute2", [], {"target": 10000, "mode": "points"}))["finished"] is False
    assert codes(match("tute2", [], {"target": 10001, "mode": "points"})) == ["options_invalid"]


def test_unknown_deal_fields_and_document_fields_are_malformed() -> None:
    deal = {**tute_deal(), "value": 40}
    assert violations(match("tute2", [deal]))[0] == {
        "deal": 1,
        "field": "value",
        "code": "malformed",
        "message": "Deal 1 has an unknown field 'value'.",
    }
    assert codes({**match("tute2", []), "winner": 0}) == ["malformed"]


def test_get_game_names_the_game_or_refuses_with_game_unknown() -> None:
    assert get_game("tute4").name == "tute4"
    with pytest.raises(RuleViolation) as caught:
        get_game("brisca")
    assert caught.value.codes == ["game_unknown"]


def test_rule_violation_reads_well_as_text() -> None:
    with pytest.raises(RuleViolation) as caught:
        score_match(match("tute2", [tute_deal((60, 50), 0)]))
    assert (
        str(caught.value) == "deal 1, points: The card points must add up to 120; these add up to 110. [points_total]"
    )
