"""Spreadsheets in and out (issue 16): the example round saved as spreadsheets save
it, imported, compared with the canonical CSV; exports, sheets and rejects in CSV
and XLSX; `-` for standard input and output; endless inputs."""
import codecs
import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import cli_on_url, run_cli, seat_example_cup
from openpyxl import Workbook, load_workbook

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ROUND_1 = EXAMPLES / "round-1.csv"


def example_rows() -> list[list[str]]:
    with open(ROUND_1, encoding="utf-8", newline="") as stream:
        return list(csv.reader(stream))


def csv_bytes(rows, delimiter=",", encoding="utf-8", newline="\r\n") -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator=newline).writerows(rows)
    return out.getvalue().encode(encoding)


def xlsx_bytes(rows, title="Round 1") -> bytes:
    """As a spreadsheet saves it: numbers typed as numbers, the rest as text."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = title
    for row in rows:
        sheet.append([int(v) if v.isdigit() else (v or None) for v in row])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


VARIANTS = {
    "semicolon-windows-1252": lambda rows: csv_bytes(rows, ";", "cp1252"),
    "utf16-tab": lambda rows: csv_bytes(rows, "\t", "utf-16"),
    "utf8-bom-semicolon": lambda rows: codecs.BOM_UTF8 + csv_bytes(rows, ";"),
    "xlsx": xlsx_bytes,
}


def example_event(db_url: str, sizes: str = "3-5") -> None:
    """The example script's event (examples/run-example.sh), round 1 seated."""
    seat_example_cup(cli_on_url(db_url), sizes)


@pytest.fixture(scope="module")
def canonical(tmp_path_factory):
    """Standings and export of the example round imported from its canonical CSV."""
    url = f"sqlite:///{tmp_path_factory.mktemp('canonical') / 'c.db'}"
    example_event(url)
    run_cli(url, "result", "import", str(ROUND_1), exit_code=0)
    return (run_cli(url, "standings", "example-cup", "--json", exit_code=0).json,
            run_cli(url, "result", "export", "example-cup", exit_code=0).stdout)


@pytest.mark.parametrize("variant", VARIANTS)
def test_spreadsheet_variants_import_like_the_canonical_csv(variant, canonical, tmp_path):
    url = f"sqlite:///{tmp_path / 't.db'}"
    example_event(url)
    path = tmp_path / ("round-1.xlsx" if variant == "xlsx" else "round-1.csv")
    path.write_bytes(VARIANTS[variant](example_rows()))
    result = run_cli(url, "result", "import", str(path), "--json", exit_code=0)
    assert result.json["details"]["added"] == 4
    assert ("Windows-1252" in result.stderr) == (variant == "semicolon-windows-1252")
    if variant == "semicolon-windows-1252":  # the CLI names the flag that reads it otherwise
        assert "give the file's encoding if it is another (--encoding)" in result.stderr
    standings, export = canonical
    assert run_cli(url, "standings", "example-cup", "--json", exit_code=0).json == standings
    assert run_cli(url, "result", "export", "example-cup", exit_code=0).stdout == export


@pytest.fixture
def example(db_url):
    example_event(db_url)
    run_cli(db_url, "result", "import", str(ROUND_1), exit_code=0)
    return db_url


def test_exports_round_trip_in_csv_and_xlsx(example, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("export.csv", "export.xlsx"):
        run_cli(example, "result", "export", "example-cup", "--out", name, exit_code=0)
        again = run_cli(example, "result", "import", name, "--json", exit_code=0).json["details"]
        assert (again["unchanged"], again["added"], again["replaced"]) == (4, 0, 0)
    assert Path("export.csv").read_bytes().startswith(codecs.BOM_UTF8)
    sheet = load_workbook("export.xlsx").active
    assert sheet.freeze_panes == "A2" and sheet["A1"].value == "event"
    # every score cell that begins with '-' would be a formula: none does
    assert not any(str(c.value).startswith(("=", "+", "-", "@"))
                   for row in sheet.iter_rows() for c in row if c.value is not None)
    # `-` is standard output: no file named '-'
    out = run_cli(example, "result", "export", "example-cup", "--out", "-", exit_code=0)
    assert out.stdout.startswith("event,") and not Path("-").exists()
    sheet_csv = run_cli(example, "round", "sheet", "example-cup", "1", "--out", "-", exit_code=0)
    assert sheet_csv.stdout.startswith("event,") and not Path("-").exists()
    # standings and the player list for the club's own records
    standings = run_cli(example, "standings", "example-cup", "--json", exit_code=0).json
    run_cli(example, "standings", "example-cup", "--out", "standings.xlsx", exit_code=0)
    rows = list(load_workbook("standings.xlsx").active.iter_rows(values_only=True))
    assert rows[0][:3] == ("place", "player", "points")
    assert [r[1] for r in rows[1:]] == [s["player"] for s in standings]
    text = run_cli(example, "standings", "example-cup", "--format", "csv", exit_code=0).stdout
    assert list(csv.reader(io.StringIO(text)))[1][1] == standings[0]["player"]
    run_cli(example, "player", "list", "--out", "players.xlsx", exit_code=0)
    run_cli(example, "player", "list", "--format", "csv", "--out", "players.csv", exit_code=0)
    for name in ("players.xlsx", "players.csv"):  # a list imports back: nothing new
        report = run_cli(example, "player", "import", name, "--json", exit_code=0).json["details"]
        assert report["added"] == [] and len(report["already_registered"]) == 14


def test_score_sheet_xlsx_prints_checks_and_imports_filled(tmp_path):
    example = f"sqlite:///{tmp_path / 's.db'}"
    example_event(example, sizes="4")  # 14 players: three tables of 4, two byes
    path = tmp_path / "sheet.xlsx"
    run_cli(example, "round", "sheet", "example-cup", "1", "--out", str(path), exit_code=0)
    workbook = load_workbook(path)
    sheet = workbook["Round 1"]
    assert sheet.freeze_panes == "A2" and sheet.print_title_rows == "$1:$1"
    assert int(sheet.page_setup.paperSize) == 9  # A4
    assert sheet.sheet_properties.pageSetUpPr.fitToPage
    header = [c.value for c in sheet[1]]
    assert header[:8] == ["event", "variant", "round", "table", "deal", "players", "dealer",
                          "scores"]
    kinds = sorted(v.type for v in sheet.data_validations.dataValidation)
    assert kinds == ["custom"] * 3 + ["list"] * 3  # per table: scores, dealer
    said = {(v.type, v.prompt, v.error) for v in sheet.data_validations.dataValidation}
    assert said == {("custom", "4 scores, seat 1 first, separated by ';'",
                     "One score per seat, 4 in all, separated by ';' in the order of the "
                     "players column."),
                    ("list", None, "The dealer is one of the table's players.")}
    assert workbook["players"].sheet_state == "hidden"
    # filled in the spreadsheet (typed as text), then imported; the same scores in
    # the CSV sheet, saved with ';' in Windows-1252, are the same content
    scores = {1: "0;170;70;0", 2: "170;0;0;70", 3: "70;0;170;0"}
    for row in sheet.iter_rows(min_row=2):
        row[7].value = scores[row[4].value]
    workbook.save(path)
    assert run_cli(example, "result", "import", str(path), "--json").json["details"]["added"] == 3
    template = run_cli(example, "round", "sheet", "example-cup", "1", exit_code=0).stdout
    filled = [r if i == 0 else r[:11] + [scores[int(r[4])]]
              for i, r in enumerate(csv.reader(io.StringIO(template)))]
    as_csv = tmp_path / "sheet.csv"
    as_csv.write_bytes(csv_bytes(filled, ";", "cp1252"))
    again = run_cli(example, "result", "import", str(as_csv), "--json").json["details"]
    assert (again["unchanged"], again["added"]) == (3, 0)


def test_score_sheet_checks_speak_the_events_language(tmp_path):
    from tourney.records.spreadsheets import (
        DEALER_ERROR,
        SCORES_ERROR,
        SCORES_PROMPT,
        SHEET_HEADING,
        SHEET_TAB,
    )
    from tourney.reports.i18n import translations

    example = f"sqlite:///{tmp_path / 's.db'}"
    example_event(example, sizes="4")
    path = tmp_path / "sheet.xlsx"
    for lang in ("sv", "nb", "fi"):
        run_cli(example, "event", "set", "example-cup", "--lang", lang, exit_code=0)
        run_cli(example, "round", "sheet", "example-cup", "1", "--out", str(path), "--yes",
                exit_code=0)
        _ = translations(lang).gettext
        # the tab and the heading on each page too: "Rond 1", not "Round 1"
        tab = _(SHEET_TAB) % {"n": 1}
        assert tab != "Round 1" and load_workbook(path).sheetnames[0] == tab
        sheet = load_workbook(path)[tab]
        assert sheet.oddHeader.center.text == _(SHEET_HEADING) % {"event": "example-cup",
                                                                 "n": 1}
        said = {(v.type, v.prompt, v.error) for v in sheet.data_validations.dataValidation}
        assert said == {("custom", _(SCORES_PROMPT) % {"count": 4},
                         _(SCORES_ERROR) % {"count": 4}),
                        ("list", None, _(DEALER_ERROR))}
        assert _(DEALER_ERROR) != DEALER_ERROR  # translated, not English


def test_rejects_in_xlsx_and_csv_import_once_fixed(example, tmp_path):
    rows = example_rows()
    rows[0] = rows[0]  # header
    bad = [list(r) for r in rows]
    bad[2][rows[0].index("scores")] = "0;0;0;0"  # round 1 table 1, deal 2
    path = tmp_path / "=1+2.csv"  # its name starts the error column
    path.write_bytes(csv_bytes(bad))
    url = f"sqlite:///{tmp_path / 'r.db'}"
    example_event(url)
    for rejects in ("rejects.xlsx", "rejects.csv"):
        out = tmp_path / rejects
        report = run_cli(url, "result", "import", str(path), "--skip-invalid", str(out),
                         "--dry-run", "--json", exit_code=0).json["details"]
        assert report["rejected"] == 1
    table = list(csv.reader(io.StringIO((tmp_path / "rejects.csv").read_text("utf-8-sig"))))
    assert table[0][-1] == "error" and len(table) == 4
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in table for cell in row)
    cells = [c.value for row in load_workbook(tmp_path / "rejects.xlsx").active.iter_rows()
             for c in row if isinstance(c.value, str)]
    assert cells and all(not c.startswith(("=", "+", "-", "@")) for c in cells)
    # fixed in the spreadsheet (the scores cell emptied), the error column left in
    workbook = load_workbook(tmp_path / "rejects.xlsx")
    sheet = workbook.active
    scores = [c.value for c in sheet[1]].index("scores") + 1
    sheet.cell(row=3, column=scores).value = None
    workbook.save(tmp_path / "rejects.xlsx")
    run_cli(url, "result", "import", str(path), "--skip-invalid",
            str(tmp_path / "ignored.csv"), exit_code=0)
    fixed = run_cli(url, "result", "import", str(tmp_path / "rejects.xlsx"), "--json",
                    exit_code=0).json["details"]
    assert fixed["added"] == 1 and fixed["rejected"] == 0


def test_rejects_speak_the_events_language(tmp_path):
    """The error column of a rejects file says each error in the event's language
    (the place and the words, as the event's pages do), the rule's id kept; its
    header stays the record file's, which the import reads back."""
    from tourney.reports.i18n import translations

    bad = [list(r) for r in example_rows()]
    bad[2][bad[0].index("scores")] = "0;0;0;0"  # round 1 table 1, deal 2
    path = tmp_path / "round-1.csv"
    path.write_bytes(csv_bytes(bad))
    url = f"sqlite:///{tmp_path / 'r.db'}"
    example_event(url)
    out = tmp_path / "rejects.csv"
    said = {}
    for lang in ("en", "sv", "fi"):
        run_cli(url, "event", "set", "example-cup", "--lang", lang, exit_code=0)
        run_cli(url, "result", "import", str(path), "--skip-invalid", str(out), "--dry-run",
                "--yes", exit_code=0)
        table = list(csv.reader(io.StringIO(out.read_text("utf-8-sig"))))
        assert table[0] == bad[0] + ["error"]
        said[lang] = [row[-1] for row in table[1:]]
    own = 1  # the row of deal 2, under the header and deal 1
    assert said["en"][own].startswith(f"{path}, line 3, scores")
    for lang in ("sv", "fi"):
        _ = translations(lang).gettext
        assert said[lang][own].startswith(_("line %(number)s") % {"number": 3})
        assert said[lang][own].endswith(said["en"][own].rsplit(" ", 1)[1])  # [rule]
        assert said[lang][own] != said["en"][own] and said[lang][0] != said["en"][0]


def test_stdin_and_pipes_work_for_every_file_argument(example, tmp_path):
    data = csv_bytes(example_rows(), ";", "cp1252")
    assert run_cli(example, "result", "import", "-", "--json", input=data,
                   exit_code=0).json["details"]["unchanged"] == 4
    xlsx = xlsx_bytes(example_rows())
    assert "0 invalid deals" in run_cli(None, "validate", "-", input=xlsx, exit_code=0).stderr
    players = (EXAMPLES / "players.csv").read_bytes()
    assert run_cli(example, "player", "import", "-", "--json", input=players,
                   exit_code=0).json["details"]["added"] == []


def test_a_named_sheet_and_errors_naming_sheet_and_cell(example, tmp_path):
    rows = example_rows()
    play = rows[0].index("play")
    rows[2][play] = rows[2][play].replace("2C", "2H", 1)
    workbook = Workbook()
    workbook.active.title = "Notes"
    sheet = workbook.create_sheet("Round 1")
    for row in rows:
        sheet.append(row)
    path = tmp_path / "cup.xlsx"
    workbook.save(path)
    missing = run_cli(example, "result", "import", str(path), exit_code=2)
    assert "Notes" in missing.stderr or "missing required" in missing.stderr
    result = run_cli(example, "result", "import", str(path), "--sheet", "Round 1",
                     "--replace", exit_code=1)
    letter = "KLMNOPQRSTUVWXYZ"[play - 10] if play >= 10 else "ABCDEFGHIJ"[play]
    assert f"Round 1!{letter}3, play" in result.stderr, result.stderr
    # validate says where alike: the one prefix form, FILE, Sheet!A1, column
    checked = run_cli(None, "validate", str(path), "--sheet", "Round 1", exit_code=1)
    assert f"cup.xlsx, Round 1!{letter}3, play" in checked.stdout, checked.stdout
    assert "cup.xlsx: " not in checked.stdout


@pytest.mark.parametrize("command", [["result", "import", "/dev/zero", "--event", "cup"],
                                     ["player", "import", "/dev/zero"]])
def test_an_endless_input_ends(command, tmp_path):
    url = f"sqlite:///{tmp_path / 'e.db'}"
    run_cli(url, "player", "add", "Anna")  # a database to import into
    run_cli(url, "event", "create", "cup", "--variant", "spardame")
    run = subprocess.run([str(Path(sys.executable).parent / "tourney"), *command, "--db", url],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "Traceback" not in run.stderr  # not a table: usage
    assert "line longer than" in run.stderr


def test_a_pipe_as_the_file_argument_is_read_once(tmp_path):
    # `result import <(cat round-1.csv)`: the file is a pipe, readable once
    url = f"sqlite:///{tmp_path / 'p.db'}"
    example_event(url)
    run = subprocess.run([str(Path(sys.executable).parent / "tourney"), "result", "import",
                          "/dev/stdin", "--json", "--db", url], input=ROUND_1.read_bytes(),
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)["details"]
    assert report["added"] == 4 and len(report["sha256"]) == 64
    import hashlib
    assert report["sha256"] == hashlib.sha256(ROUND_1.read_bytes()).hexdigest()


def test_a_format_tourney_cannot_write_is_refused_not_faked(tmp_path, tourney):
    tourney("player", "add", "Anna", "Bertil")
    tourney("event", "create", "cup", "--variant", "dam-brade")
    out = tmp_path / "standings.ods"
    result = tourney("standings", "cup", "--out", str(out), exit_code=2)
    assert ".ods" in result.stderr and not out.exists()
    tourney("standings", "cup", "--out", str(tmp_path / "standings.csv"))
    assert (tmp_path / "standings.csv").read_bytes().startswith(b"\xef\xbb\xbfplace,")


def test_a_txt_out_file_is_refused_naming_the_formats_unless_a_format_is_given(tmp_path,
                                                                              tourney):
    tourney("player", "add", "Anna", "Bertil")
    tourney("event", "create", "cup", "--variant", "dam-brade")
    tourney("series", "create", "s2")
    out = tmp_path / "s2.txt"
    for command in (["series", "standings", "s2"], ["standings", "cup"],
                    ["player", "list"]):
        result = tourney(*command, "--out", str(out), exit_code=2)
        assert f"{out}: tourney writes .csv and .xlsx files, not .txt" in result.stderr
        assert not out.exists()
    # asked for by name, CSV goes under any name
    tourney("series", "standings", "s2", "--out", str(out), "--format", "csv")
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")


def test_a_rejects_file_of_another_format_is_refused_without_a_format_to_give(tmp_path,
                                                                              tourney):
    # --skip-invalid has no --format: the refusal names the extensions only
    rejects = tmp_path / "rejects.txt"
    result = tourney("result", "import", str(ROUND_1), "--dry-run", "--skip-invalid",
                     str(rejects), exit_code=2)
    assert result.stderr == (f"Error: {rejects}: tourney writes .csv and .xlsx files, "
                             "not .txt; name the file .csv or .xlsx\n")
