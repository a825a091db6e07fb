"""How ``tourney serve`` listens: the socket and the uvicorn server around the app.

One home for both, so the command and the tests' live server run the same thing.

Decisions:

- ``TCP_NODELAY`` on the listening socket (accepted connections inherit it): uvicorn
  writes a response's head and body in two sends; with Nagle's algorithm the body
  waited for the ACK of the head, which the client delays by ~40 ms on a kept-alive
  connection, capping a phone at ~20 requests a second (bench/bench_keepalive.py).
- Forwarded headers (``X-Forwarded-For``, ``X-Forwarded-Proto``) are believed only
  from the addresses given (a reverse proxy's), never by default: the client's
  address is what the rate limits count, and a header is anyone's to write. Links
  never come from them either (``--base-url`` names the public address).
- A kept-alive connection idle for ``KEEP_ALIVE_SECONDS`` is closed: a venue's
  phones come and go, and each open connection holds a slot.
- A request's head (its line and headers) must arrive within ``HEADER_SECONDS`` of
  the connection or of the answer before it, else the connection is closed
  (:class:`HeadDeadline`): uvicorn waits for a head for ever, and its keep-alive
  timer stops at the first byte, so a client dribbling a header a minute (a
  "slowloris") held a connection slot as long as it liked. A body too slow is
  the app's to answer (408).
"""
from __future__ import annotations

import socket

from tourney.errors import UsageError
from tourney.errors.words import N_, Message

KEEP_ALIVE_SECONDS = 15
HEADER_SECONDS = 10  # for a request's line and headers, from the connection or the last answer
MAX_CONNECTIONS = 1000  # past it, a 503 rather than an unbounded queue


def _head_deadline_protocol():
    """uvicorn's HTTP/1.1 protocol with a deadline for each request's head (the
    module's decisions). Made on first use: uvicorn is imported only to serve."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeadDeadline(H11Protocol):
        _head_timer = None
        _waiting_after = None  # the request (uvicorn's cycle) the next head comes after

        def _arm(self) -> None:
            self._disarm()
            self._waiting_after = self.cycle
            self._head_timer = self.loop.call_later(HEADER_SECONDS, self._head_too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            # no request begun since the deadline was set: its head is still coming
            if self.cycle is self._waiting_after and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not self._waiting_after:
                self._disarm()  # a request's head is in (uvicorn began its cycle)

        def on_response_complete(self) -> None:
            finished = self.cycle
            super().on_response_complete()  # may begin a pipelined request's cycle
            if self.cycle is finished and not self.transport.is_closing():
                self._arm()  # the next request's head, from now

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeadDeadline


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (0: a free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise UsageError(Message(N_("cannot listen on %(address)s: %(reason)s"),
                                 {"address": f"{host}:{port}",
                                  "reason": err.strerror or str(err)})) from None
    return sock


def web_server(app, *, forwarded_allow_ips: str | None = None, log_level: str = "warning"):
    """The uvicorn server that runs ``app`` (``server.run(sockets=[sock])``)."""
    import uvicorn

    return uvicorn.Server(uvicorn.Config(
        app, log_level=log_level, server_header=False,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips or "",
        timeout_keep_alive=KEEP_ALIVE_SECONDS, limit_concurrency=MAX_CONNECTIONS,
        backlog=2048, http=_head_deadline_protocol()))


def _die_with_parent() -> None:
    """A worker ends when the process that started it does, even one killed outright
    (SIGKILL gives it no chance to stop them): Linux's parent-death signal."""
    import ctypes
    import os
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the supervisor's SIGTERM still stops it
        return
    if os.getppid() == 1:  # the parent died before the signal was asked for
        os._exit(0)


def run_workers(make_app, sock: socket.socket, workers: int, *,
                forwarded_allow_ips: str | None = None) -> None:
    """Serve ``sock`` from ``workers`` processes, each running ``make_app()`` (called
    after the fork, so each builds its own database connections). The processes
    share nothing but the database and the organizer's secret (sessions are
    signed cookies). Ctrl-C or SIGTERM stops them all; a process that dies is
    started again."""
    import os
    import signal

    sock.listen(2048)
    children: set[int] = set()

    def start() -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            _die_with_parent()
            code = 0
            try:
                web_server(make_app(), forwarded_allow_ips=forwarded_allow_ips).run(
                    sockets=[sock])
            except BaseException:  # noqa: BLE001 - a worker's end is its exit code
                code = 1
            os._exit(code)
        children.add(pid)

    stopping = False

    def stop(signum, frame) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        for _ in range(workers):
            start()
        while children:
            try:
                pid, _ = os.wait()
            except KeyboardInterrupt:
                stop(None, None)
                continue
            except ChildProcessError:
                break
            children.discard(pid)
            if not stopping:
                start()  # a worker that died is replaced
    finally:
        signal.signal(signal.SIGTERM, previous)
