"""Regenerate the example event's records: examples/round-1.csv .. round-3.csv.

The records must match the seating `tourney` produces for the example event, so
this script seats the event through the CLI, exactly as run-example.sh does, in a
temporary database: for each round it seats (`tourney round seat --json`), lets
the simulation's bots play every table (players in seat order, seat 0 dealing
first), writes round-N.csv next to this script and imports it, so the next
round is seated from the same standings run-example.sh will have.

    python examples/make_records.py

The event's settings below must stay those of run-example.sh.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.simulation import simulate_match

HERE = Path(__file__).resolve().parent
SLUG = "example-cup"
VARIANT = "spardame"
RULES = {"deals": "3"}
ROUNDS = 3
EVENT_ARGS = ["--name", "Example Cup", "--variant", VARIANT, "--table-sizes", "3-5",
              "--rounds", str(ROUNDS), "--seed", "2026"] + [
    a for key, value in RULES.items() for a in ("--rule", f"{key}={value}")]
BOT_SEED = 2026  # the bots' dice; round N plays with BOT_SEED + N


def tourney(db: Path, *args: str) -> str:
    command = shutil.which("tourney")
    argv = [command] if command else [sys.executable, "-c",
                                      "from tourney.cli.main import main; main()"]
    env = {k: v for k, v in os.environ.items() if k != "TOURNEY_DB"}
    done = subprocess.run(argv + list(args) + ["--db", str(db)], capture_output=True,
                          text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"tourney {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def main() -> None:
    game = get_game(VARIANT)
    options = game.resolve_options(RULES)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "tourney.db"
        tourney(db, "player", "import", str(HERE / "players.csv"))
        tourney(db, "event", "create", SLUG, *EVENT_ARGS)
        tourney(db, "event", "enter", SLUG, "--all")
        for number in range(1, ROUNDS + 1):
            seating = json.loads(tourney(db, "round", "seat", SLUG, "--json"))
            rng = random.Random(BOT_SEED + number)
            records = []
            for table in seating["tables"]:
                records += simulate_match(game, options, table["seats"], rng, event=SLUG,
                                          round_number=number, table=table["table"],
                                          first_dealer=0)
            path = HERE / f"round-{number}.csv"
            with open(path, "w", encoding="utf-8", newline="") as stream:
                write_records(stream, records, game_for=lambda record: game)
            tourney(db, "result", "import", str(path))
            print(f"{path.name}: {len(seating['tables'])} tables, {len(records)} deals")
        print(tourney(db, "standings", SLUG))


if __name__ == "__main__":
    main()
