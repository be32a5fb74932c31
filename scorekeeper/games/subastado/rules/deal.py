"""What a Tute subastado deal is (its house rules and facts) and how a raw deal is read and checked.

How deals are scored and a match is played is in `.match`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, cast

from ....rules.common import DECK_POINTS, Code, ErrorLog, Suit, is_int, is_suit, number_text, possible_card_points
from ....rules.messages import N_
from ....rules.options import OptionSpec, as_int, as_str
from ...tute.rules.deal import (
    CANTE_ELSEWHERE,
    CANTE_IN_TRUMP,
    TUTE_KINDS,
    Cante,
    CanteReader,
    TuteDeclaration,
    TuteKind,
    cante_value,
)

MadeRule = Literal["bid", "total"]
FailedRule = Literal["lose", "others"]
SubastadoTute = Literal["off", "match"]

#: The highest bid: every card point, the last trick, las cuarenta and three twenties (120 + 10 + 40 + 60).
MAX_BID: Final = DECK_POINTS + 10 + CANTE_IN_TRUMP + 3 * CANTE_ELSEWHERE
#: The most deals a `deals` house rule may set.
MAX_DEALS: Final = 200
#: The cards dealt to each player, by players at the table: three leave the 2s out (36 cards), four deal all 40.
CARDS_IN_HAND: Final[Mapping[int, int]] = {3: 12, 4: 10}

SUBASTADO_OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        "players",
        "choice",
        3,
        N_("Players at the table: 3 (the 2s out, 12 cards each) or 4 (10 cards each)."),
        choices=(3, 4),
        label=N_("Players"),
    ),
    OptionSpec(
        "min_bid", "int", 60, N_("The lowest bid of the auction."), minimum=0, maximum=MAX_BID, label=N_("Lowest bid")
    ),
    OptionSpec(
        "bid_step",
        "int",
        5,
        N_("Bids go up in steps of this many points."),
        minimum=1,
        maximum=50,
        label=N_("Bid step"),
    ),
    OptionSpec(
        "last_trick_bonus",
        "int",
        10,
        N_("Points for the player who takes the last trick (las diez de últimas)."),
        minimum=0,
        maximum=50,
        label=N_("Last trick bonus"),
    ),
    OptionSpec(
        "made",
        "choice",
        "bid",
        N_("A contract made scores the bid, or the declarer's whole total."),
        choices=("bid", "total"),
        label=N_("Contract made scores"),
        choice_labels=(
            # TRANSLATORS: Tute subastado, what a contract made scores: the bid, or the declarer's whole total.
            N_("the bid"),
            N_("the declarer's total"),
        ),
    ),
    OptionSpec(
        "failed",
        "choice",
        "lose",
        N_("A contract failed: the declarer loses the bid, or every other player scores it."),
        choices=("lose", "others"),
        label=N_("Contract failed"),
        choice_labels=(
            # TRANSLATORS: Tute subastado, a contract failed: the declarer loses the bid, or the others score it.
            N_("the declarer loses the bid"),
            N_("the others score the bid"),
        ),
    ),
    OptionSpec(
        "target", "int", 500, N_("The total that ends the match."), minimum=1, maximum=100000, label=N_("Target")
    ),
    OptionSpec(
        "deals",
        "int",
        None,
        N_("Play this many deals instead of playing to the target (blank: to the target)."),
        minimum=1,
        maximum=MAX_DEALS,
        label=N_("Number of deals"),
    ),
    OptionSpec(
        "tute",
        "choice",
        "off",
        N_("Four Reyes or four Caballos in one hand: not played (off), or wins the match."),
        choices=("off", "match"),
        label=N_("Tute"),
        choice_labels=(
            # TRANSLATORS: "off": a house rule's value, the rule not played (the dealer's hook, the tute).
            N_("off"),
            N_("wins the match"),
        ),
    ),
)


@dataclass(frozen=True)
class SubastadoOptions:
    """The house rules of one Tute subastado match, every one of them set."""

    players: int = 3
    min_bid: int = 60
    bid_step: int = 5
    last_trick_bonus: int = 10
    made: MadeRule = "bid"
    failed: FailedRule = "lose"
    target: int = 500
    #: None: the match is played to the target.
    deals: int | None = None
    tute: SubastadoTute = "off"

    @classmethod
    def from_values(cls, values: Mapping[str, object]) -> SubastadoOptions:
        """Build the options from values already checked by `SubastadoGame.check_options`."""
        return cls(
            players=as_int(values, "players"),
            min_bid=as_int(values, "min_bid"),
            bid_step=as_int(values, "bid_step"),
            last_trick_bonus=as_int(values, "last_trick_bonus"),
            made=cast(MadeRule, as_str(values, "made")),
            failed=cast(FailedRule, as_str(values, "failed")),
            target=as_int(values, "target"),
            deals=None if values["deals"] is None else as_int(values, "deals"),
            tute=cast(SubastadoTute, as_str(values, "tute")),
        )

    def bids(self) -> tuple[int, ...]:
        """Return every bid the auction allows, lowest first."""
        return tuple(bid for bid in range(self.min_bid, MAX_BID + 1) if bid % self.bid_step == 0)


@dataclass(frozen=True)
class Contract:
    """What the auction's winner undertook and what they made of it."""

    declarer: int
    bid: int
    trump: Suit
    #: The declarer's card points.
    points: int
    #: Whether the declarer took the last trick.
    last_trick: bool
    cantes: tuple[Cante, ...] = ()


@dataclass(frozen=True)
class SubastadoDeal:
    """The facts of one deal: a contract played, everyone passed (neither), or a tute that ends the match."""

    dealer: int
    contract: Contract | None = None
    tute: TuteDeclaration | None = None


def declarer_total(contract: Contract, last_trick_bonus: int) -> int:
    """Return the declarer's total: card points, the last trick's bonus if taken, and their cantes."""
    sung = sum(cante_value(cante.suit, contract.trump) for cante in contract.cantes)
    return contract.points + (last_trick_bonus if contract.last_trick else 0) + sung


_CONTRACT_FIELDS: Final = ("declarer", "bid", "trump", "points", "last_trick", "cantes")
_DEAL_FIELDS: Final = frozenset({"dealer", "passed", "tute", *_CONTRACT_FIELDS})


class _SubastadoDealReader(CanteReader):
    """Checks one raw subastado deal field by field."""

    def __init__(
        self, raw: Mapping[str, object], number: int, names: tuple[str, ...], options: SubastadoOptions, log: ErrorLog
    ) -> None:
        super().__init__(raw, number, log, _DEAL_FIELDS)
        self.players = len(names)
        self.names = names
        self.options = options

    def given(self, field: str) -> bool:
        return self.raw.get(field) is not None

    def read(self) -> SubastadoDeal | None:
        dealer = self.dealer(self.players)
        passed = self.raw.get("passed")
        passed = False if passed is None else passed
        contract = tute = None
        if not isinstance(passed, bool):
            self.problem(Code.MALFORMED, "passed", "passed_not_bool")
        elif passed:
            for field in (*_CONTRACT_FIELDS, "tute"):
                if self.given(field):
                    self.problem(Code.DECLARER_INVALID, field, "passed_with_contract")
        elif self.given("tute"):
            tute = self.declaration()
            for field in _CONTRACT_FIELDS:
                if self.given(field):
                    self.problem(Code.MALFORMED, field, "tute_deal_only")
        else:
            contract = self.contract()
        if not self.ok:
            return None
        assert dealer is not None
        return SubastadoDeal(dealer, contract, tute)

    def declaration(self) -> TuteDeclaration | None:
        value = self.raw.get("tute")
        if not isinstance(value, Mapping) or set(value) - {"seat", "kind"}:
            self.problem(Code.MALFORMED, "tute", "tute_not_object")
            return None
        start = self.log.count()
        seat, kind = value.get("seat"), value.get("kind")
        if not is_int(seat):
            self.problem(Code.MALFORMED, "tute.seat", "tute_seat_missing")
        elif not 0 <= seat < self.players:
            self.problem(Code.SEAT_INVALID, "tute.seat", "seat_missing", seat=number_text(seat + 1))
        if kind not in TUTE_KINDS:
            self.problem(Code.MALFORMED, "tute.kind", "tute_kind")
        if self.options.tute == "off":
            self.problem(Code.TUTE_DISABLED, "tute", "tute_off")
        if self.log.count() != start:
            return None
        assert is_int(seat)
        return TuteDeclaration(seat, cast(TuteKind, kind))

    def contract(self) -> Contract | None:
        declarer = self.declarer()
        bid = self.bid()
        trump = self.raw.get("trump")
        if not is_suit(trump):
            self.problem(Code.TRUMP_INVALID, "trump", "trump_missing")
        points = self.points()
        last_trick = self.raw.get("last_trick")
        if last_trick is None:
            self.problem(Code.LAST_TRICK_INVALID, "last_trick", "last_trick_declarer")
        elif not isinstance(last_trick, bool):
            self.problem(Code.MALFORMED, "last_trick", "last_trick_declarer")
        cantes = self.cantes(declarer)
        if not self.ok:
            return None
        assert declarer is not None and bid is not None and is_suit(trump) and points is not None
        assert isinstance(last_trick, bool) and cantes is not None
        return Contract(declarer, bid, trump, points, last_trick, cantes)

    def declarer(self) -> int | None:
        value = self.raw.get("declarer")
        if value is None:
            self.problem(Code.DECLARER_INVALID, "declarer", "declarer_missing")
        elif not is_int(value):
            self.problem(Code.MALFORMED, "declarer", "declarer_not_seat")
        elif not 0 <= value < self.players:
            self.problem(Code.DECLARER_INVALID, "declarer", "declarer_out_of_range", players=self.players)
        else:
            return value
        return None

    def bid(self) -> int | None:
        value = self.raw.get("bid")
        low, step = self.options.min_bid, self.options.bid_step
        if not is_int(value):
            self.problem(Code.MALFORMED, "bid", "bid_missing")
        elif not low <= value <= MAX_BID:
            self.problem(Code.BID_RANGE, "bid", "auction_bid_range", bid=number_text(value), low=low, high=MAX_BID)
        elif value % step:
            self.problem(Code.BID_STEP, "bid", "auction_bid_step", bid=value, step=step)
        else:
            return value
        return None

    def points(self) -> int | None:
        value = self.raw.get("points")
        if not is_int(value):
            self.problem(Code.MALFORMED, "points", "declarer_points_missing")
        elif not possible_card_points(value):
            self.problem(Code.POINTS_IMPOSSIBLE, "points", "points_impossible", points=number_text(value))
        else:
            return value
        return None

    def cantes(self, declarer: int | None) -> tuple[Cante, ...] | None:
        def not_declarer(field: str, seat: int) -> None:
            assert declarer is not None
            singer, by = self.names[seat], self.names[declarer]
            self.problem(Code.SEAT_INVALID, field, "cante_not_declarer", singer=singer, declarer=by)

        return self.read_cantes(declarer, not_declarer)


def read_subastado_deal(
    raw: object, number: int, players: tuple[str, ...], options: SubastadoOptions, log: ErrorLog
) -> SubastadoDeal | None:
    """Check one raw subastado deal; log every problem against deal `number` and return it, or None."""
    if not isinstance(raw, Mapping):
        log.add(Code.MALFORMED, "deal", "deal_not_object", deal=number, number=number)
        return None
    return _SubastadoDealReader(raw, number, players, options, log).read()
