"""How `tourney serve` listens: no Nagle stall on kept-alive connections, and
forwarded headers believed only from the proxy's addresses given."""
from __future__ import annotations

import html
import logging
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from serve_helpers import LiveServer

from tourney.web.listen import listening_socket


def test_accepted_connections_send_without_waiting_for_an_ack():
    # The body of a response, written after its head, waited ~40 ms for the
    # client's delayed ACK on a kept-alive connection (bench/bench_keepalive.py).
    server = listening_socket("127.0.0.1", 0)
    server.listen()
    with server, socket.create_connection(server.getsockname()):
        accepted, _ = server.accept()
        with accepted:
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def _wrong_links_until_limited(url: str, headers: dict) -> int:
    """Wrong table links sent until the server answers 429; how many it took."""
    with httpx.Client(base_url=url, headers=headers) as web:
        for count in range(1, 200):
            if web.get(f"/t/wrong-{count}").status_code == 429:
                return count
    return 0


def test_forwarded_addresses_count_only_from_the_proxy_given(db_url):
    # Two phones behind one proxy: believed, the first phone's guesses do not
    # limit the second; not believed (no --forwarded-allow-ips), anyone could
    # claim any address to dodge the limit, so the header is ignored.
    with LiveServer(db_url, failure_delay=0, forwarded_allow_ips="127.0.0.1") as live:
        assert _wrong_links_until_limited(live.url, {"X-Forwarded-For": "10.0.0.1"}) > 1
        with httpx.Client(base_url=live.url) as web:
            phone_2 = web.get("/t/wrong", headers={"X-Forwarded-For": "10.0.0.2"})
            assert phone_2.status_code == 404  # not limited: another address
            proxy = web.get("/t/wrong")
            assert proxy.status_code == 404
    with LiveServer(db_url, failure_delay=0) as live:
        assert _wrong_links_until_limited(live.url, {"X-Forwarded-For": "10.0.0.1"}) > 1
        with httpx.Client(base_url=live.url) as web:
            dodged = web.get("/t/wrong", headers={"X-Forwarded-For": "10.0.0.2"})
            assert dodged.status_code == 429  # the header is not believed


def _half_sent(url: str, path: str, content_type: str, headers: str = "") -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    conn = socket.create_connection((host, int(port)))
    conn.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {content_type}\r\n"
                 f"{headers}Content-Length: 5000\r\n\r\nround,table".encode())
    return conn


def test_a_body_that_stops_arriving_is_answered_408(db_url):
    with LiveServer(db_url, body_timeout=0.3) as live:
        # A phone that lost the Wi-Fi mid-send: answered once the body stops.
        with _half_sent(live.url, "/t/some-link", "text/csv") as conn:
            conn.settimeout(10)
            answer = conn.recv(4096).decode()
        assert answer.startswith("HTTP/1.1 408")


def test_a_408_is_said_in_the_phones_language(db_url):
    """A browser's form that stops arriving gets the site's page in its language,
    with what to do; a score app's CSV gets the JSON API's code and message."""
    from tourney.web.messages import refusal_text

    text, remedy = refusal_text("body-timeout", "sv")
    assert (text, remedy) != refusal_text("body-timeout", "en")
    with LiveServer(db_url, body_timeout=0.3) as live:
        for kind, shape in (("application/x-www-form-urlencoded", "text/html"),
                            ("text/csv", "application/json")):
            with _half_sent(live.url, "/t/some-link", kind,
                            "Accept-Language: sv-SE,sv;q=0.9\r\n") as conn:
                conn.settimeout(10)
                answer = b""
                while True:  # answered with Connection: close
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
            head, _, body = answer.decode().partition("\r\n\r\n")
            assert head.startswith("HTTP/1.1 408") and f"content-type: {shape}" in head.lower()
            assert html.escape(text, quote=False) in body or text in body
            if shape == "text/html":
                assert '<html lang="sv">' in body and html.escape(remedy, quote=False) in body
            else:
                assert '"code":"body-timeout"' in body


def test_a_client_that_leaves_mid_send_is_no_error(db_url):
    errors: list[str] = []
    watch = logging.Handler(logging.ERROR)
    watch.emit = lambda record: errors.append(record.getMessage())
    with LiveServer(db_url) as live:
        # uvicorn logs an application's exception on its own logger, which does
        # not propagate to the root (caplog would see nothing)
        logging.getLogger("uvicorn.error").addHandler(watch)
        for path, kind in (("/t", "application/x-www-form-urlencoded"),
                           ("/t/some-link", "text/csv")):
            _half_sent(live.url, path, kind).close()
        with httpx.Client(base_url=live.url) as web:  # the server still answers
            assert web.get("/").status_code == 200
        time.sleep(0.5)  # the server notices the closed connections
    logging.getLogger("uvicorn.error").removeHandler(watch)
    assert errors == []


def test_a_login_holds_in_every_process_sharing_the_secret(db_url):
    # `tourney serve --workers N`: a request may reach any process; nothing is
    # kept in one that the others lack.
    from serve_helpers import TOKEN, client, csrf_of

    first, second, other = client(db_url), client(db_url), client(db_url)
    other.app.state.server.sessions.__init__("another secret")
    page = first.get("/login")
    first.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)})
    cookies = dict(first.cookies)
    second.cookies.update(cookies)
    assert second.get("/org", follow_redirects=False).status_code == 200
    other.cookies.update(cookies)
    assert other.get("/org", follow_redirects=False).status_code == 303  # to /login
    # a visitor's form made by one process is taken by the other
    visitor = first.get("/t")
    second.cookies.clear()
    second.cookies.update(dict(first.cookies))
    assert csrf_of(second.get("/t").text) == csrf_of(visitor.text)


def test_an_organizer_cookie_expires_and_a_forged_one_is_refused():
    from tourney.web.security import ORGANIZER_HOURS, Sessions

    now = [1_000_000.0]
    sessions = Sessions("secret", clock=lambda: now[0])
    sid, data = sessions.start()
    assert sessions.get(sid) == (sid, data) and data["organizer"]
    prefix, nonce, expires, signature = sid.split(".")
    for forged in (f"o.{nonce}.{int(expires) + 999}.{signature}", f"o.x{nonce}.{expires}.{signature}",
                   sid[:-1] + ("0" if sid[-1] != "0" else "1")):
        assert sessions.get(forged)[1]["organizer"] is False
    now[0] += ORGANIZER_HOURS * 3600 + 1
    assert sessions.get(sid)[1]["organizer"] is False
    fresh, _ = sessions.start()
    sessions.drop(fresh)  # logged out
    assert sessions.get(fresh)[1]["organizer"] is False and len(sessions) == 1


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    import pathlib

    found = []
    for status in pathlib.Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines()
                          if ":\t" in line)
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.append(int(status.parent.name))
    return found


def test_several_workers_serve_one_postgresql_database(run_cli, db_url):
    import os
    import signal
    import subprocess
    import sys

    from serve_helpers import csrf_of, seated_event

    if db_url.startswith("sqlite"):
        refused = run_cli(db_url, "serve", "--workers", "2", "--port", "0", exit_code=2)
        assert "--workers needs a PostgreSQL database" in refused.stderr
        return
    seated_event(lambda *a: run_cli(db_url, *a))
    env = dict(os.environ, TOURNEY_SERVE_PASSWORD="pw")
    server = subprocess.Popen(
        [sys.executable, "-m", "tourney.cli.main", "serve", "--port", "0", "--workers", "2",
         "--json", "--db", db_url], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True)
    try:
        import json

        url = json.loads(server.stdout.readline())["url"].rstrip("/")
        deadline = time.monotonic() + 60
        while len(_children(server.pid)) < 2:
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.05)
        workers = _children(server.pid)
        # Log in once; every later request on a new connection may reach either
        # worker, and each knows the login and the visitor's form token.
        with httpx.Client(base_url=url) as web:
            page = web.get("/login")
            # started with a password: the page asks for it, not for a printed token
            assert "<label>Password <input" in page.text and "Token (printed" not in page.text
            assert web.post("/login", data={"token": "pw", "csrf": csrf_of(page.text)}
                            ).status_code == 303
            cookies = dict(web.cookies)
        for _ in range(30):
            with httpx.Client(base_url=url, cookies=cookies,
                              headers={"Connection": "close"}) as web:
                assert web.get("/org/club", follow_redirects=False).status_code == 200
        # A worker that dies is replaced.
        os.kill(workers[0], signal.SIGKILL)
        deadline = time.monotonic() + 60
        while workers[0] in _children(server.pid) or len(_children(server.pid)) < 2:
            assert time.monotonic() < deadline, "the worker was not replaced"
            time.sleep(0.05)
        with httpx.Client(base_url=url, cookies=cookies) as web:
            assert web.get("/org/club", follow_redirects=False).status_code == 200
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) is not None
        assert _children(server.pid) == []
    finally:
        left = _children(server.pid)
        server.kill()
        server.wait(10)
    # killed outright, the server takes its workers with it (none left serving)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in left):
        assert time.monotonic() < deadline, f"workers left running: {left}"
        time.sleep(0.05)


def test_workers_end_when_the_server_is_killed(run_cli, db_url):
    import os
    import signal
    import subprocess
    import sys

    if db_url.startswith("sqlite"):
        return  # --workers is PostgreSQL's
    env = dict(os.environ, TOURNEY_SERVE_PASSWORD="pw")
    server = subprocess.Popen(
        [sys.executable, "-m", "tourney.cli.main", "serve", "--port", "0", "--workers", "2",
         "--json", "--db", db_url], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True)
    try:
        server.stdout.readline()
        deadline = time.monotonic() + 60
        while len(_children(server.pid)) < 2:
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.05)
        workers = _children(server.pid)
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() and _state(pid) != "Z" for pid in workers):
            assert time.monotonic() < deadline, f"workers left running: {workers}"
            time.sleep(0.05)
    finally:
        server.kill()
        server.wait(10)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except (OSError, IndexError):
        return "Z"


def _head_cut_at(url: str, head: bytes) -> socket.socket:
    """A connection that sent ``head`` (part of a request's head) and stopped."""
    host, port = url.removeprefix("http://").split(":")
    conn = socket.create_connection((host, int(port)))
    conn.sendall(head)
    return conn


def _whole_answer(conn: socket.socket) -> bytes:
    """One answer read to its end (its head, then Content-Length bytes of body: the
    server sends them apart)."""
    conn.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":", 1)[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body


def _closed_within(conn: socket.socket, seconds: float) -> bool:
    """Whether the server closed ``conn`` within ``seconds`` (reads nothing more)."""
    conn.settimeout(seconds)
    try:
        return conn.recv(4096) == b""
    except (socket.timeout, TimeoutError):
        return False
    except ConnectionResetError:
        return True
    finally:
        conn.close()


def test_a_head_that_stops_arriving_is_cut_off(db_url, monkeypatch):
    """A slowloris: a request's line and headers must come within the deadline, on
    a new connection and on a kept-alive one; a client that keeps to it is served."""
    import tourney.web.listen as listen

    monkeypatch.setattr(listen, "HEADER_SECONDS", 0.5)
    with LiveServer(db_url) as live:
        # a head begun and never finished, a byte now and then
        slow = _head_cut_at(live.url, b"GET / HTTP/1.1\r\nHost: x\r\n")
        time.sleep(0.3)
        slow.sendall(b"X-A: 1\r\n")  # data before the deadline does not extend it
        assert _closed_within(slow, 5)
        # nothing sent at all
        assert _closed_within(_head_cut_at(live.url, b""), 5)
        # after a full answer on a kept-alive connection, the next head has its deadline
        kept = _head_cut_at(live.url, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _whole_answer(kept).startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET / HTTP/1.1\r\n")
        assert _closed_within(kept, 5)
        # a slow page is not cut off: the deadline is the head's, not the answer's
        with httpx.Client(base_url=live.url) as web:
            assert web.get("/").status_code == 200
            time.sleep(0.8)
            assert web.get("/").status_code == 200  # a new connection if it was idle


def test_serve_port_0_picks_a_free_port_and_says_which(db_url, tmp_path):
    env = dict(os.environ, TOURNEY_SERVE_PASSWORD="x")
    server = subprocess.Popen(
        [sys.executable, "-m", "tourney.cli.main", "serve", "--port", "0", "--db", db_url],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stderr.readline()
        match = re.match(r"tourney serve on http://localhost:(\d+)/", first)
        assert match, first
        port = int(match.group(1))
        assert port != 0
        deadline = time.monotonic() + 90
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.05)
        assert answer.status_code < 500
    finally:
        server.kill()
        server.wait(10)
