"""`tourney validate` as a whole process against OpenSpiel reading the same CSV.

The file: 20,000 four-player spardame deals (`tourney simulate spardame --players 4
--deals 4 --tables 50 --rounds 100 --seed 1`, cached in bench/out/validate_cache/).
The peer: bench/openspiel_validate.py, a small script that reads the CSV with the
csv module and replays every deal in OpenSpiel's hearts (set up as spardame, see
bench/peers.py) with ``apply_action_with_legality_check``. OpenSpiel is a
bench-only install (``pip install open_spiel``); without it the peer is skipped.

Each command runs as its own process, R times, interleaved (hyperfine-like: one
warm-up round first, so the file is in the page cache; then the commands take
turns, so a change of load hits them alike). The figure is the median wall time,
with the median CPU time (user + system of the process and its children) beside
it; the ratio is OpenSpiel's median wall time over ours, so 1.0 is parity and
more is faster than OpenSpiel. Targets (issue 19): >= 0.5 in a single process
(``--jobs 1``), >= 0.9 with ``--jobs 2``.

    python bench/bench_validate.py [--quick] [--repeats R] [--deals N]

Writes bench/out/bench_validate.md (and the figures as bench/out/bench_validate.json).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from figures import write_figures

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
CACHE = OUT / "validate_cache"
PY = sys.executable
TOURNEY = [PY, "-c", "import sys; from tourney.cli.main import main; "
                     "sys.argv[0] = 'tourney'; sys.exit(main())"]
# The CLI, telling on its way out the CPU time of its own process and of its
# children (the processes of --jobs): the busiest process is the time the command
# would take with a core of its own for each process.
MEASURED = [PY, "-c", """
import os, resource, sys
from tourney.cli.main import main
sys.argv[0] = 'tourney'
try:
    main()
    code = 0
except SystemExit as done:
    code = done.code
me, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
os.write(2, ('\\nBENCH-CPU %f %f\\n' % (me.ru_utime + me.ru_stime,
                                      children.ru_utime + children.ru_stime)).encode())
sys.exit(code)
"""]


def tourney_command() -> list[str]:
    """The installed console script next to this Python (what a user runs), else
    the CLI through ``python -c``."""
    script = Path(PY).parent / "tourney"
    return [str(script)] if script.exists() else TOURNEY


def record_file(deals: int) -> Path:
    tables = 50
    rounds = max(1, deals // (4 * tables))
    path = CACHE / f"spardame4_{rounds * tables * 4}_seed1.csv"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        with open(partial, "w", encoding="utf-8") as stream:
            subprocess.run([*TOURNEY, "simulate", "spardame", "--players", "4", "--deals", "4",
                            "--tables", str(tables), "--rounds", str(rounds), "--seed", "1"],
                           stdout=stream, check=True, cwd=ROOT)
        partial.replace(path)
    return path


def has_jobs_option(tourney: list[str]) -> bool:
    done = subprocess.run([*tourney, "validate", "--help"], capture_output=True, text=True)
    return "--jobs" in done.stdout


def has_openspiel() -> bool:
    done = subprocess.run([PY, "-c", "import pyspiel"], capture_output=True)
    return done.returncode == 0


def once(argv: list[str]) -> tuple[float, float, float, int]:
    """Wall and CPU seconds of one run, the CPU seconds of its busiest process
    (reported by :data:`MEASURED`; else the whole CPU time), and its exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    busiest = cpu
    for line in done.stderr.decode(errors="replace").splitlines():
        if line.startswith("BENCH-CPU "):
            own, children = map(float, line.split()[1:])
            workers = max(1, _jobs(argv) - 1)
            busiest = max(own, children / workers if children else 0.0)
    return wall, cpu, busiest, done.returncode


def _jobs(argv: list[str]) -> int:
    if "--jobs" in argv:
        return int(argv[argv.index("--jobs") + 1])
    return len(os.sched_getaffinity(0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs each instead of 11")
    parser.add_argument("--repeats", type=int)
    parser.add_argument("--deals", type=int, default=20_000, help="deals in the file")
    args = parser.parse_args(argv)
    repeats = args.repeats or (5 if args.quick else 11)
    path = record_file(args.deals)
    rel = os.path.relpath(path, ROOT)
    tourney = MEASURED
    commands: dict[str, list[str]] = {}
    notes: list[str] = []
    if has_openspiel():
        commands["OpenSpiel (bench/openspiel_validate.py)"] = [
            PY, str(HERE / "openspiel_validate.py"), str(path)]
    else:
        notes.append("OpenSpiel is not installed (pip install open_spiel): no peer, no ratio.")
    if has_jobs_option(tourney):
        commands["tourney validate --jobs 1"] = [*tourney, "validate", str(path), "--jobs", "1"]
        commands["tourney validate --jobs 2"] = [*tourney, "validate", str(path), "--jobs", "2"]
        commands["tourney validate (default jobs)"] = [*tourney, "validate", str(path)]
    else:
        commands["tourney validate"] = [*tourney, "validate", str(path)]
        notes.append("This tourney has no --jobs option: one process.")
    for name, command in commands.items():  # warm-up, and every deal must be valid
        wall, cpu, busiest, status = once(command)
        if status != 0:
            print(f"{name} exited {status} on {rel}", file=sys.stderr)
            return 1
    walls = {name: [] for name in commands}
    cpus = {name: [] for name in commands}
    busiests = {name: [] for name in commands}
    for _ in range(repeats):
        for name, command in commands.items():
            wall, cpu, busiest, _status = once(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
            busiests[name].append(busiest)
    peer = next((n for n in commands if n.startswith("OpenSpiel")), None)
    peer_wall = statistics.median(walls[peer]) if peer else None
    peer_cpu = statistics.median(cpus[peer]) if peer else None
    peer_busiest = statistics.median(busiests[peer]) if peer else None
    lines = [
        f"### tourney validate against OpenSpiel ({args.deals:,} spardame deals)", "",
        f"`{rel}`: {path.stat().st_size / 1e6:.1f} MB; median of {repeats} runs each, "
        f"interleaved; {os.cpu_count()} logical cores; load average at the end "
        f"{' / '.join(f'{x:.2f}' for x in os.getloadavg())}.", "",
        "| command | wall s | CPU s, all processes | CPU s, busiest process "
        "| speed vs OpenSpiel: wall | CPU | busiest process |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in commands:
        wall = statistics.median(walls[name])
        cpu = statistics.median(cpus[name])
        busiest = statistics.median(busiests[name])
        ratio = f"{peer_wall / wall:.2f}" if peer_wall else "-"
        cpu_ratio = f"{peer_cpu / cpu:.2f}" if peer_cpu else "-"
        busiest_ratio = f"{peer_busiest / busiest:.2f}" if peer_busiest else "-"
        lines.append(f"| {name} | {wall:.3f} | {cpu:.3f} | {busiest:.3f} | {ratio} "
                     f"| {cpu_ratio} | {busiest_ratio} |")
    lines += ["", "Medians. Speed is OpenSpiel's time over ours (1.00: as fast; targets: "
              ">= 0.5 with --jobs 1, >= 0.9 with --jobs 2, on wall time). Wall is what a "
              "user waits for. CPU counts every process of the command (--jobs 2 costs a "
              "little more than --jobs 1); the busiest process's CPU time is what the "
              "command takes when each of its processes has a core to itself. On a machine "
              "whose cores are all busy, a command's processes share its one share of the "
              "CPU (Linux's autogroup scheduling gives each session one), so --jobs cannot "
              "shorten its wall time there: wall then follows the CPU column."]
    lines += [f"- {note}" for note in notes]
    report = "\n".join(lines) + "\n"
    print(report)
    OUT.mkdir(exist_ok=True)
    (OUT / "bench_validate.md").write_text(report, encoding="utf-8")
    print(f"written to {OUT / 'bench_validate.md'}", file=sys.stderr)
    keys = {"tourney validate --jobs 1": "jobs1", "tourney validate --jobs 2": "jobs2",
            "tourney validate (default jobs)": "default", "tourney validate": "jobs1"}
    medians = {keys.get(name, "openspiel"): {
        "wall": statistics.median(walls[name]), "cpu": statistics.median(cpus[name]),
        "busiest": statistics.median(busiests[name])} for name in commands}
    write_figures("bench_validate", {
        "deals": args.deals, "repeats": repeats, "medians": medians, "peer": bool(peer),
        # OpenSpiel's median wall time over ours (the targets' figure), per command
        "speed": {key: medians["openspiel"]["wall"] / m["wall"]
                  for key, m in medians.items() if key != "openspiel"} if peer else None,
        "notes": notes})
    return 0


if __name__ == "__main__":
    sys.exit(main())
