"""Speed of a season's standings: `tourney series standings` for a league of
10,000 players over 40 events (issue 32's target: under 2 s).

Builds the league on a scratch SQLite file (or a scratch PostgreSQL database,
``--db-url``) with bulk inserts (this measures the standings, not the import):
``--players`` players (default 10,000; a third with a club), ``--events`` events
(default 40) of ``--per-event`` players each (default 2,500, drawn at random, so a
player plays 10 events on average), each event ``--rounds`` rounds (default 2) at
tables of four, every match with random places and the share match points the
events use. Then times, best of ``--repeats`` (default 3):

1. :func:`tourney.tournament.series.series_standings` in-process (best 10, at least
   5 events, handicaps for every player): from the events' standings snapshots
   (kept by ``series add``, as every command that changes an event of a series
   keeps them), and afresh, as if no snapshot were valid, with the share of it
   spent in the 40 events' own standings;
2. the same as a whole process: ``tourney series standings SLUG --json`` with its
   output to /dev/null (start-up, schema check and JSON included), beside the
   start-up floor (``tourney series list --json``);
3. the club teams: ``tourney standings SLUG --teams club --count 3 --json``.

Usage:  python bench/bench_series.py [--quick] [--players N] [--events N]
        [--per-event N] [--rounds N] [--repeats R] [--db-url URL]
Prints the figures and writes them to bench/out/bench_series.md (and .json).
``--quick``: 1,000 players, 10 events of 250.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import OUT, write_figures
from sqlalchemy import insert, select, text, update
from sqlmodel import Session

from tourney.storage.db import dispose_engines, open_engine
from tourney.storage.models import Entry, Match, MatchPlace, MatchVersion, Player
from tourney.storage.schema import ensure_schema
from tourney.tournament.series import (
    add_events,
    create_series,
    get_series,
    series_standings,
    set_handicaps,
)

SHARES = {1: 1.0, 2: 2 / 3, 3: 1 / 3, 4: 0.0}  # share points at a table of four


def build(url: str, players: int, events: int, per_event: int, rounds: int, seed: int) -> None:
    from tourney.tournament.events import create_event

    rng = random.Random(seed)
    engine = open_engine(url)
    ensure_schema(engine)
    with Session(engine) as session:
        session.execute(insert(Player), [
            {"name": f"Player {n:05d}", "club": f"Club {n % 50}" if n % 3 == 0 else None}
            for n in range(players)])
        ids = list(session.execute(select(Player.id)).scalars())
        slugs = []
        for number in range(1, events + 1):
            slug = f"night-{number:02d}"
            create_event(session, slug, "spardame", table_sizes="4", rounds=rounds)
            slugs.append(slug)
        session.commit()
        event_ids = dict(session.execute(text("SELECT slug, id FROM event")).all())
        for slug in slugs:
            event_id = event_ids[slug]
            entrants = rng.sample(ids, per_event - per_event % 4)
            session.execute(insert(Entry), [{"event_id": event_id, "player_id": pid}
                                            for pid in entrants])
            matches, places = [], []
            for round_number in range(1, rounds + 1):
                rng.shuffle(entrants)
                for table in range(len(entrants) // 4):
                    matches.append({"event_id": event_id, "round_number": round_number,
                                    "table": str(table + 1)})
                    places.append(entrants[4 * table:4 * table + 4])
            session.execute(insert(Match), matches)
            match_ids = list(session.execute(select(Match.id).where(
                Match.event_id == event_id).order_by(Match.id)).scalars())
            session.execute(insert(MatchVersion), [
                {"match_id": mid, "version": 1, "content_sha256": "0" * 64, "ranking_json": "[]"}
                for mid in match_ids])
            versions = dict(session.execute(select(MatchVersion.match_id, MatchVersion.id)
                                            .where(MatchVersion.match_id.in_(match_ids))).all())
            session.execute(update(Match), [{"id": mid, "current_version_id": versions[mid]}
                                            for mid in match_ids])
            rows = []
            for mid, seated in zip(match_ids, places):
                order = rng.sample(range(1, 5), 4)
                for seat, (pid, place) in enumerate(zip(seated, order)):
                    rows.append({"version_id": versions[mid], "player_id": pid, "seat": seat,
                                 "place": place, "total": rng.randint(0, 40),
                                 "match_points": SHARES[place]})
            session.execute(insert(MatchPlace), rows)
            session.commit()
        series = create_series(session, "league", best=10, min_events=5, handicap=True)
        add_events(session, series, slugs)
        names = list(session.execute(select(Player.name)).scalars())
        set_handicaps(session, series, {name: rng.randint(0, 8) / 4 for name in names})
        session.commit()
    engine.dispose()


def timed(function, repeats: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def in_process(url: str, repeats: int, *, afresh: bool = False) -> dict:
    """series_standings in this process, with the events' snapshots (kept by
    `series add`, as the commands that change an event keep them), or ``afresh``:
    every event's standings computed as if no snapshot were valid."""
    import tourney.tournament.snapshots as snapshots_module

    engine = open_engine(url, read_only=True)
    spent = {"events": 0.0}
    original = snapshots_module.event_results
    original_valid = snapshots_module._valid_snapshots

    def counting(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent["events"] += time.perf_counter() - start

    runs = []

    def run():
        spent["events"] = 0.0
        start, cpu = time.perf_counter(), time.process_time()
        with Session(engine) as session:
            result = series_standings(session, get_series(session, "league"))
        runs.append((time.perf_counter() - start, spent["events"],
                     time.process_time() - cpu))
        return result

    snapshots_module.event_results = counting
    if afresh:
        # every event's key as now, no snapshot carrying it: each computed afresh
        def no_snapshot(session, events):
            return original_valid(session, events)[0], {}

        snapshots_module._valid_snapshots = no_snapshot
    try:
        seconds, standings = timed(run, repeats)
    finally:
        snapshots_module.event_results = original
        snapshots_module._valid_snapshots = original_valid
    engine.dispose()
    seconds, spent["events"], cpu = min(runs)  # the best run and its share
    return {"seconds": seconds, "cpu": cpu, "rows": len(standings.rows),
            "qualified": sum(r.qualified for r in standings.rows),
            "events_share": spent["events"]}


def whole_process(url: str, args: list[str], repeats: int) -> tuple[float, float]:
    """The best wall time of ``tourney ARGS`` and the CPU time (user + system) of
    that run: on a shared machine the CPU time is the steadier figure."""
    tourney = Path(sys.executable).parent / "tourney"
    runs = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        with open(os.devnull, "w") as sink:
            subprocess.run([str(tourney), *args, "--db", url], stdout=sink, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        runs.append((wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--per-event", type=int, default=2_500)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-url", help="a PostgreSQL server's URL: a scratch database there")
    options = parser.parse_args()
    if options.quick:
        options.players, options.events, options.per_event = 1_000, 10, 250
    scratch = tempfile.mkdtemp(prefix="bench-series-")
    url = f"sqlite:///{scratch}/league.db"
    if options.db_url:
        from sqlalchemy import create_engine
        from sqlalchemy.engine import make_url

        name = f"bench_series_{os.getpid()}"
        admin = create_engine(options.db_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        url = make_url(options.db_url).set(database=name).render_as_string(hide_password=False)
    try:
        start = time.perf_counter()
        build(url, options.players, options.events, options.per_event, options.rounds,
              options.seed)
        built = time.perf_counter() - start
        inside = in_process(url, options.repeats)
        afresh = in_process(url, options.repeats, afresh=True)
        dispose_engines()
        cli = whole_process(url, ["series", "standings", "league", "--json"], options.repeats)
        floor = whole_process(url, ["series", "list", "--json"], options.repeats)
        teams = whole_process(url, ["standings", "league", "--teams", "club", "--count", "3",
                                    "--json"], options.repeats)
    finally:
        dispose_engines()
        shutil.rmtree(scratch, ignore_errors=True)
        if options.db_url:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
    backend = "PostgreSQL" if options.db_url else "SQLite"
    matches = options.events * options.rounds * (options.per_event // 4)
    lines = [
        f"# Series standings ({backend})",
        "",
        f"{options.players:,} players, {options.events} events of {options.per_event:,} "
        f"players, {options.rounds} rounds at tables of four ({matches:,} matches); best 10 "
        f"events count, 5 to qualify, handicaps for everyone. Best of {options.repeats}. "
        f"League built in {built:.1f} s (bulk inserts).",
        "",
        "| what | wall s | CPU s |",
        "|---|---|---|",
        f"| series_standings in-process, every event afresh (no valid snapshot) "
        f"| {afresh['seconds']:.2f} | {afresh['cpu']:.2f} |",
        f"| of which the events' own standings | {afresh['events_share']:.2f} | |",
        f"| series_standings in-process, from the events' snapshots ({inside['rows']:,} rows, "
        f"{inside['qualified']:,} qualified) | {inside['seconds']:.2f} | {inside['cpu']:.2f} |",
        f"| `tourney series standings league --json` (whole process) | {cli[0]:.2f} "
        f"| {cli[1]:.2f} |",
        f"| `tourney series list --json` (the start-up floor) | {floor[0]:.2f} "
        f"| {floor[1]:.2f} |",
        f"| `tourney standings league --teams club --count 3 --json` | {teams[0]:.2f} "
        f"| {teams[1]:.2f} |",
        "",
        "Target (issue 32): series standings under 2 s. CPU s: the process's own time "
        "(user + system), steadier than wall time on a shared machine.",
    ]
    report = "\n".join(lines)
    print(report)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"bench_series{'_pg' if options.db_url else ''}.md").write_text(report + "\n")
    write_figures("bench_series", {"backend": backend, "players": options.players,
                                   "events": options.events, "per_event": options.per_event,
                                   "matches": matches, "in_process": inside["seconds"],
                                   "in_process_cpu": inside["cpu"],
                                   "afresh": afresh["seconds"], "afresh_cpu": afresh["cpu"],
                                   "events_share": afresh["events_share"], "cli": cli[0],
                                   "floor": floor[0], "floor_cpu": floor[1],
                                   "cli_cpu": cli[1], "teams_cli": teams[0],
                                   "teams_cli_cpu": teams[1]})


if __name__ == "__main__":
    main()
