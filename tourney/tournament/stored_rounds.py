"""What stage two of a result import reads of the database: each event a file
names (its rules), and each round it meets (seated or not; its tables' players in
seat order and whether they withdrew, their stored matches, whether a forfeit
scored them), a table at a time for a file of one match (:class:`RoundInfo`).

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

from sqlalchemy import and_, bindparam, exists, select
from sqlmodel import Session

from ..errors import TourneyError
from ..records.checked import EventRules
from ..storage.db import session_scope
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
class StoredTable:
    """One table of a round as the import needs it."""

    seats: list[tuple[int, str]] | None  # [(player id, name)] in seat order; None: not seated
    stored: StoredMatch | None  # its stored match, if one is
    forfeited: bool  # scored by a forfeit (`result forfeit`)


# session.info key: what the imports of one transaction read once (sharing_rounds)
_SHARED_ROUNDS = "tourney.shared_rounds"


@dataclass
class SharedRounds:
    """The rounds (and each event's last seated round) the imports of one
    transaction read once between them: the writer keeps each round's stored
    matches in step as it stores (:meth:`RoundInfo.store`)."""

    rounds: OrderedDict = field(default_factory=OrderedDict)
    last_seated: dict = field(default_factory=dict)  # event id -> its last seated round

    def forget(self) -> None:
        """Read everything again: a part of the transaction was rolled back (a
        savepoint), so what it stored is no longer there."""
        self.rounds.clear()
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
    """The imports inside read each round once between them, not once each:
    ``tourney serve`` stores the tables of a round sent together in one transaction
    (the first table is read alone, the second reads the whole round for them all).
    For imports that share the transaction's writes only (nothing else seats,
    withdraws or stores results meanwhile)."""
    with session_scope(session, _SHARED_ROUNDS, SharedRounds()) as shared:
        yield shared


class RoundInfo:
    """A round as the import meets it: seated or not, and its tables (their players
    in seat order, their stored matches, whether a forfeit scored them, whether a
    player seated there withdrew), read as they are asked for.

    A file of one match (a table's link in ``tourney serve``, a result sent on its
    own) reads only its table: one statement, its seats' rows, whatever the
    round's size. A file of many tables of a round would pay a statement a table
    that way, so the second table asked for reads the whole round in one go (three
    statements), as a whole-round file needs anyway.
    """

    def __init__(self, connection, event_id: int, number: int):
        self._connection, self._event_id, self.number = connection, event_id, number
        self._seated: bool | None = None  # None: not known until something is read
        self._whole = False
        self._read: set[str] = set()  # tables read one at a time
        self._tables: dict[str, list[tuple[int, str]]] = {}
        self._stored: dict[str, StoredMatch] = {}
        self._forfeited: set[str] = set()
        # withdrawn after which round, of the players of the tables read
        self.withdrawn: dict[int, int] = {}

    @property
    def seated(self) -> bool:
        if self._seated is None:
            self._read_whole()
        return self._seated

    def table(self, label: str) -> StoredTable:
        if not self._whole and label not in self._read:
            if self._read:
                self._read_whole()
            else:
                self._read_table(label)
        return StoredTable(self._tables.get(label), self._stored.get(label),
                           label in self._forfeited)

    def labels(self) -> list[str]:
        """Every seated table of the round (the whole round is read)."""
        if not self._whole:
            self._read_whole()
        return list(self._tables)

    def store(self, label: str, match: StoredMatch) -> None:
        """What this import stored for ``label`` (a table it read): its match now."""
        self._stored[label] = match

    def _read_table(self, label: str) -> None:
        self._read.add(label)
        seats = []
        for (player_id, name, withdrawn_after, match_id, version_id, sha, version,
             forfeited) in self._connection.execute(
                _ONE_TABLE, {"event": self._event_id, "number": self.number,
                             "table": label}):
            self._seated = True  # the round's row, with no seat when the table has none
            if player_id is not None:
                seats.append((player_id, name))
                if withdrawn_after is not None:
                    self.withdrawn[player_id] = withdrawn_after
            if match_id is not None:
                self._stored[label] = StoredMatch(match_id, version_id, sha, version)
            if forfeited:
                self._forfeited.add(label)
        if self._seated is None:
            self._seated = False  # no row: the round is not there
        if seats:
            self._tables[label] = seats

    def _read_whole(self) -> None:
        # Core statements on the connection, not ORM queries through the session: a
        # season file meets a thousand rounds, and the ORM's work per query cost
        # three times the queries' own (0.73 -> 0.25 ms a round).
        connection = self._connection
        where = {"event": self._event_id, "number": self.number}
        read = self._read  # tables read alone keep what this import did to them
        self._whole, self._seated = True, False
        for table, player_id, name, withdrawn_after in connection.execute(_SEATED, where):
            self._seated = True  # the round's row, with no seat when none is at a table
            if table is not None and table not in read:
                self._tables.setdefault(table, []).append((player_id, name))
                if withdrawn_after is not None:
                    self.withdrawn[player_id] = withdrawn_after
        for table, match_id, version_id, sha, version in connection.execute(_STORED, where):
            if table not in read:
                self._stored[table] = StoredMatch(match_id, version_id, sha, version)
        self._forfeited.update(table for table in connection.execute(_FORFEITED, where).scalars()
                               if table not in read)


class EventContext:
    """What the import needs of one event, loaded once (rounds on first use)."""

    def __init__(self, session: Session, event: Event, round_cache: OrderedDict):
        self.session = session
        self.event = event
        # Seated rounds cached across every event of the import, oldest first.
        self.round_cache = round_cache
        self.event_rules = event_rules(event)
        self.game, self.options = self.event_rules.game, self.event_rules.options
        self.rules = self.event_rules.rules
        # what this import did to the event: counts, and the replacements for the audit
        self.added = 0
        self.replaced = 0
        self.replacements: list = []
        self._entered: dict[str, str] | None = None

    def entered_names(self) -> dict[str, str]:
        """The names that find a player entered in the event (read on first use:
        only a row naming someone not seated at its table needs them)."""
        if self._entered is None:
            from .players import entered_names

            self._entered = entered_names(self.session, self.event)
        return self._entered

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
            info = self.round_cache[key] = RoundInfo(self.session.connection(),
                                                     self.event.id, number)
        return info


class EventContexts:
    """The events of one import, each read once (:class:`EventContext`), by slug;
    the :class:`~tourney.records.checked.EventLookup` of stage one."""

    def __init__(self, session: Session, known: list[Event] = ()):
        self.session = session
        # the rounds of the imports of this transaction (sharing_rounds), or its own
        shared = session.info.get(_SHARED_ROUNDS)
        self.round_cache: OrderedDict = (shared.rounds if shared is not None
                                         else OrderedDict())
        self.by_slug: dict[str, EventContext | None] = {}
        self._known = {event.slug: event for event in known}  # read already by the caller

    def context(self, slug: str) -> EventContext | None:
        if slug not in self.by_slug:
            event = self._known.get(slug) or self.session.execute(
                select(Event).where(Event.slug == slug)).scalars().first()
            self.by_slug[slug] = (EventContext(self.session, event, self.round_cache)
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
_ENTRY_T, _FORFEIT_T = Entry.__table__, Forfeit.__table__
# A round's tables scored by a forfeit.
_FORFEITED = (select(_FORFEIT_T.c.table).distinct()
              .where(_FORFEIT_T.c.event_id == bindparam("event"),
                     _FORFEIT_T.c.round_number == bindparam("number")))
# A round's seated players by table, in seat order, with the round after which each
# withdrew (None: did not): one row (its table None) when the round is there with no
# one at a table, none when it is not there.
_SEATED = (select(_SEAT_T.c.table, _SEAT_T.c.player_id, _PLAYER_T.c.name,
                  _ENTRY_T.c.withdrawn_after)
           .select_from(_ROUND_T.outerjoin(_SEAT_T, and_(_SEAT_T.c.round_id == _ROUND_T.c.id,
                                                         _SEAT_T.c.table.is_not(None)))
                        .outerjoin(_PLAYER_T, _PLAYER_T.c.id == _SEAT_T.c.player_id)
                        .outerjoin(_ENTRY_T, and_(_ENTRY_T.c.event_id == _ROUND_T.c.event_id,
                                                  _ENTRY_T.c.player_id == _SEAT_T.c.player_id)))
           .where(_ROUND_T.c.event_id == bindparam("event"),
                  _ROUND_T.c.number == bindparam("number"))
           .order_by(_SEAT_T.c.table, _SEAT_T.c.seat))
# A round's stored matches and their current versions.
_STORED = (select(MATCH_T.c.table, MATCH_T.c.id, MATCH_T.c.current_version_id,
                  VERSION_T.c.content_sha256, VERSION_T.c.version)
           .outerjoin(VERSION_T, VERSION_T.c.id == MATCH_T.c.current_version_id)
           .where(MATCH_T.c.event_id == bindparam("event"),
                  MATCH_T.c.round_number == bindparam("number")))
# One table of a round in one statement: a row per seat in seat order (the seated
# player, when they withdrew), each with the table's stored match and whether a
# forfeit scored it; one row with no seat when the round is there and the table is
# not seated, none when the round is not there.
_ONE_TABLE = (
    select(_SEAT_T.c.player_id, _PLAYER_T.c.name, _ENTRY_T.c.withdrawn_after,
           MATCH_T.c.id, MATCH_T.c.current_version_id, VERSION_T.c.content_sha256,
           VERSION_T.c.version,
           exists().where(_FORFEIT_T.c.event_id == _ROUND_T.c.event_id,
                          _FORFEIT_T.c.round_number == _ROUND_T.c.number,
                          _FORFEIT_T.c.table == bindparam("table")).label("forfeited"))
    .select_from(
        _ROUND_T.outerjoin(_SEAT_T, and_(_SEAT_T.c.round_id == _ROUND_T.c.id,
                                         _SEAT_T.c.table == bindparam("table")))
        .outerjoin(_PLAYER_T, _PLAYER_T.c.id == _SEAT_T.c.player_id)
        .outerjoin(_ENTRY_T, and_(_ENTRY_T.c.event_id == _ROUND_T.c.event_id,
                                  _ENTRY_T.c.player_id == _SEAT_T.c.player_id))
        .outerjoin(MATCH_T, and_(MATCH_T.c.event_id == _ROUND_T.c.event_id,
                                 MATCH_T.c.round_number == _ROUND_T.c.number,
                                 MATCH_T.c.table == bindparam("table")))
        .outerjoin(VERSION_T, VERSION_T.c.id == MATCH_T.c.current_version_id))
    .where(_ROUND_T.c.event_id == bindparam("event"), _ROUND_T.c.number == bindparam("number"))
    .order_by(_SEAT_T.c.seat))
