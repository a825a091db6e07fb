"""An output file that exists already is refused unless --yes.

`tourney round sheet kvall-1 3 --out players.csv` replaced the organizer's member
list without a word. Every command that writes a file refuses, with exit 2 and
before anything is written, a path where a file exists, naming the file and the
flag that replaces it; a file tourney wrote itself earlier is no exception.
"""
from __future__ import annotations

import pytest
from conftest import cli_on_url
from event_setup import seated_round_file

VARIANT = "kortrad"
NAMES = ["Anna", "Bo", "Cilla", "Dag"]
MEMBERS = "name;club\nAnna;Vasa\nBo;Vasa\n"


@pytest.fixture
def cup(tmp_path):
    db = tmp_path / "tourney.db"
    run = cli_on_url(f"sqlite:///{db}")
    csv_path = seated_round_file(run, tmp_path / "cup.csv", "cup", VARIANT, NAMES, deals=2)
    run("result", "import", csv_path)
    return run, tmp_path, csv_path


COMMANDS = {
    "round sheet": ["round", "sheet", "cup", "1", "--out"],
    "round sheet xlsx": ["round", "sheet", "cup", "1", "--format", "xlsx", "--out"],
    "result export": ["result", "export", "cup", "--out"],
    "standings": ["standings", "cup", "--out"],
    "player list": ["player", "list", "--out"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_an_existing_file_is_refused_unless_yes(cup, command):
    run, folder, _ = cup
    members = folder / "players.csv"
    members.write_text(MEMBERS)
    result = run(*COMMANDS[command], members, exit_code=2)
    assert f"--out '{members}' exists already; nothing was written" in result.stderr
    assert "add --yes to replace it." in result.stderr
    assert members.read_text() == MEMBERS
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []
    run(*COMMANDS[command], members, "--yes")
    assert members.read_bytes() != MEMBERS.encode()


def test_a_file_tourney_wrote_is_replaced_only_with_yes(cup):
    run, folder, _ = cup
    sheet = folder / "round1.csv"
    run("round", "sheet", "cup", "1", "--out", sheet)
    first = sheet.read_bytes()
    result = run("round", "sheet", "cup", "1", "--out", sheet, exit_code=2)
    assert "--yes" in result.stderr
    run("round", "sheet", "cup", "1", "--out", sheet, "-y")
    assert sheet.read_bytes() == first


def test_rejects_file_that_exists_is_refused_unless_yes(cup):
    run, folder, csv_path = cup
    members = folder / "players.csv"
    members.write_text(MEMBERS)
    result = run("result", "import", csv_path, "--skip-invalid", members, exit_code=2)
    assert f"--skip-invalid '{members}' exists already" in result.stderr
    assert members.read_text() == MEMBERS


def test_standard_output_is_never_refused(cup):
    run, _, _ = cup
    assert run("result", "export", "cup", "--out", "-").stdout


def test_the_refusal_of_the_database_ends_its_sentence(cup):
    run, folder, _ = cup
    result = run("result", "export", "cup", "--out", folder / "tourney.db", "--yes",
                 exit_code=2)
    assert result.stderr.rstrip().endswith("nothing was written. Give another file name.")
