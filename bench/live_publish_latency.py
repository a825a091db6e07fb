"""What a live publish does to the server's other requests (issue 34): the live
publisher runs in a thread of the server's process, so it shares the interpreter
with the requests. A LiveServer (tests/web/serve_helpers.py: the app under uvicorn in
a thread, as `tourney serve` runs it) with the live site on a league that
bench/live_publish.py left; a trivial request (/favicon.ico: the event loop's answer,
no database) every 10 ms, first idle (100), then while the publish after one more
table's result runs. Prints the milliseconds (median, 95th percentile, largest).

Usage: python bench/live_publish_latency.py WORK DB-URL TABLE
(TABLE: a table of round 2 not imported yet, e.g. 12 after the two runs of
bench/live_publish.py; WORK/live-site is the site it published)
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "web"))
from live_publish import TOURNEY, table_file  # noqa: E402
from serve_helpers import LiveServer  # noqa: E402


def summary(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    return (f"median {statistics.median(ordered) * 1000:.1f} ms, 95% "
            f"{ordered[int(len(ordered) * 0.95)] * 1000:.1f} ms, largest "
            f"{ordered[-1] * 1000:.1f} ms ({len(ordered)} requests)")


def main(work: str, url: str, table: str) -> None:
    records = table_file(Path(work), table)
    with LiveServer(url, site_dir=f"{work}/live-site", live_site=True) as live:
        publisher = live.app.state.server.live_site
        publisher.wait(600)  # the start's publish (nothing changed since the last)
        client = httpx.Client(base_url=live.url)

        def ask() -> float:
            began = time.perf_counter()
            client.get("/favicon.ico")
            spent = time.perf_counter() - began
            time.sleep(0.01)
            return spent

        idle = [ask() for _ in range(100)]
        subprocess.run([TOURNEY, "--db", url, "result", "import", str(records)], check=True,
                       capture_output=True)
        publisher.changed()  # as the server's own import would
        during = []
        while publisher.running:
            during.append(ask())
        print(f"idle: {summary(idle)}")
        print(f"during the publish after one result: {summary(during)}; {publisher.last}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
