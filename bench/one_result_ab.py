"""One result's cost on a built league, two installs of tourney in turn (issue 34).

Takes a SQLite league that ``bench_league.py --keep DIR`` left (its big event with
round 2 seated and some of its tables played) and, for each install (a tourney
executable, e.g. an older checkout's .venv/bin/tourney and this one's), on a fresh
copy of the league each time, runs the one-result commands as processes: one new
match of round 2 (a table without a result), the floor (a stored match imported
again: nothing changes), a correction of that newest match (another play of its
table, --replace) and a correction of round 1's table 1 (``early.csv``, the play
the league first stored, --replace). The installs alternate, ``--repeats`` times;
the median wall and CPU seconds and the largest peak RSS are printed.

Usage:  python bench/one_result_ab.py LEAGUE_DIR TOURNEY_A TOURNEY_B [--repeats 3]
(each TOURNEY a checkout's .venv/bin/tourney, as .ci/setup makes it)
"""
from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
from pathlib import Path

import bench_seating_scale
from bench_league import BIG, tables

STEPS = [("one_match", ["result", "import", "new.csv"]),
         ("floor", ["result", "import", "stored.csv"]),
         ("correct_last", ["result", "import", "--replace", "new-other.csv"]),
         ("correct_early", ["result", "import", "--replace", "early.csv"])]


def prepare(league: Path, tourney: str) -> str:
    """The records the steps import, written into ``league``; the stored match's
    table. The first table of round 2 without a result is the new match."""
    def simulate(seed: int) -> str:
        return subprocess.run([tourney, "--db", "league.db", "simulate", "--event", BIG,
                               "--round", "2", "--seed", str(seed)], cwd=league, check=True,
                              capture_output=True, text=True).stdout
    if not (league / "new-other.csv").exists():  # else written by an earlier run
        played, other = simulate(1), simulate(2)
        table = played.splitlines()[1].split(",")[3]
        for name, text in (("new.csv", tables(played, {table})),
                           ("new-other.csv", tables(other, {table}))):
            partial = league / (name + ".part")
            partial.write_text(text, encoding="utf-8")
            partial.replace(league / name)
    table = (league / "new.csv").read_text(encoding="utf-8").splitlines()[1].split(",")[3]
    shutil.copyfile(league / "new-1.csv" if (league / "new-1.csv").exists()
                    else league / "two.csv", league / "stored.csv")
    if not (league / "early.csv").exists():  # a league of an earlier bench_league.py
        (league / "early.csv").write_text(
            tables((league / "big-1.csv").read_text(encoding="utf-8"), {"1"}), encoding="utf-8")
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("league", type=Path)
    parser.add_argument("installs", nargs=2)
    parser.add_argument("--repeats", type=int, default=3)
    opts = parser.parse_args()
    table = prepare(opts.league, opts.installs[1])
    for tourney in opts.installs:  # each checkout's bytecode written before measuring
        checkout = Path(tourney).parent.parent.parent  # CHECKOUT/.venv/bin/tourney
        subprocess.run([str(Path(tourney).with_name("python")), "-m", "compileall", "-q",
                        *(str(checkout / name) for name in ("tourney", "cli", "reports"))],
                       env=bench_seating_scale.MEASURED_ENV, check=True,
                       stdout=subprocess.DEVNULL)
    figures: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for _ in range(opts.repeats):
        for tourney in opts.installs:
            with tempfile.TemporaryDirectory(prefix="onerab") as scratch:
                for name in ("new.csv", "new-other.csv", "stored.csv", "early.csv"):
                    shutil.copyfile(opts.league / name, Path(scratch, name))
                with sqlite3.connect(opts.league / "league.db") as source, \
                        sqlite3.connect(Path(scratch, "league.db")) as copy:
                    source.backup(copy)
                bench_seating_scale.TOURNEY = tourney
                for key, args in STEPS:
                    figures.setdefault((tourney, key), []).append(
                        bench_seating_scale.run_measured(args, scratch))
    print(f"New match: round 2 table {table}. Median of {opts.repeats} runs each; wall s / CPU s / MB")
    print("| command | " + " | ".join(opts.installs) + " |")
    print("|---|" + "---:|" * len(opts.installs))
    for key, _ in STEPS:
        cells = []
        for tourney in opts.installs:
            runs = figures[(tourney, key)]
            cells.append(f"{statistics.median(s for s, _, _ in runs):.2f} / "
                         f"{statistics.median(c for _, _, c in runs):.2f} / "
                         f"{max(m for _, m, _ in runs):.0f}")
        print(f"| {key} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
