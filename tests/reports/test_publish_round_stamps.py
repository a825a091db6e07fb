"""A publish after one result reads only the changed round (issue 34): a round whose
content stamp (migration 0013) is the one the last publish kept is not read again, its
outputs kept and the event's standings, page, screen, rounds file and feed known by the
parts the manifest keeps of it; the site is the one a full publish makes. A change
the stamp does not see (the round's own row) and one of the rounds' shared outputs to
make again (a round completed) read every round."""
from __future__ import annotations

import random

import pytest
from site_helpers import seat_round_two
from sqlalchemy import text
from test_publish_random_changes import STAMPED, files_of
from test_round_outputs import NAMES, _play

from tourney.reports.data import SiteReader
from tourney.storage.db import open_engine


@pytest.fixture
def rows_read(monkeypatch):
    """The rows :meth:`SiteReader.event_data` fetches, (SQL, rows) per query, from
    the publishes that follow."""
    seen: list[tuple[str, list]] = []
    inside: list[bool] = []
    rows, event_data = SiteReader._rows, SiteReader.event_data

    def spy_rows(self, statement):
        found = rows(self, statement)
        if inside:
            seen.append((str(statement.compile()), list(found)))
        return found

    def spy_event_data(self, *args, **kwargs):
        inside.append(True)
        try:
            return event_data(self, *args, **kwargs)
        finally:
            inside.pop()

    monkeypatch.setattr(SiteReader, "_rows", spy_rows)
    monkeypatch.setattr(SiteReader, "event_data", spy_event_data)
    return seen


def _round_rows(seen: list[tuple[str, list]], db_url: str, number: int) -> list:
    """The rows of round ``number`` of the cup among those read: its seats, matches,
    places (each query's first column: a round id or a match id) and forfeits."""
    with open_engine(db_url).connect() as connection:
        (round_id,) = connection.execute(text(
            "SELECT id FROM round WHERE number = :n"), {"n": number}).one()
        match_ids = set(connection.execute(text(
            "SELECT id FROM match WHERE round_number = :n"), {"n": number}).scalars())
    found = []
    for sql, rows in seen:
        source = sql.split("\nFROM ", 1)[1]
        if source.startswith("seat"):
            found += [row for row in rows if row[0] == round_id]
        elif source.startswith("match"):
            found += [row for row in rows if row[0] in match_ids]
        elif source.startswith("forfeit"):
            found += [row for row in rows if row[0] == number]
    return found


def _same_as_full(tourney, tmp_path, site) -> None:
    full = tmp_path / "full"
    tourney("publish", "--out", str(full), "--full")
    incremental, rebuilt = files_of(site), files_of(full)
    assert sorted(incremental) == sorted(rebuilt)
    for name in incremental:
        if name not in STAMPED:
            assert incremental[name] == rebuilt[name], name


def test_a_result_of_round_two_reads_no_row_of_round_one(tourney, tmp_path, db_url,
                                                         rows_read):
    seat_round_two(tourney, tmp_path, NAMES)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site))
    assert _round_rows(rows_read, db_url, 1) != []  # the first publish read it
    tables = tourney("round", "show", "cup", "2", "--json").json["tables"]

    rows_read.clear()
    _play(tourney, tmp_path, 2, tables[0], seed=1)
    report = tourney("publish", "--out", str(site), "--json").json["details"]
    assert _round_rows(rows_read, db_url, 1) == []
    assert len(_round_rows(rows_read, db_url, 2)) >= len(NAMES)  # round 2's seats at least
    assert 0 < report["rendered"] < report["pages"]
    _same_as_full(tourney, tmp_path, site)

    # a forfeit in round 2, then a correction of round 1: read again, as it changed
    rows_read.clear()
    tourney("result", "forfeit", "cup", "2", tables[1]["table"], "--absent",
            tables[1]["seats"][0])
    tourney("publish", "--out", str(site))
    assert _round_rows(rows_read, db_url, 1) == []
    _same_as_full(tourney, tmp_path, site)
    round_one = tourney("round", "show", "cup", "1", "--json").json["tables"]
    rows_read.clear()
    _play(tourney, tmp_path, 1, round_one[0], seed=5, replace=True)
    tourney("publish", "--out", str(site))
    assert _round_rows(rows_read, db_url, 1) != []
    _same_as_full(tourney, tmp_path, site)


def test_what_the_stamp_does_not_see_reads_every_round(tourney, tmp_path, db_url, rows_read):
    """The round's own row (not stamped: publish reads it) and the round's last result
    (the standings, the event's page and the grid show every counted round) read the
    rounds the stamp would leave out."""
    seat_round_two(tourney, tmp_path, NAMES)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site))
    engine = open_engine(db_url)
    with engine.begin() as connection:  # the round's seating time: its feed entry shows it
        connection.execute(text(
            "UPDATE round SET seated_at = '2024-01-02 10:00:00' WHERE number = 1"))
    engine.dispose()
    rows_read.clear()
    tourney("publish", "--out", str(site))
    assert _round_rows(rows_read, db_url, 1) != []
    _same_as_full(tourney, tmp_path, site)

    tables = tourney("round", "show", "cup", "2", "--json").json["tables"]
    rng = random.Random(3)
    for table in tables:  # the round's every result: the standings after round 2
        rows_read.clear()
        _play(tourney, tmp_path, 2, table, seed=rng.randrange(1000))
        tourney("publish", "--out", str(site))
    assert _round_rows(rows_read, db_url, 1) != []
    _same_as_full(tourney, tmp_path, site)
