"""Pocha for 2 to 8 players: the schedule of deals, bids, tricks, and their scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .base import DealResult, Game, MatchGoal, MatchResult
from .common import SUITS, Code, DealReader, ErrorLog, Suit, int_list, is_int, is_suit, next_seat, number_text
from .messages import N_
from .options import OptionSpec, as_bool, as_int

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8
#: Player counts for which `remove_twos` takes the four 2s out of a deck that does not deal out evenly.
TWOS_OUT_FOR: Final = (3, 6)

POCHA_OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("deck", "choice", 40, N_("Cards in the deck: 40, or 48 with the 8s and 9s."), choices=(40, 48)),
    OptionSpec(
        "remove_twos", "bool", True, N_("With 3 or 6 players, take the four 2s out so that every card is dealt.")
    ),
    OptionSpec(
        "schedule",
        "schedule",
        "classic",
        N_("Cards per player, deal by deal: classic (a round of 1s, up to the most and back), ladder, or a list."),
        choices=("classic", "ladder"),
    ),
    OptionSpec("hook", "bool", True, N_("The dealer bids last and may not make the bids add up to the cards in hand.")),
    OptionSpec("exact_base", "int", 10, N_("Points for making exactly the tricks bid."), minimum=0, maximum=100),
    OptionSpec("per_trick", "int", 5, N_("Points for each trick taken when the bid is exact."), minimum=0, maximum=100),
    OptionSpec(
        "miss_per_trick",
        "int",
        5,
        N_("Points lost for each trick of difference when the bid is missed."),
        minimum=0,
        maximum=100,
    ),
    OptionSpec("oros_double", "bool", False, N_("Every score of a deal with oros as trump counts double.")),
)

#: Named sets of scoring constants that tables know by name.
POCHA_PRESETS: Final[Mapping[str, Mapping[str, int]]] = {
    "pocha": {"exact_base": 10, "per_trick": 5, "miss_per_trick": 5},
    "podrida": {"exact_base": 10, "per_trick": 3, "miss_per_trick": 3},
}


@dataclass(frozen=True)
class PochaOptions:
    """The house rules of one Pocha match, every one of them set."""

    deck: int = 40
    remove_twos: bool = True
    schedule: str | tuple[int, ...] = "classic"
    hook: bool = True
    exact_base: int = 10
    per_trick: int = 5
    miss_per_trick: int = 5
    oros_double: bool = False

    @classmethod
    def from_values(cls, values: Mapping[str, object]) -> PochaOptions:
        """Build the options from values already checked by `PochaGame.check_options`."""
        schedule = values["schedule"]
        assert isinstance(schedule, (str, tuple))
        return cls(
            deck=as_int(values, "deck"),
            remove_twos=as_bool(values, "remove_twos"),
            schedule=schedule,
            hook=as_bool(values, "hook"),
            exact_base=as_int(values, "exact_base"),
            per_trick=as_int(values, "per_trick"),
            miss_per_trick=as_int(values, "miss_per_trick"),
            oros_double=as_bool(values, "oros_double"),
        )


@dataclass(frozen=True)
class PochaDeal:
    """The facts of one Pocha deal: who dealt, how many cards, the trump, each seat's bid and tricks.

    `tricks` is empty while the deal is still being played: its bids are known, its tricks not yet.
    """

    dealer: int
    cards: int
    trump: Suit | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]


def max_cards(players: int, deck: int = 40, remove_twos: bool = True) -> int:
    """Return the most cards each player can be dealt (M in docs/rules.md).

    `remove_twos` takes the four 2s out for 3 or 6 players so that every card is dealt; a
    48-card deck already deals out evenly to them, so it keeps its 2s.
    """
    uneven = deck % players != 0
    in_play = deck - (4 if remove_twos and players in TWOS_OUT_FOR and uneven else 0)
    return in_play // players


def pocha_schedule(players: int, options: PochaOptions | None = None) -> tuple[int, ...]:
    """Return the cards per player of every deal of a match, in order."""
    rules = options or PochaOptions()
    if isinstance(rules.schedule, tuple):
        return rules.schedule
    most = max_cards(players, rules.deck, rules.remove_twos)
    up = list(range(2, most))
    top = [most] * players
    if rules.schedule == "ladder":
        return tuple([1] + up + top + up[::-1] + [1])
    ones = [1] * players
    return tuple(ones + up + top + up[::-1] + ones)


def bidding_order(dealer: int, players: int) -> tuple[int, ...]:
    """Return the seats in the order they bid: the seat after the dealer first, the dealer last."""
    return tuple((dealer + step) % players for step in range(1, players + 1))


def forbidden_bid(cards: int, other_bids: Sequence[int]) -> int | None:
    """Return the bid the dealer may not make under `hook`, given everyone else's bids, or None."""
    missing = cards - sum(other_bids)
    return missing if 0 <= missing <= cards else None


def score_bid(bid: int, tricks: int, options: PochaOptions, trump: Suit | None = None) -> int:
    """Return one player's score for a deal: exact bids earn, missed bids lose per trick of difference."""
    if bid == tricks:
        score = options.exact_base + options.per_trick * tricks
    else:
        score = -options.miss_per_trick * abs(bid - tricks)
    return score * trump_factor(trump, options)


def trump_factor(trump: Suit | None, options: PochaOptions) -> int:
    """Return what every score of a deal with `trump` is multiplied by: 2 for oros under `oros_double`."""
    return 2 if options.oros_double and trump == "oros" else 1


_DEAL_FIELDS: Final = frozenset({"dealer", "cards", "trump", "bids", "tricks"})


class _PochaDealReader(DealReader):
    """Checks one raw Pocha deal field by field."""

    def __init__(
        self,
        raw: Mapping[str, object],
        number: int,
        players: tuple[str, ...],
        options: PochaOptions,
        log: ErrorLog,
        with_tricks: bool = True,
    ) -> None:
        super().__init__(raw, number, log, _DEAL_FIELDS if with_tricks else _DEAL_FIELDS - {"tricks"})
        self.with_tricks = with_tricks
        self.players = players
        self.options = options
        self.most = max_cards(len(players), options.deck, options.remove_twos)

    def read(self, scheduled: int) -> PochaDeal | None:
        dealer = self.dealer(len(self.players))
        cards = self.cards(scheduled)
        trump = self.raw.get("trump")
        if trump is not None and not is_suit(trump):
            self.problem(Code.TRUMP_INVALID, "trump", "pocha_trump")
        bids = self.counts("bids", cards)
        if bids is not None and cards is not None and dealer is not None and self.options.hook and sum(bids) == cards:
            self.problem(
                Code.BID_HOOK,
                f"bids.{dealer}",
                "bid_hook",
                name=self.players[dealer],
                bid=bids[dealer],
                cards=cards,
            )
        tricks = self.counts("tricks", cards) if self.with_tricks else ()
        if tricks and cards is not None and sum(tricks) != cards:
            self.problem(Code.TRICKS_TOTAL, "tricks", "tricks_total", cards=cards, total=sum(tricks))
        if not self.ok:
            return None
        assert dealer is not None and cards is not None and bids is not None and tricks is not None
        return PochaDeal(dealer, cards, trump if is_suit(trump) else None, bids, tricks)

    def cards(self, scheduled: int) -> int | None:
        """Read the cards per player; return them when they can be used to check bids and tricks."""
        value = self.raw.get("cards")
        if not is_int(value):
            self.problem(Code.MALFORMED, "cards", "cards_missing")
            return None
        if not 1 <= value <= self.most:
            self.problem(
                Code.CARDS_RANGE,
                "cards",
                "cards_range",
                players=len(self.players),
                most=self.most,
                cards=number_text(value),
            )
            return None
        if value != scheduled:
            self.problem(
                Code.CARDS_SCHEDULE, "cards", "cards_schedule", number=self.number, scheduled=scheduled, cards=value
            )
        return value

    def counts(self, field: str, cards: int | None) -> tuple[int, ...] | None:
        """Read one whole number per seat (`bids` or `tricks`), each from 0 to the cards in hand."""
        bids = field == "bids"
        values = int_list(self.raw.get(field), len(self.players))
        if values is None:
            self.problem(
                Code.MALFORMED, field, "bids_not_list" if bids else "tricks_not_list", players=len(self.players)
            )
            return None
        if cards is None:
            return values
        wrong = [(seat, v) for seat, v in enumerate(values) if not 0 <= v <= cards]
        for seat, v in wrong:
            if bids:
                self.problem(
                    Code.BID_RANGE,
                    f"bids.{seat}",
                    "bid_range",
                    name=self.players[seat],
                    bid=number_text(v),
                    cards=cards,
                )
            else:
                self.problem(
                    Code.TRICKS_RANGE,
                    f"tricks.{seat}",
                    "tricks_range",
                    name=self.players[seat],
                    tricks=number_text(v),
                    cards=cards,
                )
        return None if wrong else values


def read_pocha_deal(
    raw: object,
    number: int,
    scheduled: int,
    players: tuple[str, ...],
    options: PochaOptions,
    log: ErrorLog,
    with_tricks: bool = True,
) -> PochaDeal | None:
    """Check one raw Pocha deal scheduled with `scheduled` cards; log every problem and return it, or None.

    Without `with_tricks` only the bidding is checked (dealer, cards, trump, bids): the deal before play.
    """
    if not isinstance(raw, Mapping):
        log.add(Code.MALFORMED, "deal", "deal_not_object", deal=number, number=number)
        return None
    return _PochaDealReader(raw, number, players, options, log, with_tricks).read(scheduled)


class PochaGame(Game):
    """Pocha: each player bids the tricks they will take, and scores for hitting the bid exactly."""

    name = "pocha"
    title = N_("Pocha")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bids_first = True
    form_kind = "bids"

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        return POCHA_OPTION_SPECS

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        return tuple((seat,) for seat in range(players))

    def seat_tallies(self, deal: Mapping[str, Any], seat: int, side: int) -> dict[str, int]:
        bid, tricks = deal["bids"][seat], deal["tricks"][seat]
        return {"exact_bids": int(bid == tricks), "over_bids": int(bid > tricks), "under_bids": int(bid < tricks)}

    def ranks(self, result: MatchResult) -> list[int]:
        places = sorted(set(result.totals), reverse=True)
        return [places.index(total) + 1 for total in result.totals]

    def goal(self, options: Mapping[str, object], players: int) -> MatchGoal:
        """Return the number of deals the schedule sets: the match ends with its last."""
        return MatchGoal("points", deals=len(pocha_schedule(players, PochaOptions.from_values(options))))

    def browser_details(self, options: Mapping[str, object], players: int) -> dict[str, Any]:
        """Return the schedule, the hook, the bidding order and the score of every bid and tricks pair."""
        rules = PochaOptions.from_values(options)
        most = max_cards(players, rules.deck, rules.remove_twos)
        counts = range(most + 1)
        return {
            "schedule": list(pocha_schedule(players, rules)),
            "most_cards": most,
            "hook": rules.hook,
            "bidding_order": [list(bidding_order(dealer, players)) for dealer in range(players)],
            # scores[bid][tricks], before the trump's factor ("none": a deal without trump)
            "scores": [[score_bid(bid, tricks, rules) for tricks in counts] for bid in counts],
            "trump_factor": {trump or "none": trump_factor(trump, rules) for trump in (None, *SUITS)},
        }

    def check_options(self, raw: object, players: int | None, log: ErrorLog) -> dict[str, object] | None:
        values = super().check_options(raw, players, log)
        if values is None or players is None:
            return values
        schedule = values["schedule"]
        if isinstance(schedule, tuple):
            most = max_cards(players, as_int(values, "deck"), as_bool(values, "remove_twos"))
            if any(not 1 <= cards <= most for cards in schedule):
                log.add(Code.SCHEDULE_INVALID, "options.schedule", "schedule_range", players=players, most=most)
                return None
        return values

    def play(
        self, players: tuple[str, ...], options: Mapping[str, object], deals: Sequence[object], log: ErrorLog
    ) -> MatchResult | None:
        rules = PochaOptions.from_values(options)
        schedule = pocha_schedule(len(players), rules)
        start = log.count()
        results: list[DealResult] = []
        totals = [0] * len(players)
        last_dealer: int | None = None
        for number, raw in enumerate(deals, start=1):
            if number > len(schedule):
                log.add(Code.MATCH_FINISHED, "deal", "schedule_complete", deal=number, deals=len(schedule))
                continue
            deal = read_pocha_deal(raw, number, schedule[number - 1], players, rules, log)
            if deal is None or log.count() != start:
                continue
            scores = tuple(score_bid(b, t, rules, deal.trump) for b, t in zip(deal.bids, deal.tricks))
            results.append(DealResult(number, scores, None))
            totals = [t + s for t, s in zip(totals, scores)]
            last_dealer = deal.dealer
        if log.count() != start:
            return None
        finished = len(results) == len(schedule)
        best = max(totals)
        return MatchResult(
            game=self.name,
            sides=self.sides(len(players)),
            deals=tuple(results),
            totals=tuple(totals),
            juegos=None,
            finished=finished,
            winners=tuple(seat for seat, total in enumerate(totals) if total == best) if finished else (),
            next_dealer=None if finished or last_dealer is None else next_seat(last_dealer, len(players)),
            next_cards=None if finished else schedule[len(results)],
        )

    def check_bids(
        self,
        players: tuple[str, ...],
        options: Mapping[str, object],
        deals: Sequence[object],
        bids: object,
        log: ErrorLog,
    ) -> PochaDeal | None:
        """Check the bidding of the next deal (before play) after `deals`; log problems, return it or None."""
        result = self.play(players, options, deals, log)
        if result is None:
            return None
        number = len(result.deals) + 1
        if result.finished:
            log.add(Code.MATCH_FINISHED, "deal", "schedule_complete", deal=number, deals=len(result.deals))
            return None
        rules = PochaOptions.from_values(options)
        scheduled = pocha_schedule(len(players), rules)[number - 1]
        return read_pocha_deal(bids, number, scheduled, players, rules, log, with_tricks=False)


POCHA: Final = PochaGame()
