"""Benchmark of the seating methods: time and repeated pairs, against a baseline.

Run: ``python bench/bench_seating.py`` (add ``--quick`` for a shorter Swiss run).

For each field it seats a whole event round by round with ``balanced`` and with the
``random`` method (the baseline, measured in the same run) and prints the total
repeated pairs (pairs sharing a table who had met before, summed over the rounds),
the total time and the slowest round. The Swiss part plays 1,000 players with
seeded random results and prints the time per round, rematches and the mean squared
score difference at the boards, for ``swiss`` and for the ``random`` baseline.
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from tourney.pairing.seating import Entrant, PastRound, seat_round
from tourney.simulation import random_pair_results

FIELDS = [  # (players, rounds, table size, total_rounds passed or None)
    (16, 5, 4, None),
    (32, 10, 4, None),
    (64, 21, 4, None),
    (200, 12, 4, None),
    (20, 5, 4, None),
    (20, 5, 4, 5),
    (22, 6, (3, 5, 4), 6),
]


def run_event(n: int, rounds: int, size, method: str, seed: int, total_rounds):
    low, high, preferred = size if isinstance(size, tuple) else (size, size, size)
    entrants = [Entrant(key) for key in range(n)]
    history: list[PastRound] = []
    repeats, times, used = 0, [], set()
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        seating = seat_round(entrants, history, min_size=low, max_size=high,
                             preferred=preferred, method=method, seed=seed,
                             round_number=number, total_rounds=total_rounds)
        times.append(time.perf_counter() - start)
        repeats += seating.repeated_pairs
        used.add(seating.method)
        history.append(PastRound(seating.tables, seating.byes))
    return repeats, sum(times), max(times), "+".join(sorted(used))


def bench_fields(seed: int) -> None:
    print("balanced vs random baseline (repeated pairs over the event; seconds)")
    print(f"{'field':>50} | {'balanced':>8} {'total s':>8} {'max s':>7} {'how':>16}"
          f" | {'random':>6} {'total s':>8}")
    for n, rounds, size, total in FIELDS:
        if isinstance(size, tuple):
            sizes = "-".join(map(str, size[:2])) + f" pref {size[2]}"
        else:
            sizes = str(size)
        label = f"{n} x {rounds} rounds at {sizes}" + (" (total_rounds given)" if total else "")
        rep, tot, worst, how = run_event(n, rounds, size, "balanced", seed, total)
        rrep, rtot, _, _ = run_event(n, rounds, size, "random", seed, total)
        print(f"{label:>50} | {rep:8d} {tot:8.3f} {worst:7.3f} {how:>16} | {rrep:6d} {rtot:8.3f}")


def swiss_event(n: int, rounds: int, method: str, seed: int):
    results = random.Random(seed)
    points = {key: 0.0 for key in range(n)}
    byes = {key: 0 for key in range(n)}
    history: list[PastRound] = []
    rows = []
    for number in range(1, rounds + 1):
        order = sorted(points, key=lambda k: (-points[k], k))
        rank = {k: i + 1 for i, k in enumerate(order)}
        entrants = [Entrant(k, points[k], rank[k], byes[k]) for k in points]
        start, cpu = time.perf_counter(), time.process_time()
        seating = seat_round(entrants, history, min_size=2, max_size=2, preferred=2,
                             method=method, seed=seed, round_number=number)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu
        boards = max(1, len(seating.tables))
        spread = sum((points[a] - points[b]) ** 2 for a, b in seating.tables) / boards
        rows.append((elapsed, seating.repeated_pairs, spread, cpu))
        random_pair_results(seating, points, byes, results)
        history.append(PastRound(seating.tables, seating.byes))
    return rows


def bench_swiss(n: int, rounds: int, seed: int) -> None:
    print(f"\nSwiss pairing, {n} players, {rounds} rounds (random results)")
    print(f"{'round':>5} | {'swiss s':>8} {'cpu s':>6} {'rematches':>9} {'mean sq diff':>12}"
          f" | {'random s':>8} {'rematches':>9} {'mean sq diff':>12}")
    swiss_rows = swiss_event(n, rounds, "swiss", seed)
    random_rows = swiss_event(n, rounds, "random", seed)
    for number, (s, r) in enumerate(zip(swiss_rows, random_rows), 1):
        print(f"{number:5d} | {s[0]:8.3f} {s[3]:6.3f} {s[1]:9d} {s[2]:12.3f}"
              f" | {r[0]:8.3f} {r[1]:9d} {r[2]:12.3f}")
    mean = sum(s[0] for s in swiss_rows) / len(swiss_rows)
    cpu = sum(s[3] for s in swiss_rows) / len(swiss_rows)
    print(f"swiss: {mean:.3f} s per round on average ({cpu:.3f} s CPU),"
          f" {max(s[0] for s in swiss_rows):.3f} s at most")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="4 Swiss rounds instead of 9")
    args = parser.parse_args(argv)
    bench_fields(args.seed)
    bench_swiss(1000, 4 if args.quick else 9, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
