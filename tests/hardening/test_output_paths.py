"""Output paths that would destroy data: the database, its companions, the input.

Every command that writes a file (`result import --skip-invalid`, `result export
--out`, `round sheet --out`) refuses, with exit 2 and before anything is touched,
an output that is the open SQLite database (or its -wal/-shm/-journal file) or an
input of the same command, whether named by the same path, another spelling, a
symbolic link or a hard link. Files are written to a temporary file and renamed,
so a write that fails midway leaves the old file as it was.
"""
from __future__ import annotations

import hashlib
import os
import stat

import pytest
from conftest import cli_on_url
from event_setup import seated_round_file

from tourney.files import atomic_write

VARIANT = "kortrad"
NAMES = ["Anna", "Bo", "Cilla", "Dag"]


def digest(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


@pytest.fixture
def cup(tmp_path):
    """A SQLite database with a seated event of kortrad and a record file of its round 1."""
    db = tmp_path / "tourney.db"
    run = cli_on_url(f"sqlite:///{db}")
    csv_path = seated_round_file(run, tmp_path / "cup.csv", "cup", VARIANT, NAMES, deals=2)
    return run, db, csv_path


def test_rejects_file_that_is_the_database_is_refused(cup, tmp_path):
    run, db, csv_path = cup
    companions = [db, tmp_path / "tourney.db-wal", tmp_path / "./sub/../tourney.db"]
    (tmp_path / "sub").mkdir()
    for target in companions:
        before = digest(db)
        result = run("result", "import", csv_path, "--skip-invalid", target, exit_code=2)
        assert "is the database" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
        assert digest(db) == before
    assert run("result", "history", "cup", 1, "1", exit_code=1)  # nothing was imported


@pytest.mark.parametrize("suffix", ["-shm", "-journal"])
def test_database_companions_are_refused(cup, suffix):
    run, db, csv_path = cup
    result = run("result", "export", "cup", "--out", f"{db}{suffix}", exit_code=2)
    assert f"the database's {suffix[1:]} file" in result.stderr


def test_outputs_that_are_the_database_are_refused(cup):
    run, db, csv_path = cup
    run("result", "import", csv_path)
    before = digest(db)
    for command in (["round", "sheet", "cup", "1", "--out", db],
                    ["result", "export", "cup", "--out", db]):
        result = run(*command, exit_code=2)
        assert "is the database" in result.stderr
        assert digest(db) == before
    # the database still works
    assert run("result", "export", "cup").stdout.count("\n") > 2


def test_rejects_file_that_is_the_input_is_refused(cup, tmp_path):
    run, db, csv_path = cup
    before = digest(csv_path)
    link = tmp_path / "link.csv"
    link.symlink_to(csv_path)
    hard = tmp_path / "hard.csv"
    os.link(csv_path, hard)
    for target in (csv_path, link, hard, tmp_path / "." / "cup.csv"):
        result = run("result", "import", csv_path, "--skip-invalid", target, exit_code=2)
        assert "is the input file" in result.stderr, result.stderr
        assert digest(csv_path) == before
    # and the other way round: reading through a link to the rejects file
    result = run("result", "import", link, "--skip-invalid", csv_path, exit_code=2)
    assert digest(csv_path) == before


def test_export_replaces_a_file_atomically_keeping_its_mode(cup, tmp_path):
    run, db, csv_path = cup
    run("result", "import", csv_path)
    out = tmp_path / "export.csv"
    out.write_text("old content\n")
    os.chmod(out, 0o640)
    run("result", "export", "cup", "--out", out, "--yes")  # replacing is asked for
    assert out.read_text(encoding="utf-8-sig").startswith("event,")
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []


def test_a_failed_write_leaves_the_old_file(tmp_path):
    target = tmp_path / "sheet.csv"
    target.write_text("the old sheet\n")
    with pytest.raises(RuntimeError):
        with atomic_write(target) as stream:
            stream.write("half a new")
            raise RuntimeError("disk went away")
    assert target.read_text() == "the old sheet\n"
    assert os.listdir(tmp_path) == ["sheet.csv"]


def test_a_killed_write_leaves_the_old_file(tmp_path):
    """SIGKILL in the middle of writing: the old file is intact."""
    import signal
    import subprocess
    import sys

    target = tmp_path / "big.csv"
    target.write_text("the old file\n")
    code = ("import os, sys\nfrom tourney.files import atomic_write\n"
            "with atomic_write(sys.argv[1]) as s:\n"
            "    s.write('x' * 100000); s.flush()\n"
            "    print('writing', flush=True)\n"
            "    sys.stdin.read()\n")
    child = subprocess.Popen([sys.executable, "-c", code, str(target)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "writing"
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert target.read_text() == "the old file\n"
