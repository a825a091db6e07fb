"""`tourney serve` under concurrent submissions, on SQLite and PostgreSQL: two
phones on one table store one version; 100 tables at once store every result
exactly once; a server killed mid-request leaves the database consistent."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from serve_helpers import (
    LiveServer,
    big_event,
    match_csv,
    path_of,
    post_all,
    seated_event,
    serve_workers,
)
from sqlalchemy import func
from sqlmodel import select

from tourney.storage.db import open_engine, reading
from tourney.storage.models import Match, MatchVersion, Submission

TABLES = 100


def stored_counts(db_url: str) -> tuple[int, int, int]:
    """(matches with a result, versions, accepted submissions)."""
    with reading(open_engine(db_url)) as session:
        matches = session.exec(select(func.count()).select_from(Match)
                               .where(Match.current_version_id.is_not(None))).one()
        versions = session.exec(select(func.count()).select_from(MatchVersion)).one()
        accepted = session.exec(select(func.count()).select_from(Submission)
                                .where(Submission.state == "accepted")).one()
    return matches, versions, accepted


def test_two_phones_on_one_table_store_one_version(tourney, db_url):
    links = seated_event(tourney)
    same = match_csv(tourney, "club", 1, "1")
    other = match_csv(tourney, "club", 1, "1", loser_seat=2)
    path = path_of(links["1"]["url"])
    with LiveServer(db_url, auto_accept=True) as live:
        answers = post_all(live.url, [(path, same), (path, same), (path, other)], workers=3)
    outcomes = sorted(a[1]["outcome"] for a in answers)
    stored = [a for a in answers if a[1]["stored"]]
    assert len(stored) == 1, outcomes
    # the others are told: the same sheet is "unchanged", a different one a conflict
    winner_is_same = stored[0][1]["outcome"] == "stored" and outcomes.count("unchanged") >= 1
    assert winner_is_same or outcomes == ["conflict", "conflict", "stored"], outcomes
    assert stored_counts(db_url) == (1, 1, 1)


def test_one_hundred_tables_at_once_store_every_result_once(tourney, db_url):
    links = big_event(tourney, "big", TABLES)
    assert len(links) == TABLES
    sheet = tourney("round", "sheet", "big", "1").stdout.splitlines()
    header, rows = sheet[0], sheet[1:]
    requests = []
    for table, link in links.items():
        body = header + "\n" + "\n".join(
            r + "0;1;0;0" for r in rows if r.split(",")[3] == table) + "\n"
        requests.append((path_of(link["url"]), body))
    requests += requests[::10]  # ten tables send twice, both at once
    with LiveServer(db_url, auto_accept=True) as live:
        answers = post_all(live.url, requests, workers=TABLES)
    statuses = sorted({a[0] for a in answers})
    assert statuses == [200], [a for a in answers if a[0] != 200][:3]
    outcomes = [a[1]["outcome"] for a in answers]
    assert outcomes.count("stored") == TABLES and outcomes.count("unchanged") == 10
    assert stored_counts(db_url) == (TABLES, TABLES, TABLES)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_server_killed_mid_request_leaves_the_database_consistent(run_cli, db_url):
    links = big_event(lambda *a: run_cli(db_url, *a), "kill", 20)
    sheet = run_cli(db_url, "round", "sheet", "kill", "1").stdout.splitlines()
    port = _free_port()
    env = dict(os.environ, TOURNEY_SERVE_PASSWORD="x")
    server = subprocess.Popen(
        [sys.executable, "-m", "tourney.cli.main", "serve", "--port", str(port),
         "--db", db_url], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90  # a loaded machine imports slowly
        while True:
            try:
                httpx.get(base + "/", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        requests = []
        for table, link in links.items():
            body = sheet[0] + "\n" + "\n".join(
                r + "1;0;0;0" for r in sheet[1:] if r.split(",")[3] == table) + "\n"
            requests.append((path_of(link["url"]), body))
        import threading

        answers = []

        def send():
            answers.extend(_post_quietly(base, requests))

        sender = threading.Thread(target=send)
        sender.start()
        while not answers and sender.is_alive():
            time.sleep(0.005)
        server.send_signal(signal.SIGKILL)  # mid-flight: some requests never answered
        sender.join(30)
    finally:
        server.kill()
        server.wait(10)
    matches, versions, accepted = stored_counts(db_url)
    assert matches == versions == accepted  # every stored result whole, nothing half-done
    assert 0 < matches <= 20
    with reading(open_engine(db_url)) as session:
        for match in session.exec(select(Match)):
            version = session.get(MatchVersion, match.current_version_id)
            assert version is not None and version.deals == 3
    if db_url.startswith("sqlite"):
        import sqlite3

        path = db_url.split("///", 1)[1]
        assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    # what was stored before the kill is stored; what was not can be sent again
    run_cli(db_url, "result", "export", "kill", "--round", "1")


def _post_quietly(base: str, requests):
    from concurrent.futures import ThreadPoolExecutor

    def one(item):
        try:
            return httpx.post(base + item[0], content=item[1],
                              headers={"Content-Type": "text/csv"}, timeout=30).status_code
        except httpx.TransportError:
            return None

    with ThreadPoolExecutor(20) as pool:
        for status in pool.map(one, requests):
            yield status


# ------------------------------------------------- `tourney serve --workers 2`

def _worker_of(connections: list[socket.socket], server_port: int,
               workers: list[int]) -> dict[socket.socket, int]:
    """Which worker process accepted each of ``connections`` (Linux: the server's
    end of a connection is the socket in /proc/net/tcp whose remote port is the
    client's; its inode is among that worker's open files). Waits until each is
    accepted (the worker's accept runs in its event loop, a moment later)."""
    wanted = {sock.getsockname()[1]: sock for sock in connections}
    deadline = time.monotonic() + 30
    while True:
        inodes = {}
        with open("/proc/net/tcp", encoding="ascii") as table:
            for line in table.readlines()[1:]:
                fields = line.split()
                local_port = int(fields[1].split(":")[1], 16)
                remote_port = int(fields[2].split(":")[1], 16)
                if local_port == server_port and remote_port in wanted:
                    inodes[f"socket:[{fields[9]}]"] = wanted[remote_port]
        owner = {}
        for pid in workers:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target in inodes:
                    owner[inodes[target]] = pid
        if len(owner) == len(connections):
            return owner
        assert time.monotonic() < deadline, "the workers did not accept every connection"
        time.sleep(0.05)


def _exchange(sock: socket.socket, request: bytes) -> tuple[int, bytes]:
    """Send ``request`` (``Connection: close``) and read the whole answer."""
    sock.sendall(request)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_two_workers_take_both_phones_of_each_table_at_once(run_cli, db_url):
    """`tourney serve --workers 2` on PostgreSQL: the two phones of every table send
    the same result at once, each to another worker process (batches of the two
    processes write side by side, and may deadlock on each other's links: retried,
    never answered as an error). Each result is stored once, one phone is told
    `stored` and the other `unchanged`, and both workers' live standings say so."""
    import json
    from concurrent.futures import ThreadPoolExecutor


    if db_url.startswith("sqlite"):
        refused = run_cli(db_url, "serve", "--workers", "2", "--port", "0", exit_code=2)
        assert "--workers needs a PostgreSQL database" in refused.stderr
        return
    tables = 20
    links = big_event(lambda *a: run_cli(db_url, *a), "two", tables)
    sheet = run_cli(db_url, "round", "sheet", "two", "1").stdout.splitlines()
    bodies = {table: (sheet[0] + "\n" + "\n".join(
        r + "0;1;0;0" for r in sheet[1:] if r.split(",")[3] == table) + "\n").encode()
        for table in links}
    with serve_workers(db_url) as (port, workers, opened):
        # Connections until each worker holds one for every table (the processes
        # take turns accepting as the kernel wakes them); each later sends one
        # request, which must begin within the server's 10 s for a request's head
        # (HEADER_SECONDS): gathered again if a loaded machine took 5 s for it.
        for _attempt in range(3):
            began = time.monotonic()
            by_worker: dict[int, list[socket.socket]] = {pid: [] for pid in workers}
            while min(len(held) for held in by_worker.values()) < tables:
                batch = [socket.create_connection(("127.0.0.1", port)) for _ in range(tables)]
                opened += batch
                for sock, pid in _worker_of(batch, port, workers).items():
                    by_worker[pid].append(sock)
                assert len(opened) <= 60 * tables, {p: len(s) for p, s in by_worker.items()}
            if time.monotonic() - began < 5:
                break
        first, second = by_worker.values()
        exchanges = []
        for index, (table, link) in enumerate(sorted(links.items())):
            path = path_of(link["url"])
            request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                       "Content-Type: text/csv\r\nConnection: close\r\n"
                       f"Content-Length: {len(bodies[table])}\r\n\r\n").encode() + bodies[table]
            exchanges += [(table, first[index], request), (table, second[index], request)]
        with ThreadPoolExecutor(len(exchanges)) as pool:
            answers = list(pool.map(lambda e: (e[0], *_exchange(e[1], e[2])), exchanges))
        outcomes: dict[str, list[str]] = {}
        for table, status, body in answers:
            assert status == 200, (table, status, body[:300])
            outcomes.setdefault(table, []).append(json.loads(body)["outcome"])
        assert {t: sorted(o) for t, o in outcomes.items()} == {
            table: ["stored", "unchanged"] for table in links}
        assert stored_counts(db_url) == (tables, tables, tables)
        # the live standings, asked of each worker, count every table's result
        standings = []
        request = (f"GET /api/events/two/standings HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   "Connection: close\r\n\r\n").encode()
        for pid in workers:
            while True:  # a new connection, until this worker accepts one
                sock = socket.create_connection(("127.0.0.1", port))
                opened.append(sock)
                if _worker_of([sock], port, workers)[sock] == pid:
                    break
                assert len(opened) <= 30 * tables, "one worker accepts no connection"
            status, body = _exchange(sock, request)
            assert status == 200
            standings.append(json.loads(body)["standings"])
        assert standings[0] == standings[1]
        assert sum(row["matches"] for row in standings[0]) == 4 * tables
