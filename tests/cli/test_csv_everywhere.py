"""--csv and --tsv on every command whose output is rows (sqlite-utils' flags): one
parametrised walk over them, as test_json_everywhere.py does for --json, and the
rule every table written for spreadsheets keeps (a cell never starts a formula)."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import click
import pytest
from conftest import cli_on_url, seat_example_cup
from test_json_everywhere import leaf_commands

from tourney.cli.main import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Each command whose output is rows, with the arguments that list some on the
# example cup (round 1 played), and the least number of rows it lists there.
ROW_COMMANDS = {
    "player list": ((), 14),
    "player links": (("example-cup",), 14),
    "event list": ((), 1),
    "event signups": (("example-cup",), 0),
    "round show": (("example-cup", "1"), 14),
    "round sheet": (("example-cup", "2"), 12),
    "round links": (("example-cup", "1", "--base-url", "http://192.168.1.20:8000"), 4),
    "result export": (("example-cup",), 12),
    "result history": (("example-cup", "1", "1"), 1),
    "result show": (("example-cup", "1", "1"), 3),
    "result forfeit": (("example-cup", "--list"), 0),
    "result adjust": (("example-cup", "--list"), 1),
    "standings": (("example-cup",), 14),
    "standings --teams": (("example-cup", "--teams", "declared"), 1),
    "series list": ((), 1),
    "series handicap": (("season",), 1),
    "series standings": (("season",), 14),
    "series standings --teams": (("season", "--teams", "club"), 1),
    "team list": (("example-cup",), 1),
    "rating show": ((), 14),
    "rating history": (("Ylva Sand",), 1),
    "rating predict": (("--variant", "spardame", "Ylva Sand", "Ola Dahl"), 2),
    "site show": ((), 3),
    "log": ((), 5),
}


@pytest.fixture(scope="module")
def cup(tmp_path_factory):
    """The example cup with round 1 played and round 2 seated, an adjustment whose
    reason starts a formula, a declared team, and a season over the cup: one SQLite
    file for every (reading) command of this module."""
    url = str(tmp_path_factory.mktemp("csv") / "cup.db")
    tourney = cli_on_url(url)
    seat_example_cup(tourney)
    tourney("result", "import", str(EXAMPLES / "round-1.csv"))
    tourney("round", "seat", "example-cup")
    tourney("result", "adjust", "example-cup", "Ola Dahl", "--points", "-1",
            "--reason", "=HYPERLINK(\"http://evil\")")
    tourney("team", "add", "example-cup", "Vasa", "Ylva Sand", "Ola Dahl")
    tourney("series", "create", "season")
    tourney("series", "add", "season", "example-cup")
    tourney("series", "handicap", "season", "Ylva Sand", "-1.5")
    return tourney


def command_words(name: str) -> list[str]:
    return [word for word in name.split() if not word.startswith("--")]


def table_of(text: str, delimiter: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def test_the_row_commands_are_the_commands_that_take_csv():
    """A command given --csv is in the walk below (and so tested), and a command
    in it takes --csv and --tsv."""
    ctx = click.Context(cli)
    taking = {" ".join(path) for path, command in leaf_commands(cli, ctx)
              if any("--csv" in param.opts for param in command.params)}
    assert taking == {" ".join(command_words(name)) for name in ROW_COMMANDS}
    tsv = {" ".join(path) for path, command in leaf_commands(cli, ctx)
           if any("--tsv" in param.opts for param in command.params)}
    assert tsv == taking


@pytest.mark.parametrize("name", ROW_COMMANDS)
def test_every_row_command_prints_its_rows_as_csv_and_tsv(cup, name):
    args, least = ROW_COMMANDS[name]
    words = [*command_words(name), *args]
    as_csv = cup(*words, "--csv")
    rows = table_of(as_csv.stdout, ",")
    header, body = rows[0], rows[1:]
    assert header and len(set(header)) == len(header)
    assert len(body) >= least
    assert all(len(row) == len(header) for row in body)
    assert not as_csv.stdout.startswith("\ufeff")  # standard output: no byte-order mark
    for row in body:  # stdout holds the table alone: no text line among the rows
        assert not any(cell.endswith(":") for cell in row[:1])
    as_tsv = cup(*words, "--tsv")
    assert table_of(as_tsv.stdout, "\t") == rows
    # --json and --csv are the same rows in two shapes: a usage error
    refused = cup(*words, "--csv", "--json", exit_code=2)
    assert json.loads(refused.stdout)["exit_code"] == 2
    assert "--json and --csv do not go together" in refused.stderr
    cup(*words, "--csv", "--tsv", exit_code=2)


def test_a_cell_that_would_start_a_formula_gets_an_apostrophe_and_numbers_stay_numbers(cup):
    [row] = list(csv.DictReader(io.StringIO(
        cup("result", "adjust", "example-cup", "--list", "--csv").stdout)))
    assert row["reason"] == "'=HYPERLINK(\"http://evil\")"
    assert row["points"] == "-1"  # a number, not text a spreadsheet would run
    handicaps = list(csv.DictReader(io.StringIO(
        cup("series", "handicap", "season", "--tsv").stdout), delimiter="\t"))
    assert handicaps == [{"player": "Ylva Sand", "handicap": "-1.5", "set by": "hand"}]
    standings = list(csv.DictReader(io.StringIO(cup("standings", "example-cup",
                                                    "--csv").stdout)))
    [dahl] = [row for row in standings if row["player"] == "Ola Dahl"]
    assert dahl["points"].startswith("-") and dahl["adjustments"].startswith("'=HYPERLINK")


def test_csv_on_a_command_that_writes_files_is_format_csv(cup, tmp_path):
    """--csv is --format csv there (a file gets a byte-order mark); --tsv writes
    tabs; a --format naming another is refused."""
    out = tmp_path / "standings.csv"
    cup("standings", "example-cup", "--csv", "--out", str(out))
    assert out.read_text(encoding="utf-8").startswith("\ufeffplace,player,points")
    assert (cup("standings", "example-cup", "--format", "csv").stdout
            == cup("standings", "example-cup", "--csv").stdout)
    assert cup("result", "export", "example-cup", "--tsv").stdout.startswith(
        "event\tvariant\tround")
    refused = cup("standings", "example-cup", "--csv", "--format", "xlsx", exit_code=2)
    assert "--csv and --format xlsx do not go together" in refused.stderr


def test_csv_goes_with_the_listing_of_a_command_that_lists_only_sometimes(cup):
    refused = cup("result", "forfeit", "example-cup", "2", "1", "--absent", "Ola Dahl",
                  "--csv", exit_code=2)
    assert "--csv prints a list: give --list" in refused.stderr
    cup("series", "handicap", "season", "Ola Dahl", "1", "--tsv", exit_code=2)


def test_the_seating_as_rows_names_table_seat_and_player(cup):
    rows = list(csv.DictReader(io.StringIO(cup("round", "show", "example-cup", "1",
                                               "--csv").stdout)))
    assert {row["table"] for row in rows} == {"1", "2", "3", "4"}
    assert rows[0]["seat"] == "1" and rows[0]["player"] and rows[0]["status"] == ""
    assert len({row["player"] for row in rows}) == len(rows) == 14


def test_a_text_line_of_a_row_command_goes_to_stderr_under_csv(cup):
    """`result show` heads its tables with the match; under --csv stdout holds the
    deals table alone, the heading on stderr."""
    run = cup("result", "show", "example-cup", "1", "1", "--csv")
    assert run.stdout.startswith("deal,dealer,")
    assert "example-cup (spardame) round 1, table 1: version 1" in run.stderr
