"""--db and --json before the command as well as after it (issue: global options)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from tourney.cli.main import cli


def run(*args, env=None):
    return CliRunner().invoke(cli, list(args), env=env or {"TOURNEY_DB": None})


def test_db_and_json_before_the_command(tmp_path):
    db = str(tmp_path / "league.db")
    assert run("--db", db, "player", "add", "Anna", "Bertil").exit_code == 0
    listed = run("--db", db, "--json", "player", "list")
    assert listed.exit_code == 0
    assert [p["name"] for p in json.loads(listed.stdout)] == ["Anna", "Bertil"]
    assert not (tmp_path / "tourney.db").exists()


def test_the_commands_own_db_wins_and_the_global_one_beats_the_environment(tmp_path):
    league, other = str(tmp_path / "league.db"), str(tmp_path / "other.db")
    run("--db", league, "player", "add", "Anna")
    mine = run("--db", str(tmp_path / "missing.db"), "--json", "player", "list", "--db", league)
    assert [p["name"] for p in json.loads(mine.stdout)] == ["Anna"]
    from_env = run("--db", league, "--json", "player", "list", env={"TOURNEY_DB": other})
    assert from_env.exit_code == 0 and json.loads(from_env.stdout)[0]["name"] == "Anna"
    assert not (tmp_path / "other.db").exists()
