"""Tute subastado matches drawn at random, scored by the engine and by `subastado_oracle` (docs/rules.md
written out plainly), which must agree: every deal's scores and winner, the totals, when the match
ends (ties at the top going on), who wins it, and who deals next; and a bid is refused exactly when
docs/rules.md says."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.registry import score_match
from scorekeeper.rules import RuleViolation

from . import subastado_oracle as oracle

SUITS = ("oros", "copas", "espadas", "bastos")
#: Card points the declarer can capture: 0 to 120 but 1 and 119.
POSSIBLE = [p for p in range(121) if p not in (1, 119)]
NAMES = ["Ana", "Luis", "Carmen", "Pedro"]


def test_the_oracle_scores_rules_md_s_examples() -> None:
    first = {
        "dealer": 0,
        "declarer": 1,
        "bid": 80,
        "trump": "copas",
        "points": 62,
        "last_trick": True,
        "cantes": [{"seat": 1, "suit": "copas"}],
    }
    assert oracle.deal_scores(first, oracle.rules_of({}), 3) == ([0, 80, 0], 1)
    assert oracle.deal_scores(first, oracle.rules_of({"made": "total"}), 3) == ([0, 112, 0], 1)
    second = {"dealer": 0, "declarer": 0, "bid": 100, "trump": "oros", "points": 70, "last_trick": False}
    second["cantes"] = [{"seat": 0, "suit": "espadas"}]
    assert oracle.deal_scores(second, oracle.rules_of({}), 3) == ([-100, 0, 0], None)
    assert oracle.deal_scores(second, oracle.rules_of({"failed": "others"}), 3) == ([0, 100, 100], None)


subastado_options = st.fixed_dictionaries(
    {},
    optional={
        "min_bid": st.sampled_from([0, 60, 70, 100]),
        "bid_step": st.sampled_from([1, 5, 10]),
        "last_trick_bonus": st.sampled_from([0, 10]) | st.integers(0, 50),
        "made": st.sampled_from(["bid", "total"]),
        "failed": st.sampled_from(["lose", "others"]),
        "target": st.sampled_from([1, 100, 200, 500]) | st.integers(1, 600),
        "deals": st.none() | st.integers(1, 8),
        "tute": st.sampled_from(["off", "match"]),
    },
)


@st.composite
def valid_deal(draw: st.DrawFn, options: dict[str, Any], players: int) -> dict[str, Any]:
    """A deal docs/rules.md allows: a contract played, everyone passed, or (where played) a tute."""
    rules = oracle.rules_of(options)
    deal: dict[str, Any] = {"dealer": draw(st.integers(0, players - 1))}
    shape = draw(st.integers(0, 19))
    if shape == 0:
        deal["passed"] = True
        return deal
    if shape == 1 and rules["tute"] == "match":
        deal["tute"] = {"seat": draw(st.integers(0, players - 1)), "kind": draw(st.sampled_from(["reyes", "caballos"]))}
        return deal
    step = rules["bid_step"]
    bids = [bid for bid in range(rules["min_bid"], 231) if bid % step == 0]
    declarer = draw(st.integers(0, players - 1))
    deal.update(
        declarer=declarer,
        bid=draw(st.sampled_from(bids)),
        trump=draw(st.sampled_from(SUITS)),
        points=draw(st.sampled_from([0, 40, 60, 62, 80, 100, 120]) | st.sampled_from(POSSIBLE)),
        last_trick=draw(st.booleans()),
        cantes=[{"seat": declarer, "suit": s} for s in draw(st.lists(st.sampled_from(SUITS), max_size=4, unique=True))],
    )
    return deal


@st.composite
def subastado_matches(draw: st.DrawFn) -> dict[str, Any]:
    """A valid subastado match of three or four: deals drawn until it ends or a drawn count is reached."""
    options: dict[str, Any] = draw(subastado_options)
    players = draw(st.sampled_from([3, 4]))
    if players == 4:
        options["players"] = 4
    document: dict[str, Any] = {"game": "subastado", "players": NAMES[:players], "options": options, "deals": []}
    for _ in range(draw(st.integers(0, 14))):
        if oracle.result(document)["finished"]:
            break
        document["deals"].append(draw(valid_deal(options, players)))
    return document


@settings(max_examples=200, deadline=None)
@given(subastado_matches())
def test_a_valid_subastado_match_scores_as_rules_md_says(document: dict[str, Any]) -> None:
    assert score_match(document) == oracle.result(document)


@settings(max_examples=80, deadline=None)
@given(subastado_matches(), st.integers(-5, 240), st.integers(-2, 122))
def test_a_contract_is_refused_exactly_when_its_bid_or_points_break_rules_md(
    document: dict[str, Any], bid: int, points: int
) -> None:
    if oracle.result(document)["finished"]:
        document["deals"].pop()
    rules = oracle.rules_of(document["options"])
    deal = {"dealer": 0, "declarer": 0, "bid": bid, "trump": "oros", "points": points, "last_trick": False}
    wanted = set()
    if not rules["min_bid"] <= bid <= 230:
        wanted.add("bid_range")
    elif bid % rules["bid_step"]:
        wanted.add("bid_step")
    if points not in POSSIBLE:
        wanted.add("points_impossible")
    played = {**document, "deals": [*document["deals"], deal]}
    try:
        got = score_match(played)
    except RuleViolation as violation:
        assert set(violation.codes) == wanted
    else:
        assert not wanted and got == oracle.result(played)
