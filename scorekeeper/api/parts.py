"""The parts the OpenAPI document is built of: content, answers, shared responses and parameters, operations."""

from __future__ import annotations

from typing import Any

from ..games.kit.json_schema import Schema

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


def operation(
    operation_id: str,
    summary: str,
    description: str,
    responses: dict[str, Any],
    *,
    parameters: list[Schema] | None = None,
    body: Schema | None = None,
    body_description: str = "",
    examples: dict[str, Any] | None = None,
    tag: str = "matches",
) -> dict[str, Any]:
    """Return an operation of the document: its id, summary and description, answers (with 401, and
    400 and 413 for a body), parameters and body, under `tag`."""
    operation: dict[str, Any] = {
        "operationId": operation_id,
        "summary": summary,
        "description": description,
        "tags": [tag],
    }
    if parameters:
        operation["parameters"] = parameters
    if body is not None:
        operation["requestBody"] = {"required": True, "description": body_description, "content": content(body)}
        if examples:
            operation["requestBody"]["content"][JSON_TYPE]["examples"] = examples
    answers = dict(responses)
    answers["401"] = response("Unauthorized")
    if body is not None:
        answers.setdefault("400", response("NotJson"))
        answers["413"] = response("TooLarge")
    operation["responses"] = dict(sorted(answers.items()))
    return operation
