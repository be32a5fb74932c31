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
PLURALS: Final[dict[str, tuple[str, tuple[str, str]]]] = {}


def sentence(message_id: str, params: Mapping[str, object]) -> str:
    """Return the English template of a sentence: the singular of a counted one whose count is 1."""
    counted = PLURALS.get(message_id)
    if counted is not None and params.get(counted[0]) == 1:
        return counted[1][0]
    return MESSAGES[message_id]


#: The sentences of any match, whatever its game, by id.
COMMON: Final[Mapping[str, str]] = {
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
    # any deal
    "deal_not_object": N_("Deal {number} must be an object of fields."),
    "deal_unknown_field": N_("Deal {number} has an unknown field '{key}'."),
    "dealer_not_seat": N_("The dealer must be given as a seat number."),
    "dealer_out_of_range": N_("The dealer must be one of the {players} players at this table."),
    # any match
    "tute_match_over": N_("The match ended with deal {last}; no deal can be added."),
    "match_abandoned": N_("This match was abandoned; no deal can be added or changed."),
}
#: Every sentence by its id: those of any match, and each game's, added by its rules (`define`).
MESSAGES: Final[dict[str, str]] = dict(COMMON)


def define(
    messages: Mapping[str, str], plurals: Mapping[str, tuple[str, tuple[str, str]]] | None = None
) -> Mapping[str, str]:
    """Add a game's sentences, and those of them that say a count (`plurals`, kept by their plural),
    to the catalogue every refusal is said from; return them all. A game's rules define theirs as
    they are imported; an id already given another sentence is refused."""
    counted = dict(plurals or {})
    added = {**messages, **{key: forms[1] for key, (_, forms) in counted.items()}}
    for key, text in added.items():
        if MESSAGES.get(key, text) != text:
            raise ValueError(f"the sentence {key!r} is already defined otherwise")
    MESSAGES.update(added)
    PLURALS.update(counted)
    return added
