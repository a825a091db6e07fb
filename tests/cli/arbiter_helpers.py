"""Shared by the arbiter's tests (issue 31): an event of eight players at tables of
four, and a result stored straight in the database for one table."""
from conftest import stored_match
from sqlmodel import Session, select

from tourney.storage.db import open_engine
from tourney.storage.models import Event, MatchPlace, Player, Round, Seat

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fi", "Gu", "Hj"]


def setup(tourney, names=NAMES, sizes="4", rounds="3", clubs=None):
    for i, name in enumerate(names):
        tourney("player", "add", name, *(("--club", clubs[i]) if clubs and clubs[i] else ()))
    tourney("event", "create", "ev", "--variant", "svarta-maja", "--table-sizes", sizes,
            "--rounds", rounds)
    tourney("event", "enter", "ev", "--all")
    return names


def tables(tourney, number=1):
    shown = tourney("round", "show", "ev", str(number), "--json").json
    return {t["table"]: t["seats"] for t in shown["tables"]}, shown["byes"]


def table_of(tourney, number=1):
    seated, _ = tables(tourney, number)
    return {name: label for label, names in seated.items() for name in names}


def add_result(db_url, number, label, slug="ev"):
    """A result for table ``label`` of round ``number``: seat 1 first (1 match
    point), the rest last (0 points)."""
    with Session(open_engine(db_url)) as session:
        event = session.exec(select(Event).where(Event.slug == slug)).one()
        row = session.exec(select(Round).where(Round.event_id == event.id,
                                               Round.number == number)).one()
        seats = session.exec(select(Seat).where(Seat.round_id == row.id, Seat.table == label)
                             .order_by(Seat.seat)).all()
        _, version = stored_match(session, event.id, number, label)
        for seat in seats:
            first = seat.seat == 0
            session.add(MatchPlace(version_id=version.id, player_id=seat.player_id,
                                   seat=seat.seat, place=1 if first else 2,
                                   total=0 if first else 10, match_points=1 if first else 0))
        session.commit()
        return {session.get(Player, s.player_id).name: (1 if s.seat == 0 else 0) for s in seats}
