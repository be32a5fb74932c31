"""Helpers to start matches and enter deals through the HTML forms."""

from __future__ import annotations

from typing import Any

from ..conftest import Browser

TUTE_OPTIONS = {"opt_deck": "40", "opt_last_trick_bonus": "10", "opt_mode": "juegos", "opt_tute": "deal"}
POCHA_OPTIONS = {
    "opt_deck": "40",
    "opt_remove_twos": "y",
    "opt_schedule": "classic",
    "opt_hook": "y",
    "opt_exact_base": "10",
    "opt_per_trick": "5",
    "opt_miss_per_trick": "5",
}

SUBASTADO_OPTIONS = {"opt_made": "bid", "opt_failed": "lose", "opt_tute": "off"}


def start(browser: Browser, game: str, players: list[str], **extra: Any) -> Any:
    """Post the new-match form; return the response."""
    data: dict[str, Any] = dict({"pocha": POCHA_OPTIONS, "subastado": SUBASTADO_OPTIONS}.get(game, TUTE_OPTIONS))
    data.update({f"players-{i}": name for i, name in enumerate(players)})
    data.setdefault("first_dealer", "0")
    data.setdefault("leader", "0")
    data.update(extra)
    return browser.post(f"/matches/new/{game}", data=data)


def tute_form(
    points0: Any = 70,
    last_trick: Any = 0,
    *,
    number: int = 1,
    dealer: int = 0,
    trump: str = "oros",
    points1: Any = "",
    points2: Any = None,
    cantes: dict[str, int] | None = None,
    tute: tuple[int, str] | None = None,
) -> dict[str, Any]:
    """Return the fields of a Tute deal form."""
    data: dict[str, Any] = {
        "number": number,
        "dealer": dealer,
        "trump": trump,
        "points0": points0,
        "points1": points1,
        "last_trick": last_trick,
        "tute_seat": "",
    }
    if points2 is not None:
        data["points2"] = points2
    for suit in ("oros", "copas", "espadas", "bastos"):
        data[f"cante_{suit}"] = ""
    for suit, seat in (cantes or {}).items():
        data[f"cante_{suit}"] = str(seat)
    if tute:
        data["tute_seat"], data["tute_kind"] = str(tute[0]), tute[1]
    return data


def bids_form(bids: list[int], *, number: int, dealer: int, cards: int, trump: str = "none") -> dict[str, Any]:
    """Return the fields of a Pocha bids form."""
    data: dict[str, Any] = {"number": number, "dealer": dealer, "cards": cards, "trump": trump}
    data.update({f"bids-{seat}": bid for seat, bid in enumerate(bids)})
    return data


def tricks_form(
    bids: list[int], tricks: list[int], *, number: int, dealer: int, cards: int, trump: str = "none"
) -> dict[str, Any]:
    """Return the fields of a Pocha tricks form (the bids ride along as hidden fields)."""
    data = bids_form(bids, number=number, dealer=dealer, cards=cards, trump=trump)
    data.update({f"tricks-{seat}": t for seat, t in enumerate(tricks)})
    return data
