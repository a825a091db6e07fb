"""Speed of the rating engine: a pool recompute against a bare openskill loop.

1. Pure engine: rating 100,000 four-player matches (some with shared places) with
   :class:`tourney.ratings.engine.Rater`, which also records every player's before
   and after, against a bare loop of ``model.rate()`` over the same matches in the
   same run (ratings kept as Rating objects in a dict, nothing recorded). Runs
   alternate (bare, engine, bare, engine...) and are timed in process CPU time
   (other processes on a shared machine skew wall-clock ratios badly); the best
   run of each is compared. Target: the engine at 0.8 of the bare rate or better.
2. Database: the same through :mod:`tourney.ratings.service` on a SQLite file
   (a smaller pool, 10,000 matches by default): a full recompute, a refresh
   that finds nothing to do, a refresh after one new round, and a refresh after a
   correction halfway through the pool (replays half of it).
   ``--postgres URL`` runs the database part on PostgreSQL as well (a database
   that will be emptied: give a scratch one). Wall time includes waiting for the
   database (and for the CPU on a busy machine); CPU time is this process's alone.

Usage:  python bench/bench_ratings.py [--quick] [--matches N] [--db-matches N]
Prints the figures and writes them to bench/out/bench_ratings.md.
"""
from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import bindparam, func, insert, select, update

from tourney.ratings.engine import Rater
from tourney.ratings.models import DEFAULT_SPEC
from tourney.ratings.service import recompute, refresh_after_results
from tourney.storage.db import open_engine, transaction
from tourney.storage.models import (
    Event,
    Match,
    MatchPlace,
    MatchVersion,
    Player,
    RatingHistory,
    SQLModel,
    utcnow,
)
from tourney.storage.schema import ensure_schema

OUT = Path(__file__).resolve().parent / "out" / "bench_ratings.md"
VARIANT = "spardame"
TABLE = 4


def random_matches(count: int, players: int, rng: random.Random) -> list[list[tuple[int, int]]]:
    """Four-player rankings; one match in eight has a shared place."""
    matches = []
    for _ in range(count):
        seats = rng.sample(range(players), TABLE)
        places = [1, 2, 3, 4]
        if rng.random() < 0.125:
            places = rng.choice(([1, 1, 3, 4], [1, 2, 2, 4], [1, 2, 3, 3]))
        matches.append(list(zip(seats, places)))
    return matches


def bare_loop(model, matches) -> float:
    ratings = {}
    rate, new = model.rate, model.rating
    started = time.process_time()
    for ranking in matches:
        teams = []
        for player, _ in ranking:
            rating = ratings.get(player)
            teams.append([rating if rating is not None else new()])
        result = rate(teams, ranks=[place for _, place in ranking])
        for (player, _), team in zip(ranking, result):
            ratings[player] = team[0]
    return time.process_time() - started


def engine_loop(model, matches) -> float:
    started = time.process_time()
    rater = Rater(model)
    history = rater.rate_all(matches)
    elapsed = time.process_time() - started
    assert len(history) == len(matches)
    return elapsed


def bench_pure(count: int, players: int, repeats: int, seed: int) -> list[str]:
    matches = random_matches(count, players, random.Random(seed))
    model = DEFAULT_SPEC.build()
    bare, engine = [], []
    for _ in range(repeats):
        bare.append(bare_loop(model, matches))
        engine.append(engine_loop(model, matches))
    bare_rate = count / min(bare)
    engine_rate = count / min(engine)
    ratio = engine_rate / bare_rate
    median_ratio = sorted(b / e for b, e in zip(bare, engine))[len(bare) // 2]
    return [
        f"## Pure engine: {count:,} four-player matches, {players:,} players, "
        f"{DEFAULT_SPEC.describe()}",
        "",
        "| loop | best CPU time | matches/s |",
        "|---|---:|---:|",
        f"| bare `model.rate()` loop | {min(bare):.2f} s | {bare_rate:,.0f} |",
        f"| `Rater.rate_all` (with before/after per player) | {min(engine):.2f} s | "
        f"{engine_rate:,.0f} |",
        "",
        f"Ratio engine/bare (best of {repeats} alternating runs each): **{ratio:.3f}** "
        f"(target >= 0.8); median of the per-pair ratios: {median_ratio:.3f}. "
        f"All runs (s): bare {', '.join(f'{t:.2f}' for t in bare)}; "
        f"engine {', '.join(f'{t:.2f}' for t in engine)}.",
    ]


# ------------------------------------------------------------------------ database

def populate(engine, count: int, players: int, seed: int, events: int) -> None:
    """``count`` matches in ``events`` events of 10 tables a round, straight into
    the tables (the importer's job, done here in bulk)."""
    rng = random.Random(seed)
    per_event = count // events
    rounds = max(1, per_event // 10)
    with transaction(engine) as session:
        session.execute(insert(Player.__table__),
                        [{"name": f"P{i:05d}", "created_at": utcnow()} for i in range(players)])
        ids = list(session.execute(select(Player.id).order_by(Player.id)).scalars())
        day = dt.date(2020, 1, 1)
        for e in range(events):
            event = Event(slug=f"bench-{e}", name=f"Bench {e}", variant=VARIANT,
                          date=day + dt.timedelta(days=7 * e), table_min=4, table_max=4,
                          table_preferred=4, seating="random")
            session.add(event)
            session.flush()
            _add_rounds(session, event.id, 1, rounds, ids, rng)


def _add_rounds(session, event_id: int, first: int, rounds: int, ids, rng) -> None:
    match_rows = [{"event_id": event_id, "round_number": r, "table": str(t)}
                  for r in range(first, first + rounds) for t in range(1, 11)]
    session.execute(insert(Match.__table__), match_rows)
    match_ids = list(session.execute(
        select(Match.id).where(Match.event_id == event_id, Match.round_number >= first)
        .order_by(Match.id)).scalars())
    session.execute(insert(MatchVersion.__table__),
                    [{"match_id": m, "version": 1, "content_sha256": "0" * 64,
                      "imported_at": utcnow(), "ranking_json": "[]", "deals": 0,
                      "verified_moves": 0} for m in match_ids])
    versions = dict(session.execute(
        select(MatchVersion.match_id, MatchVersion.id)
        .where(MatchVersion.match_id.in_(match_ids))).all())
    places = []
    for m in match_ids:
        for seat, (player, place) in enumerate(random_matches(1, len(ids), rng)[0]):
            places.append({"version_id": versions[m], "player_id": ids[player], "seat": seat,
                           "place": place, "total": 0.0, "match_points": 0.0})
    session.execute(insert(MatchPlace.__table__), places)
    match_t = Match.__table__
    session.execute(update(match_t).where(match_t.c.id == bindparam("b_id"))
                    .values(current_version_id=bindparam("b_version")),
                    [{"b_id": m, "b_version": versions[m]} for m in match_ids])


def timed(engine, action) -> tuple[float, float, object]:
    """Wall-clock and process CPU seconds of one transaction (commit included)."""
    started, cpu = time.perf_counter(), time.process_time()
    with transaction(engine) as session:
        result = action(session)
    return time.perf_counter() - started, time.process_time() - cpu, result


def correct_middle(session) -> None:
    """A new current version (places reversed) for the middle match of the pool."""
    ids = list(session.execute(select(Match.id).order_by(Match.id)).scalars())
    match = session.get(Match, ids[len(ids) // 2])
    old = session.execute(select(MatchPlace).where(
        MatchPlace.version_id == match.current_version_id)).scalars().all()
    version = MatchVersion(match_id=match.id, version=2, content_sha256="1" * 64)
    session.add(version)
    session.flush()
    session.execute(insert(MatchPlace.__table__), [
        {"version_id": version.id, "player_id": p.player_id, "seat": p.seat,
         "place": TABLE + 1 - p.place, "total": 0.0, "match_points": 0.0} for p in old])
    match.current_version_id = version.id
    session.add(match)
    session.flush()


def bench_db(url: str, count: int, players: int, seed: int, label: str) -> list[str]:
    engine = open_engine(url)
    if not url.startswith("sqlite"):
        SQLModel.metadata.drop_all(engine)
        with engine.begin() as connection:
            connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    ensure_schema(engine)
    events = max(1, count // 500)
    started = time.perf_counter()
    populate(engine, count, players, seed, events)
    filled = time.perf_counter() - started
    rows = []
    seconds, cpu, result = timed(engine, lambda s: recompute(s, VARIANT))
    rows.append(("full recompute", seconds, cpu, result[VARIANT]))
    seconds, cpu, result = timed(engine, lambda s: recompute(s, VARIANT))
    rows.append(("full recompute, again (history replaced)", seconds, cpu, result[VARIANT]))
    seconds, cpu, result = timed(engine, lambda s: refresh_after_results(s, VARIANT))
    rows.append(("refresh, nothing changed (detection only)", seconds, cpu, result))

    def new_round(session):
        last = session.execute(select(func.max(Event.id))).scalar()
        top = session.execute(select(func.max(Match.round_number))
                              .where(Match.event_id == last)).scalar()
        ids = list(session.execute(select(Player.id).order_by(Player.id)).scalars())
        _add_rounds(session, last, top + 1, 1, ids, random.Random(seed + 1))
        return refresh_after_results(session, VARIANT)

    seconds, cpu, result = timed(engine, new_round)
    rows.append(("import of one new round (10 matches) + refresh", seconds, cpu, result))

    def one_match(added: bool):
        def action(session):
            last = session.execute(select(func.max(Event.id))).scalar()
            top = session.execute(select(func.max(Match.round_number))
                                  .where(Match.event_id == last)).scalar()
            ids = list(session.execute(select(Player.id).order_by(Player.id)).scalars())
            seats = random.Random(seed + top).sample(ids, TABLE)
            match = Match(event_id=last, round_number=top + 1, table="1")
            session.add(match)
            session.flush()
            version = MatchVersion(match_id=match.id, version=1, content_sha256="2" * 64)
            session.add(version)
            session.flush()
            session.execute(insert(MatchPlace.__table__), [
                {"version_id": version.id, "player_id": p, "seat": i, "place": i + 1,
                 "total": 0.0, "match_points": 0.0} for i, p in enumerate(seats)])
            match.current_version_id = version.id
            session.add(match)
            session.flush()
            return refresh_after_results(session, VARIANT,
                                         added=[match.id] if added else ())
        return action

    # one new result: found by comparing the whole pool, then told (added=)
    seconds, cpu, result = timed(engine, one_match(False))
    rows.append(("one new match + refresh, found by comparing the pool", seconds, cpu, result))
    seconds, cpu, result = timed(engine, one_match(True))
    rows.append(("one new match + refresh, told which (rated on its own)", seconds, cpu,
                 result))

    def corrected(session):
        correct_middle(session)
        return refresh_after_results(session, VARIANT)

    seconds, cpu, result = timed(engine, corrected)
    rows.append(("correction halfway + refresh (replays half)", seconds, cpu, result))
    with transaction(engine) as session:
        history = session.execute(select(func.count()).select_from(RatingHistory)).scalar()
    engine.dispose()
    lines = [
        f"## Database ({label}): {count:,} matches, {players:,} players, {events} events",
        "",
        f"Filled in {filled:.1f} s; {history:,} history rows after the runs.",
        "",
        "| operation | wall time | CPU time (this process) | matches rated | matches/s (wall) |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, seconds, cpu, rated in rows:
        rate = f"{rated / seconds:,.0f}" if rated else ""
        lines.append(f"| {name} | {seconds:.2f} s | {cpu:.2f} s | {rated:,} | {rate} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Smaller pools.")
    parser.add_argument("--matches", type=int, help="Pure-engine pool size (default 100000).")
    parser.add_argument("--players", type=int, help="Players in the pure-engine pool.")
    parser.add_argument("--db-matches", type=int, help="Database pool size (default 10000).")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--postgres", metavar="URL",
                        help="Also run the database part here (its tables are dropped).")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    count = args.matches or (20_000 if args.quick else 100_000)
    players = args.players or max(40, count // 25)  # 100 matches per player
    db_count = args.db_matches or (2_000 if args.quick else 10_000)

    lines = ["# Rating speed", "", f"Python {sys.version.split()[0]}; openskill "
             f"{__import__('importlib.metadata').metadata.version('openskill')}.", ""]
    lines += bench_pure(count, players, args.repeats, args.seed)
    print("\n".join(lines), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        db_lines = [""] + bench_db(f"sqlite:///{folder}/bench.db", db_count,
                                   max(40, db_count // 25), args.seed, "SQLite file")
    print("\n".join(db_lines), flush=True)
    lines += db_lines
    if args.postgres:
        pg_lines = [""] + bench_db(args.postgres, db_count, max(40, db_count // 25),
                                   args.seed, "PostgreSQL")
        print("\n".join(pg_lines), flush=True)
        lines += pg_lines
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"\nwritten to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
