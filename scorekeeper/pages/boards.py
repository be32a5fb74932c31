"""The scoreboard's view model: a match's facts scored by the rules engine and laid out for
the scoreboard, the deal forms, the live view and a match's detail.

Nothing here writes or queries by itself. Scores come from the rules engine: either the
result cached on the match in the transaction that stored its deals, or a fresh
`check_match` of its facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from markupsafe import Markup

from ..games.web import WebGame, web_game
from ..i18n import ngettext
from ..models import ABANDONED, Match
from ..reads.documents import match_document
from ..reads.matches import ShownMatch
from ..registry import check_match, check_options, get_game
from ..rules import Game, MatchGoal, MatchResult
from ..text import seat_marks
from .charts import keyed_chart, match_chart
from .deal_table import DealRow, deal_rows, sheet_rows

#: The letters a score sheet's row has for its players' names, shared among them: past their share a
#: column is headed by the player's mark, and a key names each mark.
SHEET_LETTERS = 36


class StoredDeal(Protocol):
    """A deal as stored: its number and its facts (a `Deal`, or a row that reads the two alone)."""

    @property
    def number(self) -> int: ...

    @property
    def data(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class StandingLine:
    """One line of the standings: a side's place, name and score, and its bid while a Pocha deal
    waits for its tricks."""

    #: 1 for the leader; sides level on the score share a rank, and the next rank skips (1, 1, 3).
    rank: int
    #: The side's index in the match's sides (its colour in the chart).
    side: int
    name: str
    total: int
    #: Tute's juegos, where the match is played for juegos; points are then secondary.
    juegos: int | None
    bid: int | None
    winner: bool


@dataclass(frozen=True)
class Scoreboard:
    """Everything the scoreboard and the deal forms show about a match, derived from its facts."""

    #: The match, as read for showing it.
    match: ShownMatch
    game: Game
    seat_names: list[str]
    #: The seats of each side, and the sides' names ("Ana & Carmen" in Tute for four).
    sides: list[tuple[int, ...]]
    side_names: list[str]
    totals: tuple[int, ...]
    juegos: tuple[int, ...] | None
    #: What ends the match: its target (of juegos or points) or its number of deals.
    goal: MatchGoal
    #: The rules engine's result, whose figures this lays out.
    result: MatchResult
    rows: list[DealRow]
    finished: bool
    abandoned: bool
    winners: list[str]
    next_number: int
    next_dealer: int | None
    next_cards: int | None
    bidding_order: list[int]
    pending: dict[str, Any] | None
    options: dict[str, object]

    @property
    def chart(self) -> Markup:
        """Return what decides the match as an SVG line chart: each side's juegos or running total, deal by deal."""
        return match_chart(self.side_names, self.result)

    def deal_rows(self, editable: bool) -> Markup:
        """Return the lines of the deal-by-deal table, with the address of each deal's edit form when `editable`:
        a score sheet's rows where the game's deals fit one (`WebGame.score_sheet`), else a card per deal."""
        if self.web.score_sheet:
            return sheet_rows(self.rows, self.match.id, bool(editable))
        return deal_rows(self.rows, self.side_names, self.match.id, self.web.signed_scores, bool(editable))

    @property
    def side_marks(self) -> list[str] | None:
        """Return a short mark for each side where a score sheet's columns are too narrow for the names, else None."""
        widest = max((len(name) for name in self.side_names), default=0)
        return seat_marks(self.side_names) if widest > SHEET_LETTERS // max(len(self.side_names), 1) else None

    @property
    def sheet_key(self) -> bool:
        """Tell whether a score sheet headed by marks needs a key of its own: the chart above it has none."""
        return self.side_marks is not None and not keyed_chart(self.side_names)

    @property
    def web(self) -> WebGame:
        """Return the game's web side: its forms and the templates of its parts."""
        return web_game(self.game.name)

    @property
    def open(self) -> bool:
        """Tell whether deals can still be entered."""
        return not self.finished and not self.abandoned

    @property
    def next_dealer_name(self) -> str | None:
        """Return who deals next."""
        return None if self.next_dealer is None else self.seat_names[self.next_dealer]

    @property
    def standings(self) -> list[StandingLine]:
        """Return the sides from first to last, ranked on the rules engine's totals (juegos where the
        match counts them), the winners first whatever their totals (a tute can win a match behind),
        each with its bid while the deal waits for its tricks."""
        scores = self.juegos if self.juegos is not None else self.totals
        winners = set(self.winners)
        keys = [(name in winners, score) for name, score in zip(self.side_names, scores)]
        bids = self.pending["bids"] if self.pending else None
        lines = [
            StandingLine(
                rank=1 + sum(other > key for other in keys),
                side=index,
                name=name,
                total=self.totals[index],
                juegos=None if self.juegos is None else self.juegos[index],
                bid=bids[side[0]] if bids is not None and len(side) == 1 else None,
                winner=name in winners,
            )
            for index, (name, side, key) in enumerate(zip(self.side_names, self.sides, keys))
        ]
        return sorted(lines, key=lambda line: line.rank)

    @property
    def bids_against_cards(self) -> str | None:
        """Say how the pending bids compare with the cards in hand.

        For example: "1 trick is left over, so someone will take more than they bid".
        """
        if not self.pending:
            return None
        total, cards = sum(self.pending["bids"]), self.pending["cards"]
        if total < cards:
            return ngettext(
                "The bids add up to %(total)s of %(cards)s: %(num)s trick is left over, "
                "so someone will take more than they bid.",
                "The bids add up to %(total)s of %(cards)s: %(num)s tricks are left over, "
                "so someone will take more than they bid.",
                cards - total,
                total=total,
                cards=cards,
            )
        if total > cards:
            return ngettext(
                "The bids add up to %(total)s of %(cards)s: %(num)s trick too many, so someone will fall short.",
                "The bids add up to %(total)s of %(cards)s: %(num)s tricks too many, so someone will fall short.",
                total - cards,
                total=total,
                cards=cards,
            )
        return ngettext(
            "The bids add up to the %(cards)s card in hand: everyone can make theirs.",
            "The bids add up to the %(cards)s cards in hand: everyone can make theirs.",
            cards,
            cards=cards,
        )

    @property
    def first_bidder_name(self) -> str | None:
        """Return who bids first in the next Pocha deal."""
        return self.seat_names[self.bidding_order[0]] if self.bidding_order else None


def _name_sides(names: Sequence[str], sides: Sequence[Sequence[int]]) -> list[str]:
    """Name each side by its players ("Ana & Carmen" in Tute for four)."""
    return [" & ".join(names[seat] for seat in side) for side in sides]


def side_names(match: Match) -> list[str]:
    """Return the names of the match's sides (the game seats them by the number of players alone)."""
    names = match.player_names
    return _name_sides(names, get_game(match.game).sides(len(names)))


def next_cards(match: Match) -> int | None:
    """Return the cards each player holds in the match's next Pocha deal (None in Tute, or when it is over).

    Pending bids were checked against the same schedule when they were saved, so they agree.
    """
    cached = match.result if match.result is not None else check_match(match_document(match)).to_dict()
    cards = cached.get("next_cards")
    return cards if isinstance(cards, int) else None


def match_result(match: ShownMatch, deals: Sequence[StoredDeal] | None = None) -> MatchResult:
    """Return the rules engine's result for the match: the one cached beside its deals, when it agrees
    with the deals read (`deals`, else the match's own), else the facts scored again."""
    cached = match.result
    read = match.deals if deals is None else deals
    if cached is not None and len(cached.get("deals") or ()) == len(read):
        try:
            result = MatchResult.from_dict(cached)
        except (KeyError, TypeError, ValueError):  # a cache of another shape: score the facts
            pass
        else:
            # A match to juegos cached before its deals said their juegos: score the facts for them.
            if result.juegos is None or result.juegos_per_deal:
                return result
    return check_match(match_document(match, None if deals is None else [deal.data for deal in deals]))


def scoreboard(match: ShownMatch, deals: Sequence[StoredDeal] | None = None) -> Scoreboard:
    """Lay out the match's facts, as the rules engine scored them, for the scoreboard (`deals`: the
    match's deals when they were read as facts, not loaded with it)."""
    stored = match.deals if deals is None else deals
    game = get_game(match.game)
    web = web_game(match.game)
    result = match_result(match, stored)
    names = match.player_names
    sides = _name_sides(names, result.sides)
    options = check_options(match.game, match.options, len(names))
    rows = []
    said: dict[tuple[Any, ...], str] = {}
    for deal, scored, running in zip(stored, result.deals, result.running_totals()):
        summary, details = web.describe_deal(deal.data, names, sides, said, options)
        rows.append(
            DealRow(
                number=deal.number,
                dealer=names[deal.data["dealer"]],
                summary=summary,
                details=details,
                scores=scored.scores,
                running=running,
                winner=None if scored.winner is None else sides[scored.winner],
                label=web.sheet_label(deal.data, said) if web.score_sheet else "",
            )
        )
    if result.deals:
        next_dealer = result.next_dealer
    else:
        next_dealer = match.first_dealer
    if match.pending is not None:
        next_dealer = match.pending["dealer"]
    abandoned = match.status == ABANDONED
    return Scoreboard(
        match=match,
        game=game,
        seat_names=names,
        sides=[tuple(side) for side in result.sides],
        side_names=sides,
        totals=result.totals,
        juegos=result.juegos,
        goal=game.goal(options, len(names)),
        result=result,
        rows=rows,
        finished=result.finished,
        abandoned=abandoned,
        winners=[sides[w] for w in result.winners],
        next_number=len(result.deals) + 1,
        next_dealer=None if result.finished or abandoned else next_dealer,
        next_cards=None if abandoned else result.next_cards,
        bidding_order=(
            list(game.bidding_order(next_dealer, len(names)))
            if game.bids_first and next_dealer is not None and not result.finished
            else []
        ),
        pending=match.pending,
        options=options,
    )
