"""Shared helpers of the result-import and standings tests.

Events are set up straight through the models (players, entries, a seated round),
so these tests do not depend on the seating algorithms; the end-to-end test seats
through the CLI instead. Every helper takes unique slugs and names, so tests can
share one database (the PostgreSQL fixture gives one per session).
"""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Sequence

from click.testing import CliRunner
from sqlalchemy import func, select
from sqlmodel import Session

from tourney.cli.main import cli
from tourney.engines import get_game
from tourney.records.csv_format import DealRecord, write_records
from tourney.simulation import simulate_match
from tourney.storage.db import open_engine
from tourney.storage.models import (
    AuditLog,
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

_counter = itertools.count(1)


def unique(prefix: str = "ev") -> str:
    return f"{prefix}-{next(_counter)}-{random.randrange(10 ** 6)}"


def make_engine(db_url: str):
    engine = open_engine(db_url)
    ensure_schema(engine)
    return engine


def run(db_url: str, *args: str, ok: bool | None = None):
    """Run the CLI; ``ok=True`` asserts exit 0, ``ok=False`` a failure."""
    result = CliRunner().invoke(cli, [*map(str, args), "--db", db_url], catch_exceptions=False)
    if ok is True:
        assert result.exit_code == 0, result.output
    elif ok is False:
        assert result.exit_code != 0, result.output
    return result


def create_event(engine, slug: str, variant: str, *, size: int, rules: dict | None = None,
                 tiebreaks: Sequence[str] | None = None, seed: int = 1,
                 points: str = "share", bye_points: float | None = None) -> int:
    with Session(engine) as session:
        event = Event(slug=slug, name=slug, variant=variant, rules_json=json.dumps(rules or {}),
                      table_min=size, table_max=size, table_preferred=size,
                      seating="random", seed=seed, tiebreaks_json=json.dumps(list(tiebreaks or [])),
                      points=points, bye_points=bye_points)
        session.add(event)
        session.commit()
        return event.id


def seat_round(engine, slug: str, number: int, tables: Sequence[Sequence[str]],
               byes: Sequence[str] = (), withdrawn: dict[str, int] | None = None) -> None:
    """Seat a round: tables "1", "2"... of the given names (seat 0 first); players
    and entries are created as needed."""
    withdrawn = withdrawn or {}
    with Session(engine) as session:
        event = session.execute(select(Event).where(Event.slug == slug)).scalar_one()
        ids = {}
        for name in [n for t in tables for n in t] + list(byes):
            player = session.execute(select(Player).where(Player.name == name)).scalar()
            if player is None:
                player = Player(name=name)
                session.add(player)
                session.flush()
            ids[name] = player.id
            entry = session.execute(select(Entry).where(
                Entry.event_id == event.id, Entry.player_id == player.id)).scalar()
            if entry is None:
                session.add(Entry(event_id=event.id, player_id=player.id,
                                  withdrawn_after=withdrawn.get(name)))
        round_row = Round(event_id=event.id, number=number)
        session.add(round_row)
        session.flush()
        for index, table in enumerate(tables, 1):
            for seat, name in enumerate(table):
                session.add(Seat(round_id=round_row.id, player_id=ids[name], table=str(index),
                                 seat=seat))
        for name in byes:
            session.add(Seat(round_id=round_row.id, player_id=ids[name], table=None, seat=None))
        session.commit()


def simulate(variant: str, slug: str | None, number: int, tables: Sequence[Sequence[str]],
             *, seed: int = 1, rules: dict | None = None, deals: int | None = None,
             event_column: bool = True) -> list[DealRecord]:
    game = get_game(variant)
    options = game.resolve_options(rules or {})
    rng = random.Random(seed)
    records = []
    for index, table in enumerate(tables, 1):
        records += simulate_match(game, options, list(table), rng,
                                  event=slug if event_column else None, round_number=number,
                                  table=str(index), deals=deals)
    return records


def write_csv(path: Path, records: Sequence[DealRecord], variant: str) -> Path:
    game = get_game(variant)
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda r: game)
    return path


def names(prefix: str, count: int) -> list[str]:
    return [f"{prefix} {i}" for i in range(count)]


def tables_of(players: Sequence[str], size: int) -> list[list[str]]:
    return [list(players[i:i + size]) for i in range(0, len(players), size)]


def dump(engine) -> dict:
    """Row counts of every table the importer writes, and the current versions."""
    with Session(engine) as session:
        counts = {model.__name__: session.execute(select(func.count()).select_from(model)).scalar()
                  for model in (Match, MatchVersion, Deal, MatchPlace, AuditLog)}
        counts["current"] = sorted(session.execute(select(Match.id, Match.current_version_id)).all())
        counts["superseded"] = session.execute(select(func.count()).select_from(MatchVersion)
                                               .where(MatchVersion.superseded_at.is_not(None))).scalar()
        return counts


def import_json(db_url: str, path, *args: str):
    """`result import --json`: (exit code, the report's details, whole result)."""
    result = run(db_url, "result", "import", str(path), "--json", *args)
    report = json.loads(result.stdout)["details"] if result.stdout.strip() else None
    return result.exit_code, report, result
