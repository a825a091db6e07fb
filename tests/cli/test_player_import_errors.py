"""`player import` checks the whole file and lists every error (bounded as
`result import` bounds its list), importing nothing; a result file given to it
is named as one."""
from __future__ import annotations

from tourney.records import checked
from tourney.records.spreadsheets import open_table


def names(tourney) -> list[str]:
    return [p["name"] for p in tourney("player", "list", "--json").json]


def test_every_bad_row_is_listed_and_nothing_imported(tourney, tmp_path):
    path = tmp_path / "p4.csv"
    path.write_text("name;club;email\nA;V;bad\nB;V;bad2\n;V;c@x.se\nA;V;\nC;V\n",
                    encoding="utf-8")
    run = tourney("player", "import", str(path), exit_code=1)
    assert run.stderr.splitlines() == [
        f"{path}, line 2, email: not an e-mail address: 'bad'",
        f"{path}, line 3, email: not an e-mail address: 'bad2'",
        f"{path}, line 4, name: a player name cannot be empty",
        f"{path}, line 5, name: 'A' is already on line 2",
        f"{path}, line 6: 2 fields where the header has 3 (a ragged row; check for an "
        "unquoted delimiter)",
        f"Error: {path}: nothing imported: 5 errors in the file; the database is unchanged"]
    assert names(tourney) == []
    report = tourney("player", "import", str(path), "--json", exit_code=1).json
    assert (report["action"], report["changed"]) == ("player.import", False)
    assert report["details"]["error_count"] == 5
    assert [(e["line"], e["column"], e["rule"]) for e in report["details"]["errors"]][:2] == [
        (2, "email", "player-email"), (3, "email", "player-email")]


def test_the_list_is_bounded_as_the_result_imports(tourney, tmp_path, monkeypatch):
    monkeypatch.setattr(checked, "MAX_ERRORS_KEPT", 2)
    path = tmp_path / "many.csv"
    path.write_text("name,email\n" + "".join(f"P{i},bad\n" for i in range(5)),
                    encoding="utf-8")
    lines = tourney("player", "import", str(path), exit_code=1).stderr.splitlines()
    assert lines[2:] == ["... and 3 more errors",
                         f"Error: {path}: nothing imported: 5 errors in the file; the "
                         "database is unchanged"]


def test_a_workbooks_rows_are_named_by_their_cells(tourney, tmp_path):
    path = tmp_path / "club.xlsx"
    with open_table(str(path), ["name", "email"], title="Members") as table:
        table.write(["Anna", "anna@x.se"])
        table.write(["Anna", "nope"])
    lines = tourney("player", "import", str(path), exit_code=1).stderr.splitlines()
    assert lines[:2] == [f"{path}, Members!A3, name: 'Anna' is already on Members!A2",
                         f"{path}, Members!B3, email: not an e-mail address: 'nope'"]


def test_a_result_file_is_named_as_one_not_given_a_did_you_mean(tourney, tmp_path):
    path = tmp_path / "r1.csv"
    path.write_text("nmae;event;round;table;deal;players;dealer;scores\n", encoding="utf-8")
    error = tourney("player", "import", str(path), exit_code=2).stderr
    assert "'nmae' (did you mean name?)" in error
    assert "'deal' (did you mean" not in error
    assert "'event', 'round', 'table' are columns of a result file" in error
    assert "(`tourney result import`)" in error
