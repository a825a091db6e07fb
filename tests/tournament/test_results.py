"""Result import, export, versions: `tourney result ...` against SQLite and PostgreSQL."""
from __future__ import annotations

import csv
import io
import json
import random

import pytest
from results_helpers import (
    create_event,
    dump,
    import_json,
    make_engine,
    names,
    run,
    seat_round,
    simulate,
    tables_of,
    unique,
    write_csv,
)
from sqlalchemy import select
from sqlmodel import Session

from tourney.engines import get_game
from tourney.engines.match import MatchTally
from tourney.records.checked import ImportOptions
from tourney.records.csv_format import read_records_text
from tourney.records.validation import MatchCheck, RecordChecker
from tourney.simulation import simulate_match
from tourney.storage.db import transaction
from tourney.storage.models import (
    AuditLog,
    Deal,
    Event,
    Match,
    MatchPlace,
    MatchVersion,
)
from tourney.tournament.results import ImportRejected, import_results
from tourney.tournament.scoring import match_points

# ----------------------------------------------------------------------------- setup

def setup_event(db_url, variant="spardame", size=4, tables=2, rules=None, rounds=1, **kw):
    """An event with round(s) seated; the players of each round are the same tables."""
    engine = make_engine(db_url)
    slug = unique(variant)
    create_event(engine, slug, variant, size=size, rules=rules)
    players = names(slug, size * tables)
    seating = tables_of(players, size)
    for number in range(1, rounds + 1):
        seat_round(engine, slug, number, seating, **kw)
    return engine, slug, seating


def csv_rows(path):
    with open(path, encoding="utf-8-sig", newline="") as stream:
        return list(csv.DictReader(stream))


def rows_of(records, variant="spardame"):
    stream = io.StringIO()
    game = get_game(variant)
    from tourney.records.csv_format import write_records
    write_records(stream, records, game_for=lambda r: game)
    return list(csv.DictReader(io.StringIO(stream.getvalue())))


def respell(rows, name, spelling):
    """The rows with ``name`` spelt ``spelling`` in their players and dealer cells."""
    for row in rows:
        row["players"] = row["players"].replace(name, spelling)
        row["dealer"] = row["dealer"].replace(name, spelling)


def write_rows(path, rows, fieldnames=None):
    fieldnames = fieldnames or list(rows[0])
    with open(path, "w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=fieldnames, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


# ----------------------------------------------------------------------------- units

@pytest.mark.parametrize("places, points", [
    ([1, 2, 3, 4], [3, 2, 1, 0]),
    ([1, 1, 3, 4], [2.5, 2.5, 1, 0]),
    ([1, 2, 2, 2], [3, 1, 1, 1]),
    ([1, 1, 1], [1, 1, 1]),
    ([1, 2], [1, 0]),
    ([1, 1], [0.5, 0.5]),
    ([2, 1, 3, 3, 5], [3, 4, 1.5, 1.5, 0]),
])
def test_place_points_share_the_places_covered(places, points):
    assert match_points(places, "place") == points
    # the table hands out n(n-1)/2 points whatever the sharing
    n = len(places)
    assert sum(match_points(places, "place")) == n * (n - 1) / 2


@pytest.mark.parametrize("places, shares", [
    ([1, 2, 3], [1, 0.5, 0]),
    ([1, 2, 3, 4, 5], [1, 0.75, 0.5, 0.25, 0]),
    ([1, 1], [0.5, 0.5]),
    ([1, 1, 3, 4], [5 / 6, 5 / 6, 1 / 3, 0]),
    ([1, 2, 2, 2], [1, 1 / 3, 1 / 3, 1 / 3]),
    ([1, 1, 1], [0.5, 0.5, 0.5]),
])
def test_share_points_are_the_share_of_the_table_beaten(places, shares):
    assert match_points(places) == pytest.approx(shares)
    assert match_points(places, "share") == match_points(places)
    # a win is worth 1 and last place 0 at every table size: the average is always 1/2
    assert sum(match_points(places)) == pytest.approx(len(places) / 2)


# ----------------------------------------------------------------------------- round trip

def test_import_stores_matches_and_export_round_trips(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url)
    records = simulate("spardame", slug, 1, seating, seed=3, deals=None)
    source = write_csv(tmp_path / "r1.csv", records, "spardame")

    code, report, result = import_json(db_url, source)
    assert code == 0, result.output
    assert (report["added"], report["unchanged"], report["replaced"], report["rejected"]) == (2, 0, 0, 0)
    assert report["errors"] == [] and report["committed"]
    assert "added: 2 matches, unchanged: 0, replaced: 0, rejected: 0" in result.stderr
    assert "importing" not in result.stderr  # no progress bar unless stderr is a terminal

    with Session(engine) as session:
        event = session.execute(select(Event).where(Event.slug == slug)).scalar_one()
        matches = session.execute(select(Match).where(Match.event_id == event.id)).scalars().all()
        assert sorted(m.table for m in matches) == ["1", "2"]
        for match in matches:
            version = session.get(MatchVersion, match.current_version_id)
            assert version.version == 1 and version.superseded_at is None
            assert version.source_file == "r1.csv" and len(version.source_sha256) == 64
            assert version.imported_by
            mine = [r for r in records if r.table == match.table]
            assert version.deals == len(mine)
            deals = session.execute(select(Deal).where(Deal.version_id == version.id)
                                    .order_by(Deal.number)).scalars().all()
            assert [d.play for d in deals] == [" ".join(r.play) for r in mine]
            assert [d.scores for d in deals] == [";".join(r.scores) for r in mine]
            # places: recomputed from the deal scores
            tally = MatchTally(mine[0].players)
            for r in mine:
                tally.add(r.players, [int(s) for s in r.scores])
            places = session.execute(select(MatchPlace).where(
                MatchPlace.version_id == version.id)).scalars().all()
            by_seat = {p.seat: p for p in places}
            totals = [tally.totals[name] for name in mine[0].players]
            assert [by_seat[s].total for s in range(4)] == totals
            expected_places = [1 + sum(t < mine_t for t in totals) for mine_t in totals]
            assert [by_seat[s].place for s in range(4)] == expected_places
            # the event's default points: the share of the table beaten
            assert [by_seat[s].match_points for s in range(4)] == match_points(expected_places,
                                                                               "share")

    exported = run(db_url, "result", "export", slug, ok=True).stdout
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert len(rows) == len(records)
    assert {r["event"] for r in rows} == {slug} and {r["variant"] for r in rows} == {"spardame"}
    assert [r["play"] for r in rows] == [" ".join(r.play) for r in records]
    # the export validates with the event's rules...
    checker = RecordChecker(rules={})
    checks = list(checker.check_stream(read_records_text(exported)))
    assert checks and all(c.valid for c in checks)
    assert sum(isinstance(c, MatchCheck) for c in checks) == 2
    # ...and importing it again changes nothing
    out = tmp_path / "export.csv"
    run(db_url, "result", "export", slug, "--out", str(out), ok=True)
    before = dump(engine)
    code, report, _ = import_json(db_url, out)
    assert code == 0 and (report["added"], report["unchanged"]) == (0, 2)
    assert dump(engine) == before


def test_export_one_round_in_natural_table_order(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, variant="svarta-maja", size=2, tables=11,
                                        rounds=2)
    for number in (1, 2):
        records = simulate("svarta-maja", slug, number, seating, seed=number, deals=2)
        run(db_url, "result", "import", str(write_csv(tmp_path / f"r{number}.csv", records,
                                                      "svarta-maja")), ok=True)
    rows = list(csv.DictReader(io.StringIO(
        run(db_url, "result", "export", slug, "--round", "2", ok=True).stdout)))
    assert {r["round"] for r in rows} == {"2"}
    tables = list(dict.fromkeys(r["table"] for r in rows))
    assert tables == [str(i) for i in range(1, 12)]


def test_idempotent_and_spelling_is_not_a_change(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url)
    records = simulate("spardame", slug, 1, seating, seed=5)
    source = write_csv(tmp_path / "r1.csv", records, "spardame")
    run(db_url, "result", "import", str(source), ok=True)
    before = dump(engine)

    code, report, _ = import_json(db_url, source)
    assert code == 0 and (report["added"], report["unchanged"]) == (0, 2)
    assert dump(engine) == before

    # another spelling of the same content: 10 for T, lower case, no scores column,
    # no event column (given by --event), shuffled column order
    rows = csv_rows(source)
    for row in rows:
        row["play"] = row["play"].replace("T", "10").lower()
        row["hands"] = row["hands"].replace("T", "10")
        del row["scores"], row["event"]
    fields = list(reversed(list(rows[0])))
    respelled = write_rows(tmp_path / "respelled.csv", rows, fields)
    code, report, result = import_json(db_url, respelled, "--event", slug)
    assert code == 0, result.output
    assert (report["added"], report["unchanged"], report["replaced"]) == (0, 2, 0)
    assert dump(engine) == before


def test_bom_is_accepted(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating), "spardame")
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())
    code, report, _ = import_json(db_url, bom)
    assert code == 0 and report["added"] == 1


# ----------------------------------------------------------------------------- versions

def test_changed_match_needs_replace_then_history_and_revert(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url)
    first = write_csv(tmp_path / "first.csv", simulate("spardame", slug, 1, seating, seed=1),
                      "spardame")
    run(db_url, "result", "import", str(first), ok=True)
    # table 1 played differently (another deal), table 2 as before
    other = simulate("spardame", slug, 1, seating, seed=99)
    base = simulate("spardame", slug, 1, seating, seed=1)
    changed = [r for r in other if r.table == "1"] + [r for r in base if r.table == "2"]
    second = write_csv(tmp_path / "second.csv", changed, "spardame")

    before = dump(engine)
    code, report, result = import_json(db_url, second)
    assert code == 1
    assert dump(engine) == before
    [error] = report["errors"]
    assert error["rule"] == "match-changed" and error["line"] == 2
    assert error["column"] == "hands"  # the first differing column of deal 1
    assert "deal 1 hands" in error["message"] and "Replacing it" in error["message"]
    assert "--replace" not in error["message"]  # the library's words; the CLI adds the flag
    assert "second.csv, line 2, hands" in result.stderr and "(--replace)" in result.stderr

    code, report, result = import_json(db_url, second, "--replace", "--by", "Kari")
    assert code == 0, result.output
    assert (report["added"], report["unchanged"], report["replaced"]) == (0, 1, 1)

    history = json.loads(run(db_url, "result", "history", slug, "1", "1", "--json",
                             ok=True).stdout)
    assert [(v["version"], v["current"]) for v in history] == [(1, False), (2, True)]
    assert history[0]["superseded_at"] and history[1]["superseded_at"] is None
    assert history[1]["imported_by"] == "Kari" and history[1]["file"] == "second.csv"
    assert history[0]["file"] == "first.csv"
    assert history[0]["content_sha256"] != history[1]["content_sha256"]
    assert {name for name, _ in history[1]["ranking"]} == set(seating[0])
    plain = run(db_url, "result", "history", slug, "1", "1", ok=True).stdout
    assert "second.csv" in plain and "first.csv" in plain

    shown = json.loads(run(db_url, "result", "show", slug, "1", "1", "--json", ok=True).stdout)
    assert shown["version"] == 2 and len(shown["deals"]) == shown["deal_count"]

    run(db_url, "result", "revert", slug, "1", "1", "1", ok=True)
    history = json.loads(run(db_url, "result", "history", slug, "1", "1", "--json",
                             ok=True).stdout)
    assert [(v["version"], v["current"]) for v in history] == [(1, True), (2, False)]
    assert history[0]["superseded_at"] is None and history[1]["superseded_at"]
    # the first file is the current content again
    code, report, _ = import_json(db_url, first)
    assert code == 0 and report["unchanged"] == 2
    # reverting to the current version changes nothing; a missing version is an error
    again = run(db_url, "result", "revert", slug, "1", "1", "1", ok=True)
    assert "version 1 is already current; nothing changed" in again.stderr
    missing = run(db_url, "result", "revert", slug, "1", "1", "7", ok=False)
    assert "no version 7" in missing.stderr
    with Session(engine) as session:
        actions = [a.action for a in session.execute(select(AuditLog).order_by(AuditLog.id)).scalars()
                   if a.subject and slug in a.subject]
    assert actions.count("result.revert") == 1 and actions.count("result.replace") == 1
    assert actions.count("result.import") == 2


def test_dry_run_writes_nothing(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating), "spardame")
    before = dump(engine)
    code, report, result = import_json(db_url, source, "--dry-run")
    assert code == 0 and report["dry_run"] and not report["committed"]
    assert report["added"] == 2
    assert "dry run" in result.stderr
    assert dump(engine) == before


# ----------------------------------------------------------------------------- bad input

def _mutations(slug, seating):
    """name -> (change the rows, expected rule, expected line, expected column)."""
    def swap_play(rows):
        tokens = rows[1]["play"].split()
        tokens[5], tokens[6] = tokens[6], tokens[5]
        rows[1]["play"] = " ".join(tokens)
        return rows

    def claim(rows):
        rows[2]["scores"] = "1;2;3;4"
        return rows

    def duplicate_row(rows):
        return rows[:3] + [dict(rows[2])] + rows[3:]

    def duplicate_deal(rows):
        # a valid deal 3 of another playing of table 1 (same players, same dealer)
        other = rows_of(simulate("spardame", slug, 1, seating[:1], seed=77, deals=3))
        return rows[:3] + [other[2]] + rows[3:]

    def match_twice(rows):
        return rows + [dict(r) for r in rows if r["table"] == "1"]

    def stranger(rows):
        for row in rows:
            if row["table"] == "1":
                row["players"] = row["players"].replace(seating[0][3], "Nobody Seated")
                row["dealer"] = row["dealer"].replace(seating[0][3], "Nobody Seated")
        return rows

    def seat_order(rows):
        # table 1 played (consistently) with seats 0 and 1 exchanged
        order = [seating[0][1], seating[0][0]] + list(seating[0][2:])
        replay = simulate("spardame", slug, 1, [order], seed=5, deals=3)
        return rows_of(replay) + [r for r in rows if r["table"] != "1"]

    def bad_variant(rows):
        rows[0]["variant"] = "dam-stick"
        return rows

    def no_table(rows):
        for row in rows:
            if row["table"] == "2":
                row["table"] = "9"
        return rows

    def no_round(rows):
        for row in rows:
            if row["table"] == "2":
                row["round"] = "4"
        return rows

    return {
        "illegal-move": (swap_play, None, 3, "play"),
        "scores-mismatch": (claim, "scores-mismatch", 4, "scores"),
        "duplicate-row": (duplicate_row, "duplicate-row", 5, "deal"),
        "duplicate-deal": (duplicate_deal, "duplicate-deal", 5, "deal"),
        "match-split": (match_twice, "match-split", None, "table"),
        "not-entered": (stranger, "not-entered", 2, "players"),
        "seat-order": (seat_order, "seat-order", 2, "players"),
        "variant": (bad_variant, "variant", 2, "variant"),
        "unknown-table": (no_table, "unknown-table", None, "table"),
        "round-not-seated": (no_round, "round-not-seated", None, "round"),
    }


@pytest.mark.parametrize("case", list(_mutations("x", [["a"] * 4] * 2)))
def test_invalid_rows_reject_the_whole_file(db_url, tmp_path, case):
    engine, slug, seating = setup_event(db_url)
    records = simulate("spardame", slug, 1, seating, seed=11, rules=None, deals=3)
    source = write_csv(tmp_path / "good.csv", records, "spardame")
    mutate, rule, line, column = _mutations(slug, seating)[case]
    bad = write_rows(tmp_path / "bad.csv", mutate(csv_rows(source)))

    before = dump(engine)
    code, report, result = import_json(db_url, bad)
    assert code == 1, result.output
    assert dump(engine) == before
    assert report["added"] == 0 and not report["committed"] and report["rejected"] >= 1
    errors = report["errors"]
    assert errors
    error = errors[0]
    if rule is not None:
        assert error["rule"] == rule, errors
    if line is not None:
        assert error["line"] == line, errors
    if column is not None:
        assert error["column"] == column, errors
    assert error["file"].endswith("bad.csv") and error["message"]
    # stderr lists every error with file, line and rule; the summary; the verdict
    for err in errors:
        assert f"line {err['line']}" in result.stderr and f"[{err['rule']}]" in result.stderr
    assert "rejected:" in result.stderr and "database is unchanged" in result.stderr


def test_other_event_than_given_is_an_error(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url)
    other_engine, other, other_seating = setup_event(db_url)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", other, 1, other_seating),
                       "spardame")
    before = dump(engine)
    code, report, _ = import_json(db_url, source, "--event", slug)
    assert code == 1 and dump(engine) == before
    assert {e["rule"] for e in report["errors"]} == {"other-event"}
    assert report["errors"][0]["line"] == 2 and report["errors"][0]["column"] == "event"


def test_an_unknown_event_in_the_file_is_one_usage_error(db_url, tmp_path):
    """An event column naming no event: exit 2 (an unknown name is a usage error),
    said once for the file at its first row, with the close slug suggested."""
    engine, slug, seating = setup_event(db_url)
    typo = slug.replace("-", "", 1)
    rows = csv_rows(write_csv(tmp_path / "good.csv", simulate("spardame", slug, 1, seating),
                              "spardame"))
    for row in rows:
        row["event"] = typo
    bad = write_rows(tmp_path / "bad-event.csv", rows)
    before = dump(engine)
    result = run(db_url, "result", "import", str(bad))
    assert result.exit_code == 2 and dump(engine) == before, result.output
    said = f"{bad}, line 2, event: unknown event {typo!r} (did you mean {slug}?)"
    assert said in result.stderr and result.stderr.count("unknown event") == 1, result.stderr
    assert "in the database" not in result.stderr


def test_no_event_at_all_is_an_error(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", None, 1, seating,
                                                     event_column=False), "spardame")
    code, report, _ = import_json(db_url, source)
    assert code == 1 and report["errors"][0]["rule"] == "event"
    code, report, _ = import_json(db_url, source, "--event", slug)
    assert code == 0 and report["added"] == 1


def test_first_dealer_must_be_seat_zero(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    game = get_game("spardame")
    options = game.resolve_options({})
    records = simulate_match(game, options, seating[0], random.Random(2), event=slug,
                             round_number=1, table="1", deals=2, first_dealer=1)
    source = write_csv(tmp_path / "r1.csv", records, "spardame")
    before = dump(engine)
    code, report, _ = import_json(db_url, source)
    assert code == 1 and dump(engine) == before
    [error] = report["errors"]
    assert (error["rule"], error["line"], error["column"]) == ("first-dealer", 2, "dealer")
    assert seating[0][0] in error["message"] and seating[0][1] in error["message"]


def test_withdrawn_player_cannot_have_a_result(db_url, tmp_path):
    engine = make_engine(db_url)
    slug = unique("wd")
    create_event(engine, slug, "spardame", size=4)
    players = names(slug, 4)
    seat_round(engine, slug, 1, [players])
    seat_round(engine, slug, 2, [players], withdrawn={})
    with Session(engine) as session:
        from tourney.storage.models import Entry, Player
        pid = session.execute(select(Player.id).where(Player.name == players[2])).scalar()
        entry = session.execute(select(Entry).where(Entry.player_id == pid)).scalar_one()
        entry.withdrawn_after = 1
        session.add(entry)
        session.commit()
    ok = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, [players]), "spardame")
    run(db_url, "result", "import", str(ok), ok=True)
    late = write_csv(tmp_path / "r2.csv", simulate("spardame", slug, 2, [players]), "spardame")
    code, report, _ = import_json(db_url, late)
    assert code == 1
    [error] = report["errors"]
    assert error["rule"] == "withdrawn" and players[2] in error["message"]


def test_a_merged_duplicates_name_counts_as_the_kept_player(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    duplicate, kept = seating[0][2], f"{slug} kept"
    run(db_url, "player", "add", kept, ok=True)
    run(db_url, "player", "merge", kept, duplicate, ok=True)
    records = simulate("spardame", slug, 1, seating, deals=2)  # the printed (old) names
    code, report, result = import_json(db_url, write_csv(tmp_path / "r1.csv", records,
                                                         "spardame"))
    assert code == 0, result.output
    shown = json.loads(run(db_url, "result", "show", slug, "1", "1", "--json", ok=True).stdout)
    assert kept in shown["deals"][0]["players"] and duplicate not in shown["deals"][0]["players"]
    assert kept in {p["player"] for p in shown["places"]}
    # the export spells the kept name and is the same content
    exported = tmp_path / "export.csv"
    run(db_url, "result", "export", slug, "--out", str(exported), ok=True)
    code, report, _ = import_json(db_url, exported)
    assert code == 0 and report["unchanged"] == 1


def test_a_file_written_before_a_rename_still_imports(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    old = seating[0][1]
    records = simulate("spardame", slug, 1, seating, deals=2)  # written with the old name
    run(db_url, "player", "rename", old, f"{slug} renamed", ok=True)
    code, report, result = import_json(db_url, write_csv(tmp_path / "r1.csv", records,
                                                         "spardame"))
    assert code == 0, result.output
    shown = json.loads(run(db_url, "result", "show", slug, "1", "1", "--json", ok=True).stdout)
    assert f"{slug} renamed" in {p["player"] for p in shown["places"]}


def test_encoding_errors_name_line_and_column(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating, deals=3),
                       "spardame")
    lines = source.read_bytes().split(b"\n")
    # a Latin-1 name in the players cell of line 3
    lines[2] = lines[2].replace(seating[0][1].encode(), seating[0][1].encode() + b"\xe5", 1)
    bad = tmp_path / "latin1.csv"
    bad.write_bytes(b"\n".join(lines))
    before = dump(engine)
    # --encoding utf-8 forces it (by default such a file is read as Windows-1252)
    code, report, result = import_json(db_url, bad, "--encoding", "utf-8")
    assert code == 2 and dump(engine) == before  # the file cannot be read: a usage error
    [error] = report["errors"]
    assert (error["rule"], error["line"], error["column"]) == ("encoding", 3, "players")
    assert "utf-8" in error["message"]
    assert report["file_error"] and "cannot be read" in result.stderr


def test_a_huge_field_is_refused_quickly(tmp_path):
    # refused by the reader before any query: one backend is enough
    db_url = f"sqlite:///{tmp_path / 'huge.db'}"
    engine, slug, seating = setup_event(db_url, tables=1)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating, deals=2),
                       "spardame")
    rows = csv_rows(source)
    rows[1]["play"] = "AS " * (50 * 1024 * 1024 // 3)  # a 50 MB field on line 3
    huge = write_rows(tmp_path / "huge.csv", rows)
    before = dump(engine)
    code, report, result = import_json(db_url, huge)
    assert code == 2 and dump(engine) == before  # not a table of records
    [error] = report["errors"]
    assert (error["rule"], error["line"], error["column"]) == ("line-too-long", 3, "play")


def test_a_huge_quoted_field_over_many_lines(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating, deals=2),
                       "spardame")
    rows = csv_rows(source)
    rows[1]["hands"] = "AS\n" * 100_000
    huge = write_rows(tmp_path / "huge.csv", rows)
    code, report, _ = import_json(db_url, huge)
    assert code == 2  # not valid CSV: reading stops, a usage error
    [error] = report["errors"]
    assert (error["rule"], error["line"], error["column"]) == ("csv", 3, "hands")


def test_ragged_row_and_bad_header(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating, deals=2),
                       "spardame")
    lines = source.read_text().splitlines()
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("\n".join(lines[:2] + [lines[2] + ",extra"]) + "\n")
    before = dump(engine)
    code, report, _ = import_json(db_url, ragged)
    assert code == 1 and dump(engine) == before
    assert report["errors"][0]["rule"] == "ragged-row" and report["errors"][0]["line"] == 3

    header = tmp_path / "header.csv"
    header.write_text(lines[0].replace("passes", "pases") + "\n" + "\n".join(lines[1:]) + "\n")
    result = run(db_url, "result", "import", str(header))
    assert result.exit_code == 2 and "pases" in result.stderr
    assert dump(engine) == before


# ----------------------------------------------------------------------------- skip-invalid

def test_skip_invalid_stores_the_valid_matches(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=3)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating, deals=2),
                       "spardame")
    rows = csv_rows(source)
    bad_rows = [r for r in rows if r["table"] == "2"]
    bad_rows[1]["scores"] = "0;0;0;0"
    rejects = tmp_path / "rejects.csv"
    code, report, result = import_json(db_url, write_rows(tmp_path / "mixed.csv", rows),
                                       "--skip-invalid", str(rejects))
    assert code == 0, result.output
    assert (report["added"], report["rejected"]) == (2, 1)
    assert report["errors"][0]["rule"] == "scores-mismatch"
    rejected = csv_rows(rejects)
    assert [r["table"] for r in rejected] == ["2", "2"]
    assert list(rejected[0]) == list(rows[0]) + ["error"]
    first = report["errors"][0]
    assert rejected[0]["error"] == (f"another row of this match is invalid (line "
                                    f"{first['line']}): {first['message']}")
    assert "scores-mismatch" in rejected[1]["error"]
    assert rejected[1]["scores"] == "0;0;0;0"  # the row as given
    with Session(engine) as session:
        event = session.execute(select(Event).where(Event.slug == slug)).scalar_one()
        stored = sorted(session.execute(select(Match.table).where(
            Match.event_id == event.id)).scalars())
    assert stored == ["1", "3"]
    # the corrected rows go in on their own afterwards
    for row in rejected:
        del row["error"]
    rejected[1]["scores"] = ""
    code, report, _ = import_json(db_url, write_rows(tmp_path / "fixed.csv", rejected))
    assert code == 0 and report["added"] == 1


def test_skip_invalid_writes_every_row_of_a_match_the_database_refuses(db_url, tmp_path):
    """Rows valid as read but refused against the database (a player not seated,
    a stored match with other content) go to the rejects file whole, and the
    file fixed imports them."""
    engine, slug, seating = setup_event(db_url, tables=3)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating, deals=2),
                       "spardame")
    rows = csv_rows(source)
    code, report, _ = import_json(db_url, write_rows(
        tmp_path / "first.csv", [r for r in rows if r["table"] == "3"]))
    assert code == 0 and report["added"] == 1
    other = csv_rows(write_csv(tmp_path / "other.csv", simulate(
        "spardame", slug, 1, seating, deals=2, seed=99), "spardame"))
    rows = [r for r in rows if r["table"] != "3"] + [r for r in other if r["table"] == "3"]
    stranger = seating[1][2]
    for row in rows:
        if row["table"] == "2":  # a typo in a name, in every row of the match
            row["players"] = row["players"].replace(stranger, stranger + "x")
            row["dealer"] = row["dealer"].replace(stranger, stranger + "x")
    rejects = tmp_path / "rejects.csv"
    code, report, result = import_json(db_url, write_rows(tmp_path / "mixed.csv", rows),
                                       "--skip-invalid", str(rejects))
    assert code == 0, result.output
    assert (report["added"], report["rejected"]) == (1, 2), report
    assert sorted(e["rule"] for e in report["errors"])[0] in ("match-changed", "not-entered")
    rejected = csv_rows(rejects)
    assert [(r["table"], r["deal"]) for r in rejected] == [
        (r["table"], r["deal"]) for r in rows if r["table"] in ("2", "3")]
    assert all(r["error"] for r in rejected)
    assert any("not-entered" in r["error"] for r in rejected)
    assert any("match-changed" in r["error"] for r in rejected)
    # the rejects file, its typo fixed, imports table 2
    fixed = [r for r in rejected if r["table"] == "2"]
    for row in fixed:
        del row["error"]
        row["players"] = row["players"].replace(stranger + "x", stranger)
        row["dealer"] = row["dealer"].replace(stranger + "x", stranger)
    code, report, _ = import_json(db_url, write_rows(tmp_path / "fixed.csv", fixed))
    assert code == 0 and report["added"] == 1


def test_skip_invalid_with_nothing_rejected_writes_a_header(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating, deals=2),
                       "spardame")
    rejects = tmp_path / "rejects.csv"
    run(db_url, "result", "import", str(source), "--skip-invalid", str(rejects), ok=True)
    assert rejects.read_text(encoding="utf-8-sig").splitlines() == [
        "event,variant,round,table,deal,players,dealer,hands,stock,passes,play,scores,error"]


# ----------------------------------------------------------------------------- service level

def test_batches_and_ratings_hook(db_url, tmp_path, monkeypatch):
    """The import use case stores in batches, then refreshes the ratings of the
    variants it changed (and only then); revert does the same."""
    from tourney.app.results import import_results, revert_result

    engine, slug, seating = setup_event(db_url, variant="svarta-maja", size=3, tables=4)
    source = write_csv(tmp_path / "r1.csv",
                       simulate("svarta-maja", slug, 1, seating, deals=3), "svarta-maja")
    calls = []
    hints = []  # (added, replaced) of each call
    import tourney.ratings.service as ratings

    monkeypatch.setattr(ratings, "refresh_after_results",
                        lambda session, variant, added=(), replaced=(): calls.append(variant)
                        or hints.append((sorted(added), sorted(replaced))))
    with transaction(engine) as session:
        import_results(session, str(source), ImportOptions(dry_run=True))
    assert calls == []
    with transaction(engine) as session:
        report = import_results(session, str(source),
                                ImportOptions(batch_deals=4, imported_by="tester"))
    assert report.added == 4 and calls == ["svarta-maja"]
    with Session(engine) as session:
        event = session.execute(select(Event).where(Event.slug == slug)).scalar_one()
        versions = session.execute(
            select(MatchVersion).join(Match, Match.current_version_id == MatchVersion.id)
            .where(Match.event_id == event.id)).scalars().all()
        assert len(versions) == 4 and {v.imported_by for v in versions} == {"tester"}
        for version in versions:
            deals = session.execute(select(Deal.number).where(Deal.version_id == version.id)
                                    .order_by(Deal.number)).scalars().all()
            assert deals == [1, 2, 3]
            places = session.execute(select(MatchPlace).where(
                MatchPlace.version_id == version.id)).scalars().all()
            assert sorted(p.seat for p in places) == [0, 1, 2]
    # unchanged imports do not call the hook; a rejected one neither
    with transaction(engine) as session:
        import_results(session, str(source))
    assert calls == ["svarta-maja"]
    rows = csv_rows(source)
    rows[0]["scores"] = "5;5;5"
    with pytest.raises(ImportRejected):
        with transaction(engine) as session:
            import_results(session, str(write_rows(tmp_path / "bad.csv", rows)),
                           ImportOptions(replace=True))
    assert calls == ["svarta-maja"]
    # a replaced match, then reverting it: each refreshes the pool once
    other = simulate("svarta-maja", slug, 1, seating, deals=3, seed=99)
    with transaction(engine) as session:
        report = import_results(session, str(write_csv(tmp_path / "r1b.csv", other,
                                                       "svarta-maja")), ImportOptions(replace=True))
    assert report.replaced == 4 and calls == ["svarta-maja"] * 2
    with Session(engine) as session:
        matches = sorted(session.execute(select(Match.id).join(Event).where(
            Event.slug == slug)).scalars())
    # the import says which matches it added, then which it replaced (the ratings
    # rate the former alone and replay from the first of the latter)
    assert hints == [(matches, []), ([], matches)]
    with transaction(engine) as session:
        assert revert_result(session, slug, 1, "1", 1)
        assert not revert_result(session, slug, 1, "1", 1)
    assert calls == ["svarta-maja"] * 3
    with Session(engine) as session:
        table_1 = session.execute(select(Match.id).join(Event).where(
            Event.slug == slug, Match.round_number == 1, Match.table == "1")).scalar_one()
    assert hints[2] == ([], [table_1])  # a revert: a correction of that match


def _stored_by_key(session, slug):
    """The event's matches, versions, deals and places keyed by round and table
    (ids differ between two imports on PostgreSQL: a rolled-back sequence is not
    given back), with every id link checked on the way."""
    event = session.execute(select(Event).where(Event.slug == slug)).scalar_one()
    stored = {}
    for match in session.execute(select(Match).where(Match.event_id == event.id)).scalars():
        version = session.get(MatchVersion, match.current_version_id)
        assert version.match_id == match.id
        deals = session.execute(select(Deal).where(Deal.version_id == version.id)
                                .order_by(Deal.number)).scalars().all()
        places = session.execute(select(MatchPlace).where(MatchPlace.version_id == version.id)
                                 .order_by(MatchPlace.seat)).scalars().all()
        stored[(match.round_number, match.table)] = (
            {k: v for k, v in version.model_dump().items() if k not in ("id", "match_id")},
            [{k: v for k, v in d.model_dump().items() if k not in ("id", "version_id")}
             for d in deals],
            [{k: v for k, v in p.model_dump().items() if k not in ("id", "version_id")}
             for p in places])
    return stored


def test_both_write_paths_store_the_same_rows(db_url, tmp_path, monkeypatch):
    """Matches, versions, deals and places go to the driver (ids taken first; SQLite's
    many-row INSERTs, PostgreSQL's COPY, or its one INSERT of a few VALUES rows) or
    through SQLAlchemy's bulk inserts (any other database): the same rows either
    way, the time of import included."""
    import datetime as dt

    from tourney.storage import bulk

    engine, slug, seating = setup_event(db_url, variant="svarta-maja", size=3, tables=5)
    source = write_csv(tmp_path / "r1.csv",
                       simulate("svarta-maja", slug, 1, seating, deals=3), "svarta-maja")
    snapshots = []
    # the driver's way with a few rows as VALUES (each flush here: at most 4 deals),
    # the driver's way by COPY alone, SQLAlchemy's
    for fast, values_rows in ((True, bulk.PG_VALUES_ROWS), (True, 0), (False, 0)):
        monkeypatch.setattr(bulk, "FAST_BULK_WRITES", fast)
        monkeypatch.setattr(bulk, "PG_VALUES_ROWS", values_rows)
        before = dt.datetime.now(dt.timezone.utc)
        with pytest.raises(RuntimeError):  # rolled back: the second import starts alike
            with transaction(engine) as session:
                # batches of 4 deals: several flushes, the last one short
                report = import_results(session, str(source), ImportOptions(
                    batch_deals=4, imported_by="tester"))
                assert report.added == 5
                snapshot = _stored_by_key(session, slug)
                raise RuntimeError("roll back")
        stamps = {version["imported_at"] for version, _, _ in snapshot.values()}
        assert len(stamps) == 1 and before <= stamps.pop() <= dt.datetime.now(dt.timezone.utc)
        for version, _, _ in snapshot.values():
            del version["imported_at"]
        snapshots.append(snapshot)
    fast, copied, slow = snapshots
    assert sorted(fast) == [(1, str(t)) for t in range(1, 6)]
    assert all(len(deals) == 3 and len(places) == 3 for _, deals, places in fast.values())
    assert fast == copied == slow


def test_dam_brade_alternating_colours(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, variant="dam-brade", size=2, tables=2,
                                        rules={"games": "2"})
    records = simulate("dam-brade", slug, 1, seating, rules={"games": "2"}, seed=4)
    assert records[1].players == list(reversed(records[0].players))
    code, report, result = import_json(db_url, write_csv(tmp_path / "r1.csv", records,
                                                         "dam-brade"))
    assert code == 0, result.output
    assert report["added"] == 2
    shown = json.loads(run(db_url, "result", "show", slug, "1", "2", "--json", ok=True).stdout)
    assert sum(p["points"] for p in shown["places"]) == 1
    assert {p["seat"] for p in shown["places"]} == {1, 2}  # counted from 1
    # the event's rules apply: a one-game record is incomplete for games=2
    one = simulate("dam-brade", slug, 1, seating, seed=4)
    code, report, _ = import_json(db_url, write_csv(tmp_path / "one.csv", one, "dam-brade"))
    assert code == 1 and report["errors"][0]["rule"] == "match-incomplete"


def test_help_texts():
    from click.testing import CliRunner

    from tourney.cli.main import cli

    for command in (["result", "--help"], ["result", "import", "--help"],
                    ["result", "export", "--help"], ["result", "history", "--help"],
                    ["result", "revert", "--help"], ["result", "show", "--help"],
                    ["standings", "--help"]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 0, result.output
        assert "Example" in result.stdout or "Commands" in result.stdout


def _renamed_or_merged(db_url, slug, seating, how):
    """Rename (or merge away) seat 2's player of table 1; the name they have now."""
    old = seating[0][1]
    if how == "rename":
        new = f"{slug} renamed"
        run(db_url, "player", "rename", old, new, ok=True)
    else:
        new = f"{slug} kept"
        run(db_url, "player", "add", new, ok=True)
        run(db_url, "player", "merge", new, old, ok=True)
    return old, new


@pytest.mark.parametrize("how", ["rename", "merge"])
def test_a_file_imported_before_a_rename_or_merge_imports_again_unchanged(db_url, tmp_path, how):
    engine, slug, seating = setup_event(db_url, tables=1)
    records = simulate("spardame", slug, 1, seating, deals=2)
    source = write_csv(tmp_path / "r1.csv", records, "spardame")
    code, report, result = import_json(db_url, source)
    assert code == 0 and report["added"] == 1, result.output
    old, new = _renamed_or_merged(db_url, slug, seating, how)
    code, report, result = import_json(db_url, source)
    assert code == 0 and report["unchanged"] == 1, result.output
    # --replace stores no new version only because of the new name
    code, report, result = import_json(db_url, source, "--replace")
    assert code == 0 and report["unchanged"] == 1 and report["replaced"] == 0, result.output
    with Session(engine) as session:
        assert session.execute(select(MatchVersion.version).join(
            Match, Match.id == MatchVersion.match_id).join(Event, Event.id == Match.event_id)
            .where(Event.slug == slug)).scalars().all() == [1]
    # result show names the players as they are now, in the deals as in the places
    shown = json.loads(run(db_url, "result", "show", slug, "1", "1", "--json", ok=True).stdout)
    assert all(new in deal["players"] and old not in deal["players"] for deal in shown["deals"])
    assert new in {p["player"] for p in shown["places"]}
    # the export writes the name of now and imports back unchanged
    exported = tmp_path / "export.csv"
    run(db_url, "result", "export", slug, "--out", str(exported), ok=True)
    rows = csv_rows(exported)
    assert all(new in row["players"].split(";") and old not in row["players"].split(";")
               for row in rows)
    code, report, result = import_json(db_url, exported)
    assert code == 0 and report["unchanged"] == 1, result.output


def test_a_changed_match_after_a_rename_lists_no_player_difference(db_url, tmp_path):
    engine, slug, seating = setup_event(db_url, tables=1)
    source = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, seating, deals=2),
                       "spardame")
    run(db_url, "result", "import", str(source), ok=True)
    old, new = _renamed_or_merged(db_url, slug, seating, "rename")
    other = write_csv(tmp_path / "r1b.csv",
                      simulate("spardame", slug, 1, seating, deals=2, seed=99), "spardame")
    code, report, result = import_json(db_url, other)
    assert code == 1, result.output
    [error] = report["errors"]
    assert error["rule"] == "match-changed"
    # the same players, renamed or not: only the deals differ
    assert " players:" not in error["message"] and " dealer:" not in error["message"]
    assert error["message"].startswith(f"round 1, table 1 of {slug} is already stored")


def test_a_look_alike_of_a_seated_player_is_named_in_the_not_entered_error(db_url, tmp_path):
    engine = make_engine(db_url)
    slug = unique("spardame")
    create_event(engine, slug, "spardame", size=4)
    seated = [f"Åsa Öberg {slug}", f"{slug} 1", f"{slug} 2", f"{slug} 3"]
    seat_round(engine, slug, 1, [seated])
    rows = csv_rows(write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, [seated],
                                                            deals=2), "spardame"))
    typed = f"asa  Oberg {slug}"  # the file's spelling: no accents, other case and spaces
    respell(rows, seated[0], typed)
    code, report, result = import_json(db_url, write_rows(tmp_path / "typed.csv", rows))
    assert code == 1, result.output
    error = report["errors"][0]
    assert error["rule"] == "not-entered"
    assert error["message"].startswith(f"{typed} not entered in {slug}")
    assert error["message"].endswith(f"(did you mean {seated[0]}?)")
    # a name like none seated gets no guess
    respell(rows, typed, f"{slug} stranger")
    code, report, result = import_json(db_url, write_rows(tmp_path / "other.csv", rows))
    assert code == 1 and "did you mean" not in report["errors"][0]["message"]


def test_a_misspelled_seated_name_gets_the_closest_seated_name(db_url, tmp_path):
    """`Ingrid Falck` for `Ingrid Falk`: the not-entered error names the seat holding
    the unknown name and suggests the seated name closest to it."""
    engine = make_engine(db_url)
    slug = unique("spardame")
    create_event(engine, slug, "spardame", size=4)
    seated = [f"{slug} Anna", f"Ingrid Falk {slug}", f"{slug} Bo", f"{slug} Cilla"]
    seat_round(engine, slug, 1, [seated])
    rows = csv_rows(write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, [seated],
                                                            deals=2), "spardame"))
    typed = f"Ingrid Falck {slug}"
    respell(rows, seated[1], typed)
    code, report, result = import_json(db_url, write_rows(tmp_path / "typo.csv", rows))
    assert code == 1, result.output
    error = report["errors"][0]
    assert error["rule"] == "not-entered"
    assert error["seat"] == 2 and error["player"] == typed
    assert error["message"].endswith(f"(did you mean {seated[1]}?)")
