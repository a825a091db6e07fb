"""What a series takes from each of its events (every player who played, with
their points and place in the event's own standings), and snapshots of it.

A league's series adds up dozens of events of thousands of players, and an
event's standings cost a Python pass over every place of it: reading them afresh
for every event at every read of the series would cost seconds. So the commands
that change an event of a series keep a snapshot of what the series takes from it
(:func:`keep_snapshots`, called by the use cases of :mod:`tourney.app`), and the
series reads a snapshot only while it is still valid (:func:`event_results_of`).

A snapshot is valid while its key is the event's key now: a digest of the
event's content stamp (which database triggers set afresh on every write to the
event's entries, rounds, seats, matches, places, forfeits and adjustments:
migrations 0005 and 0008), the event's own row (its points system, tie-breaks,
bye points, rules) and tourney's code. Whatever changes an event without keeping
its snapshot (a writer that does not know about them, an edit by hand) only makes
the series compute that event afresh: a snapshot is never read stale, and a read
never writes one.
"""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from typing import Iterable, Sequence

from sqlalchemy import delete, insert, select
from sqlmodel import Session

from ..code import PACKAGE_DIR, code_digest
from ..storage.models import Event, Player, SeriesEvent, StandingsSnapshot
from .season import EventResult
from .standings import standings_table

_CODE: list[str] = []


def _code() -> str:
    # the standings' rules live in the tournament services and the engines
    if not _CODE:
        _CODE.append(code_digest([PACKAGE_DIR / "tournament", PACKAGE_DIR / "engines"]))
    return _CODE[0]


def snapshot_key(event: Event) -> str | None:
    """The key an event's snapshot must carry to be read; ``None`` for an event
    without a content stamp (never snapshotted)."""
    if event.content_stamp is None:
        return None
    row = {column: getattr(event, column) for column in sorted(Event.__table__.columns.keys())
           if column not in ("name", "date", "created_at", "lang")}
    text = json.dumps([_code(), row], sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=32).hexdigest()


def event_results(session: Session, event: Event, *, lang: str | None = None
                  ) -> list[EventResult]:
    """The players who played ``event`` (a match or a bye) with their points and
    place in the event's own standings, computed afresh."""
    return [EventResult(row.player_id, row.player, row.points, row.place)
            for row in standings_table(session, event, lang=lang)
            if row.matches or row.byes
            # a table forfeited, for or against, counts as played where the
            # standings know forfeits (the arbiter's)
            or getattr(row, "forfeits", 0) or getattr(row, "forfeit_wins", 0)]


@dataclass
class _Snapshot:
    key: str
    rows: str  # JSON: [[player_id, points, place], ...]


def _stored(session: Session, event_ids: Sequence[int]) -> dict[int, _Snapshot]:
    if not event_ids:
        return {}
    found = session.execute(select(StandingsSnapshot.event_id, StandingsSnapshot.key,
                                   StandingsSnapshot.rows_json)
                            .where(StandingsSnapshot.event_id.in_(list(event_ids)))).all()
    return {event_id: _Snapshot(key, rows) for event_id, key, rows in found}


def event_results_of(session: Session, events: Sequence[Event], *, lang: str | None = None
                     ) -> list[list[EventResult]]:
    """:func:`event_results` of each event: from its snapshot where one is valid,
    else computed afresh (and not kept: a read writes nothing)."""
    keys = {event.id: snapshot_key(event) for event in events}
    stored = {event_id: snapshot for event_id, snapshot
              in _stored(session, [e.id for e in events if keys[e.id]]).items()
              if snapshot.key == keys[event_id]}
    kept = {event_id: json.loads(snapshot.rows) for event_id, snapshot in stored.items()}
    names = {}
    if kept:
        wanted = {row[0] for rows in kept.values() for row in rows}
        names = dict(session.execute(select(Player.id, Player.name)).all()) \
            if len(wanted) > 2_000 else \
            dict(session.execute(select(Player.id, Player.name)
                                 .where(Player.id.in_(wanted))).all())
    results = []
    for event in events:
        rows = kept.get(event.id)
        results.append(event_results(session, event, lang=lang) if rows is None else
                       [EventResult(player_id, names[player_id], points, place)
                        for player_id, points, place in rows])
    return results


def keep_snapshots(session: Session, events: Iterable[Event], *,
                   lang: str | None = None) -> int:
    """Compute and store the snapshot of each of ``events`` whose snapshot is
    missing or no longer valid; how many were written. Call it after the event's
    changes are written (flushed) in the same transaction."""
    session.flush()
    events = [event for event in events if event.id is not None]
    for event in events:
        session.refresh(event, ["content_stamp"])  # set by the database's triggers
    keys = {event.id: snapshot_key(event) for event in events}
    stored = _stored(session, [event_id for event_id, key in keys.items() if key])
    stale = [event for event in events
             if keys[event.id] and (event.id not in stored
                                    or stored[event.id].key != keys[event.id])]
    for event in stale:
        # the points as the standings give them (a float's JSON is exact): the
        # series reads what it would have computed
        rows = [[result.player_id, result.points, result.place]
                for result in event_results(session, event, lang=lang)]
        session.execute(delete(StandingsSnapshot)
                        .where(StandingsSnapshot.event_id == event.id))
        session.execute(insert(StandingsSnapshot).values(
            event_id=event.id, key=keys[event.id],
            rows_json=json.dumps(rows, separators=(",", ":"))))
    return len(stale)


def keep_series_snapshots(session: Session, event_ids: Iterable[int] | None = None) -> int:
    """:func:`keep_snapshots` for the events of any series (of those among
    ``event_ids`` when given): only a series reads snapshots."""
    query = select(Event).where(Event.id.in_(select(SeriesEvent.event_id)))
    if event_ids is not None:
        event_ids = list(event_ids)
        if not event_ids:
            return 0
        query = query.where(Event.id.in_(event_ids))
    return keep_snapshots(session, session.execute(query).scalars().all())


def forget_snapshot(session: Session, event_id: int) -> None:
    """Drop an event's snapshot (the event is being deleted)."""
    session.execute(delete(StandingsSnapshot).where(StandingsSnapshot.event_id == event_id))


def keeping_snapshots(change):
    """A change of an event's standings (``change(session, event, ...)``: a
    forfeit, an adjustment, a new tie-break) that then keeps the event's
    snapshot, if the event is in a series."""
    @functools.wraps(change)
    def changed(session: Session, event: Event, *args, **kwargs):
        done = change(session, event, *args, **kwargs)
        keep_series_snapshots(session, [event.id])
        return done
    return changed
