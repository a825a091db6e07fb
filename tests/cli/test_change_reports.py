"""Commands that change data answer --json in one shape: action, changed, summary."""
from __future__ import annotations


def test_rename_withdraw_and_db_commands_answer_json_in_one_shape(tourney, tmp_path):
    tourney("player", "add", "Ana Berg", "Bo Ek")
    renamed = tourney("player", "rename", "Ana Berg", "Anna Berg", "--json").json
    assert renamed["action"] == "player.rename" and renamed["changed"] is True
    assert renamed["new"] == "Anna Berg" and renamed["summary"].startswith("renamed")
    tourney("event", "create", "cup", "--variant", "dam-brade")
    tourney("event", "enter", "cup", "--all")
    withdrawn = tourney("event", "withdraw", "cup", "Bo Ek", "--json").json
    assert (withdrawn["action"], withdrawn["changed"], withdrawn["player"]) == (
        "event.withdraw", True, "Bo Ek")
    upgraded = tourney("db", "upgrade", "--json").json
    assert (upgraded["action"], upgraded["changed"]) == ("db.upgrade", False)
    assert upgraded["before"] == upgraded["after"]
    shapes = {frozenset(("action", "changed", "summary")) <= set(answer)
              for answer in (renamed, withdrawn, upgraded)}
    assert shapes == {True}


def test_db_init_json(run_cli, tmp_path):
    db = str(tmp_path / "new.db")
    created = run_cli(db, "db", "init", "--json").json
    assert (created["action"], created["changed"]) == ("db.init", True)
    again = run_cli(db, "db", "init", "--json").json
    assert again["changed"] is False
