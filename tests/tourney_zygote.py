"""A `tourney` on the PATH that starts in milliseconds, for the tests that run shell
scripts by the hundred (the guide's examples, tests/test_docs_run.py).

Why: every `tourney` process spends most of its time importing (SQLAlchemy, sqlmodel,
the table classes, jinja2: ~0.5-0.7 CPU s) before the command does anything, and the
guide's pages run about 150 commands. Here one process (the *zygote*) imports the
command line and the modules its commands load, once; each `tourney ...` of a script is
a small client (`python -S`, stdlib only) that hands the zygote its arguments, folder,
environment and its own stdin, stdout and stderr (the file descriptors themselves,
over a Unix socket), and exits with the command's exit code. The zygote forks a child
per command, which takes those descriptors as its own and runs the command as the
real `tourney` would: a fresh process for every command, no state shared between two.

What this does not test, the real entry point's start-up, is tested on its own
(tests/cli/test_startup.py, examples/run-example.sh in CI).

Run as a script: ``python tourney_zygote.py SOCKET`` serves until killed.
"""
from __future__ import annotations

import array
import importlib
import io
import json
import os
import pkgutil
import signal
import socket
import struct
import sys
from pathlib import Path

_LENGTH = struct.Struct("!I")

# the client: stdlib only, started with -S (no site-packages to scan)
CLIENT = '''\
import array, json, os, socket, struct, sys
request = json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(),
                      "env": dict(os.environ)}).encode()
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
    conn.connect(%(socket)r)
    conn.sendmsg([struct.pack("!I", len(request)) + request],
                 [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))])
    code = b""
    while len(code) < 4:
        part = conn.recv(4 - len(code))
        if not part:
            sys.exit("tourney (test zygote): the command's process ended without an exit code")
        code += part
sys.exit(struct.unpack("!i", code)[0])
'''


def write_client(folder: Path, socket_path: str) -> Path:
    """An executable ``tourney`` in ``folder`` that runs its commands in the zygote."""
    folder.mkdir(parents=True, exist_ok=True)
    client = folder / "tourney"
    client.write_text(f"#!{sys.executable} -S\n" + CLIENT % {"socket": socket_path})
    client.chmod(0o755)
    return client


def _preload() -> None:
    """Import what the commands import (they load their modules when they run)."""
    import tourney.cli
    import tourney.cli.main  # noqa: F401

    for module in pkgutil.iter_modules(tourney.cli.__path__, "tourney.cli."):
        importlib.import_module(module.name)
    for name in ("tourney.reports.site", "tourney.storage.db", "tourney.ratings.service",
                 "sqlalchemy.dialects.sqlite", "sqlalchemy.dialects.postgresql"):
        importlib.import_module(name)


def _receive(conn: socket.socket) -> tuple[dict, list[int]]:
    fds = array.array("i")
    data = b""
    need = None
    while need is None or len(data) < need:
        chunk, ancillary, _, _ = conn.recvmsg(1 << 16, socket.CMSG_LEN(3 * fds.itemsize))
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
        if not chunk:
            raise EOFError("the client went away")
        data += chunk
        if need is None and len(data) >= _LENGTH.size:
            need = _LENGTH.size + _LENGTH.unpack_from(data)[0]
    return json.loads(data[_LENGTH.size:need]), list(fds)


def _run_command(conn: socket.socket) -> None:
    """In the forked child: become the client's `tourney` and run its command."""
    code = 1
    try:
        request, fds = _receive(conn)
        for number, fd in enumerate(fds[:3]):
            os.dup2(fd, number)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        # new standard streams on the client's descriptors, buffered as Python would
        # buffer them at start-up (a terminal line by line)
        sys.stdin = io.TextIOWrapper(io.open(0, "rb", closefd=False), encoding="utf-8",
                                     errors="strict")
        sys.stdout = io.TextIOWrapper(io.open(1, "wb", closefd=False), encoding="utf-8",
                                      line_buffering=os.isatty(1))
        sys.stderr = io.TextIOWrapper(io.open(2, "wb", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        sys.argv = [str(Path(sys.executable).parent / "tourney"), *request["argv"]]
        from tourney.cli.main import main

        try:
            main()
            code = 0
        except SystemExit as stop:
            if stop.code is None:
                code = 0
            elif isinstance(stop.code, int):
                code = stop.code
            else:
                print(stop.code, file=sys.stderr)
                code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        try:
            conn.sendall(struct.pack("!i", code))
        finally:
            os._exit(code)


def serve(socket_path: str) -> None:
    _preload()
    # children are reaped by the kernel: each sends its own exit code to its client
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path + ".new")
    listener.listen(64)
    os.rename(socket_path + ".new", socket_path)  # there once it answers
    while True:
        conn, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            _run_command(conn)
        conn.close()


if __name__ == "__main__":
    serve(sys.argv[1])
