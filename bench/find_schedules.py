"""Offline search for perfect schedules that no formula in tourney gives; the ones found
are stored in ``tourney/pairing/schedules.json`` (read and checked when first used).

Run: ``python bench/find_schedules.py METHOD PLAYERS [--rounds R] [--seed N]
[--steps S] [--store]`` with METHOD one of:

``rotational``
    Points Z_m x {0, 1, 2} plus I = n - 3m fixed points, m the number of rounds
    (by default the most a perfect schedule can have, (n - 1) // 3). One round, the
    *base* round, is searched; the others are its translates x -> x + t (t < m), the
    fixed points staying put. No pair meets twice exactly when every pair *class*
    (same level and difference +-d, or levels j < j' and difference d, or a fixed
    point and a level) is used at most once in the base round, and two fixed points
    never share a table. The base round is found by a tabu search (Dotu and Van
    Hentenryck's local search for the social golfer problem, on pair classes instead
    of pairs), ``bench/partition_search.c``, compiled here with ``cc``. Tables of 4;
    finds 24 players x 7 rounds, 36 x 11 and 48 x 15 in seconds (every player meets
    all but two others: resolvable designs with groups of three), and with more fixed
    points (``--rounds``) 56 x 17 (Z_17 x 3 + 5, 2 s of CPU). 56 x 18 (Z_18 x 3 + 2)
    stays at cost 2.
``orbit``
    Points Z_{3m} plus one fixed point (n = 3m + 1) or three points permuted by the
    translations (n = 3m + 3), the base round invariant under x -> x + m: a 1-rotational
    resolvable design, searched by simulated annealing over the base blocks. Tables
    of 4; finds 52 x 17 (a resolvable 2-(52, 4, 1) design).
``exact``
    Points Z_m x {0, 1, 2} plus n - 3m fixed points as in ``rotational``, the base round
    also invariant under phi: (x, j) -> (u x, j + 1) (``--multiplier u``, u^3 = 1 mod m;
    three fixed points are moved round by phi, one or two stay put). The base round is
    then a union of phi-orbits of tables, found by an exact cover search (Knuth's
    Algorithm X with dancing links, ``bench/exact_cover.c``): every orbit of points
    covered once, every pair class used at most once (exactly once where the count is
    tight). ``--steps`` bounds the search nodes; ``--level-step`` and ``--fixed-step``
    choose other symmetries. Finds 44 x 14 (u = 9; groups of two) and 60 x 19 (u = 7)
    in seconds of CPU. 56 x 18: none with u = 1, 5, 11 (also with the fixed points
    swapped) or u = 17 with levels kept; u = 7 and 13 not settled in ~1 min each.
``plain``
    The social golfer problem as it is: every round searched, swaps inside a round,
    pairs as classes (the same C program). For small fields, or to see how close a
    field comes: ``--seconds S`` runs the tabu search once for at most S seconds of CPU
    and reports its best cost, the repeated pairs of the best schedule it saw (issue
    19's "150-second tabu search").

``--store`` writes the schedule found (its rounds relabelled 0..n-1, checked by
``tourney.pairing.schedules.verify_perfect``) into the data file, replacing one of the
same field. It exits 1 if no perfect schedule was found within the steps.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import subprocess
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

from tourney.files import atomic_write
from tourney.pairing.schedules import SCHEDULE_FILE, round_bound, verify_perfect

HERE = Path(__file__).resolve().parent
SOLVER_SOURCE = HERE / "partition_search.c"
COVER_SOURCE = HERE / "exact_cover.c"
K = 4


# ------------------------------------------------------------------ the C solver

def solver(source: Path = SOLVER_SOURCE) -> Path:
    """A compiled C helper (by default the tabu search), built once per source version in
    the temp folder."""
    digest = hashlib.sha1(source.read_bytes()).hexdigest()[:12]
    binary = Path(tempfile.gettempdir()) / f"tourney-{source.stem.replace('_', '-')}-{digest}"
    if not binary.exists():
        subprocess.run(["cc", "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def run_solver(n: int, parts: list[int], cls: list[list[int]], cap: list[int],
               seed: int, steps: int, seconds: float = 0) -> list[list[int]] | None:
    """Blocks of K points with no class over capacity, or None."""
    lines = [f"{n} {K} {len(cap)}", " ".join(map(str, cap)), " ".join(map(str, parts))]
    lines += [" ".join(map(str, row)) for row in cls]
    done = subprocess.run([str(solver()), str(seed), str(steps), str(seconds)],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          check=True)
    head, members = done.stdout.splitlines()[:2]
    cost, taken = map(int, head.split())
    print(f"#   seed {seed}: best cost {cost} after {taken} steps", file=sys.stderr)
    if cost:
        return None
    points = list(map(int, members.split()))
    return [points[i:i + K] for i in range(0, n, K)]


# ------------------------------------------------------------------ rotational

def rotational_classes(n: int, m: int, levels: int):
    """The pair classes of points Z_m x levels + fixed points (see ``rotational``):
    cls[p][q] and each class's capacity (class 0: never together)."""
    finite = levels * m
    fixed = n - finite
    if not 1 <= fixed < m or n % K:
        raise SystemExit(f"rotational needs n = {levels}m + 1..3 with m = rounds / bases; "
                         f"{n} = {levels}*{m} + {fixed}")
    classes: dict[tuple, int] = {}
    cap = [0]  # class 0: never together (two fixed points; pure difference m/2)

    def class_of(key) -> int:
        if key not in classes:
            classes[key] = len(cap)
            cap.append(1)
        return classes[key]

    cls = [[0] * n for _ in range(n)]
    for p in range(n):
        for q in range(n):
            if p == q:
                continue
            if p < finite and q < finite:
                (jp, xp), (jq, xq) = divmod(p, m), divmod(q, m)
                if jp == jq:
                    d = min((xq - xp) % m, (xp - xq) % m)
                    cls[p][q] = 0 if 2 * d == m else class_of(("pure", jp, d))
                else:
                    if jp > jq:
                        jp, jq, xp, xq = jq, jp, xq, xp
                    cls[p][q] = class_of(("mixed", jp, jq, (xq - xp) % m))
            elif p < finite or q < finite:
                x, f = (p, q) if p < finite else (q, p)
                cls[p][q] = class_of(("fixed", f, x // m))
    return cls, cap


def rotational(n: int, rounds: int, seed: int, steps: int, bases: int = 1):
    if rounds % bases:
        raise SystemExit(f"--bases {bases} does not divide {rounds} rounds")
    m = rounds // bases
    levels = 3 * bases
    finite = levels * m
    cls, cap = rotational_classes(n, m, levels)
    # one copy of the points per base round; a block never leaves its copy
    size = n * bases
    big = [[cls[a % n][b % n] if a // n == b // n else 0 for b in range(size)]
           for a in range(size)]
    parts = [a // n for a in range(size)]
    for attempt in range(seed, seed + 50):
        blocks = run_solver(size, parts, big, cap, attempt, steps)
        if blocks is not None:
            schedule = []
            for base in range(bases):
                tables = [[p % n for p in b] for b in blocks if b[0] // n == base]
                schedule += [[[(p // m) * m + (p % m + t) % m if p < finite else p
                               for p in table] for table in tables] for t in range(m)]
            return schedule, f"rotational, {bases} base round(s), seed {attempt}"
    return None, ""


# ------------------------------------------------------------------ orbit

def orbit(n: int, rounds: int, seed: int, steps: int):
    m = rounds
    fixed = n - 3 * m
    if fixed not in (1, 3) or (m - fixed) % 4 or (fixed == 3 and m % 3 == 0):
        raise SystemExit("orbit needs n = 3m + 1 or 3m + 3 (m not a multiple of 3) "
                         "with m - 1 or m - 3 a multiple of 4")
    size = 3 * m
    head = 1 if fixed == 1 else 3
    for attempt in range(seed, seed + 200):
        rng = random.Random(attempt)
        residues = list(range(m))
        rng.shuffle(residues)
        lift = [rng.randrange(3) for _ in range(m)]

        def cost() -> int:
            count = [0] * size
            values = [residues[i] + lift[i] * m for i in range(m)]
            penalty = 0
            if fixed == 1:
                count[m] += 1
                count[size - m] += 1
            else:
                penalty = 2 * (3 - len({v % 3 for v in values[:3]}))
                for a, b in combinations(values[:3], 2):
                    count[(b - a) % size] += 1
                    count[(a - b) % size] += 1
            for start in range(head, m, K):
                for a, b in combinations(values[start:start + K], 2):
                    count[(b - a) % size] += 1
                    count[(a - b) % size] += 1
            return penalty + sum(max(0, c - (0 if fixed == 3 and d in (m, size - m) else 1))
                                 for d, c in enumerate(count) if d)

        current, temperature = cost(), 1.0
        for step in range(steps):
            if current == 0:
                break
            if rng.random() < 0.5:
                i, j = rng.randrange(m), rng.randrange(m)
                residues[i], residues[j] = residues[j], residues[i]
                lift[i], lift[j] = lift[j], lift[i]
                undo = ("swap", i, j)
            else:
                i = rng.randrange(m)
                undo = ("lift", i, lift[i])
                lift[i] = rng.randrange(3)
            new = cost()
            if new <= current or rng.random() < math.exp((current - new) / temperature):
                current = new
            elif undo[0] == "swap":
                _, i, j = undo
                residues[i], residues[j] = residues[j], residues[i]
                lift[i], lift[j] = lift[j], lift[i]
            else:
                lift[undo[1]] = undo[2]
            if step % 2000 == 0:
                temperature = max(0.3, temperature * 0.98)
        print(f"#   seed {attempt}: cost {current}", file=sys.stderr)
        if current:
            continue
        values = [residues[i] + lift[i] * m for i in range(m)]
        base = []  # tables of the base round; fixed points as ("inf", index)
        if fixed == 1:
            a = values[0]
            base.append([("inf", 0), a, a + m, a + 2 * m])
        else:
            base += [[("inf", s)] + [v + s * m for v in values[:3]] for s in range(3)]
        for start in range(head, m, K):
            base += [[v + s * m for v in values[start:start + K]] for s in range(3)]
        shift = pow(m, -1, 3) if fixed == 3 else 0  # x -> x + m moves inf s to s + 1
        schedule = [[[size + (p[1] + t * shift) % 3 if isinstance(p, tuple) else (p + t) % size
                      for p in table] for table in base] for t in range(m)]
        return schedule, f"orbit, seed {attempt}"
    return None, ""


# ------------------------------------------------------------------ plain

def plain(n: int, rounds: int, seed: int, steps: int, seconds: float = 0):
    points = n * rounds
    index = {}
    cls = [[0] * points for _ in range(points)]
    cap = [0]
    for a in range(points):
        for b in range(points):
            if a != b and a // n == b // n:
                pair = tuple(sorted((a % n, b % n)))
                if pair not in index:
                    index[pair] = len(cap)
                    cap.append(1)
                cls[a][b] = index[pair]
    parts = [a // n for a in range(points)]
    for attempt in range(seed, seed + (1 if seconds else 20)):
        blocks = run_solver(points, parts, cls, cap, attempt, steps, seconds)
        if blocks is not None:
            schedule = [[] for _ in range(rounds)]
            for block in blocks:
                schedule[block[0] // n].append([p % n for p in block])
            return schedule, f"plain, seed {attempt}"
    return None, ""


# ------------------------------------------------------------------ exact

def exact(n: int, rounds: int, seed: int, steps: int, multiplier: int,
          level_step: int = 1, fixed_step: int | None = None):
    """Base round invariant under phi: (x, j) -> (u x, j + level_step), by exact cover."""
    m, u = rounds, multiplier
    finite = 3 * m
    fixed = n - finite
    if not 1 <= fixed < m or n % K or math.gcd(u, m) != 1:
        raise SystemExit(f"exact needs n = 3m + f, 0 < f < m (m = rounds) and u prime to m; "
                         f"{n} = 3*{m} + {fixed}, u = {u}")
    if fixed_step is None:  # by default phi moves the fixed points round only when there are 3
        fixed_step = 1 if fixed == 3 else 0

    def phi(p: int) -> int:
        if p >= finite:
            return finite + (p - finite + fixed_step) % fixed
        j, x = divmod(p, m)
        return ((j + level_step) % 3) * m + (u * x) % m

    def moved(p: int, t: int) -> int:
        return p if p >= finite else (p // m) * m + (p % m + t) % m

    # pair classes: orbits of the translations; a pair whose orbit is short (it would
    # meet again within the m rounds) or two fixed points: forbidden (class -1)
    pair_class: dict[tuple[int, int], int] = {}
    number = 0
    for p, q in combinations(range(n), 2):
        if (p, q) in pair_class:
            continue
        orbit = {tuple(sorted((moved(p, t), moved(q, t)))) for t in range(m)}
        bad = len(orbit) < m
        for pair in orbit:
            pair_class[pair] = -1 if bad else number
        number += not bad

    def orbit_of(table):
        out = [tuple(sorted(table))]
        while True:
            nxt = tuple(sorted(phi(p) for p in out[-1]))
            if nxt == out[0]:
                return out
            out.append(nxt)

    point_orbit = {}
    for p in range(n):
        if p not in point_orbit:
            q, members = p, []
            while q not in members:
                members.append(q)
                q = phi(q)
            for q in members:
                point_orbit[q] = p
    reps = sorted(set(point_orbit.values()))
    rows: dict[tuple, tuple[list, list]] = {}
    for table in combinations(range(n), K):
        orbit = orbit_of(table)
        if orbit[0] in rows or min(orbit) != orbit[0]:
            continue
        points = [p for t in orbit for p in t]
        if len(set(points)) != len(points):
            continue
        classes = [pair_class[pair] for t in orbit for pair in combinations(t, 2)]
        if -1 in classes or len(set(classes)) != len(classes):
            continue
        covered = list(dict.fromkeys(("p", point_orbit[p]) for p in orbit[0]))
        rows[orbit[0]] = (covered, [("c", c) for c in classes])
    print(f"#   {len(reps)} point orbits, {number} pair classes, {len(rows)} candidate tables",
          file=sys.stderr)
    rng = random.Random(seed)
    names = list(rows)
    rng.shuffle(names)
    primary = [("p", r) for r in reps]
    secondary = [("c", c) for c in range(number)]
    if number == n // K * math.comb(K, 2):
        # every class is used exactly once: classes must be covered too
        primary, secondary = primary + secondary, []
    index = {col: i for i, col in enumerate(primary + secondary)}
    lines = [f"{len(index)} {len(primary)} {len(names)}"]
    lines += [" ".join(map(str, [len(rows[nm][0]) + len(rows[nm][1])]
                       + [index[col] for col in rows[nm][0] + rows[nm][1]])) for nm in names]
    done = subprocess.run([str(solver(COVER_SOURCE)), str(steps)], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, check=True)
    answer = done.stdout.split()
    print(f"#   seed {seed}: {' '.join(answer[:3]) if answer[0] == 'none' else 'found'}",
          file=sys.stderr)
    if answer[0] != "found":
        return None, ""
    found = [names[int(i)] for i in answer[2:]]
    base = [t for name in found for t in orbit_of(name)]
    schedule = [[[moved(p, t) for p in table] for table in base] for t in range(m)]
    image = f"({u}x, j+{level_step})" + (f", fixed points +{fixed_step}" if fixed_step else "")
    return schedule, f"exact cover, base round invariant under (x, j) -> {image}, seed {seed}"


# ------------------------------------------------------------------ storing

def store(schedule, n: int, source: str) -> None:
    data = json.loads(SCHEDULE_FILE.read_text(encoding="utf-8"))
    entries = [e for e in data["schedules"] if (e["players"], e["table_size"]) != (n, K)]
    entries.append({"players": n, "table_size": K, "source": source,
                    "rounds": ["|".join(" ".join(map(str, sorted(t))) for t in sorted(
                        sorted(t) for t in rnd)) for rnd in schedule]})
    entries.sort(key=lambda e: (e["table_size"], e["players"]))
    write_file(data.get("about", ""), entries)


def write_file(about: str, entries: list[dict]) -> None:
    """The data file, one round a line so that a change reads well in a diff."""
    out = ["{", f'  "about": {json.dumps(about)},', '  "schedules": [']
    for number, entry in enumerate(entries):
        out.append("    {")
        out.append(f'      "players": {entry["players"]}, "table_size": {entry["table_size"]},')
        out.append(f'      "source": {json.dumps(entry["source"])},')
        out.append('      "rounds": [')
        out += [f"        {json.dumps(r)}," for r in entry["rounds"][:-1]]
        out.append(f"        {json.dumps(entry['rounds'][-1])}")
        out.append("      ]")
        out.append("    }" + ("," if number < len(entries) - 1 else ""))
    out += ["  ]", "}"]
    with atomic_write(SCHEDULE_FILE) as handle:
        handle.write("\n".join(out) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("method", choices=("rotational", "orbit", "plain", "exact"))
    parser.add_argument("players", type=int)
    parser.add_argument("--rounds", type=int, help="default (players - 1) // 3")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--bases", type=int, default=1,
                        help="rotational: base rounds, each developed by Z_(rounds/bases)")
    parser.add_argument("--multiplier", type=int, default=1,
                        help="exact: u of the symmetry phi: (x, j) -> (u x, j + 1), u prime to rounds")
    parser.add_argument("--level-step", type=int, default=1,
                        help="exact: phi moves level j to j + this (0: levels stay)")
    parser.add_argument("--fixed-step", type=int,
                        help="exact: phi moves fixed point i to i + this (default 1 if 3)")
    parser.add_argument("--seconds", type=float, default=0,
                        help="plain: one run of the tabu search for at most this much CPU time "
                             "(its best cost is the repeats of the best schedule seen)")
    parser.add_argument("--store", action="store_true")
    args = parser.parse_args(argv)
    rounds = args.rounds or round_bound(args.players, K)
    started = time.monotonic()
    if args.method == "rotational":
        schedule, source = rotational(args.players, rounds, args.seed, args.steps, args.bases)
    elif args.method == "exact":
        schedule, source = exact(args.players, rounds, args.seed, args.steps, args.multiplier,
                                 args.level_step, args.fixed_step)
    elif args.method == "plain":
        schedule, source = plain(args.players, rounds, args.seed, args.steps, args.seconds)
    else:
        schedule, source = orbit(args.players, rounds, args.seed, args.steps)
    took = time.monotonic() - started
    if schedule is None:
        print(f"# {args.players} x {rounds}: nothing found ({took:.0f} s)", file=sys.stderr)
        return 1
    verify_perfect(schedule, args.players, K)
    print(f"# {args.players} x {rounds}: perfect ({source}, {took:.1f} s)", file=sys.stderr)
    if args.store:
        store(schedule, args.players, f"bench/find_schedules.py {source}")
        print(f"# stored in {SCHEDULE_FILE}", file=sys.stderr)
    else:
        for rnd in schedule:
            print(" | ".join(" ".join(map(str, sorted(t))) for t in rnd))
    return 0


if __name__ == "__main__":
    sys.exit(main())
