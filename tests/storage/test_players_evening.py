"""The players' evening tables (migration 0007_players): private player links,
check-in and paid flags, the event's evening options, sign-up requests and the
log of e-mails sent; on SQLite and PostgreSQL."""
import secrets

import pytest
from sqlmodel import select

from tourney.storage.db import ConflictingChange, open_engine, transaction
from tourney.storage.models import (
    EntryStatus,
    Event,
    EventOptions,
    Notification,
    Player,
    PlayerLink,
    SignupRequest,
    utcnow,
)


def setup_event(run_cli, db_url):
    run_cli(db_url, "player", "add", "Anna Berg", "Bo Ek", "--club", "Vasa")
    run_cli(db_url, "event", "create", "club-1", "--variant", "kortrad", "--rounds", "2")
    run_cli(db_url, "event", "enter", "club-1", "--all")


def ids(session):
    event = session.exec(select(Event).where(Event.slug == "club-1")).one()
    anna = session.exec(select(Player).where(Player.name == "Anna Berg")).one()
    return event.id, anna.id


def test_rows_are_stored_and_read_back(db_url, run_cli):
    setup_event(run_cli, db_url)
    engine = open_engine(db_url)
    token = secrets.token_urlsafe(24)
    with transaction(engine) as session:
        event_id, anna_id = ids(session)
        session.add(PlayerLink(event_id=event_id, player_id=anna_id, token=token))
        session.add(EntryStatus(event_id=event_id, player_id=anna_id, checked_in_at=utcnow()))
        session.add(EventOptions(event_id=event_id, checkin=True, signup="open", fee=50.0))
        session.add(SignupRequest(event_id=event_id, name="Cai Dahl", club=None,
                                  email="cai@example.org"))
        session.add(Notification(event_id=event_id, player_id=anna_id, round_number=1,
                                 what="seating", address="anna@example.org",
                                 message_id="<1@tourney>", status="sent"))
    with transaction(engine) as session:
        event_id, anna_id = ids(session)
        link = session.exec(select(PlayerLink).where(PlayerLink.token == token)).one()
        assert (link.event_id, link.player_id, link.revoked_at) == (event_id, anna_id, None)
        options = session.exec(select(EventOptions)).one()
        assert (options.checkin, options.signup, options.fee) == (True, "open", 50.0)
        status = session.exec(select(EntryStatus)).one()
        assert status.checked_in_at is not None and status.paid_at is None
        assert session.exec(select(SignupRequest)).one().status == "pending"
        sent = session.exec(select(Notification)).one()
        assert (sent.what, sent.status, sent.sent_at.tzinfo is not None) == ("seating", "sent",
                                                                              True)


def test_a_token_is_unique(db_url, run_cli):
    setup_event(run_cli, db_url)
    engine = open_engine(db_url)
    with pytest.raises(ConflictingChange):
        with transaction(engine) as session:
            event_id, anna_id = ids(session)
            session.add(PlayerLink(event_id=event_id, player_id=anna_id, token="same"))
            session.add(PlayerLink(event_id=event_id, player_id=anna_id, token="same"))


def test_deleting_an_event_deletes_its_evening_rows(db_url, run_cli):
    setup_event(run_cli, db_url)
    engine = open_engine(db_url)
    with transaction(engine) as session:
        event_id, anna_id = ids(session)
        session.add(PlayerLink(event_id=event_id, player_id=anna_id, token="t" * 32))
        session.add(EntryStatus(event_id=event_id, player_id=anna_id, paid_at=utcnow()))
        session.add(EventOptions(event_id=event_id, fee=20.0))
        session.add(SignupRequest(event_id=event_id, name="Cai Dahl"))
        session.add(Notification(event_id=event_id, player_id=anna_id, round_number=1,
                                 what="results", address="a@example.org",
                                 message_id="<2@tourney>", status="failed"))
    run_cli(db_url, "event", "delete", "club-1", "--yes")
    with transaction(engine) as session:
        for model in (PlayerLink, EntryStatus, EventOptions, SignupRequest, Notification):
            assert session.exec(select(model)).all() == []
