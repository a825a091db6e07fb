"""Peak memory of the readers on hostile files (issue 30): every command stays under
~200 MB whatever the input, refusing what passes a limit with a clear error.

Each file is made in a temporary folder and given to `tourney validate` (and, for the
CSV, `tourney result import`) in a process of its own; the peak resident memory is
that process's (measured by a small parent that reports ``RUSAGE_CHILDREN``), the
seconds its wall time. A baseline row, a small valid file, gives the floor (Python,
tourney and openpyxl loaded).

Usage:  python bench/bench_memory.py [--quick]
Prints a Markdown table (for bench/RESULTS.md) and writes bench/out/bench_memory.md.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hostile_files as hostile

OUT = Path(__file__).resolve().parent / "out" / "bench_memory.md"
MEASURE = ("import resource, subprocess, sys; "
           "code = subprocess.call([sys.executable, '-c', "
           "'from tourney.cli.main import main; main()', *sys.argv[2:]], "
           "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
           "open(sys.argv[1], 'w').write(str(resource.getrusage("
           "resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(code)")


def measure(folder: Path, *args) -> tuple[float, float, int]:
    peak = folder / "peak.txt"
    started = time.perf_counter()
    code = subprocess.call([sys.executable, "-c", MEASURE, str(peak), *map(str, args)],
                           cwd=folder)
    return time.perf_counter() - started, int(peak.read_text()) / 1024, code


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Smaller files.")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1
    rows = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db = folder / "t.db"
        subprocess.check_call([sys.executable, "-c", "from tourney.cli.main import main; main()",
                               "db", "init", "--db", str(db)], stderr=subprocess.DEVNULL)
        cases = [
            ("baseline: a valid 1-row workbook", "validate",
             lambda: hostile.workbook(folder / "small.xlsx", [hostile.plain_rows(1)])),
            (f"XLSX, {1_000_000 // scale:,} cells in one row", "validate",
             lambda: hostile.workbook(folder / "wide.xlsx",
                                      [hostile.wide_row(1_000_000 // scale)])),
            (f"XLSX, {3_000_000 // scale:,} cells in one row", "validate",
             lambda: hostile.workbook(folder / "wider.xlsx",
                                      [hostile.wide_row(3_000_000 // scale)])),
            (f"XLSX, {200_000 // scale:,} rows of 12 cells", "validate",
             lambda: hostile.workbook(folder / "tall.xlsx",
                                      [hostile.plain_rows(200_000 // scale)])),
            ("XLSX, 20 sheets of a 100,000-cell row", "validate",
             lambda: hostile.workbook(folder / "sheets.xlsx",
                                      [hostile.wide_row(100_000)] * 20)),
            ("XLSX, a 100 MB shared-strings table", "validate",
             lambda: hostile.workbook(folder / "strings.xlsx", [hostile.plain_rows(1)],
                                      shared_strings=hostile.many_strings(100))),
            (f"CSV, {1_000_000 // scale:,} garbage rows", "validate",
             lambda: hostile.garbage_csv(folder / "garbage.csv", 1_000_000 // scale)),
            (f"CSV, {1_000_000 // scale:,} garbage rows, --json --jobs 1", "validate-json",
             lambda: folder / "garbage.csv"),
            (f"CSV, {1_000_000 // scale:,} garbage rows", "import",
             lambda: folder / "garbage.csv"),
        ]
        for label, command, make in cases:
            path = make()
            size = path.stat().st_size
            if command == "validate":
                argv = ["validate", path]
            elif command == "validate-json":
                argv = ["validate", path, "--json", "--jobs", "1"]
            else:
                argv = ["result", "import", path, "--db", db]
            seconds, peak, code = measure(folder, *argv)
            shown = " ".join(str(a) if not isinstance(a, Path) else a.name for a in argv)
            rows.append((label, size, shown, seconds, peak, code))
            print(f"{label}: {peak:.0f} MB, {seconds:.1f} s, exit {code}", flush=True)
    lines = ["| file | bytes on disk | command | seconds | peak RSS | exit |",
             "|---|---:|---|---:|---:|---:|"]
    lines += [f"| {label} | {size:,} | `tourney {shown}` | {seconds:.1f} | {peak:.0f} MB | "
              f"{code} |" for label, size, shown, seconds, peak, code in rows]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
