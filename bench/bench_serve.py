"""`tourney serve` under load: every table of a big round sends its result at once.

Usage:  python bench/bench_serve.py [--quick] [--tables N] [--sends K] [--postgres URL]
                                   [--workers N] [--runs R]

For each database (a scratch SQLite file; with ``--postgres URL``, a scratch
database ``tourney_bench_serve_<pid>`` created on that PostgreSQL server, and
dropped after; the URL names any database there to connect to) an event of N tables of 4 (svarta-maja, 3 deals a match,
score sheets) is seated, and ``tourney serve`` is started as a process of its own
on a loopback port. Then all N tables send their match as ``text/csv`` to their
links at once, each K times (the repeats are "unchanged": two phones of one table),
each send from a connection of its own, opened before the first is sent (asyncio on
plain sockets: a light load generator, so the machine's cores go to the server).
Measured: requests, errors (any answer other than stored/unchanged), latency
p50/p99/max and throughput, and the server's CPU seconds for the burst (its
processes' user and system time from ``/proc``, read just before the first send and
just after the last answer: the figure a loaded machine changes least). Checked:
every result stored exactly once (N matches, N versions, N accepted submissions).

``--workers N`` starts ``tourney serve --workers N`` (PostgreSQL only: the SQLite
row is then skipped); the sends of a table may then reach different processes
(each accepts connections from the one socket). ``--runs R`` measures R times (a fresh database each), a row each.

Baseline in the same run: the same submissions of a second, identical event
through ``tourney.app.tables.submit`` in this process, one transaction each, one
after the other (no HTTP, no concurrency): what the server's requests cost at
least. server/baseline compares the throughputs.

Loopback only; bounded: N <= 1000, K <= 5, and every request times out after 120 s.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from click.testing import CliRunner
from sqlalchemy import func
from sqlmodel import select

from tourney.app import tables
from tourney.cli.main import cli
from tourney.storage.db import dispose_engines, open_engine, reading, transaction
from tourney.storage.models import Match, MatchVersion, Submission
from tourney.tournament import table_links

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"


def run(db_url: str, *args) -> str:
    result = CliRunner().invoke(cli, [*map(str, args), "--db", db_url],
                                catch_exceptions=False)
    if result.exit_code != 0:
        raise SystemExit(f"tourney {' '.join(map(str, args))}: {result.stderr}")
    return result.stdout


def seat_event(db_url: str, slug: str, tables_count: int, first: int) -> list[tuple[str, str]]:
    """An event of ``tables_count`` tables seated; (link token, match CSV) per table."""
    import json

    names = [f"Player {slug} {i:04d}" for i in range(first, first + 4 * tables_count)]
    run(db_url, "player", "add", *names)
    run(db_url, "event", "create", slug, "--variant", "svarta-maja", "--rounds", "2",
        "--table-sizes", "4", "--rule", "deals=3", "--seating", "random")
    run(db_url, "event", "enter", slug, *names)
    run(db_url, "round", "seat", slug)
    links = json.loads(run(db_url, "round", "links", slug, "1", "--base-url", "http://x",
                           "--json"))["tables"]
    sheet = run(db_url, "round", "sheet", slug, "1").splitlines()
    bodies = {}
    for row in sheet[1:]:
        table = row.split(",")[3]
        bodies.setdefault(table, [sheet[0]]).append(row + "0;1;0;0")
    return [(link["url"].rsplit("/", 1)[1], "\n".join(bodies[link["table"]]) + "\n")
            for link in links]


def counts(db_url: str, slug: str) -> tuple[int, int, int]:
    from tourney.storage.models import Event, TableLink

    with reading(open_engine(db_url)) as session:
        event_id = session.exec(select(Event.id).where(Event.slug == slug)).one()
        matches = session.exec(select(func.count()).select_from(Match).where(
            Match.event_id == event_id, Match.current_version_id.is_not(None))).one()
        versions = session.exec(select(func.count()).select_from(MatchVersion).join(
            Match, Match.id == MatchVersion.match_id).where(Match.event_id == event_id)).one()
        accepted = session.exec(select(func.count()).select_from(Submission).join(
            TableLink, TableLink.id == Submission.link_id).where(
            TableLink.event_id == event_id, Submission.state == "accepted")).one()
    return matches, versions, accepted


def baseline(db_url: str, work: list[tuple[str, str]]) -> float:
    """Seconds for the submissions in-process, one transaction each."""
    engine = open_engine(db_url)
    started = time.perf_counter()
    for token, body in work:
        with transaction(engine) as session:
            link = table_links.link_by_token(session, token)
            verdict = tables.submit(session, link, body, auto_accept=True)
            assert verdict.outcome in ("stored", "unchanged"), verdict.to_json()
    return time.perf_counter() - started


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(db_url: str, workers: int = 1) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ, TOURNEY_SERVE_PASSWORD="bench")
    process = subprocess.Popen(
        [sys.executable, "-m", "tourney.cli.main", "serve", "--port", str(port),
         "--workers", str(workers), "--db", db_url],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            httpx.get(base + "/favicon.ico", timeout=2)
            # every worker up: each is a child of the server's process
            if workers == 1 or len(children(process.pid)) >= workers:
                return process, base
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the server did not start: "
                             + process.stderr.read().decode(errors="replace"))
        time.sleep(0.1)


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and fields[1] == str(pid) and fields[0] != "Z":
                found.append(int(entry))
    return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of ``pid`` and its live children (the workers)."""
    total = 0
    for each in (pid, *children(pid)):
        fields = _stat(each)
        if fields is not None:
            total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


def load(base: str, work: list[tuple[str, str]], clients: int) -> tuple[list, float]:
    """Send everything at once, each request from a connection of its own (a phone
    each), opened before the first is sent; [(status, outcome, seconds)] and the
    wall time. The client is asyncio on plain sockets, one thread: a load
    generator light enough (as wrk or ab are) that the 2 cores of this machine go
    to the server, not to 100 threads of an HTTP library (``clients`` is kept for
    the report: the requests in flight at once are ``len(work)``)."""
    import asyncio
    import json as json_module
    from urllib.parse import urlsplit

    address = urlsplit(base)

    def request(token: str, body: str) -> bytes:
        data = body.encode()
        return (f"POST /t/{token} HTTP/1.1\r\nHost: {address.netloc}\r\n"
                f"Content-Type: text/csv\r\nContent-Length: {len(data)}\r\n"
                "Connection: close\r\n\r\n").encode() + data

    async def one(connection, payload, gate):
        reader, writer = connection
        await gate.wait()
        began = time.perf_counter()
        try:
            writer.write(payload)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 120)
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            length = next((int(line.split(":", 1)[1]) for line in lines[1:]
                           if line.lower().startswith("content-length:")), None)
            data = await (reader.readexactly(length) if length is not None else reader.read())
            outcome = json_module.loads(data).get("outcome")
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as err:
            status, outcome = None, type(err).__name__
        seconds = time.perf_counter() - began
        writer.close()
        return status, outcome, seconds

    async def everything():
        gate = asyncio.Event()
        connections = [await asyncio.open_connection(address.hostname, address.port)
                       for _ in work]
        tasks = [asyncio.create_task(one(connection, request(token, body), gate))
                 for connection, (token, body) in zip(connections, work)]
        started = time.perf_counter()
        gate.set()
        answers = await asyncio.gather(*tasks)
        return answers, time.perf_counter() - started

    return asyncio.run(everything())


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


@contextlib.contextmanager
def scratch_postgres(url: str):
    """A scratch database on the PostgreSQL server of ``url``: its URL; dropped after."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    server = make_url(url)
    name = f"tourney_bench_serve_{os.getpid()}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    drop = text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    with admin.connect() as connection:
        connection.execute(drop)
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        dispose_engines()
        with admin.connect() as connection:
            connection.execute(drop)
        admin.dispose()


def measure(label: str, db_url: str, tables_count: int, sends: int,
            workers: int = 1) -> list[str]:
    server_work = seat_event(db_url, "served", tables_count, 0)
    direct_work = seat_event(db_url, "direct", tables_count, 10_000)
    repeat = lambda work: [item for _ in range(sends) for item in work]  # noqa: E731
    direct_seconds = baseline(db_url, repeat(direct_work))
    process, base = start_server(db_url, workers)
    try:
        load_average = os.getloadavg()[0]
        cpu_before = cpu_seconds(process.pid)
        answers, wall = load(base, repeat(server_work), clients=tables_count)
        cpu = cpu_seconds(process.pid) - cpu_before
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
    latencies = [a[2] * 1000 for a in answers]
    errors = [a for a in answers if a[0] != 200 or a[1] not in ("stored", "unchanged")]
    stored = sum(1 for a in answers if a[1] == "stored")
    once = counts(db_url, "served")
    requests = len(answers)
    server_rate = requests / wall
    direct_rate = requests / direct_seconds
    return [
        f"| {label} | {workers} | {tables_count} | {requests} | {len(errors)} | {stored} | "
        f"{min(latencies):.0f} | "
        f"{percentile(latencies, 0.5):.0f} | {percentile(latencies, 0.99):.0f} | "
        f"{max(latencies):.0f} | {server_rate:.1f} | {direct_rate:.1f} | "
        f"{server_rate / direct_rate:.2f} | {cpu:.2f} | {load_average:.1f} | "
        f"{'yes' if once == (tables_count,) * 3 else f'NO {once}'} | "
        f"{', '.join(sorted({f'{a[0]} {a[1]}' for a in errors})) or '-'} |"
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 tables, each sends twice")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--sends", type=int, default=2)
    parser.add_argument("--postgres", metavar="URL",
                        help="a PostgreSQL server to measure on too (a scratch database is "
                        "made there), e.g. postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--workers", type=int, default=1,
                        help="tourney serve --workers N (above 1: PostgreSQL only)")
    parser.add_argument("--runs", type=int, default=1, help="measure R times (at most 10)")
    args = parser.parse_args(argv)
    tables_count = 100 if args.quick else max(1, min(args.tables, 1000))
    sends = 2 if args.quick else max(1, min(args.sends, 5))
    workers = max(1, min(args.workers, 8))
    if workers > 1 and not args.postgres:
        parser.error("--workers above 1 needs --postgres URL (tourney serve refuses it on SQLite)")
    rows = []
    folder = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    try:
        for run_number in range(max(1, min(args.runs, 10))):
            if workers == 1:
                rows += measure("SQLite", f"sqlite:///{folder / f'serve-{run_number}.db'}",
                                tables_count, sends)
            if args.postgres:
                with scratch_postgres(args.postgres) as url:
                    rows += measure("PostgreSQL", url, tables_count, sends, workers)
    finally:
        dispose_engines()
        shutil.rmtree(folder, ignore_errors=True)
    lines = [
        "### tourney serve: every table sends at once",
        "",
        f"{tables_count} tables of 4 (svarta-maja score sheets, 3 deals), each sending "
        f"its match {sends} time(s), all at once, each send on a connection of its own, to "
        "`tourney serve` on loopback (a process of its own). Baseline: the same "
        "submissions through `tourney.app.tables.submit` in-process, one after the other. "
        "Server CPU s: the server's processes' CPU time during the burst; load: the "
        "1-minute load average at its start.",
        "",
        "| database | workers | tables | requests | errors | stored | min ms | p50 ms | p99 ms | "
        "max ms | server req/s | baseline req/s | server/baseline | server CPU s | load | "
        "each result stored once | errors seen |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
        *rows,
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    OUT.mkdir(exist_ok=True)
    (OUT / "bench_serve.md").write_text(text, encoding="utf-8")
    print(f"written to {OUT / 'bench_serve.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
