"""What the subastado's engine says when it refuses a deal or a house rule, beside Tute's sentences."""

from __future__ import annotations

from typing import Final

from ....rules.messages import N_, define

#: The sentences of its refusals, by a stable id (added to the catalogue every refusal is said from).
SUBASTADO_MESSAGES: Final = define(
    {
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
    },
)
