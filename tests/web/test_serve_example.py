"""The README's example of a round entered through the server runs as written."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_serve_round_example_stores_every_table(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, PORT=str(port),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("TOURNEY_DB", None)
    done = subprocess.run(["bash", str(EXAMPLES / "serve-round.sh"), str(tmp_path / "work")],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"outcome":"stored"') == 4, done.stdout  # tables of 4, 4, 3, 3
    assert "Øystein Nåvik" in done.stdout  # the standings after the round
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    assert "examples/serve-round.sh" in readme


def test_serve_round_example_fails_when_its_server_cannot_listen(tmp_path):
    """A port held by another program: the script says the server did not start and
    exits non-zero, instead of sending the tables' results to whatever holds it."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        env = dict(os.environ, PORT=str(taken.getsockname()[1]),
                   PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
        env.pop("TOURNEY_DB", None)
        done = subprocess.run(["bash", str(EXAMPLES / "serve-round.sh"), str(tmp_path / "w")],
                              env=env, capture_output=True, text=True, timeout=300)
    said = f"exit {done.returncode}\nstdout: {done.stdout[-1500:]}\nstderr: {done.stderr[-1500:]}"
    assert done.returncode != 0, said
    assert "the server did not start" in done.stderr and '"outcome"' not in done.stdout, said
