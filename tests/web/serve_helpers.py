"""A seated svarta-maja event and a test client of ``tourney serve`` on it."""
from __future__ import annotations

import copy
import csv
import io
import re
from contextlib import contextmanager

from conftest import from_snapshot, holds_nothing
from starlette.testclient import TestClient

from tourney.storage.db import open_engine
from tourney.storage.schema import ensure_schema
from tourney.web.app import ServerConfig, create_app

NAMES = ["Anna", "Bo", "Cecilia", "Dag", "Eva", "Frans", "Gun", "Hans",
         "Ida", "Johan", "Karin", "Lars", "Maja", "Nils", "Åsa", "Örjan"]
TOKEN = "organizer-secret"


def seated_event(run, slug="club", lang="sv", tables=2, rounds=3):
    """An event of svarta-maja, round 1 seated at ``tables`` tables of four; its
    tables' links by table. Into an empty database (most tests) it is copied from one
    built once per backend (:func:`from_snapshot`)."""
    def build(_=None):
        names = NAMES[: 4 * tables]
        run("player", "add", *names)
        run("event", "create", slug, "--variant", "svarta-maja", "--rounds", rounds,
            "--table-sizes", "4", "--rule", "deals=3", "--lang", lang)
        run("event", "enter", slug, "--all")
        run("round", "seat", slug)
        return {row["table"]: row for row in
                run("round", "links", slug, "1", "--base-url", "http://testserver",
                    "--json").json["tables"]}

    db_url = getattr(run, "db_url", None)
    if db_url is None or not holds_nothing(db_url):
        return build()
    return copy.deepcopy(from_snapshot(db_url, ("seated_event", slug, lang, tables, rounds),
                                       build))


def client(db_url, **config) -> TestClient:
    engine = open_engine(db_url)
    ensure_schema(engine)
    app = create_app(ServerConfig(engine=engine, secret=TOKEN, **config))
    return TestClient(app, base_url="http://testserver")


def path_of(url: str) -> str:
    return url.replace("http://testserver", "")


def send_csv(web, link: dict, body: str):
    """POST ``body`` as a record CSV to a table link (``round links --json``'s row)."""
    return web.post(path_of(link["url"]), content=body, headers={"Content-Type": "text/csv"})


def marked_english(html: str) -> bool:
    """Whether a page shows something marked as English (``lang="en"``: a detail with
    no words in the page's language), apart from the language links at the top, each
    marked as its own language."""
    shown = re.sub(r'<nav class="langs".*?</nav>', "", html, flags=re.S)
    return re.search(r'\slang="en"', shown) is not None


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def match_csv(run, slug: str, round_number: int, table: str, loser_seat: int = 1,
              deals: int = 3, sheet: str | None = None) -> str:
    """The score sheet of one table filled in: seat ``loser_seat`` (from 0) loses
    every deal. ``sheet``: the round's (`round sheet`), when read already."""
    if sheet is None:
        sheet = run("round", "sheet", slug, round_number).stdout
    rows = list(csv.reader(io.StringIO(sheet)))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(rows[0])
    for row in rows[1:]:
        if row[3] != table or int(row[4]) > deals:
            continue
        scores = ["0"] * len(row[5].split(";"))
        scores[loser_seat] = "1"
        row[11] = ";".join(scores)
        writer.writerow(row)
    return out.getvalue()


def sheet_form(loser_seat: int = 1, deals: int = 3, players: int = 4) -> dict:
    form = {}
    for deal in range(1, deals + 1):
        for seat in range(players):
            form[f"score-{deal}-{seat}"] = "1" if seat == loser_seat else "0"
    return form


# ------------------------------------------------------------------ a live server

class LiveServer:
    """``tourney serve``'s app under uvicorn in a thread, on a loopback port."""

    def __init__(self, db_url: str, forwarded_allow_ips: str | None = None, **config):
        import threading

        from tourney.web.listen import listening_socket, web_server

        engine = open_engine(db_url)
        ensure_schema(engine)
        self.app = create_app(ServerConfig(engine=engine, secret=TOKEN, **config))
        self.sock = listening_socket("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        # as `tourney serve` runs it (the socket's options, the server's limits)
        self.server = web_server(self.app, forwarded_allow_ips=forwarded_allow_ips,
                                 log_level="error")
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> "LiveServer":
        import time

        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def big_event(run, slug: str, tables: int) -> dict[str, dict]:
    """An event of ``tables`` tables of 4 seated for round 1; its links by table."""
    names = [f"Player {i:03d}" for i in range(4 * tables)]
    run("player", "add", *names)
    run("event", "create", slug, "--variant", "svarta-maja", "--rounds", "2",
        "--table-sizes", "4", "--rule", "deals=3", "--seating", "random")
    run("event", "enter", slug, "--all")
    run("round", "seat", slug)
    return {row["table"]: row for row in
            run("round", "links", slug, "1", "--base-url", "http://testserver",
                "--json").json["tables"]}


def post_all(base: str, requests: list[tuple[str, str]], workers: int) -> list:
    """POST each (path, csv) at once from ``workers`` threads; (status, json, seconds)."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    local = threading.local()
    start = threading.Barrier(min(workers, len(requests)))

    def one(item):
        path, body = item
        client = getattr(local, "client", None)
        if client is None:
            client = local.client = httpx.Client(base_url=base, timeout=60)
            try:
                start.wait(10)  # every worker sends its first request together
            except threading.BrokenBarrierError:
                pass
        began = time.perf_counter()
        answer = client.post(path, content=body, headers={"Content-Type": "text/csv"})
        return answer.status_code, answer.json(), time.perf_counter() - began

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(one, requests))


@contextmanager
def serve_workers(db_url: str, workers: int = 2):
    """A real `tourney serve --workers N` (password ``pw``) on a free loopback port,
    once each worker process is up and the server answers: (port, the workers'
    pids, a list to add each connection opened to, closed at the end). Stopped
    with SIGTERM after."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import httpx
    from test_listen import _children

    from tourney.web.listen import listening_socket

    with listening_socket("127.0.0.1", 0) as probe:  # a free port
        port = probe.getsockname()[1]
    env = dict(os.environ, TOURNEY_SERVE_PASSWORD="pw")
    server = subprocess.Popen(
        [sys.executable, "-m", "tourney.cli.main", "serve", "--port", str(port),
         "--workers", str(workers), "--db", db_url], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    opened: list = []
    try:
        deadline = time.monotonic() + 90  # a loaded machine imports slowly
        while True:
            pids = _children(server.pid)
            if len(pids) == workers:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/favicon.ico", timeout=2)
                    break
                except httpx.TransportError:
                    pass
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.1)
        yield port, pids, opened
    finally:
        for sock in opened:
            sock.close()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


def quoted_as(lang: str, param: str) -> str:
    """A value the English words quote ('x') as a page in ``lang`` quotes it (”x” in
    Swedish, «x» in Norwegian: tourney.errors.words.QUOTED); anything else as it is."""
    from tourney.errors.words import QUOTED
    from tourney.reports.i18n import translations

    if len(param) > 1 and param[0] == param[-1] == "'":
        return translations(lang).gettext(QUOTED) % {"text": param[1:-1]}
    return param
