"""What a result import reads of the database as the round grows (issue 34): a file
of one match reads its table (its seats, its stored match, its players' entries),
not the whole round and every entry of the event; a file of a whole round reads
the round in a fixed number of statements, not one a table."""
from __future__ import annotations

import contextlib
import json

from results_helpers import create_event, make_engine, simulate, unique, write_csv
from sqlalchemy import event as sa_event
from sqlalchemy import select
from sqlalchemy.engine.cursor import CursorResult
from sqlmodel import Session

from tourney.records.checked import ImportOptions
from tourney.storage.db import transaction
from tourney.storage.models import Entry, Event, Match, MatchVersion, Player, Round, Seat
from tourney.tournament.results import import_results

VARIANT = "spardame"


def big_round(engine, tables: int, *, stored: bool = True) -> tuple[str, list[list[str]]]:
    """An event whose round 1 seats ``tables`` tables of four; with ``stored``
    every table but the first has a stored match (a bare version: what the import
    compares is its hash). Written in bulk: the seating algorithms are not what is
    tested."""
    slug = unique("big")
    create_event(engine, slug, VARIANT, size=4)
    seating = [[f"{slug} p{t}-{s}" for s in range(4)] for t in range(1, tables + 1)]
    with Session(engine) as session:
        event_id = session.execute(select(Event.id).where(Event.slug == slug)).scalar_one()
        players = [Player(name=name) for table in seating for name in table]
        session.add_all(players)
        round_row = Round(event_id=event_id, number=1)
        session.add(round_row)
        session.flush()
        session.add_all(Entry(event_id=event_id, player_id=p.id) for p in players)
        session.add_all(Seat(round_id=round_row.id, player_id=p.id, table=str(i // 4 + 1),
                             seat=i % 4) for i, p in enumerate(players))
        matches = [Match(event_id=event_id, round_number=1, table=str(t))
                   for t in range(2, tables + 1 if stored else 2)]
        session.add_all(matches)
        session.flush()
        versions = [MatchVersion(match_id=m.id, version=1, content_sha256=f"{m.id:064x}",
                                 source_file="earlier.csv", imported_by="test", deals=1,
                                 ranking_json=json.dumps([]))
                    for m in matches]
        session.add_all(versions)
        session.flush()
        for match, version in zip(matches, versions):
            match.current_version_id = version.id
        session.commit()
    return slug, seating


@contextlib.contextmanager
def reads(engine, monkeypatch):
    """Counts the statements sent and the rows fetched while the block runs.
    Rows are counted where SQLAlchemy hands a cursor's rows on (each fetch of a
    :class:`CursorResult`), the one place every result's rows pass through on
    both databases."""
    counted = {"statements": 0, "rows": 0}

    def count_statement(*_args) -> None:
        counted["statements"] += 1

    def counting(name: str, many: bool):
        fetch = getattr(CursorResult, name)

        def fetch_counted(self, *args, **kwargs):
            got = fetch(self, *args, **kwargs)
            if many:
                got = list(got)
                counted["rows"] += len(got)
            elif got is not None:
                counted["rows"] += 1
            return got
        monkeypatch.setattr(CursorResult, name, fetch_counted)

    for name, many in (("_fetchiter_impl", True), ("_fetchone_impl", False),
                       ("_fetchall_impl", True), ("_fetchmany_impl", True)):
        counting(name, many)
    sa_event.listen(engine, "before_cursor_execute", count_statement)
    try:
        yield counted
    finally:
        sa_event.remove(engine, "before_cursor_execute", count_statement)
        monkeypatch.undo()


def import_counted(engine, monkeypatch, path, *, replace: bool = False
                   ) -> tuple[dict, object]:
    with reads(engine, monkeypatch) as counted, transaction(engine) as session:
        report = import_results(session, str(path), ImportOptions(jobs=1, replace=replace))
    return counted, report


def test_one_match_reads_the_same_in_a_round_ten_times_bigger(db_url, tmp_path, monkeypatch):
    engine = make_engine(db_url)
    counts = {}
    for tables in (40, 400):
        slug, seating = big_round(engine, tables)
        one = write_csv(tmp_path / f"one-{tables}.csv",
                        simulate(VARIANT, slug, 1, seating[:1], deals=2), VARIANT)
        counts[tables, "new"], report = import_counted(engine, monkeypatch, one)
        assert report.added == 1 and report.error_count == 0
        # the same match again: found unchanged by reading only its table
        again, report = import_counted(engine, monkeypatch, one)
        assert report.unchanged == 1 and report.added == 0
        counts[tables, "again"] = again
        # another result for table 2, stored before: the correction compares the
        # stored deals by the players' names of now, read of the merged players only
        fixed = write_csv(tmp_path / f"fix-{tables}.csv",
                          [r for r in simulate(VARIANT, slug, 1, seating[:2], deals=2)
                           if r.table == "2"], VARIANT)
        counts[tables, "replace"], report = import_counted(engine, monkeypatch, fixed,
                                                           replace=True)
        assert report.replaced == 1 and report.error_count == 0
    assert counts[40, "new"] == counts[400, "new"]
    assert counts[40, "again"] == counts[400, "again"]
    assert counts[40, "replace"] == counts[400, "replace"]
    # a table's four seats, its match and the event, not the 160 seats, 39 matches
    # and 160 entries of the round of 40 tables, nor its 160 players' names
    assert all(counts[40, what]["rows"] < 40 for what in ("new", "again", "replace"))


def test_a_whole_round_is_read_in_the_same_statements_whatever_its_tables(
        db_url, tmp_path, monkeypatch):
    from unittest import mock

    from tourney.storage import bulk

    engine = make_engine(db_url)
    counts = {}
    # the reads counted: the round's rows written by COPY alike at 10 and 40 tables
    # (a few rows go as one INSERT, a statement this count would see)
    with mock.patch.object(bulk, "PG_VALUES_ROWS", 0):
        for tables in (10, 40):
            slug, seating = big_round(engine, tables, stored=False)
            whole = write_csv(tmp_path / f"round-{tables}.csv",
                              simulate(VARIANT, slug, 1, seating, deals=2), VARIANT)
            counts[tables], report = import_counted(engine, monkeypatch, whole)
            assert report.added == tables and report.error_count == 0
    assert counts[10]["statements"] == counts[40]["statements"]
