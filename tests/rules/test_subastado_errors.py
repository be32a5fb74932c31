"""Every refusal of a Tute subastado match exactly as a player or an API client gets it: the deal,
the field, the code and the sentence, with the names, seats and numbers of that table filled in;
and how a match with a wrong deal, or one already over, is checked to its end."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.games.subastado.rules import SubastadoDeal, SubastadoOptions
from scorekeeper.games.subastado.rules.deal import read_subastado_deal
from scorekeeper.games.tute.rules import TuteDeclaration
from scorekeeper.registry import score_match
from scorekeeper.rules import RuleViolation
from scorekeeper.rules.common import ErrorLog

from .helpers import codes, violations

THREE = ["Ana", "Luis", "Carmen"]
SUIT_NAMES = "oros, copas, espadas or bastos"
#: Luis bids 80 in copas, takes 62 card points and the last trick.
CONTRACT: dict[str, Any] = {"dealer": 0, "declarer": 1, "bid": 80, "trump": "copas", "points": 62, "last_trick": True}
PASSED_BY_ALL: dict[str, Any] = {"dealer": 0, "passed": True}


def doc(*deals: Any, names: list[str] | None = None, **options: Any) -> dict[str, Any]:
    document: dict[str, Any] = {"game": "subastado", "players": names or THREE, "deals": list(deals)}
    if options:
        document["options"] = options
    return document


def changed(**fields: Any) -> dict[str, Any]:
    """The contract above with some fields changed (None: left out)."""
    deal = {**CONTRACT, **fields}
    return {key: value for key, value in deal.items() if value is not None}


def stopped(tute: Any, **fields: Any) -> dict[str, Any]:
    """A deal stopped by a tute, its `tute` field as given."""
    return {"dealer": 0, "tute": tute, **fields}


Error = tuple[int | None, str, str, str]

CASES: list[tuple[str, dict[str, Any], list[Error]]] = [
    # the house rules and the table
    (
        "no bid between the lowest and 230 in its steps",
        doc(min_bid=229, bid_step=50),
        [
            (
                None,
                "options.min_bid",
                "options_invalid",
                "No bid from 229 to 230 goes up in steps of 50: lower the lowest bid or the step.",
            )
        ],
    ),
    (
        "three names at a table set for four",
        doc(players=4),
        [(None, "players", "players_count", "This table is set for 4 players (house rule 'players'), not 3.")],
    ),
    (
        "four names at a table set for three",
        doc(names=[*THREE, "Pedro"]),
        [(None, "players", "players_count", "This table is set for 3 players (house rule 'players'), not 4.")],
    ),
    # any deal
    (
        "a deal that is not an object",
        doc(CONTRACT, ["dealer", 1]),
        [(2, "deal", "malformed", "Deal 2 must be an object of fields.")],
    ),
    (
        "whether everyone passed as text",
        doc({"dealer": 0, "passed": "yes"}),
        [(1, "passed", "malformed", "Say whether everyone passed: true or false.")],
    ),
    (
        "a deal everyone passed with a contract and a tute",
        doc(
            {
                **CONTRACT,
                "passed": True,
                "cantes": [{"seat": 1, "suit": "copas"}],
                "tute": {"seat": 2, "kind": "reyes"},
            },
            tute="match",
        ),
        [
            (1, field, "declarer_invalid", "Everyone passed: a deal without a declarer records only its dealer.")
            for field in ("declarer", "bid", "trump", "points", "last_trick", "cantes", "tute")
        ],
    ),
    # a deal stopped by a tute
    (
        "a tute deal with a contract",
        doc({**CONTRACT, "tute": {"seat": 2, "kind": "reyes"}}, tute="match"),
        [
            (1, field, "malformed", "A deal stopped by a tute records only its dealer and the tute.")
            for field in ("declarer", "bid", "trump", "points", "last_trick")
        ],
    ),
    (
        "a tute that is not an object",
        doc(stopped("reyes"), tute="match"),
        [(1, "tute", "malformed", "A tute names the seat that holds it and its kind (reyes or caballos).")],
    ),
    (
        "a tute as a number",
        doc(stopped(2), tute="match"),
        [(1, "tute", "malformed", "A tute names the seat that holds it and its kind (reyes or caballos).")],
    ),
    (
        "a tute with a key too many",
        doc(stopped({"seat": 2, "kind": "reyes", "suit": "oros"}), tute="match"),
        [(1, "tute", "malformed", "A tute names the seat that holds it and its kind (reyes or caballos).")],
    ),
    (
        "a tute without its seat",
        doc(stopped({"kind": "reyes"}), tute="match"),
        [(1, "tute.seat", "malformed", "A tute names the seat that holds it.")],
    ),
    (
        "a tute by seat 4 of 3",
        doc(stopped({"seat": 3, "kind": "reyes"}), tute="match"),
        [(1, "tute.seat", "seat_invalid", "There is no seat 4 at this table.")],
    ),
    (
        "a tute by seat 0 of 3",
        doc(stopped({"seat": -1, "kind": "caballos"}), tute="match"),
        [(1, "tute.seat", "seat_invalid", "There is no seat 0 at this table.")],
    ),
    (
        "a tute of sotas",
        doc(stopped({"seat": 2, "kind": "sotas"}), tute="match"),
        [(1, "tute.kind", "malformed", "A tute is of all four Reyes (reyes) or all four Caballos (caballos).")],
    ),
    (
        "a tute where it is not played",
        doc(stopped({"seat": 2, "kind": "reyes"})),
        [(1, "tute", "tute_disabled", "This table does not play the tute (house rule 'tute' is off).")],
    ),
    (
        "a tute of no seat and no kind where it is not played",
        doc(stopped({})),
        [
            (1, "tute.seat", "malformed", "A tute names the seat that holds it."),
            (1, "tute.kind", "malformed", "A tute is of all four Reyes (reyes) or all four Caballos (caballos)."),
            (1, "tute", "tute_disabled", "This table does not play the tute (house rule 'tute' is off)."),
        ],
    ),
    # a contract
    (
        "no declarer",
        doc(changed(declarer=None)),
        [(1, "declarer", "declarer_invalid", "Say who won the auction.")],
    ),
    (
        "a declarer by name",
        doc(changed(declarer="Luis")),
        [(1, "declarer", "malformed", "The declarer must be given as a seat number.")],
    ),
    (
        "declarer seat 3 of 3",
        doc(changed(declarer=3)),
        [(1, "declarer", "declarer_invalid", "The declarer must be one of the 3 players at this table.")],
    ),
    (
        "declarer seat 4 of 4",
        doc(changed(declarer=4), names=[*THREE, "Pedro"], players=4),
        [(1, "declarer", "declarer_invalid", "The declarer must be one of the 4 players at this table.")],
    ),
    (
        "no bid",
        doc(changed(bid=None)),
        [(1, "bid", "malformed", "Say the winning bid, in points.")],
    ),
    (
        "a bid as text",
        doc(changed(bid="80")),
        [(1, "bid", "malformed", "Say the winning bid, in points.")],
    ),
    (
        "a bid of 55",
        doc(changed(bid=55)),
        [(1, "bid", "bid_range", "A bid is from 60 to 230 points, not 55.")],
    ),
    (
        "a bid of 240 where the lowest is 40",
        doc(changed(bid=240), min_bid=40),
        [(1, "bid", "bid_range", "A bid is from 40 to 230 points, not 240.")],
    ),
    (
        "a bid beyond any number",
        doc(changed(bid=10**12)),
        [(1, "bid", "bid_range", "A bid is from 60 to 230 points, not that number.")],
    ),
    (
        "a bid of 62",
        doc(changed(bid=62)),
        [(1, "bid", "bid_step", "Bids go up in steps of 5 points: 62 is not one of them.")],
    ),
    (
        "a bid of 75 in steps of 10",
        doc(changed(bid=75), bid_step=10),
        [(1, "bid", "bid_step", "Bids go up in steps of 10 points: 75 is not one of them.")],
    ),
    (
        "no trump",
        doc(changed(trump=None)),
        [(1, "trump", "trump_invalid", f"Choose the trump suit: {SUIT_NAMES}.")],
    ),
    (
        "no card points",
        doc(changed(points=None)),
        [(1, "points", "malformed", "Give the declarer's card points, a whole number from 0 to 120.")],
    ),
    (
        "119 card points",
        doc(changed(points=119)),
        [
            (
                1,
                "points",
                "points_impossible",
                "A side cannot capture 119 card points: any total from 0 to 120 except 1 and 119.",
            )
        ],
    ),
    (
        "1 card point",
        doc(changed(points=1)),
        [
            (
                1,
                "points",
                "points_impossible",
                "A side cannot capture 1 card point: any total from 0 to 120 except 1 and 119.",
            )
        ],
    ),
    (
        "no last trick",
        doc(changed(last_trick=None)),
        [(1, "last_trick", "last_trick_invalid", "Say whether the declarer took the last trick.")],
    ),
    (
        "the last trick as a seat",
        doc(changed(last_trick=1)),
        [(1, "last_trick", "malformed", "Say whether the declarer took the last trick.")],
    ),
    (
        "a cante by another player",
        doc(changed(cantes=[{"seat": 1, "suit": "copas"}, {"seat": 2, "suit": "oros"}])),
        [(1, "cantes.1.seat", "seat_invalid", "Carmen cannot have sung: only Luis, who won the auction, sings.")],
    ),
    (
        "every field of a contract wrong",
        doc({"dealer": 3, "declarer": 5, "bid": 63, "trump": "rojo", "points": -2, "last_trick": "yes"}),
        [
            (1, "dealer", "dealer_invalid", "The dealer must be one of the 3 players at this table."),
            (1, "declarer", "declarer_invalid", "The declarer must be one of the 3 players at this table."),
            (1, "bid", "bid_step", "Bids go up in steps of 5 points: 63 is not one of them."),
            (1, "trump", "trump_invalid", f"Choose the trump suit: {SUIT_NAMES}."),
            (
                1,
                "points",
                "points_impossible",
                "A side cannot capture -2 card points: any total from 0 to 120 except 1 and 119.",
            ),
            (1, "last_trick", "malformed", "Say whether the declarer took the last trick."),
        ],
    ),
    # the match
    (
        "two deals after the target is reached",
        doc(*[changed(bid=100, points=120)] * 2, changed(dealer=1), changed(dealer=2), target=200),
        [
            (3, "deal", "match_finished", "The match ended with deal 2; no deal can be added."),
            (4, "deal", "match_finished", "The match ended with deal 2; no deal can be added."),
        ],
    ),
    (
        "two deals after a tute",
        doc(CONTRACT, stopped({"seat": 2, "kind": "reyes"}, dealer=1), PASSED_BY_ALL, CONTRACT, tute="match"),
        [
            (3, "deal", "match_finished", "The match ended with deal 2; no deal can be added."),
            (4, "deal", "match_finished", "The match ended with deal 2; no deal can be added."),
        ],
    ),
]


@pytest.mark.parametrize(("document", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_subastado_rejection_names_the_deal_the_field_the_code_and_says_why(
    document: dict[str, Any], expected: list[Error]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        score_match(document)
    assert [(e["deal"], e["field"], e["code"], e["message"]) for e in caught.value.errors] == expected
    assert [(p.deal, p.field, p.code.value, p.message) for p in caught.value.problems] == expected


def test_every_wrong_deal_is_reported_not_only_the_first() -> None:
    document = doc(changed(bid=62), CONTRACT, changed(dealer=2, trump="rojo"))
    assert [(e["deal"], e["code"]) for e in violations(document)] == [(1, "bid_step"), (3, "trump_invalid")]


def test_deals_after_a_wrong_one_are_checked_but_not_scored() -> None:
    # Were the tute of deal 2 scored, it would end the match, and deal 3 would come after its end.
    document = doc(changed(bid=62), stopped({"seat": 2, "kind": "reyes"}, dealer=1), PASSED_BY_ALL, tute="match")
    assert codes(document) == ["bid_step"]


def test_a_tute_deal_is_read_as_the_seat_and_the_kind_declared() -> None:
    options = SubastadoOptions(tute="match")
    log = ErrorLog()
    deal = read_subastado_deal(stopped({"seat": 2, "kind": "caballos"}, dealer=1), 1, tuple(THREE), options, log)
    assert deal == SubastadoDeal(1, None, TuteDeclaration(2, "caballos"))
    assert log.problems == []
