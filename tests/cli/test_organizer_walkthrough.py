"""What a new organizer met taking back mistakes (the second walkthrough): each
finding as a test that failed before it was fixed."""
from __future__ import annotations

import json

from simulated_rounds import one_deal_event_round_one_played, play_round

NAMES = ["Anna Berg", "Bo Ek", "Cilla Dahl", "Dag Lund", "Eva Nord", "Finn Holm",
         "Gun Sand", "Hans Wik"]


def two_rounds_round_two_seated(tourney, tmp_path) -> dict:
    """maja-1: 8 players, 2 rounds of one-deal spardame at tables of 4, round 1
    played and imported, round 2 seated: its seating."""
    one_deal_event_round_one_played(tourney, tmp_path, "maja-1", NAMES, rounds=2)
    return tourney("round", "seat", "maja-1", "--json").json


def seated(tourney, number: int) -> set[str]:
    shown = tourney("round", "show", "maja-1", str(number), "--json").json
    return {name for table in shown["tables"] for name in table["seats"]}


def test_a_mistaken_withdrawal_is_taken_back_when_every_round_is_seated(tourney, tmp_path):
    two = two_rounds_round_two_seated(tourney, tmp_path)
    tourney("event", "withdraw", "maja-1", "Anna Berg")
    play_round(two, "maja-1", "spardame", {"deals": "1"}, 2, tmp_path / "r2.csv")
    refused = tourney("result", "import", str(tmp_path / "r2.csv"), exit_code=1)
    assert "Anna Berg withdrew after round 1" in refused.stderr
    assert ("Anna Berg withdrew after round 1 and cannot play round 2; if the withdrawal "
            "was a mistake, entering Anna Berg again takes it back "
            "(`tourney event enter maja-1 'Anna Berg'`) [withdrawn]") in refused.stderr
    back = tourney("event", "enter", "maja-1", "Anna Berg", "--json")
    assert back.json["changed"] is True
    assert back.json["details"]["reentered"] == ["Anna Berg"]
    assert back.json["details"]["reseat"] is None
    assert "Anna Berg plays on" in back.json["summary"] and "0 entered" not in back.stderr
    assert "reseat" not in back.stderr
    assert "Anna Berg" in seated(tourney, 2)
    tourney("result", "import", str(tmp_path / "r2.csv"))
    # a new player still cannot enter once every round is seated
    refused = tourney("event", "enter", "maja-1", "Ida Ros", "--add", exit_code=1)
    assert "no one can enter now" in refused.stderr


def test_taking_back_a_withdrawal_from_the_seated_round(tourney, tmp_path):
    two_rounds_round_two_seated(tourney, tmp_path)
    tourney("event", "withdraw", "maja-1", "Anna Berg")
    back = tourney("event", "enter", "maja-1", "Anna Berg", "--from-round", "2")
    assert "0 entered" not in back.stderr and "Anna Berg plays on" in back.stderr
    assert "reseat" not in back.stderr  # she is in round 2's seating
    assert "Anna Berg" in seated(tourney, 2)


def test_taking_back_a_withdrawal_after_the_round_was_reseated(tourney, tmp_path):
    two_rounds_round_two_seated(tourney, tmp_path)
    tourney("event", "withdraw", "maja-1", "Anna Berg")
    tourney("round", "reseat", "maja-1", "2")
    assert "Anna Berg" not in seated(tourney, 2)
    back = tourney("event", "enter", "maja-1", "Anna Berg", "--json")
    assert back.json["details"]["reseat"] == 2
    assert "round 2 is seated without Anna Berg" in back.stderr
    assert "tourney round reseat maja-1 2" in back.stderr
    tourney("round", "reseat", "maja-1", "2")
    assert "Anna Berg" in seated(tourney, 2)


def test_a_new_database_file_is_announced_once(run_cli, tmp_path):
    mistyped = str(tmp_path / "tourny.db")
    first = run_cli(mistyped, "player", "add", "X Y")
    assert f"created a new database {mistyped}" in first.stderr
    again = run_cli(mistyped, "player", "add", "Z W")
    assert "created" not in again.stderr
    other = str(tmp_path / "other.db")
    made = run_cli(other, "db", "init")
    assert made.stderr.count("created") == 1  # db init says it itself
    refused = run_cli(str(tmp_path / "nope.db"), "event", "enter", "cup", "X Y", exit_code=2)
    assert "no database at" in refused.stderr and "created" not in refused.stderr


def test_a_new_database_is_removed_again_when_the_command_that_made_it_fails(run_cli, tmp_path):
    mistyped = tmp_path / "tourny.db"
    failed = run_cli(str(mistyped), "event", "create", "cup", "--variant", "spadame",
                     exit_code=2)
    assert "did you mean spardame" in failed.stderr
    assert f"removed the new database {mistyped} again" in failed.stderr
    assert not any(tmp_path.iterdir())  # no database, no -wal or -shm beside it
    # a database that holds something stays, whatever fails later
    run_cli(str(mistyped), "player", "add", "X Y")
    run_cli(str(mistyped), "event", "create", "cup", "--variant", "spadame", exit_code=2)
    assert mistyped.exists()
    assert [p["name"] for p in run_cli(str(mistyped), "player", "list", "--json").json] == ["X Y"]


def test_an_empty_file_given_as_db_is_left_empty_when_the_command_fails(run_cli, tmp_path):
    """An empty file is where a new database may be made; when the command then
    fails, the file the user had stays (empty), with nothing beside it."""
    notes = tmp_path / "notes.txt"
    notes.touch()
    failed = run_cli(str(notes), "event", "create", "cup", "--variant", "spadame", exit_code=2)
    assert f"emptied {notes} again" in failed.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    assert notes.stat().st_size == 0


def test_validate_offers_the_close_name_the_import_offers(tourney, tmp_path):
    tourney("player", "add", *NAMES)
    tourney("event", "create", "maja-1", "--variant", "spardame", "--rounds", "2",
            "--table-sizes", "4", "--rule", "deals=1")
    tourney("event", "enter", "maja-1", "--all")
    one = tourney("round", "seat", "maja-1", "--json").json
    path = tmp_path / "r1.csv"
    play_round(one, "maja-1", "spardame", {"deals": "1"}, 1, path)
    path.write_text(path.read_text(encoding="utf-8").replace("Cilla Dahl", "Cilla Dhal"),
                    encoding="utf-8")
    checked = tourney("validate", str(path), "--event", "maja-1", exit_code=1)
    assert "Cilla Dhal not entered in maja-1 (did you mean Cilla Dahl?)" in checked.stdout
    imported = tourney("result", "import", str(path), exit_code=1)
    assert "(did you mean Cilla Dahl?)" in imported.stderr


def test_publish_keeps_the_languages_of_the_last_publish(tourney, tmp_path):
    from tourney.reports.folders import MANIFEST

    tourney("player", "add", *NAMES)
    tourney("event", "create", "maja-1", "--variant", "spardame", "--rounds", "2")
    site = tmp_path / "site"
    first = tourney("publish", "--out", str(site), "--lang", "sv", "--lang", "en", "--json")
    assert first.json["details"]["languages"] == ["sv", "en"]
    assert first.json["details"]["languages_from"] == "option"
    again = tourney("publish", "--out", str(site), "--json")
    assert again.json["details"]["languages"] == ["sv", "en"]
    assert again.json["details"]["languages_from"] == "last publish"
    assert again.json["details"]["removed_files"] == 0 and (site / "en").is_dir()
    assert f"languages as in the last publish into {site}: sv, en" in again.stderr
    # a site published before the manifest kept its languages: its marker's
    manifest = json.loads((site / MANIFEST).read_text(encoding="utf-8"))
    del manifest["languages"]
    (site / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    assert tourney("publish", "--out", str(site), "--json").json["details"]["languages"] \
        == ["sv", "en"]
    only = tourney("publish", "--out", str(site), "--lang", "en", "--json")
    assert only.json["details"]["languages"] == ["en"] and not (site / "en").exists()
    new = tourney("publish", "--out", str(tmp_path / "new"), "--json").json["details"]
    assert (new["languages"], new["languages_from"]) == (["en"], "default")
    assert "languages of the last publish" in tourney("publish", "--help").stdout


def test_a_workbook_is_not_written_to_a_terminal(tourney, db_url):
    import os
    import pty
    import subprocess
    import sys

    tourney("player", "add", *NAMES)
    tourney("event", "create", "maja-1", "--variant", "spardame", "--rounds", "2")
    command = [sys.executable, "-m", "tourney.cli.main", "result", "export", "maja-1",
               "--format", "xlsx", "--out", "-", "--db", db_url]
    primary, secondary = pty.openpty()
    try:
        run = subprocess.run(command, stdout=secondary, stderr=subprocess.PIPE, text=True,
                             timeout=120)
    finally:
        os.close(secondary)
        os.close(primary)
    assert run.returncode == 2
    assert "an XLSX workbook is binary" in run.stderr and "redirect" in run.stderr
    piped = subprocess.run(command, capture_output=True, timeout=120)
    assert piped.returncode == 0 and piped.stdout.startswith(b"PK")


def test_seating_before_the_results_names_each_way_by_its_words(tourney):
    tourney("player", "add", *NAMES)
    tourney("event", "create", "four-1", "--variant", "spardame", "--rounds", "2",
            "--table-sizes", "4")
    tourney("event", "enter", "four-1", "--all")
    tourney("round", "seat", "four-1")
    refused = tourney("round", "seat", "four-1", exit_code=1).stderr
    assert refused.endswith("import them first (`tourney result import`), or seat round 2 "
                            "anyway (--force)\n")


def test_round_json_gives_numbers_and_codes_as_shown(tourney):
    tourney("player", "add", *NAMES)
    tourney("event", "create", "maja-1", "--variant", "spardame", "--rounds", "2",
            "--table-sizes", "4", "--rule", "deals=2")
    tourney("event", "enter", "maja-1", "--all")
    tourney("round", "seat", "maja-1")
    rows = [json.loads(line) for line in
            tourney("round", "sheet", "maja-1", "1", "--json").stdout.splitlines()]
    assert {(row["round"], row["deal"]) for row in rows} == {(1, 1), (1, 2)}
    assert tourney("round", "show", "maja-1", "1", "--json").json["round"] == 1
    links = tourney("round", "links", "maja-1", "1", "--base-url", "http://x",
                    "--json").json["tables"]
    plain = tourney("round", "links", "maja-1", "1", "--base-url", "http://x").stdout
    for link in links:
        assert len(link["code"]) == 9 and link["code"][4] == "-"
        assert f"table {link['table']}  {link['code']}  {link['url']}" in plain
