"""One prefix form for a problem in a file: FILE, line N, column: ... (validate's
match errors too, which said "FILE: match round 1, table 1: line 4, deal: ...", and
then "FILE, line 4, deal: match round 1, table 1: ...", where the import said the
error alone: one wording now, the error's own)."""
from __future__ import annotations

import random

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.simulation import simulate_match


def test_validate_prints_a_match_error_in_the_one_prefix_form(run_cli, tmp_path):
    game = get_game("spardame")
    records = simulate_match(game, game.resolve_options({"deals": "3"}),
                             ["Anna", "Bo", "Cai", "Dag"], random.Random(1), deals=3)
    path = tmp_path / "m.csv"
    with open(path, "w", newline="", encoding="utf-8") as stream:
        write_records(stream, records, game_for=lambda record: game)
    run = run_cli(None, "validate", str(path), "--rule", "deals=2", exit_code=1)
    assert (f"{path}, line 4, deal: the match is 2 deals; "
            "this deal is one too many\n") in run.stdout, run.stdout
    assert "match round" not in run.stdout
