"""Ctrl-C: exit 130 (128 + SIGINT, as shells count it), one line on stderr, no
traceback. A command that writes says nothing was changed (it writes in one
transaction, rolled back); one that reads just says it was interrupted.

The import is interrupted for real: a subprocess reading the record file from its
standard input is sent SIGINT once it has read the first half and waits for the
rest, as a person pressing Ctrl-C would (tests/hardening/test_crash_safety.py kills
an import with SIGKILL). The rest never comes before the signal, so the import
cannot have finished first, however fast it is or busy the machine. The other
cases raise the interrupt in-process where it would land.
"""
from __future__ import annotations

import fcntl
import json
import os
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from simulated_rounds import kortrad_cup_seated, play_round

DEALS = 200  # per match (the most the bots play): an import long enough to interrupt


def _unread(read_end: int) -> int:
    """Bytes written to a pipe and not read yet (FIONREAD on its read end)."""
    return struct.unpack("i", fcntl.ioctl(read_end, termios.FIONREAD, b"\0" * 4))[0]


def _interrupted_import(db_url: str, records: Path, *extra: str) -> subprocess.CompletedProcess:
    """`tourney result import -` in a subprocess fed half of RECORDS on its standard
    input, sent SIGINT once it has read that half and waits for the rest."""
    command = [sys.executable, "-c", "from tourney.cli.main import main; main()",
               "result", "import", "-", "--db", db_url, *extra]
    data = records.read_bytes()
    read_end, write_end = os.pipe()
    # Ctrl-C's default (KeyboardInterrupt) even where this test runs with SIGINT
    # ignored, as a shell's background job does: Python keeps an ignored SIGINT so
    child = subprocess.Popen(command, stdin=read_end, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        with os.fdopen(write_end, "wb") as feed:
            feed.write(data[:len(data) // 2])
            feed.flush()
            started = time.monotonic()
            while _unread(read_end) and child.poll() is None:
                assert time.monotonic() - started < 60, "the import never read its input"
                time.sleep(0.001)
            time.sleep(0.05)  # into its wait for more
            assert child.poll() is None, child.communicate()
            child.send_signal(signal.SIGINT)
            try:
                stdout, stderr = child.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                child.kill()
                raise
    finally:
        os.close(read_end)
    return subprocess.CompletedProcess(command, child.returncode, stdout, stderr)


def test_ctrl_c_during_an_import_exits_130_and_changes_nothing(tourney, db_url, tmp_path):
    names = [f"Player {n:02d}" for n in range(1, 41)]
    tourney("player", "add", *names)
    tourney("event", "create", "cup", "--variant", "kortrad", "--rounds", "1",
            "--table-sizes", "4", "--rule", f"deals={DEALS}")
    tourney("event", "enter", "cup", "--all")
    seating = tourney("round", "seat", "cup", "--json").json
    records = tmp_path / "round1.csv"
    play_round(seating, "cup", "kortrad", {"deals": str(DEALS)}, 1, records)
    before = [tourney("log", "--json").stdout, tourney("event", "show", "cup", "--json").stdout,
              tourney("result", "export", "cup").stdout]

    plain = _interrupted_import(db_url, records)
    assert plain.returncode == 130, plain.stderr
    assert plain.stderr == "interrupted; nothing was changed\n" and plain.stdout == ""
    as_json = _interrupted_import(db_url, records, "--json")
    assert as_json.returncode == 130, as_json.stderr
    assert json.loads(as_json.stdout) == {"error": "interrupted; nothing was changed",
                                          "exit_code": 130}

    after = [tourney("log", "--json").stdout, tourney("event", "show", "cup", "--json").stdout,
             tourney("result", "export", "cup").stdout]
    assert after == before
    # not interrupted, the same import stores every match: it was the interrupt
    assert "added: 10 matches" in tourney("result", "import", str(records)).stderr


def _interrupt(monkeypatch, module, name):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(module, name, interrupted)


def test_a_read_command_just_says_interrupted(tourney, monkeypatch):
    from tourney.cli import results

    tourney("event", "create", "cup", "--variant", "kortrad")
    _interrupt(monkeypatch, results, "standings_table")
    run = tourney("standings", "cup", exit_code=130)
    assert (run.stderr, run.stdout) == ("interrupted\n", "")


def test_a_writing_command_interrupted_before_its_commit_changed_nothing(tourney, monkeypatch):
    from tourney.app import players

    _interrupt(monkeypatch, players, "rename_player")
    tourney("player", "add", "Anna")
    run = tourney("player", "rename", "Anna", "Anne", exit_code=130)
    assert run.stderr == "interrupted; nothing was changed\n"
    assert [p["name"] for p in tourney("player", "list", "--json").json] == ["Anna"]


def test_an_interrupt_after_the_commit_says_the_changes_are_stored(tourney, monkeypatch):
    from tourney.cli import players

    _interrupt(monkeypatch, players, "report_change")  # the summary, printed after the commit
    run = tourney("player", "add", "Anna", exit_code=130)
    assert run.stderr == ("interrupted after its changes were stored: player.add Anna "
                          "(`tourney log` lists them)\n")
    assert [p["name"] for p in tourney("player", "list", "--json").json] == ["Anna"]


@pytest.mark.parametrize("where", ["summary", "checkpoint"])
def test_an_import_interrupted_after_its_commit_says_what_it_stored(tourney, tmp_path,
                                                                    monkeypatch, where):
    """The interrupt lands where a Ctrl-C after the commit would: while the summary
    is printed, or while SQLite's log is copied into the file."""
    from tourney.cli import results
    from tourney.storage import db

    records = kortrad_cup_seated(tourney, tmp_path)
    _interrupt(monkeypatch, *((results, "report_change") if where == "summary"
                              else (db, "checkpoint_written")))
    run = tourney("result", "import", str(records), exit_code=130)
    assert run.stderr.endswith("interrupted after its changes were stored: result.import "
                               "cup: round1.csv (`tourney log` lists them)\n"), run.stderr
    monkeypatch.undo()
    assert len(tourney("result", "export", "cup", "--json").stdout.splitlines()) == 4


def test_an_import_interrupted_before_its_commit_stored_nothing(tourney, tmp_path, monkeypatch):
    from tourney.app import results

    records = kortrad_cup_seated(tourney, tmp_path)
    _interrupt(monkeypatch, results.ratings, "refresh_after_results")  # inside the transaction
    run = tourney("result", "import", str(records), exit_code=130)
    assert run.stderr.endswith("interrupted; nothing was changed\n"), run.stderr
    monkeypatch.undo()
    assert tourney("result", "export", "cup", "--json").stdout.strip() == ""


def test_what_a_long_running_process_stored_is_kept_bounded_and_counted():
    """A server commits for as long as it runs: the entries kept stay at
    KEPT_ENTRIES, and an interrupt still names the first few since its mark and how
    many there were in all."""
    from tourney.cli.errors import interrupted_message
    from tourney.storage.writes import KEPT_ENTRIES, Writes

    writes = Writes()
    writes.store(("result.import", f"old {n}") for n in range(10 * KEPT_ENTRIES))
    assert len(writes.stored) == KEPT_ENTRIES and writes.stored_count == 10 * KEPT_ENTRIES
    before = writes.mark()
    writes.begun += 1
    writes.committed += 1
    writes.store([("player.add", "Anna"), ("player.add", "Bo"), ("player.add", "Cai"),
                  ("player.add", "Dag")])
    assert interrupted_message(before, writes) == (
        "interrupted after its changes were stored: player.add Anna; player.add Bo; "
        "player.add Cai; and 1 more (`tourney log` lists them)")
