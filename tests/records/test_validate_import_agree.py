"""`validate --event` and `result import` give the same verdict on every file, and
list every error of a row (the guide promises both)."""
from __future__ import annotations

import csv
import io

import pytest

NAMES = ["Anna", "Bertil", "Cecilia", "David", "Erik", "Frida", "Gustav", "Helga"]


@pytest.fixture
def cup(tourney, tmp_path):
    tourney("player", "add", *NAMES)
    tourney("event", "create", "cup", "--variant", "spardame", "--rounds", "2",
            "--table-sizes", "4")
    tourney("event", "enter", "cup", "--all")
    tourney("round", "seat", "cup")
    return tourney


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))


def _write(path, rows) -> str:
    with open(path, "w", encoding="utf-8", newline="") as stream:
        csv.writer(stream).writerows(rows)
    return str(path)


def _files(cup, tmp_path) -> dict[str, str]:
    played = _rows(cup("simulate", "--event", "cup", "--round", "1", "--deals", "2").stdout)
    header, first = played[0], played[1]
    table = [r for r in played[1:] if r[3] == first[3]]
    sheet = _rows(cup("round", "sheet", "cup", "1", "--deals", "4").stdout)
    files = {"played": _write(tmp_path / "played.csv", played)}
    typo = [list(r) for r in table]
    for row in typo:  # two misspelled players; the dealer spelled right for neither
        players = row[5].split(";")
        row[5] = ";".join([players[0] + "x", players[1] + "y", *players[2:]])
    files["typos"] = _write(tmp_path / "typos.csv", [header, *typo])
    dealer = [list(r) for r in table]
    dealer[0][6] = "Nobody"
    files["bad dealer"] = _write(tmp_path / "dealer.csv", [header, *dealer])
    files["wrong table"] = _write(tmp_path / "table.csv",
                                  [header, *[r[:3] + ["9"] + r[4:] for r in table]])
    move = [list(r) for r in table]
    move[0][10] = " ".join(reversed(move[0][10].split()))
    files["illegal play"] = _write(tmp_path / "play.csv", [header, *move])
    files["empty sheet"] = _write(tmp_path / "sheet.csv", sheet)
    filled = [list(r) for r in sheet]
    first_table = [r for r in filled[1:] if r[3] == filled[1][3]]
    first_table[0][11] = "100;20;60;60"
    first_table[1][6] = "Nobody"  # an unused row whose dealer was spoilt
    files["sheet, a spoilt unused row"] = _write(tmp_path / "filled.csv",
                                                 [filled[0], *first_table])
    return files


def test_validate_and_import_agree_on_every_file(cup, tmp_path):
    verdicts = {}
    for name, path in _files(cup, tmp_path).items():
        validated = cup("validate", path, "--event", "cup", exit_code=None)
        imported = cup("result", "import", path, "--dry-run", exit_code=None)
        verdicts[name] = (validated.exit_code, imported.exit_code)
    assert all(v == i for v, i in verdicts.values()), verdicts
    assert verdicts["played"] == (0, 0) and verdicts["empty sheet"] == (1, 1)
    assert verdicts["sheet, a spoilt unused row"] == (0, 0)
    assert {verdicts[n] for n in ("typos", "bad dealer", "wrong table", "illegal play")} \
        == {(1, 1)}


def test_two_misspelled_players_are_both_said(cup, tmp_path):
    typos = _files(cup, tmp_path)["typos"]
    for args in (["validate", typos, "--event", "cup"], ["result", "import", typos]):
        run = cup(*args, exit_code=1)
        said = run.stdout + run.stderr
        line = next(text for text in said.splitlines() if ", line 2, players" in text)
        wrong = [w for w in line.split(":", 1)[1].split() if w.rstrip(",").endswith(("x", "y"))]
        assert len(wrong) >= 2, line  # both names, not only the first
        assert "did you mean" in line
        # the dealer, spelled right, is no error of its own pointing at a typo
        assert not any("dealer" in text and "did you mean" in text and "x?" in text
                       for text in said.splitlines()), said
