"""The state ``tourney serve --workers N`` shares between its processes through the
database: each client address's recent wrong guesses (:class:`ServeFailure`) and
the organizer cookies logged out before they expired (:class:`RevokedSession`).

Only the failure path and a logout write here; a right link or login reads nothing
of it (:mod:`tourney.web.security` counts failures only once a credential has
been found wrong), and an organizer's cookie costs one primary-key read.

Bounds: a key keeps at most ``keep`` failure times, and a scope at most ``cap``
keys: a new key first prunes the keys whose failures have all left the window,
then, past ``cap``, the keys whose newest failure is the oldest (they are
forgotten: their next guesses count afresh). Revoked cookies are pruned once
expired; past ``cap`` the ones that expire soonest are forgotten.
"""
from __future__ import annotations

from sqlalchemy import delete, func, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from .db import ConflictingChange, reading, transaction
from .models import RevokedSession, ServeFailure

MAX_KEYS = 10_000


def _insert(session, model):
    """INSERT ... ON CONFLICT DO NOTHING, in the database's own words."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(model).on_conflict_do_nothing()


def _no_wait_for_disk(session) -> None:
    """On PostgreSQL, the transaction's commit does not wait for its write to reach
    the disk: a count lost in a crash costs a guesser nothing worth a flush
    on every wrong guess."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET LOCAL synchronous_commit TO OFF"))


def record_failure(engine: Engine, scope: str, key: str, now: float, window: float,
                   keep: int, cap: int = MAX_KEYS) -> list[float]:
    """Count a failure of ``key`` at ``now``: the key's failures within ``window``
    before this one (the newest ``keep``, oldest first). Concurrent failures of
    one key are counted one after another (the key's row is locked). A key longer
    than the column (an address no client has) is counted by its first 100
    characters."""
    since = now - window
    key = key[:100]
    with transaction(engine) as session:
        _no_wait_for_disk(session)
        inserted = session.execute(_insert(session, ServeFailure).values(
            scope=scope, key=key, times=repr(now), last_at=now)
            .returning(ServeFailure.key)).first() is not None
        if inserted:
            before = []
        else:
            row = session.execute(
                select(ServeFailure.times).where(ServeFailure.scope == scope,
                                                 ServeFailure.key == key)
                .with_for_update()).one()
            before = [t for t in map(float, row.times.split()) if t > since][-keep:]
            kept = (before + [now])[-keep:]
            session.execute(ServeFailure.__table__.update()
                            .where(ServeFailure.scope == scope, ServeFailure.key == key)
                            .values(times=" ".join(map(repr, kept)), last_at=now))
    if inserted:
        _prune_failures(engine, scope, since, cap)
    return before


def _prune_failures(engine: Engine, scope: str, since: float, cap: int) -> None:
    """Bound the scope's rows (see the module's bounds). Best effort: a prune that
    races another process's gives way, the next new key prunes again."""
    table = ServeFailure.__table__
    try:
        with transaction(engine) as session:
            session.execute(delete(table).where(table.c.scope == scope,
                                                table.c.last_at <= since))
            excess = session.execute(select(func.count()).select_from(table)
                                     .where(table.c.scope == scope)).scalar_one() - cap
            if excess > 0:
                oldest = (select(table.c.key).where(table.c.scope == scope)
                          .order_by(table.c.last_at, table.c.key).limit(excess))
                session.execute(delete(table).where(table.c.scope == scope,
                                                    table.c.key.in_(oldest)))
    except ConflictingChange:
        pass


def failure_keys(engine: Engine, scope: str) -> int:
    """How many keys the scope remembers."""
    with reading(engine) as session:
        return session.execute(select(func.count()).select_from(ServeFailure)
                               .where(ServeFailure.scope == scope)).scalar_one()


def revoke(engine: Engine, nonce: str, expires_at: int, now: float,
           cap: int = MAX_KEYS) -> None:
    """Remember a logged-out cookie's nonce until it would have expired."""
    table = RevokedSession.__table__
    with transaction(engine) as session:
        session.execute(_insert(session, RevokedSession).values(nonce=nonce,
                                                                expires_at=expires_at))
    try:
        with transaction(engine) as session:
            session.execute(delete(table).where(table.c.expires_at < now))
            excess = session.execute(select(func.count()).select_from(table)).scalar_one() - cap
            if excess > 0:
                soonest = (select(table.c.nonce).order_by(table.c.expires_at, table.c.nonce)
                           .limit(excess))
                session.execute(delete(table).where(table.c.nonce.in_(soonest)))
    except ConflictingChange:
        pass


def is_revoked(engine: Engine, nonce: str) -> bool:
    with reading(engine) as session:
        return session.execute(select(RevokedSession.nonce)
                               .where(RevokedSession.nonce == nonce)).first() is not None


def revoked_count(engine: Engine) -> int:
    with reading(engine) as session:
        return session.execute(select(func.count()).select_from(RevokedSession)).scalar_one()
