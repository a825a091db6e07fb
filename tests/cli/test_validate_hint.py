"""`tourney validate` without --event or --rule: when the default rules refused
something house rules decide, the last line says how to give them."""
from __future__ import annotations

import random

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.simulation import simulate_match

PLAYERS = ["Anna Berg", "Ingrid Falk", "Cecilia Dahl", "David Ek"]
HINT = ("checked with spardame's default rules; if the file was played with house rules, "
        "give them (--rule NAME=VALUE) or --event SLUG")
CYCLE = {"pass": "cycle", "deals": "4"}


def _cycle_file(path):
    game = get_game("spardame")
    records = simulate_match(game, game.resolve_options(CYCLE), PLAYERS, random.Random(3), deals=4)
    with open(path, "w", newline="", encoding="utf-8") as stream:
        write_records(stream, records, game_for=lambda record: game)
    return path


def test_a_file_played_with_house_rules_gets_the_hint(run_cli, tmp_path):
    path = _cycle_file(tmp_path / "cycle.csv")
    run = run_cli(None, "validate", str(path), exit_code=1)
    assert run.stderr.rstrip("\n").splitlines()[-1] == f"{path}: {HINT}", run.stderr
    assert run.stderr.count("if the file was played with house rules") == 1
    given = ["--rule", "pass=cycle", "--rule", "deals=4"]
    ok = run_cli(None, "validate", str(path), *given, exit_code=0)
    assert "house rules" not in ok.stderr
    wrong = run_cli(None, "validate", str(path), "--rule", "deals=4", exit_code=1)
    assert "if the file was played with house rules" not in wrong.stderr  # rules were given


def test_errors_no_house_rule_explains_get_no_hint(run_cli, tmp_path):
    unreadable = tmp_path / "unreadable.csv"
    unreadable.write_text("round,table,deal,players,dealer,scores\n"
                          f"1,A,1,{';'.join(PLAYERS)},Anna Berg,x;0;0;0\n", encoding="utf-8")
    run = run_cli(None, "validate", str(unreadable), "--variant", "spardame", exit_code=1)
    assert "is not a score" in run.stdout and "house rules" not in run.stderr
