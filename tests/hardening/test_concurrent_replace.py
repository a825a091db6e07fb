"""Concurrent `result import --replace`: exactly one live version per match, always.

The interleaving that lost an update on PostgreSQL: importer A reads a match's
current version, importer B replaces that match and commits, then A writes its
own version over the one it read. Both said "replaced" and two versions were
live. Now A's write finds the match's current version changed, and A fails with
the conflict error (exit 1, nothing written); B's version stays current.

The deterministic test runs exactly that interleaving in-process (A, having read the
matches, runs B to completion before it goes on). On SQLite B cannot run while A holds the write
lock: it waits for the busy timeout and fails with "database is busy", and A
completes. The random test runs six importers at once (threads with their own
connections: real concurrent transactions, without paying a process start-up
each), five rounds, and checks the invariant after each.
"""
from __future__ import annotations

import os
import random
import threading

from event_setup import seated_event, simulate_tables, write_file
from sqlalchemy import select
from sqlmodel import Session

from tourney.app.results import ImportOptions, import_results
from tourney.errors import TourneyError
from tourney.storage.db import open_engine, transaction
from tourney.storage.models import Match, MatchVersion
from tourney.tournament import result_writer

VARIANT = "kortrad"
RULES = {"deals": "2"}
NAMES = [f"Spelare {i}" for i in range(1, 9)]  # two tables of four
ROUNDS = 5  # of six importers at once


def versions_by_match(db_url: str) -> dict[tuple, list]:
    with Session(open_engine(db_url)) as session:
        rows = session.execute(
            select(Match.round_number, Match.table, MatchVersion.version,
                   MatchVersion.superseded_at.is_(None), Match.current_version_id == MatchVersion.id,
                   MatchVersion.source_file)
            .join(MatchVersion, MatchVersion.match_id == Match.id)).all()
    by_match: dict[tuple, list] = {}
    for round_number, table, version, live, current, source in rows:
        by_match.setdefault((round_number, table), []).append((version, live, current, source))
    return {key: sorted(value) for key, value in by_match.items()}


def assert_one_live_version(db_url: str) -> dict[tuple, str]:
    """Every match: versions 1..n without a gap, exactly one not superseded, and
    that one is the current one. Returns each match's current source file."""
    current_source = {}
    for key, versions in versions_by_match(db_url).items():
        assert [v for v, *_ in versions] == list(range(1, len(versions) + 1)), (key, versions)
        live = [v for v in versions if v[1]]
        assert len(live) == 1 and live[0][2], (key, versions)
        assert sum(1 for v in versions if v[2]) == 1, (key, versions)
        current_source[key] = live[0][3]
    return current_source


def setup(tourney, tmp_path, seeds):
    tables = seated_event(tourney, "cup", VARIANT, NAMES, table_size=4, rules=RULES)
    files = [write_file(tmp_path / f"v{seed}.csv",
                        simulate_tables(VARIANT, "cup", tables, rules=RULES, seed=seed, deals=2),
                        VARIANT) for seed in seeds]
    tourney("result", "import", files[0])
    return files


def test_stale_replace_gets_the_conflict_error(db_url, tourney, run_cli, tmp_path, monkeypatch):
    base, stale, fresh = setup(tourney, tmp_path, seeds=(1, 2, 3))
    original_accept = result_writer.VersionWriter.add
    other = {}

    def accept_after_another_import(self, *args, **kwargs):
        if not other:  # importer A has read the match's current version; B runs now
            other["run"] = None  # B's own steps go straight on
            b_url = db_url + ("?timeout=0.2" if db_url.startswith("sqlite") else "")
            other["run"] = run_cli(b_url, "result", "import", fresh, "--replace",
                                   exit_code=None)
        return original_accept(self, *args, **kwargs)

    monkeypatch.setattr(result_writer.VersionWriter, "add", accept_after_another_import)
    a = tourney("result", "import", stale, "--replace", exit_code=None)
    b = other["run"]
    sources = assert_one_live_version(db_url)
    if db_url.startswith("sqlite"):
        # B waited for A's write lock and gave up; A replaced both matches.
        assert b.exit_code == 1 and "database is busy" in b.stderr, b.stderr
        assert a.exit_code == 0, a.stderr
        assert set(sources.values()) == {os.path.basename(stale)} or \
            set(sources.values()) == {str(stale)}
    else:
        # B stored its versions; A read version 1, found it superseded: exit 1.
        assert b.exit_code == 0, b.stderr
        assert a.exit_code == 1, (a.stdout, a.stderr)
        assert "another command stored a new version of this match while this import ran" \
            in a.stderr and "Traceback" not in a.stderr
        assert len(a.stderr.strip().splitlines()) == 1
        assert {os.path.basename(s) for s in sources.values()} == {os.path.basename(fresh)}
        assert all(len(v) == 2 for v in versions_by_match(db_url).values())
    # Running A again now compares with what is stored, and replaces it.
    monkeypatch.setattr(result_writer.VersionWriter, "add", original_accept)
    if a.exit_code == 1:
        assert "replaced: 2" in tourney("result", "import", stale, "--replace").stderr
        assert_one_live_version(db_url)


def replace_at_once(db_url: str, paths: list, barrier: threading.Barrier) -> list:
    """Each path imported with --replace by its own thread, on its own connection,
    all starting at the barrier; each thread's outcome: "ok" or the error's text."""
    outcomes: list = [None] * len(paths)

    def run(index: int, path) -> None:
        engine = open_engine(db_url)
        barrier.wait(timeout=60)
        try:
            with transaction(engine) as session:
                import_results(session, str(path),
                               ImportOptions(replace=True, imported_by=f"t{index}"))
            outcomes[index] = "ok"
        except TourneyError as err:
            outcomes[index] = str(err)

    threads = [threading.Thread(target=run, args=(i, p)) for i, p in enumerate(paths)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcomes


def test_random_concurrent_replaces(db_url, tourney, tmp_path):
    """Rounds of six importers at once (threads, each with its own database
    connection and transaction), each replacing both matches with a random file's
    version; after every round each match has exactly one live version, and every
    importer either stored its version or failed with a conflict (or, on SQLite,
    busy) error."""
    rng = random.Random(13)
    files = setup(tourney, tmp_path, seeds=range(1, 8))
    # SQLite: a short busy timeout, so a waiting importer gives up rather than queue.
    url = db_url + ("?timeout=2" if db_url.startswith("sqlite") else "")
    runs = stored = 0
    for _ in range(ROUNDS):
        chosen = rng.sample(files[1:], 6)
        outcomes = replace_at_once(url, chosen, threading.Barrier(len(chosen)))
        runs += len(outcomes)
        for outcome in outcomes:
            assert outcome is not None, "an importer did not finish"
            if outcome == "ok":
                stored += 1
            else:
                assert ("at the same moment" in outcome or "while this import ran" in outcome
                        or "database is busy" in outcome), outcome
        sources = assert_one_live_version(url)
        assert len(set(sources.values())) >= 1
    assert runs == 6 * ROUNDS and stored >= ROUNDS  # at least one importer per round stored
    # the ratings equal a recompute of what is stored
    shown = tourney("rating", "show", "--json").json
    tourney("rating", "recompute")
    assert tourney("rating", "show", "--json").json == shown
