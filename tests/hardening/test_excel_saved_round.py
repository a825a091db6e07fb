"""A round file as Excel saves it imports: trailing empty columns (`...;scores;;`)
and rows of delimiters only (`;;;;;;`) are nothing (tests/records/test_excel_artefacts.py
for the reader)."""
from conftest import cli_on_url
from event_setup import seated_round_file


def test_an_excel_saved_round_file_imports(tmp_path):
    run = cli_on_url(f"sqlite:///{tmp_path / 'tourney.db'}")
    good = seated_round_file(run, tmp_path / "round.csv", "kvall-1", "kortrad",
                             ["Anna", "Bo", "Cilla", "Dag"], deals=2)
    lines = good.read_text(encoding="utf-8").splitlines()
    width = lines[0].count(",") + 3
    excel = [line + ",," for line in lines]
    excel[2:2] = ["," * width]  # between two deals of the match
    excel.append("," * width)
    excel.append("," * (width - 4))
    saved = tmp_path / "excel.csv"
    saved.write_text("\n".join(excel) + "\n", encoding="utf-8")
    result = run("result", "import", saved, "--json")
    assert result.json["details"]["added"] == 1
