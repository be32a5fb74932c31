"""Pocha's house rules, its schedule of deals, a deal's bids and tricks, and what a bid scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ....rules.common import Code, DealReader, ErrorLog, Suit, int_list, is_int, is_suit, number_text
from ....rules.messages import N_
from ....rules.options import OptionSpec, as_bool, as_int

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8
#: Player counts for which `remove_twos` takes the four 2s out of a deck that does not deal out evenly.
TWOS_OUT_FOR: Final = (3, 6)

POCHA_OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        "deck", "choice", 40, N_("Cards in the deck: 40, or 48 with the 8s and 9s."), choices=(40, 48), label=N_("Deck")
    ),
    OptionSpec(
        "remove_twos",
        "bool",
        True,
        N_("With 3 or 6 players, take the four 2s out so that every card is dealt."),
        label=N_("Take the 2s out"),
    ),
    OptionSpec(
        "schedule",
        "schedule",
        "classic",
        N_("Cards per player, deal by deal: classic (a round of 1s, up to the most and back), ladder, or a list."),
        choices=("classic", "ladder"),
        label=N_("Cards per deal"),
        choice_labels=(
            N_("classic"),
            N_("ladder"),
        ),
    ),
    OptionSpec(
        "hook",
        "bool",
        True,
        N_("The dealer bids last and may not make the bids add up to the cards in hand."),
        label=N_("Dealer's hook"),
    ),
    OptionSpec(
        "exact_base",
        "int",
        10,
        N_("Points for making exactly the tricks bid."),
        minimum=0,
        maximum=100,
        label=N_("Exact-bid bonus"),
    ),
    OptionSpec(
        "per_trick",
        "int",
        5,
        N_("Points for each trick taken when the bid is exact."),
        minimum=0,
        maximum=100,
        label=N_("Per trick"),
    ),
    OptionSpec(
        "miss_per_trick",
        "int",
        5,
        N_("Points lost for each trick of difference when the bid is missed."),
        minimum=0,
        maximum=100,
        label=N_("Per trick off"),
    ),
    OptionSpec(
        "oros_double",
        "bool",
        False,
        N_("Every score of a deal with oros as trump counts double."),
        label=N_("Oros double"),
    ),
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
