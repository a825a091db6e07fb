"""Ratings in the database: one pool per variant, kept in step with the results.

Each match of a variant's events with a current version is rated, in *rating
order*, from its current version's places (:class:`MatchPlace`; shared places are
ties). A pool stores each player's rating (:class:`Rating`: mu, sigma, matches) and
one :class:`RatingHistory` row per player per rated match (before and after), with
``sequence`` the match's 1-based position in the rating order. Replaying from
history gives bit-identical floats: the engine starts from the stored floats, and
the same floats through the same operations give the same floats.

The use cases that change results (:mod:`tourney.app`: import, revert, merge) call
:func:`refresh_after_results` inside their transaction.
It finds the first position where the rating order and what the history holds
differ (a new match, a corrected match with a new current version, a deleted one,
an event whose date moved, a merged player), rewinds the pool to just before it,
and replays from there. When the caller says what it changed (matches added after
every rated one; matches given a new current version: an import's corrections, a
revert), only those matches, the ones after them and their players' ratings are
read: one result costs what it changes, not the league. :func:`recompute` replays
a pool from the start.

Decisions (the issue leaves these open):

- Rating order: event date, then event id, round number and table in natural
  order ("2" before "10"; then the table text itself, then the match id, so the
  order is total). An event without a date sorts at the day it was created (its
  ``created_at`` date): an undated club night is rated as of when it was entered.
- A match of fewer than two players (the importer never stores one) keeps its
  position in the order but rates nobody and writes no history.
- Merged players count as the player they were merged into. Should both names of a
  merged pair appear in one match (the merge refuses that), the better place is
  kept and the other dropped.
- ``Rating.matches`` counts rated matches (history rows). A pool is created, with
  the default model (PlackettLuce, openskill's defaults), when a variant first
  needs one.
- Every service function works inside the caller's session and transaction and
  never commits. Rows are written with bulk (executemany) statements.
"""
from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from datetime import date
from typing import Mapping, NamedTuple, Sequence

from sqlalchemy import and_, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from ..collector import paused
from ..engines import unknown_variant, variant_ids
from ..errors import InvalidValue, UsageError
from ..errors.words import N_, Message
from ..ordering import name_key, natural_key
from ..storage.bulk import BulkInsert
from ..storage.merges import canonical_players
from ..storage.models import (
    Event,
    Match,
    MatchPlace,
    Player,
    Rating,
    RatingHistory,
    RatingPool,
    utcnow,
)
from .engine import Prediction, Rater, ordinal, predict
from .models import DEFAULT_MODEL, DEFAULT_SPEC, ModelSpec

HISTORY_T = RatingHistory.__table__
RATING_T = Rating.__table__
# A history row's columns in the engine's change order, then the time.
HISTORY_COLUMNS = ("pool_id", "sequence", "match_id", "version_id", "player_id", "place",
                   "mu_before", "sigma_before", "mu_after", "sigma_after", "rated_at")

# A player is provisional while their σ is above this share of the pool's starting σ:
# the model is still unsure of them. With the default model (σ 8.33 at the start,
# 7.92 here) no count of matches decides it: each match lowers σ by what it tells
# the model, less at small tables and for results that surprise it (a player can
# still be provisional after 3 matches at tables of 4, σ 8.01). Whoever played a
# season is established. The pool's provisional_matches (default 0: off) adds "fewer than N
# rated matches" for organizers who want a minimum too.
PROVISIONAL_SIGMA_SHARE = 0.95
DEFAULT_PROVISIONAL = 0
# Bound parameters per IN (...) list: under SQLite's and PostgreSQL's limits.
_CHUNK = 500


# ------------------------------------------------------------------------- pools

def check_variant(variant: str) -> str:
    if variant not in variant_ids():
        raise unknown_variant(variant)
    return variant


def get_pool(session: Session, variant: str, *, create: bool = True) -> RatingPool | None:
    """The variant's pool; created with the defaults when missing (unless
    ``create`` is false: a reader's call, which may run in a read-only transaction)."""
    # A writer locks the pool row for the rest of the transaction (PostgreSQL; SQLite
    # locks the whole database anyway): two importers refreshing the same pool
    # take turns, and the second replays on top of what the first committed. A
    # reader takes no lock: read commands run read-only, where FOR UPDATE is refused.
    query = select(RatingPool).where(RatingPool.variant == variant)
    if create:
        query = query.with_for_update()
    pool = session.execute(query).scalar()
    if pool is None and create:
        check_variant(variant)
        pool = RatingPool(variant=variant, model=DEFAULT_MODEL,
                          params_json=DEFAULT_SPEC.params_json(),
                          provisional_matches=DEFAULT_PROVISIONAL)
        try:
            with session.begin_nested():  # another importer may create it first
                session.add(pool)
                session.flush()
        except IntegrityError:
            pool = session.execute(query).scalar_one()
    return pool


def pool_spec(pool: RatingPool) -> ModelSpec:
    return ModelSpec.from_record(pool.model, pool.params_json)


def provisional_sigma(spec: ModelSpec) -> float:
    """The σ above which a player of a pool with this model is provisional."""
    return PROVISIONAL_SIGMA_SHARE * spec.params_dict["sigma"]


@dataclass
class PoolSettings:
    variant: str
    model: str
    params: dict
    provisional_matches: int
    players: int = 0
    matches: int = 0
    recomputed: int | None = None  # matches rated by the change (None: nothing replayed)

    def to_json(self) -> dict:
        return dict(self.__dict__)


def pool_settings(session: Session, variant: str) -> PoolSettings:
    """A pool's model, parameters and size (the pool is created if missing)."""
    pool = get_pool(session, check_variant(variant))
    spec = pool_spec(pool)
    players = session.execute(select(func.count()).select_from(RATING_T)
                              .where(RATING_T.c.pool_id == pool.id)).scalar()
    matches = session.execute(select(func.count(func.distinct(HISTORY_T.c.sequence)))
                              .where(HISTORY_T.c.pool_id == pool.id)).scalar()
    return PoolSettings(variant, spec.name, spec.params_dict, pool.provisional_matches,
                        players, matches)


def configure_pool(session: Session, variant: str, *, model: str | None = None,
                   params: Mapping[str, object] | None = None, reset_params: bool = False,
                   provisional: int | None = None) -> PoolSettings:
    """Change a pool's model, parameters or provisional threshold.

    A different ``model`` starts from openskill's default parameters for it, as
    ``reset_params`` does; otherwise (or naming the pool's current model) the
    pool's parameters are kept. ``params`` are set on top. A change of model or of
    a parameter's value recomputes the pool. Writes an audit row (``rating.pool``)
    when anything changed.
    """
    pool = get_pool(session, check_variant(variant))
    current = pool_spec(pool)
    if model is not None or reset_params:
        base = ModelSpec.create(model or current.name)
        if model is not None and base.name == current.name and not reset_params:
            base = current
    else:
        base = current
    spec = base.with_params(params) if params else base
    if provisional is not None and provisional < 0:
        raise InvalidValue("provisional", provisional,
                           Message(N_("a number of matches, 0 or more")))
    before = {"model": pool.model, "params": json.loads(pool.params_json or "{}"),
              "provisional_matches": pool.provisional_matches}
    # The stored text is rewritten even when only its spelling differs (a pool
    # stored as "{}" gets every parameter written out); only a different model or
    # parameter value changes ratings, so only that recomputes.
    pool.model = spec.name
    pool.params_json = spec.params_json()
    if provisional is not None:
        pool.provisional_matches = provisional
    session.add(pool)
    session.flush()
    after = {"model": pool.model, "params": spec.params_dict,
             "provisional_matches": pool.provisional_matches}
    if after != before:
        from ..storage.audit import record_change

        record_change(session, "rating.pool", variant, before, after)
    recomputed = _replay(session, pool, force_from=1) if spec != current else None
    settings = pool_settings(session, variant)
    settings.recomputed = recomputed
    return settings


# ------------------------------------------------------------------- rating order

def event_day(event_date: date | None, event_created) -> date:
    """The day an event is rated at: its date, else the day it was created."""
    if event_date is not None:
        return event_date
    return event_created.date() if event_created is not None else date.min


class OrderedMatch(NamedTuple):
    # A named tuple, not a frozen dataclass: the order holds one per match of the
    # pool, and a frozen dataclass is built through object.__setattr__ per field.
    match_id: int
    version_id: int


def rating_order(session: Session, variant: str) -> list[OrderedMatch]:
    """The variant's matches with a current version, in rating order."""
    days = {event_id: event_day(day, created) for event_id, day, created in session.execute(
        select(Event.id, Event.date, Event.created_at).where(Event.variant == variant))}
    if not days:
        return []
    match_t = Match.__table__
    rows = session.execute(
        select(match_t.c.id, match_t.c.current_version_id, match_t.c.event_id,
               match_t.c.round_number, match_t.c.table)
        .join(Event.__table__, Event.__table__.c.id == match_t.c.event_id)
        .where(Event.__table__.c.variant == variant,
               match_t.c.current_version_id.is_not(None))).all()
    rows.sort(key=lambda r: (days[r[2]], r[2], r[3], natural_key(r[4]), r[0]))
    return [OrderedMatch(r[0], r[1]) for r in rows]


# --------------------------------------------------------------- refresh and replay

def refresh_after_results(session: Session, variant: str, added: Sequence[int] = (),
                          replaced: Sequence[int] = ()) -> int:
    """Bring the variant's pool in step with the stored results; matches rated.

    Called by the use cases inside their transaction, after storing. Finds the
    first match in rating order whose current version or presence differs from what
    the history holds (or whose players were merged since), deletes the history from
    there and replays. 0 when the pool was already in step.

    ``added``: the matches the caller just stored, when that is all it changed in
    the pool (no version replaced). When they all come after every rated match (the
    usual case: tonight's results), they are rated on their own, reading only their
    players' ratings: the cost of one result does not grow with the league.

    ``replaced``: the matches the caller gave a new current version, when that is
    all it changed in the pool (no match added). Their places in the rating order
    do not move, so the pool is replayed from the first of them, reading only the
    history from there and the ratings of the players it names: a correction costs
    the matches after it, not the league.
    """
    pool = get_pool(session, check_variant(variant))
    if added:
        rated = _rate_appended(session, pool, added)
        if rated is not None:
            return rated
    if replaced and not added:
        rated = _rate_replaced(session, pool, replaced)
        if rated is not None:
            return rated
    return _replay(session, pool)


def _order_key(day: date, event_id: int, round_number: int, table: str, match_id: int):
    """A match's place in the rating order (:func:`rating_order` sorts by it)."""
    return (day, event_id, round_number, natural_key(table), match_id)


def _rate_appended(session: Session, pool: RatingPool, added: Sequence[int]) -> int | None:
    """Rate ``added`` after the pool's last rated match, or None (nothing written)
    when that is not what the full replay would do: a match among them rated
    already, one that sorts before the last rated match, or a pool not in step
    (the count of rated positions and matches disagrees)."""
    match_t, event_t = Match.__table__, Event.__table__
    rows = []
    for chunk in _chunks(sorted(set(added))):
        rows += session.execute(
            select(match_t.c.id, match_t.c.current_version_id, match_t.c.event_id,
                   match_t.c.round_number, match_t.c.table, event_t.c.date,
                   event_t.c.created_at)
            .join(event_t, event_t.c.id == match_t.c.event_id)
            .where(match_t.c.id.in_(chunk), event_t.c.variant == pool.variant,
                   match_t.c.current_version_id.is_not(None))).all()
    if not rows:
        return None
    keyed = sorted((_order_key(event_day(day, created), event_id, number, table, match_id),
                    match_id, version_id)
                   for match_id, version_id, event_id, number, table, day, created in rows)
    last = session.execute(
        select(HISTORY_T.c.sequence, HISTORY_T.c.match_id)
        .where(HISTORY_T.c.pool_id == pool.id)
        .order_by(HISTORY_T.c.sequence.desc()).limit(1)).first()
    done = 0
    if last is not None:
        done = last[0]
        before = session.execute(
            select(match_t.c.id, match_t.c.event_id, match_t.c.round_number, match_t.c.table,
                   event_t.c.date, event_t.c.created_at)
            .join(event_t, event_t.c.id == match_t.c.event_id)
            .where(match_t.c.id == last[1])).first()
        if before is None:
            return None
        match_id, event_id, number, table, day, created = before
        if keyed[0][0] <= _order_key(event_day(day, created), event_id, number, table,
                                      match_id):
            return None  # one sorts among the rated matches: the replay places it
    rated_already = session.execute(
        select(HISTORY_T.c.match_id).where(
            HISTORY_T.c.pool_id == pool.id,
            HISTORY_T.c.match_id.in_([m for _, m, _ in keyed])).limit(1)).first()
    if rated_already is not None:
        return None
    # In step: every match of the pool but the added ones has its rated position.
    if _current_matches(session, pool.variant) != done + len(keyed):
        return None
    canonical = canonical_players(session)
    rankings = _rankings(session, [v for _, _, v in keyed], canonical)
    players = sorted({player for ranking in rankings.values() for player, _ in ranking})
    existing = _stored_ratings(session, pool.id, players)
    rater = Rater(pool_spec(pool).build(),
                  {p: (mu, sigma) for p, (_, mu, sigma, _) in existing.items()},
                  {p: n for p, (_, _, _, n) in existing.items()})
    todo = [(sequence, match_id, version_id)
            for sequence, (_, match_id, version_id) in enumerate(keyed, done + 1)]
    return _rate_in_order(session, pool.id, rater, todo, rankings, existing)


def _current_matches(session: Session, variant: str) -> int:
    """How many matches of the variant's events have a current version: the
    positions of its rating order."""
    match_t, event_t = Match.__table__, Event.__table__
    return session.execute(
        select(func.count()).select_from(match_t)
        .join(event_t, event_t.c.id == match_t.c.event_id)
        .where(event_t.c.variant == variant,
               match_t.c.current_version_id.is_not(None))).scalar()


def _rate_replaced(session: Session, pool: RatingPool, replaced: Sequence[int]) -> int | None:
    """Replay the pool from the first of the ``replaced`` matches (each with a new
    current version, in its rated place), reading only the history from there,
    or None (nothing written) when that is not what the full replay would do: a
    replaced match not rated before, or a pool not in step (its last rated
    position is not its count of matches)."""
    match_t = Match.__table__
    ids = sorted(set(replaced))
    current: dict[int, int] = {}
    start = None
    for chunk in _chunks(ids):
        current.update(session.execute(
            select(match_t.c.id, match_t.c.current_version_id)
            .where(match_t.c.id.in_(chunk), match_t.c.current_version_id.is_not(None))).all())
        first = session.execute(
            select(func.min(HISTORY_T.c.sequence), func.count(HISTORY_T.c.match_id.distinct()))
            .where(HISTORY_T.c.pool_id == pool.id, HISTORY_T.c.match_id.in_(chunk))).first()
        if first[1] != len(chunk):
            return None  # one was not rated (or not in this pool): the replay places it
        start = first[0] if start is None else min(start, first[0])
    if len(current) != len(ids):
        return None
    tail = session.execute(
        select(HISTORY_T.c.sequence, HISTORY_T.c.match_id, HISTORY_T.c.version_id)
        .where(HISTORY_T.c.pool_id == pool.id, HISTORY_T.c.sequence >= start)
        .distinct().order_by(HISTORY_T.c.sequence)).all()
    if not tail or _current_matches(session, pool.variant) != tail[-1][0]:
        return None
    # The rating order from the first replaced match on, as the history holds it:
    # the same matches at the same positions, the replaced ones at their new
    # version. A match that rated nobody has no history and rates nobody again.
    todo = [(sequence, match_id, current.get(match_id, version_id))
            for sequence, match_id, version_id in tail]
    canonical = canonical_players(session)
    rankings = _rankings(session, [version_id for _, _, version_id in todo], canonical)
    later = HISTORY_T.alias("later")
    named = select(later.c.player_id).where(later.c.pool_id == pool.id,
                                            later.c.sequence >= start)
    rerated = set(session.execute(named.distinct()).scalars())
    players = rerated | {player for ranking in rankings.values() for player, _ in ranking}
    existing = _stored_ratings(session, pool.id, sorted(players))
    # A player rated from ``start`` on starts from their last match before it (or
    # afresh); any other player of the new versions has not been rated since.
    state = {p: (mu, sigma, n) for p, (_, mu, sigma, n) in existing.items()
             if p not in rerated}
    state.update(_state_before(session, pool.id, start, named))
    session.execute(delete(HISTORY_T).where(HISTORY_T.c.pool_id == pool.id,
                                            HISTORY_T.c.sequence >= start))
    rater = Rater(pool_spec(pool).build(),
                  {p: (mu, sigma) for p, (mu, sigma, _) in state.items()},
                  {p: n for p, (_, _, n) in state.items()})
    return _rate_in_order(session, pool.id, rater, todo, rankings, existing)


def _stored_ratings(session: Session, pool_id: int, players) -> dict[int, tuple]:
    """The stored rating rows of ``players`` in a pool: player -> (row id, mu,
    sigma, matches)."""
    existing = {}
    for chunk in _chunks(players):
        existing.update({r[1]: (r[0], r[2], r[3], r[4]) for r in session.execute(
            select(RATING_T.c.id, RATING_T.c.player_id, RATING_T.c.mu, RATING_T.c.sigma,
                   RATING_T.c.matches)
            .where(RATING_T.c.pool_id == pool_id, RATING_T.c.player_id.in_(chunk)))})
    return existing


def _rate_in_order(session: Session, pool_id: int, rater, todo: list[tuple],
                   rankings: dict, existing: dict) -> int:
    """Rate ``todo`` ((sequence, match id, version id), in rating order) from the
    rater's state, write its history rows and the players' ratings; how many
    matches rated someone."""
    writer = _HistoryWriter(session, pool_id)
    rated = 0
    with paused():
        results = rater.rate_all([rankings.get(version_id, ()) for _, _, version_id in todo])
        for (sequence, match_id, version_id), changes in zip(todo, results):
            if changes:
                rated += 1
                writer.add(sequence, match_id, version_id, changes)
        writer.flush()
    _store_ratings(session, pool_id, rater, existing)
    return rated


def recompute(session: Session, variant: str | None = None) -> dict[str, int]:
    """Replay pools from their first match: one variant's, or every variant with
    events or a pool. Matches rated per variant."""
    variants = ([check_variant(variant)] if variant is not None
                else sorted(_recompute_variants(session)))
    return {v: _replay(session, get_pool(session, v), force_from=1) for v in variants}


def pool_digest(session: Session, variant: str) -> str:
    """A digest of what a pool holds: its players' ratings and its rating history
    (not the times of rating). Two equal digests: nothing in the pool changed."""
    import hashlib

    pool = session.execute(select(RatingPool.id).where(RatingPool.variant == variant)).scalar()
    digest = hashlib.sha256()
    if pool is None:
        return digest.hexdigest()
    ratings = session.execute(
        select(RATING_T.c.player_id, RATING_T.c.mu, RATING_T.c.sigma, RATING_T.c.matches)
        .where(RATING_T.c.pool_id == pool).order_by(RATING_T.c.player_id))
    history = session.execute(
        select(HISTORY_T.c.sequence, HISTORY_T.c.player_id, HISTORY_T.c.match_id,
               HISTORY_T.c.version_id, HISTORY_T.c.place, HISTORY_T.c.mu_before,
               HISTORY_T.c.sigma_before, HISTORY_T.c.mu_after, HISTORY_T.c.sigma_after)
        .where(HISTORY_T.c.pool_id == pool)
        .order_by(HISTORY_T.c.sequence, HISTORY_T.c.player_id))
    for rows in (ratings, history):
        for row in rows:
            digest.update(repr(tuple(row)).encode())
        digest.update(b"|")
    return digest.hexdigest()


def recompute_changes(session: Session, variant: str | None = None) -> dict[str, tuple[int, bool]]:
    """:func:`recompute`, saying for each variant the matches rated and whether
    anything in its pool changed (ratings or history)."""
    variants = ([check_variant(variant)] if variant is not None
                else sorted(_recompute_variants(session)))
    before = {v: pool_digest(session, v) for v in variants}
    counts = recompute(session, variant)
    session.flush()
    return {v: (n, pool_digest(session, v) != before.get(v)) for v, n in counts.items()}


def _recompute_variants(session: Session) -> set[str]:
    found = set(session.execute(select(Event.variant).distinct()).scalars())
    found |= set(session.execute(select(RatingPool.variant)).scalars())
    return {v for v in found if v in variant_ids()}


def _first_difference(session: Session, pool_id: int, order: Sequence[OrderedMatch]) -> int | None:
    """The first sequence at which the pool must be replayed (None: in step)."""
    held: dict[int, tuple[int, int] | None] = {}
    rows = session.execute(
        select(HISTORY_T.c.sequence, HISTORY_T.c.match_id, HISTORY_T.c.version_id)
        .where(HISTORY_T.c.pool_id == pool_id).distinct())
    for sequence, match_id, version_id in rows:
        if sequence in held and held[sequence] != (match_id, version_id):
            held[sequence] = None  # two matches at one position: not in step
        else:
            held[sequence] = (match_id, version_id)
    first = None
    last_held = max(held, default=0)
    for index in range(max(len(order), last_held)):
        sequence = index + 1
        wanted = (order[index].match_id, order[index].version_id) if index < len(order) else None
        if held.get(sequence) != wanted:
            first = sequence
            break
    # Merged players: history or ratings still naming a merged duplicate, or a
    # duplicate's rating left beside the kept player's (the merge moves history
    # and places but cannot combine two ratings): replay from the first match of
    # either.
    canonical = canonical_players(session)
    if canonical:
        stale = set()
        for chunk in _chunks(sorted(canonical)):
            stale.update(session.execute(
                select(RATING_T.c.player_id).where(RATING_T.c.pool_id == pool_id,
                                                   RATING_T.c.player_id.in_(chunk))).scalars())
        involved = sorted(set(canonical) | {canonical[p] for p in stale})
        for chunk in _chunks(involved):
            start = session.execute(
                select(func.min(HISTORY_T.c.sequence))
                .where(HISTORY_T.c.pool_id == pool_id, HISTORY_T.c.player_id.in_(chunk))).scalar()
            if start is not None:
                first = start if first is None else min(first, start)
        if stale and first is None:
            first = len(order) + 1  # nothing to replay; the stale rows go
    return first


def _replay(session: Session, pool: RatingPool, force_from: int | None = None) -> int:
    """Replay ``pool`` from its first difference (or from ``force_from``)."""
    order = rating_order(session, pool.variant)
    if force_from is not None:
        start = force_from
    else:
        start = _first_difference(session, pool.id, order)
        if start is None:
            return 0
    state, existing = _rewind(session, pool.id, start)
    todo = order[start - 1:]
    rater = Rater(pool_spec(pool).build(),
                  {p: (mu, sigma) for p, (mu, sigma, _) in state.items()},
                  {p: n for p, (_, _, n) in state.items()})
    canonical = canonical_players(session)
    rated = 0
    writer = _HistoryWriter(session, pool.id)
    add = writer.add
    rate_all = rater.rate_all
    none = ()
    # A batch's matches are rated by one rate_all call (not one call per match), and
    # each history row is built once, as the database takes it (see _HistoryWriter).
    # openskill's rate allocates dozens of containers per match and makes no cycles:
    # on a 5,000-match replay the collector ran about every other match (0.12 s of
    # 0.75 s CPU), a full collection over the whole process among them.
    with paused():
        for first in range(0, len(todo), _CHUNK):
            batch = todo[first:first + _CHUNK]
            rankings = _rankings(session, [m.version_id for m in batch], canonical)
            results = rate_all([rankings.get(m.version_id, none) for m in batch])
            sequence = start + first
            for item, changes in zip(batch, results):
                if changes:
                    rated += 1
                    add(sequence, item.match_id, item.version_id, changes)
                sequence += 1
        writer.flush()
    _store_ratings(session, pool.id, rater, existing)
    return rated


class _HistoryWriter:
    """Buffers a pool's history rows and writes them in batches
    (:class:`~tourney.storage.bulk.BulkInsert`: SQLite's executemany of many VALUES
    rows a statement, psycopg's COPY; SQLAlchemy's bulk insert processed every
    row's parameters in Python, which cost more than the database's own work).

    Each row is built once, as a tuple in HISTORY_COLUMNS order with the time of
    rating already in the form the driver takes (``BulkInsert.bound``): ``rated_at``
    is the same for every row, and executemany otherwise ran the datetime adapter,
    ``isoformat``, for every row (about 10 us a match of four). The stored values
    are the same as when the datetime was passed.
    """

    BATCH = 20_000

    def __init__(self, session: Session, pool_id: int):
        self.pool_id = pool_id
        self.rows: list[tuple] = []
        self.bulk = BulkInsert(session, HISTORY_T, HISTORY_COLUMNS)
        self.now = self.bulk.bound("rated_at", utcnow())

    def add(self, sequence: int, match_id: int, version_id: int,
            changes: Sequence[tuple]) -> None:
        """One rated match's rows: the engine's changes, in its order."""
        pool_id = self.pool_id
        now = self.now
        rows = self.rows
        rows += [(pool_id, sequence, match_id, version_id, *change, now)
                 for change in changes]
        if len(rows) >= self.BATCH:
            self.flush()

    def flush(self) -> None:
        self.bulk.write(self.rows)
        self.rows = []


def _rewind(session: Session, pool_id: int, start: int):
    """Delete the pool's history from ``start`` on; the ratings as they stood just
    before it, ``{player: (mu, sigma, matches)}``, and the stored rating rows
    ``{player: (row id, mu, sigma, matches)}``."""
    existing = {r[1]: (r[0], r[2], r[3], r[4]) for r in session.execute(
        select(RATING_T.c.id, RATING_T.c.player_id, RATING_T.c.mu, RATING_T.c.sigma,
               RATING_T.c.matches).where(RATING_T.c.pool_id == pool_id))}
    merged = set(session.execute(select(Player.id).where(Player.merged_into_id.is_not(None)))
                 .scalars())
    if start <= 1:
        session.execute(delete(HISTORY_T).where(HISTORY_T.c.pool_id == pool_id))
        return {}, existing
    later = HISTORY_T.alias("later")
    affected_q = select(later.c.player_id).where(
        later.c.pool_id == pool_id, later.c.sequence >= start)
    affected = set(session.execute(affected_q.distinct()).scalars())
    state = {p: (mu, sigma, n) for p, (_, mu, sigma, n) in existing.items()
             if p not in affected and p not in merged}
    if affected:
        for player, rating in _state_before(session, pool_id, start, affected_q).items():
            if player not in merged:
                state[player] = rating
        session.execute(delete(HISTORY_T).where(HISTORY_T.c.pool_id == pool_id,
                                                HISTORY_T.c.sequence >= start))
    return state, existing


def _state_before(session: Session, pool_id: int, start: int, players_q) -> dict[int, tuple]:
    """The ratings, ``{player: (mu, sigma, matches)}``, of the players that
    ``players_q`` selects as they stood just before position ``start``: after
    their last rated match before it (a player with none is left out)."""
    last = (select(HISTORY_T.c.player_id, func.max(HISTORY_T.c.sequence).label("seq"),
                   func.count().label("n"))
            .where(HISTORY_T.c.pool_id == pool_id, HISTORY_T.c.sequence < start,
                   HISTORY_T.c.player_id.in_(players_q))
            .group_by(HISTORY_T.c.player_id).subquery())
    rows = session.execute(
        select(HISTORY_T.c.player_id, HISTORY_T.c.mu_after, HISTORY_T.c.sigma_after, last.c.n)
        .join(last, and_(HISTORY_T.c.player_id == last.c.player_id,
                         HISTORY_T.c.sequence == last.c.seq))
        .where(HISTORY_T.c.pool_id == pool_id))
    return {player: (mu, sigma, n) for player, mu, sigma, n in rows}


def _store_ratings(session: Session, pool_id: int, rater: Rater,
                   existing: Mapping[int, tuple]) -> None:
    """The rater's players' ratings (those with a rated match) into the pool's rows."""
    counts = rater.match_counts()
    final = {player: (mu, sigma, counts[player])
             for player, (mu, sigma) in rater.ratings().items() if counts.get(player)}
    _sync_ratings(session, pool_id, existing, final)


def _sync_ratings(session: Session, pool_id: int, existing: Mapping[int, tuple],
                  final: Mapping[int, tuple[float, float, int]]) -> None:
    """Make the pool's rating rows say ``final``, touching only rows that differ."""
    gone = [row[0] for player, row in existing.items() if player not in final]
    changed = []
    added = []
    for player, (mu, sigma, n) in final.items():
        row = existing.get(player)
        if row is None:
            added.append({"pool_id": pool_id, "player_id": player, "mu": mu, "sigma": sigma,
                          "matches": n})
        elif (row[1], row[2], row[3]) != (mu, sigma, n):
            changed.append({"b_id": row[0], "b_mu": mu, "b_sigma": sigma, "b_matches": n})
    for chunk in _chunks(gone):
        session.execute(delete(RATING_T).where(RATING_T.c.id.in_(chunk)))
    if changed:
        session.execute(
            update(RATING_T).where(RATING_T.c.id == bindparam("b_id"))
            .values(mu=bindparam("b_mu"), sigma=bindparam("b_sigma"),
                    matches=bindparam("b_matches")),
            changed)
    if added:
        session.execute(insert(RATING_T), added)


def _rankings(session: Session, version_ids: Sequence[int],
              canonical: Mapping[int, int]) -> dict[int, list[tuple[int, int]]]:
    """The rankings of these versions: ``[(player_id, place)]`` by place, then seat
    (a fixed order, so every replay hands openskill the same lists); merged players
    as the player they were merged into."""
    place_t = MatchPlace.__table__
    rankings: dict[int, list[tuple[int, int]]] = {}
    if not canonical:
        # No merged players: a version names each player once (its unique key), so
        # the database's order (version, place, seat, player) is the order below,
        # and the rows go straight into the lists (fetched at once, not row by row;
        # without the seat, which only orders them: each column fetched costs).
        rows = session.execute(
            select(place_t.c.version_id, place_t.c.player_id, place_t.c.place)
            .where(place_t.c.version_id.in_(version_ids))
            .order_by(place_t.c.version_id, place_t.c.place, place_t.c.seat,
                      place_t.c.player_id)).all()
        ranking = None
        last = None
        for version_id, player_id, place in rows:
            if version_id != last:
                last = version_id
                ranking = rankings[version_id] = []
            ranking.append((player_id, place))
        return rankings
    places: dict[int, list[tuple[int, int, int]]] = {}
    for version_id, player_id, place, seat in session.execute(
            select(place_t.c.version_id, place_t.c.player_id, place_t.c.place, place_t.c.seat)
            .where(place_t.c.version_id.in_(version_ids))).all():
        places.setdefault(version_id, []).append((place, seat, canonical.get(player_id, player_id)))
    for version_id, items in places.items():
        items.sort()
        seen = set()
        ranking = []
        for place, _seat, player in items:
            if player in seen:
                continue  # a merged pair at one table: the better place counts
            seen.add(player)
            ranking.append((player, place))
        rankings[version_id] = ranking
    return rankings


def _chunks(items: Sequence, size: int = _CHUNK):
    for first in range(0, len(items), size):
        yield items[first:first + size]


# ------------------------------------------------------------------------- merging

@dataclass
class MergedRatings:
    """What :func:`fold_merged_player` did to the ratings of a merged duplicate."""

    history_moved: int = 0
    moved: list[str] = field(default_factory=list)  # pools only the duplicate was rated in
    conflicting: list[str] = field(default_factory=list)  # pools both were rated in

    @property
    def variants(self) -> list[str]:
        """The pools to refresh after the merge."""
        return sorted(set(self.moved) | set(self.conflicting))


def fold_merged_player(session: Session, keep_id: int, duplicate_id: int) -> MergedRatings:
    """Give the duplicate's rating history, and its ratings in pools the kept player
    is not rated in, to the kept player (the ratings stay exact: nobody else's
    changes). A pool both are rated in keeps the duplicate's rating until
    :func:`refresh_after_results` replays the pool from the first match of either.
    """
    merged = MergedRatings()
    merged.history_moved = session.execute(
        update(HISTORY_T).where(HISTORY_T.c.player_id == duplicate_id)
        .values(player_id=keep_id)).rowcount
    pools = dict(session.execute(select(RatingPool.id, RatingPool.variant)).all())
    keep_pools = set(session.execute(
        select(RATING_T.c.pool_id).where(RATING_T.c.player_id == keep_id)).scalars())
    for pool_id in session.execute(select(RATING_T.c.pool_id).where(
            RATING_T.c.player_id == duplicate_id).order_by(RATING_T.c.pool_id)).scalars().all():
        if pool_id in keep_pools:
            merged.conflicting.append(pools[pool_id])
            continue
        session.execute(update(RATING_T).where(RATING_T.c.pool_id == pool_id,
                                               RATING_T.c.player_id == duplicate_id)
                        .values(player_id=keep_id))
        merged.moved.append(pools[pool_id])
    return merged


# ------------------------------------------------------------------------- reading

@dataclass(frozen=True)
class RatingEntry:
    player_id: int
    player: str
    variant: str
    mu: float
    sigma: float
    matches: int
    provisional: bool

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    def to_json(self) -> dict:
        return {"player": self.player, "variant": self.variant, "mu": self.mu,
                "sigma": self.sigma, "ordinal": self.ordinal, "matches": self.matches,
                "provisional": self.provisional}


def rating_list(session: Session, variant: str | None = None,
                provisional: int | None = None,
                player_ids: Sequence[int] | None = None) -> list[RatingEntry]:
    """Ratings by variant, every player ranked by ordinal (best first), provisional
    ones among them and marked: σ above :func:`provisional_sigma`, or fewer matches
    than the pool's ``provisional_matches`` (``provisional`` instead, if given).
    ``player_ids``: only these players' entries (ranked among themselves)."""
    query = (select(RatingPool.variant, RatingPool.provisional_matches, Player.id, Player.name,
                    Rating.mu, Rating.sigma, Rating.matches, RatingPool.model,
                    RatingPool.params_json)
             .join(RatingPool, RatingPool.id == Rating.pool_id)
             .join(Player, Player.id == Rating.player_id)
             .where(Player.merged_into_id.is_(None)))
    if variant is not None:
        query = query.where(RatingPool.variant == check_variant(variant))
    queries = [query]
    if player_ids is not None:
        ids = sorted(set(player_ids))
        queries = [query.where(Player.id.in_(ids[i:i + _IDS_PER_QUERY]))
                   for i in range(0, len(ids), _IDS_PER_QUERY)]
    entries = []
    judge = _ProvisionalJudge(provisional)
    # on the connection, fetched at once: plain rows (a league's leaderboard has tens of
    # thousands, which the ORM's handling of each row would double the cost of)
    rows = [row for each in queries for row in session.connection().execute(each).fetchall()]
    for (pool_variant, threshold, pid, name, mu, sigma, matches, model, params_json) in rows:
        entries.append(RatingEntry(pid, name, pool_variant, mu, sigma, matches,
                                   judge(sigma, matches, threshold, model, params_json)))
    return _ranked(entries)


def _ranked(entries: list[RatingEntry]) -> list[RatingEntry]:
    """Entries by variant, then ranked: best ordinal first (then μ, then name)."""
    entries.sort(key=_rank_key)
    return entries


class _ProvisionalJudge:
    """Whether a rating is provisional: σ above the model's :func:`provisional_sigma`,
    or fewer matches than the pool's threshold (``provisional`` instead, if given)."""

    def __init__(self, provisional: int | None = None):
        self.provisional = provisional
        self._sigma_limits: dict[tuple, float] = {}

    def __call__(self, sigma: float, matches: int, threshold: int, model: str,
                 params_json: str | None) -> bool:
        limit = self.provisional if self.provisional is not None else threshold
        sigma_limit = self._sigma_limits.get((model, params_json))
        if sigma_limit is None:
            sigma_limit = self._sigma_limits[(model, params_json)] = provisional_sigma(
                ModelSpec.from_record(model, params_json))
        return sigma > sigma_limit or matches < limit


def ratings_before(session: Session, match_ids: Sequence[int]
                   ) -> dict[tuple[int, int], tuple[float, float, int]]:
    """The ratings of the players of the matches ``match_ids`` as they stood before
    the first of them each was rated in: by (pool id, player id), μ and σ then and
    the count of that player's rated matches in the pool from that one on (not
    counted then). Reads the history rows of those matches and of their players only."""
    ids = sorted(set(match_ids))
    if not ids:
        return {}
    h = RatingHistory
    first: dict[tuple[int, int], tuple] = {}  # (pool, player) -> earliest left-out row
    for i in range(0, len(ids), _IDS_PER_QUERY):
        for pool_id, pid, sequence, mu, sigma in session.execute(
                select(h.pool_id, h.player_id, h.sequence, h.mu_before, h.sigma_before)
                .where(h.match_id.in_(ids[i:i + _IDS_PER_QUERY]))):
            known = first.get((pool_id, pid))
            if known is None or sequence < known[0]:
                first[(pool_id, pid)] = (sequence, mu, sigma)
    if not first:
        return {}
    # the rated matches from each one's first left out on: not counted then
    later: dict[tuple[int, int], int] = {}
    players = sorted({pid for _, pid in first})
    for i in range(0, len(players), _IDS_PER_QUERY):
        for pool_id, pid, sequence in session.execute(
                select(h.pool_id, h.player_id, h.sequence)
                .where(h.player_id.in_(players[i:i + _IDS_PER_QUERY]))):
            key = (pool_id, pid)
            if key in first and sequence >= first[key][0]:
                later[key] = later.get(key, 0) + 1
    return {key: (mu, sigma, later.get(key, 0)) for key, (_, mu, sigma) in first.items()}


def rating_list_before(session: Session, entries: Sequence[RatingEntry],
                       match_ids: Sequence[int]) -> list[RatingEntry]:
    """The leaderboard ``entries`` (:func:`rating_list`'s, in its order) as it stood before the
    matches ``match_ids`` were rated: a player rated in one of them at their rating
    before the first (μ, σ and matches as their history has them then; left out if
    it was their first rated match), provisional judged again and everyone ranked
    again (:func:`ratings_before`)."""
    before = ratings_before(session, match_ids)
    if not before:
        return list(entries)
    pools = {pool_id: row for pool_id, *row in session.execute(
        select(RatingPool.id, RatingPool.variant, RatingPool.provisional_matches,
               RatingPool.model, RatingPool.params_json))}
    pool_of = {row[0]: pool_id for pool_id, row in pools.items()}
    judge = _ProvisionalJudge()
    kept, moved = [], []
    for entry in entries:
        row = before.get((pool_of.get(entry.variant), entry.player_id))
        if row is None:
            kept.append(entry)
            continue
        mu, sigma, later = row
        matches = entry.matches - later
        if matches <= 0:
            continue  # not rated before it
        _, threshold, model, params_json = pools[pool_of[entry.variant]]
        moved.append(RatingEntry(entry.player_id, entry.player, entry.variant, mu, sigma,
                                 matches, judge(sigma, matches, threshold, model, params_json)))
    if len(moved) * 8 > len(kept):
        return _ranked(kept + moved)
    # the others keep their order (rating_list's); each moved one goes in its place
    # (a name's sort key made only for the entries it is compared with)
    for entry in moved:
        kept.insert(bisect.bisect_left(kept, _rank_key(entry), key=_rank_key), entry)
    return kept


def _rank_key(entry: RatingEntry) -> tuple:
    return (entry.variant, -entry.ordinal, -entry.mu, name_key(entry.player))


_IDS_PER_QUERY = 500  # ids in one IN (...) list


@dataclass(frozen=True)
class HistoryEntry:
    variant: str
    sequence: int
    event: str
    event_name: str
    event_date: date | None
    round: int
    table: str
    place: int
    players: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    shared: bool = False  # another player of the match had the same place (a draw)

    def to_json(self) -> dict:
        return {"variant": self.variant, "sequence": self.sequence, "event": self.event,
                "event_name": self.event_name,
                "date": self.event_date.isoformat() if self.event_date else None,
                "round": self.round, "table": self.table, "place": self.place,
                "players": self.players, "shared": self.shared,
                "mu_before": self.mu_before, "sigma_before": self.sigma_before,
                "mu_after": self.mu_after, "sigma_after": self.sigma_after,
                "ordinal_before": ordinal(self.mu_before, self.sigma_before),
                "ordinal_after": ordinal(self.mu_after, self.sigma_after)}


def player_history(session: Session, player: Player,
                   variant: str | None = None) -> list[HistoryEntry]:
    """A player's rated matches in rating order (per variant). ``player`` is the
    kept player (names are resolved by the caller, merges followed)."""
    query = (select(RatingPool.variant, HISTORY_T.c.sequence, Event.slug, Event.name,
                    Event.date, Match.round_number, Match.table, HISTORY_T.c.place,
                    HISTORY_T.c.pool_id,
                    HISTORY_T.c.mu_before, HISTORY_T.c.sigma_before,
                    HISTORY_T.c.mu_after, HISTORY_T.c.sigma_after)
             .join(RatingPool, RatingPool.id == HISTORY_T.c.pool_id)
             .join(Match, Match.id == HISTORY_T.c.match_id)
             .join(Event, Event.id == Match.event_id)
             .where(HISTORY_T.c.player_id == player.id))
    if variant is not None:
        query = query.where(RatingPool.variant == check_variant(variant))
    rows = session.execute(query).all()
    # Table sizes and shared places: the rows of the same matches (by the indexed
    # match id), counted per place.
    sizes: dict[tuple[int, int], int] = {}
    at_place: dict[tuple[int, int, int], int] = {}
    match_ids = sorted({m for m in session.execute(
        select(HISTORY_T.c.match_id).where(HISTORY_T.c.player_id == player.id)).scalars()})
    for chunk in _chunks(match_ids):
        for pool_id, sequence, place, n in session.execute(
                select(HISTORY_T.c.pool_id, HISTORY_T.c.sequence, HISTORY_T.c.place,
                       func.count())
                .where(HISTORY_T.c.match_id.in_(chunk))
                .group_by(HISTORY_T.c.pool_id, HISTORY_T.c.sequence, HISTORY_T.c.place)):
            sizes[(pool_id, sequence)] = sizes.get((pool_id, sequence), 0) + n
            at_place[(pool_id, sequence, place)] = n
    entries = [HistoryEntry(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
                            sizes.get((r[8], r[1]), 0), r[9], r[10], r[11], r[12],
                            at_place.get((r[8], r[1], r[7]), 1) > 1)
               for r in rows]
    entries.sort(key=lambda e: (e.variant, e.sequence))
    return entries


@dataclass(frozen=True)
class TablePrediction:
    variant: str
    model: str
    players: tuple[str, ...]
    rated: tuple[bool, ...]
    matches: tuple[int, ...]
    prediction: Prediction

    def to_json(self) -> dict:
        p = self.prediction
        return {
            "variant": self.variant, "model": self.model, "draw_probability": p.draw,
            "players": [
                {"player": name, "rated": rated, "matches": n, "mu": mu, "sigma": sigma,
                 "ordinal": ordinal(mu, sigma), "win_probability": win,
                 "predicted_rank": rank, "rank_probability": rank_p,
                 "expected_place": expected}
                for name, rated, n, mu, sigma, win, rank, rank_p, expected in zip(
                    self.players, self.rated, self.matches, p.mu, p.sigma, p.win, p.rank,
                    p.rank_probability, p.expected_place)
            ],
        }


def predict_table(session: Session, variant: str, players: Sequence[Player]) -> TablePrediction:
    """Win probabilities and ranks for a table of these players in the variant's
    pool (players without a rating there at the model's default). The caller
    resolves the names (merges followed)."""
    check_variant(variant)
    if len(players) < 2:
        raise UsageError(Message(N_("a prediction needs at least two players")))
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise UsageError(Message(N_("a player is named twice (or two names are one merged "
                                    "player)")))
    pool = get_pool(session, variant, create=False)
    spec = pool_spec(pool) if pool is not None else DEFAULT_SPEC
    model = spec.build()
    stored = {}
    if pool is not None:
        stored = {pid: (mu, sigma, n) for pid, mu, sigma, n in session.execute(
            select(RATING_T.c.player_id, RATING_T.c.mu, RATING_T.c.sigma, RATING_T.c.matches)
            .where(RATING_T.c.pool_id == pool.id, RATING_T.c.player_id.in_(ids)))}
    default = (float(model.mu), float(model.sigma), 0)
    values = [stored.get(pid, default) for pid in ids]
    prediction = predict(model, [(mu, sigma) for mu, sigma, _ in values],
                         [p.name for p in players])
    return TablePrediction(variant, spec.describe(), tuple(p.name for p in players),
                           tuple(pid in stored for pid in ids), tuple(v[2] for v in values),
                           prediction)
