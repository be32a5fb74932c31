"""The owner's phone posts a deal: one statement reads the match and its deals' facts (on PostgreSQL,
the one that locks the account). A phone that joined through an entry link, and
any other account, read the match as before, and lock no account but their own."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from sqlalchemy.exc import OperationalError

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.figures.locks import facts_under_lock
from scorekeeper.models import Deal, Match, User

from ..conftest import Browser
from .matchhelpers import bids_form, start, tricks_form, tute_form
from .sql import statements_sent
from .test_table import join, make_link

WON = {"trump": "oros", "points": [100, 20], "last_trick": 0}


def on_postgresql(app: Flask) -> bool:
    with app.app_context():
        return db.engine.dialect.name == "postgresql"


def locking(sent: list[str]) -> list[str]:
    """Return the statements that lock an account, on one line each."""
    return [" ".join(statement.split()) for statement in sent if "FOR NO KEY UPDATE" in statement]


def stored(app: Flask) -> tuple[list[tuple[int, int | None]], int]:
    """Return the deals stored (number, entry link) and how many deals the match's cached result counts."""
    with app.app_context():
        deals = [(deal.number, deal.entry_link_id) for deal in db.session.query(Deal).order_by(Deal.number)]
        match = db.session.get(Match, 1)
        assert match is not None and match.result is not None
        return deals, len(match.result["deals"])


def test_the_owner_s_deal_is_read_with_its_facts_by_the_statement_that_locks_the_account(
    ana: Browser, app: Flask
) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    assert ana.post("/matches/1/deal", data=tute_form(70, 0, number=1)).status_code == 302
    sent = statements_sent(app, lambda: ana.post("/matches/1/deal", data=tute_form(50, 1, number=2, dealer=1)))
    if on_postgresql(app):
        [lock] = locking(sent)
        assert lock.startswith("SELECT matches.id") and "json_agg" in lock
        assert not [statement for statement in sent if statement.lstrip().startswith("SELECT deals")]
    else:  # SQLite has no row locks: the match is read with its deals' facts all the same
        [read] = [" ".join(statement.split()) for statement in sent if statement.startswith("SELECT matches.")]
        assert not locking(sent) and "group_concat" in read
        assert not [statement for statement in sent if statement.lstrip().startswith("SELECT deals")]
    # Scored with the deal before it, which only the facts read with the match gave the engine.
    assert stored(app) == ([(1, None), (2, None)], 2)


def test_the_owner_s_pocha_tricks_are_stored_with_the_facts_read_with_the_match(ana: Browser, app: Flask) -> None:
    start(ana, "pocha", ["Ana", "Luis"], opt_schedule="custom", schedule_list="3 3 3")
    for number, dealer in ((1, 0), (2, 1)):
        ana.post("/matches/1/bids", data=bids_form([1, 1], number=number, dealer=dealer, cards=3))
        sent = statements_sent(
            app,
            lambda number=number, dealer=dealer: ana.post(
                "/matches/1/deal", data=tricks_form([1, 1], [1, 2], number=number, dealer=dealer, cards=3)
            ),
        )
        if on_postgresql(app):
            [lock] = locking(sent)
            assert lock.startswith("SELECT matches.id")
    assert stored(app) == ([(1, None), (2, None)], 2)


def test_a_phone_that_joined_through_the_entry_link_reads_the_match_as_before(ana: Browser, app: Flask) -> None:
    start(ana, "tute2", ["Ana", "Luis"], opt_target="9")
    guest = join(app, make_link(ana))
    sent = statements_sent(app, lambda: guest.post("/matches/1/deal", data=tute_form(70, 0, number=1)))
    if on_postgresql(app):  # the change locks the account, reading the deals as it does
        [lock] = locking(sent)
        assert lock.startswith("SELECT deals.data FROM deals")
    assert stored(app) == ([(1, 1)], 1)


def test_another_account_s_match_is_not_read_and_its_account_not_locked(app: Flask) -> None:
    if not on_postgresql(app):
        pytest.skip("SQLite has no row locks")
    with app.app_context():
        ana, bea = services.create_user("ana", "correct horse"), services.create_user("bea", "correct horse")
        match = services.start_match(ana, "tute2", ["Ana", "Luis"], {"target": 3}, 0)
        ids = {"ana": ana.id, "bea": bea.id, "match": match.id}
        assert services.own_match_to_change(ids["bea"], ids["match"]) is None
        # Bea's request holds Bea's account and nobody else's: another connection may lock Ana's at once.
        with db.engine.connect() as other:
            assert other.execute(_try_lock, {"id": ids["ana"]}).scalar() == ids["ana"]
            other.rollback()
            with pytest.raises(OperationalError, match="could not obtain lock"):
                other.execute(_try_lock, {"id": ids["bea"]})
        db.session.rollback()


_users = User.__table__
_try_lock = sa.select(_users.c.id).where(_users.c.id == sa.bindparam("id")).with_for_update(key_share=True, nowait=True)


def test_facts_read_with_the_match_serve_its_own_transaction_only(app: Flask) -> None:
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        match_id = services.start_match(user, "tute2", ["Ana", "Luis"], {"target": 3}, 0).id
        services.add_deal(db.session.get(Match, match_id), {**WON, "dealer": 0}, 1)
        user_id = user.id
        db.session.rollback()
        match = services.own_match_to_change(user_id, match_id)
        assert match is not None
        facts: list[Any] = []
        assert statements_sent(app, lambda: facts.append(facts_under_lock(match))) == []
        assert facts == [[{**WON, "dealer": 0}]]
        if on_postgresql(app):
            # Once a transaction holds the lock there is none to take: the match is left to the plain read.
            assert services.own_match_to_change(user_id, match_id) is None
        db.session.rollback()
        match = services.own_match_to_change(user_id, match_id)
        assert match is not None
        db.session.rollback()  # the transaction that read them is over: they are read again
        sent = statements_sent(app, lambda: facts.append(facts_under_lock(match)))
        assert [statement for statement in sent if statement.startswith("SELECT deals.data")]
        assert facts[-1] == [{**WON, "dealer": 0}]
        db.session.rollback()


def test_facts_read_with_the_match_come_in_the_deals_order(app: Flask) -> None:
    with app.app_context():
        user = services.create_user("ana", "correct horse")
        match_id = services.start_match(user, "tute2", ["Ana", "Luis"], {"target": 99}, 0).id
        # Twelve deals, whose numbers sort otherwise as text (10, 11, 12 before 2), each told apart by its points.
        played = [
            {"dealer": n % 2, "trump": "oros", "points": [n * 2 + 30, 90 - n * 2], "last_trick": 0} for n in range(12)
        ]
        for number, deal in enumerate(played, start=1):
            services.add_deal(db.session.get(Match, match_id), deal, number)
        user_id = user.id
        db.session.rollback()
        match = services.own_match_to_change(user_id, match_id)
        assert match is not None and facts_under_lock(match) == played
        db.session.rollback()
