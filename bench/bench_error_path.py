"""What naming seats and players in errors costs: the record checker's throughput
on a valid file and on the same file with a broken move in every 5th deal.

The seat (from 1) and the player's name are looked up only once an error is
raised (tourney.records.validation.name_player, RecordError.where), never per
move; this measures that the valid path did not slow down and what an error
costs. Both files are 1,000 bot-played spardame deals (seed 7), made in memory;
``RecordReader`` + ``RecordChecker.check_stream``, every error's text rendered,
as ``tourney validate`` does; best of ``--repeats`` runs.

To compare two trees (e.g. before and after a change), run it with each on the
path: ``PYTHONPATH=<tree> .venv/bin/python bench/bench_error_path.py``.
"""
from __future__ import annotations

import argparse
import io
import random
import time

from tourney.engines import get_game
from tourney.records.csv_format import RecordReader, write_records
from tourney.records.validation import MatchCheck, RecordChecker
from tourney.simulation import simulate_match


def files() -> dict[str, bytes]:
    game = get_game("spardame")
    options = game.resolve_options({"deals": "4"})
    rng = random.Random(7)
    records = []
    for match in range(250):
        records += simulate_match(game, options, ["Anna", "Bertil", "Cecilia", "David"], rng,
                                  round_number=match + 1)
    valid = io.StringIO()
    write_records(valid, records, game_for=lambda record: game)
    for index, record in enumerate(records):
        if index % 5 == 0:
            play = list(record.play)
            play[5], play[9] = play[9], play[5]
            record.play = play
    broken = io.StringIO()
    write_records(broken, records, game_for=lambda record: game)
    return {"valid": valid.getvalue().encode(), "broken": broken.getvalue().encode()}


def check(data: bytes) -> tuple[float, int, int]:
    checker = RecordChecker(variant="spardame", rules={"deals": "4"})
    reader = RecordReader(io.BytesIO(data), "bench.csv", errors="yield")
    start = time.perf_counter()
    deals = bad = 0
    for item in checker.check_stream(reader):
        if isinstance(item, MatchCheck):
            continue
        deals += 1
        if item.error is not None:
            bad += 1
            str(item.error)
    return time.perf_counter() - start, deals, bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    for name, data in files().items():
        runs = [check(data) for _ in range(args.repeats)]
        best, deals, bad = min(runs)
        print(f"{name}: {deals} deals, {bad} invalid: best {best * 1000:.1f} ms, "
              f"{deals / best:.0f} deals/s")


if __name__ == "__main__":
    main()
