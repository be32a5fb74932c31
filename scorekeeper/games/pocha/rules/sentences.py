"""What Pocha's engine says when it refuses a deal or a house rule."""

from __future__ import annotations

from typing import Final

from ....rules.messages import N_, _plural, define

#: The sentences that say a count with its noun: by id, the parameter that holds the count, and
#: the sentence's singular and plural.
POCHA_PLURALS: Final = {
    "cards_schedule": (
        "scheduled",
        _plural(
            "Deal {number} is played with {scheduled} card each, not {cards}.",
            "Deal {number} is played with {scheduled} cards each, not {cards}.",
        ),
    ),
    "bid_range": (
        "cards",
        _plural(
            "{name}: a bid of {bid} is not possible with {cards} card in hand (0 to {cards}).",
            "{name}: a bid of {bid} is not possible with {cards} cards in hand (0 to {cards}).",
        ),
    ),
    "tricks_range": (
        "cards",
        _plural(
            "{name}: {tricks} tricks are not possible with {cards} card in hand (0 to {cards}).",
            "{name}: {tricks} tricks are not possible with {cards} cards in hand (0 to {cards}).",
        ),
    ),
    "bid_hook": (
        "cards",
        _plural(
            "{name} deals and bids last, and may not bid {bid}: the bids would add up to the {cards} card in hand, "
            "and everyone could make their bid.",
            "{name} deals and bids last, and may not bid {bid}: the bids would add up to the {cards} cards in hand, "
            "and everyone could make their bid.",
        ),
    ),
    "tricks_total": (
        "cards",
        _plural(
            "The tricks must add up to the {cards} card in hand; these add up to {total}.",
            "The tricks must add up to the {cards} cards in hand; these add up to {total}.",
        ),
    ),
    "schedule_complete": (
        "deals",
        _plural(
            "The schedule of {deals} deal is complete; no deal can be added.",
            "The schedule of {deals} deals is complete; no deal can be added.",
        ),
    ),
}

#: The sentences of its refusals, by a stable id (added to the catalogue every refusal is said from).
POCHA_MESSAGES: Final = define(
    {
        "pocha_trump": N_("The trump is one of oros, copas, espadas or bastos, or none."),
        "cards_missing": N_("Say how many cards each player was dealt."),
        "cards_range": N_("With {players} players each can be dealt 1 to {most} cards, not {cards}."),
        "bids_not_list": N_("Give the bid of each of the {players} players."),
        "tricks_not_list": N_("Give the tricks of each of the {players} players."),
        "schedule_range": N_("With {players} players each deal has 1 to {most} cards per player."),
    },
    POCHA_PLURALS,
)
