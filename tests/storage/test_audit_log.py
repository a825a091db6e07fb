"""The audit log: a row for every change, `tourney log` to read it."""
import re

from sqlmodel import Session

from tourney.storage.audit import list_changes, record_change
from tourney.storage.db import open_engine, transaction
from tourney.storage.schema import ensure_schema


def test_every_change_is_logged(tourney, tmp_path):
    env = {"TOURNEY_ACTOR": "kansliet"}
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag", env=env)
    tourney("player", "rename", "Dag", "Dagny", env=env)
    path = tmp_path / "p.csv"
    path.write_text("name\nEva\nFinn\n", encoding="utf-8")
    tourney("player", "import", str(path), env=env)
    tourney("player", "add", "Eva B", env=env)
    tourney("player", "merge", "Eva", "Eva B", env=env)
    tourney("event", "create", "cup", "--variant", "kortrad", "--table-sizes", "2", env=env)
    tourney("event", "create", "other", "--variant", "kortrad", env=env)
    tourney("event", "enter", "cup", "--all", env=env)
    tourney("event", "withdraw", "cup", "Finn", env=env)
    tourney("round", "seat", "cup", env=env)
    tourney("round", "reseat", "cup", "1", "--seed", "5", env=env)

    log = tourney("log", "--json").json
    actions = [row["action"] for row in log]
    assert actions == ["player.add"] * 4 + ["player.rename", "player.import", "player.add",
                                            "player.merge", "event.create", "event.create",
                                            "event.enter", "event.withdraw", "round.seat",
                                            "round.reseat"]
    assert {row["actor"] for row in log} == {"kansliet"}
    assert [row["id"] for row in log] == sorted(row["id"] for row in log)
    rename = log[4]
    assert rename["before"]["name"] == "Dag" and rename["after"]["name"] == "Dagny"
    assert log[0]["event"] is None and log[-1]["event"] == "cup"

    cup = tourney("log", "--event", "cup", "--json").json
    assert [r["action"] for r in cup] == ["event.create", "event.enter", "event.withdraw",
                                          "round.seat", "round.reseat"]
    assert [r["action"] for r in tourney("log", "--action", "player", "--json").json] \
        == actions[:8]
    assert [r["action"] for r in tourney("log", "--action", "round.seat", "--json").json] \
        == ["round.seat"]
    assert [r["action"] for r in tourney("log", "--limit", "2", "--json").json] \
        == ["round.seat", "round.reseat"]
    plain = tourney("log", "--event", "cup").stdout.splitlines()
    assert plain[0].split() == ["id", "at", "actor", "action", "event", "subject", "reason"]
    assert "kansliet" in plain[1] and "event.create" in plain[1] and "cup" in plain[1]
    assert "unknown event" in tourney("log", "--event", "nope", exit_code=2).stderr


def test_failed_commands_log_nothing(tourney):
    tourney("player", "add", "Anna")
    tourney("player", "add", "Bo", "Anna", exit_code=1)
    tourney("event", "create", "cup", "--variant", "kortrad", "--rule", "x=1", exit_code=2)
    assert [r["subject"] for r in tourney("log", "--json").json] == ["Anna"]


def test_record_change_in_the_callers_transaction(db_url):
    engine = open_engine(db_url)
    ensure_schema(engine)
    try:
        with transaction(engine) as session:
            record_change(session, "result.import", "r1.csv", None, {"matches": 2})
            raise RuntimeError("the import failed after logging")
    except RuntimeError:
        pass
    with Session(engine) as session:
        assert list_changes(session) == []
    with transaction(engine) as session:
        record_change(session, "result.import", "r1.csv", {"å": 1}, [1, 2], actor="me")
    with Session(engine) as session:
        [row] = list_changes(session)
        assert (row.actor, row.before_json, row.after_json) == ("me", '{"å": 1}', "[1, 2]")


def test_the_log_says_its_times_are_utc(tourney):
    """One form of a time in the terminal, as the guide shows it and `result history`
    prints it: ISO 8601 to the second, Z for UTC."""
    tourney("player", "add", "Anna")
    line = tourney("log").stdout.splitlines()[1]
    assert re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ", line), line
    # JSON: the one form of a time (tourney.times.utc_iso), as `result show` gives it
    at = tourney("log", "--json").json[0]["at"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", at), at
