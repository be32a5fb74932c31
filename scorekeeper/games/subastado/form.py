"""The subastado's deal form: the auction, then play, and its translation to and from the engine's deals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import BooleanField, Field, RadioField, SelectField

from ...forms.deals import DealForm
from ...forms.fields import NOBODY, SUIT_CHOICES, LeftEmpty, WholeNumberField, choices
from ...i18n import lazy_gettext as _l
from ...rules import SUITS

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
