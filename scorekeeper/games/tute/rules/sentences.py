"""What Tute's engine says when it refuses a deal or a house rule (the subastado says it too)."""

from __future__ import annotations

from typing import Final

from ....rules.messages import N_, _plural, define

#: The sentences that say a count with its noun: by id, the parameter that holds the count, and
#: the sentence's singular and plural.
TUTE_PLURALS: Final = {
    "points_impossible": (
        "points",
        _plural(
            "A side cannot capture {points} card point: any total from 0 to 120 except 1 and 119.",
            "A side cannot capture {points} card points: any total from 0 to 120 except 1 and 119.",
        ),
    ),
}

#: The sentences of its refusals, by a stable id (added to the catalogue every refusal is said from).
TUTE_MESSAGES: Final = define(
    {
        "trump_missing": N_("Choose the trump suit: oros, copas, espadas or bastos."),
        "tute_not_object": N_("A tute names the seat that holds it and its kind (reyes or caballos)."),
        "tute_seat_missing": N_("A tute names the seat that holds it."),
        "seat_missing": N_("There is no seat {seat} at this table."),
        "tute_kind": N_("A tute is of all four Reyes (reyes) or all four Caballos (caballos)."),
        "tute_off": N_("This table does not play the tute (house rule 'tute' is off)."),
        "points_not_pair": N_("Card points must be two whole numbers, one for each side."),
        "points_not_list": N_("Card points must be {count} whole numbers, one for each player."),
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
        "target_juegos": N_("In juegos mode the target is a whole number of juegos from 1 to {most}."),
    },
    TUTE_PLURALS,
)
