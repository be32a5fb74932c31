"""Tute for two players (`tute2`), three (`tute3`) or four in pairs (`tute4`): scoring deals and matches.

What a deal is and how a raw one is read is in `.deal`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ....rules.base import DealResult, Game, MatchGoal, MatchResult
from ....rules.common import (
    CARD_POINTS,
    DECK_POINTS,
    SUITS,
    Code,
    ErrorLog,
    next_seat,
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

    def ranks(self, result: MatchResult) -> list[int]:
        """Return the winner first, then the others by their juegos (or, in points mode, their totals),
        those level sharing a place."""
        standing = result.juegos if result.juegos is not None else result.totals
        others = sorted(
            {standing[side] for side in range(len(result.sides)) if side not in result.winners}, reverse=True
        )
        offset = 1 if result.winners else 0
        return [
            1 if side in result.winners else offset + others.index(standing[side]) + 1
            for side in range(len(result.sides))
        ]

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

    def play(
        self, players: tuple[str, ...], options: Mapping[str, object], deals: Sequence[object], log: ErrorLog
    ) -> MatchResult | None:
        rules = TuteOptions.from_values(options)
        sides = self.sides(len(players))
        start = log.count()
        results: list[DealResult] = []
        totals, juegos = [0] * len(sides), [0] * len(sides)
        finished = False
        winners: tuple[int, ...] = ()
        last_dealer: int | None = None
        for number, raw in enumerate(deals, start=1):
            if finished:
                log.add(Code.MATCH_FINISHED, "deal", "tute_match_over", deal=number, last=len(results))
                continue
            deal = read_tute_deal(raw, number, players, rules, log)
            if deal is None or log.count() != start:
                continue  # once a deal is wrong the standing is unknown; keep checking the rest
            scores, winner = score_tute_deal(deal, rules, sides)
            earned: tuple[int, ...] | None = None
            if rules.mode == "juegos":
                # A tute that wins the match at once earns no juegos: the match is over whatever they stand at.
                won = (
                    0 if deal.tute is not None and rules.tute_ends_match else juegos_earned(deal, scores[winner], rules)
                )
                earned = tuple(won if side == winner else 0 for side in range(len(sides)))
            results.append(DealResult(number, scores, winner, earned))
            totals = [t + s for t, s in zip(totals, scores)]
            last_dealer = deal.dealer
            if deal.tute is not None and rules.tute_ends_match:
                finished, winners = True, (winner,)
            elif earned is not None:
                juegos[winner] += earned[winner]
                if juegos[winner] >= rules.target:
                    finished, winners = True, (winner,)
            elif max(totals) >= rules.target:
                leaders = [side for side, total in enumerate(totals) if total == max(totals)]
                leader = leaders[0] if len(leaders) == 1 else tie_winner(leaders, winner, deal.dealer, sides)
                finished, winners = True, (leader,)
        if log.count() != start:
            return None
        return MatchResult(
            game=self.name,
            sides=sides,
            deals=tuple(results),
            totals=tuple(totals),
            juegos=tuple(juegos) if rules.mode == "juegos" else None,
            finished=finished,
            winners=winners,
            next_dealer=None if finished or last_dealer is None else next_seat(last_dealer, len(players)),
            next_cards=None,
        )


TUTE2: Final = TuteGame("tute2", N_("Tute (two players)"), 2)
TUTE3: Final = TuteGame("tute3", N_("Tute for three (three players)"), 3)
TUTE4: Final = TuteGame("tute4", N_("Tute in pairs (four players)"), 4)
