"""Seating at mixed table sizes against a search that takes all the time it wants
(issue 30): fields of 9 to 40 players at tables of 3-5 and 4-6, 4 to 6 rounds.

tourney seats each round (``balanced``, a seed per field); the reference then seats
the same round from the same earlier rounds, trying every split of the field into
allowed sizes closest to the preferred one (eight), each with four restarts of the
search and twenty times tourney's budget. The table gives tourney's repeated pairs over the first 4, 5 and 6 rounds
against the sum of the reference's per-round minima (what "the fewest possible for
that round given the earlier ones" can be shown to be, up to the reference's own
reach), and tourney's seconds for all six rounds.

Usage:  python bench/bench_mixed_sizes.py [--quick]
Prints a Markdown table (for bench/RESULTS.md) and writes bench/out/bench_mixed_sizes.md.
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from tourney.pairing.groups import meeting_weights, split_into_tables, table_size_costs
from tourney.pairing.history import EventHistory
from tourney.pairing.seating import Entrant, PastRound, seat_round, size_splits

OUT = Path(__file__).resolve().parent / "out" / "bench_mixed_sizes.md"
FIELDS = [9, 10, 11, 13, 14, 17, 19, 22, 23, 26, 29, 31, 34, 37, 40]
VARIANTS = [(3, 5, 4), (4, 6, 5)]
ROUNDS = 6


def reference(keys, history, low, high, preferred, restarts: int) -> int:
    """The fewest repeated pairs the reference finds for the next round."""
    past = EventHistory(history)
    weights = meeting_weights(keys, past)
    best = None
    splits = size_splits(len(keys), low, high, preferred, 8,
                         first=sorted(_any_split(len(keys), low, high), reverse=True))
    for split in splits:
        for restart in range(restarts):
            rng = random.Random(f"reference:{restart}")
            groups = split_into_tables(split, weights, rng, max_iterations=20 * (400 + 40 * len(split)),
                                       seat_costs=table_size_costs(keys, split, past))
            repeats = past.repeated_pairs([[keys[i] for i in g] for g in groups])
            if best is None or repeats < best:
                best = repeats
            if best == 0:
                return 0
    return best


def _any_split(n, low, high):
    from tourney.pairing.seating import plan_table_sizes
    return plan_table_sizes(n, low, high, low)[0]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Fewer fields and restarts.")
    args = parser.parse_args(argv)
    fields = FIELDS[::3] if args.quick else FIELDS
    restarts = 2 if args.quick else 4
    lines = ["| players | sizes | tourney 4 rounds | reference 4 | tourney 5 | reference 5 | "
             "tourney 6 | reference 6 | tourney seconds (6 rounds) |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for n in fields:
        for low, high, preferred in VARIANTS:
            entrants = [Entrant(k) for k in range(n)]
            keys = list(range(n))
            history: list[PastRound] = []
            ours, best, seconds = [], [], 0.0
            for number in range(1, ROUNDS + 1):
                floor = 0 if number == 1 else reference(keys, history, low, high, preferred,
                                                        restarts)
                started = time.perf_counter()
                seating = seat_round(entrants, history, min_size=low, max_size=high,
                                     preferred=preferred, method="balanced", seed=n,
                                     round_number=number)
                seconds += time.perf_counter() - started
                ours.append(seating.repeated_pairs)
                best.append(min(floor, seating.repeated_pairs))
                history.append(PastRound(seating.tables, seating.byes))
            row = [str(n), f"{low}-{high}"]
            for upto in (4, 5, 6):
                row += [str(sum(ours[:upto])), str(sum(best[:upto]))]
            row.append(f"{seconds:.2f}")
            lines.append("| " + " | ".join(row) + " |")
            print(lines[-1], flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
