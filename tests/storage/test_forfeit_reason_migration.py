"""Migration 0012_forfeit_reason: a forfeit's reason, once kept only in its audit
row, is stored with the forfeit; an older database's forfeits get theirs from the
log (the table's last forfeit row, the forfeit still standing), on SQLite and
PostgreSQL."""
from alembic import command
from sqlalchemy import inspect, text

from tourney.storage import schema
from tourney.storage.db import open_engine

BEFORE = "0011_serve_limits"


def _forfeit_columns(url: str) -> set[str]:
    with open_engine(url).connect() as connection:
        return {c["name"] for c in inspect(connection).get_columns("forfeit")}


def test_an_older_databases_forfeits_get_their_reason_from_the_log(db_url, run_cli):
    for name in ["Ann", "Bo", "Cy", "Di", "Ed", "Fi", "Gu", "Hj", "Ib", "Jo", "Ka", "Li"]:
        run_cli(db_url, "player", "add", name)
    run_cli(db_url, "event", "create", "ev", "--variant", "svarta-maja", "--table-sizes", "4",
            "--rounds", "2")
    run_cli(db_url, "event", "enter", "ev", "--all")
    run_cli(db_url, "round", "seat", "ev")
    seats = {t["table"]: t["seats"] for t in run_cli(
        db_url, "round", "show", "ev", "1", "--json").json["tables"]}
    forfeit = ["result", "forfeit", "ev", "1"]
    run_cli(db_url, *forfeit, "1", "--absent", seats["1"][0], "--absent", seats["1"][1],
            "--reason", "went <home>")
    # forfeited with a reason, taken back, forfeited again without: none stands
    run_cli(db_url, *forfeit, "2", "--absent", seats["2"][0], "--reason", "late")
    run_cli(db_url, *forfeit, "2", "--undo")
    run_cli(db_url, *forfeit, "2", "--absent", seats["2"][1])
    run_cli(db_url, *forfeit, "3", "--absent", seats["3"][2], "--reason", "first")
    run_cli(db_url, *forfeit, "3", "--undo")
    run_cli(db_url, *forfeit, "3", "--absent", seats["3"][2], "--reason", "second")
    listed = run_cli(db_url, *forfeit, "--list", "--json").json
    assert [(f["table"], f["reason"]) for f in listed] == [
        ("1", "went <home>"), ("2", None), ("3", "second")]

    engine = open_engine(db_url)
    with engine.begin() as connection:  # back to the schema before: no reason column
        command.downgrade(schema.alembic_config(connection), BEFORE)
        # a row this revision never wrote is passed over
        connection.execute(text("INSERT INTO auditlog (at, action, event_id, after_json) "
                                "VALUES (CURRENT_TIMESTAMP, 'result.forfeit', 1, 'not json')"))
    assert "reason" not in _forfeit_columns(db_url)
    assert run_cli(db_url, "db", "status", "--json", exit_code=1).json["state"] == "outdated"

    upgraded = run_cli(db_url, "db", "upgrade")
    assert f"from schema {BEFORE} to {schema.head_revision()}" in upgraded.stderr
    assert run_cli(db_url, *forfeit, "--list", "--json").json == listed
