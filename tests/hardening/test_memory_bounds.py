"""No input takes a command past ~200 MB: a row of a million cells, a strings table
of a hundred MB, a million one-row "matches". Each is refused with a clear error
(or read in bounded memory), measured as the peak resident memory of the command's
own process (os.wait4). bench/bench_memory.py runs the same files at full size."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import hostile_files as hostile  # noqa: E402

LIMIT_MB = 200


# The command runs as the child of a small process that reports the child's peak:
# a child forked straight from this (big) test process would count the pages it
# shared with it at the fork (ru_maxrss is kept across exec).
_MEASURE = ("import resource, subprocess, sys; "
            "code = subprocess.call([sys.executable, '-c', "
            "'from tourney.cli.main import main; main()', *sys.argv[2:]]); "
            "open(sys.argv[1], 'w').write(str(resource.getrusage("
            "resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(code)")


def run(*args, cwd: Path) -> tuple[int, str, float]:
    """``tourney ARGS`` in a process of its own: exit code, stderr, peak RSS in MB."""
    peak = cwd / "peak.txt"
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(peak), *map(str, args)],
                          cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, timeout=600)
    return done.returncode, done.stderr, int(peak.read_text()) / 1024


def test_a_row_of_three_hundred_thousand_cells_is_refused_cheaply(tmp_path):
    book = hostile.workbook(tmp_path / "wide.xlsx", [hostile.wide_row(300_000)])
    code, said, peak = run("validate", book, cwd=tmp_path)
    assert code == 2 and "row 2 of the workbook's sheet1 has more than 16384 cells" in said
    assert peak < LIMIT_MB, peak


def test_a_strings_table_past_its_limit_is_refused_before_it_is_read(tmp_path):
    book = hostile.workbook(tmp_path / "strings.xlsx", [hostile.plain_rows(1)],
                            shared_strings=hostile.many_strings(70))
    code, said, peak = run("validate", book, cwd=tmp_path)
    assert code == 2 and "text cells take more than 64 MB" in said
    assert peak < LIMIT_MB, peak


@pytest.mark.parametrize("args", [["validate", "--jobs", "1", "--json"], ["validate"],
                                  ["result", "import"]])
def test_a_file_of_garbage_rows_stops_at_the_match_limit(tmp_path, args):
    garbage = hostile.garbage_csv(tmp_path / "garbage.csv", 201_000)
    if args[0] == "result":
        run("db", "init", "--db", tmp_path / "t.db", cwd=tmp_path)
    code, said, peak = run(*args, garbage, "--db", tmp_path / "t.db", cwd=tmp_path)
    assert code == 2, said
    assert "more than 200000 matches in one file" in said
    assert peak < LIMIT_MB, peak


def test_a_tall_workbook_is_read_row_by_row(tmp_path):
    book = hostile.workbook(tmp_path / "tall.xlsx", [hostile.plain_rows(20_000)])
    code, said, peak = run("validate", book, "--json", cwd=tmp_path)
    assert code == 1 and "20000 deals" in said  # every row read (and refused: no game)
    assert peak < LIMIT_MB, peak
