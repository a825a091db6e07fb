"""Every shell example of the README and the user guide runs, in order, as written.

Each page runs in a fresh folder of its own with a fresh database (``tourney.db``
there), ``tourney`` on the PATH and the repository's ``examples/`` beside it, as a
reader who cloned the repository and follows the page would. A page's ```sh blocks
run one after another (each with ``bash -e -o pipefail``), so a command that stopped
working, a file never made or a step left out fails the test naming the page and the
block.

Two marks, HTML comments a reader never sees, keep the pages honest where a page
cannot be run as it stands:

- ``<!-- no-run: why -->`` on the line before a block: not run (it installs this very
  checkout, starts a server that runs until stopped, or is for another shell).
- ``<!-- run: COMMANDS -->``: run at that place, for what people do by hand between
  two blocks (the tables fill in their score sheets: the bots play the round).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tourney_zygote import write_client

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
STEP = re.compile(r"<!-- no-run: (?P<why>[^>]*?) -->\n```sh\n(?P<skipped>.*?)```"
                  r"|<!-- run: (?P<hidden>.*?) -->"
                  r"|```sh\n(?P<shown>.*?)```", re.S)


def steps(page: Path) -> list[tuple[str, str | None]]:
    """The page's steps in order: (script, None) to run, or (script, why) skipped."""
    found = []
    for match in STEP.finditer(page.read_text(encoding="utf-8")):
        if match["skipped"] is not None:
            found.append((match["skipped"], match["why"]))
        else:
            found.append((match["hidden"] if match["hidden"] is not None else match["shown"],
                          None))
    return found


@pytest.fixture(scope="module")
def tourney_on_path(tmp_path_factory):
    """A folder holding a `tourney` that runs each command in a child of one process
    that imported the command line once (tests/tourney_zygote.py): the pages' ~150
    commands without ~150 start-ups."""
    folder = tmp_path_factory.mktemp("zygote")
    socket_path = str(folder / "tourney.sock")  # short: a Unix socket's path is limited
    zygote = subprocess.Popen([sys.executable, str(Path(__file__).with_name("tourney_zygote.py")),
                               socket_path], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not os.path.exists(socket_path):
            assert zygote.poll() is None, "the test zygote stopped"
            assert time.monotonic() < deadline, "the test zygote did not start"
            time.sleep(0.02)
        yield write_client(folder / "bin", socket_path).parent
    finally:
        zygote.kill()
        zygote.wait()


@pytest.mark.parametrize("page", [p for p in PAGES if steps(p)],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_pages_shell_examples_run_as_written(page, tmp_path, tourney_on_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "examples").symlink_to(ROOT / "examples")
    # `tourney` is the zygote's client; python, the venv's
    env = dict(os.environ, PATH=f"{tourney_on_path}{os.pathsep}{Path(sys.executable).parent}"
                                f"{os.pathsep}{os.environ['PATH']}", HOME=str(tmp_path),
               TOURNEY_ACTOR="docs")
    env.pop("TOURNEY_DB", None)
    for number, (script, why) in enumerate(steps(page), 1):
        if why is not None:
            continue
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=work,
                              env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (
            f"{page.relative_to(ROOT)}, example {number} exits {done.returncode}:\n{script}\n"
            f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}")


def test_few_examples_are_left_out():
    """The marks are the exception: nine in all (installs, servers, other shells)."""
    skipped = [why for page in PAGES for _, why in steps(page) if why is not None]
    assert len(skipped) <= 9, skipped
    assert all(why.strip() for why in skipped)
