"""`result import` lists every independent error of a match in one attempt, the
seating's first (the root cause), none that follows from another; `validate`
words each error the import shares with it the same way."""
from __future__ import annotations

import json

from openpyxl import load_workbook
from results_helpers import create_event, make_engine, run, seat_round, unique

# Table 1 seats Fia, Hans, Anna, Cilla (seat 1 deals first); table 2 Dag, Gun, Bo, Eva.
HEADER = "event;round;table;deal;players;dealer;scores"
SCORES = ('"100;50;40;50"', '"0;100;40;100"')


def event(db_url, deals=2):
    engine = make_engine(db_url)
    slug = unique("sec")
    create_event(engine, slug, "spardame", size=4, rules={"deals": str(deals)})
    tables = [[f"{slug} {n}" for n in ("Fia", "Hans", "Anna", "Cilla")],
              [f"{slug} {n}" for n in ("Dag", "Gun", "Bo", "Eva")]]
    seat_round(engine, slug, 1, tables)
    return slug, tables


def rows(slug, table, players, dealers, *, numbers=None, scores=None):
    """A match's score-sheet rows: ``players`` in the file's order, a dealer a deal."""
    numbers = numbers or range(1, len(dealers) + 1)
    scores = scores or [SCORES[i % 2] for i in range(len(dealers))]
    return [f'{slug};1;{table};{n};"{";".join(players)}";{d};{s}'
            for n, d, s in zip(numbers, dealers, scores)]


def write(tmp_path, lines, name="r1.csv"):
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *lines]) + "\n", encoding="utf-8")
    return path


def import_errors(db_url, path, *args):
    """The rule and line of each error of a rejected `result import --dry-run`."""
    result = run(db_url, "result", "import", str(path), "--dry-run", "--json", *args)
    assert result.exit_code == 1, result.output
    errors = json.loads(result.stdout)["details"]["errors"]
    return [(e["rule"], e["line"]) for e in errors], errors, result


def test_a_seat_swap_is_said_as_the_seating_not_as_a_dealer_error(db_url, tmp_path):
    # the secretary wrote Hans first and left the printed dealers (Fia, Hans) alone
    slug, (fia, _) = event(db_url)
    swapped = [fia[1], fia[0], fia[2], fia[3]]
    path = write(tmp_path, rows(slug, 1, swapped, [fia[0], fia[1]]))
    found, errors, result = import_errors(db_url, path)
    assert found == [("seat-order", 2)]
    assert (errors[0]["column"], errors[0]["seat"], errors[0]["player"]) == (
        "players", 1, fia[1])
    assert f"seats {';'.join(fia)} (seat 1 first): {fia[0]} is seat 1" in errors[0]["message"]
    assert "dealer-rotation" not in result.stderr
    # validate, which knows no seating, sees the dealers in the file's order
    checked = run(db_url, "validate", str(path), "--event", slug)
    assert "should: the dealer moves clockwise" in checked.stdout


def test_a_dealer_error_the_seating_does_not_explain_is_said_as_seated(db_url, tmp_path):
    slug, (_, dag) = event(db_url, deals=4)
    swapped = [dag[1], dag[0], dag[2], dag[3]]
    # as seated Dag, Gun, Bo, Eva deal in turn: deal 3 goes to Eva, not Bo
    path = write(tmp_path, rows(slug, 2, swapped, [dag[0], dag[1], dag[3], dag[2]]))
    found, errors, _ = import_errors(db_url, path)
    assert found == [("seat-order", 2), ("dealer-rotation", 4)]
    assert errors[1]["message"].startswith(f"{dag[3]} deals, but {dag[2]} should")


def test_a_wrong_first_dealer_is_one_mistake(db_url, tmp_path):
    slug, (fia, _) = event(db_url, deals=4)
    # deal 1 given to Anna by a slip; the others dealt as seated (Hans, Anna, Cilla)
    path = write(tmp_path, rows(slug, 1, fia, [fia[2], fia[1], fia[2], fia[3]]))
    found, errors, _ = import_errors(db_url, path)
    assert found == [("first-dealer", 2)]
    # the table began with the wrong dealer and went on from there: one mistake too
    path = write(tmp_path, rows(slug, 1, fia, [fia[2], fia[3], fia[0], fia[1]]), "r2.csv")
    assert import_errors(db_url, path)[0] == [("first-dealer", 2)]


def test_six_typical_mistakes_are_all_said_in_one_attempt(db_url, tmp_path):
    slug, (fia, dag) = event(db_url, deals=4)
    table_1 = rows(slug, 1, fia, [fia[0], fia[1].lower(), fia[2], fia[2]],
                   numbers=[1, 2, 3, 3], scores=[SCORES[0], SCORES[1], SCORES[0], SCORES[0]])
    # deal 2's dealer misspelt, deal 3 twice (the same row), deal 4 missing
    table_2 = rows(slug, 2, [dag[1], dag[0], dag[2], dag[3]], [dag[0], dag[1], dag[2], dag[3]])
    table_2[3] = table_2[3].replace(";4;", ";5;", 1)  # deal 4 numbered 5
    path = write(tmp_path, table_1 + table_2)
    found, errors, result = import_errors(db_url, path)
    assert found == [("dealer", 3), ("match-incomplete", 4), ("duplicate-row", 5),
                     ("seat-order", 6), ("deal-numbering", 9)]
    assert f"(did you mean {fia[1]}?)" in errors[0]["message"]
    # validate says the same of what it checks (not the seating), worded alike; and,
    # knowing no seating, the dealer error that table 2's seat order explains
    checked = [line for line in run(db_url, "validate", str(path), "--event", slug)
               .stdout.splitlines() if line.startswith(str(path))]
    imported = [line.rsplit(" [", 1)[0] for line in result.stderr.splitlines()
                if line.startswith(str(path)) and "[seat-order]" not in line]
    follow_on = f"{path}, line 7, dealer: {dag[1]} deals, but {dag[2]} should: "
    assert [line for line in checked if not line.startswith(follow_on)] == imported
    assert len(checked) == len(imported) + 1


def test_validate_names_the_seat_and_player_not_entered_as_the_import_does(db_url, tmp_path):
    slug, (fia, _) = event(db_url, deals=1)
    stranger = [fia[0], "Märta Nordman", fia[2], fia[3]]
    path = write(tmp_path, rows(slug, 1, stranger, [fia[0]]))
    checked = run(db_url, "validate", str(path), "--event", slug, "--json")
    [deal] = [d for d in map(json.loads, checked.stdout.splitlines()) if d["kind"] == "deal"]
    assert (deal["rule"], deal["seat"], deal["player"]) == ("not-entered", 2, "Märta Nordman")
    # the file named as the import names it (the reader's name: check_stream's errors)
    assert deal["error"].startswith(f"{path}, line 2, players (seat 2, Märta Nordman): ")
    _, [error], _ = import_errors(db_url, path)
    assert (error["rule"], error["seat"], error["player"]) == ("not-entered", 2,
                                                                "Märta Nordman")
    # one wording of a name no entered player has, whichever command reads it
    assert error["error"] == deal["error"]


def test_a_misspelled_player_is_one_error_with_no_dealer_error_on_the_typo(db_url, tmp_path):
    # the players' cell misspells Hans on every row; the dealer column names him
    # rightly: one mistake, said once, as validate --event says it
    slug, (fia, _) = event(db_url, deals=2)
    typo = [fia[0], f"{slug} Hanz", fia[2], fia[3]]
    path = write(tmp_path, rows(slug, 1, typo, [fia[0], fia[1]]))
    rules, [error], _ = import_errors(db_url, path)
    assert rules == [("not-entered", 2)]
    assert error["error"].endswith(f"{slug} Hanz not entered in {slug} "
                                   f"(did you mean {slug} Hans?)")


def test_a_player_seated_at_another_table_is_said_not_seated_here(db_url, tmp_path):
    slug, (fia, dag) = event(db_url, deals=1)
    elsewhere = [fia[0], dag[1], fia[2], fia[3]]
    path = write(tmp_path, rows(slug, 1, elsewhere, [fia[0]]))
    rules, [error], _ = import_errors(db_url, path)
    assert rules == [("not-seated", 2)]
    assert f"{dag[1]} not seated at round 1, table 1" in error["error"]


def test_skipped_rows_to_standard_output_are_said_so(db_url, tmp_path):
    slug, (fia, _) = event(db_url)
    path = write(tmp_path, rows(slug, 1, fia, [fia[0], fia[0]]))
    result = run(db_url, "result", "import", str(path), "--dry-run", "--skip-invalid", "-")
    assert "the rows of 1 rejected match are on standard output" in result.stderr
    assert " in -" not in result.stderr


def test_the_rejects_workbook_holds_numbers_as_numbers(db_url, tmp_path):
    slug, (fia, _) = event(db_url)
    lines = [line.replace(";1;1;", "; 1; 1; ", 1) for line in
             rows(slug, 1, fia, [fia[0], fia[0]])]  # typed with spaces: ev; 1; 1; 1
    path = write(tmp_path, lines)
    rejects = tmp_path / "rejects.xlsx"
    run(db_url, "result", "import", str(path), "--dry-run", "--skip-invalid", str(rejects))
    sheet = load_workbook(rejects).active
    header, first, *_ = sheet.iter_rows(values_only=True)
    assert [first[header.index(c)] for c in ("round", "table", "deal")] == [1, 1, 1]


def test_a_workbooks_errors_name_the_other_rows_cell_too(db_url, tmp_path):
    slug, (fia, _) = event(db_url)
    # every match rejected: table 1 dealt by Fia twice, table 2 not Fia's table
    lines = rows(slug, 1, fia, [fia[0], fia[0]]) + rows(slug, 2, fia, [fia[0], fia[1]])
    lines += [lines[1]]  # table 1's deal 2 again, after table 2: apart from its match
    rejects = tmp_path / "rejects.xlsx"
    run(db_url, "result", "import", str(write(tmp_path, lines)), "--dry-run",
        "--skip-invalid", str(rejects))
    found, errors, _ = import_errors(db_url, rejects)
    split = next(e for e in errors if e["rule"] == "match-split")
    assert split["cell"] == "rejects!C6"
    assert split["message"].endswith("the match began at rejects!C2")


def test_export_and_its_count_are_worded_as_one(db_url, tmp_path):
    slug, (fia, _) = event(db_url)
    path = write(tmp_path, rows(slug, 1, fia, [fia[0], fia[1]]))
    run(db_url, "result", "import", str(path), ok=True)
    out = tmp_path / "ex.xlsx"
    assert "wrote 2 deals to " + str(out) in run(db_url, "result", "export", slug, "--out",
                                                 str(out), ok=True).stderr
    assert "wrote 2 deals to standard output" in run(db_url, "result", "export", slug,
                                                     ok=True).stderr


def test_deal_one_with_a_seated_player_missing_names_who(db_url, tmp_path):
    slug, (fia, _) = event(db_url)
    path = write(tmp_path, rows(slug, 1, fia[:3], [fia[0], fia[1]],
                                scores=['"100;100;40"', '"100;100;40"']))
    found, errors, _ = import_errors(db_url, path)
    assert found == [("seat-order", 2)]
    assert errors[0]["message"].endswith(f"(seat 1 first): {fia[3]} missing")
    assert errors[0]["seat"] is None


def test_a_rejects_file_with_nothing_rejected_is_said_so(db_url, tmp_path):
    slug, (fia, _) = event(db_url)
    path = write(tmp_path, rows(slug, 1, fia, [fia[0], fia[1]]))
    rejects = tmp_path / "rejects.csv"
    result = run(db_url, "result", "import", str(path), "--skip-invalid", str(rejects))
    assert f"nothing was rejected: {rejects} has the header row only" in result.stderr
    assert len(rejects.read_text(encoding="utf-8-sig").splitlines()) == 1
