"""Bodies for the hostile-input test: a form's fields made hostile and sent form-encoded, as
JSON (with the CSRF token in a header), as multipart or as raw bytes; and, for the API,
match documents and deals made hostile, or JSON that is no document at all."""

from __future__ import annotations

import random
import re
import urllib.parse
from typing import Any

from . import hostile_corpus as corpus
from .hostile_client import API, CSRF_MARK
from .hostile_data import MatchFacts

Fields = list[tuple[str, str]]
Headers = list[tuple[str, str]]

#: Fields that hold a whole number (or a seat), whatever form they belong to.
NUMERIC_FIELD = re.compile(
    r"number|version|dealer|cards|points\d|last_trick|cante_\w+|tute_seat|first_dealer|leader"
    r"|(bids|tricks)-\d+|opt_(target|exact_base|per_trick|miss_per_trick|last_trick_bonus|deck)"
    r"|declarer|bid|points|(win|shared|other)_points|best_of|night_gap"
)
#: Fields that hold a day (a season's).
DAY_FIELD = re.compile(r"starts_on|ends_on")
#: Field names no form has.
UNKNOWN_FIELDS = [
    "x",
    "",
    "__class__",
    "players-99",
    "bids-8",
    "tricks--1",
    "opt_unknown",
    "a" * 300,
    "name[]",
    "é",
    "\x00",
    "csrf_token",
]
SCHEDULES = ["1 2 3", "5 5 5 5", "", "0", "-1", "99", "1e9", "1 " * 1000, "999999999 1", "٣", "1,2,3", "x"]
FORM_TYPE = "application/x-www-form-urlencoded"
JSON_TYPE = "application/json"


def field_value(name: str, rng: random.Random) -> str:
    """Return a hostile value for a form field, of the kind the field takes."""
    if name == "next":
        return rng.choice(corpus.REDIRECTS)
    if name == "schedule_list":
        return rng.choice(SCHEDULES)
    if name == "idempotency_key":
        return rng.choice(corpus.IDEMPOTENCY_KEYS)
    if name == "note":
        return corpus.note(rng) or ""
    if DAY_FIELD.fullmatch(name):
        return rng.choice(corpus.DATES) if rng.random() < 0.85 else corpus.text(rng)
    if NUMERIC_FIELD.fullmatch(name):
        return corpus.number(rng) if rng.random() < 0.85 else corpus.text(rng)
    return corpus.text(rng) if rng.random() < 0.85 else corpus.number(rng)


def mutate(fields: Fields, rng: random.Random, names: list[str]) -> Fields:
    """Return the fields with a few made hostile, dropped, repeated or added (or, at times, as they were)."""
    roll = rng.random()
    if roll < 0.15:
        return fields
    if roll > 0.9:  # every number at once at its extremes: the sizes of loops and lists
        return [
            (name, rng.choice(corpus.EXTREME_NUMBERS) if NUMERIC_FIELD.fullmatch(name) else value)
            for name, value in fields
        ]
    fields = list(fields)
    if rng.random() < 0.15:
        fields.append(("idempotency_key", f"k{rng.randrange(10**12)}"))
    for _ in range(1 if roll < 0.55 else rng.randint(2, 5)):
        operation = rng.random()
        if fields and operation < 0.7:
            index = rng.randrange(len(fields))
            fields[index] = (fields[index][0], field_value(fields[index][0], rng))
        elif fields and operation < 0.8:
            del fields[rng.randrange(len(fields))]
        elif fields and operation < 0.9:
            name = rng.choice(fields)[0]
            fields.insert(rng.randrange(len(fields) + 1), (name, field_value(name, rng)))
        else:
            name = rng.choice(names) if rng.random() < 0.7 else rng.choice(UNKNOWN_FIELDS)
            fields.append((name, field_value(name, rng)))
    return fields


def _quote(text: str) -> str:
    """Percent-encode form text; text that is not UTF-8 (lone surrogates) becomes bytes that are not either."""
    return urllib.parse.quote_plus(text, safe="", errors="surrogatepass")


def urlencoded(fields: Fields) -> bytes:
    """Return the fields form-encoded (text not valid as UTF-8 stays so)."""
    return "&".join(f"{_quote(name)}={_quote(value)}" for name, value in fields).encode()


def multipart(fields: Fields, rng: random.Random) -> tuple[str, bytes]:
    """Return a boundary and the fields as a multipart body, at times with a file among them."""
    boundary = f"----hostile{rng.randrange(10**9)}"
    parts: list[tuple[str, str | None, bytes]] = [
        (name, None, value.encode("utf-8", "surrogatepass")) for name, value in fields
    ]
    if rng.random() < 0.3:
        parts.append((rng.choice(["file", "name", "cards"]), rng.choice(corpus.TEXT), corpus.raw_bytes(rng)))
    body = b""
    for name, filename, content in parts:
        disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename is not None else "")
        body += (
            f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n".encode("utf-8", "surrogatepass")
            + content
            + b"\r\n"
        )
    return boundary, body + f"--{boundary}--\r\n".encode()


def _json_shaped(fields: Fields, rng: random.Random) -> Any:
    """Return the fields as a JSON object, numbers as numbers, some values of another JSON type."""
    shaped: dict[str, Any] = {}
    for name, value in fields:
        shaped[name] = int(value) if re.fullmatch(r"-?\d{1,30}", value) else value
        if rng.random() < 0.2:
            shaped[name] = corpus.json_leaf(rng)
    return shaped


def form_body(fields: Fields, mode: str, rng: random.Random) -> tuple[Headers, bytes | None]:
    """Return the headers and body of a post to a page: mostly a form with the session's CSRF token."""
    csrf_roll = rng.random()
    if mode == API:  # a script has no session, so no token of one
        csrf = "wrong" if csrf_roll < 0.3 else "missing"
    else:
        csrf = "valid" if csrf_roll < 0.85 else "wrong" if csrf_roll < 0.92 else "missing"
    token = {"valid": CSRF_MARK, "wrong": rng.choice(["x", CSRF_MARK + "x", "", "IjEi.x.y"]), "missing": None}[csrf]
    if token is not None:
        fields = [*fields]
        fields.insert(rng.randrange(len(fields) + 1), ("csrf_token", token))
    roll = rng.random()
    if roll < 0.65:
        content_type = FORM_TYPE if rng.random() < 0.95 else rng.choice(corpus.CONTENT_TYPES)
        return [("Content-Type", content_type)], urlencoded(fields)
    if roll < 0.8:
        headers = [("Content-Type", JSON_TYPE if rng.random() < 0.9 else rng.choice(corpus.CONTENT_TYPES))]
        if token is not None:
            headers.append(("X-CSRFToken", token))
        junk = rng.random()
        if junk < 0.5:
            return headers, corpus.json_bytes(_json_shaped(fields, rng), rng.random() < 0.7)
        if junk < 0.85:
            return headers, rng.choice(corpus.JSON_BODIES)
        return headers, corpus.json_bytes(corpus.json_value(rng), rng.random() < 0.7)
    if roll < 0.88:
        boundary, body = multipart(fields, rng)
        content_type = f"multipart/form-data; boundary={boundary}" if rng.random() < 0.9 else "multipart/form-data"
        return [("Content-Type", content_type)], body
    if roll < 0.95:
        return [("Content-Type", rng.choice(corpus.CONTENT_TYPES))], corpus.raw_bytes(rng)
    return [], None


# ---------------------------------------------------------------- the API


def tute_deal(seats: int, rng: random.Random) -> dict[str, Any]:
    """Return a Tute deal as the API takes it: card points for each side (each player alone at three)."""
    points = rng.randint(0, 120)
    second = rng.randint(0, 120 - points)
    shares = [points, 120 - points] if seats != 3 else [points, second, 120 - points - second]
    deal: dict[str, Any] = {
        "dealer": rng.randrange(seats),
        "trump": rng.choice(["oros", "copas", "espadas", "bastos"]),
        "points": shares,
        "last_trick": rng.randrange(len(shares)),
    }
    if rng.random() < 0.4:
        deal["cantes"] = [{"seat": rng.randrange(seats), "suit": rng.choice(["oros", "copas"])}]
    if rng.random() < 0.1:
        deal["tute"] = {"seat": rng.randrange(seats), "kind": rng.choice(["reyes", "caballos"])}
    return deal


def subastado_deal(seats: int, rng: random.Random) -> dict[str, Any]:
    """Return a deal of the subastado as the API takes it: a contract, or everyone passed."""
    dealer = rng.randrange(seats)
    if rng.random() < 0.15:
        return {"dealer": dealer, "passed": True}
    declarer = rng.randrange(seats)
    return {
        "dealer": dealer,
        "declarer": declarer,
        "bid": rng.choice([60, 80, 100, 230, 62, 55]),
        "trump": rng.choice(["oros", "copas", "espadas", "bastos"]),
        "points": rng.randint(0, 120),
        "last_trick": rng.random() < 0.5,
        "cantes": [{"seat": declarer, "suit": "oros"}] if rng.random() < 0.3 else [],
    }


def pocha_deal(seats: int, cards: int, rng: random.Random) -> dict[str, Any]:
    """Return a Pocha deal as the API takes it."""
    tricks = [0] * seats
    for _ in range(cards):
        tricks[rng.randrange(seats)] += 1
    return {
        "dealer": rng.randrange(seats),
        "cards": cards,
        "trump": rng.choice([None, "oros", "bastos"]),
        "bids": [rng.randint(0, cards) for _ in range(seats)],
        "tricks": tricks,
    }


def deal_for(game: str, seats: int, cards: int, rng: random.Random) -> dict[str, Any]:
    """Return a deal of `game` as the API takes it (`cards` in hand for Pocha's)."""
    if game == "pocha":
        return pocha_deal(seats, cards, rng)
    return subastado_deal(seats, rng) if game == "subastado" else tute_deal(seats, rng)


def match_document(rng: random.Random) -> dict[str, Any]:
    """Return a match document like a script would post, with a deal or two at times."""
    game = rng.choice(["tute2", "tute3", "tute4", "subastado", "pocha"])
    seats = {"tute2": 2, "tute3": 3, "tute4": 4, "subastado": rng.choice([3, 4])}.get(game) or rng.randint(2, 8)
    names = ["Ana", "Luis", "Carmen", "Diego", "Eva", "Félix", "Gema", "Hugo"][:seats]
    document: dict[str, Any] = {
        "game": game,
        "players": [corpus.text(rng) if rng.random() < 0.2 else name for name in names],
    }
    if rng.random() < 0.5:
        document["options"] = {
            "pocha": {"schedule": [1, 2, 1]},
            "subastado": {"players": seats, "target": rng.randint(1, 300)},
        }.get(game, {"target": rng.randint(1, 3)})
    if rng.random() < 0.4:
        document["deals"] = [deal_for(game, seats, 1, rng) for _ in range(rng.randint(1, 2))]
    if rng.random() < 0.3:
        document["first_dealer"] = rng.randrange(seats)
    return document


def json_mutate(value: Any, rng: random.Random) -> Any:
    """Return `value` with one part, somewhere inside it, replaced, dropped or added."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        copy = dict(value)
        key, operation = rng.choice(list(copy)), rng.random()
        if operation < 0.5:
            copy[key] = json_mutate(copy[key], rng)
        elif operation < 0.7:
            copy[key] = corpus.json_value(rng)
        elif operation < 0.85:
            del copy[key]
        else:
            copy[rng.choice(corpus.DOCUMENT_KEYS)] = corpus.json_value(rng)
        return copy
    if isinstance(value, list) and value and rng.random() < 0.8:
        items, index = list(value), rng.randrange(len(value))
        items[index] = json_mutate(items[index], rng) if rng.random() < 0.6 else corpus.json_value(rng)
        return items if rng.random() < 0.8 else items + [corpus.json_leaf(rng)]
    return corpus.json_leaf(rng) if rng.random() < 0.7 else corpus.json_value(rng)


def api_body(endpoint: str, method: str, match: MatchFacts | None, rng: random.Random) -> tuple[Headers, bytes | None]:
    """Return the headers and body of an API request: a document or deal made hostile, or junk."""
    headers: Headers = []
    if endpoint == "api.add_deal" and rng.random() < 0.3:
        headers.append(
            (
                "Idempotency-Key",
                f"key-{rng.randrange(10**9)}" if rng.random() < 0.6 else rng.choice(corpus.IDEMPOTENCY_KEYS),
            )
        )
    # Every change of a match may name the version it was read at: the prepared one's (current until
    # a request changes it), an older one, or anything at all.
    if method in ("POST", "PUT", "PATCH", "DELETE") and endpoint not in ("api.create_match",) and rng.random() < 0.5:
        roll = rng.random()
        condition = (
            match.etag
            if match and roll < 0.35
            else f'"v{rng.randint(0, 6)}"'
            if roll < 0.7
            else rng.choice(corpus.IF_MATCHES)
        )
        headers.append(("If-Match", condition))
    if method in ("GET", "HEAD", "DELETE", "OPTIONS") and rng.random() > 0.1:
        return headers, None
    headers.append(("Content-Type", JSON_TYPE if rng.random() < 0.85 else rng.choice(corpus.CONTENT_TYPES)))
    roll = rng.random()
    if roll < 0.3:
        return headers, rng.choice(corpus.JSON_BODIES) if rng.random() < 0.8 else corpus.raw_bytes(rng)
    if roll < 0.4:
        return headers, corpus.json_bytes(corpus.json_value(rng), rng.random() < 0.7)
    if endpoint == "api.change_match":
        document: Any = {"note": corpus.note(rng)}
    elif endpoint in ("api.add_deal", "api.replace_deal"):
        game = match.game if match else rng.choice(["tute2", "tute3", "tute4", "subastado", "pocha"])
        seats = match.seats if match else 2
        document = deal_for(game, seats, (match.next_cards if match else None) or 1, rng)
        if endpoint == "api.add_deal" and rng.random() < 0.8:
            document["number"] = (match.deals + 1 if match else 1) + rng.choice([0, 0, 0, 1, -1])
    else:
        document = match_document(rng)
        if rng.random() < 0.3:
            document["note"] = corpus.note(rng)
    for _ in range(0 if roll < 0.55 else rng.randint(1, 3)):
        document = json_mutate(document, rng)
    return headers, corpus.json_bytes(document, rng.random() < 0.7)
