"""Crash safety of `tourney result import`: SIGKILL at random points.

A seated event (40 players, 10 tables) gets a file of 3,000 kortrad deals. The
import runs in a child process that is killed (SIGKILL: no cleanup of any kind)
after a random delay, many times. After every kill the SQLite database passes
``PRAGMA integrity_check`` and holds exactly the state before the import or
exactly the state a complete import gives (every table compared row by row,
timestamps aside); the next import runs on the database the killed one left.
At the end an import completes and gives the complete state, and importing the
file once more changes nothing.
"""
from __future__ import annotations

import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from event_setup import cli_on, seated_event, simulate_tables, write_file

from tourney.storage.db import dispose_engines

KILLS = 14
VARIANT = "kortrad"
DEALS_PER_MATCH = 300
PLAYERS = 40


def snapshot(path: Path) -> dict[str, tuple[int, str]]:
    """Per table: row count and a digest of every row (DATETIME columns left out,
    since a complete import stamps its own time, and the event's content stamp,
    a random number set afresh by every write)."""
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name")]
        out = {}
        for table in tables:
            columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')
                       if ("DATE" not in (r[2] or "").upper() or r[2].upper() == "DATE")
                       and r[1] != "content_stamp"]
            quoted = ", ".join(f'"{c}"' for c in columns)
            rows = sorted(repr(row) for row in db.execute(f'SELECT {quoted} FROM "{table}"'))
            out[table] = (len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest())
    return out


def wal_mark(wal: Path) -> tuple[int, int] | None:
    try:
        info = wal.stat()
    except FileNotFoundError:
        return None
    return info.st_size, info.st_mtime_ns


def writing(mark, before) -> bool:
    """The WAL has grown or been rewritten since the child started: frames of
    the import's transaction are being written (opening only creates it empty)."""
    return mark is not None and mark[0] > 0 and mark != before


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]


def copy_db(source: Path, target: Path) -> None:
    """A consistent copy (the backup API; the WAL is folded in)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def import_command(db: Path, csv_path: Path) -> list[str]:
    return [sys.executable, "-c", "from tourney.cli.main import main; main()",
            "result", "import", str(csv_path), "--db", f"sqlite:///{db}"]


def run_import(db: Path, csv_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(import_command(db, csv_path), capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    """The seated event (state before), the file, and the complete state."""
    tmp = tmp_path_factory.mktemp("crash")
    db = tmp / "setup.db"
    run = cli_on(f"sqlite:///{db}")
    names = [f"Player {i:02d}" for i in range(1, PLAYERS + 1)]
    tables = seated_event(run, "crash-cup", VARIANT, names, table_size=4,
                          rules={"deals": DEALS_PER_MATCH})
    records = simulate_tables(VARIANT, "crash-cup", tables, rules={"deals": DEALS_PER_MATCH},
                              deals=DEALS_PER_MATCH, seed=5)
    csv_path = write_file(tmp / "round1.csv", records, VARIANT)
    dispose_engines()  # no pooled connection of this process keeps the file
    before = tmp / "before.db"
    copy_db(db, before)
    complete = tmp / "complete.db"
    copy_db(before, complete)
    started = time.monotonic()
    done = run_import(complete, csv_path)
    seconds = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert "added: 10 matches" in done.stderr
    return {"before": before, "csv": csv_path, "deals": len(records), "seconds": seconds,
            "state_before": snapshot(before), "state_after": snapshot(complete), "tmp": tmp}


def test_the_two_states_differ_where_the_import_writes(setup):
    before, after = setup["state_before"], setup["state_after"]
    assert setup["deals"] == PLAYERS // 4 * DEALS_PER_MATCH
    assert after["deal"][0] == before["deal"][0] + setup["deals"]
    assert after["match"][0] == before["match"][0] + 10


def test_sigkill_at_random_points_leaves_before_or_after(setup):
    before_state, after_state = setup["state_before"], setup["state_after"]
    work = setup["tmp"] / "work.db"
    copy_db(setup["before"], work)
    rng = random.Random(20240511)
    full = setup["seconds"]
    outcomes = {"before": 0, "after": 0}
    delays = []
    for kill in range(KILLS):
        wal = Path(f"{work}-wal")
        wal_before = wal_mark(wal)
        started = time.monotonic()
        child = subprocess.Popen(import_command(work, setup["csv"]),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if kill % 2:
            # anywhere: starting up, reading, replaying, writing, done
            time.sleep(rng.uniform(0.05, full * 1.2))
        else:
            # while the database is being written: the transaction's pages go to
            # the WAL in a burst of a few ms ending with the commit; kill at a
            # random moment of it or just after
            while not writing(wal_mark(wal), wal_before) and child.poll() is None \
                    and time.monotonic() - started < 3 * full:
                time.sleep(0.001)
            time.sleep(rng.uniform(0, 0.02))
        delay = time.monotonic() - started
        mark = wal_mark(wal)
        delays.append(f"{delay:.2f}s/wal {mark[0] if mark else '-'}"
                      + ("/exited" if child.poll() is not None else ""))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert integrity(work) == "ok", f"kill {kill} after {delay:.2f} s"
        state = snapshot(work)
        if state == before_state:
            outcomes["before"] += 1
        elif state == after_state:
            outcomes["after"] += 1
            copy_db(setup["before"], work)  # start the next kill from before again
        else:
            changed = [t for t in state if state[t] != before_state.get(t)]
            pytest.fail(f"kill {kill} after {delay:.2f} s left a third state; "
                        f"tables differing from before: {changed}")
    print(f"\n{KILLS} kills survived ({', '.join(delays)}; full import {full:.2f} s): "
          f"{outcomes['before']} left the state before, {outcomes['after']} the state after")
    assert outcomes["before"] > 0  # the kills did land inside imports
    assert outcomes["after"] > 0  # and some after a commit
    # The import then completes on the database the killed ones left...
    done = run_import(work, setup["csv"])
    assert done.returncode == 0, done.stderr
    assert integrity(work) == "ok"
    assert snapshot(work) == after_state
    # ...and once more changes nothing.
    again = run_import(work, setup["csv"])
    assert again.returncode == 0 and "unchanged: 10" in again.stderr, again.stderr
    assert snapshot(work) == after_state
    for suffix in ("-wal", "-shm"):
        Path(f"{work}{suffix}").unlink(missing_ok=True)
    os.unlink(work)
