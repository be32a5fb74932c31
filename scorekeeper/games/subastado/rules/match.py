"""Tute subastado (`subastado`): three or four players each for themselves; in every deal the winner of
the auction plays alone against the others to make the points they bid.

What a deal is and how a raw one is read is in `.deal`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ....rules.base import DealOutcome, Game, MatchGoal, MatchState
from ....rules.common import CARD_POINTS, DECK_POINTS, SUITS, Code, ErrorLog, possible_card_points
from ....rules.messages import N_
from ....rules.options import OptionSpec, as_int
from ...tute.rules.deal import CANTE_IN_TRUMP, HELD_BY_TUTE, TUTE_BROWSER_CHECKED, TUTE_KIND_WORDS, Cante, cante_value
from ...tute.rules.match import TUTE_FIGURES
from ...tute.rules.sentences import TUTE_MESSAGES
from .deal import (
    CARDS_IN_HAND,
    MAX_BID,
    SUBASTADO_OPTION_SPECS,
    Contract,
    SubastadoDeal,
    SubastadoOptions,
    declarer_total,
    read_subastado_deal,
)
from .sentences import SUBASTADO_MESSAGES


def made(total: int, contract: Contract) -> bool:
    """Tell whether the declarer's `total` makes the contract: at least the points bid."""
    return total >= contract.bid


def contract_outcome(deal: Mapping[str, Any], options: Mapping[str, object]) -> tuple[int, bool]:
    """Return the declarer's total in a checked deal with a contract, under checked house rules, and
    whether it made the contract."""
    contract = Contract(
        declarer=deal["declarer"],
        bid=deal["bid"],
        trump=deal["trump"],
        points=deal["points"],
        last_trick=deal["last_trick"],
        cantes=tuple(Cante(cante["seat"], cante["suit"]) for cante in deal.get("cantes") or []),
    )
    total = declarer_total(contract, SubastadoOptions.from_values(options).last_trick_bonus)
    return total, made(total, contract)


def score_subastado_deal(
    deal: SubastadoDeal, options: SubastadoOptions, players: int
) -> tuple[tuple[int, ...], int | None]:
    """Return each player's score in the deal and its winner: the declarer when the contract was made.

    A deal everyone passed, or one stopped by a tute, scores nothing and has no winner (a tute wins
    the match instead).
    """
    scores = [0] * players
    contract = deal.contract
    if contract is None:
        return tuple(scores), None
    total = declarer_total(contract, options.last_trick_bonus)
    if made(total, contract):
        scores[contract.declarer] = total if options.made == "total" else contract.bid
        return tuple(scores), contract.declarer
    if options.failed == "lose":
        scores[contract.declarer] = -contract.bid
    else:
        scores = [0 if seat == contract.declarer else contract.bid for seat in range(players)]
    return tuple(scores), None


def sole_leader(totals: Sequence[int]) -> int | None:
    """Return the player whose total is higher than every other's, or None when the highest is shared."""
    best = max(totals)
    leaders = [seat for seat, total in enumerate(totals) if total == best]
    return leaders[0] if len(leaders) == 1 else None


class SubastadoGame(Game):
    """Tute subastado: an auction for the right to name the trump, and a contract to make alone."""

    name = "subastado"
    title = N_("Tute subastado")
    min_players = 3
    max_players = 4
    form_kind = "auction"
    figures = TUTE_FIGURES
    messages = {**TUTE_MESSAGES, **SUBASTADO_MESSAGES}
    browser_checked = (
        *TUTE_BROWSER_CHECKED,
        "declarer_missing",
        "declarer_out_of_range",
        "bid_missing",
        "auction_bid_range",
        "auction_bid_step",
        "declarer_points_missing",
        "last_trick_declarer",
        "cante_not_declarer",
    )
    param_words = TUTE_KIND_WORDS

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        return SUBASTADO_OPTION_SPECS

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        return tuple((seat,) for seat in range(players))

    def seat_tallies(self, deal: Mapping[str, Any], seat: int, side: int) -> dict[str, int]:
        """Count the declarer's cantes and last trick, and a tute, for the player at `seat` (a deal
        everyone passed, checked, has no declarer)."""
        declarer = deal.get("declarer") == seat
        sung = [cante_value(c["suit"], deal["trump"]) for c in deal.get("cantes") or []] if declarer else []
        return {
            "cantes_20": sum(1 for value in sung if value != CANTE_IN_TRUMP),
            "cantes_40": sum(1 for value in sung if value == CANTE_IN_TRUMP),
            "tutes": int((deal.get("tute") or {}).get("seat") == seat),
            "last_tricks": int(declarer and deal.get("last_trick") is True),
        }

    def goal(self, options: Mapping[str, object], players: int) -> MatchGoal:
        """Return the points that end the match, or the set number of deals it is played for instead."""
        deals = options.get("deals")
        if deals is not None:
            return MatchGoal("points", deals=as_int(options, "deals"))
        return MatchGoal("points", target=as_int(options, "target"))

    def browser_details(self, options: Mapping[str, object], players: int) -> dict[str, Any]:
        """Return the bids the auction allows, card points, cante values, the scoring rules and the match's end."""
        rules = SubastadoOptions.from_values(options)
        return {
            "deck_points": DECK_POINTS,
            "card_points": dict(CARD_POINTS),
            "impossible_points": [p for p in range(DECK_POINTS + 1) if not possible_card_points(p)],
            "cards_in_hand": CARDS_IN_HAND.get(players),
            "last_trick_bonus": rules.last_trick_bonus,
            "cantes": {suit: {trump: cante_value(suit, trump) for trump in SUITS} for suit in SUITS},  # [suit][trump]
            "min_bid": rules.min_bid,
            "max_bid": MAX_BID,
            "bid_step": rules.bid_step,
            "bids": list(rules.bids()),
            # a contract made scores the bid ("bid") or the declarer's total ("total"); one failed costs
            # the declarer the bid ("lose") or gives it to every other player ("others")
            "made": rules.made,
            "failed": rules.failed,
            "target": rules.target,
            "deals": rules.deals,
            "tute_allowed": rules.tute != "off",
            "held_by_tute": dict(HELD_BY_TUTE),
        }

    def check_options(self, raw: object, players: int | None, log: ErrorLog) -> dict[str, object] | None:
        """Check the house rules; `deals` may be given as null (played to the target), some bid must
        be possible, and the names at the table must be as many as `players` says."""
        if isinstance(raw, Mapping) and "deals" in raw and raw["deals"] is None:
            raw = {key: value for key, value in raw.items() if key != "deals"}
        values = super().check_options(raw, players, log)
        if values is None:
            return None
        if not SubastadoOptions.from_values(values).bids():
            low, step = as_int(values, "min_bid"), as_int(values, "bid_step")
            log.add(Code.OPTIONS_INVALID, "options.min_bid", "bids_none", low=low, high=MAX_BID, step=step)
            return None
        seats = as_int(values, "players")
        if players is not None and players != seats:
            log.add(Code.PLAYERS_COUNT, "players", "players_option", wanted=seats, count=players)
            return None
        return values

    def house_rules(self, options: Mapping[str, object], players: int) -> SubastadoOptions:
        return SubastadoOptions.from_values(options)

    def read_deal(
        self,
        raw: object,
        number: int,
        players: tuple[str, ...],
        rules: SubastadoOptions,
        state: MatchState,
        log: ErrorLog,
    ) -> SubastadoDeal | None:
        return read_subastado_deal(raw, number, players, rules, log)

    def score_deal(self, deal: SubastadoDeal, rules: SubastadoOptions, state: MatchState) -> DealOutcome:
        """Score the contract; a tute wins the match at once for whoever holds it."""
        scores, winner = score_subastado_deal(deal, rules, state.players)
        return DealOutcome(scores, winner, ends_match=None if deal.tute is None else (deal.tute.seat,))

    def match_over(self, state: MatchState, rules: SubastadoOptions, deal: SubastadoDeal) -> tuple[int, ...] | None:
        """End the match once it is due (the target reached, or the set number of deals played) and one
        player's total is higher than every other's: while the highest is shared, play goes on."""
        due = len(state.deals) >= rules.deals if rules.deals is not None else max(state.totals) >= rules.target
        leader = sole_leader(state.totals)
        return (leader,) if due and leader is not None else None


SUBASTADO: Final = SubastadoGame()
