"""Known-nasty values for the hostile-input test, and generators of more from a random source.

Text values may hold lone surrogates: they stand for bytes that are not UTF-8 once encoded
(with "surrogatepass") in a form body. Path segments and raw query strings are already
URL-encoded text; everything else is encoded where it is used.
"""

from __future__ import annotations

import json
import random
from typing import Any

from .hostile_client import TOKEN_MARK

#: Names, usernames and free text: markup, SQL, control and invisible characters, text that
#: grows when case-folded, numbers in other scripts, lengths around the 40-character limit.
TEXT = [
    "<script>alert('x')</script>",
    '"><img src=x onerror=alert(1)>',
    "'; DROP TABLE matches; --",
    "1 OR 1=1",
    "%00",
    "\u202eevil",
    "٣",
    "²",
    "-1",
    "1e9",
    "99999999999999999999999",
    "NaN",
    "",
    " ",
    "\t",
    "x" * 5000,
    "\U0001f0a1" * 50,
    "0x10",
    "None",
    "null",
    "true",
    "[]",
    "{}",
    "\x00",
    "ana\x00",
    "\x7f\x1b[31m",
    "Ana",
    "ANA",
    "ａｎａ",
    "ß" * 40,
    "İ" * 40,
    "ﬃ" * 40,
    "a" * 40,
    "a" * 41,
    "\ufeff",
    "\u200b",
    "\ud800",
    "x\udcff",
    "\r\n",
    "{{ 7*7 }}",
    "{% raw %}",
    "${jndi:ldap://x}",
    "../../etc/passwd",
    " Luis",
    "Luis ",
    "e\u0301" * 30,
    "\u0301" * 100,
    "0",
    "-0",
    "1.0",
    "\ufb2c" * 14,
    "\ufb2c" * 200,
]
#: Notes: at the limit of 200 characters once composed (NFC), and past it only once composed, or
#: longer still once case-folded for the search (as in the names above, composing makes U+FB2C
#: three characters; case-folding makes ΐ three).
NOTES = [
    "x" * 200,
    "x" * 201,
    "\ufb2c" * 200,
    "\ufb2c" * 66,
    "\ufb2c" * 67,
    "\ufb2c" * 66 + "xy",
    "ΐ" * 200,
    "ﬃ" * 200,
    "e\u0301" * 150,
    "e\u0301" * 100,
    "\u0301" * 200,
    "ß" * 200,
    "At Carmen's",
    "",
    " ",
    None,
]
#: Text for fields that take a whole number: past 32 and 64 bits, past any float, infinities,
#: exponents (all of them numbers a loop or a list might be sized by)...
EXTREME_NUMBERS = [
    "999999999",
    "1000000000",
    "200000000",
    "2147483648",
    "9223372036854775808",
    "1" + "0" * 30,
    "9" * 5000,
    "1e9",
    "1e12",
    "1e309",
    "-1e309",
    "inf",
    "-inf",
    "Infinity",
    "nan",
    "NaN",
    "-2147483649",
]
#: ... and the edges of the game's numbers, signs, fractions, other digits and scripts, not numbers at all.
ODD_NUMBERS = [
    "0",
    "-1",
    "1",
    "2",
    "3",
    "7",
    "8",
    "10",
    "40",
    "48",
    "119",
    "120",
    "121",
    "1.5",
    "0.0",
    "-0",
    "+1",
    " 3 ",
    "٣",
    "²",
    "１",
    "0x10",
    "1_0",
    "",
    " ",
    "\t",
    "\n",
    " \r\n",
    "\u00a0",
    "x",
    "3\x00",
    "\x003",
]
#: Where to go after signing in or choosing a language: other sites, header injection, odd paths.
REDIRECTS = [
    "/",
    "/history",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example",
    "http:/evil.example",
    "javascript:alert(1)",
    "/\r\nLocation: https://evil.example",
    "/\r\nSet-Cookie: x=1",
    "/\nx",
    "/\rx",
    "/\r\n",
    "/history\r\nX-Injected: 1",
    "\r\n/",
    "/\x85x",
    "/\u2028x",
    "/\x00",
    "/%0D%0ALocation:x",
    "/" + "x" * 5000,
    "/é",
    "/\ud800",
    " /",
    "/login?next=/login",
    "",
    "\t/evil",
    "/?a=\r\n",
]
#: Dates for the leaderboard's range: the ends of the calendar (first), impossible days, other formats.
DATES = [
    "9999-12-31",
    "0001-01-01",
    "2024-01-01",
    "2024-02-29",
    "2023-02-29",
    "9999-12-30",
    "1970-01-01",
    "2024-13-01",
    "2024-1-1",
    "24-01-01",
    "+2024-01-01",
    "2024-01-01T00:00",
    "",
    "x",
    "9999-12-32",
    "10000-01-01",
    "0000-00-00",
    "٢٠٢٤-٠١-٠١",
]
#: Path segments (URL-encoded) for parameters: zero, negative, past 32 and 64 bits, not a number.
PATH_SEGMENTS = [
    "0",
    "-1",
    str(2**31),
    str(2**63),
    str(10**30),
    "x",
    "%00",
    "x" * 5000,
    "%2e%2e",
    "..",
    "%ff",
    "%25",
    "1%00",
    "1.0",
    "%EF%BC%91",
    "1;x",
    "01",
    "%201",
    "%0A",
    "1%2F2",
    "~",
    "%C0%AE",
    "%E2%80%AE1",
    "1" * 400,
]
#: Query strings (URL-encoded) that no form would send.
RAW_QUERIES = [
    "a=%zz",
    "&&&",
    "=x",
    "%00=%00",
    "x" * 5000,
    "next",
    "next=%0D%0A",
    ";",
    "a=1;b=2",
    "%ff%fe=%ff",
    "page=1&page=2&page=x",
    "next=/%0D%0ALocation:x",
    "to=9999-12-31",
    "cards=1e9",
    "a[]=1&a[x]=2",
]
#: The Accept-Language header: wildcards, impossible weights, long and non-ASCII values.
LANGUAGES = [
    "es",
    "es-ES,es;q=0.9",
    "*",
    "xx",
    ";q=",
    "es;q=2,en;q=nan",
    "a" * 5000,
    "\udcff",
    "en;q=1e309",
    "zh-Hant-TW-x-private",
    "nb-NO, it;q=0.5",
    ",,,",
    "es;q=-1",
]
#: Authorization headers that are not quite a working token (TOKEN_MARK stands for the script's real one).
AUTHORIZATIONS = [
    "Bearer",
    "Bearer ",
    "Bearer x",
    "Basic YW5hOmE=",
    "Bearer " + "x" * 5000,
    "Bearer \x00",
    f"Token {TOKEN_MARK}",
    f"Bearer {TOKEN_MARK}x",
    f"bearer {TOKEN_MARK}",
    f"Bearer  {TOKEN_MARK} ",
    "Bearer sk_" + "0" * 64,
    "Bearer \udcff",
]
#: Cookies a browser did not get from the app.
COOKIES = [
    "session=x",
    "session=" + "a" * 4000,
    "remember_token=1|abc",
    "remember_token=%00",
    "session=.eJw.x.y",
    "=",
    ";;;",
    "session=eyJfdXNlcl9pZCI6IjEifQ.x.y",
    "remember_token=" + "9" * 50 + "|x",
]
#: If-Match headers for a corrected deal.
IF_MATCHES = [
    "v1",
    '"v1"',
    'W/"v1"',
    "*",
    '"v99999999999999999999"',
    '"v-1"',
    '"x"',
    '"v1", "v2"',
    '""',
    '"v1',
    '"v' + "9" * 5000 + '"',
    '"v٣"',
]
#: Idempotency keys a phone would not make.
IDEMPOTENCY_KEYS = ["", " ", "k" * 100, "k" * 101, "k" * 5000, "\x00", "a\tb", "é", "\x7f", "\udcff"]
#: Content types, right and wrong, for any body.
CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=latin-1",
    "application/json; charset=utf-16",
    "text/json",
    "application/merge-patch+json",
    "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded; charset=utf-16",
    "multipart/form-data",
    "multipart/form-data; boundary=",
    "multipart/form-data; boundary=x",
    "text/plain",
    "application/xml",
    "",
    "*/*",
]
#: JSON (or nearly JSON) bodies: the wrong shape, numbers past any float, nesting past any parser.
JSON_BODIES = [
    b"[1, 2]",
    b'"ab"',
    b"5",
    b"null",
    b"true",
    b"NaN",
    b"-Infinity",
    b"1e309",
    b"1" + b"0" * 400,
    b"1" + b"0" * 5000,
    b"[" * 100_000,
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 20_000 + b"1" + b"}" * 20_000,
    b"{}",
    b"[]",
    b"",
    b" ",
    b"\xef\xbb\xbf{}",
    b'{"a": 1,}',
    b"{'a': 1}",
    b'{"a": 1}{"b": 2}',
    b'{"username": 5, "password": 5}',
    b'{"username": ["ana"], "password": {"x": 1}}',
    b'{"username": null}',
    b'{"csrf_token": 1}',
    b'"\\ud800"',
    b'{"\\u0000": 1}',
    b"\xff\xfe{}",
    b'{"a": "\xff"}',
    b'{"game": "tute2", "game": "pocha"}',
    b"1e99999",
    b"-0",
    b"0.1e-400",
    b'{"players": ' + b"[" * 5000 + b"]" * 5000 + b"}",
]
#: Bodies that are not what any route reads.
RAW_BODIES = [
    b"",
    b"\x00" * 64,
    b"\xff\xfe\xfd",
    b"a=1&a=2&&=&%zz=%",
    b"--x\r\n\r\n",
    b"\r\n" * 100,
    "é".encode("latin-1"),
    b"x" * 100_000,
    b"<?xml version='1.0'?><a/>",
    b"%" * 1000,
]


class Raw(str):
    """Text to be put in JSON as it is, not as a string: a number no encoder writes, say."""


#: JSON values with no children: every type, the edges of numbers, numbers no encoder writes.
JSON_LEAVES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    120,
    2**31,
    2**63,
    -(2**63),
    10**30,
    10**400,
    0.5,
    -0.0,
    1e308,
    float("nan"),
    float("inf"),
    float("-inf"),
    Raw("1e309"),
    Raw("-1e309"),
    Raw("1" + "0" * 5000),
    Raw("1e-400"),
]
#: Keys of match documents and deals, for generated JSON.
DOCUMENT_KEYS = [
    "game",
    "players",
    "options",
    "deals",
    "dealer",
    "trump",
    "points",
    "last_trick",
    "cantes",
    "tute",
    "cards",
    "bids",
    "tricks",
    "number",
    "first_dealer",
    "seat",
    "suit",
    "kind",
    "x",
    "__proto__",
]


def text(rng: random.Random) -> str:
    """Return a known-nasty text, or random text of any length and script."""
    if rng.random() < 0.5:
        return rng.choice(TEXT)
    alphabet = rng.choice(
        [
            "abcdefghijklmnopqrstuvwxyz ",
            "\x00\x01\x1f\x7f\x85\u2028\ufffe\ud800\udfff",
            "áéíóúñçßİıﬃ\u0301\u200d\u202e",
            "🂡🃏👩‍👩‍👧\U0010ffff",
            "<>&\"'%{}$;\\/",
        ]
    )
    length = rng.choice([0, 1, 5, 39, 40, 41, 100, 1000])
    return "".join(rng.choices(alphabet, k=length))


def number(rng: random.Random) -> str:
    """Return text for a numeric field: an extreme number, an odd one, a small whole number, or a big one."""
    roll = rng.random()
    if roll < 0.35:
        return rng.choice(EXTREME_NUMBERS)
    if roll < 0.65:
        return rng.choice(ODD_NUMBERS)
    if roll < 0.9:
        return str(rng.randint(-3, 130))
    return rng.choice([str(rng.randint(-(2**70), 2**70)), f"{rng.uniform(-1e6, 1e6):.3f}", f"{rng.random():e}"])


def json_leaf(rng: random.Random) -> Any:
    """Return a JSON value with no children: any type, the edges of numbers, nasty text."""
    roll = rng.random()
    if roll < 0.2:
        return text(rng)
    if roll < 0.4:
        return number(rng)
    if roll < 0.5:
        return rng.randint(-5, 10)
    return rng.choice(JSON_LEAVES)


def json_value(rng: random.Random, depth: int = 0) -> Any:
    """Return a random JSON value: leaves, lists and objects with the keys of match documents."""
    roll = rng.random()
    if depth > 3 or roll < 0.5:
        return json_leaf(rng)
    if roll < 0.75:
        return [json_value(rng, depth + 1) for _ in range(rng.choice([0, 1, 2, 4]))]
    keys = [rng.choice(DOCUMENT_KEYS) if rng.random() < 0.8 else text(rng) for _ in range(rng.choice([0, 1, 3, 6]))]
    return {key: json_value(rng, depth + 1) for key in keys}


def json_bytes(value: Any, escaped: bool = True) -> bytes:
    """Return `value` as JSON bytes, NaN and infinities as Python writes them, `Raw` text as it is.

    Escaped, text outside ASCII is written as \\u escapes (a lone surrogate stays one, as valid
    JSON); else as UTF-8, where a lone surrogate makes the body invalid UTF-8.
    """
    raws: list[str] = []

    def stand_in(item: Any) -> Any:
        """Return `item` with each `Raw` replaced by a string that marks its place."""
        if isinstance(item, Raw):
            raws.append(str(item))
            return f"\x00raw{len(raws) - 1}\x00"
        if isinstance(item, list):
            return [stand_in(x) for x in item]
        if isinstance(item, dict):
            return {str(k): stand_in(v) for k, v in item.items()}
        return item

    encoded = json.dumps(stand_in(value), ensure_ascii=escaped)
    for index, raw in enumerate(raws):
        encoded = encoded.replace(f'"\\u0000raw{index}\\u0000"', raw)
    return encoded.encode("utf-8", "surrogatepass")


def raw_bytes(rng: random.Random) -> bytes:
    """Return a body of random bytes, or a known odd one."""
    if rng.random() < 0.5:
        return rng.choice(RAW_BODIES)
    return bytes(rng.randrange(256) for _ in range(rng.choice([1, 16, 300])))


def note(rng: random.Random) -> str | None:
    """Return a note: one of those that composing or case-folding makes longer, or any hostile text."""
    return rng.choice(NOTES) if rng.random() < 0.7 else text(rng)
