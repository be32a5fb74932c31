"""Every sentence the rules engine says to players, by a stable id.

The engine formats these English templates itself; an app that speaks other languages
translates the template (its msgid is the English text, marked with `N_`) and formats
it with the same `params`, which each `RuleError` carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final


def N_(text: str) -> str:
    """Mark `text` for translation catalogues; return it unchanged."""
    return text


def _plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a sentence's singular and plural for translation catalogues (as `_plural:1,2`); return both."""
    return singular, plural


#: The sentences that say a count with its noun ("1 card", "2 cards"): by id, the parameter that
#: holds the count, and the sentence's singular and plural. `MESSAGES` holds their plural.
PLURALS: Final[Mapping[str, tuple[str, tuple[str, str]]]] = {
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
    "points_impossible": (
        "points",
        _plural(
            "A side cannot capture {points} card point: any total from 0 to 120 except 1 and 119.",
            "A side cannot capture {points} card points: any total from 0 to 120 except 1 and 119.",
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


def sentence(message_id: str, params: Mapping[str, object]) -> str:
    """Return the English template of a sentence: the singular of a counted one whose count is 1."""
    counted = PLURALS.get(message_id)
    if counted is not None and params.get(counted[0]) == 1:
        return counted[1][0]
    return MESSAGES[message_id]


MESSAGES: Final[Mapping[str, str]] = {
    # the document
    "match_not_object": N_("A match is an object with its game, players, house rules and deals."),
    "match_unknown_field": N_("A match has no field '{key}'."),
    "deals_not_list": N_("The deals must be a list."),
    "game_missing": N_("Say which game is played: {games}."),
    "game_unknown": N_("There is no game '{name}' here: choose one of {games}."),
    "players_not_list": N_("The players must be a list of names in seat order."),
    "player_name_missing": N_("Seat {seat} needs a player's name."),
    "player_duplicate": N_("{name} is already at this table."),
    "players_count": N_("{game} is played by {wanted} players, not {count}."),
    "bids_not_pocha": N_("Only Pocha has bids."),
    # house rules
    "options_not_object": N_("House rules must be given as an object of names and values."),
    "option_unknown": N_("'{name}' is not a house rule of this game (known: {known})."),
    "option_value": N_("House rule '{name}' must be {allowed}."),
    "target_juegos": N_("In juegos mode the target is a whole number of juegos from 1 to {most}."),
    "schedule_range": N_("With {players} players each deal has 1 to {most} cards per player."),
    # any deal
    "deal_not_object": N_("Deal {number} must be an object of fields."),
    "deal_unknown_field": N_("Deal {number} has an unknown field '{key}'."),
    "dealer_not_seat": N_("The dealer must be given as a seat number."),
    "dealer_out_of_range": N_("The dealer must be one of the {players} players at this table."),
    # Tute deals
    "trump_missing": N_("Choose the trump suit: oros, copas, espadas or bastos."),
    "tute_not_object": N_("A tute names the seat that holds it and its kind (reyes or caballos)."),
    "tute_seat_missing": N_("A tute names the seat that holds it."),
    "seat_missing": N_("There is no seat {seat} at this table."),
    "tute_kind": N_("A tute is of all four Reyes (reyes) or all four Caballos (caballos)."),
    "tute_off": N_("This table does not play the tute (house rule 'tute' is off)."),
    "points_not_pair": N_("Card points must be two whole numbers, one for each side."),
    "points_not_list": N_("Card points must be {count} whole numbers, one for each player."),
    "points_impossible": PLURALS["points_impossible"][1][1],
    "points_total": N_("The card points must add up to 120; these add up to {total}."),
    "points_total_tute": N_(
        "After a tute of {kind} the card points add up to at most {most}: the declarer still "
        "holds the four. These add up to {total}."
    ),
    "last_trick_after_tute": N_("No side takes the last trick in a deal stopped by a tute."),
    "last_trick_missing": N_("Say which side took the last trick."),
    "last_trick_not_side": N_("The last trick must be given as a side number (0 or 1)."),
    "last_trick_not_seat": N_("The last trick must be given as a player's seat number, from 0 to {most}."),
    "last_trick_out_of_range": N_("The last trick goes to {first} or to {second}."),
    "cantes_not_list": N_("Cantes must be a list, each with a seat and a suit."),
    "cante_not_object": N_("Each cante names the seat that sang it and the suit."),
    "cante_seat_missing": N_("Each cante names the seat that sang it."),
    "cante_after_tute": N_("{singer} cannot have sung: {holder} holds all four {kind}."),
    "cante_suit": N_("A cante is sung in one suit: oros, copas, espadas or bastos."),
    "cante_suit_twice": N_("{suit} can be sung only once a deal: there is one Rey and one Caballo of it."),
    "tute_match_over": N_("The match ended with deal {last}; no deal can be added."),
    "match_abandoned": N_("This match was abandoned; no deal can be added or changed."),
    # Pocha deals
    "pocha_trump": N_("The trump is one of oros, copas, espadas or bastos, or none."),
    "cards_missing": N_("Say how many cards each player was dealt."),
    "cards_range": N_("With {players} players each can be dealt 1 to {most} cards, not {cards}."),
    "cards_schedule": PLURALS["cards_schedule"][1][1],
    "bids_not_list": N_("Give the bid of each of the {players} players."),
    "tricks_not_list": N_("Give the tricks of each of the {players} players."),
    "bid_range": PLURALS["bid_range"][1][1],
    "tricks_range": PLURALS["tricks_range"][1][1],
    "bid_hook": PLURALS["bid_hook"][1][1],
    "tricks_total": PLURALS["tricks_total"][1][1],
    "schedule_complete": PLURALS["schedule_complete"][1][1],
    # Tute subastado deals
    "bids_none": N_("No bid from {low} to {high} goes up in steps of {step}: lower the lowest bid or the step."),
    "players_option": N_("This table is set for {wanted} players (house rule 'players'), not {count}."),
    "passed_not_bool": N_("Say whether everyone passed: true or false."),
    "passed_with_contract": N_("Everyone passed: a deal without a declarer records only its dealer."),
    "tute_deal_only": N_("A deal stopped by a tute records only its dealer and the tute."),
    "declarer_missing": N_("Say who won the auction."),
    "declarer_not_seat": N_("The declarer must be given as a seat number."),
    "declarer_out_of_range": N_("The declarer must be one of the {players} players at this table."),
    "bid_missing": N_("Say the winning bid, in points."),
    "auction_bid_range": N_("A bid is from {low} to {high} points, not {bid}."),
    "auction_bid_step": N_("Bids go up in steps of {step} points: {bid} is not one of them."),
    "declarer_points_missing": N_("Give the declarer's card points, a whole number from 0 to 120."),
    "last_trick_declarer": N_("Say whether the declarer took the last trick."),
    "cante_not_declarer": N_("{singer} cannot have sung: only {declarer}, who won the auction, sings."),
}
