"""`tourney round import` (issue 31): a predefined seating from CSV or XLSX, checked
against the event's sizes and entries; every problem names file, line, column, player."""
from arbiter_helpers import add_result, setup, tables
from openpyxl import Workbook


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_seating_file_seats_the_round(tourney, db_url, tmp_path):
    setup(tourney)
    tourney("event", "set", "ev", "--keep-apart", "Ann,Bo")
    good = write(tmp_path / "r1.csv", "table,seat,player\n1,2,Ann\n1,1,Bo\n1,3,Cy\n1,4,Di\n"
                 "2,1,Ed\n2,2,Fi\n2,3,Gu\n2,4,Hj\n")
    done = tourney("round", "import", "ev", "1", good, "--json")
    assert done.json["action"] == "round.import" and done.json["changed"]
    assert tables(tourney) == ({"1": ["Bo", "Ann", "Cy", "Di"], "2": ["Ed", "Fi", "Gu", "Hj"]},
                               [])
    # the file decides; what it breaks of the constraints is said
    assert [u["players"] for u in done.json["unmet"]] == [["Ann", "Bo"]]
    assert "1 seating constraint not met" in done.stderr
    # the latest round, no result in: imported again, replaced
    byes = write(tmp_path / "r1b.csv", "table,player\n1,Ann\n1,Cy\n1,Ed\n1,Gu\n"
                 "2,Bo\n2,Di\n2,Fi\n2,Hj\n")
    tourney("round", "import", "ev", "1", byes)
    assert tables(tourney)[0]["2"] == ["Bo", "Di", "Fi", "Hj"]
    add_result(db_url, 1, "1")
    refused = tourney("round", "import", "ev", "1", byes, exit_code=1)
    assert "results are in" in refused.stderr
    # round 2 waits for round 1's results unless forced
    waiting = tourney("round", "import", "ev", "2", good, exit_code=1)
    assert "--force" in waiting.stderr
    two = tourney("round", "import", "ev", "2", good, "--force", "--json").json
    assert two["repeated_pairs"] == 4  # Ann, Cy / Ed, Gu / Bo, Di / Fi, Hj met in round 1
    tourney("round", "import", "ev", "5", good, exit_code=2)
    assert [c["action"] for c in tourney("log", "--json").json].count("round.import") == 3


def test_every_problem_is_named_and_nothing_stored(tourney, tmp_path):
    setup(tourney)
    tourney("player", "add", "Outsider")
    bad = write(tmp_path / "bad.csv", "table,seat,player\n1,1,Ann\n1,2,Bo\n1,3,Cy\n1,4,Dii\n"
                "2,1,Ed\n2,2,Fi\n2,3,Outsider\n2,4,Ann\nbye,,Gu\n")
    refused = tourney("round", "import", "ev", "1", bad, "--json", exit_code=1)
    errors = {(e["line"], e["column"], e["player"]): e["error"]
              for e in refused.json["details"]["errors"]}
    assert "unknown player 'Dii' (did you mean 'Di'?)" in errors[(5, "player", "Dii")]
    assert errors[(5, "player", "Dii")].startswith(f"{bad}, line 5, player")
    assert "Outsider cannot play round 1" in errors[(8, "player", "Outsider")]
    assert "Ann is on line 2 already" in errors[(9, "player", "Ann")]
    assert any("not in the file: Di, Hj" in e for e in errors.values())
    assert any("table 1 seats 3" in e for e in errors.values())
    assert "the database is unchanged" in refused.stderr
    tourney("round", "show", "ev", "1", exit_code=2)  # nothing seated
    header = write(tmp_path / "header.csv", "tisch,player\n1,Ann\n")
    assert "unknown column 'tisch'" in tourney("round", "import", "ev", "1", header,
                                               exit_code=2).stderr
    seats = write(tmp_path / "seats.csv", "table,seat,player\n1,1,Ann\n1,1,Bo\n1,3,Cy\n"
                  "1,4,Di\n2,1,Ed\n2,2,Fi\n2,3,Gu\n2,4,Hj\n")
    numbered = tourney("round", "import", "ev", "1", seats, exit_code=1)
    assert "seats are numbered 1 to 4" in numbered.stderr


def test_an_xlsx_seating_and_its_cells(tourney, tmp_path):
    setup(tourney, names=["Ann", "Bo", "Cy", "Di", "Ed", "Fi", "Gu", "Hj", "Ib"], sizes="4")
    book = Workbook()
    sheet = book.active
    sheet.title = "Round 1"
    sheet.append(["Table", "Player"])
    for i, name in enumerate(["Ann", "Bo", "Cy", "Di", "Ed", "Fi", "Gu", "Hj"]):
        sheet.append([1 + i // 4, name])
    sheet.append(["Bye", "Ib"])
    path = tmp_path / "schedule.xlsx"
    book.save(path)
    done = tourney("round", "import", "ev", "1", str(path), "--json").json
    assert done["byes"] == ["Ib"] and len(done["tables"]) == 2
    sheet.append([3, "Zed"])
    book.save(path)
    tourney("event", "enter", "ev", "--all")
    refused = tourney("round", "import", "ev", "1", str(path), "--json", exit_code=1).json
    cells = [e.get("cell") for e in refused["details"]["errors"]]
    assert "'Round 1'!B11" in cells or "Round 1!B11" in cells, refused


def test_a_fixed_player_the_file_seats_elsewhere_is_said_so(tourney, tmp_path):
    """The file put a player fixed to table 1 at table 2 while table 1 holds no
    one fixed to it: the file's doing, not a full table."""
    setup(tourney)
    tourney("event", "set", "ev", "--fix", "Ed=1")
    seating = write(tmp_path / "r1.csv", "table,player\n1,Ann\n1,Bo\n1,Cy\n1,Di\n"
                    "2,Ed\n2,Fi\n2,Gu\n2,Hj\n")
    done = tourney("round", "import", "ev", "1", seating, "--json")
    unmet = done.json["unmet"]
    assert [(u["players"], u["reason"]) for u in unmet] == [(["Ed"], "seated-elsewhere")]
    assert "Ed is fixed to table 1, but the round's seating puts them at table 2" \
        in unmet[0]["message"]
    assert "held by a player fixed there" not in done.stderr
