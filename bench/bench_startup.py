"""Start-up time of `tourney` commands, as a ratio to `python -c "import click"`.

Commands that need no database (`--version`, `variants`, `validate`, `simulate`)
must not load the database libraries (SQLAlchemy, sqlmodel, alembic, psycopg):
the target is `tourney --version` within 2x of importing click alone. Each
command runs R times in a fresh interpreter (the same Python as this script);
the figure is the median wall time, and the ratio is to the median of
`python -c "import click"` measured in the same run, interleaved.

    python bench/bench_startup.py [--quick] [--repeats R]

Also reports, for each command, whether sqlalchemy was imported (by running it
once with `-X importtime`).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
PY = sys.executable
TOURNEY = [PY, "-c", "import sys; from tourney.cli.main import main; "
                     "sys.argv[0] = 'tourney'; main()"]


def commands(record: str) -> dict[str, list[str]]:
    return {
        'python -c "import click"': [PY, "-c", "import click"],
        "tourney --version": [*TOURNEY, "--version"],
        "tourney --help": [*TOURNEY, "--help"],
        "tourney variants": [*TOURNEY, "variants"],
        "tourney validate FILE": [*TOURNEY, "validate", record],
        "tourney simulate kortrad": [*TOURNEY, "simulate", "kortrad", "--players", "4",
                                     "--deals", "1"],
        "tourney player list (SQLite)": [*TOURNEY, "player", "list"],
    }


def once(argv: list[str], cwd: str) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - started


def loads_sqlalchemy(argv: list[str], cwd: str) -> bool:
    run = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], cwd=cwd,
                         capture_output=True, text=True)
    return any(line.rstrip().endswith(" sqlalchemy") for line in run.stderr.splitlines())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs each instead of 15")
    parser.add_argument("--repeats", type=int)
    args = parser.parse_args()
    repeats = args.repeats or (5 if args.quick else 15)
    with tempfile.TemporaryDirectory() as work:
        record = os.path.join(work, "sim.csv")
        with open(record, "w") as stream:
            subprocess.run([*TOURNEY, "simulate", "kortrad", "--players", "4", "--deals", "2"],
                           stdout=stream, check=True)
        subprocess.run([*TOURNEY, "db", "init"], cwd=work, check=True,
                       stderr=subprocess.DEVNULL)
        table = commands(record)
        times: dict[str, list[float]] = {name: [] for name in table}
        for name, argv in table.items():  # warm the file cache
            once(argv, work)
        for _ in range(repeats):  # interleaved: load changes hit every command alike
            for name, argv in table.items():
                times[name].append(once(argv, work))
        baseline = statistics.median(times['python -c "import click"'])
        lines = ["| command | median s | ratio to import click | loads sqlalchemy |",
                 "|---|---|---|---|"]
        for name, argv in table.items():
            median = statistics.median(times[name])
            heavy = "-" if name.startswith("python") else (
                "yes" if loads_sqlalchemy(argv, work) else "no")
            lines.append(f"| {name} | {median:.3f} | {median / baseline:.2f} | {heavy} |")
    report = (f"Start-up, median of {repeats} runs each ({sys.version.split()[0]}):\n\n"
              + "\n".join(lines) + "\n")
    print(report)
    OUT.mkdir(exist_ok=True)
    (OUT / "bench_startup.md").write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
