"""The event use cases a server calls as the command line does: changing an
event's settings and deleting it, inside the caller's transaction, refused with a
TourneyError that leaves nothing changed once the caller rolls back."""
from __future__ import annotations

import pytest

from tourney.app import events as actions
from tourney.app import rounds
from tourney.errors import TourneyError, UsageError
from tourney.storage.db import open_engine, reading, transaction
from tourney.storage.schema import ensure_schema
from tourney.tournament.events import describe_event
from tourney.tournament.players import add_players

NAMES = ["Anna", "Bo", "Cilla", "Dag", "Eva", "Fia", "Gun"]


@pytest.fixture
def engine(db_url):
    engine = open_engine(db_url)
    ensure_schema(engine)
    with transaction(engine) as session:
        add_players(session, NAMES)
        event = actions.create_event(session, "ev", "spardame", table_sizes="4",
                                     rules={"deals": "2"})
        actions.enter_players(session, event, all_players=True)
    return engine


def test_change_event_is_a_use_case(engine):
    with transaction(engine) as session:
        event = actions.get_event(session, "ev")
        seating = rounds.seat_next_round(session, event)
        # what seating says to a server too: three byes, and what helps
        [warning] = seating.warnings
        assert warning["players"] == seating.byes and warning["table_sizes"] == "3-4"
        change = actions.change_event(session, event, table_sizes="3-4",
                                      rules={"deals": "3"})
        assert change.changed["table_sizes"] == ({"min": 4, "max": 4, "preferred": 4},
                                                 {"min": 3, "max": 4, "preferred": 4})
        assert change.reseat == 1 and change.sheets == [1]
    with reading(engine) as session:
        shown = describe_event(session, actions.get_event(session, "ev"))
        assert shown["table_sizes"]["min"] == 3


def test_a_refused_change_writes_nothing(engine):
    with pytest.raises(UsageError):
        with transaction(engine) as session:
            actions.change_event(session, actions.get_event(session, "ev"))
    with pytest.raises(TourneyError, match="its seed cannot change once round 1 is seated"):
        with transaction(engine) as session:
            event = actions.get_event(session, "ev")
            rounds.seat_next_round(session, event)
            actions.change_event(session, event, name="Renamed", seed=3)
    with reading(engine) as session:
        shown = describe_event(session, actions.get_event(session, "ev"))
        assert shown["name"] == "ev" and shown["rounds_seated"] == 0


def test_delete_event_is_a_use_case(engine):
    with transaction(engine) as session:
        report = actions.delete_event(session, actions.get_event(session, "ev"))
        assert report.entrants == sorted(NAMES) and report.rounds == 0
    with reading(engine) as session, pytest.raises(UsageError, match="unknown event 'ev'"):
        actions.get_event(session, "ev")


def test_a_result_sent_from_a_table_and_waiting_keeps_the_event(engine):
    from tourney.tournament.table_links import INVALID, SUBMITTED, add_submission, round_links

    with transaction(engine) as session:
        event = actions.get_event(session, "ev")
        rounds.seat_next_round(session, event)
        link = round_links(session, event, 1)[0]
        add_submission(session, link, "event,variant\n", INVALID)
        waiting = add_submission(session, link, "event,variant\n", SUBMITTED)
    with pytest.raises(TourneyError, match="1 result sent from the tables wait"):
        with transaction(engine) as session:
            actions.delete_event(session, actions.get_event(session, "ev"))
    with transaction(engine) as session:
        from tourney.storage.models import Submission

        session.delete(session.get(Submission, waiting.id))
    with transaction(engine) as session:  # an invalid one goes with the event
        report = actions.delete_event(session, actions.get_event(session, "ev"))
        assert report.links == 1 and report.rounds == 1
