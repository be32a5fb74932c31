"""The OpenAPI document at /api/v1/openapi.json stays true: every route and method of the API
is in it and nothing else, it is valid OpenAPI 3.1, and the API's real answers match it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from jsonschema import Draft202012Validator
from openapi_spec_validator import OpenAPIV31SpecValidator, validate

from scorekeeper.registry import CODES, GAMES, get_game
from scorekeeper.rules import SUITS

from ..conftest import signed_in
from .matchhelpers import tute_form
from .test_api import DEAL, TUTE, Api, api  # noqa: F401  (the fixture)

API = "/api/v1"
DOCUMENT = f"{API}/openapi.json"
#: Methods every route answers by itself, which the document leaves out.
IMPLICIT = {"HEAD", "OPTIONS"}
POCHA = {"game": "pocha", "players": ["Ana", "Luis", "Carmen"]}
POCHA_DEAL = {"dealer": 0, "cards": 1, "trump": "espadas", "bids": [1, 0, 1], "tricks": [1, 0, 0]}


@pytest.fixture
def document(app: Flask) -> dict[str, Any]:
    response = app.test_client().get(DOCUMENT)
    assert response.status_code == 200 and response.mimetype == "application/json"
    body: dict[str, Any] = response.get_json()
    return body


def routes(app: Flask) -> dict[str, set[str]]:
    """Return the API's routes as the document names them (`/matches/{match_id}`), with their methods."""
    found: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule.removeprefix(API))
            found.setdefault(path, set()).update(rule.methods - IMPLICIT)
    return found


def documented(document: dict[str, Any]) -> dict[str, set[str]]:
    methods = {"get", "put", "post", "delete", "patch", "options", "head", "trace"}
    return {path: {m.upper() for m in item if m in methods} for path, item in document["paths"].items()}


def test_the_document_is_served_without_a_token_and_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1.")
    validate(document, cls=OpenAPIV31SpecValidator)
    assert document["servers"] == [{"url": API}]


def test_every_route_of_the_api_is_documented_with_exactly_its_methods(app: Flask, document: dict[str, Any]) -> None:
    assert documented(document) == routes(app)
    for path, item in document["paths"].items():
        variables = set(re.findall(r"{([^}]+)}", path))
        for operation in item.values():
            parameters = [resolve(document, p) for p in operation.get("parameters", [])]
            named = {p["name"] for p in parameters if p["in"] == "path"}
            assert named == variables, (path, operation["operationId"])


def test_every_operation_but_the_document_needs_the_token(document: dict[str, Any]) -> None:
    assert document["security"] == [{"bearer": []}]
    assert document["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "An API token of the account.",
    }
    for path, item in document["paths"].items():
        for operation in item.values():
            assert ("security" in operation) == (path == "/openapi.json")
            assert ("401" in operation["responses"]) == (path != "/openapi.json")


def test_the_enums_are_those_of_the_rules_engine(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    errors = schemas["RuleErrors"]["properties"]["errors"]["items"]["properties"]
    assert errors["code"]["enum"] == CODES
    assert schemas["Result"]["properties"]["game"]["enum"] == list(GAMES)
    for game in GAMES:
        new = schemas[f"New{game.capitalize()}Match"]
        assert new["properties"]["game"] == {"const": game}
        options = new["properties"]["options"]["anyOf"][0]["properties"]
        assert list(options) == [spec.name for spec in get_game(game).option_specs]
    tute = schemas["Tute4MatchDocument"]["properties"]["deals"]["items"]
    assert tute["properties"]["trump"]["enum"] == list(SUITS)
    assert tute["properties"]["points"]["items"]["not"] == {"enum": [1, 119]}


def test_the_examples_match_their_schemas_and_the_api_takes_them(
    app: Flask, api: Api, document: dict[str, Any]
) -> None:
    new = document["paths"]["/matches"]["post"]["requestBody"]["content"]["application/json"]
    for example in new["examples"].values():
        check_schema(document, new["schema"], example["value"])
        assert api.post(f"{API}/matches", example["value"]).status_code == 201
    deals = document["paths"]["/matches/{match_id}/deals"]["post"]["requestBody"]["content"]["application/json"]
    for name, example in deals["examples"].items():
        check_schema(document, deals["schema"], example["value"])
        match_id = api.post(f"{API}/matches", POCHA if name == "pocha" else TUTE).get_json()["id"]
        assert api.post(f"{API}/matches/{match_id}/deals", example["value"]).status_code == 201, name


def test_real_answers_match_the_document(app: Flask, api: Api, document: dict[str, Any]) -> None:
    def check(response: Any, path: str, method: str) -> Any:
        return check_answer(document, response, path, method)

    tute = check(api.post(f"{API}/matches", {**TUTE, "deals": [DEAL], "first_dealer": 0}), "/matches", "post")
    pocha = check(api.post(f"{API}/matches", {**POCHA, "options": {"schedule": [1, 2]}}), "/matches", "post")
    added = check(
        api.post(f"{API}/matches/{pocha['id']}/deals", {**POCHA_DEAL, "number": 1}), "/matches/{match_id}/deals", "post"
    )
    assert added["result"]["next_cards"] == 2
    read = api.get(f"{API}/matches/{tute['id']}")
    check(read, "/matches/{match_id}", "get")
    corrected = api.client.put(
        f"{API}/matches/{tute['id']}/deals/1",
        json={**DEAL, "points": [0, 120], "last_trick": 1, "cantes": []},
        headers={**api.headers, "If-Match": read.headers["ETag"]},
    )
    assert check(corrected, "/matches/{match_id}/deals/{number}", "put")["result"]["juegos"] == [0, 1]
    check(api.delete(f"{API}/matches/{tute['id']}/deals/1"), "/matches/{match_id}/deals/{number}", "delete")
    listed = api.get(f"{API}/matches?per_page=1")
    check(listed, "/matches", "get")
    assert listed.headers["X-Total-Count"] == "2" and 'rel="next"' in listed.headers["Link"]
    whole = api.get(f"{API}/matches")
    assert len(check(whole, "/matches", "get")) == 2 and "Link" not in whole.headers

    refused = check(
        api.post(f"{API}/matches/{tute['id']}/deals", {**DEAL, "points": [70, 60]}), "/matches/{match_id}/deals", "post"
    )
    assert refused["errors"][0]["code"] == "points_total"
    assert (
        check(api.post(f"{API}/matches", {"game": "mus", "players": []}), "/matches", "post")["errors"][0]["code"]
        == "game_unknown"
    )
    check(api.get(f"{API}/matches/999"), "/matches/{match_id}", "get")
    check(api.put(f"{API}/matches/{tute['id']}/deals/9", DEAL), "/matches/{match_id}/deals/{number}", "put")
    check(app.test_client().get(f"{API}/matches"), "/matches", "get")
    check(api.client.post(f"{API}/matches", data="game=tute2", headers=api.headers), "/matches", "post")
    check(
        api.post(f"{API}/matches/{pocha['id']}/deals", {**POCHA_DEAL, "number": 1}), "/matches/{match_id}/deals", "post"
    )
    check(
        api.client.post(
            f"{API}/matches", data="x" * (3 * 1024 * 1024), headers={**api.headers, "Content-Type": "application/json"}
        ),
        "/matches",
        "post",
    )


def test_a_page_that_is_not_a_whole_number_from_1_answers_400(api: Api, document: dict[str, Any]) -> None:
    for query in ("page=0", "page=abc", "per_page=-1", "per_page=1.5", "page=", "page=%C2%B2", "per_page=%20"):
        answer = api.get(f"{API}/matches?{query}")
        assert answer.status_code == 400, query
        assert "a whole number from 1" in check_answer(document, answer, "/matches", "get")["message"]


def test_pages_past_the_last_are_empty_and_a_page_holds_at_most_100(api: Api, document: dict[str, Any]) -> None:
    api.post(f"{API}/matches", TUTE)
    for page in ("2", "9" * 20, "0" * 5000 + "7"):
        answer = api.get(f"{API}/matches?page={page}")
        assert check_answer(document, answer, "/matches", "get") == [] and answer.headers["X-Total-Count"] == "1"
    for size in ("1000", "9" * 5000, "007"):
        answer = api.get(f"{API}/matches?per_page={size}")
        assert len(check_answer(document, answer, "/matches", "get")) == 1 and "Link" not in answer.headers


def test_a_deal_number_that_is_not_a_whole_number_from_1_is_malformed(api: Api, document: dict[str, Any]) -> None:
    match_id = api.post(f"{API}/matches", {**TUTE, "deals": [DEAL]}).get_json()["id"]
    for number in (0, -1, 1.5, 2.0, "2", True, [2]):
        for method, path in (("POST", "/matches/{match_id}/deals"), ("PUT", "/matches/{match_id}/deals/{number}")):
            answer = api.client.open(
                f"{API}{path}".format(match_id=match_id, number=1),
                method=method,
                json={**DEAL, "number": number},
                headers=api.headers,
            )
            assert answer.status_code == 422, (number, method)
            assert check_answer(document, answer, path, method.lower())["errors"] == [
                {
                    "deal": None,
                    "field": "number",
                    "code": "malformed",
                    "message": "`number` is the deal number the client means to enter, a whole number from 1.",
                }
            ]
    assert len(api.get(f"{API}/matches/{match_id}").get_json()["match"]["deals"]) == 1


def test_an_if_match_that_names_no_version_answers_412(api: Api, document: dict[str, Any]) -> None:
    match_id = api.post(f"{API}/matches", {**TUTE, "deals": [DEAL]}).get_json()["id"]
    for condition in ('""', 'W/"v1"', '"v1", "v2"', '"x1"', '"v"', "v", 'W/""', '"v1-xyz"'):
        answer = api.client.put(
            f"{API}/matches/{match_id}/deals/1",
            json={**DEAL, "points": [60, 60]},
            headers={**api.headers, "If-Match": condition},
        )
        assert answer.status_code == 412, condition
        assert "version" in check_answer(document, answer, "/matches/{match_id}/deals/{number}", "put")["message"]
    assert api.get(f"{API}/matches/{match_id}").get_json()["match"]["deals"] == [DEAL]


def test_a_deal_entered_on_the_page_answers_its_api_retry_with_the_match(
    app: Flask, api: Api, document: dict[str, Any]
) -> None:
    match_id = api.post(f"{API}/matches", TUTE).get_json()["id"]
    signed_in(app, "ana").post(f"/matches/{match_id}/deal", data={**tute_form(70, 0), "idempotency_key": "k-1"})
    retry = api.client.post(
        f"{API}/matches/{match_id}/deals", json={**DEAL, "number": 1}, headers={**api.headers, "Idempotency-Key": "k-1"}
    )
    answer = check_answer(document, retry, "/matches/{match_id}/deals", "post")
    assert [deal["points"] for deal in answer["match"]["deals"]] == [[70, 50]]


def test_a_change_to_an_abandoned_match_answers_422(app: Flask, api: Api, document: dict[str, Any]) -> None:
    match_id = api.post(f"{API}/matches", {**TUTE, "deals": [DEAL]}).get_json()["id"]
    signed_in(app, "ana").post(f"/matches/{match_id}/abandon")
    answer = api.delete(f"{API}/matches/{match_id}/deals/1")
    assert (
        check_answer(document, answer, "/matches/{match_id}/deals/{number}", "delete")["errors"][0]["code"]
        == "match_finished"
    )


def test_a_method_a_path_does_not_take_answers_405_naming_those_it_takes(api: Api, document: dict[str, Any]) -> None:
    for path, methods in documented(document).items():
        implicit = {"OPTIONS", "HEAD"} if "GET" in methods else {"OPTIONS"}
        for headers in (api.headers, {}):  # with or without a token
            address = f"{API}{path}".format(match_id=1, number=1, year=2026, season_id=1, game="tute2")
            answer = api.client.open(address, method="TRACE", headers=headers)
            assert answer.status_code == 405 and answer.get_json()["message"]
            assert set(answer.headers["Allow"].split(", ")) == methods | implicit


# ---------------------------------------------------------------- checking an answer against the document


def resolve(document: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    """Return the object a local `$ref` names (or `item` itself); a reference starts at the document's top."""
    while "$ref" in item:
        node = document
        for part in item["$ref"].removeprefix("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        item = node
    return item


def check_schema(document: dict[str, Any], schema: dict[str, Any], value: Any) -> None:
    """Fail unless `value` matches `schema`, whose references point into the document's components."""
    Draft202012Validator({**schema, "components": document["components"]}).validate(value)


def check_answer(document: dict[str, Any], response: Any, path: str, method: str) -> Any:
    """Fail unless the answer's status is documented for the operation and its body and headers match;
    return its JSON body."""
    operation = document["paths"][path][method]
    assert str(response.status_code) in operation["responses"], (path, method, response.status_code)
    answer = resolve(document, operation["responses"][str(response.status_code)])
    assert response.mimetype == "application/json"
    body = response.get_json()
    check_schema(document, answer["content"]["application/json"]["schema"], body)
    for name, header in answer.get("headers", {}).items():
        if header.get("required"):
            assert name in response.headers, (path, method, name)
        if name in response.headers:
            value: Any = response.headers[name]
            value = int(value) if header["schema"].get("type") == "integer" else value
            check_schema(document, header["schema"], value)
    return body


def test_a_match_read_again_unchanged_answers_304_and_a_changed_one_200(api: Api, document: dict[str, Any]) -> None:
    match_id = api.post(f"{API}/matches", {**TUTE, "deals": [DEAL]}).get_json()["id"]
    first = api.get(f"{API}/matches/{match_id}")
    etag = first.headers["ETag"]
    again = api.client.get(f"{API}/matches/{match_id}", headers={**api.headers, "If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == etag
    assert "304" in document["paths"]["/matches/{match_id}"]["get"]["responses"]
    api.client.put(f"{API}/matches/{match_id}/deals/1", json={**DEAL, "points": [60, 60]}, headers=api.headers)
    changed = api.client.get(f"{API}/matches/{match_id}", headers={**api.headers, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.get_json()["match"]["deals"][0]["points"] == [60, 60]
    # reading again leaves the tag as it is
    assert api.get(f"{API}/matches/{match_id}").headers["ETag"] == changed.headers["ETag"]
