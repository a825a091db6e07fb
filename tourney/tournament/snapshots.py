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
            # a table forfeited, for or against, counts as played
            or row.forfeits or row.forfeit_wins]


def _valid_snapshots(session: Session, events: Sequence[Event]
                     ) -> tuple[dict[int, str | None], dict[int, str]]:
    """Each event's key now, and the stored snapshot rows (JSON) of those whose
    snapshot carries it."""
    keys = {event.id: snapshot_key(event) for event in events}
    wanted = [event_id for event_id, key in keys.items() if key]
    found = session.execute(select(StandingsSnapshot.event_id, StandingsSnapshot.key,
                                   StandingsSnapshot.rows_json)
                            .where(StandingsSnapshot.event_id.in_(wanted))).all() \
        if wanted else []
    return keys, {event_id: rows for event_id, key, rows in found if key == keys[event_id]}


def event_results_of(session: Session, events: Sequence[Event], *, lang: str | None = None
                     ) -> list[list[EventResult]]:
    """:func:`event_results` of each event: from its snapshot where one is valid,
    else computed afresh (and not kept: a read writes nothing)."""
    kept = {event_id: json.loads(rows)
            for event_id, rows in _valid_snapshots(session, events)[1].items()}
    names = {}
    if kept:
        wanted = {row[0] for rows in kept.values() for row in rows}
        # a league's players all at once rather than an IN list of thousands
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


def keep_snapshots(session: Session, event_ids: Iterable[int], *,
                   lang: str | None = None) -> int:
    """Compute and store the snapshot of each of the events ``event_ids`` whose
    snapshot is missing or no longer valid; how many were written. Call it after
    the events' changes are made, in the same transaction."""
    session.flush()
    event_ids = list(event_ids)
    if not event_ids:
        return 0
    # read anew: the content stamps are set by the database's triggers
    events = session.execute(select(Event).where(Event.id.in_(event_ids))
                             .execution_options(populate_existing=True)).scalars().all()
    keys, valid = _valid_snapshots(session, events)
    stale = [event for event in events if keys[event.id] and event.id not in valid]
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
    query = select(SeriesEvent.event_id).distinct()
    if event_ids is not None:
        query = query.where(SeriesEvent.event_id.in_(list(event_ids)))
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
