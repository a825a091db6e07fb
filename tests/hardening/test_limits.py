"""Oversized input is refused in bounded time and memory, with a message.

Each case runs ``tourney validate`` in a subprocess and measures the child's wall
time and peak resident memory (``os.wait4``); the bounds are generous (10 s,
500 MB: an unbounded reader holding a 100 MB row as Python strings exceeds them
or comes close) and some cases are sized so that the pre-hardening reader failed
them. Messages must be one ``Error:`` line or per-row errors, never a traceback.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from fuzz_support import samples, to_csv

from tourney.records.csv_format import (
    COLUMNS,
    MAX_FIELD_CHARS,
    MAX_LINE_BYTES,
    MAX_RECORD_CHARS,
    MAX_TOKEN_CHARS,
    MAX_TOKENS,
)
from tourney.records.validation import MAX_DEALS_PER_MATCH

# A refusal must not hang or crawl: a child still running after this long fails
# the test. A bound, not a timing (timings are the benchmarks'; a loaded machine
# took 13 s over a 10 s wall bound that once stood here).
HANG_SECONDS = 300
MAX_RSS_MB = 500
HEADER = "round,table,deal,players,play"


@dataclass
class Measured:
    exit_code: int
    stdout: str
    stderr: str
    seconds: float
    rss_mb: float


# The child reports its own peak RSS (VmHWM) at exit. getrusage's ru_maxrss is no
# good here: Linux carries the high-water mark across exec, so a child forked from
# a test process holding a 100 MB test file would report the parent's memory.
CHILD = """
import atexit, os
def _report_peak():
    with open("/proc/self/status") as status:
        peak = next(l for l in status if l.startswith("VmHWM:")).split()[1]
    with open(os.environ["PEAK_RSS_FILE"], "w") as out:
        out.write(peak)
atexit.register(_report_peak)
from tourney.cli.main import main
main()
"""


def run_measured(tmp_path: Path, *args: str) -> Measured:
    """``tourney ARGS`` in a child process: exit code, output, wall time, peak RSS."""
    out, err, peak = tmp_path / "stdout", tmp_path / "stderr", tmp_path / "peak"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        started = time.monotonic()
        child = subprocess.run([sys.executable, "-c", CHILD, *args], stdout=stdout,
                               stderr=stderr, cwd=tmp_path, timeout=HANG_SECONDS,
                               env={**os.environ, "PEAK_RSS_FILE": str(peak)})
        seconds = time.monotonic() - started
    return Measured(child.returncode, out.read_text(errors="replace"),
                    err.read_text(errors="replace"), seconds, int(peak.read_text()) / 1024)


def assert_refused(run: Measured, *phrases: str, exit_code: int = 1) -> None:
    assert run.exit_code == exit_code, (run.exit_code, run.stderr[-2000:])
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    text = run.stdout + run.stderr
    for phrase in phrases:
        assert phrase in text, (phrase, text[:2000])
    assert len(text) < 20_000, "the refusal must not echo the input"
    assert run.rss_mb < MAX_RSS_MB, run.rss_mb


def write(tmp_path: Path, name: str, *parts: bytes | str) -> str:
    path = tmp_path / name
    with open(path, "wb") as stream:
        for part in parts:
            stream.write(part.encode() if isinstance(part, str) else part)
    return str(path)


# ------------------------------------------------------------------- the cases

def test_a_header_of_a_million_columns(tmp_path):
    path = write(tmp_path, "wide-header.csv", HEADER, ",scores" * 1_000_000, "\n1,1,1,a;b,S0\n")
    assert_refused(run_measured(tmp_path, "validate", path, "--variant", "kortrad"),
                   "line 1", f"line longer than {MAX_LINE_BYTES // 1024} kB", exit_code=2)


def test_a_header_of_a_million_empty_columns_within_the_line_limit(tmp_path):
    # The trailing empty columns of a spreadsheet are no columns: what is left lacks
    # the required ones.
    path = write(tmp_path, "empty-header.csv", "round" + "," * 1_000_000, "\n")
    assert_refused(run_measured(tmp_path, "validate", path, "--variant", "kortrad"),
                   "line 1", "missing required columns", exit_code=2)


def test_a_row_of_a_million_columns(tmp_path):
    path = write(tmp_path, "wide-row.csv", HEADER, "\n1,1,1,a;b,S0", "," * 1_000_000, "\n")
    assert_refused(run_measured(tmp_path, "validate", path, "--variant", "kortrad"),
                   "line 2", "1000005 fields where the header has 5")


def test_a_row_of_100_mb_on_one_line(tmp_path):
    path = write(tmp_path, "long-row.csv", HEADER, "\n1,1,1,a;b,", b"S0 " * 35_000_000, "\n")
    assert_refused(run_measured(tmp_path, "validate", path, "--variant", "kortrad"),
                   "line 2", f"line longer than {MAX_LINE_BYTES // 1024} kB", exit_code=2)


def test_a_row_of_100_mb_of_short_quoted_multiline_fields(tmp_path):
    """Every line is short, every field under the field limit: only a bound on the
    whole record stops the csv module gathering 100 MB (it did: 174 MB peak)."""
    field = b'"' + b"a" * 60_000 + b"\n" + b"a" * 100 + b'"'
    path = write(tmp_path, "multiline-row.csv", HEADER, "\n", b",".join([field] * 1700), "\n")
    assert_refused(run_measured(tmp_path, "validate", path, "--variant", "kortrad"),
                   "line 2", f"a record longer than {MAX_RECORD_CHARS // 1024} kB",
                   exit_code=2)


def test_a_deal_of_10000_moves(tmp_path):
    path = write(tmp_path, "many-moves.csv", HEADER, "\n1,1,1,a;b,", "S0 " * 10_000, "\n")
    run = run_measured(tmp_path, "validate", path, "--variant", "kortrad")
    assert_refused(run, "line 2", "play", f"10000 moves in one deal; more than any deal "
                                          f"can have ({MAX_TOKENS})")


def test_a_single_field_of_50_mb_on_one_line(tmp_path):
    path = write(tmp_path, "big-field.csv", HEADER, '\n1,1,1,a;b,"', b"x" * 50_000_000, '"\n')
    assert_refused(run_measured(tmp_path, "validate", path, "--variant", "kortrad"),
                   "line 2", f"line longer than {MAX_LINE_BYTES // 1024} kB", exit_code=2)


def test_a_single_field_of_50_mb_over_many_lines(tmp_path):
    path = write(tmp_path, "big-field-lines.csv", HEADER, '\n1,1,1,a;b,"',
                 (b"x" * 1000 + b"\n") * 50_000, '"\n')
    assert_refused(run_measured(tmp_path, "validate", path, "--variant", "kortrad"),
                   "line 2", f"field larger than field limit ({MAX_FIELD_CHARS})",
                   exit_code=2)


def test_a_move_token_of_60000_characters(tmp_path):
    """Within the field limit, but no move is that long: refused by the reader
    before an engine parses it (kortrad's int() crashed on 4300+ digits)."""
    path = write(tmp_path, "long-token.csv", HEADER, "\n1,1,1,a;b,S", "9" * 60_000, "\n")
    assert_refused(run_measured(tmp_path, "validate", path, "--variant", "kortrad"),
                   "line 2, play, move 1", f"no move is longer than {MAX_TOKEN_CHARS}")


def test_an_endless_match_is_cut_off_and_memory_stays_flat(tmp_path):
    """30,000 deals of one match: the checker held every deal of an open match
    (7 kB each, 300 MB here); now it holds at most MAX_DEALS_PER_MATCH."""
    sample = next(s for s in samples("kortrad") if len(s.records[0].players) == 2)
    lines = to_csv(sample.records[:1], "kortrad").splitlines()
    header, row = lines[0], next(csv.reader([lines[1]]))
    deal = COLUMNS.index("deal")
    path = tmp_path / "endless.csv"
    with open(path, "w", newline="") as stream:
        stream.write(header + "\n")
        writer = csv.writer(stream, lineterminator="\n")
        for number in range(1, 30_001):
            row[deal] = str(number)
            writer.writerow(row)
    run = run_measured(tmp_path, "validate", str(path), "--rule", "row=6")
    assert run.exit_code == 1 and "Traceback" not in run.stderr
    assert f"has more than {MAX_DEALS_PER_MATCH} deals; no match is that long" in run.stdout
    assert "30000 deals in 1 match:" in run.stderr
    assert run.rss_mb < 200, run.rss_mb


@pytest.mark.parametrize("data, phrase", [
    ("round,table\n".encode("utf-16-le"), "UTF-16 without a byte-order mark"),
    (b"round,table,deal,players,play\n1,1,1,a\x00;b,S0\n", "line 2, players: a NUL byte"),
    (b"round,table,deal,players,play\n2147483648,1,1,a;b,S0\n", "round must be at most"),
    (b"round,table,deal,players,play\r\n\"1,1,1,a;b,S0\r\n", "not valid CSV"),
])
def test_small_hostile_files_get_a_message(tmp_path, data, phrase):
    path = write(tmp_path, "small.csv", data)
    run = run_measured(tmp_path, "validate", path)
    assert run.exit_code in (1, 2) and "Traceback" not in run.stderr
    assert phrase in run.stdout + run.stderr
