"""`tourney round start` (issue 31): the round's clock, the time left in `round show`,
a result sent after time marked late in the organizer's review."""
import datetime as dt

from arbiter_helpers import setup
from sqlmodel import Session, select

from tourney.app.tables import review_tables, round_links
from tourney.storage.db import open_engine
from tourney.storage.models import Event, Round
from tourney.tournament import table_links


def test_the_clock_runs_and_shows_the_time_left(tourney):
    setup(tourney)
    tourney("round", "seat", "ev")
    done = tourney("round", "start", "ev", "1", "--minutes", "45", "--json").json
    assert done["action"] == "round.start" and done["details"]["minutes"] == 45
    clock = tourney("round", "show", "ev", "1", "--json").json["clock"]
    assert clock["minutes"] == 45 and 44 * 60 < clock["seconds_left"] <= 45 * 60
    started = dt.datetime.fromisoformat(clock["started_at"].replace("Z", "+00:00"))
    ends = dt.datetime.fromisoformat(clock["ends_at"].replace("Z", "+00:00"))
    assert ends - started == dt.timedelta(minutes=45)
    assert "time left: 4" in tourney("round", "show", "ev", "1").stderr
    stopped = tourney("round", "start", "ev", "1", "--stop", "--json").json
    assert stopped["action"] == "round.start.stop"
    assert tourney("round", "show", "ev", "1", "--json").json["clock"]["ends_at"] is None
    tourney("round", "start", "ev", "1", "--stop", exit_code=1)  # no clock to stop
    tourney("round", "start", "ev", "1", exit_code=2)  # neither --minutes nor --stop
    tourney("round", "start", "ev", "1", "--minutes", "0", exit_code=2)
    tourney("round", "start", "ev", "2", "--minutes", "5", exit_code=2)  # not seated
    actions = [c["action"] for c in tourney("log", "--json").json]
    assert actions.count("round.start") == 1 and "round.start.stop" in actions


def test_a_result_sent_after_time_is_marked_late(tourney, db_url):
    setup(tourney)
    tourney("round", "seat", "ev", "--json")
    tourney("round", "start", "ev", "1", "--minutes", "30")
    engine = open_engine(db_url)
    with Session(engine) as session:
        event = session.exec(select(Event).where(Event.slug == "ev")).one()
        links = round_links(session, event, 1)
        table_links.add_submission(session, links[0], "event,round\n", table_links.SUBMITTED)
        table_links.add_submission(session, links[1], "event,round\n", table_links.SUBMITTED)
        session.commit()
        reviews = review_tables(session, event, table_links.table_states(session, event, 1))
        assert [r.late for r in reviews] == [False, False]
        # the clock ran out before the tables sent their results
        row = session.exec(select(Round).where(Round.event_id == event.id)).one()
        row.ends_at = row.started_at - dt.timedelta(minutes=10)
        session.add(row)
        session.commit()
        reviews = review_tables(session, event, table_links.table_states(session, event, 1))
        assert [r.late for r in reviews] == [True, True]
        assert reviews[0].to_json()["late"] is True
    engine.dispose()
