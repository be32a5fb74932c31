"""Tute for two players (`tute2`), three (`tute3`) or four in pairs (`tute4`): scoring deals and matches.

What a deal is and how a raw one is read is in `.deal`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ....rules.base import DealOutcome, Game, MatchGoal, MatchState
from ....rules.common import (
    CARD_POINTS,
    DECK_POINTS,
    SUITS,
    Code,
    ErrorLog,
    possible_card_points,
)
from ....rules.messages import N_
from ....rules.options import OptionSpec, as_int, as_str
from .deal import (
    CANTE_IN_TRUMP,
    DEFAULT_TARGETS,
    HELD_BY_TUTE,
    MAX_JUEGOS_TARGET,
    OVER_100,
    TUTE_BROWSER_CHECKED,
    TUTE_KIND_WORDS,
    TUTE_OPTION_SPECS,
    TuteDeal,
    TuteOptions,
    cante_value,
    first_dealer_for_leader,
    play_order,
    read_tute_deal,
    tute_sides,
)
from .sentences import TUTE_MESSAGES

#: What Tute counts for each player, deal by deal (the subastado counts the same).
TUTE_FIGURES: Final = ("cantes_20", "cantes_40", "tutes", "last_tricks")


def score_tute_deal(
    deal: TuteDeal, options: TuteOptions, sides: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], int]:
    """Return each side's deal score and the side that won the deal."""
    side_of = {seat: index for index, side in enumerate(sides) for seat in side}
    scores = list(deal.points)
    if deal.last_trick is not None:
        scores[deal.last_trick] += options.last_trick_bonus
    for cante in deal.cantes:
        scores[side_of[cante.seat]] += cante_value(cante.suit, deal.trump)
    if deal.tute is not None:
        winner = side_of[deal.tute.seat]
    else:
        best = max(scores)
        tied = [side for side, score in enumerate(scores) if score == best]
        winner = tied[0] if len(tied) == 1 else tie_winner(tied, deal.last_trick, deal.dealer, sides)
    return tuple(scores), winner


def tie_winner(tied: Sequence[int], preferred: int | None, dealer: int, sides: tuple[tuple[int, ...], ...]) -> int:
    """Return which of the `tied` sides wins: `preferred` if it is among them (the side that took
    the last trick; at the end of a match on points, the winner of its last deal); else the side
    that plays first after `dealer` (from el mano on).

    Two sides tied are all the sides, so `preferred` decides; the order of play only at three or more.
    """
    if preferred in tied:
        assert preferred is not None
        return preferred
    side_of = {seat: index for index, side in enumerate(sides) for seat in side}
    players = sum(len(side) for side in sides)
    return next(side_of[seat] for seat in play_order(dealer, players) if side_of[seat] in tied)


def juegos_earned(deal: TuteDeal, winner_score: int, options: TuteOptions) -> int:
    """Return the juegos the deal's winner earns in `juegos` mode."""
    return _juegos(deal.tute is not None, winner_score, options)


def _juegos(declared: bool, winner_score: int, options: TuteOptions) -> int:
    big = 2 if options.double_over_100 else 1
    if declared:
        return 0 if options.tute == "match" else big
    return big if winner_score >= OVER_100 else 1


class TuteGame(Game):
    """Tute for two or three players, each for themselves, or for four in two pairs sitting opposite each other."""

    form_kind = "card_points"
    figures = TUTE_FIGURES
    messages = TUTE_MESSAGES
    browser_checked = TUTE_BROWSER_CHECKED
    param_words = TUTE_KIND_WORDS

    def __init__(self, name: str, title: str, seats: int) -> None:
        self.name = name
        self.title = title
        self.min_players = self.max_players = seats

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        return TUTE_OPTION_SPECS

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        return tute_sides(players)

    def seat_tallies(self, deal: Mapping[str, Any], seat: int, side: int) -> dict[str, int]:
        sung = [
            cante_value(cante["suit"], deal["trump"]) for cante in deal.get("cantes") or [] if cante["seat"] == seat
        ]
        return {
            "cantes_20": sum(1 for value in sung if value != CANTE_IN_TRUMP),
            "cantes_40": sum(1 for value in sung if value == CANTE_IN_TRUMP),
            "tutes": int((deal.get("tute") or {}).get("seat") == seat),
            "last_tricks": int(deal.get("last_trick") == side),
        }

    def ranked_by_points(self, options: Mapping[str, object]) -> bool:
        return options.get("mode") == "points"

    def goal(self, options: Mapping[str, object], players: int) -> MatchGoal:
        """Return the target, of juegos or of points as the house rule `mode` says."""
        return MatchGoal(as_str(options, "mode"), target=as_int(options, "target"))

    def browser_details(self, options: Mapping[str, object], players: int) -> dict[str, Any]:
        """Return the card points, the last trick's bonus, cante values, tutes, juegos and the target."""
        rules = TuteOptions.from_values(options)
        return {
            "deck_points": DECK_POINTS,
            "card_points": dict(CARD_POINTS),
            "impossible_points": [p for p in range(DECK_POINTS + 1) if not possible_card_points(p)],
            "last_trick_bonus": rules.last_trick_bonus,
            "cantes": {suit: {trump: cante_value(suit, trump) for trump in SUITS} for suit in SUITS},  # [suit][trump]
            "held_by_tute": dict(HELD_BY_TUTE),
            "tute_allowed": rules.tute != "off",
            "tute_ends_match": rules.tute_ends_match,
            # juegos a deal's winner earns: `over` from a deal score of `over_from`, `under` below it
            "juegos": None
            if rules.mode != "juegos"
            else {
                "under": _juegos(False, OVER_100 - 1, rules),
                "over": _juegos(False, OVER_100, rules),
                "over_from": OVER_100,
                "tute": _juegos(True, 0, rules),
            },
            "target": rules.target,
            "dealer_for_leader": [first_dealer_for_leader(leader, players) for leader in range(players)],
            # by dealer, the seats in the order they play: a tie of three or more goes to the first of the tied
            "play_order": [list(play_order(dealer, players)) for dealer in range(players)],
        }

    def default_for(self, name: str, values: Mapping[str, object]) -> object:
        if name == "target":
            return DEFAULT_TARGETS[as_str(values, "mode")]
        return super().default_for(name, values)

    def check_options(self, raw: object, players: int | None, log: ErrorLog) -> dict[str, object] | None:
        values = super().check_options(raw, players, log)
        if values is None:
            return None
        mode = as_str(values, "mode")
        if values["target"] is None:
            values["target"] = self.default_for("target", values)
        elif mode == "juegos" and as_int(values, "target") > MAX_JUEGOS_TARGET:
            log.add(Code.OPTIONS_INVALID, "options.target", "target_juegos", most=MAX_JUEGOS_TARGET)
            return None
        return values

    def house_rules(self, options: Mapping[str, object], players: int) -> TuteOptions:
        return TuteOptions.from_values(options)

    def read_deal(
        self, raw: object, number: int, players: tuple[str, ...], rules: TuteOptions, state: MatchState, log: ErrorLog
    ) -> TuteDeal | None:
        return read_tute_deal(raw, number, players, rules, log)

    def score_deal(self, deal: TuteDeal, rules: TuteOptions, state: MatchState) -> DealOutcome:
        """Score the deal; in a match to juegos, its winner earns them, unless a tute ends the match at once."""
        scores, winner = score_tute_deal(deal, rules, state.sides)
        ends_match = deal.tute is not None and rules.tute_ends_match
        earned: tuple[int, ...] | None = None
        if rules.mode == "juegos":
            # A tute that wins the match at once earns no juegos: the match is over whatever they stand at.
            won = 0 if ends_match else juegos_earned(deal, scores[winner], rules)
            earned = tuple(won if side == winner else 0 for side in range(len(state.sides)))
        return DealOutcome(scores, winner, earned, ends_match=(winner,) if ends_match else None)

    def match_over(self, state: MatchState, rules: TuteOptions, deal: TuteDeal) -> tuple[int, ...] | None:
        """End the match when the deal's winner reaches the target of juegos, or when a total reaches the
        target of points: the highest total wins it, a tie going to the deal's winner, then in order of play."""
        winner = state.deals[-1].winner
        assert winner is not None  # every Tute deal has a winner
        if rules.mode == "juegos":
            return (winner,) if state.juegos[winner] >= rules.target else None
        best = max(state.totals)
        if best < rules.target:
            return None
        leaders = [side for side, total in enumerate(state.totals) if total == best]
        return (leaders[0] if len(leaders) == 1 else tie_winner(leaders, winner, deal.dealer, state.sides),)


TUTE2: Final = TuteGame("tute2", N_("Tute (two players)"), 2)
TUTE3: Final = TuteGame("tute3", N_("Tute for three (three players)"), 3)
TUTE4: Final = TuteGame("tute4", N_("Tute in pairs (four players)"), 4)
