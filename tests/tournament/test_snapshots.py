"""Standings snapshots (tourney.tournament.snapshots) on both databases: the
commands that change an event of a series keep its snapshot, the series reads a
snapshot only while its key is the event's key now, a change made behind the
commands' back makes the series compute the event afresh, and reading writes
nothing."""
from __future__ import annotations

import json

import pytest
from conftest import from_snapshot
from season_helpers import RESULTS, correct, make_season
from sqlalchemy import select, update
from sqlmodel import Session

from tourney.storage.db import open_engine
from tourney.storage.models import Event, StandingsSnapshot
from tourney.tournament import snapshots


@pytest.fixture
def season(tourney, db_url):
    # built once per backend, then copied: most of these tests' time was the building
    from_snapshot(db_url, "season", lambda url: make_season(tourney, url))
    return tourney


def stored(db_url) -> dict[str, tuple[str, list]]:
    """Each event's snapshot as stored: slug -> (key, rows)."""
    engine = open_engine(db_url)
    with Session(engine) as session:
        rows = session.execute(select(Event.slug, StandingsSnapshot.key, StandingsSnapshot.rows_json)
                               .join(Event, Event.id == StandingsSnapshot.event_id)).all()
    engine.dispose()
    return {slug: (key, json.loads(data)) for slug, key, data in rows}


def valid(db_url) -> dict[str, bool]:
    """Whether each event's stored snapshot is the one the series would read."""
    engine = open_engine(db_url)
    with Session(engine) as session:
        keys = {e.slug: snapshots.snapshot_key(e) for e in session.execute(select(Event)).scalars()}
    engine.dispose()
    return {slug: key == keys[slug] for slug, (key, _) in stored(db_url).items()}


def totals(run) -> dict[str, float]:
    return {row["player"]: row["total"] for row in run("series", "standings", "season",
                                                        "--json").json["standings"]}


def test_adding_events_keeps_their_snapshots_and_the_series_reads_them(season, db_url):
    assert valid(db_url) == {"ev1": True, "ev2": True, "ev3": True}
    points = {slug: {row[0]: row[1] for row in rows} for slug, (_, rows) in stored(db_url).items()}
    assert sorted(points["ev1"].values()) == [0, 1, 2, 3]  # every player who played
    # the series reads the snapshot: a value changed in it (its key kept) shows
    key, rows = stored(db_url)["ev3"]
    engine = open_engine(db_url)
    with Session(engine) as session:
        rows[0][1] += 100
        session.execute(update(StandingsSnapshot).values(rows_json=json.dumps(rows))
                        .where(StandingsSnapshot.key == key))
        session.commit()
    engine.dispose()
    changed = totals(season)
    player = next(name for name, total in changed.items() if total > 100)
    assert player in {name for name, _, _ in RESULTS["ev3"][0]}


def test_a_change_behind_the_commands_back_is_computed_afresh_and_not_kept(season, db_url):
    before = stored(db_url)
    fixed = [("Dag", 1, 3), ("Bo", 2, 2), ("Cai", 3, 1), ("Anna", 4, 0)]
    correct(db_url, "ev1", fixed)  # written straight into the database
    assert valid(db_url)["ev1"] is False  # the event's stamp moved on
    got = totals(season)
    assert got["Dag"] == 3 and got["Anna"] == 3.5  # Anna: 1 (ev2) + 2.5 (ev3)
    assert stored(db_url) == before  # a read command writes no snapshot


def test_the_arbiters_changes_keep_the_snapshot(season, db_url):
    season("result", "adjust", "ev2", "Eva", "--points", "4", "--reason", "late bonus")
    assert valid(db_url)["ev2"] is True
    assert dict((r[0], r[1]) for r in stored(db_url)["ev2"][1])  # kept anew
    assert totals(season)["Eva"] == 4 + 1.5  # 0 + 4 in ev2, 1.5 in ev3 (best 2)
    season("result", "adjust", "ev2", "--cancel", "1")
    assert valid(db_url)["ev2"] is True
    assert totals(season)["Eva"] == 1.5


def test_a_merge_keeps_the_snapshots(season, db_url):
    season("player", "add", "Anna B")
    season("player", "merge", "Anna", "Anna B")
    assert all(valid(db_url).values())


def test_a_snapshot_of_other_code_is_not_read(season, db_url, monkeypatch):
    engine = open_engine(db_url)
    with Session(engine) as session:
        event = session.execute(select(Event).where(Event.slug == "ev1")).scalar_one()
        key = snapshots.snapshot_key(event)
        monkeypatch.setattr(snapshots, "_CODE", ["another tourney"])
        assert snapshots.snapshot_key(event) != key
    engine.dispose()
