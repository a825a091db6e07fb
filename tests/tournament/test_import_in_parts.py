"""`result import --jobs`: a big file checked in parts, a process each, stores
exactly what one process stores, says exactly what one process says, and keeps
the import all-or-nothing.

Parts are at least 1 MB in use; here the bound is lowered so that a file of a few
matches is cut into parts (each test checks that it was).
"""
from __future__ import annotations

import csv
import io
import os
import signal

import pytest
from results_helpers import (
    create_event,
    make_engine,
    names,
    seat_round,
    simulate,
    unique,
)
from sqlalchemy import select
from sqlmodel import Session

from tourney.errors import TourneyError, UnknownName
from tourney.records import checked, parallel
from tourney.records.checked import ImportOptions
from tourney.storage.db import transaction
from tourney.storage.models import Deal, Event, Match, MatchPlace, MatchVersion
from tourney.tournament.results import ImportRejected, import_results

TABLES = 6


@pytest.fixture(autouse=True)
def small_parts(monkeypatch):
    monkeypatch.setattr(parallel, "MIN_PART_BYTES", 2000)
    monkeypatch.setattr(checked, "PART_BATCH_ROWS", 5)  # several batches a part
    cut = []
    plan = parallel.plan_parts

    def plan_and_count(*args, **kwargs):
        parts = plan(*args, **kwargs)
        cut.append(0 if parts is None else len(parts))
        return parts

    monkeypatch.setattr(checked, "plan_parts", plan_and_count)
    return cut


def twin_events(engine, rounds=1):
    """Two events seated alike (the same players at the same tables)."""
    slugs = [unique("twin"), unique("twin")]
    players = names(slugs[0], 4 * TABLES)
    seating = [players[i:i + 4] for i in range(0, len(players), 4)]
    for slug in slugs:
        create_event(engine, slug, "spardame", size=4)
        for number in range(1, rounds + 1):
            seat_round(engine, slug, number, seating)
    return slugs, seating


def rows_for(slug, seating, number=1, seed=7):
    records = simulate("spardame", slug, number, seating, seed=seed, deals=3)
    stream = io.StringIO()
    from tourney.engines import get_game
    from tourney.records.csv_format import write_records

    game = get_game("spardame")
    write_records(stream, records, game_for=lambda r: game)
    return list(csv.DictReader(io.StringIO(stream.getvalue())))


def write_rows(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return str(path)


def stored(engine, slug):
    """What an event has stored, free of ids and times."""
    with Session(engine) as session:
        event = session.execute(select(Event).where(Event.slug == slug)).scalar_one()
        out = []
        matches = session.execute(select(Match).where(Match.event_id == event.id)
                                  .order_by(Match.round_number, Match.table)).scalars()
        for match in matches:
            version = session.get(MatchVersion, match.current_version_id)
            deals = session.execute(select(Deal).where(Deal.version_id == version.id)
                                    .order_by(Deal.number)).scalars()
            places = session.execute(select(MatchPlace).where(
                MatchPlace.version_id == version.id).order_by(MatchPlace.seat)).scalars()
            out.append((match.round_number, match.table, version.version, version.deals,
                        version.content_sha256, version.verified_moves, version.ranking_json,
                        version.source_sha256,
                        [(d.number, d.players, d.dealer, d.hands, d.play, d.scores,
                          d.claimed_scores, d.verified) for d in deals],
                        [(p.player_id, p.seat, p.place, p.total, p.match_points) for p in places]))
        return out


def import_file(engine, path, jobs, **kwargs):
    with transaction(engine) as session:
        return import_results(session, path, ImportOptions(imported_by="test", jobs=jobs,
                                                            **kwargs))


def rejected(engine, path, jobs, slug, **kwargs):
    """The errors of an import that is rejected, the event's slug written EVENT."""
    with pytest.raises(ImportRejected) as caught:
        import_file(engine, path, jobs, **kwargs)
    report = caught.value.report
    return [(e.line, e.column, e.rule, e.seat, e.player, e.message.replace(slug, "EVENT"))
            for e in report.errors], report


def same_file_for(slug, rows, other):
    return [dict(row, event=other) for row in rows]


def test_parts_store_what_one_process_stores(db_url, tmp_path, small_parts):
    engine = make_engine(db_url)
    (one, many), seating = twin_events(engine, rounds=2)
    rows = rows_for(one, seating, 1) + rows_for(one, seating, 2, seed=8)
    first = write_rows(tmp_path / "one.csv", rows)
    second = write_rows(tmp_path / "many.csv", same_file_for(one, rows, many))

    report_one = import_file(engine, first, jobs=1)
    report_many = import_file(engine, second, jobs=3)
    # jobs=1 plans no parts; jobs=3 cuts more parts than processes (each takes the next)
    assert len(small_parts) == 1 and small_parts[0] > 3
    for field in ("added", "unchanged", "replaced", "rejected", "deals", "unfilled"):
        assert getattr(report_many, field) == getattr(report_one, field), field
    assert report_many.added == 2 * TABLES and report_many.committed
    mine, theirs = stored(engine, one), stored(engine, many)
    assert len(theirs) == 2 * TABLES
    # the same content: only the event (and so the file's hash) differs
    assert [m[:7] + m[8:] for m in mine] == [t[:7] + t[8:] for t in theirs]
    with open(second, "rb") as stream:
        import hashlib
        assert {t[7] for t in theirs} == {hashlib.sha256(stream.read()).hexdigest()}

    # the same file again in parts: nothing changes
    again = import_file(engine, second, jobs=3)
    assert (again.added, again.unchanged, again.replaced) == (0, 2 * TABLES, 0)
    assert stored(engine, many) == theirs


def test_errors_in_parts_are_the_errors_of_one_process(db_url, tmp_path, small_parts):
    engine = make_engine(db_url)
    slugs, seating = twin_events(engine)
    files = []
    for slug in slugs:
        rows = rows_for(slugs[0], seating)
        rows = same_file_for(slugs[0], rows, slug)
        tokens = rows[-2]["play"].split()  # the last table's second deal: an illegal move
        tokens[5], tokens[6] = tokens[6], tokens[5]
        rows[-2]["play"] = " ".join(tokens)
        rows[4]["scores"] = "1;2;3;4"  # the second table: claimed scores wrong
        files.append(write_rows(tmp_path / f"{slug}.csv", rows))
    errors_one, report_one = rejected(engine, files[0], 1, slugs[0])
    errors_many, report_many = rejected(engine, files[1], 3, slugs[1])
    assert small_parts[-1] >= 2
    assert errors_many == errors_one and len(errors_one) >= 2
    assert {e[2] for e in errors_one} >= {"scores-mismatch"}
    assert any(e[3] is not None and e[4] for e in errors_one)  # seat and player named
    assert (report_many.rejected, report_many.deals) == (report_one.rejected, report_one.deals)
    assert stored(engine, slugs[1]) == []


def test_rows_of_one_match_in_two_parts_are_refused_as_one_process_does(
        db_url, tmp_path, small_parts):
    engine = make_engine(db_url)
    slugs, seating = twin_events(engine)
    files = []
    for slug in slugs:
        rows = same_file_for(slugs[0], rows_for(slugs[0], seating), slug)
        rows += [dict(r) for r in rows if r["table"] == "1"]  # table 1 again at the end
        files.append(write_rows(tmp_path / f"{slug}.csv", rows))
    errors_one, _ = rejected(engine, files[0], 1, slugs[0])
    errors_many, _ = rejected(engine, files[1], 3, slugs[1])
    assert small_parts[-1] >= 2
    assert errors_many == errors_one
    assert {e[2] for e in errors_one} == {"match-split"}

    # with --skip-invalid the first occurrence is stored and the rows written
    outputs = []
    for path, jobs in zip(files, (1, 3)):
        rejects = io.StringIO()
        report = import_file(engine, path, jobs, rejects=rejects)
        assert report.added == TABLES and report.rejected == 1
        outputs.append(rejects.getvalue())
    assert outputs[0] == outputs[1].replace(slugs[1], slugs[0]) and outputs[0].count("must stand together") == 3


def test_an_unknown_event_in_a_later_part_is_one_usage_error(db_url, tmp_path, small_parts):
    engine = make_engine(db_url)
    slugs, seating = twin_events(engine)
    messages = []
    for slug in slugs:
        rows = same_file_for(slugs[0], rows_for(slugs[0], seating), slug)
        for row in rows[-3:]:
            row["event"] = "no-such-event"
        path = write_rows(tmp_path / "file.csv", rows)
        with pytest.raises(UnknownName) as caught:
            import_file(engine, path, jobs=1 if slug == slugs[0] else 3)
        messages.append(str(caught.value))
    assert small_parts[-1] >= 2
    assert messages[0] == messages[1] and "no-such-event" in messages[0]
    assert stored(engine, slugs[0]) == stored(engine, slugs[1]) == []


def test_a_killed_part_imports_nothing(db_url, tmp_path, small_parts, monkeypatch):
    engine = make_engine(db_url)
    slugs, seating = twin_events(engine)
    path = write_rows(tmp_path / "file.csv", rows_for(slugs[0], seating))
    check_part = checked.check_part

    def dies_in_the_last_part(source, send, **settings):
        if source.line_offset > 0:
            os.kill(os.getpid(), signal.SIGKILL)
        return check_part(source, send, **settings)

    monkeypatch.setattr(checked, "check_part", dies_in_the_last_part)
    with pytest.raises(TourneyError) as caught:
        import_file(engine, path, jobs=2)
    assert "stopped (signal 9)" in str(caught.value) and caught.value.setting == "jobs"
    assert "nothing was imported" in str(caught.value)
    assert stored(engine, slugs[0]) == []


def test_cuts_fall_only_where_a_new_match_surely_begins(tmp_path):
    header = "event,variant,round,table,deal,players,play\n"
    lines = [f"e,v,1,{t},{d},a;b,x\n" for t in (1, 2, 3) for d in (1, 2, 3)]
    data = (header + "".join(lines)).encode()
    key_at = [0, 2, 3, 7]
    at = len(header) + len(lines[0])  # inside table 1's rows
    assert parallel._match_start(data, at, ",", key_at) == len(header) + 3 * len(lines[0])
    # a ragged row (it joins the match before it) is neither cut at nor after:
    # the next cut is at table 3
    ragged = lines[:3] + ["e,v,1,1\n"] + lines[3:]
    data = (header + "".join(ragged)).encode()
    cut = parallel._match_start(data, len(header) + 1, ",", key_at)
    assert data[cut:].startswith(lines[6].encode())
    # the same round and table of another event (a slip in the event cell) is no cut
    slip = lines[:3] + ["f,v,1,1,4,a;b,x\n"] + lines[3:]
    data = (header + "".join(slip)).encode()
    cut = parallel._match_start(data, len(header) + 1, ",", key_at)
    assert data[cut:].startswith(lines[3].encode())
    # 01 and 1 are the same round
    same = lines[:3] + ["e,v,01,1,4,a;b,x\n"] + lines[3:]
    data = (header + "".join(same)).encode()
    cut = parallel._match_start(data, len(header) + 1, ",", key_at)
    assert data[cut:].startswith(lines[3].encode())


def test_the_seating_of_an_invalid_match_is_said_first_in_parts_too(db_url, tmp_path,
                                                                    small_parts):
    """The rows are checked in the parts' processes, the seating in the storing one,
    on the deal checks an invalid match keeps: a seat swap that breaks the dealer
    rule in the file's order is said as the seating, as one process says it."""
    engine = make_engine(db_url)
    (slug, _), seating = twin_events(engine)
    rows = rows_for(slug, seating)
    last = [r for r in rows if r["table"] == str(TABLES)]
    order = last[0]["players"].split(";")
    swapped = ";".join([order[1], order[0]] + order[2:])
    for index, row in enumerate(last):
        row["players"] = swapped  # the names in another order, the dealers as printed
        if index == 1:
            row["dealer"] = order[3]  # and a dealer error the seating does not explain
    path = write_rows(tmp_path / "swapped.csv", rows)
    one, _ = rejected(engine, path, 1, slug)
    many, _ = rejected(engine, path, 2, slug)
    assert small_parts[-1] > 1 and many == one
    line = 2 + rows.index(last[0])
    assert [(e[0], e[2], e[3], e[4]) for e in one] == [
        (line, "seat-order", 0, order[1]), (line + 1, "dealer-rotation", None, None)]
    as_said = [name.replace(slug, "EVENT") for name in order]  # as rejected() gives them
    assert one[1][5].startswith(f"{as_said[3]} deals, but {as_said[1]} should")
