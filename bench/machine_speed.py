"""How fast this machine runs Python: fixed workloads timed in CPU seconds.

Absolute figures (issue 19's import target is rows/s) depend on the machine, so
``bench/run_all.py`` puts these in its Machine section, beside the figures the same
workloads had on the machine of earlier results where those are known:

- **pure Python**: a fixed loop of dict, string, integer and sort work (no library,
  nothing of tourney), best of 5 runs;
- **openskill loop**: ``bench/bench_ratings.py``'s bare ``model.rate()`` loop (a
  fixed workload of the openskill library, pure Python) over 20,000 four-player
  matches of 800 players (seed 7), best of 3 runs. RESULTS.md of the ``run_all.py``
  run of 2026-11-29 had that bench's 100,000 matches at 3.04 s: 0.61 s for 20,000
  (the loop's cost is linear in the matches).

CPU time (user + system of this process) is what other processes on a busy machine
inflate least; on a quiet machine it is the wall time too.

    python bench/machine_speed.py [--quick]     (--quick: one openskill run)

Prints the figures and writes them to bench/out/machine_speed.json.
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from figures import write_figures

# The same workloads on the machines of earlier results, where known (CPU s).
EARLIER = {
    "openskill": {"seconds": 3.04, "matches": 100_000,
                  "source": "bench_ratings' bare loop, 3.04 s for 100,000 matches, best of "
                            "3, in the run_all.py run of 2026-11-29 in bench/RESULTS.md"},
}


def pure_python() -> float:
    """A fixed mix of interpreter work: a fraction of a second of CPU."""
    started = time.process_time()
    counts: dict[str, int] = {}
    for i in range(400_000):
        key = f"k{i * 7919 % 6007}"
        counts[key] = counts.get(key, 0) + (i * i) % 11
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    total = sum(value for _, value in ranked[:1000])
    rows = [[(i * j) % 97 for j in range(40)] for i in range(4_000)]
    for row in rows:
        row.sort()
        total += row[20]
    text = " ".join(str(i) for i in range(100_000))
    total += sum(len(part) for part in text.split(" "))
    assert total > 0
    return time.process_time() - started


def openskill_loop(matches: int) -> float:
    from bench_ratings import bare_loop, random_matches

    from tourney.ratings.models import DEFAULT_SPEC

    pool = random_matches(matches, max(40, matches // 25), random.Random(7))
    return bare_loop(DEFAULT_SPEC.build(), pool)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one openskill run, not 3")
    args = parser.parse_args(argv)
    pure = min(pure_python() for _ in range(5))
    matches = 20_000
    skill = min(openskill_loop(matches) for _ in range(1 if args.quick else 3))
    earlier = EARLIER["openskill"]
    before = earlier["seconds"] * matches / earlier["matches"]
    figures = {
        "pure_python_s": pure,
        "openskill": {"matches": matches, "seconds": skill, "earlier_seconds": before,
                      "earlier_source": earlier["source"], "slower_than_earlier": skill / before},
    }
    print(f"pure Python workload: {pure:.3f} s CPU (best of 5)")
    print(f"openskill bare loop, {matches:,} matches: {skill:.2f} s CPU (best of 3); "
          f"{before:.2f} s on the earlier machine ({earlier['source']}"
          + (", scaled" if matches != earlier["matches"] else "") + f"): x{skill / before:.2f}")
    write_figures("machine_speed", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
