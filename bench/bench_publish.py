"""Speed of `tourney publish` on a big league, and how it grows.

Builds a league on a SQLite file (players, events of 100 players at tables of four,
eight rounds each, every match with two bot-played deals), rates it, then times
:func:`tourney.reports.site.publish`:

1. the whole site without replays (index, ratings, every event, round, match and
   player page), in one process and in ``--jobs`` processes (default 2);
2. the same plus the deal replays of one event (``--event``, as a league would
   publish the night's event);
3. at the smaller size only, every replay (the replay throughput);
4. incremental publishing: the whole site with the default processes (one per
   CPU), then one more round of the newest event added (25 tables) and the same
   folder published again; the ratio of the two (target: at most 0.15).

for 1,000 players (10,000 matches) and 10,000 players (100,000 matches), and
prints the ratio: close to 10 means linear growth.

The league is written with bulk inserts (this measures publishing, not importing;
the import path has its own tests and benchmark): deal records come from a pool of
bot-played matches per variant (:func:`tourney.simulation.simulate_match`), each
match taking one of them with its players' names put in.

Usage:  python bench/bench_publish.py [--quick] [--sizes 1000,10000] [--keep DIR [--reuse]]
        [--jobs N] [--incremental-only]
Prints the figures and writes them to bench/out/bench_publish.md (and .json).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from figures import write_figures
from sqlalchemy import insert

from tourney.engines import get_game
from tourney.engines.base import places_from_scores
from tourney.ratings.service import recompute
from tourney.records.csv_format import format_row
from tourney.reports.site import publish
from tourney.simulation import simulate_match
from tourney.storage.db import open_engine, transaction
from tourney.storage.models import (
    Deal,
    Entry,
    Event,
    Match,
    MatchPlace,
    MatchVersion,
    Player,
    Round,
    Seat,
)
from tourney.storage.schema import ensure_schema
from tourney.tournament.scoring import match_points

OUT = Path(__file__).resolve().parent / "out" / "bench_publish.md"
EVENT_PLAYERS = 100
ROUNDS = 8
TABLE = 4
MATCHES_PER_PLAYER = 10  # 1,000 players -> 10,000 matches
VARIANTS = {  # variant -> house rules (two deals a match)
    "spardame": {"deals": "2"},
    "svarta-maja": {"deals": "2"},
    "kortrad": {"deals": "2"},
}
POOL_MATCHES = 40  # bot-played matches per variant, reused across the league
FIRST_NAMES = ("Anna", "Björn", "Cecilia", "David", "Eva", "Frida", "Göran", "Hanna",
               "Ingrid", "Jukka", "Kari", "Liisa", "Mats", "Nora", "Olav", "Päivi")
CHUNK = 20_000


def deal_pool(rng: random.Random) -> dict[str, list[dict]]:
    """Per variant: matches of four seats P0..P3 as stored rows, with their places."""
    pool = {}
    for variant, rules in VARIANTS.items():
        game = get_game(variant)
        options = game.resolve_options(rules)
        matches = []
        for _ in range(POOL_MATCHES):
            seats = [f"P{i}" for i in range(TABLE)]
            records = simulate_match(game, options, seats, rng)
            totals = [0] * TABLE
            deals = []
            for record in records:
                row = format_row(record, canonical_token=game.canonical_token)
                for seat, score in enumerate(row["scores"].split(";")):
                    totals[seat] += game.parse_score(score)
                deals.append(row)
            places = places_from_scores(totals, game.higher_is_better)
            matches.append({"deals": deals, "totals": totals, "places": places,
                            "points": match_points(places)})
        pool[variant] = matches
    return pool


def player_name(i: int) -> str:
    return f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {i:05d}"


def build_league(url: str, players: int, rng: random.Random, pool) -> dict:
    """Write the league with bulk inserts; the counts."""
    engine = open_engine(url)
    ensure_schema(engine)
    matches_wanted = players * MATCHES_PER_PLAYER
    per_event = (EVENT_PLAYERS // TABLE) * ROUNDS
    events = max(1, matches_wanted // per_event)
    names = [player_name(i) for i in range(players)]
    now = dt.datetime.now(dt.UTC)
    rows = {t: [] for t in ("player", "event", "entry", "round", "seat", "match", "version",
                            "place", "deal")}
    rows["player"] = [{"id": i + 1, "name": n, "club": None, "created_at": now}
                      for i, n in enumerate(names)]
    ids = {"round": 0, "seat": 0, "match": 0, "version": 0, "place": 0, "deal": 0, "entry": 0}
    variants = list(VARIANTS)
    start = dt.date(2020, 1, 4)
    for e in range(events):
        variant = variants[e % len(variants)]
        event_id = e + 1
        rows["event"].append({
            "id": event_id, "slug": f"league-{e + 1:04d}", "name": f"League night {e + 1}",
            "variant": variant, "date": start + dt.timedelta(days=7 * e),
            "rules_json": json.dumps(VARIANTS[variant]), "table_min": TABLE,
            "table_max": TABLE, "table_preferred": TABLE, "rounds": ROUNDS,
            "seating": "random", "seed": e, "tiebreaks_json": "[]", "lang": None,
            "created_at": now})
        field = rng.sample(range(1, players + 1), min(EVENT_PLAYERS, players))
        for pid in field:
            ids["entry"] += 1
            rows["entry"].append({"id": ids["entry"], "event_id": event_id, "player_id": pid,
                                  "first_round": 1, "withdrawn_after": None,
                                  "created_at": now})
        for number in range(1, ROUNDS + 1):
            ids["round"] += 1
            round_id = ids["round"]
            rows["round"].append({"id": round_id, "event_id": event_id, "number": number,
                                  "repeated_pairs": 0, "seated_at": now})
            rng.shuffle(field)
            for t in range(len(field) // TABLE):
                seats = field[t * TABLE:(t + 1) * TABLE]
                label = str(t + 1)
                for s, pid in enumerate(seats):
                    ids["seat"] += 1
                    rows["seat"].append({"id": ids["seat"], "round_id": round_id,
                                         "player_id": pid, "table": label, "seat": s})
                played = rng.choice(pool[variant])
                ids["match"] += 1
                ids["version"] += 1
                match_id, version_id = ids["match"], ids["version"]
                rows["match"].append({"id": match_id, "event_id": event_id,
                                      "round_number": number, "table": label,
                                      "current_version_id": version_id})
                rows["version"].append({
                    "id": version_id, "match_id": match_id, "version": 1,
                    "content_sha256": f"{match_id:064x}", "imported_by": "bench",
                    "imported_at": now, "deals": len(played["deals"]),
                    "verified_moves": len(played["deals"]), "ranking_json": "[]"})
                seat_names = [names[pid - 1] for pid in seats]
                for s, pid in enumerate(seats):
                    ids["place"] += 1
                    rows["place"].append({
                        "id": ids["place"], "version_id": version_id, "player_id": pid,
                        "seat": s, "place": played["places"][s],
                        "total": float(played["totals"][s]),
                        "match_points": played["points"][s]})
                for d, deal in enumerate(played["deals"], 1):
                    ids["deal"] += 1
                    dealer = deal["dealer"]
                    rows["deal"].append({
                        "id": ids["deal"], "version_id": version_id, "number": d,
                        "players": ";".join(seat_names),
                        "dealer": seat_names[int(dealer[1:])] if dealer else None,
                        "hands": deal["hands"], "stock": deal["stock"],
                        "passes": deal["passes"], "play": deal["play"],
                        "scores": deal["scores"], "claimed_scores": True,
                        "verified": "moves"})
    tables = {"player": Player, "event": Event, "entry": Entry, "round": Round, "seat": Seat,
              "match": Match, "version": MatchVersion, "place": MatchPlace, "deal": Deal}
    with transaction(engine) as session:
        for key, model in tables.items():
            table = model.__table__
            data = rows[key]
            for first in range(0, len(data), CHUNK):
                session.execute(insert(table), data[first:first + CHUNK])
    with transaction(engine) as session:
        recompute(session)
    engine.dispose()
    return {"players": players, "events": events, "matches": ids["match"],
            "deals": ids["deal"]}


def add_round(url: str, rng: random.Random, pool) -> int:
    """One more round of the newest event (as on a league night): seats, matches
    and deals for its players, the ratings refreshed; the matches added."""
    from sqlalchemy import func, select, update

    from tourney.ratings.service import refresh_after_results

    engine = open_engine(url)
    now = dt.datetime.now(dt.UTC)
    with transaction(engine) as session:
        def next_id(model):
            return (session.execute(select(func.max(model.id))).scalar_one() or 0) + 1

        event = session.execute(select(Event).order_by(Event.id.desc()).limit(1)).scalar_one()
        number = (session.execute(select(func.max(Round.number))
                                  .where(Round.event_id == event.id)).scalar_one() or 0) + 1
        field = [pid for (pid,) in session.execute(
            select(Entry.player_id).where(Entry.event_id == event.id)
            .order_by(Entry.player_id))]
        names = dict(session.execute(select(Player.id, Player.name)
                                     .where(Player.id.in_(field))).all())
        rng.shuffle(field)
        ids = {"round": next_id(Round), "seat": next_id(Seat), "match": next_id(Match),
               "version": next_id(MatchVersion), "place": next_id(MatchPlace),
               "deal": next_id(Deal)}
        session.execute(update(Event).where(Event.id == event.id).values(rounds=number))
        session.execute(insert(Round.__table__), [{
            "id": ids["round"], "event_id": event.id, "number": number,
            "repeated_pairs": 0, "seated_at": now}])
        rows = {"seat": [], "match": [], "version": [], "place": [], "deal": []}
        for t in range(len(field) // TABLE):
            seats = field[t * TABLE:(t + 1) * TABLE]
            label = str(t + 1)
            played = rng.choice(pool[event.variant])
            match_id, version_id = ids["match"] + t, ids["version"] + t
            rows["match"].append({"id": match_id, "event_id": event.id, "round_number": number,
                                  "table": label, "current_version_id": version_id})
            rows["version"].append({
                "id": version_id, "match_id": match_id, "version": 1,
                "content_sha256": f"{match_id:064x}", "imported_by": "bench",
                "imported_at": now, "deals": len(played["deals"]),
                "verified_moves": len(played["deals"]), "ranking_json": "[]"})
            seat_names = [names[pid] for pid in seats]
            for s, pid in enumerate(seats):
                rows["seat"].append({"id": ids["seat"] + len(rows["seat"]),
                                     "round_id": ids["round"], "player_id": pid,
                                     "table": label, "seat": s})
                rows["place"].append({
                    "id": ids["place"] + len(rows["place"]), "version_id": version_id,
                    "player_id": pid, "seat": s, "place": played["places"][s],
                    "total": float(played["totals"][s]), "match_points": played["points"][s]})
            for d, deal in enumerate(played["deals"], 1):
                dealer = deal["dealer"]
                rows["deal"].append({
                    "id": ids["deal"] + len(rows["deal"]), "version_id": version_id,
                    "number": d, "players": ";".join(seat_names),
                    "dealer": seat_names[int(dealer[1:])] if dealer else None,
                    "hands": deal["hands"], "stock": deal["stock"], "passes": deal["passes"],
                    "play": deal["play"], "scores": deal["scores"], "claimed_scores": True,
                    "verified": "moves"})
        for key, model in (("seat", Seat), ("match", Match), ("version", MatchVersion),
                           ("place", MatchPlace), ("deal", Deal)):
            session.execute(insert(model.__table__), rows[key])
        refresh_after_results(session, event.variant)
    engine.dispose()
    return len(rows["match"])


def existing_counts(url: str) -> dict:
    from sqlalchemy import func, select

    engine = open_engine(url)
    with transaction(engine) as session:
        def count(model) -> int:
            return session.execute(select(func.count()).select_from(model)).scalar_one()
        counts = {"players": count(Player), "events": count(Event), "matches": count(Match),
                  "deals": count(Deal)}
    return counts


def timed_publish(url: str, out: Path, **options) -> tuple[float, object]:
    engine = open_engine(url)
    started = time.perf_counter()
    report = publish(engine, out, background_cleanup=True, **options)
    seconds = time.perf_counter() - started
    engine.dispose()
    return seconds, report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000",
                        help="Comma-separated player counts (default 1000,10000).")
    parser.add_argument("--quick", action="store_true", help="Sizes 200 and 1000.")
    parser.add_argument("--keep", metavar="DIR", help="Keep the databases and sites here.")
    parser.add_argument("--reuse", action="store_true",
                        help="Reuse the databases already in --keep DIR.")
    parser.add_argument("--incremental-only", action="store_true",
                        help="Time only the incremental publish against a full one.")
    parser.add_argument("--jobs", type=int, default=2,
                        help="Also time publishing with this many processes (default 2).")
    args = parser.parse_args(argv)
    sizes = [200, 1000] if args.quick else [int(s) for s in args.sizes.split(",")]
    rng = random.Random(2024)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-publish-"))
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    pool = deal_pool(rng)
    print(f"deal pool: {POOL_MATCHES} matches per variant in {time.perf_counter() - t0:.1f} s",
          flush=True)
    results = []
    try:
        for size in sizes:
            db = work / f"league-{size}.db"
            url = f"sqlite:///{db}"
            if args.reuse and db.exists():
                counts = existing_counts(url)
                print(f"{size} players: reusing {counts}", flush=True)
            else:
                db.unlink(missing_ok=True)
                t0 = time.perf_counter()
                counts = build_league(url, size, rng, pool)
                built = time.perf_counter() - t0
                print(f"{size} players: built {counts} in {built:.1f} s", flush=True)
            # Incremental: a full publish with the default processes, one more round of
            # the newest event, then the same folder published again.
            site = work / f"site-{size}-incremental"
            full_time, report_full = timed_publish(url, site, replays=False, jobs=None,
                                                   incremental=False)
            added = add_round(url, rng, pool)
            again, report_again = timed_publish(url, site, replays=False, jobs=None)
            print(f"  publish, no replays, default processes ({report_full.jobs}): "
                  f"{full_time:.1f} s; after one more round ({added} matches): "
                  f"{again:.1f} s, {report_again.rendered} of {report_again.pages} pages "
                  f"rendered, ratio {again / full_time:.3f}", flush=True)
            row = {"size": size, **counts, "auto_full": full_time,
                   "auto_jobs": report_full.jobs, "added": added, "again": again,
                   "again_rendered": report_again.rendered, "again_pages": report_again.pages}
            results.append(row)
            if args.incremental_only:
                continue
            plain, report = timed_publish(url, work / f"site-{size}-plain", replays=False,
                                          jobs=1)
            print(f"  publish, no replays: {plain:.1f} s, {report.pages} pages "
                  f"{ {k: round(v, 1) for k, v in report.timings.items()} }", flush=True)
            jobs_time = None
            if args.jobs > 1:
                jobs_time, report_jobs = timed_publish(url, work / f"site-{size}-jobs",
                                                       replays=False, jobs=args.jobs)
                print(f"  publish, no replays, {args.jobs} processes: {jobs_time:.1f} s "
                      f"{ {k: round(v, 1) for k, v in report_jobs.timings.items()} }",
                      flush=True)
            one, report_one = timed_publish(url, work / f"site-{size}-one",
                                            events=["league-0001"], jobs=1)
            print(f"  publish + replays of one event: {one:.1f} s, {report_one.replays} "
                  "replays", flush=True)
            row.update(plain=plain, pages=report.pages, jobs=args.jobs, jobs_time=jobs_time,
                       one_event=one, one_event_replays=report_one.replays,
                       timings=report.timings)
            if size <= 1000:
                full, report_full = timed_publish(url, work / f"site-{size}-full", jobs=1)
                row.update(full=full, replays=report_full.replays)
                per = (full - plain) / max(report_full.replays, 1) * 1000
                print(f"  publish, every replay: {full:.1f} s, {report_full.replays} replays "
                      f"({per:.2f} ms per replay page)", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    write_report(results)
    return 0


def write_report(results: list[dict]) -> None:
    lines = ["# bench_publish", "",
             (f"Python {sys.version.split()[0]}; SQLite; events of {EVENT_PLAYERS} players "
             f"at tables of {TABLE}, {ROUNDS} rounds, two deals a match."), "",
             ("| players | matches | deals | pages | publish (no replays) | pages/s "
             "| the same, N processes | + replays of one event | every replay |"),
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    incremental = ["", "Incremental publishing: the whole site (no replays) with the default "
                   "processes, then one more round of the newest event imported and the "
                   "same folder published again (unchanged pages reused, not rendered). "
                   "Target: the second at most 0.15 of the first.", "",
                   "| players | full publish (processes) | one more round | pages rendered "
                   "| ratio |", "|---:|---:|---:|---:|---:|"]
    for r in results:
        incremental.append(
            f"| {r['players']:,} | {r['auto_full']:.1f} s ({r['auto_jobs']}) "
            f"| {r['again']:.1f} s ({r['added']} matches) "
            f"| {r['again_rendered']:,} of {r['again_pages']:,} "
            f"| {r['again'] / r['auto_full']:.3f} |")
    for r in (r for r in results if "plain" in r):
        full = (f"{r['full']:.1f} s ({r['replays']} replays)" if "full" in r else "not run")
        jobs = (f"{r['jobs_time']:.1f} s (N={r['jobs']})" if r.get("jobs_time") else "not run")
        lines.append(f"| {r['players']:,} | {r['matches']:,} | {r['deals']:,} | {r['pages']:,} "
                     f"| {r['plain']:.1f} s | {r['pages'] / r['plain']:.0f} | {jobs} "
                     f"| {r['one_event']:.1f} s ({r['one_event_replays']} replays) | {full} |")
    if len([r for r in results if "plain" in r]) >= 2:
        a, b = [r for r in results if "plain" in r][0], [r for r in results if "plain" in r][-1]
        lines += ["", (f"Growth from {a['players']:,} to {b['players']:,} players "
                  f"(x{b['matches'] / a['matches']:.0f} matches): publish time "
                  f"x{b['plain'] / a['plain']:.1f}.")]
    if not any("plain" in r for r in results):  # --incremental-only: no whole-site timings
        lines = lines[:3]
    text = "\n".join(lines + incremental) + "\n"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(text)
    write_figures("bench_publish", {"cpus": len(os.sched_getaffinity(0)), "sizes": [
        {key: value for key, value in r.items() if isinstance(value, (int, float, str))}
        | {"incremental_ratio": r["again"] / r["auto_full"]} for r in results]})


if __name__ == "__main__":
    sys.exit(main())
