"""Every rejection exactly as a player or an API client gets it: the deal, the field, the code and
the sentence, with the names, seats and numbers of that table filled in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper.registry import check_bids, score_match
from scorekeeper.rules import RuleViolation

from .helpers import match, tute_deal

GAMES = "tute2, tute3, tute4, subastado, pocha"
SUIT_NAMES = "oros, copas, espadas or bastos"


def pocha(deals: list[Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    return match("pocha", deals, options)


def pocha_deal(
    bids: Any = (1, 0, 0, 1), tricks: Any = (1, 0, 0, 0), *, cards: Any = 1, dealer: Any = 0, trump: Any = "oros"
) -> dict[str, Any]:
    deal = {"dealer": dealer, "cards": cards, "trump": trump, "bids": bids, "tricks": tricks}
    return {key: list(value) if isinstance(value, tuple) else value for key, value in deal.items()}


def changed(deal: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**deal, **fields}


def without(deal: dict[str, Any], *names: str) -> dict[str, Any]:
    return {key: value for key, value in deal.items() if key not in names}


def declared(tute: Any, **fields: Any) -> dict[str, Any]:
    """A Tute deal stopped by a declaration (no points, no last trick), its `tute` field as given."""
    return {"dealer": 0, "trump": "oros", "tute": tute, **fields}


def scored(document: Any) -> Callable[[], object]:
    return lambda: score_match(document)


Error = tuple[int | None, str, str, str]

CASES: list[tuple[str, Callable[[], object], list[Error]]] = [
    # the document
    (
        "not an object",
        scored([]),
        [(None, "match", "malformed", "A match is an object with its game, players, house rules and deals.")],
    ),
    (
        "unknown field",
        scored({**match("tute2", []), "winner": 0}),
        [(None, "winner", "malformed", "A match has no field 'winner'.")],
    ),
    (
        "deals not a list",
        scored({**match("tute2", []), "deals": "none"}),
        [(None, "deals", "malformed", "The deals must be a list.")],
    ),
    (
        "no game",
        scored({"players": ["Ana", "Luis"]}),
        [(None, "game", "malformed", f"Say which game is played: {GAMES}.")],
    ),
    (
        "unknown game",
        scored({"game": "mus", "players": ["Ana", "Luis"]}),
        [(None, "game", "game_unknown", f"There is no game 'mus' here: choose one of {GAMES}.")],
    ),
    (
        "players not a list",
        scored({"game": "tute2", "players": "Ana"}),
        [(None, "players", "malformed", "The players must be a list of names in seat order.")],
    ),
    (
        "a seat without a name",
        scored(match("pocha", [], players=["Ana", "  ", "Carmen", 7])),
        [
            (None, "players.1", "malformed", "Seat 2 needs a player's name."),
            (None, "players.3", "malformed", "Seat 4 needs a player's name."),
        ],
    ),
    (
        "the same player twice",
        scored(match("pocha", [], players=["Ana", "Luis", " ana "])),
        [(None, "players.2", "players_duplicate", "ana is already at this table.")],
    ),
    (
        "three at tute4",
        scored(match("tute4", [], players=["Ana", "Luis", "Carmen"])),
        [(None, "players", "players_count", "Tute in pairs (four players) is played by 4 players, not 3.")],
    ),
    (
        "three at tute2",
        scored(match("tute2", [], players=["Ana", "Luis", "Carmen"])),
        [(None, "players", "players_count", "Tute (two players) is played by 2 players, not 3.")],
    ),
    (
        "nine at pocha",
        scored(match("pocha", [], players=[f"P{i}" for i in range(9)])),
        [(None, "players", "players_count", "Pocha is played by 2 to 8 players, not 9.")],
    ),
    (
        "bids for tute",
        lambda: check_bids(match("tute2", []), {"dealer": 0, "cards": 1, "bids": [0, 0]}),
        [(None, "game", "malformed", "Only Pocha has bids.")],
    ),
    # house rules
    (
        "options not an object",
        scored(match("tute2", [], ["mode"])),  # type: ignore[arg-type]
        [(None, "options", "malformed", "House rules must be given as an object of names and values.")],
    ),
    (
        "two unknown options",
        scored(match("tute2", [], {"trumps": 3, "bonus": 10})),
        [
            (
                None,
                "options.trumps",
                "options_invalid",
                "'trumps' is not a house rule of this game (known: deck, "
                "last_trick_bonus, mode, target, double_over_100, tute).",
            ),
            (
                None,
                "options.bonus",
                "options_invalid",
                "'bonus' is not a house rule of this game (known: deck, "
                "last_trick_bonus, mode, target, double_over_100, tute).",
            ),
        ],
    ),
    (
        "values out of range and of the wrong type",
        scored(match("pocha", [], {"deck": 36, "hook": "yes", "exact_base": 101})),
        [
            (None, "options.deck", "options_invalid", "House rule 'deck' must be 40 or 48."),
            (None, "options.hook", "malformed", "House rule 'hook' must be true or false."),
            (
                None,
                "options.exact_base",
                "options_invalid",
                "House rule 'exact_base' must be a whole number from 0 to 100.",
            ),
        ],
    ),
    (
        "a schedule by an unknown name",
        scored(match("pocha", [], {"schedule": "short"})),
        [
            (
                None,
                "options.schedule",
                "options_invalid",
                "House rule 'schedule' must be classic, ladder, or a list of "
                "cards per player for each deal (at most 200).",
            )
        ],
    ),
    (
        "a tute mode by an unknown name",
        scored(match("tute2", [], {"mode": "puntos"})),
        [(None, "options.mode", "options_invalid", "House rule 'mode' must be juegos or points.")],
    ),
    (
        "100 juegos",
        scored(match("tute2", [], {"target": 100})),
        [
            (
                None,
                "options.target",
                "options_invalid",
                "In juegos mode the target is a whole number of juegos from 1 to 99.",
            )
        ],
    ),
    (
        "11 cards for four",
        scored(match("pocha", [], {"schedule": [10, 11]})),
        [(None, "options.schedule", "schedule_invalid", "With 4 players each deal has 1 to 10 cards per player.")],
    ),
    # any deal
    (
        "a Tute deal that is not an object",
        scored(match("tute2", [tute_deal(), 5])),
        [(2, "deal", "malformed", "Deal 2 must be an object of fields.")],
    ),
    (
        "a Pocha deal that is not an object",
        scored(pocha([pocha_deal(), "deal"])),
        [(2, "deal", "malformed", "Deal 2 must be an object of fields.")],
    ),
    (
        "an unknown Pocha deal field",
        scored(pocha([pocha_deal(), changed(pocha_deal(dealer=1), value=1)])),
        [(2, "value", "malformed", "Deal 2 has an unknown field 'value'.")],
    ),
    (
        "a dealer as text",
        scored(match("tute2", [tute_deal(dealer="0")])),  # type: ignore[arg-type]
        [(1, "dealer", "malformed", "The dealer must be given as a seat number.")],
    ),
    (
        "dealer seat 4 of 4",
        scored(match("tute4", [tute_deal(dealer=4)])),
        [(1, "dealer", "dealer_invalid", "The dealer must be one of the 4 players at this table.")],
    ),
    (
        "a Pocha dealer below the seats",
        scored(pocha([pocha_deal(dealer=-1)])),
        [(1, "dealer", "dealer_invalid", "The dealer must be one of the 4 players at this table.")],
    ),
    # Tute deals
    (
        "no trump",
        scored(match("tute2", [without(tute_deal(), "trump")])),
        [(1, "trump", "trump_invalid", f"Choose the trump suit: {SUIT_NAMES}.")],
    ),
    (
        "a tute that is not an object",
        scored(match("tute2", [declared("reyes")])),
        [(1, "tute", "malformed", "A tute names the seat that holds it and its kind (reyes or caballos).")],
    ),
    (
        "a tute with a key too many",
        scored(match("tute2", [declared({"seat": 0, "kind": "reyes", "at": 3})])),
        [(1, "tute", "malformed", "A tute names the seat that holds it and its kind (reyes or caballos).")],
    ),
    (
        "a tute without its seat",
        scored(match("tute2", [declared({"kind": "reyes"})])),
        [(1, "tute.seat", "malformed", "A tute names the seat that holds it.")],
    ),
    (
        "a tute by seat 3 of 2",
        scored(match("tute2", [declared({"seat": 2, "kind": "reyes"})])),
        [(1, "tute.seat", "seat_invalid", "There is no seat 3 at this table.")],
    ),
    (
        "a tute of sotas",
        scored(match("tute2", [declared({"seat": 0, "kind": "sotas"})])),
        [(1, "tute.kind", "malformed", "A tute is of all four Reyes (reyes) or all four Caballos (caballos).")],
    ),
    (
        "a tute's kind as a list",
        scored(match("tute2", [declared({"seat": 0, "kind": ["reyes"]}, points=[60, 60])])),
        [(1, "tute.kind", "malformed", "A tute is of all four Reyes (reyes) or all four Caballos (caballos).")],
    ),
    (
        "a tute of sotas after more card points than any tute leaves",
        scored(match("tute2", [declared({"seat": 0, "kind": "sotas"}, points=[80, 50])])),
        [(1, "tute.kind", "malformed", "A tute is of all four Reyes (reyes) or all four Caballos (caballos).")],
    ),
    (
        "a tute where it is off",
        scored(match("tute2", [tute_deal(tute=(0, "reyes"))], {"tute": "off"})),
        [(1, "tute", "tute_disabled", "This table does not play the tute (house rule 'tute' is off).")],
    ),
    (
        "points not a pair",
        scored(match("tute2", [tute_deal((120,), 0)])),  # type: ignore[arg-type]
        [(1, "points", "malformed", "Card points must be two whole numbers, one for each side.")],
    ),
    (
        "impossible points on both sides",
        scored(match("tute2", [tute_deal((121, 119), 0)])),
        [
            (
                1,
                "points.0",
                "points_impossible",
                "A side cannot capture 121 card points: any total from 0 to 120 except 1 and 119.",
            ),
            (
                1,
                "points.1",
                "points_impossible",
                "A side cannot capture 119 card points: any total from 0 to 120 except 1 and 119.",
            ),
        ],
    ),
    (
        "one card point and 119",
        scored(match("tute2", [tute_deal((1, 119), 0)])),
        [
            (
                1,
                "points.0",
                "points_impossible",
                "A side cannot capture 1 card point: any total from 0 to 120 except 1 and 119.",
            ),
            (
                1,
                "points.1",
                "points_impossible",
                "A side cannot capture 119 card points: any total from 0 to 120 except 1 and 119.",
            ),
        ],
    ),
    (
        "a last trick after a tute",
        scored(match("tute2", [declared({"seat": 0, "kind": "reyes"}, last_trick=0)])),
        [(1, "last_trick", "last_trick_invalid", "No side takes the last trick in a deal stopped by a tute.")],
    ),
    (
        "no last trick",
        scored(match("tute2", [tute_deal(last_trick=None)])),
        [(1, "last_trick", "last_trick_invalid", "Say which side took the last trick.")],
    ),
    (
        "a last trick as text",
        scored(match("tute2", [tute_deal(last_trick="0")])),  # type: ignore[arg-type]
        [(1, "last_trick", "malformed", "The last trick must be given as a side number (0 or 1).")],
    ),
    (
        "a last trick for side 2 of 2",
        scored(match("tute2", [tute_deal(last_trick=2)])),
        [(1, "last_trick", "last_trick_invalid", "The last trick goes to Ana or to Luis.")],
    ),
    (
        "a last trick for side -1",
        scored(match("tute2", [tute_deal(last_trick=-1)])),
        [(1, "last_trick", "last_trick_invalid", "The last trick goes to Ana or to Luis.")],
    ),
    (
        "cantes not a list",
        scored(match("tute2", [changed(tute_deal(), cantes={"seat": 0, "suit": "oros"})])),
        [(1, "cantes", "malformed", "Cantes must be a list, each with a seat and a suit.")],
    ),
    (
        "cantes that are not objects",
        scored(match("tute2", [changed(tute_deal(), cantes=["oros", 0])])),
        [
            (1, "cantes.0", "malformed", "Each cante names the seat that sang it and the suit."),
            (1, "cantes.1", "malformed", "Each cante names the seat that sang it and the suit."),
        ],
    ),
    (
        "cantes without a seat",
        scored(match("tute2", [changed(tute_deal(), cantes=[{"suit": "oros"}, {"seat": "1", "suit": "copas"}])])),
        [
            (1, "cantes.0.seat", "malformed", "Each cante names the seat that sang it."),
            (1, "cantes.1.seat", "malformed", "Each cante names the seat that sang it."),
        ],
    ),
    (
        "a cante by seat 0 of -1",
        scored(match("tute2", [tute_deal(cantes=[(-1, "oros")])])),
        [(1, "cantes.0.seat", "seat_invalid", "There is no seat 0 at this table.")],
    ),
    (
        "a cante in no suit",
        scored(match("tute2", [changed(tute_deal(), cantes=[{"seat": 0}])])),
        [(1, "cantes.0.suit", "malformed", f"A cante is sung in one suit: {SUIT_NAMES}.")],
    ),
    (
        "copas sung twice",
        scored(match("tute4", [tute_deal(cantes=[(1, "copas"), (3, "copas")])])),
        [
            (
                1,
                "cantes.1.suit",
                "cante_suit_twice",
                "Copas can be sung only once a deal: there is one Rey and one Caballo of it.",
            )
        ],
    ),
    (
        "a fifth deal after three juegos",
        scored(match("tute2", [tute_deal()] * 5)),
        [
            (4, "deal", "match_finished", "The match ended with deal 3; no deal can be added."),
            (5, "deal", "match_finished", "The match ended with deal 3; no deal can be added."),
        ],
    ),
    # Pocha deals
    (
        "a trump that is no suit",
        scored(pocha([pocha_deal(trump="sol")])),
        [(1, "trump", "trump_invalid", f"The trump is one of {SUIT_NAMES}, or none.")],
    ),
    (
        "no cards",
        scored(pocha([without(pocha_deal(), "cards")])),
        [(1, "cards", "malformed", "Say how many cards each player was dealt.")],
    ),
    (
        "11 cards for four",
        scored(pocha([pocha_deal(cards=11)])),
        [(1, "cards", "cards_range", "With 4 players each can be dealt 1 to 10 cards, not 11.")],
    ),
    (
        "3 cards where 2 are scheduled",
        scored(pocha([pocha_deal(bids=[0, 0, 0, 0], tricks=[1, 1, 1, 0], cards=3)], {"schedule": [2, 3]})),
        [(1, "cards", "cards_schedule", "Deal 1 is played with 2 cards each, not 3.")],
    ),
    (
        "bids and tricks not lists",
        scored(pocha([pocha_deal(bids=[0, 0, 0], tricks=None)])),
        [
            (1, "bids", "malformed", "Give the bid of each of the 4 players."),
            (1, "tricks", "malformed", "Give the tricks of each of the 4 players."),
        ],
    ),
    (
        "two bids out of range",
        scored(pocha([pocha_deal(bids=[1, 2, -1, 1])])),
        [
            (1, "bids.1", "bid_range", "Luis: a bid of 2 is not possible with 1 card in hand (0 to 1)."),
            (1, "bids.2", "bid_range", "Carmen: a bid of -1 is not possible with 1 card in hand (0 to 1)."),
        ],
    ),
    (
        "tricks out of range",
        scored(pocha([pocha_deal(tricks=[2, 0, 0, -1])])),
        [
            (1, "tricks.0", "tricks_range", "Ana: 2 tricks are not possible with 1 card in hand (0 to 1)."),
            (1, "tricks.3", "tricks_range", "Pedro: -1 tricks are not possible with 1 card in hand (0 to 1)."),
        ],
    ),
    (
        "the dealer completing the bids",
        scored(pocha([pocha_deal([2, 0, 1, 2], [2, 1, 1, 1], cards=5, dealer=3)], {"schedule": [5]})),
        [
            (
                1,
                "bids.3",
                "bid_hook",
                "Pedro deals and bids last, and may not bid 2: the bids would add up to the 5 "
                "cards in hand, and everyone could make their bid.",
            )
        ],
    ),
    (
        "tricks over the cards",
        scored(pocha([pocha_deal(tricks=[1, 1, 0, 0])])),
        [(1, "tricks", "tricks_total", "The tricks must add up to the 1 card in hand; these add up to 2.")],
    ),
    (
        "two deals after the schedule",
        scored(pocha([pocha_deal()] * 3, {"schedule": [1]})),
        [
            (2, "deal", "match_finished", "The schedule of 1 deal is complete; no deal can be added."),
            (3, "deal", "match_finished", "The schedule of 1 deal is complete; no deal can be added."),
        ],
    ),
    (
        "bids after the schedule",
        lambda: check_bids(pocha([pocha_deal()] * 2, {"schedule": [1, 1]}), without(pocha_deal(dealer=2), "tricks")),
        [(3, "deal", "match_finished", "The schedule of 2 deals is complete; no deal can be added.")],
    ),
    (
        "tricks with the bids before play",
        lambda: check_bids(pocha([pocha_deal()], {"schedule": [1, 1]}), pocha_deal(bids=[0, 0, 0, 0], dealer=1)),
        [(2, "tricks", "malformed", "Deal 2 has an unknown field 'tricks'.")],
    ),
    (
        "bids before play on a broken match",
        lambda: check_bids(pocha([pocha_deal(dealer=9)]), {}),
        [(1, "dealer", "dealer_invalid", "The dealer must be one of the 4 players at this table.")],
    ),
]


@pytest.mark.parametrize(("call", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_rejection_names_the_deal_the_field_the_code_and_says_why(
    call: Callable[[], object], expected: list[Error]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        call()
    assert [(e["deal"], e["field"], e["code"], e["message"]) for e in caught.value.errors] == expected
    assert caught.value.codes == [code for _, _, code, _ in expected]
    assert [(p.deal, p.field, p.code.value, p.message) for p in caught.value.problems] == expected
