"""The shared vocabulary of the rules engine: suits, cards, seats, error codes and value checks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from enum import StrEnum
from typing import Final, Literal, TypeGuard

from .messages import MESSAGES, sentence

Suit = Literal["oros", "copas", "espadas", "bastos"]

SUITS: Final[tuple[Suit, ...]] = ("oros", "copas", "espadas", "bastos")

#: Ranks of the 48-card Spanish deck from strongest to weakest, as the rule sheets order them.
RANKS_BY_STRENGTH: Final[tuple[str, ...]] = (
    "as",
    "3",
    "rey",
    "caballo",
    "sota",
    "9",
    "8",
    "7",
    "6",
    "5",
    "4",
    "2",
)

#: Card points of the ranks that score; every other rank is worth nothing.
CARD_POINTS: Final[Mapping[str, int]] = {"as": 11, "3": 10, "rey": 4, "caballo": 3, "sota": 2}

#: Card points a whole deck holds, whatever its size.
DECK_POINTS: Final = 120

DECK_SIZES: Final[tuple[int, ...]] = (40, 48)


@dataclass(frozen=True)
class Card:
    """One card of the Spanish deck."""

    rank: str
    suit: Suit

    @property
    def points(self) -> int:
        """Return the card points this card is worth when captured."""
        return CARD_POINTS.get(self.rank, 0)


def deck(size: int = 40) -> tuple[Card, ...]:
    """Return the cards of a 40- or 48-card Spanish deck (the 48 adds the 8s and 9s)."""
    if size not in DECK_SIZES:
        raise ValueError(f"a Spanish deck has 40 or 48 cards, not {size}")
    ranks = [r for r in RANKS_BY_STRENGTH if size == 48 or r not in ("8", "9")]
    return tuple(Card(rank, suit) for suit in SUITS for rank in ranks)


def possible_card_points(points: int) -> bool:
    """Tell whether one side can capture `points` card points (0 to 120, never 1 or 119)."""
    return 0 <= points <= DECK_POINTS and points not in (1, DECK_POINTS - 1)


def other_side_points(points: int) -> int:
    """Return the other side's card points in a played-out deal, given one side's."""
    if not possible_card_points(points):
        raise ValueError(f"a side cannot capture {number_text(points)} card points")
    return DECK_POINTS - points


def next_seat(seat: int, players: int) -> int:
    """Return the seat that follows `seat` in the order of play."""
    return (seat + 1) % players


class Code(StrEnum):
    """The stable codes of the rejections any game may make, exactly as docs/rules.md names them; a game
    adds codes of its own in its folder (`Game.codes`)."""

    MALFORMED = "malformed"
    GAME_UNKNOWN = "game_unknown"
    OPTIONS_INVALID = "options_invalid"
    PLAYERS_COUNT = "players_count"
    PLAYERS_DUPLICATE = "players_duplicate"
    SCHEDULE_INVALID = "schedule_invalid"
    DEALER_INVALID = "dealer_invalid"
    SEAT_INVALID = "seat_invalid"
    TRUMP_INVALID = "trump_invalid"
    POINTS_IMPOSSIBLE = "points_impossible"
    POINTS_TOTAL = "points_total"
    LAST_TRICK_INVALID = "last_trick_invalid"
    CANTE_SUIT_TWICE = "cante_suit_twice"
    TUTE_DISABLED = "tute_disabled"
    CARDS_RANGE = "cards_range"
    CARDS_SCHEDULE = "cards_schedule"
    BID_RANGE = "bid_range"
    BID_STEP = "bid_step"
    DECLARER_INVALID = "declarer_invalid"
    BID_HOOK = "bid_hook"
    TRICKS_RANGE = "tricks_range"
    TRICKS_TOTAL = "tricks_total"
    MATCH_FINISHED = "match_finished"


@dataclass(frozen=True)
class RuleError:
    """One problem found in a match document: where it is, its code and a sentence for players.

    `message_id` names the sentence's template in `MESSAGES` and `params` fill it, so that an
    app can say the same sentence in another language.
    """

    deal: int | None
    field: str
    code: str
    message_id: str
    params: Mapping[str, object] = dataclass_field(default_factory=dict, compare=False)

    @property
    def message(self) -> str:
        """Return the sentence in English."""
        return sentence(self.message_id, self.params).format(**self.params)

    def to_dict(self) -> dict[str, object]:
        """Return the JSON-shaped form used by `RuleViolation.errors` and the API."""
        return {"deal": self.deal, "field": self.field, "code": str(self.code), "message": self.message}


class RuleViolation(Exception):
    """Raised when a match document breaks the rules; `errors` lists every problem found."""

    def __init__(self, problems: Sequence[RuleError]) -> None:
        self.problems: tuple[RuleError, ...] = tuple(problems)
        self.errors: list[dict[str, object]] = [p.to_dict() for p in self.problems]
        super().__init__("; ".join(_describe(p) for p in self.problems))

    @property
    def codes(self) -> list[str]:
        """Return the codes of the problems, in the order they were found."""
        return [str(p.code) for p in self.problems]


def _describe(problem: RuleError) -> str:
    where = f"deal {problem.deal}, " if problem.deal is not None else ""
    return f"{where}{problem.field}: {problem.message} [{problem.code}]"


class ErrorLog:
    """Collects the problems of one document so that all of them can be reported at once."""

    def __init__(self) -> None:
        self.problems: list[RuleError] = []

    def add(self, code: str, field: str, message_id: str, *, deal: int | None = None, **params: object) -> None:
        """Record one problem, its sentence named by `message_id` and filled by `params`."""
        if message_id not in MESSAGES:
            raise KeyError(f"no message {message_id!r}")
        self.problems.append(RuleError(deal, field, code, message_id, params))

    def count(self) -> int:
        """Return how many problems have been recorded so far."""
        return len(self.problems)

    def raise_if_any(self) -> None:
        """Raise `RuleViolation` with every recorded problem, if there is one."""
        if self.problems:
            raise RuleViolation(self.problems)


def is_int(value: object) -> TypeGuard[int]:
    """Tell whether a JSON value is a whole number (booleans and floats are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_suit(value: object) -> TypeGuard[Suit]:
    """Tell whether a JSON value names a suit of the Spanish deck."""
    return isinstance(value, str) and value in SUITS


def number_text(value: int) -> int | str:
    """Return a whole number for a message: itself, so that a count of 1 is said in the singular, or
    words for an absurdly long one, which is not spelled out."""
    return value if -(10**9) < value < 10**9 else "that number"


def int_list(value: object, length: int) -> tuple[int, ...] | None:
    """Return `value` as a tuple of `length` whole numbers, or None if it is not one."""
    if not isinstance(value, list) or len(value) != length:
        return None
    if not all(is_int(item) for item in value):
        return None
    return tuple(value)


def seat_in_range(value: object, players: int) -> TypeGuard[int]:
    """Tell whether a JSON value is a seat of a match with `players` seats."""
    return is_int(value) and 0 <= value < players


class DealReader:
    """Reads the fields of one raw deal, logging each problem against that deal."""

    def __init__(self, raw: Mapping[str, object], number: int, log: ErrorLog, allowed: frozenset[str]) -> None:
        self.raw = raw
        self.number = number
        self.log = log
        self.start = log.count()
        for key in sorted(set(raw) - allowed, key=str):
            self.problem(Code.MALFORMED, str(key), "deal_unknown_field", number=number, key=key)

    def problem(self, code: str, field: str, message_id: str, **params: object) -> None:
        """Record a problem of this deal."""
        self.log.add(code, field, message_id, deal=self.number, **params)

    @property
    def ok(self) -> bool:
        """Tell whether no problem has been recorded for this deal."""
        return self.log.count() == self.start

    def dealer(self, players: int) -> int | None:
        """Read the dealer's seat; log `malformed` or `dealer_invalid` when it is not a seat."""
        value = self.raw.get("dealer")
        if not is_int(value):
            self.problem(Code.MALFORMED, "dealer", "dealer_not_seat")
            return None
        if not 0 <= value < players:
            self.problem(Code.DEALER_INVALID, "dealer", "dealer_out_of_range", players=players)
            return None
        return value
