"""The league's bulk writes (issue 34): `player import` of N players (and again,
every name already registered), `event enter --all` and `round seat` round 1, each
a process of its own (wall s, CPU s, peak MB as bench_league.py measures them),
then the same commands in this process on another fresh database with the
statements each sent counted (an SQLAlchemy event listener on every engine).

Usage:  python bench/bench_league_writes.py [--sizes 8000,16000] [--db sqlite|postgresql|both]
Prints a markdown table; PostgreSQL runs on a scratch database per size (createdb /
dropdb on 127.0.0.1).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from pathlib import Path

from bench_seating_scale import compile_project, run_measured
from click.testing import CliRunner
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine

from tourney.cli.main import cli
from tourney.storage.db import dispose_engines

COMMANDS = [
    ("import", ["player", "import", "players.csv"]),
    ("again", ["player", "import", "players.csv"]),
    ("create", ["event", "create", "big", "--variant", "spardame", "--table-sizes", "4",
                "--seed", "1"]),
    ("enter", ["event", "enter", "big", "--all"]),
    ("seat", ["round", "seat", "big"]),
]
MEASURED = ("import", "again", "enter", "seat")


def players_file(folder: str, n: int) -> None:
    path = Path(folder, "players.csv")
    partial = path.with_suffix(".part")
    partial.write_text("name,club\n" + "".join(f"Player {i:05d},Club {i % 50}\n"
                                               for i in range(n)), encoding="utf-8")
    partial.replace(path)


def statements_sent(folder: str, db: str) -> dict[str, int]:
    """Each command run in this process; the statements it sent."""
    sent = {"count": 0}

    def count(*_args) -> None:
        sent["count"] += 1

    counts = {}
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(folder)
    sa_event.listen(Engine, "before_cursor_execute", count)
    try:
        for key, args in COMMANDS:
            sent["count"] = 0
            result = runner.invoke(cli, ["--db", db, *args])
            if result.exit_code:
                raise SystemExit(f"tourney {' '.join(args)} failed: {result.output[-2000:]}")
            counts[key] = sent["count"]
    finally:
        sa_event.remove(Engine, "before_cursor_execute", count)
        os.chdir(cwd)
        dispose_engines()
    return counts


def scratch_db(kind: str, folder: str, n: int, tag: str):
    """(the database URL, a function dropping it)."""
    if kind == "sqlite":
        return os.path.join(folder, f"{tag}.db"), lambda: None
    name = f"bench_writes_{os.getpid()}_{n}_{tag}"
    subprocess.run(["createdb", "-h", "127.0.0.1", name], check=True)
    return (f"postgresql+psycopg://127.0.0.1:5432/{name}",
            lambda: subprocess.run(["dropdb", "-h", "127.0.0.1", "--if-exists", name],
                                   check=True))


def one_size(kind: str, n: int) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"writes{n}") as folder:
        players_file(folder, n)
        db, drop = scratch_db(kind, folder, n, "measured")
        try:
            figures = {key: run_measured(args, folder, db=db) for key, args in COMMANDS}
        finally:
            drop()
        db, drop = scratch_db(kind, folder, n, "counted")
        try:
            counts = statements_sent(folder, db)
        finally:
            drop()
    return {"players": n, "figures": figures, "statements": counts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8000,16000")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    opts = parser.parse_args()
    compile_project()
    kinds = ["sqlite", "postgresql"] if opts.db == "both" else [opts.db]
    print("| database | players | command | wall s / CPU s / MB | statements |")
    print("|---|---:|---|---:|---:|")
    for kind in kinds:
        for n in (int(s) for s in opts.sizes.split(",")):
            row = one_size(kind, n)
            for key in MEASURED:
                wall, mb, cpu = row["figures"][key]
                print(f"| {kind} | {n:,} | {dict(COMMANDS)[key][:2]} {key} | "
                      f"{wall:.2f} / {cpu:.2f} / {mb:.0f} | {row['statements'][key]:,} |",
                      flush=True)


if __name__ == "__main__":
    main()
