"""Requests on a kept-alive connection against requests on new connections, in
`tourney serve` (issue 29: a kept-alive request took ~45 ms more, a delayed-ACK
stall that capped a phone at ~20 requests a second).

    python bench/bench_keepalive.py [--quick] [--requests N]

The app runs under uvicorn as `tourney serve` runs it (tourney/web/listen.py), in
this process on loopback, twice in the same run: on the socket `tourney serve`
listens on (TCP_NODELAY) and, as the baseline, on a plain socket (Nagle on, as
before the fix). For each: the median time of a GET of the index page on a new
connection each, and on one kept-alive connection; the figure is the ratio
kept-alive / new connection (below 1: keeping the connection saves the connect).
"""
from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from tourney.storage.db import open_engine
from tourney.storage.schema import ensure_schema
from tourney.web.app import ServerConfig, create_app
from tourney.web.listen import listening_socket, web_server

OUT = Path(__file__).resolve().parent / "out"


def serve(engine, sock):
    app = create_app(ServerConfig(engine=engine, secret="bench"))
    server = web_server(app, log_level="error")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    return server, thread


def medians(port: int, count: int) -> tuple[float, float]:
    def get(conn):
        started = time.perf_counter()
        conn.request("GET", "/")
        conn.getresponse().read()
        return time.perf_counter() - started

    fresh = []
    for _ in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", port)
        fresh.append(get(conn))
        conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", port)
    get(conn)  # the connect is not part of the kept-alive figure
    kept = [get(conn) for _ in range(count)]
    conn.close()
    return statistics.median(fresh), statistics.median(kept)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50 requests instead of 300")
    parser.add_argument("--requests", type=int)
    args = parser.parse_args()
    count = args.requests or (50 if args.quick else 300)
    with tempfile.TemporaryDirectory() as folder:
        engine = open_engine(f"sqlite:///{folder}/bench.db")
        ensure_schema(engine)
        plain = socket.socket()
        plain.bind(("127.0.0.1", 0))
        rows = []
        for name, sock in (("Nagle on (before)", plain),
                           ("tourney serve's socket (TCP_NODELAY)",
                            listening_socket("127.0.0.1", 0))):
            server, thread = serve(engine, sock)
            fresh, kept = medians(sock.getsockname()[1], count)
            server.should_exit = True
            thread.join(10)
            sock.close()
            rows.append((name, fresh * 1000, kept * 1000, kept / fresh))
    lines = [f"{count} GET / each, median ms", "",
             "| socket | new connection | kept-alive | kept-alive / new |", "|---|---:|---:|---:|"]
    lines += [f"| {n} | {f:.1f} | {k:.1f} | {r:.2f} |" for n, f, k, r in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    OUT.mkdir(exist_ok=True)
    (OUT / "bench_keepalive.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
