"""How `tourney round seat` grows with the number of players (issue 34).

Builds a SQLite league of N players through the commands an organizer runs
(`player import` of a generated CSV, `event create --table-sizes 4`,
`event enter --all`), then times `tourney round seat` for round 1, imports
simulated results for round 1 (`tourney simulate ... | tourney result import -`)
and times `round seat` for round 2. Each command is a process of its own; its wall
time and peak RSS (from ``wait4``) are recorded. `event enter --all` is the
baseline: issue 34's target is seating within 3x its time and under 400 MB at
16,000 players. The growth exponent between two sizes is
log(t2 / t1) / log(n2 / n1).

Usage:  python bench/bench_seating_scale.py [--quick] [--sizes 2000,8000,16000]
Prints markdown and writes it to bench/out/bench_seating_scale.md (and .json).
"""
from __future__ import annotations

import argparse
import ast
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out" / "bench_seating_scale.md"
TOURNEY = str(Path(sys.executable).with_name("tourney"))
SLUG = "big"
# A measured command reads its modules' bytecode as an installed tourney does (pip
# compiles them): PYTHONDONTWRITEBYTECODE, set in some shells and CI images, made
# every command compile the project's ~130 modules from source again (0.3-0.5 s).
MEASURED_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def compile_project() -> None:
    """Write the bytecode of the tourney package (and its cli, reports) once, as
    an installation does, so the first measured command does not pay for it."""
    import tourney
    import tourney.cli
    import tourney.reports

    folders = [*tourney.__path__, *tourney.cli.__path__, *tourney.reports.__path__]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], env=MEASURED_ENV,
                   check=True, stdout=subprocess.DEVNULL)


def run(args: list[str], cwd: str, stdin: bytes | None = None, db: str = "league.db") -> bytes:
    """Run one tourney command that is not measured; its stdout."""
    proc = subprocess.run([TOURNEY, "--db", db, *args], cwd=cwd, input=stdin,
                          capture_output=True, check=False)
    if proc.returncode:
        raise SystemExit(f"tourney {' '.join(args)} failed ({proc.returncode}): "
                         f"{proc.stderr.decode()[-2000:]}")
    return proc.stdout


# Runs the measured command and writes (wall seconds, peak RSS in KB, CPU seconds,
# exit code) to argv[1]. A small process of its own forks the command: the peak RSS
# that wait4 reports counts the image the child was forked from, and the bench that
# forks may be far bigger than the command (bench_league builds its leagues in
# process).
_LAUNCHER = """\
import os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(repr((time.perf_counter() - start, usage.ru_maxrss,
                    usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status))))
"""


def run_measured(args: list[str], cwd: str, db: str = "league.db") -> tuple[float, float, float]:
    """Run one tourney command: (wall seconds, the process's peak RSS in MB, its CPU
    seconds, user and system: both from wait4)."""
    figures = os.path.join(cwd, "figures.txt")
    with open(os.path.join(cwd, "out.txt"), "wb") as out, open(os.path.join(cwd, "err.txt"), "wb") as err:
        subprocess.run([sys.executable, "-c", _LAUNCHER, figures, TOURNEY, "--db", db, *args],
                       cwd=cwd, env=MEASURED_ENV, stdin=subprocess.DEVNULL, stdout=out,
                       stderr=err, check=True)
    with open(figures) as measured:
        seconds, peak_kb, cpu, code = ast.literal_eval(measured.read())
    if code:
        raise SystemExit(f"tourney {' '.join(args)} failed: "
                         f"{Path(cwd, 'err.txt').read_text()[-2000:]}")
    return seconds, peak_kb / 1024, cpu


def one_size(n: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="seatscale") as tmp:
        Path(tmp, "players.csv").write_text(
            "name,club\n" + "".join(f"Player {i:05d},Club {i % 50}\n" for i in range(n)))
        run_measured(["player", "import", "players.csv"], tmp)
        run_measured(["event", "create", SLUG, "--variant", "spardame",
                      "--table-sizes", "4", "--seed", "1"], tmp)
        enter = run_measured(["event", "enter", SLUG, "--all"], tmp)
        seat1 = run_measured(["round", "seat", SLUG], tmp)
        results = run(["simulate", "--event", SLUG, "--round", "1"], tmp)
        run(["result", "import", "-", "--event", SLUG], tmp, stdin=results)
        seat2 = run_measured(["round", "seat", SLUG], tmp)
    return {"players": n, "enter": enter, "seat1": seat1, "seat2": seat2}


def exponent(a: float, b: float, na: int, nb: int) -> float:
    return math.log(b / a) / math.log(nb / na)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 and 2,000 players")
    parser.add_argument("--sizes", default=None, help="comma-separated player counts")
    opts = parser.parse_args()
    sizes = [int(s) for s in (opts.sizes or ("1000,2000" if opts.quick else "2000,8000,16000")).split(",")]
    compile_project()
    rows = []
    for n in sizes:
        row = one_size(n)
        rows.append(row)
        print(f"{n}: enter {row['enter'][0]:.2f} s / {row['enter'][1]:.0f} MB, "
              f"seat r1 {row['seat1'][0]:.2f} s / {row['seat1'][1]:.0f} MB, "
              f"seat r2 {row['seat2'][0]:.2f} s / {row['seat2'][1]:.0f} MB", flush=True)
    lines = ["| players | enter --all s / MB | seat round 1 s / MB | seat round 2 s / MB | round 2 / enter |",
             "|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['players']:,} | {r['enter'][0]:.2f} / {r['enter'][1]:.0f} "
                     f"| {r['seat1'][0]:.2f} / {r['seat1'][1]:.0f} "
                     f"| {r['seat2'][0]:.2f} / {r['seat2'][1]:.0f} "
                     f"| {r['seat2'][0] / r['enter'][0]:.1f}x |")
    for a, b in zip(rows, rows[1:]):
        lines.append(f"\nGrowth {a['players']:,} -> {b['players']:,}: time exponent "
                     + ", ".join(f"{k} {exponent(a[k][0], b[k][0], a['players'], b['players']):.2f}"
                                 for k in ("enter", "seat1", "seat2"))
                     + "; memory exponent "
                     + ", ".join(f"{k} {exponent(a[k][1], b[k][1], a['players'], b['players']):.2f}"
                                 for k in ("enter", "seat1", "seat2")))
    text = "\n".join(lines) + "\n"
    print(text)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text)
    OUT.with_suffix(".json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
