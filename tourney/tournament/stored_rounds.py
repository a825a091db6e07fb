"""What stage two of a result import reads of the database: each event a file
names (its rules, its withdrawn players), and each round it meets (seated or not,
its tables' players in seat order, its stored matches, its forfeited tables).

:class:`EventContexts` is also the :class:`~tourney.records.checked.EventLookup`
stage one is given, so an event is read once for both stages;
:class:`KnownEvents` is the lookup of the processes that check a big file in
parts: every event read before they start, nothing read after.
"""
from __future__ import annotations

from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

from sqlalchemy import and_, bindparam, select
from sqlmodel import Session

from ..errors import TourneyError
from ..records.checked import EventRules
from ..storage.models import Entry, Event, Forfeit, Match, MatchVersion, Player, Round, Seat
from .events import last_seated_round, unknown_event
from .settings import event_settings

MATCH_T = Match.__table__
VERSION_T = MatchVersion.__table__

# Seated rounds kept in memory while importing (see EventContext.round).
ROUNDS_CACHED = 16


def event_rules(event: Event) -> EventRules:
    """What stage one needs of ``event``; :class:`TourneyError` (or an option
    error) when its stored rules are not usable."""
    settings = event_settings(event)
    game, options = settings.game, settings.options
    return EventRules(event.slug, event.variant, game, options, game.match_rules(options))


@dataclass
class StoredMatch:
    """A stored match and its current version (None: none yet)."""

    match_id: int
    version_id: int | None
    content_sha256: str | None
    version: int | None


@dataclass
class RoundInfo:
    seated: bool
    tables: dict[str, list[tuple[int, str]]]  # label -> [(player id, name)] seat order
    stored: dict[str, StoredMatch]
    forfeited: frozenset = frozenset()  # tables scored by a forfeit (`result forfeit`)


# session.info key: what the imports of one transaction read once (sharing_rounds)
_SHARED_ROUNDS = "tourney.shared_rounds"


@dataclass
class SharedRounds:
    """The seated rounds (and each event's withdrawn players) the imports of one
    transaction read once: the writer keeps each round's stored matches in step
    as it stores (:class:`~tourney.tournament.result_writer.VersionWriter`)."""

    rounds: OrderedDict = field(default_factory=OrderedDict)
    withdrawn: dict = field(default_factory=dict)
    last_seated: dict = field(default_factory=dict)  # event id -> its last seated round

    def forget(self) -> None:
        """Read everything again: a part of the transaction was rolled back (a
        savepoint), so what it stored is no longer there."""
        self.rounds.clear()
        self.withdrawn.clear()
        self.last_seated.clear()


def last_seated(session: Session, event: Event) -> int:
    """:func:`~tourney.tournament.events.last_seated_round`, read once per event
    while :func:`sharing_rounds` is open."""
    shared = session.info.get(_SHARED_ROUNDS)
    if shared is None:
        return last_seated_round(session, event)
    number = shared.last_seated.get(event.id)
    if number is None:
        number = shared.last_seated[event.id] = last_seated_round(session, event)
    return number


@contextmanager
def sharing_rounds(session: Session) -> Iterator[SharedRounds]:
    """The imports inside read each round and event once between them, not once
    each: ``tourney serve`` stores a round's tables together in one transaction,
    and each read the round's seating for its own. For imports that share the
    transaction's writes only (nothing else seats, withdraws or stores results
    meanwhile)."""
    if _SHARED_ROUNDS in session.info:
        raise RuntimeError("sharing_rounds is already open in this session")
    shared = session.info[_SHARED_ROUNDS] = SharedRounds()
    try:
        yield shared
    finally:
        session.info.pop(_SHARED_ROUNDS, None)


class EventContext:
    """What the import needs of one event, loaded once (rounds on first use)."""

    def __init__(self, session: Session, event: Event, round_cache: OrderedDict,
                 only_table: str | None = None, shared: SharedRounds | None = None):
        self.session = session
        self.event = event
        self.only_table = only_table
        # Seated rounds cached across every event of the import, oldest first.
        self.round_cache = round_cache
        self.event_rules = event_rules(event)
        self.game, self.options = self.event_rules.game, self.event_rules.options
        self.rules = self.event_rules.rules
        withdrawn = shared.withdrawn.get(event.id) if shared is not None else None
        if withdrawn is None:
            rows = session.execute(
                select(Entry.player_id, Entry.withdrawn_after).where(
                    Entry.event_id == event.id, Entry.withdrawn_after.is_not(None)))
            withdrawn = dict(rows.all())
            if shared is not None:
                shared.withdrawn[event.id] = withdrawn
        self.withdrawn = withdrawn
        # what this import did to the event: counts, and the replacements for the audit
        self.added = 0
        self.replaced = 0
        self.replacements: list = []

    @property
    def touched(self) -> bool:
        return bool(self.added or self.replaced)

    def cached_round(self, number: int) -> RoundInfo | None:
        return self.round_cache.get((self.event.id, number))

    def round(self, number: int) -> RoundInfo:
        key = (self.event.id, number)
        info = self.round_cache.get(key)
        if info is None:
            # A season file walks through many events and rounds; keeping only the
            # latest few keeps memory flat as the file grows (a round evicted and met
            # again is read again: what this import stored so far is in the
            # transaction).
            while len(self.round_cache) >= ROUNDS_CACHED:
                self.round_cache.popitem(last=False)
            info = self.round_cache[key] = self._load_round(number)
        return info

    def _load_round(self, number: int) -> RoundInfo:
        # Core statements on the connection, not ORM queries through the session: a
        # season file meets a thousand rounds, and the ORM's work per query cost
        # three times the queries' own (0.73 -> 0.25 ms a round).
        if self.only_table is not None:
            info = self._load_tables(number, _ONE_TABLE, {"table": self.only_table})
            if not info.seated or self.only_table in info.tables:
                return info
            # not a table of the round: the whole round, to name the tables it has
        return self._load_tables(number, _ALL_TABLES, {})

    def _load_tables(self, number: int, statements: tuple, extra: dict) -> RoundInfo:
        seated_query, stored_query, forfeited_query = statements
        connection = self.session.connection()
        where = {"event": self.event.id, "number": number, **extra}
        seated = False
        tables: dict[str, list[tuple[int, str]]] = {}
        for table, player_id, name in connection.execute(seated_query, where):
            seated = True  # the round's row, with no seat when none is at a table
            if table is not None:
                tables.setdefault(table, []).append((player_id, name))
        stored = {table: StoredMatch(match_id, version_id, sha, version)
                  for table, match_id, version_id, sha, version
                  in connection.execute(stored_query, where)}
        forfeited = frozenset(connection.execute(forfeited_query, where).scalars())
        return RoundInfo(seated, tables, stored, forfeited)


class EventContexts:
    """The events of one import, each read once (:class:`EventContext`), by slug;
    the :class:`~tourney.records.checked.EventLookup` of stage one."""

    def __init__(self, session: Session, known: list[Event] = (),
                 only_table: str | None = None):
        self.session = session
        # the rounds the imports of this transaction share (sharing_rounds): read
        # whole, once for every table of the batch
        self.shared = session.info.get(_SHARED_ROUNDS)
        # a table link's import: its rounds read for that table alone (rows of
        # another table never reach stage two there), not the round's every seat
        self.only_table = only_table if self.shared is None else None
        self.round_cache: OrderedDict = (self.shared.rounds if self.shared is not None
                                         else OrderedDict())
        self.by_slug: dict[str, EventContext | None] = {}
        self._known = {event.slug: event for event in known}  # read already by the caller

    def context(self, slug: str) -> EventContext | None:
        if slug not in self.by_slug:
            event = self._known.get(slug) or self.session.execute(
                select(Event).where(Event.slug == slug)).scalars().first()
            self.by_slug[slug] = (EventContext(self.session, event, self.round_cache,
                                               self.only_table, self.shared)
                                  if event else None)
        return self.by_slug[slug]

    def __iter__(self):
        return (ctx for ctx in self.by_slug.values() if ctx is not None)

    def rules(self, slug: str) -> EventRules | None:
        ctx = self.context(slug)
        return ctx.event_rules if ctx is not None else None

    def unknown(self, slug: str) -> TourneyError:
        return unknown_event(slug, self.session.execute(
            select(Event.slug).order_by(Event.slug)).scalars())

    def in_memory(self) -> "KnownEvents":
        return KnownEvents({event.slug: event for event in
                            self.session.execute(select(Event)).scalars()})


class KnownEvents:
    """Events read before the checking processes start, by slug: their rules are
    worked out on first use, in the process that uses them."""

    def __init__(self, events: dict[str, Event]):
        self.events = events
        self._rules: dict[str, EventRules] = {}

    def rules(self, slug: str) -> EventRules | None:
        event = self.events.get(slug)
        if event is None:
            return None
        if slug not in self._rules:
            self._rules[slug] = event_rules(event)
        return self._rules[slug]

    def unknown(self, slug: str) -> TourneyError:
        return unknown_event(slug, sorted(self.events))

    def in_memory(self) -> "KnownEvents":
        return self


_ROUND_T, _SEAT_T, _PLAYER_T = Round.__table__, Seat.__table__, Player.__table__
_FORFEIT_T = Forfeit.__table__
# A round's tables scored by a forfeit.
_FORFEITED = (select(_FORFEIT_T.c.table).distinct()
              .where(_FORFEIT_T.c.event_id == bindparam("event"),
                     _FORFEIT_T.c.round_number == bindparam("number")))
# A round's seated players by table, in seat order: one row (its table None) when
# the round is there with no one at a table, none when it is not there.
_SEATED = (select(_SEAT_T.c.table, _SEAT_T.c.player_id, _PLAYER_T.c.name)
           .select_from(_ROUND_T.outerjoin(_SEAT_T, and_(_SEAT_T.c.round_id == _ROUND_T.c.id,
                                                         _SEAT_T.c.table.is_not(None)))
                        .outerjoin(_PLAYER_T, _PLAYER_T.c.id == _SEAT_T.c.player_id))
           .where(_ROUND_T.c.event_id == bindparam("event"),
                  _ROUND_T.c.number == bindparam("number"))
           .order_by(_SEAT_T.c.table, _SEAT_T.c.seat))
# A round's stored matches and their current versions.
_STORED = (select(MATCH_T.c.table, MATCH_T.c.id, MATCH_T.c.current_version_id,
                  VERSION_T.c.content_sha256, VERSION_T.c.version)
           .outerjoin(VERSION_T, VERSION_T.c.id == MATCH_T.c.current_version_id)
           .where(MATCH_T.c.event_id == bindparam("event"),
                  MATCH_T.c.round_number == bindparam("number")))
_ALL_TABLES = (_SEATED, _STORED, _FORFEITED)
# The same of one table (bound as "table"); the round's row as _SEATED gives it.
_ONE_TABLE = (
    (select(_SEAT_T.c.table, _SEAT_T.c.player_id, _PLAYER_T.c.name)
     .select_from(_ROUND_T.outerjoin(_SEAT_T, and_(_SEAT_T.c.round_id == _ROUND_T.c.id,
                                                   _SEAT_T.c.table == bindparam("table")))
                  .outerjoin(_PLAYER_T, _PLAYER_T.c.id == _SEAT_T.c.player_id))
     .where(_ROUND_T.c.event_id == bindparam("event"),
            _ROUND_T.c.number == bindparam("number"))
     .order_by(_SEAT_T.c.seat)),
    _STORED.where(MATCH_T.c.table == bindparam("table")),
    _FORFEITED.where(_FORFEIT_T.c.table == bindparam("table")),
)
