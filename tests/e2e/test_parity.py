"""The browser's rules (static/rules.js and each game folder's static/rules.js, fed the engine's
`browser_rules` data) agree with the engine's on hypothesis-made matches of every game in the
registry, under random house rules: the totals and juegos of a sequence of deals added to a
standing, who deals next and with how many cards, and the codes of the problems a deal entered on
the form is refused for, valid or not.

The browser's code runs in Chromium, on one blank page for the whole module; each example is one
call into it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from scorekeeper.games.web import game_scripts
from scorekeeper.registry import FOLDER_OF, GAMES, check_bids, check_options, score_match
from scorekeeper.rules import OptionSpec, RuleViolation

RULES_JS = Path(__file__).resolve().parents[2] / "static" / "rules.js"
SUITS = ["oros", "copas", "espadas", "bastos"]
Deal = dict[str, Any]


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    """A blank page holding the rules every game shares and each game's own, and nothing else."""
    context = browser.new_context()
    blank = context.new_page()
    blank.set_content("<!doctype html><title>rules</title>")
    blank.add_script_tag(content=RULES_JS.read_text())
    blank.add_script_tag(content=game_scripts("rules")[0])
    yield blank
    context.close()


# ---------------------------------------------------------------- matches


def option_value(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """Any value a table may choose for one house rule (some refused later, by the engine)."""
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "int":
        low, high = spec.minimum or 0, spec.maximum if spec.maximum is not None else 100
        return st.integers(low, min(high, low + 150)) | st.sampled_from([low, high])
    if spec.kind == "choice":
        return st.sampled_from(spec.choices)
    # a schedule: named, or a list of cards no deck is too small for (at least 5 each for 8 players)
    return st.sampled_from(spec.choices) | st.lists(st.integers(1, 5), min_size=1, max_size=6)


@st.composite
def tables(draw: st.DrawFn, name: str) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """Players, house rules (as a match document says them) and the engine's rules data for them."""
    game = GAMES[name]
    players = [f"P{seat}" for seat in range(draw(st.integers(game.min_players, game.max_players)))]
    raw = {spec.name: draw(option_value(spec)) for spec in game.option_specs if draw(st.booleans())}
    try:
        values = check_options(name, raw, len(players))
    except RuleViolation:
        reject()
    return players, raw, game.browser_rules(values, len(players))


def engine_codes(document: dict[str, Any], deal: Deal, with_tricks: bool = True) -> list[str]:
    """Return the codes the engine refuses `deal` for, entered after the document's deals."""
    try:
        if with_tricks:
            score_match({**document, "deals": [*document["deals"], deal]})
        else:
            check_bids(document, {key: value for key, value in deal.items() if key != "tricks"})
    except RuleViolation as violation:
        return sorted(violation.codes)
    return []


# ---------------------------------------------------------------- the test


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_browser_scores_follows_and_refuses_deals_as_the_engine_does(page: Any, name: str) -> None:
    @settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(table=tables(name), rnd=st.randoms(use_true_random=False), data=st.data())
    def agree(table: tuple[list[str], dict[str, Any], dict[str, Any]], rnd: random.Random, data: st.DataObject) -> None:
        players, options, rules = table
        examples = import_module(f"{FOLDER_OF[name]}.examples")
        valid, anything = examples.VALID_DEAL, examples.ANY_DEAL
        document: dict[str, Any] = {"game": name, "players": players, "options": options, "deals": []}
        scheduled = len(rules.get("schedule") or []) or 12
        deals: list[Deal] = []
        for number in range(1, min(scheduled, 14) + 1):
            deals.append(valid(rules, number, rnd))
        # the engine's standing after each deal, up to the one that ends the match
        standings = [score_match(document)]
        while len(standings) <= len(deals) and not standings[-1]["finished"]:
            standings.append(score_match({**document, "deals": deals[: len(standings)]}))
        played = len(standings) - 1
        split = data.draw(st.integers(0, played), label="deals already stored")
        start = standings[split]
        # deals as a form could send them, each at a number the match has yet to play, after valid deals
        checks = []
        for _ in range(6):
            number = rnd.randint(1, min(scheduled, played + 1)) if not standings[-1]["finished"] else 1
            deal = anything(rules, number, rnd)
            with_tricks = rules["kind"] != "bids" or rnd.random() < 0.7
            prefix = {**document, "deals": deals[: number - 1]}
            checks.append(
                {
                    "deal": deal,
                    "number": number,
                    "withTricks": with_tricks,
                    "expected": engine_codes(prefix, deal, with_tricks),
                }
            )
        seen = page.evaluate(
            """({ rules, start, deals, checks }) => ({
            follow: Rules.follow(rules, start, deals),
            valid: deals.map((deal, index) => Rules.check(rules, deal, { number: start.dealt + index + 1 }).map((p) => p.code)),
            codes: checks.map((c) => Rules.check(rules, c.deal, { number: c.number, withTricks: c.withTricks })
                .map((p) => p.code).sort()),
        })""",
            {
                "rules": rules,
                "deals": deals[split:],
                "start": {
                    "totals": start["totals"],
                    "juegos": start["juegos"],
                    "dealt": split,
                    "finished": start["finished"],
                    "winners": start["winners"],
                    "next_dealer": start["next_dealer"],
                },
                "checks": checks,
            },
        )
        end = standings[played]
        follow = seen["follow"]
        assert follow["totals"] == end["totals"], ("totals", deals, split)
        assert follow["juegos"] == end["juegos"], ("juegos", deals, split)
        assert follow["scores"] == [deal["scores"] for deal in end["deals"][split:]], ("scores", deals)
        assert (follow["finished"], follow["winners"], follow["next_dealer"], follow["next_cards"]) == (
            end["finished"],
            end["winners"],
            end["next_dealer"],
            end["next_cards"],
        ), ("next", deals, split)
        assert seen["valid"][: played - split] == [[]] * (played - split)
        assert [check["expected"] for check in checks] == seen["codes"], [
            (check["deal"], check["number"], check["withTricks"], check["expected"], codes)
            for check, codes in zip(checks, seen["codes"])
            if check["expected"] != codes
        ]

    agree()
