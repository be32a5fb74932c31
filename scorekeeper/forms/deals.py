"""The deal forms, Tute's, Tute subastado's and Pocha's, and their translation to and from the engine's deals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import BooleanField, Field, FieldList, HiddenField, RadioField, SelectField

from ..i18n import lazy_gettext as _l
from ..rules import DECK_POINTS, SUITS
from .base import Form
from .fields import MAX_SEATS, NOBODY, SUIT_CHOICES, LeftEmpty, Typed, WholeNumberField, choices


class DealForm(Form):
    """What every game's deal form has: the number and version it was opened for, and the dealer.

    Each game's form (named by its web side in `scorekeeper.games`) adds its own fields and
    these methods.
    """

    number = HiddenField()
    version = HiddenField()
    dealer = SelectField(_l("Dealer"), coerce=int, validators=[Typed()])

    def load(self, deal: Mapping[str, Any]) -> None:
        """Show a stored deal (or an entry waiting for its second part) in the form."""
        raise NotImplementedError

    def error_fields(self) -> dict[str, str]:
        """Map the engine's fields to this form's."""
        raise NotImplementedError

    def carried_fields_refused(self) -> bool:
        """Tell whether fields the page carries unseen (from an earlier step) were refused."""
        raise NotImplementedError

    def to_bids(self, cards: int | None) -> dict[str, Any]:
        """Return the entry as it stands before play; `cards` is what the match's schedule gives."""
        raise NotImplementedError

    def to_deal(self, cards: int | None) -> dict[str, Any]:
        """Return the whole deal the form describes, as a match document holds it."""
        raise NotImplementedError


#: The most sides a Tute deal form has a card points field for (Tute for three).
MAX_TUTE_SIDES = 3


class TuteDealForm(DealForm):
    """One Tute deal: trump, card points, last trick, cantes by suit, and a tute if there was one.

    The card points are one field per side (`points0`, `points1`…, as many as the table has
    sides, up to `MAX_TUTE_SIDES`); the last trick is a choice among the sides.
    """

    trump = RadioField(_l("Trump"), choices=SUIT_CHOICES, validators=[LeftEmpty()])
    points0 = WholeNumberField(_l("Card points"), validators=[LeftEmpty()])
    points1 = WholeNumberField(_l("Card points"), validators=[LeftEmpty()])
    points2 = WholeNumberField(_l("Card points"), validators=[LeftEmpty()])
    last_trick = RadioField(_l("Last trick"), coerce=int, validators=[LeftEmpty()])
    cante_oros = SelectField("oros")
    cante_copas = SelectField("copas")
    cante_espadas = SelectField("espadas")
    cante_bastos = SelectField("bastos")
    tute_seat = SelectField(_l("Tute declared by"))
    tute_kind = RadioField(
        _l("Tute of"), choices=choices([("reyes", "reyes"), ("caballos", "caballos")]), validators=[LeftEmpty()]
    )

    def setup(self, seat_names: Sequence[str], side_names: Sequence[str]) -> TuteDealForm:
        """Fill the choices that depend on the table."""
        seats = list(enumerate(seat_names))
        if not 2 <= len(side_names) <= MAX_TUTE_SIDES:
            raise ValueError(f"a Tute deal form has 2 to {MAX_TUTE_SIDES} sides, not {len(side_names)}")
        self.side_count = len(side_names)
        self.dealer.choices = choices(seats)
        self.last_trick.choices = choices(enumerate(side_names))
        for suit in SUITS:
            getattr(self, f"cante_{suit}").choices = choices([(NOBODY, "")] + [(str(s), n) for s, n in seats])
        self.tute_seat.choices = choices([(NOBODY, "")] + [(str(s), n) for s, n in seats])
        return self

    def points_fields(self) -> list[Field]:
        """Return the card points fields, one per side of the table."""
        return [getattr(self, f"points{side}") for side in range(self.side_count)]

    def cante_fields(self) -> list[Field]:
        """Return the cante selects, one per suit."""
        return [getattr(self, f"cante_{suit}") for suit in SUITS]

    def to_bids(self, cards: int | None = None) -> dict[str, Any]:
        """Return the deal as it stands before play: in Tute, where nothing is bid, the whole deal."""
        return self.to_deal(cards)

    def carried_fields_refused(self) -> bool:
        """Tell whether fields the page carries unseen were refused: this form shows every field."""
        return False

    def to_deal(self, cards: int | None = None) -> dict[str, Any]:
        """Return the deal the form describes, as a match document holds it (`cards` is Pocha's alone)."""
        deal: dict[str, Any] = {"dealer": self.dealer.data, "trump": self.trump.data}
        declared = self.tute_seat.data not in (None, NOBODY)
        points: list[int | None] = [field.data for field in self.points_fields()]
        blank = [side for side, value in enumerate(points) if value is None]
        self.filled_side = None
        if declared:
            if len(blank) < len(points):
                deal["points"] = [value or 0 for value in points]
        else:
            if len(blank) == 1:
                # The one side left blank holds the rest of the deck (for impossible points still
                # 120 minus the others, for the engine to refuse).
                self.filled_side = blank[0]
                points[blank[0]] = DECK_POINTS - sum(value or 0 for value in points)
            deal["points"] = points
            deal["last_trick"] = self.last_trick.data
        deal["cantes"] = [
            {"seat": int(field.data), "suit": suit}
            for suit, field in zip(SUITS, self.cante_fields())
            if field.data not in (None, NOBODY)
        ]
        if declared:
            deal["tute"] = {"seat": int(self.tute_seat.data), "kind": self.tute_kind.data}
        return deal

    def load(self, deal: Mapping[str, Any]) -> None:
        """Show a stored deal in the form, for editing."""
        self.dealer.data = deal.get("dealer")
        self.trump.data = deal.get("trump")
        points = deal.get("points") or [None] * self.side_count
        for field, value in zip(self.points_fields(), points):
            field.data = value
        self.last_trick.data = deal.get("last_trick")
        for cante in deal.get("cantes") or []:
            getattr(self, f"cante_{cante['suit']}").data = str(cante["seat"])
        tute = deal.get("tute")
        if tute:
            self.tute_seat.data, self.tute_kind.data = str(tute["seat"]), tute["kind"]

    def error_fields(self) -> dict[str, str]:
        """Map the engine's fields to this form's."""
        fields = {
            "dealer": "dealer",
            "trump": "trump",
            "points": "@points",
            "last_trick": "last_trick",
            "tute": "tute_seat",
            "tute.seat": "tute_seat",
            "tute.kind": "tute_kind",
        }
        fields.update({f"points.{side}": f"points{side}" for side in range(self.side_count)})
        filled = getattr(self, "filled_side", None)
        if filled is not None:
            # The side the form filled in as 120 minus the typed one is wrong only because the
            # typed one is: its message would repeat the other's at a field the user did not touch.
            fields[f"points.{filled}"] = "@filled_points"
        sung = [suit for suit, field in zip(SUITS, self.cante_fields()) if field.data not in (None, NOBODY)]
        for index, suit in enumerate(sung):
            fields[f"cantes.{index}"] = f"cante_{suit}"
        return fields


class PochaDealForm(DealForm):
    """A Pocha deal: its bids before play, its tricks after, or both when a deal is edited."""

    trump = RadioField(
        _l("Trump"), choices=choices([("none", "none")]) + SUIT_CHOICES, default="none", validators=[LeftEmpty()]
    )
    bids = FieldList(WholeNumberField(_l("Bid"), validators=[LeftEmpty()]), min_entries=2, max_entries=MAX_SEATS)
    tricks = FieldList(WholeNumberField(_l("Tricks"), validators=[LeftEmpty()]), min_entries=2, max_entries=MAX_SEATS)

    def setup(self, seat_names: Sequence[str]) -> PochaDealForm:
        """Fill the choices and rows that depend on the table."""
        self.dealer.choices = choices(enumerate(seat_names))
        for field_list in (self.bids, self.tricks):
            while len(field_list.entries) < len(seat_names):
                field_list.append_entry()
            while len(field_list.entries) > len(seat_names):
                field_list.pop_entry()
        return self

    def to_bids(self, cards: int | None) -> dict[str, Any]:
        """Return the deal's bidding (without tricks), as the engine's `check_bids` takes it.

        The cards in hand are the server's to say (the match's schedule), never the form's.
        """
        return {
            "dealer": self.dealer.data,
            "cards": cards,
            "trump": None if self.trump.data in (None, "none") else self.trump.data,
            "bids": [entry.data for entry in self.bids.entries],
        }

    def to_deal(self, cards: int | None) -> dict[str, Any]:
        """Return the whole deal, bids and tricks."""
        return {**self.to_bids(cards), "tricks": [entry.data for entry in self.tricks.entries]}

    def carried_fields_refused(self) -> bool:
        """Tell whether the bids carried along by the tricks form were refused (the user cannot see them)."""
        return bool(self.dealer.errors or self.trump.errors or any(entry.errors for entry in self.bids.entries))

    def load(self, deal: Mapping[str, Any]) -> None:
        """Show a stored deal (or pending bids) in the form."""
        self.dealer.data = deal.get("dealer")
        self.trump.data = deal.get("trump") or "none"
        for entry, value in zip(self.bids.entries, deal.get("bids") or []):
            entry.data = value
        for entry, value in zip(self.tricks.entries, deal.get("tricks") or []):
            entry.data = value

    def error_fields(self) -> dict[str, str]:
        """Map the engine's fields to this form's."""
        fields = {"dealer": "dealer", "trump": "trump", "tricks": "@tricks", "bids": "@bids"}
        for seat in range(len(self.bids.entries)):
            fields[f"bids.{seat}"] = f"bids-{seat}"
            fields[f"tricks.{seat}"] = f"tricks-{seat}"
        return fields


#: The declarer's choice that says nobody bid: everyone passed.
PASSED = "passed"


class AuctionDealForm(DealForm):
    """A Tute subastado deal: who won the auction (or that everyone passed), the bid, the trump, the
    declarer's card points, last trick and cantes, and a tute where the table plays it."""

    declarer = RadioField(_l("Won the auction"), validators=[LeftEmpty()])
    bid = WholeNumberField(_l("Bid"), validators=[LeftEmpty()])
    trump = RadioField(_l("Trump"), choices=SUIT_CHOICES, validators=[LeftEmpty()])
    points = WholeNumberField(_l("Card points"), validators=[LeftEmpty()])
    last_trick = BooleanField(_l("Took the last trick (las diez de últimas)"))
    cante_oros = BooleanField("oros")
    cante_copas = BooleanField("copas")
    cante_espadas = BooleanField("espadas")
    cante_bastos = BooleanField("bastos")
    #: Asked only where the table plays the tute: not posted, it is "no tute".
    tute_seat = SelectField(_l("Tute declared by"), default=NOBODY)
    tute_kind = RadioField(
        _l("Tute of"), choices=choices([("reyes", "reyes"), ("caballos", "caballos")]), validators=[LeftEmpty()]
    )

    def setup(self, seat_names: Sequence[str]) -> AuctionDealForm:
        """Fill the choices that depend on the table."""
        seats = [(str(seat), name) for seat, name in enumerate(seat_names)]
        self.dealer.choices = choices(enumerate(seat_names))
        self.declarer.choices = choices([*seats, (PASSED, PASSED)])
        self.tute_seat.choices = choices([(NOBODY, ""), *seats])
        self.declarer_values = {value for value, _name in seats} | {PASSED}
        return self

    def choose_declarer(self, value: str | None) -> None:
        """Show who won the auction (a seat's number, or "passed"), as chosen before the form opened."""
        if value in self.declarer_values:
            self.declarer.data = value

    def cante_fields(self) -> list[Field]:
        """Return the declarer's cante toggles, one per suit."""
        return [getattr(self, f"cante_{suit}") for suit in SUITS]

    def to_bids(self, cards: int | None = None) -> dict[str, Any]:
        """Return the whole deal: the auction is not entered before play."""
        return self.to_deal(cards)

    def carried_fields_refused(self) -> bool:
        """Tell whether fields the page carries unseen were refused: this form shows every field."""
        return False

    def to_deal(self, cards: int | None = None) -> dict[str, Any]:
        """Return the deal the form describes: a tute, a deal everyone passed, or a contract played."""
        deal: dict[str, Any] = {"dealer": self.dealer.data}
        if self.tute_seat.data not in (None, NOBODY):
            deal["tute"] = {"seat": int(self.tute_seat.data), "kind": self.tute_kind.data}
            return deal
        if self.declarer.data == PASSED:
            deal["passed"] = True
            return deal
        declarer = int(self.declarer.data) if self.declarer.data not in (None, "") else None
        deal.update(
            declarer=declarer,
            bid=self.bid.data,
            trump=self.trump.data,
            points=self.points.data,
            last_trick=bool(self.last_trick.data),
        )
        if declarer is not None:
            deal["cantes"] = [
                {"seat": declarer, "suit": suit} for suit, field in zip(SUITS, self.cante_fields()) if field.data
            ]
        return deal

    def load(self, deal: Mapping[str, Any]) -> None:
        """Show a stored deal in the form, for editing."""
        self.dealer.data = deal.get("dealer")
        if deal.get("passed"):
            self.declarer.data = PASSED
        elif deal.get("declarer") is not None:
            self.declarer.data = str(deal["declarer"])
        self.bid.data = deal.get("bid", self.bid.data)
        self.trump.data = deal.get("trump")
        self.points.data = deal.get("points")
        self.last_trick.data = deal.get("last_trick") is True
        for cante in deal.get("cantes") or []:
            getattr(self, f"cante_{cante['suit']}").data = True
        tute = deal.get("tute")
        if tute:
            self.tute_seat.data, self.tute_kind.data = str(tute["seat"]), tute["kind"]

    def error_fields(self) -> dict[str, str]:
        """Map the engine's fields to this form's: a cante to its suit's toggle, `passed` to the auction's winner."""
        fields = {
            "dealer": "dealer",
            "passed": "declarer",
            "declarer": "declarer",
            "bid": "bid",
            "trump": "trump",
            "points": "points",
            "last_trick": "last_trick",
            "cantes": "declarer",
            "tute": "tute_seat",
            "tute.seat": "tute_seat",
            "tute.kind": "tute_kind",
        }
        sung = [suit for suit, field in zip(SUITS, self.cante_fields()) if field.data]
        for index, suit in enumerate(sung):
            fields[f"cantes.{index}"] = f"cante_{suit}"
        return fields
