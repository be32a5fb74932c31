"""The parts the OpenAPI document is built of: content, answers, shared responses and parameters."""

from __future__ import annotations

from typing import Any

from ..games.json_schema import Schema

JSON_TYPE = "application/json"
#: The control characters an idempotency key may not hold, as a regular-expression class body.


def content(schema: Schema) -> dict[str, Any]:
    return {JSON_TYPE: {"schema": schema}}


def answer(description: str, schema: Schema, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": description, "content": content(schema)}
    if headers:
        answer["headers"] = headers
    return answer


def response(name: str) -> Schema:
    return {"$ref": f"#/components/responses/{name}"}


def parameter(name: str) -> Schema:
    return {"$ref": f"#/components/parameters/{name}"}


ETAG = {
    "ETag": {
        "description": "The version of the match read and a digest of the answer: send it back as "
        "`If-Match` with any change (`PATCH`, `POST`, `PUT`, `DELETE`), or as "
        "`If-None-Match` with a `GET`.",
        "required": True,
        "schema": {"type": "string", "pattern": '^"v[0-9]+-[0-9a-f]{16}"$'},
    }
}
