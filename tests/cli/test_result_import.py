"""`tourney result import` as a new organizer met it walking through the guide
(issue 17): an unfilled score sheet, every match rejected, a scores-only file,
players separated by commas, a mistyped event, the counts in its summary.
"""
from __future__ import annotations

import csv
import re
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
