"""Helpers of the ratings tests: results stored straight through the models.

The importer's own tests cover how results get in; these put a match's places in
directly (a version, its places, the match's current version), so the ratings
tests control every place, tie, date and table name.
"""
from __future__ import annotations

import datetime as dt
from typing import Sequence

from sqlalchemy import select
from sqlmodel import Session

from tourney.ratings.service import get_pool
from tourney.storage.db import open_engine
from tourney.storage.models import (
    Event,
    Match,
    MatchPlace,
    MatchVersion,
    Player,
    Rating,
    RatingHistory,
)
from tourney.storage.schema import ensure_schema


def make_engine(db_url: str):
    engine = open_engine(db_url)
    ensure_schema(engine)
    return engine


def add_players(session: Session, names: Sequence[str]) -> dict[str, int]:
    players = [Player(name=name) for name in names]
    session.add_all(players)
    session.flush()
    return {p.name: p.id for p in players}


def add_event(session: Session, slug: str, *, variant: str = "spardame",
              date: dt.date | None = None, created_at: dt.datetime | None = None) -> int:
    event = Event(slug=slug, name=slug.title(), variant=variant, date=date, table_min=2,
                  table_max=6, table_preferred=4, seating="random")
    if created_at is not None:
        event.created_at = created_at
    session.add(event)
    session.flush()
    return event.id


def _add_version(session: Session, match: Match, ranking: Sequence[tuple[int, int]]) -> int:
    number = 1 + len(session.execute(select(MatchVersion.id).where(
        MatchVersion.match_id == match.id)).all())
    version = MatchVersion(match_id=match.id, version=number, content_sha256=f"{number:064d}")
    session.add(version)
    session.flush()
    for seat, (player_id, place) in enumerate(ranking):
        session.add(MatchPlace(version_id=version.id, player_id=player_id, seat=seat,
                               place=place, total=0.0, match_points=0.0))
    match.current_version_id = version.id
    session.add(match)
    session.flush()
    return version.id


def add_match(session: Session, event_id: int, round_number: int, table: str,
              ranking: Sequence[tuple[int, int]]) -> int:
    """A match with one version whose places are ``ranking`` [(player_id, place)]
    (in seat order)."""
    match = Match(event_id=event_id, round_number=round_number, table=table)
    session.add(match)
    session.flush()
    _add_version(session, match, ranking)
    return match.id


def correct_match(session: Session, match_id: int, ranking: Sequence[tuple[int, int]]) -> int:
    """A new current version of a match."""
    return _add_version(session, session.get(Match, match_id), ranking)


def snapshot(session: Session, variant: str):
    """Every rating and history row of the pool, as plain sorted tuples (floats
    compared exactly)."""
    pool = get_pool(session, variant)
    ratings = sorted(session.execute(
        select(Rating.player_id, Rating.mu, Rating.sigma, Rating.matches)
        .where(Rating.pool_id == pool.id)).all())
    history = sorted(session.execute(
        select(RatingHistory.sequence, RatingHistory.match_id, RatingHistory.version_id,
               RatingHistory.player_id, RatingHistory.place, RatingHistory.mu_before,
               RatingHistory.sigma_before, RatingHistory.mu_after, RatingHistory.sigma_after)
        .where(RatingHistory.pool_id == pool.id)).all())
    return [tuple(r) for r in ratings], [tuple(h) for h in history]


def recomputed(engine, variant: str):
    """The pool recomputed from scratch, as :func:`snapshot` gives it (to compare
    with what the incremental refresh left)."""
    from tourney.ratings.service import recompute
    from tourney.storage.db import transaction

    with transaction(engine) as session:
        recompute(session, variant)
        return snapshot(session, variant)
