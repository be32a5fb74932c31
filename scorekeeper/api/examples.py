"""What the OpenAPI document shows beside the operations: the links from an answer to the next
operations, and sample bodies (which also give Schemathesis requests that the rules accept)."""

from __future__ import annotations

from typing import Any

ID_FROM_BODY = "$response.body#/id"
#: What a client can do next with the match it was answered, and where the link's values come from.
LINKS: dict[str, Any] = {
    "ReadMatch": {
        "operationId": "getMatch",
        "parameters": {"match_id": ID_FROM_BODY},
        "description": "Read the match again.",
    },
    "AddDeal": {
        "operationId": "addDeal",
        "parameters": {"match_id": ID_FROM_BODY},
        "description": "Add the match's next deal.",
    },
    "CorrectFirstDeal": {
        "operationId": "replaceDeal",
        "parameters": {"match_id": ID_FROM_BODY, "number": "$response.body#/result/deals/0/number"},
        "description": "Correct the match's first deal.",
    },
    "DeleteThisDeal": {
        "operationId": "deleteDeal",
        "parameters": {"match_id": ID_FROM_BODY, "number": "$request.body#/number"},
        "description": "Delete the deal just added (when it was sent with its `number`).",
    },
}

#: Sample bodies, which also give Schemathesis requests that the rules accept.
TUTE_DEAL = {
    "dealer": 0,
    "trump": "copas",
    "points": [78, 42],
    "last_trick": 0,
    "cantes": [{"seat": 0, "suit": "oros"}, {"seat": 1, "suit": "copas"}],
}
NEW_MATCHES = {
    "tute2": {"summary": "Tute for two, first to 3 juegos", "value": {"game": "tute2", "players": ["Ana", "Luis"]}},
    "imported": {
        "summary": "A Tute match imported with its deals",
        "value": {
            "game": "tute2",
            "players": ["Ana", "Luis"],
            "options": {"double_over_100": True},
            "deals": [TUTE_DEAL],
        },
    },
    "pocha": {
        "summary": "Pocha for four, Carmen dealing first",
        "value": {"game": "pocha", "players": ["Ana", "Luis", "Carmen", "Pablo"], "first_dealer": 2},
    },
    "noted": {
        "summary": "Tute for four, with a note",
        "value": {"game": "tute4", "players": ["Ana", "Luis", "Carmen", "Pablo"], "note": "At Carmen's"},
    },
}
DEALS = {
    "tute": {"summary": "A Tute deal, the first of its match", "value": {**TUTE_DEAL, "number": 1}},
    "tute_stopped": {
        "summary": "A Tute deal stopped by a tute of Caballos",
        "value": {"dealer": 1, "trump": "oros", "tute": {"seat": 0, "kind": "caballos"}},
    },
    "pocha": {
        "summary": "A Pocha deal of one card each, for three",
        "value": {"dealer": 0, "cards": 1, "trump": "espadas", "bids": [1, 0, 1], "tricks": [1, 0, 0]},
    },
}
