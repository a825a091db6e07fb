"""A season of three events with results stored straight in the database (the
series tests and the site's series page): who played what is known exactly, so the
tests can work the standings out by hand."""
from __future__ import annotations

from conftest import stored_match
from sqlalchemy import select
from sqlmodel import Session

from tourney.storage.db import open_engine
from tourney.storage.models import Event, Match, MatchPlace, MatchVersion, Player

# (player, club)
PLAYERS = [("Anna", "Vasa"), ("Bo", "Vasa"), ("Cai", "Göta"), ("Dag", None), ("Eva", "Göta")]
# each event: tables of (player, place, match points). Points, per player:
# Anna 3, 1, 2.5   Bo 2, 3   Cai 1, 2   Dag 0   Eva 0, 1.5
RESULTS = {
    "ev1": [[("Anna", 1, 3), ("Bo", 2, 2), ("Cai", 3, 1), ("Dag", 4, 0)]],
    "ev2": [[("Bo", 1, 3), ("Cai", 2, 2), ("Anna", 3, 1), ("Eva", 4, 0)]],
    "ev3": [[("Anna", 1, 2.5), ("Eva", 2, 1.5)]],
}


def store(db_url, slug, tables, round_number=1):
    """The tables' results stored as the current versions of round ``round_number``."""
    engine = open_engine(db_url)
    with Session(engine) as session:
        event_id = session.execute(select(Event.id).where(Event.slug == slug)).scalar_one()
        ids = dict(session.execute(select(Player.name, Player.id)).all())
        for number, seats in enumerate(tables, 1):
            _, version = stored_match(session, event_id, round_number, str(number))
            for seat, (name, place, points) in enumerate(seats):
                session.add(MatchPlace(version_id=version.id, player_id=ids[name], seat=seat,
                                       place=place, total=0, match_points=points))
        session.commit()


def correct(db_url, slug, seats):
    """A corrected result for table 1 of round 1: a new current version."""
    engine = open_engine(db_url)
    with Session(engine) as session:
        event_id = session.execute(select(Event.id).where(Event.slug == slug)).scalar_one()
        match = session.execute(select(Match).where(Match.event_id == event_id,
                                                    Match.table == "1")).scalar_one()
        version = MatchVersion(match_id=match.id, version=2, content_sha256="1" * 64)
        session.add(version)
        session.flush()
        ids = dict(session.execute(select(Player.name, Player.id)).all())
        for seat, (name, place, points) in enumerate(seats):
            session.add(MatchPlace(version_id=version.id, player_id=ids[name], seat=seat,
                                   place=place, total=0, match_points=points))
        match.current_version_id = version.id
        session.add(match)
        session.commit()


def make_season(tourney, db_url):
    """Five players, three events with their results (ev3 a dam-brade event: games
    may differ within a series), the series `season` of the three."""
    for name, club in PLAYERS:
        tourney("player", "add", name, *(["--club", club] if club else []))
    for slug in RESULTS:
        variant = "dam-brade" if slug == "ev3" else "spardame"
        tourney("event", "create", slug, "--variant", variant, "--points", "place")
        names = [name for table in RESULTS[slug] for name, _, _ in table]
        tourney("event", "enter", slug, *names)
        store(db_url, slug, RESULTS[slug])
    tourney("series", "create", "season", "--name", "Club season", "--best", "2",
            "--min-events", "2")
    tourney("series", "add", "season", "ev1", "ev2", "ev3")
    return tourney


def sixths_series(run, db_url) -> None:
    """The series ``sixths`` of three events (s1-s3) where Anna scores 7/6 each time
    (1.17 as shown: her total reads 3.51) and Bo 0; Anna and Bo registered before."""
    for slug in ("s1", "s2", "s3"):
        run("event", "create", slug, "--variant", "spardame")
        run("event", "enter", slug, "Anna", "Bo")
        store(db_url, slug, [[("Anna", 1, 7 / 6), ("Bo", 2, 0)]])
    run("series", "create", "sixths")
    run("series", "add", "sixths", "s1", "s2", "s3")
