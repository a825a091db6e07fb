"""What a new organizer met walking through the guide (issue 17): each finding as
a test that failed before it was fixed."""
from __future__ import annotations

import csv
import datetime as dt
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import seat_example_cup
from openpyxl import Workbook, load_workbook

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"




def example_rows() -> list[list[str]]:
    with open(EXAMPLES / "round-1.csv", encoding="utf-8", newline="") as stream:
        return list(csv.reader(stream))


def write_csv(path: Path, rows, delimiter: str = ",") -> Path:
    with open(path, "w", encoding="utf-8", newline="") as stream:
        csv.writer(stream, delimiter=delimiter).writerows(rows)
    return path


def write_xlsx(path: Path, rows) -> Path:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Round 1"
    for row in rows:
        sheet.append([int(v) if v.isdigit() else (v or None) for v in row])
    workbook.save(path)
    return path


# ------------------------------------------------------------------ result import

@pytest.mark.parametrize("suffix", ["xlsx", "csv"])
def test_an_unfilled_score_sheet_is_not_a_success(tourney, tmp_path, suffix):
    seat_example_cup(tourney)
    sheet = tmp_path / f"sheet.{suffix}"
    tourney("round", "sheet", "example-cup", "1", "--out", str(sheet))
    run = tourney("result", "import", str(sheet), "--json", exit_code=1)
    assert "nothing is filled in" in run.stderr and "12 rows are empty" in run.stderr
    assert "added: 0" not in run.stderr
    assert run.json["changed"] is False and run.json["details"]["added"] == 0
    assert tourney("round", "show", "example-cup", "1", "--json").json["round"] == 1
    assert "results in for 0 of 4 tables" in tourney("round", "show", "example-cup", "1").stderr


def test_skip_invalid_with_every_match_rejected_fails_and_keeps_types_and_cells(
        tourney, tmp_path):
    seat_example_cup(tourney)
    rows = example_rows()
    scores = rows[0].index("scores")
    for row in rows[1:]:
        if row[rows[0].index("deal")] == "2":  # one bad deal per match
            row[scores] = ";".join("1" for _ in row[scores].split(";"))
    bad = write_xlsx(tmp_path / "bad.xlsx", rows)
    rejects = tmp_path / "rejects.xlsx"
    run = tourney("result", "import", str(bad), "--skip-invalid", str(rejects), exit_code=1)
    assert "every match of" in run.stderr and "was rejected" in run.stderr
    table = list(load_workbook(rejects).active.iter_rows(values_only=True))
    header = list(table[0])
    assert header[-1] == "error" and len(table) == len(rows)
    for row in table[1:]:
        for column in ("round", "table", "deal"):
            assert isinstance(row[header.index(column)], int), (column, row)
        # every row's error names a cell of the workbook, not a line
        assert re.search(r"Round 1!L\d+", row[-1]), row[-1]
        assert "(line " not in row[-1]
    # with some valid matches it is a success, as before
    original = example_rows()
    some = write_csv(tmp_path / "some.csv", [original[0]] + [
        original[i] if r[3] == "1" else r for i, r in enumerate(rows) if i])
    run = tourney("result", "import", str(some), "--skip-invalid", str(tmp_path / "r.csv"),
                  "--json")
    assert (run.json["details"]["added"], run.json["details"]["rejected"]) == (1, 3)


def test_a_scores_only_file_needs_no_play_column(tourney, tmp_path):
    seat_example_cup(tourney)
    rows = example_rows()
    keep = [rows[0].index(c) for c in ("event", "round", "table", "deal", "players",
                                       "dealer", "scores")]
    path = write_csv(tmp_path / "scores.csv", [[r[i] for i in keep] for r in rows])
    report = tourney("result", "import", str(path), "--json").json["details"]
    assert (report["added"], report["rejected"]) == (4, 0)
    # without play and scores the header is refused, naming both
    bare = write_csv(tmp_path / "bare.csv", [[r[i] for i in keep[:-1]] for r in rows])
    refused = tourney("result", "import", str(bare), exit_code=2).stderr
    assert "missing required column: play (or scores, for a score sheet)" in refused


def test_players_separated_by_commas_are_named_as_such(tourney, tmp_path):
    seat_example_cup(tourney)
    rows = example_rows()
    players = rows[0].index("players")
    for row in rows[1:]:
        row[players] = row[players].replace(";", ", ")
    path = write_csv(tmp_path / "semicolons.csv", rows, delimiter=";")
    stderr = tourney("result", "import", str(path), exit_code=1).stderr
    assert "the players are separated by ','" in stderr and "separate them by ';'" in stderr
    assert "played by" not in stderr


def test_a_mistyped_event_is_one_error(tourney, tmp_path):
    seat_example_cup(tourney)
    run = tourney("result", "import", str(EXAMPLES / "round-1.csv"), "--event",
                  "exmaple-cup", exit_code=2)
    assert run.stderr == ("Error: unknown event 'exmaple-cup' (did you mean example-cup?)\n")


# ------------------------------------------------------------------ unknown names

def test_unknown_names_are_usage_errors_with_suggestions(tourney, run_cli):
    tourney("player", "add", "Anna Berg")
    tourney("event", "create", "cup", "--variant", "spardame")
    assert tourney("event", "show", "cpu", exit_code=2).stderr == (
        "Error: unknown event 'cpu' (did you mean cup?)\n")
    assert tourney("player", "rename", "Ana Berg", "X", exit_code=2).stderr == (
        "Error: unknown player 'Ana Berg' (did you mean 'Anna Berg'?)\n")
    assert tourney("event", "create", "cup-2", "--variant", "spardam", exit_code=2).stderr == (
        "Error: unknown variant 'spardam' (did you mean spardame?)\n")
    assert "did you mean dam-stick?" in tourney("rating", "show", "--variant", "dam-stik",
                                                exit_code=2).stderr
    far = run_cli(None, "variants", "chess", exit_code=2).stderr
    assert "unknown variant 'chess' (variants: " in far and "spardame" in far


# ------------------------------------------------------------------ words and numbers

def test_counts_agree_with_their_nouns(tourney, run_cli, tmp_path):
    from tourney.errors.counts import count_text

    assert [count_text(n, "match") for n in (0, 1, 2)] == ["0 matches", "1 match", "2 matches"]
    assert count_text(1, "entry", "entries") == "1 entry"
    rows = example_rows()
    one = write_csv(tmp_path / "one.csv", rows[:2])
    validated = run_cli(None, "validate", str(one), exit_code=None).stderr
    assert "1 deal in 1 match:" in validated and "1 deals" not in validated
    seat_example_cup(tourney)
    table_1 = write_csv(tmp_path / "t1.csv", [r for r in rows if r[3] in ("table", "1")])
    imported = tourney("result", "import", str(table_1)).stderr
    assert "added: 1 match," in imported


def test_event_show_states_each_rule_in_one_sentence(tourney):
    tourney("event", "create", "cup", "--variant", "spardame", "--rule", "deals=3")
    shown = tourney("event", "show", "cup").stdout
    rules = shown.split("rules:\n")[1].split("entrants:")[0].splitlines()
    assert "  pass = left (default): Cards are passed to the left every deal." in rules
    assert "  deals = 3: A match is 3 deals, with no extra deals on a tie." in rules
    assert "  jd_bonus = 0 (default): The jack of diamonds scores nothing." in rules
    assert all(line.count(".") <= 1 and "(cycle)" not in line for line in rules), rules
    as_json = tourney("event", "show", "cup", "--json").json["rule_details"]
    assert {r["key"]: r["sentence"] for r in as_json}["pass"] == (
        "Cards are passed to the left every deal.")


def test_numbers_show_the_same_decimals_in_the_terminal_and_on_every_page():
    from tourney.numbers import number_column, number_text
    from tourney.reports.site import Renderer

    now = dt.datetime(2026, 5, 11, tzinfo=dt.UTC)
    swedish = Renderer("sv", "", ["sv"], now)
    english = Renderer("en", "", ["en"], now)
    # a number alone: a column of one (tourney.numbers.column_decimals)
    for value, terminal, sv in ((0.4, "0.4", "0,4"), (0.58, "0.58", "0,58"),
                                (-330.0, "-330", "-330"), (2, "2", "2"),
                                (1.3333333, "1.33", "1,33"), (2.9999999, "3", "3")):
        assert number_text(value) == terminal
        assert english.number(value) == terminal
        assert swedish.number(value).replace("\u2212", "-") == sv
    # a column: the same decimals in every row, in the terminal and on the pages
    column = [2, 2.5, 0.4, 1.3333333]
    decimals = english.decimals(column)
    assert number_column(column) == ["2.00", "2.50", "0.40", "1.33"]
    assert [english.number(v, decimals) for v in column] == number_column(column)
    assert [swedish.number(v, decimals) for v in column] == ["2,00", "2,50", "0,40", "1,33"]


def test_the_log_says_its_times_are_utc(tourney):
    """One form of a time in the terminal, as the guide shows it and `result history`
    prints it: ISO 8601 to the second, Z for UTC."""
    tourney("player", "add", "Anna")
    line = tourney("log").stdout.splitlines()[1]
    assert re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ", line), line
    # JSON: the one form of a time (tourney.times.utc_iso), as `result show` gives it
    at = tourney("log", "--json").json[0]["at"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", at), at


# ------------------------------------------------------------------ tourney serve

def test_serve_port_0_picks_a_free_port_and_says_which(db_url, tmp_path):
    import httpx

    env = dict(os.environ, TOURNEY_SERVE_PASSWORD="x")
    server = subprocess.Popen(
        [sys.executable, "-m", "tourney.cli.main", "serve", "--port", "0", "--db", db_url],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stderr.readline()
        match = re.match(r"tourney serve on http://localhost:(\d+)/", first)
        assert match, first
        port = int(match.group(1))
        assert port != 0
        deadline = time.monotonic() + 90
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.05)
        assert answer.status_code < 500
    finally:
        server.kill()
        server.wait(10)
