"""Destructive commands ask on a terminal (--yes skips it; scripts are never asked)."""
from __future__ import annotations

import pytest

import tourney.cli.output as output


@pytest.fixture
def at_a_terminal(monkeypatch):
    monkeypatch.setattr(output, "interactive", lambda: True)


def two_players(tourney):
    tourney("player", "add", "Anna Berg", "Anna  Berg")
    return tourney("player", "list", "--json").json


def test_a_no_changes_nothing_and_exits_1(tourney, at_a_terminal):
    two_players(tourney)
    answered = tourney("player", "merge", "Anna Berg", "Anna  Berg", input="n\n", exit_code=1)
    assert "Merge 'Anna  Berg' into 'Anna Berg'?" in answered.stderr
    assert "nothing was changed" in answered.stderr
    assert len(tourney("player", "list", "--json").json) == 2


def test_yes_and_a_yes_go_ahead(tourney, at_a_terminal):
    tourney("player", "add", "Anna Berg", "Anna  Berg", "Bo Ek", "Bo  Ek")
    tourney("player", "merge", "Anna Berg", "Anna  Berg", input="y\n")
    tourney("player", "merge", "Bo Ek", "Bo  Ek", "--yes")
    assert len(tourney("player", "list", "--json").json) == 2


def test_nothing_asks_when_standard_input_is_not_a_terminal(tourney):
    two_players(tourney)
    merged = tourney("player", "merge", "Anna Berg", "Anna  Berg")  # no input at all
    assert "?" not in merged.stderr
    assert len(tourney("player", "list", "--json").json) == 1


def test_a_model_change_and_publish_force_ask_too(tourney, at_a_terminal, tmp_path):
    asked = tourney("rating", "pool", "spardame", "--model", "BradleyTerryFull",
                    input="n\n", exit_code=1)
    assert "Recompute every spardame rating" in asked.stderr
    assert tourney("rating", "pool", "spardame", "--json").json["model"] == "PlackettLuce"
    asked = tourney("publish", "--out", str(tmp_path / "site"), "--force", input="n\n",
                    exit_code=1)
    assert "--force drops" in asked.stderr and not (tmp_path / "site").exists()
