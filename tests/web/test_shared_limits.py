"""The failure limits and the logouts of `tourney serve` shared by every process
of `--workers N` (through the database): the store alone (window, bounds, an
injected clock), two servers on one database as two processes, and a real
`tourney serve --workers 2` on PostgreSQL."""
from __future__ import annotations

import asyncio
import socket
from contextlib import contextmanager
from urllib.parse import urlencode

import pytest
from serve_helpers import (
    TOKEN,
    client,
    csrf_of,
    match_csv,
    path_of,
    seated_event,
    send_csv,
    serve_workers,
)
from sqlalchemy import event
from sqlmodel import select

from tourney.storage.db import open_engine, reading
from tourney.storage.models import ServeFailure
from tourney.web.security import (
    DatabaseFailures,
    DatabaseRevocations,
    FailureLimit,
    MemoryFailures,
    MemoryRevocations,
    Sessions,
)


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def _stores(kind: str, db_url: str):
    """Two stores as two processes have them: the database's are one count, the
    memory's one each."""
    if kind == "memory":
        return MemoryFailures(), MemoryFailures()
    engine = open_engine(db_url)
    return DatabaseFailures(engine, "link"), DatabaseFailures(open_engine(db_url), "link")


@pytest.mark.parametrize("kind", ["memory", "database"])
def test_failures_are_limited_in_a_sliding_window(db_url, kind):
    clock = Clock()
    limit = FailureLimit(3, 60, clock=clock, store=_stores(kind, db_url)[0])
    for _ in range(3):
        assert limit.fail("10.0.0.1") == 0
        clock.now += 1
    # the 4th failure within the window is refused until the 1st has left it
    assert limit.fail("10.0.0.1") == 58
    assert limit.fail("10.0.0.2") == 0  # another address counts alone
    clock.now += 58  # the 1st (at 0) has left the window: the 2nd to 4th are in it
    assert limit.fail("10.0.0.1") == 0
    clock.now += 0.5  # a failure while limited counts too: a guesser stays limited
    assert limit.fail("10.0.0.1") == 1
    clock.now += 60  # all but the last have left the window
    assert limit.fail("10.0.0.1") == 0


def test_two_processes_count_together_in_the_database(db_url):
    clock = Clock()
    first, second = (FailureLimit(4, 60, clock=clock, store=store)
                     for store in _stores("database", db_url))
    waits = [(first if i % 2 else second).fail("10.0.0.1") for i in range(6)]
    assert waits == [0, 0, 0, 0, 61, 61]
    # memory stores count alone: each lets its own four through
    first, second = (FailureLimit(4, 60, clock=clock, store=store)
                     for store in _stores("memory", db_url))
    assert [(first if i % 2 else second).fail("10.0.0.1") for i in range(6)] == [0] * 6


def test_a_key_keeps_at_most_the_limit_of_failure_times(db_url):
    clock = Clock()
    limit = FailureLimit(3, 60, clock=clock, store=DatabaseFailures(open_engine(db_url), "login"))
    for _ in range(50):
        limit.fail("10.0.0.1")
        clock.now += 0.5
    with reading(open_engine(db_url)) as session:
        (row,) = session.exec(select(ServeFailure)).all()
    assert (row.scope, row.key, len(row.times.split())) == ("login", "10.0.0.1", 3)
    assert float(row.times.split()[-1]) == row.last_at == clock.now - 0.5


@pytest.mark.parametrize("kind", ["memory", "database"])
def test_a_flood_of_addresses_is_bounded(db_url, kind):
    """At most ``cap`` addresses are remembered: a new one first forgets those whose
    failures have left the window, then the longest quiet."""
    clock = Clock()
    store = (MemoryFailures(limit=5) if kind == "memory"
             else DatabaseFailures(open_engine(db_url), "link", limit=5))
    limit = FailureLimit(2, 60, clock=clock, store=store)
    for key in range(8):
        limit.fail(f"10.0.0.{key}")
        limit.fail(f"10.0.0.{key}")  # each is at its limit
        clock.now += 1
    assert len(store) == 5
    assert limit.fail("10.0.0.7") > 0  # the newest are remembered (and limited)
    assert limit.fail("10.0.0.0") == 0  # the quietest was forgotten: counts afresh
    clock.now += 120
    limit.fail("10.0.0.99")  # everything else has left the window
    assert len(store) == 1
    if kind == "database":
        other = DatabaseFailures(open_engine(db_url), "login", limit=5)
        FailureLimit(2, 60, clock=clock, store=other).fail("10.0.0.99")
        assert (len(store), len(other)) == (1, 1)  # each limit is bounded alone


def test_a_key_longer_than_any_address_is_cut(db_url):
    limit = FailureLimit(1, 60, store=DatabaseFailures(open_engine(db_url), "link"))
    assert limit.fail("x" * 500) == 0
    assert limit.fail("x" * 100 + "y") > 0


@pytest.mark.parametrize("kind", ["memory", "database"])
def test_revoked_cookies_are_dropped_once_expired_and_bounded(db_url, kind):
    clock = Clock()
    revoked = (MemoryRevocations(limit=3) if kind == "memory"
               else DatabaseRevocations(open_engine(db_url), limit=3))
    sessions = Sessions("secret", clock=clock, revoked=revoked)
    early, _ = sessions.start()
    clock.now += 3600
    later = [sessions.start()[0] for _ in range(3)]
    for sid in [early, *later]:
        sessions.drop(sid)
    # past the bound, the one that expires soonest is forgotten
    assert len(sessions) == 3 and sessions.get(early)[1]["organizer"]
    assert not any(sessions.get(sid)[1]["organizer"] for sid in later)
    clock.now += 12 * 3600 + 1  # the three have expired (and are refused as such)
    sessions.drop(sessions.start()[0])
    assert len(sessions) == 1


def test_a_logout_is_refused_by_another_process(db_url):
    """Two processes share the secret and the database: a cookie logged out in one
    is refused by the other (in memory, only the one that answered knew)."""
    shared = [Sessions("secret", revoked=DatabaseRevocations(open_engine(db_url)))
              for _ in range(2)]
    alone = [Sessions("secret") for _ in range(2)]
    for first, second in (shared, alone):
        sid, _ = first.start()
        assert second.get(sid)[1]["organizer"]
        first.drop(sid)
        assert not first.get(sid)[1]["organizer"]
        assert second.get(sid)[1]["organizer"] is (first is alone[0])


def test_several_processes_allow_the_wrong_guesses_of_one(tourney, db_url):
    """With --workers N the processes count wrong guesses together: spread over two
    of them, as many are allowed as one process allows, and a right link and a
    right login still work from the limited address; a logout on one process is
    refused by the other."""
    links = seated_event(tourney)
    webs = [client(db_url, link_failures=6, login_failures=4, processes=2) for _ in range(2)]
    spread = [webs[i % 2].get("/t/not-a-real-token").status_code for i in range(7)]
    assert spread == [404] * 6 + [429]
    assert webs[1].get(path_of(links["1"]["url"])).status_code == 200
    for web in webs:
        page = web.get("/login")
        assert web.post("/login", data={"token": "x", "csrf": csrf_of(page.text)}).status_code == 403
    page = webs[0].get("/login")
    for _ in range(2):
        webs[0].post("/login", data={"token": "x", "csrf": csrf_of(page.text)})
    page = webs[1].get("/login")
    limited = webs[1].post("/login", data={"token": "y", "csrf": csrf_of(page.text)})
    assert limited.status_code == 429
    logged = webs[1].post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)},
                          follow_redirects=False)
    assert logged.status_code == 303
    webs[0].cookies.clear()
    webs[0].cookies.update(dict(webs[1].cookies))
    assert webs[0].get("/org", follow_redirects=False).status_code == 200
    org = webs[1].get("/org")
    assert webs[1].post("/logout", data={"csrf": csrf_of(org.text)},
                        follow_redirects=False).status_code == 303
    assert webs[0].get("/org", follow_redirects=False).status_code == 303  # to /login


# ------------------------------------------------- `tourney serve --workers 2`

class Connection:
    """One kept-alive HTTP/1.1 connection, so that every request on it reaches the
    worker that accepted it."""

    def __init__(self, sock: socket.socket, port: int):
        self.sock, self.port = sock, port
        self.cookie = ""

    def ask(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        body = urlencode(form).encode() if form is not None else b""
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                f"Content-Length: {len(body)}\r\n")
        if form is not None:
            head += "Content-Type: application/x-www-form-urlencoded\r\n"
        if self.cookie:
            head += f"Cookie: tourney_session={self.cookie}\r\n"
        self.sock.sendall((head + "\r\n").encode() + body)
        data = b""
        while b"\r\n\r\n" not in data:
            data += self._recv()
        raw_head, _, rest = data.partition(b"\r\n\r\n")
        lines = raw_head.decode("latin-1").split("\r\n")
        headers = [line.split(":", 1) for line in lines[1:]]
        length = next(int(v) for k, v in headers if k.lower() == "content-length")
        while len(rest) < length:
            rest += self._recv()
        for name, value in headers:
            if name.lower() == "set-cookie" and value.strip().startswith("tourney_session="):
                self.cookie = value.strip().split(";")[0].split("=", 1)[1]
        return int(lines[0].split()[1]), rest.decode()

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        assert chunk, "the server closed the connection"
        return chunk


@contextmanager
def two_workers(db_url: str):
    """`tourney serve --workers 2` (password ``pw``): a kept-alive connection to each
    of its worker processes."""
    from test_serve_concurrency import _worker_of

    with serve_workers(db_url) as (port, workers, opened):
        held: dict[int, Connection] = {}
        while len(held) < 2:  # new connections until each worker has accepted one
            sock = socket.create_connection(("127.0.0.1", port))
            opened.append(sock)
            held.setdefault(_worker_of([sock], port, workers)[sock], Connection(sock, port))
            assert len(opened) <= 200, "one worker accepts no connection"
        yield list(held.values())


@pytest.mark.parametrize("backend", ["postgres"])  # --workers needs PostgreSQL
def test_two_workers_limit_wrong_guesses_as_one_and_share_logouts(tourney, db_url):
    """A guesser's wrong logins and links, spread unevenly over the two workers, are
    limited at the same total as one process (5 logins, 20 links); the right link
    and the right password still work from that address; a logout on one worker
    is refused by the other."""
    links = seated_event(tourney)
    with two_workers(db_url) as (first, second):
        page = first.ask("GET", "/login")[1]
        wrong = {"token": "x", "csrf": csrf_of(page)}
        second.cookie = first.cookie  # one browser, its requests spread
        logins = ([first.ask("POST", "/login", wrong)[0] for _ in range(3)]
                  + [second.ask("POST", "/login", wrong)[0] for _ in range(3)])
        assert logins == [403] * 5 + [429]
        guesses = ([first.ask("GET", "/t/not-a-real-token")[0] for _ in range(14)]
                   + [second.ask("GET", "/t/not-a-real-token")[0] for _ in range(7)])
        assert guesses == [404] * 20 + [429]
        for worker in (first, second):
            assert worker.ask("GET", path_of(links["1"]["url"]))[0] == 200
        status, _ = first.ask("POST", "/login", {"token": "pw", "csrf": csrf_of(page)})
        assert status == 303 and first.cookie.startswith("o.")
        second.cookie = first.cookie
        status, org = second.ask("GET", "/org")
        assert status == 200
        assert second.ask("POST", "/logout", {"csrf": csrf_of(org)})[0] == 303
        first.cookie = second.cookie  # the logged-out cookie, kept (copied) all the same
        assert first.ask("GET", "/org")[0] == 303  # to /login


def test_an_organizer_page_looks_its_cookie_up_once(tourney, db_url):
    """With --workers N the logouts are read from the database: once a request,
    however many times the page asks whether it is the organizer's, off the event
    loop (a read never holds the other requests of the process), and never for a
    visitor's cookie."""
    links = seated_event(tourney)
    web = client(db_url, processes=2)
    revoked = web.app.state.server.sessions.revoked
    reads = []
    has = revoked.has

    def counted(nonce):
        with pytest.raises(RuntimeError):  # in a worker thread, not on the event loop
            asyncio.get_running_loop()
        reads.append(nonce)
        return has(nonce)

    revoked.has = counted
    assert web.get(path_of(links["1"]["url"])).status_code == 200
    assert reads == []  # a visitor
    page = web.get("/login")
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)})
    reads.clear()
    assert web.get("/org/club").status_code == 200
    assert len(reads) == 1


def test_right_credentials_never_touch_the_shared_store(tourney, db_url):
    """With --workers N a table's right link (its page, its result sent) and the
    organizer's right login send no statement to the shared limits or logouts:
    only wrong ones write there, and only an organizer's cookie reads."""
    links = seated_event(tourney)
    web = client(db_url, processes=2)
    engine = web.app.state.server.config.engine
    statements = []

    def seen(conn, cursor, statement, *args):
        statements.append(statement.lower())

    event.listen(engine, "before_cursor_execute", seen)
    try:
        assert web.get(path_of(links["1"]["url"])).status_code == 200
        assert send_csv(web, links["1"], match_csv(tourney, "club", 1, "1")).status_code == 200
        page = web.get("/login")
        assert web.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)},
                        follow_redirects=False).status_code == 303
        assert statements
        assert not [s for s in statements if "servefailure" in s or "revokedsession" in s]
        assert web.get("/t/not-a-real-token").status_code == 404
        assert any("servefailure" in s for s in statements)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
