"""The JSON API under /api/v1/: tokens, the answers' shapes, rule violations, conflicts, isolation."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, IdempotencyKey

TUTE = {"game": "tute2", "players": ["Ana", "Luis"]}
DEAL = {
    "dealer": 0,
    "trump": "copas",
    "points": [78, 42],
    "last_trick": 0,
    "cantes": [{"seat": 0, "suit": "oros"}, {"seat": 1, "suit": "copas"}],
}


def token_for(app: Flask, username: str) -> str:
    with app.app_context():
        user = services.user_named(username) or services.create_user(username, "correct horse")
        return services.create_api_token(user, "tests")


class Api:
    """A client that sends the bearer token and JSON bodies."""

    def __init__(self, client: FlaskClient, token: str) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"}

    def get(self, url: str) -> Any:
        return self.client.get(url, headers=self.headers)

    def post(self, url: str, body: Any) -> Any:
        return self.client.post(url, json=body, headers=self.headers)

    def put(self, url: str, body: Any) -> Any:
        return self.client.put(url, json=body, headers=self.headers)

    def delete(self, url: str) -> Any:
        return self.client.delete(url, headers=self.headers)


@pytest.fixture
def api(app: Flask) -> Api:
    return Api(app.test_client(), token_for(app, "ana"))


@pytest.fixture
def other(app: Flask, api: Api) -> Api:
    return Api(app.test_client(), token_for(app, "bea"))


def test_a_missing_or_wrong_token_answers_401(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/api/v1/matches").status_code == 401
    response = client.get("/api/v1/matches", headers={"Authorization": "Bearer sk_nope"})
    assert response.status_code == 401 and "API token" in response.get_json()["message"]
    assert client.get("/api/v1/matches", headers={"Authorization": "Basic abc"}).status_code == 401


def test_a_session_cookie_does_not_open_the_api(app: Flask) -> None:
    from ..conftest import signed_in

    browser = signed_in(app, "ana")
    assert browser.client.get("/api/v1/matches").status_code == 401


def test_create_a_match_answers_201_with_id_status_document_and_result(api: Api) -> None:
    response = api.post("/api/v1/matches", {**TUTE, "options": {"double_over_100": True}})
    body = response.get_json()
    assert response.status_code == 201
    assert set(body) == {"id", "status", "note", "match", "result"}
    assert body["note"] is None
    assert body["status"] == "playing"
    assert body["match"] == {**TUTE, "options": {"double_over_100": True}, "deals": []}
    assert body["result"]["juegos"] == [0, 0] and body["result"]["next_dealer"] is None


def test_the_list_comes_a_page_at_a_time_with_links_to_the_others(api: Api) -> None:
    for _ in range(5):
        api.post("/api/v1/matches", TUTE)
    first = api.get("/api/v1/matches?per_page=2")
    assert [m["id"] for m in first.get_json()] == [5, 4]
    assert first.headers["X-Total-Count"] == "5"
    assert first.headers["Link"] == '<http://localhost/api/v1/matches?page=2&per_page=2>; rel="next"'
    middle = api.get("/api/v1/matches?page=2&per_page=2")
    assert [m["id"] for m in middle.get_json()] == [3, 2]
    assert 'page=3&per_page=2>; rel="next"' in middle.headers["Link"]
    assert 'page=1&per_page=2>; rel="prev"' in middle.headers["Link"]
    last = api.get("/api/v1/matches?page=3&per_page=2")
    assert [m["id"] for m in last.get_json()] == [1] and "next" not in last.headers["Link"]
    assert len(api.get("/api/v1/matches").get_json()) == 5  # 25 to a page unless asked otherwise
    assert len(api.get("/api/v1/matches?per_page=1000").get_json()) == 5  # at most 100 to a page


def test_create_with_deals_imports_the_whole_match(api: Api) -> None:
    deals = [DEAL, {**DEAL, "dealer": 1}, {**DEAL, "dealer": 0}]
    body = api.post("/api/v1/matches", {**TUTE, "deals": deals}).get_json()
    assert body["status"] == "finished"
    assert body["result"]["winners"] == [0] and body["result"]["juegos"] == [3, 0]
    assert body["match"]["deals"] == deals


def test_create_with_a_rule_violation_answers_422_with_the_codes_and_stores_nothing(api: Api) -> None:
    response = api.post("/api/v1/matches", {**TUTE, "deals": [{**DEAL, "points": [70, 60]}]})
    assert response.status_code == 422
    assert response.get_json() == {
        "errors": [
            {
                "deal": 1,
                "field": "points",
                "code": "points_total",
                "message": "The card points must add up to 120; these add up to 130.",
            }
        ]
    }
    assert api.get("/api/v1/matches").get_json() == []
    assert api.post("/api/v1/matches", {"game": "mus", "players": []}).get_json()["errors"][0]["code"] == "game_unknown"


def test_a_body_that_is_not_json_answers_400(api: Api) -> None:
    response = api.client.post("/api/v1/matches", data="game=tute2", headers=api.headers)
    assert response.status_code == 400 and "JSON" in response.get_json()["message"]


def test_list_and_read_matches(api: Api) -> None:
    first = api.post("/api/v1/matches", TUTE).get_json()
    second = api.post("/api/v1/matches", {"game": "pocha", "players": ["Ana", "Luis", "Carmen"]}).get_json()
    listing = api.get("/api/v1/matches").get_json()
    assert [m["id"] for m in listing] == [second["id"], first["id"]]
    assert api.get(f"/api/v1/matches/{first['id']}").get_json() == first
    assert listing[0]["result"]["next_cards"] == 1


def test_add_deals_and_the_result_follows(api: Api) -> None:
    match_id = api.post("/api/v1/matches", TUTE).get_json()["id"]
    response = api.post(f"/api/v1/matches/{match_id}/deals", {**DEAL, "number": 1})
    body = response.get_json()
    assert response.status_code == 201
    assert body["result"]["deals"] == [{"number": 1, "scores": [108, 82], "winner": 0, "juegos": [1, 0]}]
    assert body["match"]["deals"] == [DEAL]


def test_a_deal_number_that_is_not_the_next_answers_409_and_stores_nothing(api: Api) -> None:
    match_id = api.post("/api/v1/matches", TUTE).get_json()["id"]
    api.post(f"/api/v1/matches/{match_id}/deals", {**DEAL, "number": 1})
    again = api.post(f"/api/v1/matches/{match_id}/deals", {**DEAL, "number": 1})
    assert again.status_code == 409 and "Deal 1 was just entered" in again.get_json()["message"]
    assert len(api.get(f"/api/v1/matches/{match_id}").get_json()["match"]["deals"]) == 1


def test_a_bad_deal_answers_422_with_every_problem(api: Api) -> None:
    match_id = api.post("/api/v1/matches", TUTE).get_json()["id"]
    response = api.post(
        f"/api/v1/matches/{match_id}/deals", {"dealer": 3, "trump": "sol", "points": [119, 1], "last_trick": 0}
    )
    assert response.status_code == 422
    codes = [e["code"] for e in response.get_json()["errors"]]
    assert codes == ["dealer_invalid", "trump_invalid", "points_impossible", "points_impossible"]
    assert api.post(f"/api/v1/matches/{match_id}/deals", [1, 2]).get_json()["errors"][0]["code"] == "malformed"


def test_replace_a_deal_and_the_whole_match_is_checked(api: Api) -> None:
    match_id = api.post("/api/v1/matches", {**TUTE, "deals": [DEAL, {**DEAL, "dealer": 1}]}).get_json()["id"]
    response = api.put(
        f"/api/v1/matches/{match_id}/deals/1", {**DEAL, "points": [0, 120], "last_trick": 1, "cantes": []}
    )
    assert response.status_code == 200
    assert response.get_json()["result"]["juegos"] == [1, 1]
    bad = api.put(f"/api/v1/matches/{match_id}/deals/2", {**DEAL, "points": [10, 10]})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["deal"] == 2
    assert api.get(f"/api/v1/matches/{match_id}").get_json()["result"]["juegos"] == [1, 1]
    assert api.put(f"/api/v1/matches/{match_id}/deals/9", DEAL).status_code == 404


def test_delete_only_the_last_deal(api: Api) -> None:
    match_id = api.post("/api/v1/matches", {**TUTE, "deals": [DEAL, {**DEAL, "dealer": 1}]}).get_json()["id"]
    refused = api.delete(f"/api/v1/matches/{match_id}/deals/1")
    assert refused.status_code == 409
    response = api.delete(f"/api/v1/matches/{match_id}/deals/2")
    assert response.status_code == 200 and len(response.get_json()["match"]["deals"]) == 1


def test_another_account_s_match_answers_404(api: Api, other: Api) -> None:
    match_id = api.post("/api/v1/matches", {**TUTE, "deals": [DEAL]}).get_json()["id"]
    assert other.get(f"/api/v1/matches/{match_id}").status_code == 404
    assert other.post(f"/api/v1/matches/{match_id}/deals", DEAL).status_code == 404
    assert other.put(f"/api/v1/matches/{match_id}/deals/1", DEAL).status_code == 404
    assert other.delete(f"/api/v1/matches/{match_id}/deals/1").status_code == 404
    assert other.get("/api/v1/matches").get_json() == []
    assert len(api.get(f"/api/v1/matches/{match_id}").get_json()["match"]["deals"]) == 1


def test_a_match_made_through_the_api_shows_on_the_scoreboard(api: Api, app: Flask) -> None:
    from ..conftest import signed_in

    match_id = api.post("/api/v1/matches", {**TUTE, "deals": [DEAL], "first_dealer": 1}).get_json()["id"]
    page = signed_in(app, "ana").get(f"/matches/{match_id}").get_data(as_text=True)
    assert "108" in page and "Luis" in page


def test_a_posted_deal_to_an_abandoned_match_is_refused(api: Api, app: Flask) -> None:
    match_id = api.post("/api/v1/matches", TUTE).get_json()["id"]
    from ..conftest import signed_in

    signed_in(app, "ana").post(f"/matches/{match_id}/abandon")
    response = api.post(f"/api/v1/matches/{match_id}/deals", DEAL)
    assert response.status_code == 422 and response.get_json()["errors"][0]["code"] == "match_finished"
    assert api.get(f"/api/v1/matches/{match_id}").get_json()["status"] == "abandoned"


def statements_during(app: Flask, request: Any) -> list[str]:
    """Return the SQL statements the database was sent while `request()` ran, and "COMMIT" for each commit."""
    sent: list[str] = []
    with app.app_context():
        engine = db.engine

    def note(*args: Any) -> None:
        sent.append(args[2])

    def note_commit(*args: Any) -> None:
        sent.append("COMMIT")

    event.listen(engine, "before_cursor_execute", note)
    event.listen(engine, "commit", note_commit)
    try:
        request()
    finally:
        event.remove(engine, "before_cursor_execute", note)
        event.remove(engine, "commit", note_commit)
    return sent


def test_a_read_through_the_api_writes_nothing(api: Api, app: Flask) -> None:
    match_id = api.post("/api/v1/matches", TUTE).get_json()["id"]
    api.post(f"/api/v1/matches/{match_id}/deals", DEAL)
    for path in ("/api/v1/matches", f"/api/v1/matches/{match_id}", "/api/v1/openapi.json"):
        kinds = [statement.split(None, 1)[0].upper() for statement in statements_during(app, lambda: api.get(path))]
        # Only reads; the transaction that held them ends with COMMIT (extensions.end_reads_with_commit).
        assert set(kinds) <= {"SELECT", "COMMIT"} and kinds.count("COMMIT") <= 1, (path, kinds)


def test_a_token_that_changes_something_notes_the_day_once(api: Api, app: Flask) -> None:
    with app.app_context():
        assert db.session.scalar(select(ApiToken.last_used_at)) is None
    api.get("/api/v1/matches")
    with app.app_context():
        assert db.session.scalar(select(ApiToken.last_used_at)) is None
    match_id = api.post("/api/v1/matches", TUTE).get_json()["id"]
    with app.app_context():
        first = db.session.scalar(select(ApiToken.last_used_at))
    assert first is not None and first.date() == datetime.now(UTC).date()
    sent = statements_during(app, lambda: api.post(f"/api/v1/matches/{match_id}/deals", DEAL))
    writes = [statement for statement in sent if not statement.lstrip().upper().startswith(("SELECT", "COMMIT"))]
    assert writes and not [statement for statement in writes if "api_tokens" in statement], writes  # noted already
    with app.app_context():
        assert db.session.scalar(select(ApiToken.last_used_at)) == first


def test_the_live_link_is_made_and_stopped_through_the_api(api: Api, other: Api, app: Flask) -> None:
    match_id = api.post("/api/v1/matches", TUTE).get_json()["id"]
    api.post(f"/api/v1/matches/{match_id}/deals", DEAL)
    made = api.post(f"/api/v1/matches/{match_id}/share", None)
    assert made.status_code == 201 and list(made.get_json()) == ["url"]
    url = made.get_json()["url"]
    assert url.startswith("http://127.0.0.2/live?preview=") and len(url.rsplit("#", 1)[1]) >= 43

    def shown(link: str) -> int:
        return app.test_client().post("/live/state", data={"secret": link.rsplit("#", 1)[1]}).status_code

    assert shown(url) == 200
    renewed = api.post(f"/api/v1/matches/{match_id}/share", None).get_json()["url"]
    assert renewed != url and shown(url) == 404  # the older link stopped
    assert other.post(f"/api/v1/matches/{match_id}/share", None).status_code == 404
    assert other.delete(f"/api/v1/matches/{match_id}/share").status_code == 404
    stopped = api.delete(f"/api/v1/matches/{match_id}/share")
    assert stopped.status_code == 204 and stopped.get_data() == b""
    assert shown(renewed) == 404
    assert api.delete(f"/api/v1/matches/{match_id}/share").status_code == 204  # nothing left to stop


def test_a_stale_if_match_is_refused_412_by_every_change_and_changes_nothing(api: Api, app: Flask) -> None:
    match_id = api.post("/api/v1/matches", {**TUTE, "deals": [DEAL]}).get_json()["id"]
    stale = api.get(f"/api/v1/matches/{match_id}").headers["ETag"]
    api.client.patch(f"/api/v1/matches/{match_id}", json={"note": "First"}, headers=api.headers)
    before = api.get(f"/api/v1/matches/{match_id}")
    changes = [
        ("PATCH", f"/api/v1/matches/{match_id}", {"note": "Second"}),
        ("POST", f"/api/v1/matches/{match_id}/deals", DEAL),
        ("PUT", f"/api/v1/matches/{match_id}/deals/1", {**DEAL, "points": [60, 60]}),
        ("DELETE", f"/api/v1/matches/{match_id}/deals/1", None),
        ("POST", f"/api/v1/matches/{match_id}/share", None),
        ("DELETE", f"/api/v1/matches/{match_id}/share", None),
        ("POST", f"/api/v1/matches/{match_id}/entry-link", None),
        ("DELETE", f"/api/v1/matches/{match_id}/entry-link", None),
    ]
    for method, path, body in changes:
        answer = api.client.open(path, method=method, json=body, headers={**api.headers, "If-Match": stale})
        assert answer.status_code == 412, (method, path)
        assert "changed since" in answer.get_json()["message"]
    after = api.get(f"/api/v1/matches/{match_id}")
    assert after.headers["ETag"] == before.headers["ETag"] and after.get_json() == before.get_json()
    # The ETag as it is now lets each change through (the deal added is then the last one).
    for method, path, body in changes:
        path = path.replace("/deals/1", "/deals/2") if method == "DELETE" else path
        current = api.get(f"/api/v1/matches/{match_id}").headers["ETag"]
        answer = api.client.open(path, method=method, json=body, headers={**api.headers, "If-Match": current})
        assert answer.status_code in (200, 201, 204), (method, path, answer.get_json())


def test_a_deal_sent_again_is_answered_in_todays_shape_even_if_an_older_version_kept_the_answer(
    api: Api, app: Flask
) -> None:
    match_id = api.post("/api/v1/matches", {**TUTE, "note": "At Carmen's"}).get_json()["id"]
    sent = {"Idempotency-Key": "kept-by-0.1"}
    first = api.client.post(f"/api/v1/matches/{match_id}/deals", json=DEAL, headers={**api.headers, **sent})
    assert first.status_code == 201
    with app.app_context():  # the answer as a version before notes kept it
        key = db.session.scalars(select(IdempotencyKey)).one()
        key.body = {name: value for name, value in first.get_json().items() if name != "note"}
        db.session.commit()
    again = api.client.post(f"/api/v1/matches/{match_id}/deals", json=DEAL, headers={**api.headers, **sent})
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert list(again.get_json()) == ["id", "status", "note", "match", "result"]
