"""Two organizers importing results into one database at the same time.

Each importer is a separate process running the `tourney` CLI (the console
script's own entry point, ``tourney.cli.main:main``). A process spends about a
second importing tourney before it reads its arguments, so the two would rarely
overlap if simply started together: each child first imports the CLI, then
signals that it is ready and waits for a shared "go" file, and only then runs
``main()``. Both imports then run at the same moment. On PostgreSQL the test
also holds back writes to the ``rating`` table until every importer waits for a
lock (see :func:`rating_writes_held`), so their transactions overlap every time
rather than now and then: the races a lucky timing hides are run every time.

On every backend (SQLite and PostgreSQL):

- two imports of different events finish with every match stored exactly once,
  and the ratings equal a serial recompute (``tourney rating recompute``);
- two processes importing the same file: one adds, the other reports the
  matches "unchanged" or fails with a clear error (and a retry says "unchanged");
- two processes importing conflicting versions of the same matches: one file is
  stored, the other import is refused with a clear error, and --replace then
  stores it as a new version: nothing is lost and nothing is half-written;
  with --replace on both at once, the versions are numbered without a gap and
  exactly one is current.

On SQLite, the second writer waits for the first (the busy timeout: the
SQLite runs of the tests above); with a
short timeout (``?timeout=`` in the URL) it fails with "database is busy" and
changes nothing, and ``PRAGMA integrity_check`` says ``ok`` after every run.
"""
from __future__ import annotations

import itertools
import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, func, select, text
from sqlmodel import Session

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.simulation import simulate_match
from tourney.storage.db import open_engine, transaction
from tourney.storage.models import AuditLog, Deal, Match, MatchPlace, MatchVersion
from tourney.storage.schema import ensure_schema
from tourney.tournament.events import create_event, enter_players
from tourney.tournament.rounds import seat_next_round

VARIANT = "kortrad"
DEALS = 10  # deals per match (the events' `deals` rule)

# The child: import the CLI, say so, wait for the go file, run `tourney ARGS`.
CHILD = """\
import os, sys, time
from tourney.cli.main import main
# The CLI loads its database modules lazily; load them before "ready", so that each
# child is as quick off the mark as the others once they all go.
import tourney.cli.results, tourney.app.results
open(os.environ["TOURNEY_TEST_READY"], "w").close()
go = os.environ["TOURNEY_TEST_GO"]
deadline = time.monotonic() + 60
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.002)
sys.argv = ["tourney", *sys.argv[1:]]
main()
"""


# ----------------------------------------------------------------------- helpers

def make_event(db_url: str, slug: str, players: list[str], rounds: int = 1,
               deals: int = DEALS) -> list:
    """An event of kortrad at tables of 4, entered and seated (the service layer,
    one transaction: quicker than five CLI commands); its seatings as
    `tourney round seat --json` prints them."""
    engine = open_engine(db_url)
    ensure_schema(engine)
    with transaction(engine) as session:
        event = create_event(session, slug, VARIANT, rules={"deals": str(deals)},
                             table_sizes="4", seating="random")
        enter_players(session, event, players, add=True)
        return [seat_next_round(session, event, force=True).to_json() for _ in range(rounds)]


def write_results(path: Path, slug: str, seatings: list, seed: int,
                  deals: int = DEALS) -> Path:
    """A record file with a bot-played match for every seated table."""
    game = get_game(VARIANT)
    options = game.resolve_options({"deals": str(deals)})
    rng = random.Random(seed)
    records = []
    for seating in seatings:
        for table in seating["tables"]:
            records += simulate_match(game, options, table["seats"], rng, event=slug,
                                      round_number=seating["round"], table=table["table"],
                                      deals=deals)
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda r: game)
    return path


def tables_in(seatings: list) -> int:
    return sum(len(s["tables"]) for s in seatings)


_children = itertools.count(1)


class Child:
    def __init__(self, process: subprocess.Popen, ready: Path, args: tuple):
        self.process, self.ready, self.args = process, ready, args
        self.code: int | None = None
        self.stdout = self.stderr = ""

    @property
    def report(self) -> dict | None:
        """The details of a `result import --json` answer."""
        return json.loads(self.stdout)["details"] if self.stdout.strip() else None

    def describe(self) -> str:
        return (f"tourney {' '.join(self.args)}: exit {self.code}\n"
                f"stdout: {self.stdout[-2000:]}\nstderr: {self.stderr[-2000:]}")


def start(tmp_path: Path, go: Path, db_url: str, *args: str) -> Child:
    ready = tmp_path / f"ready-{next(_children)}"
    env = dict(os.environ, TOURNEY_TEST_GO=str(go), TOURNEY_TEST_READY=str(ready))
    argv = [*map(str, args), "--db", db_url]
    process = subprocess.Popen([sys.executable, "-c", CHILD, *argv], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return Child(process, ready, tuple(argv))


def release(go: Path, children: list[Child], timeout: float = 60) -> None:
    """Wait until every child has imported the CLI, then let them all go."""
    deadline = time.monotonic() + timeout
    while not all(c.ready.exists() for c in children):
        for child in children:
            assert child.process.poll() is None, (
                f"child exited early: {child.process.communicate()}")
        assert time.monotonic() < deadline, "children did not start"
        time.sleep(0.01)
    go.touch()


def finish(children: list[Child], timeout: float = 60) -> list[Child]:
    for child in children:
        child.stdout, child.stderr = child.process.communicate(timeout=timeout)
        child.code = child.process.returncode
        assert "Traceback" not in child.stderr, child.describe()
    return children


def counts(db_url: str) -> dict:
    with Session(open_engine(db_url)) as session:
        result = {model.__name__: session.execute(
            select(func.count()).select_from(model)).scalar()
            for model in (Match, MatchVersion, Deal, MatchPlace)}
        result["imports"] = session.execute(select(func.count()).select_from(AuditLog).where(
            AuditLog.action == "result.import")).scalar()
        result["current"] = session.execute(select(func.count()).select_from(Match).where(
            Match.current_version_id.is_not(None))).scalar()
        return result


def ratings(run_cli, db_url: str) -> list:
    rows = run_cli(db_url, "rating", "show", "--variant", VARIANT, "--json").json
    return sorted(json.dumps(row, sort_keys=True) for row in rows)


def assert_ratings_as_recomputed(run_cli, db_url: str) -> None:
    incremental = ratings(run_cli, db_url)
    assert incremental, "no ratings after the imports"
    run_cli(db_url, "rating", "recompute", "--variant", VARIANT)
    assert ratings(run_cli, db_url) == incremental


def assert_clear_failure(child: Child) -> None:
    assert child.code == 1, child.describe()
    assert "Error:" in child.stderr, child.describe()


def sqlite_path(db_url: str) -> str | None:
    return db_url.split("///", 1)[1] if db_url.startswith("sqlite") else None


def assert_intact(db_url: str) -> None:
    path = sqlite_path(db_url)
    if path is not None:
        with sqlite3.connect(path) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


NAMES = [f"Spelare {i:02d}" for i in range(1, 49)]


# ----------------------------------------------------------------------- the tests

@contextmanager
def rating_writes_held(db_url: str):
    """On PostgreSQL, hold back writes to the ``rating`` table (a SHARE lock in a
    transaction of the test's own) until every importer waits for a lock.

    Every import that stores something ends with a ratings refresh that writes
    rating rows, so the first importer stops there, with everything else of its
    transaction done and not committed, and the others stop there too or at a
    row the first one holds (a match, a version number, the rating pool). The
    transactions then overlap for certain, not by chance: small files are
    imported in milliseconds, and without this the importers mostly ran one
    after the other. ``release(children)`` lets them go once they all wait (or
    one has exited, or after 30 s). On SQLite it does nothing: there the write
    lock serialises whole imports."""
    if not db_url.startswith("postgresql"):
        yield lambda children: None
        return
    engine = create_engine(db_url)
    connection = engine.connect()
    transaction = connection.begin()
    connection.execute(text("LOCK TABLE rating IN SHARE MODE"))
    watcher = engine.connect()

    def release(children: list[Child]) -> None:
        if not transaction.is_active:
            return
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            waiting = watcher.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'")).scalar()
            watcher.rollback()
            if waiting >= len(children) or any(c.process.poll() is not None
                                               for c in children):
                break
            time.sleep(0.02)
        transaction.rollback()

    try:
        yield release
    finally:
        if transaction.is_active:
            transaction.rollback()
        watcher.close()
        connection.close()
        engine.dispose()


def run_together(tmp_path: Path, db_url: str, *commands: tuple[str, ...]) -> list[Child]:
    """Run `tourney COMMAND` for each command at the same moment; on PostgreSQL
    with the ratings writes held back until all of them wait for a lock."""
    go = tmp_path / f"go-{time.monotonic_ns()}"
    with rating_writes_held(db_url) as release_ratings:
        children = [start(tmp_path, go, db_url, *command) for command in commands]
        release(go, children)
        release_ratings(children)
        return finish(children)


def test_two_events_at_once(db_url, run_cli, tmp_path):
    """Different events (sharing some players, so one rating pool and some rating
    rows) imported at once into a database that has no ratings yet."""
    first = make_event(db_url, "liga-a", NAMES[:32], rounds=2)
    second = make_event(db_url, "liga-b", NAMES[16:], rounds=2)
    file_a = write_results(tmp_path / "a.csv", "liga-a", first, seed=1)
    file_b = write_results(tmp_path / "b.csv", "liga-b", second, seed=2)
    children = run_together(tmp_path, db_url, ("result", "import", file_a, "--json"),
                            ("result", "import", file_b, "--json"))
    for child in children:
        assert child.code == 0, child.describe()
    assert [c.report["added"] for c in children] == [tables_in(first), tables_in(second)]
    matches = tables_in(first) + tables_in(second)
    assert counts(db_url) == {"Match": matches, "MatchVersion": matches,
                              "Deal": matches * DEALS, "MatchPlace": matches * 4,
                              "imports": 2, "current": matches}
    assert_intact(db_url)
    assert_ratings_as_recomputed(run_cli, db_url)


def test_same_file_twice_at_once(db_url, run_cli, tmp_path):
    seatings = make_event(db_url, "liga-a", NAMES[:32], rounds=2)
    path = write_results(tmp_path / "a.csv", "liga-a", seatings, seed=1)
    matches = tables_in(seatings)
    children = run_together(tmp_path, db_url, ("result", "import", path, "--json"),
                            ("result", "import", path, "--json"))
    added = [c for c in children if c.code == 0 and c.report["added"] == matches]
    assert len(added) == 1, "\n".join(c.describe() for c in children)
    other = children[1 - children.index(added[0])]
    if other.code == 0:
        assert (other.report["added"], other.report["unchanged"]) == (0, matches)
    else:
        assert_clear_failure(other)
        retry = run_cli(db_url, "result", "import", path, "--json").json["details"]
        assert (retry["added"], retry["unchanged"]) == (0, matches)
    assert counts(db_url) == {"Match": matches, "MatchVersion": matches,
                              "Deal": matches * DEALS, "MatchPlace": matches * 4,
                              "imports": 1, "current": matches}
    assert_intact(db_url)
    assert_ratings_as_recomputed(run_cli, db_url)


def _stored_plays(run_cli, db_url: str, path: Path) -> tuple[list, list]:
    """The play column of the stored (current) results and of a file."""
    exported = run_cli(db_url, "result", "export", "liga-a").stdout.splitlines()
    mine = path.read_text(encoding="utf-8").splitlines()
    return sorted(exported[1:]), sorted(mine[1:])


def test_conflicting_versions_at_once(db_url, run_cli, tmp_path):
    """Two files with other content for the same matches: one is stored, the
    other refused with a clear error; --replace then keeps it as version 2."""
    seatings = make_event(db_url, "liga-a", NAMES[:16])
    one = write_results(tmp_path / "one.csv", "liga-a", seatings, seed=1)
    two = write_results(tmp_path / "two.csv", "liga-a", seatings, seed=2)
    matches = tables_in(seatings)
    children = run_together(tmp_path, db_url, ("result", "import", one, "--json"),
                            ("result", "import", two, "--json"))
    winners = [c for c in children if c.code == 0]
    assert len(winners) == 1, "\n".join(c.describe() for c in children)
    assert winners[0].report["added"] == matches
    loser = children[1 - children.index(winners[0])]
    assert_clear_failure(loser)
    won_file, lost_file = (one, two) if winners[0] is children[0] else (two, one)
    stored, expected = _stored_plays(run_cli, db_url, won_file)
    assert stored == expected
    assert counts(db_url)["MatchVersion"] == matches
    # the refused content is not lost: --replace stores it as the new version
    replaced = run_cli(db_url, "result", "import", lost_file, "--replace",
                       "--json").json["details"]
    assert replaced["replaced"] == matches
    stored, expected = _stored_plays(run_cli, db_url, lost_file)
    assert stored == expected
    assert counts(db_url)["MatchVersion"] == 2 * matches
    assert_intact(db_url)
    assert_ratings_as_recomputed(run_cli, db_url)


def test_conflicting_replacements_at_once(db_url, run_cli, tmp_path):
    """Both with --replace at once over a stored version 1: whichever way they are
    serialised, versions are numbered 1.. without gaps and one is current."""
    seatings = make_event(db_url, "liga-a", NAMES[:16])
    base = write_results(tmp_path / "base.csv", "liga-a", seatings, seed=1)
    run_cli(db_url, "result", "import", base)
    one = write_results(tmp_path / "one.csv", "liga-a", seatings, seed=2)
    two = write_results(tmp_path / "two.csv", "liga-a", seatings, seed=3)
    matches = tables_in(seatings)
    children = run_together(tmp_path, db_url,
                            ("result", "import", one, "--replace", "--json"),
                            ("result", "import", two, "--replace", "--json"))
    ok = [c for c in children if c.code == 0]
    assert ok, "\n".join(c.describe() for c in children)
    for child in children:
        if child.code != 0:
            assert_clear_failure(child)
    assert counts(db_url)["MatchVersion"] == matches * (1 + len(ok))
    assert counts(db_url)["current"] == matches
    with Session(open_engine(db_url)) as session:
        rows = session.execute(select(MatchVersion.match_id, MatchVersion.version,
                                      MatchVersion.superseded_at,
                                      Match.current_version_id, MatchVersion.id)
                               .join(Match, Match.id == MatchVersion.match_id)).all()
    by_match: dict[int, list] = {}
    for match_id, version, superseded, current, version_id in rows:
        by_match.setdefault(match_id, []).append((version, superseded is None,
                                                  current == version_id))
    for versions in by_match.values():
        versions.sort()
        assert [v for v, _, _ in versions] == list(range(1, len(ok) + 2))
        # the current one is the newest and the only one not superseded
        assert [(live, cur) for _, live, cur in versions] == (
            [(False, False)] * len(ok) + [(True, True)])
    # the last one stored is what the event exports
    last = ok[0] if len(ok) == 1 else None
    if last is not None:
        path = one if last is children[0] else two
        stored, expected = _stored_plays(run_cli, db_url, path)
        assert stored == expected
    assert_intact(db_url)
    assert_ratings_as_recomputed(run_cli, db_url)


def test_sqlite_second_writer_busy(run_cli, tmp_path):
    """SQLite: while one import holds the write lock, a second command with a
    short busy timeout fails with "database is busy", writing nothing; the file
    stays intact and the second import succeeds when retried."""
    path = tmp_path / "busy.db"
    db_url = f"sqlite:///{path}"
    # big enough that the first import holds the lock well past the second's timeout
    # The importer checks the whole file before it takes the write lock, and holds
    # the lock only while it writes: about 0.3 s for 30 deals a match here.
    big = make_event(db_url, "liga-a", NAMES[:48], rounds=10, deals=120)
    small = make_event(db_url, "liga-b", NAMES[:8])
    file_big = write_results(tmp_path / "big.csv", "liga-a", big, seed=1, deals=120)
    file_small = write_results(tmp_path / "small.csv", "liga-b", small, seed=2)
    go_first, go_second = tmp_path / "go-1", tmp_path / "go-2"
    first = start(tmp_path, go_first, db_url, "result", "import", file_big, "--json")
    second = start(tmp_path, go_second, f"{db_url}?timeout=0.1", "result", "import",
                   file_small, "--json")
    release(go_first, [first, second])
    # wait until the first import holds the write lock for its writing (seen held
    # twice, 0.1 s apart: a short transaction at start-up is not that), then let
    # the second go
    deadline = time.monotonic() + 30

    def locked() -> bool:
        probe = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            return False
        except sqlite3.OperationalError as err:
            assert "locked" in str(err) or "busy" in str(err)
            return True
        finally:
            probe.close()

    while True:
        if locked():
            time.sleep(0.1)
            if locked():
                break
        assert first.process.poll() is None, "the first import ended before it was seen"
        assert time.monotonic() < deadline
        time.sleep(0.001)
    go_second.touch()
    finish([first, second])
    assert first.code == 0, first.describe()
    assert second.code == 1, second.describe()
    assert "database is busy" in second.stderr, second.describe()
    matches = tables_in(big)
    assert first.report["added"] == matches
    assert counts(db_url)["Match"] == matches
    assert_intact(db_url)
    retry = run_cli(db_url, "result", "import", file_small, "--json").json["details"]
    assert retry["added"] == tables_in(small)
    assert counts(db_url)["Match"] == matches + tables_in(small)
    assert_intact(db_url)
    assert_ratings_as_recomputed(run_cli, db_url)


def test_conflict_messages_say_what_happened():
    from tourney.storage.db import conflict_message

    text = conflict_message('duplicate key value violates unique constraint '
                            '"uq_match_event_id_round_number_table"').english()
    assert "another import stored a result" in text and "nothing was written" in text
    assert "database refused" in conflict_message("FOREIGN KEY constraint failed").english()
