"""A player's rivals and partners on their page: the nemesis, the favourite victim, and the best and
worst partners in Tute for four, against hand-counted matches; kept right through corrections and by
`recompute`, and filled in by the migration that began counting meetings."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from flask import Flask

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.figures import pairs
from scorekeeper.models import Player

from ..conftest import Browser
from .test_killed_upgrades import migrate_to
from .test_matches import text
from .test_nights import T0, import_matches, played

FOUR = ("Pedro", "Quique")


def a_season(app: Flask) -> None:
    """Import the finished matches below (one an hour), and one still being played."""
    matches = []
    # Tute for two: Luis beats Ana in 3 of 4, Ana beats Carmen in 2 of 3, Bea beats Ana in 2 of 2.
    for won_by in (1, 1, 1, 0):
        matches.append(("Ana", "Luis", won_by))
    for won_by in (0, 0, 1):
        matches.append(("Ana", "Carmen", won_by))
    for won_by in (1, 1):
        matches.append(("Ana", "Bea", won_by))
    documents = [
        played(T0 + timedelta(hours=hour), [5], players=(first, second), won_by=won_by)
        for hour, (first, second, won_by) in enumerate(matches)
    ]
    # Tute for four, Ana's side (seats 0 and 2) against Pedro and Quique: with Luis, won 2 of 3; with
    # Carmen, won 1 of 3.
    for partner, results in (("Luis", (0, 0, 1)), ("Carmen", (0, 1, 1))):
        for won_by in results:
            documents.append(
                played(
                    T0 + timedelta(hours=len(documents)),
                    [5],
                    players=("Ana", FOUR[0], partner, FOUR[1]),
                    won_by=won_by,
                    game="tute4",
                )
            )
    documents.append(played(T0 + timedelta(hours=len(documents)), players=("Ana", "Bea")))  # still being played
    import_matches(app, documents)


def rivals_of(app: Flask, name: str) -> pairs.Rivals:
    with app.app_context():
        player = db.session.scalar(db.select(Player).where(Player.name == name))
        assert player is not None
        return pairs.rivals(player)


def named(rival: pairs.Rival | None) -> tuple[str, int, int] | None:
    return None if rival is None else (rival.name, rival.won, rival.of)


def test_the_nemesis_victim_and_partners_match_the_hand_count(ana: Browser, app: Flask) -> None:
    a_season(app)
    ana_s = rivals_of(app, "Ana")
    # Luis beat Ana in 3 of 4 (Pedro and Quique in 3 of 6, Bea only twice: too few meetings).
    assert named(ana_s.nemesis) == ("Luis", 3, 4)
    # Ana beat Carmen in 2 of 3, Pedro and Quique in 3 of 6, Luis in 1 of 4.
    assert named(ana_s.victim) == ("Carmen", 2, 3)
    assert named(ana_s.best_partner) == ("Luis", 2, 3) and named(ana_s.worst_partner) == ("Carmen", 1, 3)
    # Pedro and Quique beat Luis once in three, less often than he beat them (twice): no nemesis.
    # He beat each of them in 2 of 3 and Ana in 3 of 4: the larger share.
    luis = rivals_of(app, "Luis")
    assert luis.nemesis is None and named(luis.victim) == ("Ana", 3, 4)
    # Quique lost to Luis in 2 of 3, beat Carmen in 2 of 3, and beat Ana as often as he lost to her.
    quique = rivals_of(app, "Quique")
    assert named(quique.nemesis) == ("Luis", 2, 3) and named(quique.victim) == ("Carmen", 2, 3)
    assert named(luis.best_partner) == ("Ana", 2, 3) and luis.worst_partner is None
    # Bea met Ana twice (the third match is not over): nobody qualifies.
    assert rivals_of(app, "Bea") == pairs.Rivals(None, None, None, None)


def test_the_player_page_names_them_and_links_to_head_to_head(ana: Browser, app: Flask) -> None:
    a_season(app)
    page = ana.get("/players/1").get_data(as_text=True)
    words = text(ana.get("/players/1"))
    assert "Rivals and partners" in words
    assert "Nemesis Luis beat Ana in 3 of 4" in words and "Favourite victim Carmen lost to Ana in 2 of 3" in words
    assert "Best partner Luis won 2 of 3 together" in words and "Worst partner Carmen won 1 of 3 together" in words
    assert 'href="/stats/head-to-head?a=1&amp;b=2"' in page  # Luis
    bea = text(ana.get(f"/players/{bea_id(app)}"))
    assert "Rivals and partners" not in bea


def bea_id(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(db.select(Player.id).where(Player.name == "Bea")) or 0)


def test_a_deleted_match_and_a_recompute_move_the_rivals(ana: Browser, app: Flask) -> None:
    a_season(app)
    ana.post("/matches/1/delete")  # a win of Luis over Ana: 2 of 3 now, as Carmen's loss to Ana
    assert named(rivals_of(app, "Ana").nemesis) == ("Luis", 2, 3)
    with app.app_context():
        services.recompute_all()
        db.session.commit()
    assert named(rivals_of(app, "Ana").nemesis) == ("Luis", 2, 3)


def test_the_upgrade_that_began_counting_meetings_counts_those_of_earlier_matches(
    ana: Browser, app: Flask, database_url: str, tmp_path: Path
) -> None:
    a_season(app)
    before = [rivals_of(app, name) for name in ("Ana", "Luis", "Carmen")]
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    migrate_to(database_url, tmp_path, "0019", down=True)
    migrate_to(database_url, tmp_path, "0020")
    assert [rivals_of(app, name) for name in ("Ana", "Luis", "Carmen")] == before
