"""What a Tute deal is (its house rules, cantes, tute and facts) and how a raw deal is read and checked."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Literal, cast

from ....rules.common import (
    CARD_POINTS,
    DECK_POINTS,
    Code,
    DealReader,
    ErrorLog,
    Suit,
    int_list,
    is_int,
    is_suit,
    number_text,
    possible_card_points,
    seat_in_range,
)
from ....rules.messages import N_
from ....rules.options import OptionSpec, as_bool, as_int, as_str

TuteMode = Literal["juegos", "points"]
TuteRule = Literal["deal", "match", "off"]
TuteKind = Literal["reyes", "caballos"]

TUTE_KINDS: Final[tuple[TuteKind, ...]] = ("reyes", "caballos")
#: The kinds of tute as the messages say them.
TUTE_KIND_WORDS: Final[Mapping[str, str]] = {"reyes": N_("Reyes"), "caballos": N_("Caballos")}
#: The messages of a Tute deal that its form checks in the browser before sending.
TUTE_BROWSER_CHECKED: Final = (
    "trump_missing",
    "points_impossible",
    "points_not_pair",
    "points_not_list",
    "points_total",
    "points_total_tute",
    "last_trick_missing",
    "tute_kind",
    "tute_off",
    "cante_after_tute",
    "cante_suit_twice",
    "last_trick_after_tute",
)
#: The card points a tute keeps out of the tricks: the declarer still holds all four of its kind.
HELD_BY_TUTE: Final[Mapping[str, int]] = {"reyes": 4 * CARD_POINTS["rey"], "caballos": 4 * CARD_POINTS["caballo"]}
CANTE_IN_TRUMP: Final = 40
CANTE_ELSEWHERE: Final = 20
MAX_JUEGOS_TARGET: Final = 99
DEFAULT_TARGETS: Final[Mapping[str, int]] = {"juegos": 3, "points": 101}
#: A winner's deal score from which `double_over_100` earns two juegos.
OVER_100: Final = 101

TUTE_OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        "deck",
        "choice",
        40,
        N_("Cards in the deck: 40, or 48 with the 8s and 9s (which score nothing)."),
        choices=(40, 48),
        label=N_("Deck"),
    ),
    OptionSpec(
        "last_trick_bonus",
        "int",
        10,
        N_("Points for the side that takes the last trick (las diez de últimas)."),
        minimum=0,
        maximum=50,
        label=N_("Last trick bonus"),
    ),
    OptionSpec(
        "mode",
        "choice",
        "juegos",
        N_("Win the match by deals won (juegos) or by points added up deal after deal."),
        choices=("juegos", "points"),
        label=N_("Mode"),
        choice_labels=(
            N_("juegos"),
            N_("points"),
        ),
    ),
    OptionSpec(
        "target",
        "int",
        None,
        N_("Match target: juegos to reach (default 3, at most 99), or in points mode the total (default 101)."),
        minimum=1,
        maximum=10000,
        label=N_("Target"),
    ),
    OptionSpec(
        "double_over_100",
        "bool",
        False,
        N_("A deal won with 101 or more (or by a tute) earns two juegos."),
        label=N_("Two juegos over 100"),
    ),
    OptionSpec(
        "tute",
        "choice",
        "deal",
        N_("Four Reyes or four Caballos in one hand: wins the deal, wins the match, or is not played (off)."),
        choices=("deal", "match", "off"),
        label=N_("Tute"),
        choice_labels=(
            N_("wins the deal"),
            N_("wins the match"),
            # TRANSLATORS: "off": a house rule's value, the rule not played (the dealer's hook, the tute).
            N_("off"),
        ),
    ),
)


def tute_kind(raw: object) -> str | None:
    """Return the kind a raw tute declaration names, if it names one (checked on its own elsewhere)."""
    kind = raw.get("kind") if isinstance(raw, Mapping) else None
    return kind if kind in TUTE_KINDS else None


@dataclass(frozen=True)
class TuteOptions:
    """The house rules of one Tute match, every one of them set."""

    deck: int = 40
    last_trick_bonus: int = 10
    mode: TuteMode = "juegos"
    #: 0 stands for the mode's default: 3 juegos, or 101 points.
    target: int = 0
    double_over_100: bool = False
    tute: TuteRule = "deal"

    def __post_init__(self) -> None:
        if self.target == 0:
            object.__setattr__(self, "target", DEFAULT_TARGETS[self.mode])

    @property
    def tute_ends_match(self) -> bool:
        """Tell whether a tute declaration ends the match at once (`tute: match`, or in points mode)."""
        return self.tute == "match" or self.mode == "points"

    @classmethod
    def from_values(cls, values: Mapping[str, object]) -> TuteOptions:
        """Build the options from values already checked by `TuteGame.check_options`."""
        return cls(
            deck=as_int(values, "deck"),
            last_trick_bonus=as_int(values, "last_trick_bonus"),
            mode=cast(TuteMode, as_str(values, "mode")),
            target=as_int(values, "target"),
            double_over_100=as_bool(values, "double_over_100"),
            tute=cast(TuteRule, as_str(values, "tute")),
        )


@dataclass(frozen=True)
class Cante:
    """A Rey and Caballo of one suit, sung by the seat that holds them."""

    seat: int
    suit: Suit


@dataclass(frozen=True)
class TuteDeclaration:
    """All four Reyes or all four Caballos in one seat's hand: the deal stops there."""

    seat: int
    kind: TuteKind


@dataclass(frozen=True)
class TuteDeal:
    """The facts of one Tute deal as the table reports them."""

    dealer: int
    trump: Suit
    #: Card points per side.
    points: tuple[int, ...]
    last_trick: int | None
    cantes: tuple[Cante, ...] = ()
    tute: TuteDeclaration | None = None


def tute_sides(players: int) -> tuple[tuple[int, ...], ...]:
    """Return the seats of each side: partners opposite at four (0+2 against 1+3), else each player alone."""
    if players == 4:
        return ((0, 2), (1, 3))
    return tuple((seat,) for seat in range(players))


def play_order(dealer: int, players: int) -> tuple[int, ...]:
    """Return the seats in the order they play a deal: from the seat after the dealer (el mano) to the dealer."""
    return tuple((dealer + step) % players for step in range(1, players + 1))


def cante_value(suit: Suit, trump: Suit) -> int:
    """Return what a cante is worth: las cuarenta in the trump suit, twenty in any other."""
    return CANTE_IN_TRUMP if suit == trump else CANTE_ELSEWHERE


def first_dealer_for_leader(leader: int, players: int = 4) -> int:
    """Return the dealer whose deal makes `leader` (who holds the 2 of oros) lead the first trick."""
    return (leader - 1) % players


_DEAL_FIELDS: Final = frozenset({"dealer", "trump", "points", "last_trick", "cantes", "tute"})


class CanteReader(DealReader):
    """A deal reader that reads the cantes too: Tute's, and the subastado's (where the declarer alone sings)."""

    players: int
    names: tuple[str, ...]

    def read_cantes(self, singer: int | None, wrong_singer: Callable[[str, int], None]) -> tuple[Cante, ...] | None:
        """Read the deal's cantes: each a seat of the table and a suit sung once; where only `singer` may
        sing, `wrong_singer(field, seat)` logs why another seat cannot have."""
        value = self.raw.get("cantes")
        if value is None:
            return ()
        if not isinstance(value, list):
            self.problem(Code.MALFORMED, "cantes", "cantes_not_list")
            return None
        start = self.log.count()
        cantes: list[Cante] = []
        for index, item in enumerate(value):
            where = f"cantes.{index}"
            if not isinstance(item, Mapping) or set(item) - {"seat", "suit"}:
                self.problem(Code.MALFORMED, where, "cante_not_object")
                continue
            seat, suit = item.get("seat"), item.get("suit")
            if not is_int(seat):
                self.problem(Code.MALFORMED, f"{where}.seat", "cante_seat_missing")
            elif not 0 <= seat < self.players:
                self.problem(Code.SEAT_INVALID, f"{where}.seat", "seat_missing", seat=number_text(seat + 1))
            elif singer is not None and seat != singer:
                wrong_singer(f"{where}.seat", seat)
            if not is_suit(suit):
                self.problem(Code.MALFORMED, f"{where}.suit", "cante_suit")
            elif any(c.suit == suit for c in cantes):
                self.problem(Code.CANTE_SUIT_TWICE, f"{where}.suit", "cante_suit_twice", suit=suit.capitalize())
            if seat_in_range(seat, self.players) and is_suit(suit):
                cantes.append(Cante(seat, suit))
        return tuple(cantes) if self.log.count() == start else None


class _TuteDealReader(CanteReader):
    """Checks one raw Tute deal field by field."""

    def __init__(
        self, raw: Mapping[str, object], number: int, names: tuple[str, ...], options: TuteOptions, log: ErrorLog
    ) -> None:
        super().__init__(raw, number, log, _DEAL_FIELDS)
        self.players = len(names)
        self.names = names
        self.sides = tute_sides(self.players)
        self.options = options

    def read(self) -> TuteDeal | None:
        dealer = self.dealer(self.players)
        trump = self.raw.get("trump")
        if not is_suit(trump):
            self.problem(Code.TRUMP_INVALID, "trump", "trump_missing")
        tute = self.declaration()
        declared = self.raw.get("tute") is not None and self.options.tute != "off"
        points = self.points(declared, tute_kind(self.raw.get("tute")))
        last_trick = self.last_trick(declared)
        cantes = self.cantes(tute)
        if not self.ok:
            return None
        assert dealer is not None and is_suit(trump) and points is not None and cantes is not None
        return TuteDeal(dealer, trump, points, last_trick, cantes, tute)

    def declaration(self) -> TuteDeclaration | None:
        value = self.raw.get("tute")
        if value is None:
            return None
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

    def points(self, declared: bool, kind: str | None = None) -> tuple[int, ...] | None:
        value = self.raw.get("points")
        count = len(self.sides)
        if value is None and declared:
            return (0,) * count
        pair = int_list(value, count)
        if pair is None:
            if count == 2:
                self.problem(Code.MALFORMED, "points", "points_not_pair")
            else:
                self.problem(Code.MALFORMED, "points", "points_not_list", count=count)
            return None
        impossible = [(side, p) for side, p in enumerate(pair) if not possible_card_points(p)]
        for side, p in impossible:
            self.problem(Code.POINTS_IMPOSSIBLE, f"points.{side}", "points_impossible", points=number_text(p))
        if impossible:
            return None
        total = sum(pair)
        if not declared and total != DECK_POINTS:
            self.problem(Code.POINTS_TOTAL, "points", "points_total", total=total)
            return None
        # After a tute the declarer still holds the four of its kind; of a kind not named right
        # (refused on its own) the bound is unknown.
        if declared and kind is not None:
            most = DECK_POINTS - HELD_BY_TUTE[kind]
            if total > most:
                self.problem(
                    Code.POINTS_TOTAL, "points", "points_total_tute", kind=kind.capitalize(), most=most, total=total
                )
                return None
        return pair

    def last_trick(self, declared: bool) -> int | None:
        value = self.raw.get("last_trick")
        if declared:
            if value is not None:
                self.problem(Code.LAST_TRICK_INVALID, "last_trick", "last_trick_after_tute")
            return None
        if value is None:
            self.problem(Code.LAST_TRICK_INVALID, "last_trick", "last_trick_missing")
        elif not is_int(value):
            if len(self.sides) == 2:
                self.problem(Code.MALFORMED, "last_trick", "last_trick_not_side")
            else:
                self.problem(Code.MALFORMED, "last_trick", "last_trick_not_seat", most=len(self.sides) - 1)
        elif not 0 <= value < len(self.sides):
            # The sides' names only for the message: a match is read again, deal by deal, at every change.
            *first, second = (" & ".join(self.names[s] for s in side) for side in self.sides)
            self.problem(
                Code.LAST_TRICK_INVALID, "last_trick", "last_trick_out_of_range", first=", ".join(first), second=second
            )
        else:
            return value
        return None

    def cantes(self, tute: TuteDeclaration | None) -> tuple[Cante, ...] | None:
        def after_tute(field: str, seat: int) -> None:
            assert tute is not None
            holder, kind = self.names[tute.seat], tute.kind.capitalize()
            self.problem(
                Code.SEAT_INVALID, field, "cante_after_tute", singer=self.names[seat], holder=holder, kind=kind
            )

        return self.read_cantes(tute.seat if tute is not None else None, after_tute)


def read_tute_deal(
    raw: object, number: int, players: tuple[str, ...], options: TuteOptions, log: ErrorLog
) -> TuteDeal | None:
    """Check one raw Tute deal; log every problem against deal `number` and return it, or None."""
    if not isinstance(raw, Mapping):
        log.add(Code.MALFORMED, "deal", "deal_not_object", deal=number, number=number)
        return None
    return _TuteDealReader(raw, number, players, options, log).read()
