"""Under --json a failing command prints one JSON error object on stdout, in one
shape (tourney.cli.errors.error_json), its message staying on stderr; a command
with a failure report of its own (result import) prints that instead."""
from __future__ import annotations

import json
import sqlite3

import pytest


def one_object(run) -> dict:
    """The only line of stdout, as JSON."""
    [line] = run.stdout.splitlines()
    return json.loads(line)


def test_a_refusal_prints_its_error_object(tourney):
    tourney("player", "add", "Anna")
    run = tourney("player", "add", "Anna", "--json", exit_code=1)
    assert one_object(run) == {"error": "'Anna' is already registered", "exit_code": 1}
    assert run.stderr == "Error: 'Anna' is already registered\n"
    # the global --json, before the command, alike
    assert one_object(tourney("--json", "player", "add", "Anna", exit_code=1))["exit_code"] == 1


def test_a_missing_file_and_an_unknown_event_in_a_file(tourney, tmp_path):
    missing = tourney("result", "import", str(tmp_path / "nofile.csv"), "--json", exit_code=2)
    assert one_object(missing) == {
        "error": f"{tmp_path / 'nofile.csv'}: cannot read the file: No such file or directory",
        "exit_code": 2}
    tourney("event", "create", "cup", "--variant", "kortrad")
    records = tmp_path / "other.csv"
    records.write_text("event,round,table,deal,players,play\nnope,1,1,1,A;B,S0\n")
    unknown = one_object(tourney("result", "import", str(records), "--json", exit_code=2))
    assert unknown["exit_code"] == 2 and "unknown event 'nope'" in unknown["error"]
    # where it is, under the keys every import error gives it (a record error's)
    assert (unknown["file"], unknown["line"], unknown["column"]) == (str(records), 2, "event")
    assert unknown["unknown"] == {"kind": "event", "names": ["nope"], "suggestions": []}


def test_a_player_file_refused_whole_names_its_place_as_data(tourney, tmp_path):
    """A problem of a player file as a whole (its header) is located under the same
    keys as a row's: a script reads the line without parsing the message."""
    players = tmp_path / "players.csv"
    players.write_text("name,name\nAnna,Anna\n", encoding="utf-8")
    refused = one_object(tourney("player", "import", str(players), "--json", exit_code=2))
    assert (refused["file"], refused["line"]) == (str(players), 1)
    assert "column 'name' appears twice" in refused["error"]


def test_the_error_says_where_and_what_would_help(tourney, tmp_path):
    database = tmp_path / "league.db"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE t (x)")
    error = one_object(tourney("validate", str(database), "--json", exit_code=2))
    assert error["error"].startswith(f"{database}, line 1: a NUL byte")
    assert error["error"].endswith("(--encoding)")  # as stderr words it
    assert {k: error[k] for k in ("exit_code", "file", "line", "rule", "setting")} == {
        "exit_code": 2, "file": str(database), "line": 1, "rule": "encoding",
        "setting": "--encoding"}
    tourney("player", "add", "A", "B", "C", "D")
    tourney("event", "create", "cup", "--variant", "kortrad", "--table-sizes", "2")
    tourney("event", "enter", "cup", "--all")
    tourney("round", "seat", "cup")
    refused = one_object(tourney("round", "seat", "cup", "--json", exit_code=1))
    assert (refused["setting"], refused["operation"]) == ("--force", "tourney result import")
    assert refused["remedy"] == {"kind": "import-results"}  # the operation as data
    # what --force would do, as data, in the shape the server's JSON refusals give it
    assert refused["setting_way"] == {"kind": "seat-anyway", "round": 2}
    assert set(refused) == {"error", "exit_code", "setting", "remedy", "operation",
                            "setting_way"}  # only what is known


@pytest.mark.parametrize("args, setting", [
    (["event", "show", "cup", "--bogus", "--json"], "--bogus"),
    (["--json", "standings", "cup", "--round", "0"], "--round"),
    (["--json", "round", "show", "cup"], None),  # a missing argument
])
def test_click_usage_errors_print_the_error_object_too(tourney, args, setting):
    run = tourney(*args, exit_code=2)
    error = one_object(run)
    assert error["exit_code"] == 2 and error.get("setting") == setting
    assert error["error"] in run.stderr  # the same words as click's own message


def test_an_invalid_import_prints_its_own_report_only(tourney, tmp_path):
    tourney("event", "create", "cup", "--variant", "kortrad")
    records = tmp_path / "bad.csv"
    records.write_text("event,round,table,deal,players,play\ncup,1,1,1,A;B,S0\n")
    run = tourney("result", "import", str(records), "--json", exit_code=1)
    report = json.loads(run.stdout)  # one document: the report, no error object after it
    assert report["action"] == "result.import" and report["details"]["committed"] is False


def test_without_json_stdout_stays_empty(tourney):
    tourney("player", "add", "Anna")
    assert tourney("player", "add", "Anna", exit_code=1).stdout == ""


def test_the_shape_of_every_kind_of_error():
    from tourney.cli.errors import error_json
    from tourney.errors import (
        IllegalMove,
        InvalidValue,
        RecordError,
        Remedy,
        SettingWay,
        TourneyError,
    )

    located = RecordError("must follow suit", rule="follow-suit", file="r.csv", line=7,
                          column="play", move=12, seat=1, token="KH", player="Bo")
    assert error_json("text", 1, located) == {
        "error": "text", "exit_code": 1, "file": "r.csv", "line": 7, "column": "play",
        "move": 12, "seat": 2, "player": "Bo", "rule": "follow-suit"}
    assert error_json("text", 1, IllegalMove("follow-suit", "must follow suit", seat=0)) == {
        "error": "text", "exit_code": 1, "seat": 1, "rule": "follow-suit"}
    assert error_json("text", 2, InvalidValue("table_sizes", "'5-3'", "a range"))["setting"] \
        == "--table-sizes"
    assert error_json("text", 1, TourneyError("x", remedy=Remedy("upgrade-database"))) == {
        "error": "text", "exit_code": 1, "remedy": {"kind": "upgrade-database"},
        "operation": "tourney db upgrade"}
    forfeit = Remedy("forfeit-absent", event="cup", round=2, table="3", player="Bo Ek")
    assert error_json("text", 1, TourneyError("x", remedy=forfeit)) == {
        "error": "text", "exit_code": 1, "remedy": {"kind": "forfeit-absent", "event": "cup",
                                                    "round": 2, "table": "3", "player": "Bo Ek"},
        "operation": "tourney result forfeit cup 2 3 --absent 'Bo Ek'"}
    moved = TourneyError("x", setting="force", setting_way=SettingWay("move-anyway"))
    assert error_json("text", 1, moved) == {
        "error": "text", "exit_code": 1, "setting": "--force",
        "setting_way": {"kind": "move-anyway"}}
    assert error_json("text", 1, OSError(28, "No space left on device", "out.csv")) == {
        "error": "text", "exit_code": 1, "file": "out.csv"}


def test_an_unknown_name_is_data_a_script_can_act_on(tourney, tmp_path):
    """What the name was taken for, the names given and the close ones, beside the
    words: a script tells an unknown event from an unknown round without reading
    English."""
    tourney("player", "add", "Anna", "Bertil", "Cecilia")
    tourney("event", "create", "club-1", "--variant", "kortrad")
    event = one_object(tourney("event", "show", "club-2", "--json", exit_code=2))
    assert event["unknown"] == {"kind": "event", "names": ["club-2"], "suggestions": ["club-1"]}
    variant = one_object(tourney("event", "create", "x", "--variant", "spardam", "--json",
                                 exit_code=2))
    assert variant["unknown"] == {"kind": "variant", "names": ["spardam"],
                                  "suggestions": ["spardame"]}
    players = one_object(tourney("event", "enter", "club-1", "Zed", "anna", "--json",
                                 exit_code=2))
    assert players["unknown"] == {"kind": "player", "names": ["Zed", "anna"], "suggestions": []}
    player = one_object(tourney("event", "enter", "club-1", "Berti", "--json", exit_code=2))
    assert player["unknown"] == {"kind": "player", "names": ["Berti"],
                                 "suggestions": ["Bertil"]}
    tourney("event", "enter", "club-1", "--all")
    tourney("round", "seat", "club-1")
    round_ = one_object(tourney("round", "show", "club-1", "9", "--json", exit_code=2))
    assert round_["unknown"] == {"kind": "round", "names": [9], "suggestions": []}
    records = tmp_path / "other.csv"
    records.write_text("event,round,table,deal,players,play\nclub-2,1,1,1,A;B,S0\n")
    in_file = one_object(tourney("result", "import", str(records), "--json", exit_code=2))
    assert in_file["unknown"] == {"kind": "event", "names": ["club-2"],
                                  "suggestions": ["club-1"]}


def test_the_library_hands_the_unknown_name_over_as_data():
    from tourney.engines import get_game
    from tourney.errors import UnknownName

    with pytest.raises(UnknownName) as raised:
        get_game("sparddame")
    assert (raised.value.kind, raised.value.names, raised.value.suggestions) == (
        "variant", ("sparddame",), ("spardame",))


def test_a_house_rule_refused_names_its_option_as_data(tourney):
    """Which --rule was refused, without reading the words: the game's option key."""
    unknown = one_object(tourney("event", "create", "x", "--variant", "spardame", "--rule",
                                 "pas=cycle", "--json", exit_code=2))
    assert unknown["option"] == "pas" and unknown["error"].startswith("spardame has no option")
    value = one_object(tourney("event", "create", "x", "--variant", "spardame", "--rule",
                               "jd_bonus=-5", "--json", exit_code=2))
    assert value["option"] == "jd_bonus"
    both = one_object(tourney("event", "create", "x", "--variant", "spardame", "--rule",
                              "deals=2", "--rule", "target=100", "--json", exit_code=2))
    assert "option" not in both  # about two options at once: neither alone


def test_the_library_names_the_option_of_a_refused_house_rule():
    from tourney.engines import OptionError, get_game

    for rules, key in (({"deals": "zero"}, "deals"), ({"huff": "yes"}, "huff"),
                       ({"colour": "red"}, "colour")):
        with pytest.raises(OptionError) as raised:
            get_game("dam-brade" if key != "deals" else "kortrad").resolve_options(rules)
        assert raised.value.key == key
