"""Offline search for perfect schedules that no formula gives (the stored ones in
``tourney.pairing.schedules.KNOWN_DESIGNS``).

Run: ``python bench/find_schedules.py 24 4 6 [--seconds 600] [--seed 1]``

A tabu search in the manner of Dotú and Van Hentenryck's social-golfer search: the state
is every round's split into tables; the cost is the number of repeated meetings; a move
swaps two players of different tables in one round, chosen among the players who are in
a repeated pair, with recently moved (round, player) pairs tabu for a few steps, and a
random restart of a round's tables after a long stall. On success it prints the schedule
as a Python literal to paste into KNOWN_DESIGNS; the tests check every stored design.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations


def search(n: int, k: int, rounds: int, seconds: float, seed: int):
    rng = random.Random(seed)
    tables_per_round = n // k
    # where[r][p] = table index of player p in round r; seats[r][t] = players at table t
    seats = []
    for _ in range(rounds):
        players = list(range(n))
        rng.shuffle(players)
        seats.append([players[t * k:(t + 1) * k] for t in range(tables_per_round)])
    where = [[0] * n for _ in range(rounds)]
    for r in range(rounds):
        for t, table in enumerate(seats[r]):
            for p in table:
                where[r][p] = t
    met = [[0] * n for _ in range(n)]
    for r in range(rounds):
        for table in seats[r]:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1

    def cost() -> int:
        return sum(max(0, met[a][b] - 1) for a in range(n) for b in range(a + 1, n))

    current = cost()
    best = current
    tabu: dict[tuple[int, int], int] = {}
    step = 0
    stall = 0
    deadline = time.monotonic() + seconds
    while current and time.monotonic() < deadline:
        step += 1
        best_delta, moves = None, []
        for r in range(rounds):
            for t, table in enumerate(seats[r]):
                for a in table:
                    if not any(met[a][x] > 1 for x in table if x != a):
                        continue  # only players in a repeated pair move
                    for u in range(tables_per_round):
                        if u == t:
                            continue
                        other = seats[r][u]
                        for b in other:
                            delta = 0
                            for x in table:
                                if x != a:
                                    delta -= met[a][x] > 1
                                    delta += met[b][x] > 0
                            for y in other:
                                if y != b:
                                    delta -= met[b][y] > 1
                                    delta += met[a][y] > 0
                            if (tabu.get((r, a), 0) > step or tabu.get((r, b), 0) > step) \
                                    and current + delta >= best:
                                continue
                            if best_delta is None or delta < best_delta:
                                best_delta, moves = delta, [(r, t, a, u, b)]
                            elif delta == best_delta:
                                moves.append((r, t, a, u, b))
        if not moves:
            tabu.clear()
            continue
        r, t, a, u, b = rng.choice(moves)
        table, other = seats[r][t], seats[r][u]
        for x in table:
            if x != a:
                met[a][x] -= 1; met[x][a] -= 1
                met[b][x] += 1; met[x][b] += 1
        for y in other:
            if y != b:
                met[b][y] -= 1; met[y][b] -= 1
                met[a][y] += 1; met[y][a] += 1
        table[table.index(a)] = b
        other[other.index(b)] = a
        where[r][a], where[r][b] = u, t
        current += best_delta
        tenure = rng.randint(4, 12)
        tabu[(r, a)] = tabu[(r, b)] = step + tenure
        if current < best:
            best, stall = current, 0
        else:
            stall += 1
        if stall > 2000:  # perturb: a few random swaps, then go on
            stall = 0
            for _ in range(3):
                r = rng.randrange(rounds)
                t, u = rng.sample(range(tables_per_round), 2)
                i, j = rng.randrange(k), rng.randrange(k)
                a, b = seats[r][t][i], seats[r][u][j]
                for x in seats[r][t]:
                    if x != a:
                        met[a][x] -= 1; met[x][a] -= 1; met[b][x] += 1; met[x][b] += 1
                for y in seats[r][u]:
                    if y != b:
                        met[b][y] -= 1; met[y][b] -= 1; met[a][y] += 1; met[y][a] += 1
                seats[r][t][i], seats[r][u][j] = b, a
            current = cost()
    return current, step, seats


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", type=int)
    parser.add_argument("table_size", type=int)
    parser.add_argument("rounds", type=int)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.monotonic()
    repeats, steps, seats = search(args.players, args.table_size, args.rounds,
                                   args.seconds, args.seed)
    print(f"# {args.players} at {args.table_size} for {args.rounds} rounds: {repeats} "
          f"repeats after {steps} steps, {time.monotonic() - started:.1f} s", file=sys.stderr)
    if repeats == 0:
        rounds = sorted(tuple(sorted(tuple(sorted(t)) for t in rnd)) for rnd in seats)
        print(f"    ({args.players}, {args.table_size}): (")
        for rnd in rounds:
            print(f"        {rnd},")
        print("    ),")
    return 0 if repeats == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
