"""Re-publishing after one result when the server keeps the site live (issue 34).

`tourney serve --site DIR` publishes the site by itself after each change, in the
server's own process (tourney/web/live_site.py): the ~0.7 CPU s of a command's
start-up is paid once, at the server's start. This measures that publish: in ONE
process that has already published the league once (as the server has), the CPU
of the live publisher's publish (``tourney.web.app._publish_site``: the server's
settings, one job, replays as the server publishes them) after one table's result
is imported, for several tables in turn; against, in the same run,

- ``cli_full``: a full ``tourney publish --no-replays`` as a command (issue 34's
  full publish: start-up and its worker processes counted), and
- ``server_full``: the live publisher's first publish of the league into an empty
  folder, in this process (one job).

CPU is time.process_time() plus the children's (resource.getrusage
RUSAGE_CHILDREN: the full command, the publish's worker processes if any), taken
around each publish only; each result is imported by a `tourney result import`
process before the publish is measured (its CPU not counted).

Then one more publish with nothing changed (what a check-in sets off).

Usage: python bench/live_publish.py WORK [DB-URL] [--tables 5] [--first 2]
WORK is a folder that `WORK=... bash bench/publish_one_result.sh N [DB-URL]` left
(its r2.csv holds round 2's simulated results; table 1 of it is imported there, so
this imports tables 2, 3, ...; a second run takes --first 7); DB-URL as given to it (default: WORK/l.db).
Writes WORK/live-site (made afresh). Uses .venv/bin/tourney of this checkout.
"""
from __future__ import annotations

import argparse
import csv
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOURNEY = str(HERE.parent / ".venv" / "bin" / "tourney")


def cpu_now() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measured(work):
    """(work's result, its CPU seconds, its wall seconds)."""
    cpu, wall = cpu_now(), time.perf_counter()
    result = work()
    return result, cpu_now() - cpu, time.perf_counter() - wall


def table_file(work: Path, table: str) -> Path:
    """Round 2's table ``table`` of r2.csv as a record file of its own."""
    with open(work / "r2.csv", newline="", encoding="utf-8") as stream:
        rows = list(csv.reader(stream))
    column = rows[0].index("table")
    path = work / f"live-{table}.csv"
    with open(path, "w", newline="", encoding="utf-8") as stream:
        csv.writer(stream).writerows([rows[0]] + [r for r in rows[1:] if r[column] == table])
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work", type=Path)
    parser.add_argument("db", nargs="?")
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--first", type=int, default=2,
                        help="the first table of round 2 to import (an earlier run "
                             "imported 2 to 1 + its --tables)")
    args = parser.parse_args()
    work = args.work.resolve()
    url = args.db or f"sqlite:///{work / 'l.db'}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    cli_site = work / "live-cli-site"
    shutil.rmtree(cli_site, ignore_errors=True)
    _, cli_full, cli_wall = measured(lambda: subprocess.run(
        [TOURNEY, "--db", url, "publish", "--out", str(cli_site), "--no-replays", "--json"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
    shutil.rmtree(cli_site, ignore_errors=True)

    from tourney.storage.db import open_engine
    from tourney.web.app import ServerConfig, _publish_site

    site = work / "live-site"
    shutil.rmtree(site, ignore_errors=True)
    config = ServerConfig(engine=open_engine(url), secret="bench", site_dir=str(site),
                          live_site=True)
    report, server_full, server_wall = measured(lambda: _publish_site(config))
    print(f"cli_full {cli_full:.2f} cpu-s ({cli_wall:.1f} s wall); server_full "
          f"{server_full:.2f} cpu-s ({server_wall:.1f} s wall), {report.pages} pages")
    ones = []
    for number in range(args.first, args.first + args.tables):
        records = table_file(work, str(number))
        subprocess.run([TOURNEY, "--db", url, "result", "import", str(records)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        report, cpu, wall = measured(lambda: _publish_site(config))
        ones.append(cpu)
        print(f"table {number}: {cpu:.3f} cpu-s ({wall:.2f} s wall), rendered "
              f"{report.rendered}, changed {report.changed_files}, jobs {report.jobs}")
    report, same, wall = measured(lambda: _publish_site(config))
    print(f"nothing changed (a check-in): {same:.3f} cpu-s ({wall:.2f} s wall), unchanged "
          f"{report.unchanged}")
    one = statistics.median(ones)
    print(f"median one-result live publish {one:.3f} cpu-s: {one / cli_full:.4f} of "
          f"cli_full, {one / server_full:.4f} of server_full")


if __name__ == "__main__":
    sys.exit(main())
