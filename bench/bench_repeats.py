"""Repeated pairs of balanced seating: 12-64 players at tables of 4, every event length.

Run: ``python bench/bench_repeats.py`` (``--seeds N``, default 3; ``--quick``: 1 seed,
12-48 players).

For each field of n players (n = 12, 16, ..., 64, everyone present every round, tables
of exactly 4) it seats events with ``balanced`` and counts the repeated pairs: pairs
sharing a table who had met before, summed over the rounds (a pair meeting three
times counts twice). Rounds go from 2 up to ``(n - 1) // 3``, the most an event can
have without a forced repeat (each round a player meets 3 new people).

Two ways of running an event are measured:

- open-ended: no ``total_rounds`` (an event without ``--rounds``), seated round by
  round; the repeats after r rounds are read off one event per seed.
- with ``--rounds r``: ``total_rounds=r`` passed, one event per (n, r, seed).

Each cell is the worst over the seeds. The targets are those of issue 19: 0 wherever a
zero-repeat schedule is known (designs built or stored in ``tourney.pairing.schedules``),
elsewhere at most what a 150-second tabu search found. The random method is the
baseline, measured in the same run (mean over the seeds).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from figures import write_figures

from tourney.pairing.schedules import round_bound
from tourney.pairing.seating import Entrant, PastRound, seat_round

SIZE = 4
# Issue 19: fields with a known zero-repeat schedule, and the best a 150-second
# tabu search found elsewhere ((players, rounds) -> repeats).
TABU_150S = {(20, 6): 6, (24, 7): 4, (36, 10): 8, (36, 11): 20, (48, 13): 7, (48, 14): 20,
             (48, 15): 42}
ZERO_KNOWN = {(20, 5), (28, 7), (32, 8), (36, 9), (44, 11), (52, 13), (64, 16),
              (24, 6), (48, 11), (48, 12)}


def event(n: int, rounds: int, seed: int, total: int | None, method: str = "balanced"):
    """Cumulative repeated pairs after each round, and the slowest round's seconds."""
    entrants = [Entrant(key) for key in range(n)]
    history: list[PastRound] = []
    cumulative, repeats, slowest = [], 0, 0.0
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        seating = seat_round(entrants, history, min_size=SIZE, max_size=SIZE, preferred=SIZE,
                             method=method, seed=seed, round_number=number, total_rounds=total)
        slowest = max(slowest, time.perf_counter() - start)
        repeats += seating.repeated_pairs
        cumulative.append(repeats)
        history.append(PastRound(seating.tables, seating.byes))
    return cumulative, slowest


def target(n: int, r: int) -> int | None:
    if (n, r) in TABU_150S:
        return TABU_150S[n, r]
    if any(n == zn and r <= zr for zn, zr in ZERO_KNOWN):
        return 0
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="1 seed, 12-48 players")
    args = parser.parse_args(argv)
    seeds = range(1, (1 if args.quick else args.seeds) + 1)
    fields = range(12, (48 if args.quick else 64) + 1, SIZE)
    started = time.perf_counter()
    open_ended: dict[tuple[int, int], int] = {}
    with_rounds: dict[tuple[int, int], int] = {}
    baseline: dict[tuple[int, int], float] = {}
    slowest = {"open-ended": 0.0, "--rounds": 0.0}
    for n in fields:
        bound = round_bound(n, SIZE)
        runs = [event(n, bound, seed, None) for seed in seeds]
        randoms = [event(n, bound, seed, None, "random")[0] for seed in seeds]
        slowest["open-ended"] = max([slowest["open-ended"]] + [s for _, s in runs])
        for r in range(2, bound + 1):
            open_ended[n, r] = max(c[r - 1] for c, _ in runs)
            baseline[n, r] = statistics.mean(c[r - 1] for c in randoms)
            planned = [event(n, r, seed, r) for seed in seeds]
            with_rounds[n, r] = max(c[-1] for c, _ in planned)
            slowest["--rounds"] = max([slowest["--rounds"]] + [s for _, s in planned])
    width = max(round_bound(n, SIZE) for n in fields)
    columns = range(2, width + 1)

    def table(title: str, values, targets: bool = True) -> None:
        print(f"### {title}\n")
        print("| players | " + " | ".join(str(r) for r in columns) + " |")
        print("|---:|" + "---:|" * len(columns))
        for n in fields:
            cells = []
            for r in columns:
                if (n, r) not in values:
                    cells.append("")
                    continue
                value = values[n, r]
                text = f"{value:.0f}" if isinstance(value, float) else str(value)
                goal = target(n, r)
                if targets and goal is not None and value > goal:
                    text += f" (> {goal})"
                cells.append(text)
            print(f"| {n} | " + " | ".join(cells) + " |")
        print()

    print("## Repeated pairs at tables of 4 (balanced seating)\n")
    print(f"Columns: rounds played. Worst of {len(seeds)} seed(s). A cell above its target "
          "shows the target in brackets.\n")
    table("Open-ended events (no --rounds), after r rounds", open_ended)
    table("Events of r rounds (--rounds r)", with_rounds)
    table("Baseline: random seating, after r rounds (mean)", baseline, targets=False)
    print("### Issue 19 targets\n")
    print("| players x rounds | target | open-ended | --rounds | met |")
    print("|---|---:|---:|---:|---|")
    for n, r in sorted(set(TABU_150S) | ZERO_KNOWN):
        if (n, r) not in open_ended:
            continue
        goal = target(n, r)
        kind = "tabu 150 s" if (n, r) in TABU_150S else "zero known"
        ok = open_ended[n, r] <= goal and with_rounds[n, r] <= goal
        print(f"| {n} x {r} | {goal} ({kind}) | {open_ended[n, r]} | {with_rounds[n, r]} | "
              f"{'yes' if ok else 'NO'} |")
    print()
    worse = [(n, r) for (n, r) in open_ended if open_ended[n, r] > with_rounds[n, r]]
    print("- open-ended events worse than --rounds: "
          + (", ".join(f"{n} x {r} ({open_ended[n, r]} vs {with_rounds[n, r]})" for n, r in worse)
             or "none"))
    print(f"- slowest round seated (wall clock): open-ended {slowest['open-ended']:.3f} s, "
          f"with --rounds {slowest['--rounds']:.3f} s (the joint plan of the rest of the "
          "event, fields without a perfect schedule).")
    _, big = event(200, 12, 1, None)
    _, big_planned = event(200, 12, 1, 12)
    print(f"- 200 players at 4, 12 rounds: slowest round {big:.3f} s open-ended, "
          f"{big_planned:.3f} s with --rounds 12.")
    print(f"- total run time {time.perf_counter() - started:.0f} s.")
    write_figures("bench_repeats", {
        "seeds": len(seeds), "slowest_round_s": slowest,
        "targets": [{"players": n, "rounds": r, "target": target(n, r),
                     "kind": "tabu 150 s" if (n, r) in TABU_150S else "zero known",
                     "open_ended": open_ended.get((n, r)), "with_rounds": with_rounds.get((n, r))}
                    for n, r in sorted(set(TABU_150S) | ZERO_KNOWN)],
        "open_ended": [[n, r, v] for (n, r), v in sorted(open_ended.items())],
        "with_rounds": [[n, r, v] for (n, r), v in sorted(with_rounds.items())]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
