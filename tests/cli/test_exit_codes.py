"""One kind of problem, one exit code and one wording, whatever the command.

The rule (README, tourney.cli.errors): 0 success; 1 the data is invalid or the
operation refused as things stand (nothing changed); 2 the call cannot work as
given: an unknown name (event, player, round, table, ...) or a file or database
that is missing or not of the kind the command takes. Each row below was a
finding: the same mistake answered with different codes or words.
"""
from __future__ import annotations

import os
import sqlite3

import pytest
from simulated_rounds import one_deal_event_round_one_played

NAMES = ["Anna", "Bo", "Cilla", "Dag", "Eva", "Fia", "Gun", "Hans"]
NO_ROUND_9 = "Error: ev has no round 9: round 1 is seated\n"


@pytest.fixture
def seated(tourney, tmp_path):
    """Setup "S": eight players, `ev` (spardame, tables of 4, 2 rounds of 2-deal
    matches), round 1 seated, no result in."""
    players = tmp_path / "p.csv"
    players.write_text("name\n" + "\n".join(NAMES) + "\n")
    tourney("player", "import", str(players))
    tourney("event", "create", "ev", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2")
    tourney("event", "enter", "ev", "--all")
    tourney("round", "seat", "ev")
    return tourney


def a_database_file(tmp_path):
    """A SQLite database file (binary, NUL bytes), as `tourney.db` is, given as input."""
    path = tmp_path / "league.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (x)")
    return path


@pytest.mark.parametrize("command", [
    ["round", "show", "ev", "9"],
    ["standings", "ev", "--round", "9"],
    ["result", "export", "ev", "--round", "9"],
    ["result", "show", "ev", "9", "1"],
    ["round", "sheet", "ev", "9"],
], ids=lambda c: " ".join(c[:2]))
def test_a_round_the_event_does_not_have_is_one_usage_error_in_one_wording(seated, command):
    run = seated(*command, exit_code=2)
    assert run.stderr == NO_ROUND_9
    assert run.stdout == ""  # the export writes no header-only file either


def test_an_export_of_a_missing_round_makes_no_file(seated, tmp_path):
    out = tmp_path / "round9.csv"
    assert seated("result", "export", "ev", "--round", "9", "--out", str(out),
                  exit_code=2).stderr == NO_ROUND_9
    assert not out.exists()


def test_a_table_the_round_does_not_have_is_a_usage_error(seated):
    assert seated("result", "history", "ev", "1", "7", exit_code=2).stderr == (
        "Error: ev round 1 has no table 7: tables 1-2 are seated\n")
    # a seated table whose result is not in yet: refused as things stand, with what helps
    assert seated("result", "history", "ev", "1", "1", exit_code=1).stderr == (
        "Error: ev round 1, table 1 has no result stored yet; import it first "
        "(`tourney result import`)\n")


def test_a_db_that_is_not_a_database_is_a_usage_error(seated, run_cli, tmp_path):
    players = tmp_path / "p.csv"
    assert run_cli(str(players), "standings", "ev", exit_code=2).stderr == (
        f"Error: cannot open the database {players}: file is not a database\n")
    assert run_cli(str(tmp_path), "standings", "ev", exit_code=2).stderr == (
        f"Error: --db {tmp_path} is a folder, not a database file\n")


def test_a_file_that_is_not_a_record_file_is_a_usage_error_for_every_reader(seated, tmp_path):
    database = a_database_file(tmp_path)
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    for path in (database, empty):
        run = seated("result", "import", str(path), exit_code=2)
        assert run.stderr.endswith(f"Error: {path}: nothing imported: the file cannot be read "
                                   "as records; the database is unchanged\n")
    refused = seated("validate", str(database), exit_code=2).stderr
    assert refused.startswith(f"Error: {database}, line 1: a NUL byte")
    assert "unreadable file" in " ".join(seated("validate", "--help").stdout.split())
    assert seated("player", "import", str(database), exit_code=2).stderr.startswith(
        f"Error: {database}, line 1: a NUL byte")


def test_entering_and_withdrawing_after_the_last_round_are_both_refused(tourney, tmp_path):
    one_deal_event_round_one_played(tourney, tmp_path, "ev", NAMES, rounds=1)
    tourney("player", "add", "Ida")
    entered = tourney("event", "enter", "ev", "Ida", exit_code=1).stderr
    assert entered == ("Error: the one round of ev is seated; no one can enter now "
                       "(Ida is not entered)\n")
    withdrawn = tourney("event", "withdraw", "ev", "Bo", exit_code=1).stderr
    assert withdrawn == ("Error: the last round of ev (round 1) is played: 'Bo' has no round "
                         "left to withdraw from; their results stay in the standings\n")


def test_unknown_players_are_a_usage_error_one_or_many(seated):
    one = seated("event", "enter", "ev", "Nobody", exit_code=2).stderr
    many = seated("event", "enter", "ev", "Nobody", "Noone", exit_code=2).stderr
    assert one.startswith("Error: unknown player 'Nobody'")
    assert many.startswith("Error: unknown players 'Nobody', 'Noone'")
    assert seated("event", "withdraw", "ev", "Nobody", exit_code=2).stderr.startswith(
        "Error: unknown player 'Nobody'")


def test_a_version_a_match_does_not_have_is_a_usage_error(tourney, tmp_path):
    one_deal_event_round_one_played(tourney, tmp_path, "ev", NAMES, rounds=2)
    for command in (["result", "show", "ev", "1", "1", "5"],
                    ["result", "revert", "ev", "1", "1", "5"]):
        assert tourney(*command, exit_code=2).stderr == (
            "Error: ev round 1, table 1 has no version 5 (its versions: 1)\n")


def test_the_exit_code_of_each_kind_of_library_error():
    from tourney.cli.errors import USAGE, exit_code
    from tourney.errors import UnreadableFile, no_round, no_table
    from tourney.records.csv_format import HeaderError
    from tourney.storage.schema import ForeignDatabase

    assert exit_code(no_round("ev", 9, 1)) == exit_code(no_table("ev", 1, "7", ["1"])) == USAGE
    assert exit_code(UnreadableFile("a NUL byte", rule="encoding")) == USAGE
    assert isinstance(HeaderError("unknown column"), UnreadableFile)
    assert exit_code(ForeignDatabase("another program's")) == USAGE
    assert str(no_round("ev", 9, 0)) == "ev has no round 9: no round is seated yet"
    assert str(no_round("ev", 9, 3)) == "ev has no round 9: rounds 1-3 are seated"
    assert str(no_table("ev", 2, "9", ["2", "1"])) == (
        "ev round 2 has no table 9: tables 1-2 are seated")


def test_an_output_where_nothing_can_be_written_is_a_usage_error_for_every_writer(
        seated, tmp_path, db_url):
    """A file where the output's folder should be: the --out given cannot work, exit 2
    from every command that writes a file or a folder, publish too (it said exit 1,
    'File exists'); nothing is written."""
    in_the_way = tmp_path / "notes.txt"
    in_the_way.write_text("keep\n")
    before = sorted(tmp_path.iterdir())
    backup = [["db", "backup"]] if db_url.startswith("sqlite") else []  # SQLite's only
    for command in (["result", "export", "ev", "--out"], ["round", "sheet", "ev", "1", "--out"],
                    ["standings", "ev", "--out"], *backup, ["publish", "--out"]):
        out = str(in_the_way / "out")
        stderr = seated(*command, out, exit_code=2).stderr
        assert stderr.startswith("Error: ") and "cannot write" in stderr, (command, stderr)
        assert len(stderr.splitlines()) == 1
        if command[0] in ("db", "publish"):  # they make a missing folder: not there
            assert f"{in_the_way} is a file, not a folder" in stderr, stderr
    assert in_the_way.read_text() == "keep\n" and sorted(tmp_path.iterdir()) == before


def test_a_folder_that_refuses_the_site_is_a_usage_error_a_full_disk_a_failure():
    import errno
    from pathlib import Path

    from tourney.cli.errors import INVALID, USAGE, exit_code
    from tourney.reports.folders import write_error

    for code in (errno.EACCES, errno.EPERM, errno.EROFS):
        assert exit_code(write_error(OSError(code, os.strerror(code)), Path("site"))) == USAGE
    full = write_error(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), Path("site"))
    assert exit_code(full) == INVALID and "no space left" in str(full)
