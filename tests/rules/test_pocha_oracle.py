"""Pocha matches drawn at random, scored by the engine and by `pocha_oracle` (docs/rules.md written
out plainly), which must agree: schedules, every deal's scores, totals, winners, who deals next,
and which deals and bids are refused."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.registry import check_bids, score_match
from scorekeeper.rules import RuleViolation

from . import pocha_oracle as oracle

SUITS = ("oros", "copas", "espadas", "bastos")


# The oracle first answers docs/rules.md's own examples, so that it can be trusted with the rest.


def test_the_oracle_gives_the_schedules_rules_md_spells_out_for_four_players() -> None:
    assert oracle.schedule(4, {}) == [
        1,
        1,
        1,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        10,
        10,
        10,
        9,
        8,
        7,
        6,
        5,
        4,
        3,
        2,
        1,
        1,
        1,
        1,
    ]
    assert len(oracle.schedule(4, {"schedule": "ladder"})) == 22
    assert oracle.schedule(4, {"schedule": [5, 5, 5]}) == [5, 5, 5]


def test_the_oracle_scores_rules_md_s_examples() -> None:
    assert [oracle.score(b, t, None, {}) for b, t in ((2, 2), (0, 1), (1, 1), (1, 1))] == [20, -5, 15, 15]
    assert oracle.score(3, 3, None, {}) == 25 and oracle.score(2, 4, None, {}) == -10
    podrida = {"exact_base": 10, "per_trick": 3, "miss_per_trick": 3}
    assert oracle.score(3, 3, None, podrida) == 19 and oracle.score(2, 3, None, podrida) == -3
    assert oracle.score(3, 3, "oros", {"oros_double": True}) == 50
    assert oracle.bids_allowed([2, 0, 1, 1], 5, hook=True) and not oracle.bids_allowed([2, 0, 1, 2], 5, hook=True)


pocha_options = st.fixed_dictionaries(
    {},
    optional={
        "deck": st.sampled_from([40, 48]),
        "remove_twos": st.booleans(),
        "hook": st.booleans(),
        "exact_base": st.integers(0, 100),
        "per_trick": st.integers(0, 100),
        "miss_per_trick": st.integers(0, 100),
        "oros_double": st.booleans(),
    },
)


@st.composite
def valid_deal(draw: st.DrawFn, players: int, cards: int, hook: bool) -> dict[str, Any]:
    """Draw a deal docs/rules.md allows: bids 0..cards (the dealer's not completing them under the hook),
    tricks that add up to the cards."""
    dealer = draw(st.integers(0, players - 1))
    bids = draw(st.lists(st.integers(0, cards), min_size=players, max_size=players))
    if hook and sum(bids) == cards:
        bids[dealer] += 1 if bids[dealer] < cards else -1
    takers = draw(st.lists(st.integers(0, players - 1), min_size=cards, max_size=cards))
    return {
        "dealer": dealer,
        "cards": cards,
        "trump": draw(st.sampled_from((None,) + SUITS)),
        "bids": bids,
        "tricks": [takers.count(seat) for seat in range(players)],
    }


@st.composite
def pocha_matches(draw: st.DrawFn, whole: bool = False) -> dict[str, Any]:
    """Draw a valid Pocha match: some (or, with `whole`, all) of its scheduled deals."""
    players = draw(st.integers(2, 8))
    options: dict[str, Any] = draw(pocha_options)
    most = oracle.most_cards(players, options.get("deck", 40), options.get("remove_twos", True))
    options["schedule"] = draw(
        st.sampled_from(["classic", "ladder"]) | st.lists(st.integers(1, most), min_size=1, max_size=6)
    )
    planned = oracle.schedule(players, options)
    count = len(planned) if whole else draw(st.integers(0, len(planned)))
    deals = [draw(valid_deal(players, cards, options.get("hook", True))) for cards in planned[:count]]
    return {"game": "pocha", "players": [f"P{i}" for i in range(players)], "options": options, "deals": deals}


@settings(max_examples=60, deadline=None)
@given(pocha_matches())
def test_a_valid_pocha_match_scores_as_rules_md_says(document: dict[str, Any]) -> None:
    assert score_match(document) == oracle.result(document)


@settings(max_examples=25, deadline=None)
@given(pocha_matches(whole=True))
def test_a_whole_pocha_match_ends_with_the_best_totals_winning(document: dict[str, Any]) -> None:
    result = score_match(document)
    assert result == oracle.result(document)
    assert result["finished"] and result["winners"]


@st.composite
def deal_at_some_point(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], int]:
    """Draw a valid unfinished match and, for its next deal, numbers that may break the rules:
    cards near the scheduled count, bids and tricks from −1 to one over the cards."""
    document = draw(pocha_matches())
    players = len(document["players"])
    planned = oracle.schedule(players, document["options"])
    if len(document["deals"]) == len(planned):
        document["deals"].pop()
    scheduled = planned[len(document["deals"])]
    cards = draw(st.sampled_from([scheduled, scheduled, scheduled, max(1, scheduled - 1), scheduled + 1]))
    most = oracle.most_cards(players, document["options"].get("deck", 40), document["options"].get("remove_twos", True))
    cards = min(cards, most)
    numbers = st.lists(st.integers(-1, cards + 1), min_size=players, max_size=players)
    deal = {
        "dealer": draw(st.integers(0, players - 1)),
        "cards": cards,
        "trump": draw(st.sampled_from((None,) + SUITS)),
        "bids": draw(numbers),
        "tricks": draw(numbers),
    }
    return document, deal, scheduled


def refusals(call: Any) -> set[str] | None:
    try:
        call()
    except RuleViolation as violation:
        return set(violation.codes)
    return None


@settings(max_examples=80, deadline=None)
@given(deal_at_some_point())
def test_a_pocha_deal_is_refused_exactly_when_rules_md_forbids_it(
    drawn: tuple[dict[str, Any], dict[str, Any], int],
) -> None:
    document, deal, scheduled = drawn
    cards, hook = deal["cards"], document["options"].get("hook", True)
    wanted = set()
    if cards != scheduled:
        wanted.add("cards_schedule")
    if any(not 0 <= bid <= cards for bid in deal["bids"]):
        wanted.add("bid_range")
    elif hook and sum(deal["bids"]) == cards:
        wanted.add("bid_hook")
    before_play = {key: value for key, value in deal.items() if key != "tricks"}
    assert refusals(lambda: check_bids(document, before_play)) == (wanted or None)
    if any(not 0 <= tricks <= cards for tricks in deal["tricks"]):
        wanted.add("tricks_range")
    elif sum(deal["tricks"]) != cards:
        wanted.add("tricks_total")
    played = {**document, "deals": document["deals"] + [deal]}
    assert refusals(lambda: score_match(played)) == (wanted or None)
    if not wanted:
        assert score_match(played) == oracle.result(played)


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("deck", [40, 48])
@pytest.mark.parametrize("remove_twos", [True, False])
def test_the_most_cards_and_the_schedules_are_those_of_rules_md(players: int, deck: int, remove_twos: bool) -> None:
    options: dict[str, Any] = {"deck": deck, "remove_twos": remove_twos}
    most = oracle.most_cards(players, deck, remove_twos)
    document = {"game": "pocha", "players": [f"P{i}" for i in range(players)], "deals": []}
    assert score_match({**document, "options": {**options, "schedule": [most]}})["next_cards"] == most
    assert refusals(lambda: score_match({**document, "options": {**options, "schedule": [most + 1]}})) == {
        "schedule_invalid"
    }
    for name in ("classic", "ladder"):
        named = {**options, "schedule": name}
        # the first player takes every trick, nobody bids: each deal is valid exactly when its cards are scheduled
        deals = [
            {
                "dealer": number % players,
                "cards": cards,
                "trump": None,
                "bids": [0] * players,
                "tricks": [cards] + [0] * (players - 1),
            }
            for number, cards in enumerate(oracle.schedule(players, named))
        ]
        assert score_match({**document, "options": named, "deals": deals[:-1]})["finished"] is False
        assert score_match({**document, "options": named, "deals": deals})["finished"] is True
