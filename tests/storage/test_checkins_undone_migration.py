"""Migration 0014_checkins_undone: an entry's check-ins taken back are kept beside
its latest check-in; an older database keeps its check-ins (none taken back known),
on SQLite and PostgreSQL."""
import datetime as dt
import json

from alembic import command
from sqlalchemy import inspect, text

from tourney.storage import schema
from tourney.storage.db import open_engine

BEFORE = "0013_round_stamp"


def _columns(url: str) -> set[str]:
    with open_engine(url).connect() as connection:
        return {c["name"] for c in inspect(connection).get_columns("entrystatus")}


def test_an_older_databases_check_ins_stay_and_undone_ones_are_kept_after(db_url, run_cli):
    run_cli(db_url, "player", "add", "Anna", "Bo", "Cai", "Dag")
    run_cli(db_url, "event", "create", "ev", "--variant", "svarta-maja", "--table-sizes", "4")
    run_cli(db_url, "event", "enter", "ev", "--all")
    run_cli(db_url, "event", "checkin", "ev", "Anna", "Bo", "Cai")
    engine = open_engine(db_url)
    with engine.begin() as connection:  # back to the schema before: no such column
        command.downgrade(schema.alembic_config(connection), BEFORE)
    assert "checkins_undone" not in _columns(db_url)
    assert run_cli(db_url, "db", "status", "--json", exit_code=1).json["state"] == "outdated"

    upgraded = run_cli(db_url, "db", "upgrade")
    assert f"from schema {BEFORE} to {schema.head_revision()}" in upgraded.stderr
    assert "checkins_undone" in _columns(db_url)
    shown = run_cli(db_url, "event", "show", "ev", "--json").json
    assert sorted(shown["evening"]["checked_in"]) == ["Anna", "Bo", "Cai"]
    # a check-in taken back now is kept: from when to when
    run_cli(db_url, "event", "checkin", "ev", "Cai", "--undo")
    shown = run_cli(db_url, "event", "show", "ev", "--json").json
    assert sorted(shown["evening"]["checked_in"]) == ["Anna", "Bo"]
    with open_engine(db_url).connect() as connection:
        kept = dict(connection.execute(text(
            "SELECT p.name, s.checkins_undone FROM entrystatus s "
            "JOIN player p ON p.id = s.player_id")).all())
    assert kept["Anna"] is None and kept["Bo"] is None
    [[start, end]] = json.loads(kept["Cai"])
    assert dt.datetime.fromisoformat(start) <= dt.datetime.fromisoformat(end)
