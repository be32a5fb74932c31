"""Tute for three matches drawn at random, scored by the engine and by `tute3_oracle` (docs/rules.md
written out plainly), which must agree: every deal's scores and winner (ties included), the
totals, the juegos, when the match ends and who wins it, and who deals next."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.registry import score_match
from scorekeeper.rules import RuleViolation

from . import tute3_oracle as oracle

SUITS = ("oros", "copas", "espadas", "bastos")
#: Card points one player can capture: 0 to 120 but 1 and 119.
POSSIBLE = [p for p in range(121) if p not in (1, 119)]


def test_the_oracle_scores_rules_md_s_examples() -> None:
    first = {
        "dealer": 0,
        "trump": "oros",
        "points": [50, 40, 30],
        "last_trick": 2,
        "cantes": [{"seat": 1, "suit": "oros"}],
    }
    assert oracle.deal_scores(first, oracle.rules_of({})) == ([50, 80, 40], 1)
    second = {"dealer": 0, "trump": "oros", "points": [60, 60, 0], "last_trick": 2}
    assert oracle.deal_scores(second, oracle.rules_of({})) == ([60, 60, 10], 1)


tute3_options = st.fixed_dictionaries(
    {},
    optional={
        "deck": st.sampled_from([40, 48]),
        "last_trick_bonus": st.sampled_from([0, 10, 20]) | st.integers(0, 50),
        "mode": st.sampled_from(["juegos", "points"]),
        "double_over_100": st.booleans(),
        "tute": st.sampled_from(["deal", "match", "off"]),
    },
)


@st.composite
def split_120(draw: st.DrawFn, most: int = 120, whole: bool = True) -> list[int]:
    """Three players' card points: adding up to 120 (`whole`), or to at most `most`; ties likely."""
    while True:
        first = draw(st.sampled_from([0, 20, 30, 40, 50, 60]) | st.sampled_from(POSSIBLE))
        second = draw(st.sampled_from([0, 20, 30, 40, 50, 60, first]) | st.sampled_from(POSSIBLE))
        third = 120 - first - second if whole else draw(st.integers(0, max(0, most - first - second)))
        points = [first, second, third]
        if all(p in POSSIBLE for p in points) and sum(points) <= most:
            return draw(st.permutations(points))


@st.composite
def valid_deal(draw: st.DrawFn, tute: str) -> dict[str, Any]:
    """A deal docs/rules.md allows: played out, or (where the table plays it) stopped by a tute."""
    sung = draw(st.lists(st.sampled_from(SUITS), max_size=4, unique=True))
    deal: dict[str, Any] = {"dealer": draw(st.integers(0, 2)), "trump": draw(st.sampled_from(SUITS))}
    if tute != "off" and draw(st.integers(0, 9)) == 0:
        seat, kind = draw(st.integers(0, 2)), draw(st.sampled_from(["reyes", "caballos"]))
        deal["tute"] = {"seat": seat, "kind": kind}
        deal["cantes"] = [{"seat": seat, "suit": suit} for suit in sung]
        if draw(st.booleans()):
            deal["points"] = draw(split_120(most=104 if kind == "reyes" else 108, whole=False))
        return deal
    deal["points"] = draw(split_120())
    deal["last_trick"] = draw(st.integers(0, 2))
    deal["cantes"] = [{"seat": draw(st.integers(0, 2)), "suit": suit} for suit in sung]
    return deal


@st.composite
def tute3_matches(draw: st.DrawFn) -> dict[str, Any]:
    """A valid tute3 match: deals drawn until it ends or a drawn count is reached."""
    options: dict[str, Any] = draw(tute3_options)
    if draw(st.booleans()):
        options["target"] = draw(
            st.integers(1, 5) if options.get("mode", "juegos") == "juegos" else st.integers(1, 400)
        )
    document: dict[str, Any] = {"game": "tute3", "players": ["Ana", "Luis", "Carmen"], "options": options, "deals": []}
    for _ in range(draw(st.integers(0, 10))):
        if oracle.result(document)["finished"]:
            break
        document["deals"].append(draw(valid_deal(options.get("tute", "deal"))))
    return document


@settings(max_examples=150, deadline=None)
@given(tute3_matches())
def test_a_valid_tute3_match_scores_as_rules_md_says(document: dict[str, Any]) -> None:
    assert score_match(document) == oracle.result(document)


@settings(max_examples=60, deadline=None)
@given(tute3_matches(), st.lists(st.integers(-1, 121), min_size=3, max_size=3), st.integers(-1, 3))
def test_a_tute3_deal_is_refused_exactly_when_its_points_or_last_trick_break_rules_md(
    document: dict[str, Any], points: list[int], last_trick: int
) -> None:
    if oracle.result(document)["finished"]:
        document["deals"].pop()
    deal = {"dealer": 0, "trump": "oros", "points": points, "last_trick": last_trick}
    wanted = set()
    if any(p not in POSSIBLE for p in points):
        wanted.add("points_impossible")
    elif sum(points) != 120:
        wanted.add("points_total")
    if not 0 <= last_trick <= 2:
        wanted.add("last_trick_invalid")
    played = {**document, "deals": [*document["deals"], deal]}
    try:
        got = score_match(played)
    except RuleViolation as violation:
        assert set(violation.codes) == wanted
    else:
        assert not wanted and got == oracle.result(played)
