"""Importing match results: record CSV files in, match versions out.

``import_results(session, path, ...)`` streams a record file (docs/guide/records.md) through the
engines and stores each valid match of seated tables as a new
:class:`~tourney.storage.models.MatchVersion` with its deals and places. The whole
file is one transaction (the caller's): by default any invalid row rejects the whole
file (:class:`ImportRejected`, nothing written); with ``skip_invalid`` the valid
matches are stored and the rows of the rejected ones returned for a rejects file.

The stored text is canonical: cards and move tokens in canonical spelling and the
scores the engine computed, so spelling differences between two files of the same
match are not changes, and a match's ``content_sha256`` identifies its content.

Decisions (the specs are silent):

- A match must belong to a seated table: its round seated, its table one of the
  round's tables, the players of deal 1 the players seated there in seat order, and
  none of them withdrawn before the round. The dealer of deal 1 must be seat 0's
  player (the seating makes seat 0 deal first); a record with another first dealer
  is refused with a message naming who should deal, rather than accepted as a
  re-seating nobody recorded. An invalid match is checked against the seating too,
  and what it says is listed first: a table that wrote its players in another order
  breaks the dealer rule in the file's order, and the dealer and players errors the
  seating explains are left out (:meth:`ResultImporter._seating_first`;
  docs/guide/records.md, "Every error at once").
- A name in a record that belongs to a player merged (after the seating was
  printed) into the player now seated there is accepted as that player; the
  stored deals carry the kept name, so both spellings are the same content.
- Stored deals keep the names as imported. A match stored before a rename or merge
  is compared with a file by player: its names are read as the names the players
  have now (:func:`~tourney.storage.merges.current_names`), so the same file
  imported again, or an export written since, is ``unchanged`` (even with
  ``--replace``), and a difference quotes the players as the file names them.
- Match points follow the event's points system (:mod:`.scoring`): by default the
  share of the table's other players finished ahead of; ``place`` gives n-1 at a
  table of n down to 0.
- Rows are grouped into matches by :meth:`RecordChecker.check_stream`, the grouper
  ``tourney validate`` uses, so both name a fault by the same rule; the importer
  adds only what needs the database (events, seated tables, players, stored
  versions, replacing).
- The same match (event, round, table) twice in one file is an error even with
  equal content; its rows must stand together (docs/guide/records.md, "The file";
  ``match-split``). With ``skip_invalid`` the first occurrence is kept and the
  later one rejected.
- A row that cannot be read (a bad card, a ragged row) is counted against the
  match its event, round and table cells name when they are readable, else
  against the match whose rows precede it (deals are numbered from 1 without
  gaps, so a missing first deal is caught on its own).
- Problems of the file as a whole (its header, its encoding, an oversized line)
  reject the whole import even with ``skip_invalid``: what follows cannot be trusted.
- Audit: one ``result.import`` row per event touched by an import (the counts, the
  file and its sha256), one ``result.replace`` row per replaced match, one
  ``result.revert`` row per revert. Per-match rows for plain additions would double
  the writes of a season import and say nothing the versions do not.
- ``--replace`` always adds a new version, even when the file's content equals an
  older, superseded version: the history then shows who brought it back and from
  which file (``revert`` is the way to reinstate an old version as it was).
"""
from __future__ import annotations

import getpass
import hashlib
import json
import os
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from itertools import compress
from operator import eq
from typing import IO, Callable, Iterable, Iterator, Sequence

from sqlalchemy import bindparam, func, select, update
from sqlmodel import Session

from ..engines.base import DealOutcome, Game, MatchRules
from ..engines.match import MatchRanking
from ..errors import OptionError, RecordError, Remedy, TourneyError, UnknownName, UsageError, located
from ..names import name_hint
from ..numbers import count_text
from ..ordering import natural_key
from ..records.csv_format import (
    CONTENT_FIELDS,
    ERROR_COLUMN,
    DealRecord,
    RecordReader,
    canonical_fields,
    open_records,
)
from ..records.parallel import Part, PartLost, plan_parts, stream_parts, usable_cores
from ..records.sources import Source
from ..records.spreadsheets import CsvTable, XlsxTable, typed_cell
from ..records.validation import (
    GROUPING_RULES,
    MAX_DEALS_PER_MATCH,
    MAX_MATCHES_PER_FILE,
    DealCheck,
    MatchCheck,
    RecordChecker,
    match_problems,
    row_key_guesser,
    too_many_matches,
)
from ..seats import seat_text
from ..storage.bulk import BulkInsert, set_by_id
from ..storage.db import ConflictingChange
from ..storage.merges import current_names, follow, merge_links, rename_players
from ..storage.models import (
    Deal,
    Entry,
    Event,
    Forfeit,
    Match,
    MatchPlace,
    MatchVersion,
    Player,
    Round,
    Seat,
    utcnow,
)
from .scoring import match_points
from .settings import event_settings, other_event, other_variant

MATCH_T = Match.__table__
VERSION_T = MatchVersion.__table__
DEAL_T = Deal.__table__
PLACE_T = MatchPlace.__table__

# Deals buffered before one batch of INSERTs: big enough to amortise round trips,
# small enough that a million-deal file never sits in memory.
BATCH_DEALS = 5000
# The columns of the deal and place rows the importer writes, in tuple order.
DEAL_COLUMNS = ("version_id", "number") + CONTENT_FIELDS + ("claimed_scores", "verified")
PLACE_COLUMNS = ("version_id", "player_id", "seat", "place", "total", "match_points")
MATCH_COLUMNS = ("event_id", "round_number", "table", "current_version_id")
# A version row's columns: the match and the time of import first (the same for
# every version of an import), then the keys of _Accepted.version_row.
VERSION_COLUMNS = ("match_id", "imported_at", "version", "content_sha256", "source_file",
                   "source_sha256", "imported_by", "superseded_at", "deals",
                   "verified_moves", "ranking_json")
# Errors kept for the report; the rest are counted (a file of a million bad rows
# must not become a million-entry list).
MAX_ERRORS_KEPT = 10_000
# Canonical move spellings remembered per game (a dict lookup instead of a parse
# per token on the hot path); cleared when it grows past this.
TOKEN_CACHE_LIMIT = 200_000
PROGRESS_EVERY = 2000  # rows between progress callbacks
# Rows of matches a checking process hands over at a time (``--jobs``).
PART_BATCH_ROWS = 2000

# What the seating says of deal 1 (ResultImporter._check_seating), and the match
# errors that may follow from it, checked again with deal 1 as seated.
_DEAL_ONE_RULES = ("not-seated", "seat-order", "first-dealer")
_FOLLOW_ON_RULES = ("dealer-rotation", "same-players", "colours-alternate")

# The columns a match's content is made of, in the order they are hashed; a
# canonical row is a tuple of them (the deal number as text).
CONTENT_COLUMNS = ("deal",) + CONTENT_FIELDS



# --------------------------------------------------------------------- small pieces

def content_digest(rows: Iterable[Sequence[str]]) -> str:
    """sha256 of a match's canonical rows (deal order), each a tuple of
    :data:`CONTENT_COLUMNS`: every row's fields joined by US, each row ended by RS."""
    rows = list(map("\x1f".join, rows))
    text = "\x1e".join(rows) + "\x1e" if rows else ""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def current_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name in some containers
        return os.environ.get("USER") or "unknown"


def error_dict(err: RecordError) -> dict:
    """An error of ``result import --json``: ``error`` (the whole text), ``rule``,
    ``message`` (the text without its position) and the position, the seat from 1."""
    return {"file": err.file, "cell": err.cell, **err.position(),
            "rule": err.rule, "message": err.message, "error": str(err)}


def error_text(err: RecordError) -> str:
    return f"{err} [{err.rule}]" if err.rule else str(err)


def _clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class _TokenCache(dict):
    """Move token -> canonical spelling; a miss asks the engine once."""

    def __init__(self, canonical: Callable[[str], str]):
        super().__init__()
        self.canonical = canonical

    def __missing__(self, token: str) -> str:
        spelled = self[token] = self.canonical(token)
        return spelled


# --------------------------------------------------------------------- the report

@dataclass
class ImportReport:
    file: str
    source_sha256: str
    dry_run: bool = False
    added: int = 0
    unchanged: int = 0
    replaced: int = 0
    rejected: int = 0
    deals: int = 0
    errors: list[RecordError] = field(default_factory=list)
    error_count: int = 0
    notices: list[str] = field(default_factory=list)  # how the file was read (encoding)
    locate: Callable[[RecordError], RecordError] | None = field(default=None, repr=False)
    committed: bool = False
    file_error: bool = False  # the file as a whole could not be read
    unfilled: int = 0  # score-sheet template rows left empty, skipped
    # Variants whose stored results this import changed (added or replaced
    # matches): the pools the caller refreshes. Not part of the JSON.
    changed_variants: list[str] = field(default_factory=list)
    # Per variant with added matches and no replaced one: the new matches' ids (the
    # ratings rate them on their own when they come after every rated match).
    added_matches: dict[str, list[int]] = field(default_factory=dict)
    # Per variant with replaced matches and no added one: the replaced matches' ids
    # (the ratings replay from the first of them only).
    replaced_matches: dict[str, list[int]] = field(default_factory=dict)

    def add_error(self, err: RecordError) -> None:
        if err.file is None:
            err.file = self.file
        if self.locate is not None:
            self.locate(err)  # a workbook's sheet and cell
        self.error_count += 1
        if len(self.errors) < MAX_ERRORS_KEPT:
            self.errors.append(err)

    def summary(self) -> str:
        text = (f"added: {count_text(self.added, 'match')}, unchanged: {self.unchanged}, "
                f"replaced: {self.replaced}, rejected: {self.rejected}")
        if self.unfilled:
            text += f"; skipped {count_text(self.unfilled, 'empty score-sheet row')}"
        if self.dry_run:
            text += " (dry run: nothing written)"
        return text

    def to_json(self) -> dict:
        return {
            "file": self.file, "sha256": self.source_sha256, "dry_run": self.dry_run,
            "committed": self.committed, "added": self.added, "unchanged": self.unchanged,
            "replaced": self.replaced, "rejected": self.rejected, "deals": self.deals,
            "error_count": self.error_count, "file_error": self.file_error,
            "errors": [error_dict(e) for e in self.errors],
        }


class ImportRejected(TourneyError):
    """The file had invalid rows: nothing was imported. ``report`` lists them;
    ``file_error`` is the error that made the whole file unreadable, if one did."""

    def __init__(self, report: ImportReport, file_error: RecordError | None = None):
        self.report = report
        self.file_error = file_error
        if file_error is not None:
            text = f"{report.file}: nothing imported: the file cannot be read as records"
            if not any(e is file_error for e in report.errors):
                # a file stopped late (too many matches): its own error came after the
                # rows' errors that the list keeps, so it is said here
                text += f" ({file_error.message})"
        else:
            text = (f"{report.file}: nothing imported: {count_text(report.error_count, 'error')} "
                    f"in {count_text(report.rejected, 'match')}")
        super().__init__(text)

    @property
    def is_usage(self) -> bool:
        # the whole file's error decides when there is one (a bad header is a usage error)
        return self.file_error is not None and self.file_error.is_usage


# --------------------------------------------------------------------- the database side

# Seated rounds kept in memory while importing (see _EventContext.round).
ROUNDS_CACHED = 16


@dataclass
class _Stored:
    match_id: int
    version_id: int | None
    content_sha256: str | None
    version: int | None


@dataclass
class _RoundInfo:
    seated: bool
    tables: dict[str, list[tuple[int, str]]]  # label -> [(player id, name)] seat order
    stored: dict[str, _Stored]
    forfeited: frozenset = frozenset()  # tables scored by a forfeit (`result forfeit`)


class _EventContext:
    """What the importer needs of one event, loaded once (rounds on first use)."""

    def __init__(self, session: Session, event: Event, round_cache: OrderedDict | None = None):
        self.session = session
        self.event = event
        # Seated rounds cached across every event of the import, oldest first.
        self.round_cache = round_cache if round_cache is not None else OrderedDict()
        settings = event_settings(event)
        self.game, self.options = settings.game, settings.options
        self.rules: MatchRules = self.game.match_rules(self.options)
        rows = session.execute(
            select(Entry.player_id, Entry.withdrawn_after).where(Entry.event_id == event.id))
        self.withdrawn = {pid: w for pid, w in rows if w is not None}
        self.touched = {"added": 0, "replaced": 0, "replacements": []}

    def cached_round(self, number: int) -> _RoundInfo | None:
        return self.round_cache.get((self.event.id, number))

    def round(self, number: int) -> _RoundInfo:
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

    def _load_round(self, number: int) -> _RoundInfo:
        # Core statements on the connection, not ORM queries through the session: a
        # season file meets a thousand rounds, and the ORM's work per query cost
        # three times the queries' own (0.73 -> 0.25 ms a round).
        connection, event_id = self.session.connection(), self.event.id
        round_id = connection.execute(_ROUND_ID, {"event": event_id, "number": number}).scalar()
        tables: dict[str, list[tuple[int, str]]] = {}
        if round_id is not None:
            for table, player_id, name in connection.execute(_SEATED, {"round": round_id}):
                tables.setdefault(table, []).append((player_id, name))
        stored = {table: _Stored(match_id, version_id, sha, version)
                  for table, match_id, version_id, sha, version
                  in connection.execute(_STORED, {"event": event_id, "number": number})}
        forfeited = frozenset(connection.execute(_FORFEITED, {"event": event_id,
                                                               "number": number}).scalars())
        return _RoundInfo(round_id is not None, tables, stored, forfeited)


_ROUND_T, _SEAT_T, _PLAYER_T = Round.__table__, Seat.__table__, Player.__table__
_ROUND_ID = select(_ROUND_T.c.id).where(_ROUND_T.c.event_id == bindparam("event"),
                                        _ROUND_T.c.number == bindparam("number"))
_FORFEIT_T = Forfeit.__table__
# A round's tables scored by a forfeit.
_FORFEITED = (select(_FORFEIT_T.c.table).distinct()
              .where(_FORFEIT_T.c.event_id == bindparam("event"),
                     _FORFEIT_T.c.round_number == bindparam("number")))
# A round's seated players by table, in seat order.
_SEATED = (select(_SEAT_T.c.table, _SEAT_T.c.player_id, _PLAYER_T.c.name)
           .join(_PLAYER_T, _PLAYER_T.c.id == _SEAT_T.c.player_id)
           .where(_SEAT_T.c.round_id == bindparam("round"), _SEAT_T.c.table.is_not(None))
           .order_by(_SEAT_T.c.table, _SEAT_T.c.seat))
# A round's stored matches and their current versions.
_STORED = (select(MATCH_T.c.table, MATCH_T.c.id, MATCH_T.c.current_version_id,
                  VERSION_T.c.content_sha256, VERSION_T.c.version)
           .outerjoin(VERSION_T, VERSION_T.c.id == MATCH_T.c.current_version_id)
           .where(MATCH_T.c.event_id == bindparam("event"),
                  MATCH_T.c.round_number == bindparam("number")))


# --------------------------------------------------------------------- one match in a file

@dataclass
class _Accepted:
    """A valid match waiting for its batch of INSERTs."""

    ctx: _EventContext
    round: int
    table: str
    match_id: int | None
    old_version_id: int | None
    version: int
    version_row: dict
    deals: list[dict]
    places: list[dict]


@dataclass
class _ReadMatch:
    """A match as read and checked, made ready for :meth:`ResultImporter._close`
    (in the process that checked it: with ``--jobs``, not the one that stores it)."""

    match: MatchCheck  # a valid match's deal checks are dropped: see ``deals``
    rows: int  # its rows in the file
    raws: list[list[str]]  # its rows as read, in file order (for a rejects file)
    # A valid match: its first deal, and per deal in deal order (line, deal number,
    # whether the file claimed scores, how the outcome was verified) and its
    # canonical row, with the names as the file gives them. Plain tuples and
    # strings: they pickle fast (``--jobs``).
    first: DealRecord | None = None
    deals: list[tuple[int, int, bool, str]] | None = None
    canonical: list[tuple[str, ...]] | None = None
    digest: str | None = None  # content_digest(canonical)
    columns: list[str] | None = None  # the file's columns

    def strip(self, keep_raws: bool) -> None:
        """Drop what storing does not use (card lists, moves, replay state), so
        the match pickles small on its way to the process that stores it."""
        if not keep_raws:
            self.raws = []
        if self.first is not None:
            self.first = replace(self.first, hands=None, secrets=None, stock=None,
                                 passes=None, play=None)
        for check in self.match.deals:
            record = check.record
            if record is not None:
                record.hands = record.secrets = record.stock = record.passes = None
                record.play = None
            outcome = check.outcome
            if outcome is not None:
                check.outcome = DealOutcome(outcome.scores, outcome.places, outcome.verified)


class _PartEvent:
    """An event as a checking process knows it (:meth:`ResultImporter._check_part`):
    its settings, from the event read before the processes started."""

    def __init__(self, event: Event):
        self.event = event
        settings = event_settings(event)
        self.game, self.options = settings.game, settings.options


@dataclass
class _Columns:
    """The file's columns where no reader is at hand (``--jobs``)."""

    columns: list[str]


class ResultImporter:
    """One import of one file into one session; see :func:`import_results`."""

    def __init__(self, session: Session, *, event: str | None = None, replace: bool = False,
                 dry_run: bool = False, rejects: IO[str] | None = None,
                 imported_by: str | None = None,
                 on_progress: Callable[[int], None] | None = None,
                 batch_deals: int = BATCH_DEALS, encoding: str | None = None,
                 sheet: str | None = None, jobs: int | None = None):
        self.session = session
        self.jobs = jobs  # processes checking a big CSV file; None: one per core
        self.encoding = encoding
        self.sheet = sheet
        self.event_slug = event
        self.replace = replace
        self.dry_run = dry_run
        self.skip_invalid = rejects is not None
        if rejects is not None and not isinstance(rejects, (CsvTable, XlsxTable)):
            rejects = CsvTable(rejects, None, bom=False)  # a text stream
        self._rejects = rejects
        self._rejects_header = False
        self.imported_by = (imported_by or current_user())[:100]
        self.on_progress = on_progress
        self.batch_deals = batch_deals
        self.now = utcnow()
        self._events: dict[str, _EventContext | None] = {}
        self._round_cache: OrderedDict = OrderedDict()
        self._pending: list[_Accepted] = []
        self._pending_deals = 0
        # this import's versions stored before the file's hash was known (read as it
        # streams), given the hash at the end
        self._version_ids: list[int] = []
        self._added: dict[str, list[int]] = {}  # variant -> the matches this import made
        self._tokens: dict[str, dict[str, str]] = {}
        self.checker = RecordChecker(options_for=self._options_for, keep_deals=True)
        self._reader = None
        # the (event, variant) cells of the last row resolved, and what they resolved to
        self._resolved: tuple = ((), None)
        self._card_cells: tuple[int | None, ...] | None = None  # hands, stock, passes
        self._current_names: dict[str, str] | None = None  # old name -> name now
        self._events_known: dict[str, Event] | None = None  # --jobs: every event, by slug
        self._bulk: dict[str, BulkInsert] = {}  # table name -> its writer

    # -------------------------------------------------------------- events and rows

    def _context(self, slug: str) -> _EventContext | None:
        if slug not in self._events:
            event = self.session.execute(select(Event).where(Event.slug == slug)).scalars().first()
            self._events[slug] = (_EventContext(self.session, event, self._round_cache)
                                  if event else None)
        return self._events[slug]

    def _options_for(self, record: DealRecord, game: Game) -> dict:
        return self._events[record.event].options

    def _resolve_row(self, record: DealRecord) -> None:
        """Fill the row's event and variant; :class:`RecordError` if they are wrong."""
        as_read = (record.event, record.variant)
        if as_read == self._resolved[0]:  # the common case: as the row before
            record.event, record.variant = self._resolved[1]
            return
        if record.event is None:
            if self.event_slug is None:
                raise RecordError("no event: add an event column or name the event",
                                  rule="event", column="event", setting="event")
            record.event = self.event_slug
        elif self.event_slug is not None and record.event != self.event_slug:
            raise other_event(record.event, self.event_slug)
        try:
            ctx = self._context(record.event)
        except (OptionError, UsageError) as err:
            raise RecordError(f"event {record.event}: {err}", rule="event-rules",
                              column="event") from None
        if ctx is None:  # a usage error, said once for the file (not once a row)
            from .events import unknown_event

            known = (sorted(self._events_known) if self._events_known is not None else
                     self.session.execute(select(Event.slug).order_by(Event.slug)).scalars())
            err = unknown_event(record.event, known)
            raise UnknownName(located(self.report.file if self.report else None, str(err),
                                      line=record.line, column="event"),
                              setting=err.setting, remedy=err.remedy)
        if record.variant is None:
            record.variant = ctx.event.variant
        elif record.variant != ctx.event.variant:
            raise other_variant(ctx.event.slug, ctx.event.variant, record.variant)
        self._resolved = (as_read, (record.event, record.variant))

    # -------------------------------------------------------------- the file

    def run(self, path: str) -> ImportReport:
        name = "<stdin>" if path == "-" else path
        report = self.report = ImportReport(file=name, source_sha256="", dry_run=self.dry_run)
        self.source_file = os.path.basename(name)[:500]
        parts = None
        if self.jobs != 1 and self.sheet is None:
            parts = plan_parts(path, self._processes(), encoding=self.encoding)
        try:
            if parts is None:
                self._read_whole(path)
            else:
                self._read_in_parts(path, name, parts)
        except RecordError as err:  # the file as a whole: header, encoding, size
            # (the reader names its line and column)
            report.add_error(err)
            report.file_error = True
            report.added = report.replaced = 0
            raise ImportRejected(report, err) from None
        if self._rejects is not None:
            self._write_reject(None, None)  # the header, even when nothing was rejected
        if report.error_count and not self.skip_invalid:
            report.added = report.replaced = 0
            raise ImportRejected(report)
        if not self.dry_run:
            self._flush()
            self._stamp_source()
            self._after_import()
            report.committed = True
        return report

    def _processes(self) -> int:
        """How many processes check a big file at a time (``--jobs``)."""
        return self.jobs or usable_cores()

    def _read_whole(self, path: str) -> None:
        """The file read and checked here, in one process, match by match."""
        report = self.report
        # Read once: the file is hashed as it streams (an endless input meets the
        # reader's bounds instead of a hash that never ends).
        source, reader = open_records(path, errors="yield", encoding=self.encoding,
                                      sheet=self.sheet)
        report.locate = source.locate if source.kind == "xlsx" else None
        self._reader = reader
        on_progress = self.on_progress
        with source:
            for read, rows in self._read_matches(reader):
                if on_progress is not None and rows:
                    on_progress(source.bytes_read)
                self._close(read)
            source.drain()
        report.source_sha256 = source.sha256
        report.notices = list(source.notices)
        report.unfilled = reader.unfilled

    def _read_matches(self, reader: RecordReader) -> Iterator[tuple[_ReadMatch, int]]:
        """The matches of ``reader`` as :meth:`RecordChecker.check_stream` closes
        them, each made ready for :meth:`_close` (:meth:`_prepare`), with the
        number of rows read since the last progress report (0 if none due)."""
        raws: list[list[str]] = []  # the open match's rows as read
        rows = in_match = due = 0
        stream = self.checker.check_stream(
            reader, resolve=self._resolve_row,
            guess_key=row_key_guesser(reader, self.event_slug))
        for item in stream:
            if item.__class__ is DealCheck:
                rows += 1
                in_match += 1
                if rows % PROGRESS_EVERY == 0:
                    due = rows
                if in_match <= MAX_DEALS_PER_MATCH + 1:  # as kept on the match
                    raws.append(reader.raw_row)
                continue
            yield self._prepare(item, in_match, raws), due
            in_match, raws, due = 0, [], 0

    def _read_in_parts(self, path: str, name: str, parts: list[Part]) -> None:
        """The file checked in parts, a process each (:func:`stream_parts`), and
        each match stored here in file order, as :meth:`_read_whole` would.

        The processes know the events from a list read before they start (they
        must not use the database connection); a match whose rows are apart in
        two parts is refused here as one process refuses it (``match-split``).
        """
        report = self.report
        self._events_known = {event.slug: event for event in
                              self.session.execute(select(Event)).scalars()}
        hasher = hashlib.sha256()
        with open(path, "rb") as stream:
            # the hash of what the parts read (a regular file, by plan_parts)
            for block in iter(lambda: stream.read(1 << 20), b""):
                hasher.update(block)
        # known before any match is stored: the versions are written with it
        report.source_sha256 = hasher.hexdigest()
        try:
            self._store_parts(stream_parts(path, name, parts, self._check_part,
                                           encoding=self.encoding, jobs=self._processes()),
                              parts)
        except PartLost as err:  # killed (out of memory?): what was stored goes too
            raise TourneyError(f"{name}: {err}; nothing was imported. Import it again, "
                               "or in one process", setting="jobs") from None

    def _store_parts(self, items, parts: list[Part]) -> None:
        """The matches :meth:`_check_part` sent, stored in file order."""
        report, on_progress = self.report, self.on_progress
        closed: dict[tuple, int] = {}  # match key -> first line, over all parts
        notices: list = []
        unfilled = 0
        for index, done, value in items:
            if done:
                columns, part_notices, part_unfilled = value
                self._reader = self._reader or _Columns(columns)  # a part of no match
                notices += [n for n in part_notices if n not in notices]
                unfilled += part_unfilled
                continue
            batch, bytes_read = value
            for read in batch:
                if self._reader is None:
                    self._reader = _Columns(read.columns)
                key = read.match.key
                if read.match.round is None:  # rows of no match: never cut to (plan_parts)
                    pass
                elif key in closed:
                    read = self._split_off(read, closed[key])
                else:
                    closed[key] = read.match.lines[0]
                    if len(closed) > MAX_MATCHES_PER_FILE:
                        raise too_many_matches(read.match.lines[0])
                self._close(read)
            if on_progress is not None:
                on_progress(parts[index].start + bytes_read)
        report.notices = notices
        report.unfilled = unfilled

    def _check_part(self, source: Source, send: Callable[[object], None]):
        """In the process of one part: its matches checked and made ready for
        :meth:`_close`, sent in batches; returns the part's columns, notices and
        unfilled rows."""
        self._context = self._context_known  # no database here: the events read before
        # A part started once storing began inherits the storing process's event
        # contexts, which read the database: this process starts from none.
        self._events = {}
        reader = RecordReader(source, filename=source.name, errors="yield")
        self._reader = reader
        batch, rows = [], 0
        for read, _ in self._read_matches(reader):
            read.columns = reader.columns
            read.strip(keep_raws=self._rejects is not None)
            batch.append(read)
            rows += read.rows
            if rows >= PART_BATCH_ROWS:
                send((batch, source.bytes_read))
                batch, rows = [], 0
        if batch:
            send((batch, source.bytes_read))
        source.drain()
        return reader.columns, list(source.notices), reader.unfilled

    def _context_known(self, slug: str) -> "_EventContext | _PartEvent | None":
        if slug not in self._events:
            event = self._events_known.get(slug)
            self._events[slug] = _PartEvent(event) if event is not None else None
        return self._events[slug]

    def _split_off(self, read: _ReadMatch, first_line: int) -> _ReadMatch:
        """A match of a later part whose key an earlier part's match had: each of
        its rows refused as :meth:`RecordChecker.check_stream` refuses them."""
        match = read.match
        of = f" of {match.event}" if match.event else ""
        def split(line: int) -> RecordError:
            return RecordError(
                f"the rows of match round {match.round}, table {match.table}{of} must "
                f"stand together; the match began at line {first_line}",
                rule="match-split", line=line, column="table")

        if read.deals is not None:  # valid in its part: its deal checks were dropped
            deals = [DealCheck(line, read.first, error=split(line)) for line in match.lines]
        else:
            deals = []
            for check in match.deals:
                error = check.error
                # One process keeps the error of a row it could not read or place
                # in its event; every other row of the match gets this one.
                if check.record is not None and (error is None or error.column not in (
                        "event", "variant")):
                    error = split(check.line)
                deals.append(DealCheck(check.line, check.record, error=error))
        checked = self.checker.check_match(deals, match.key)
        return _ReadMatch(checked, read.rows, read.raws)

    # -------------------------------------------------------------- closing a match

    def _reject(self, match: MatchCheck, raws: list[list[str]],
                errors: list[RecordError]) -> None:
        self.report.rejected += 1
        for err in errors:
            self.report.add_error(err)
        if self._rejects is not None:
            by_line = {}
            for err in errors:
                if err.line is not None:
                    by_line.setdefault(err.line, err)
            first = errors[0]
            # match.lines, not match.deals: a match valid as read has dropped its
            # deal checks (_prepare) before the database refuses it (not seated,
            # changed, withdrawn), and its rows must still be written.
            for line, raw in zip(match.lines, raws):
                own = by_line.get(line)
                if own is not None:
                    text = error_text(own)
                else:
                    where = first.cell or f"line {first.line}"  # a workbook's cell
                    text = f"another row of this match is invalid ({where}): {first.message}"
                self._write_reject(raw, text)

    def _write_reject(self, raw: list[str] | None, error: str | None) -> None:
        # A rejects file imported again brings its own error column: replaced.
        columns = self._reader.columns
        keep = [i for i, c in enumerate(columns) if c != ERROR_COLUMN]
        if not self._rejects_header:
            self._rejects.write([columns[i] for i in keep] + [ERROR_COLUMN])
            self._rejects_header = True
        if raw is not None:
            cells = [typed_cell(columns[i], raw[i] if i < len(raw) else "") for i in keep]
            self._rejects.write(cells + raw[len(columns):] + [error or ""])

    def _prepare(self, match: MatchCheck, rows: int, raws: list[list[str]]) -> _ReadMatch:
        """A match as :meth:`RecordChecker.check_stream` closed it (``rows``: how
        many rows it had), with what :meth:`_close` needs that the database does
        not give: a valid match's deals in deal order and their canonical rows."""
        read = _ReadMatch(match, rows, raws)
        if match.error is not None or any(c.error is not None for c in match.deals):
            return read
        ordered = match.deals
        if any(a.record.deal > b.record.deal for a, b in zip(ordered, ordered[1:])):
            order = sorted(range(len(raws)), key=lambda i: ordered[i].record.deal)
            ordered, raws = [ordered[i] for i in order], [raws[i] for i in order]
        read.first = ordered[0].record
        read.deals = [(c.line, c.record.deal, c.record.scores is not None, c.outcome.verified)
                      for c in ordered]
        read.canonical = self._canonical_rows(self._events[match.event].game, ordered, raws)
        read.digest = content_digest(read.canonical)
        match.deals = []  # what storing needs is in the fields above
        return read

    def _close(self, read: _ReadMatch) -> None:
        """A match read and checked (:meth:`_prepare`): checked against the
        database and stored, or rejected."""
        match, raws = read.match, read.raws
        self.report.deals += read.rows
        if not match.valid:  # its rows' errors, then the match's, as validate lists them
            errors = [c.error for c in match.deals if c.error is not None] + match.problems
            self._reject(match, raws, self._seating_first(match, errors))
            return
        ctx = self._context(match.event)
        first = read.first
        seats, aliases, errors = self._check_seating(ctx, first)
        if errors:
            self._reject(match, raws, errors)
            return
        said = rows = read.canonical  # said: the players as the file names them
        digest = read.digest
        if aliases:
            rows = self._rename(rows, match.result, aliases)
            digest = content_digest(rows)
        stored = ctx.round(first.round).stored.get(first.table)
        if stored is not None and stored.content_sha256 == digest:
            self.report.unchanged += 1
            return
        stored_rows = None
        if stored is not None and stored.version_id is not None:
            # Stored deals keep the names as imported: a player renamed or merged
            # since is the same player, so compare with the names of now.
            stored_rows = self._stored_rows(stored)
            if content_digest(stored_rows) == digest:
                self.report.unchanged += 1
                return
        if stored_rows is not None and not self.replace:
            self._reject(match, raws, [self._difference(ctx, stored, first, read.deals, rows,
                                                        stored_rows, said)])
            return
        if stored is not None and stored.version_id is not None:
            self.report.replaced += 1
        else:
            self.report.added += 1
        if self.report.error_count and not self.skip_invalid:
            return  # the import is rejected anyway: go on checking, stop preparing writes
        self._accept(ctx, first, seats, read.deals, rows, digest, match.result, stored)

    def _check_seating(self, ctx: _EventContext, record: DealRecord, *,
                       players: bool = True, dealer: bool = True
                       ) -> tuple[list[tuple[int, str]] | None, dict[str, str],
                                  list[RecordError]]:
        """Deal 1 against the seating: the seated players in seat order, seat 0
        dealing, none withdrawn. Returns the table's seats (None: no such seated
        table), the record's names of merged duplicates (old name -> seated name)
        and every error found, each on deal 1's line; ``players`` and ``dealer``
        False leave out a check of the cell deal 1's own row was refused for."""
        slug = ctx.event.slug
        info = ctx.round(record.round)
        if not info.seated:
            return None, {}, [RecordError(
                f"round {record.round} of {slug} has not been seated",
                rule="round-not-seated", column="round", line=record.line,
                remedy=Remedy("seat-round", event=slug))]
        seats = info.tables.get(record.table)
        if seats is None:
            labels = ", ".join(sorted(info.tables, key=natural_key)) or "none"
            return None, {}, [RecordError(
                f"round {record.round} of {slug} has no table {record.table!r} "
                f"(its tables: {labels})", rule="unknown-table", column="table",
                line=record.line)]
        if record.table in info.forfeited:
            return None, {}, [RecordError(
                f"round {record.round}, table {record.table} of {slug} was forfeited: its "
                "result is the forfeit's until that is taken back", rule="forfeited",
                column="table", line=record.line,
                remedy=Remedy("undo-forfeit", event=slug, round=record.round,
                              table=record.table))]
        names = [name for _, name in seats]
        aliases = {}
        errors = []
        strangers = ()
        if record.players != names:
            aliases = self._merged_aliases(record.players, seats)
        if players and [aliases.get(p, p) for p in record.players] != names:
            seated = ";".join(names)
            strangers = [p for p in record.players if aliases.get(p, p) not in names]
            if strangers:
                errors.append(RecordError(
                    f"{', '.join(strangers)} not seated at round {record.round}, table "
                    f"{record.table}, which seats {seated} ({seat_text(0)} first)"
                    f"{name_hint(strangers, names)}",
                    rule="not-seated", column="players", line=record.line,
                    seat=record.players.index(strangers[0]), player=strangers[0]))
            else:
                # the first seat that differs, and who is seated there; or, when every
                # name given sits where it should, who is missing
                seat = next((i for i, p in enumerate(record.players)
                             if aliases.get(p, p) != names[i]), None)
                missing = [n for n in names if n not in
                           {aliases.get(p, p) for p in record.players}]
                which = (f"{names[seat]} is {seat_text(seat)}" if seat is not None else
                         f"{', '.join(missing)} missing")
                errors.append(RecordError(
                    f"the players of deal 1 must sit as seated: round {record.round}, table "
                    f"{record.table} seats {seated} ({seat_text(0)} first): {which}",
                    rule="seat-order", column="players", line=record.line, seat=seat,
                    player=record.players[seat] if seat is not None else None))
        # A dealer who is one of the names not seated is that name's slip, said once.
        if (dealer and ctx.game.uses_dealer and record.dealer not in strangers
                and aliases.get(record.dealer, record.dealer) != names[0]):
            errors.append(RecordError(
                f"{record.dealer} deals deal 1, but {names[0]} ({seat_text(0)}) deals first "
                "at a seated table", rule="first-dealer", column="dealer", line=record.line))
        for player_id, name in seats:
            last = ctx.withdrawn.get(player_id)
            if last is not None and last < record.round:
                errors.append(RecordError(
                    f"{name} withdrew after round {last} and cannot play round "
                    f"{record.round}; if the withdrawal was a mistake, entering {name} "
                    f"again takes it back", rule="withdrawn", column="players",
                    line=record.line, remedy=Remedy("enter-players", event=slug, players=(name,))))
        return seats, aliases, errors

    def _seating_first(self, match: MatchCheck, errors: list[RecordError]
                       ) -> list[RecordError]:
        """An invalid match's ``errors`` with what the seating says of its deal 1
        put first: the root cause of much else (a table that wrote its players in
        another order, or let another seat deal first, breaks the dealer rule in
        the file's order).

        A dealer or players error is then judged again with the match as seated
        (:func:`match_problems` with ``seated``): one the seating explains (the
        match as seated has none of its rule) is a follow-on and left out, one it
        does not is said as it is as seated (who should deal at the table as
        seated), and none is added (a table that began with the wrong dealer and
        went on from there made one mistake, said by the seating). Only the
        database says this: the rows themselves were checked where the file was
        read (another process with ``--jobs``), and an invalid match keeps its
        deal checks for it."""
        first = next((c for c in match.deals if c.record is not None and c.record.deal == 1),
                     None)
        if (first is None or match.event is None or first.record.event != match.event
                or any(c.error is not None and c.error.rule in GROUPING_RULES
                       for c in match.deals)):
            return errors
        column = first.error.column if first.error is not None else None
        if column in ("event", "variant"):
            return errors
        try:
            ctx = self._context(match.event)
        except TourneyError:  # the event's rules unreadable: said on its rows
            return errors
        if ctx is None:
            return errors
        seats, aliases, seating = self._check_seating(
            ctx, first.record, players=column != "players", dealer=column != "dealer")
        if not seating:
            return errors
        if seats is not None and any(e.rule == "not-seated" for e in seating):
            # a dealer seated at the table but missing from the players as written is
            # the players' slip, said by the seating: not a dealer error of its own
            seated_names = {name for _, name in seats}
            errors = [e for e in errors if not (e.rule == "dealer" and e.line == first.line
                                                 and first.record.dealer in seated_names)]
        if seats is not None and any(e.rule in _DEAL_ONE_RULES for e in seating):
            follow_on = {e.rule for e in errors if e.rule in _FOLLOW_ON_RULES}
            if follow_on:
                as_seated = [e for e in match_problems(
                    match.deals, ctx.rules, seated=([n for _, n in seats], aliases))
                    if e.rule in follow_on]
                errors = [e for e in errors if e.rule not in follow_on] + as_seated
                errors.sort(key=lambda err: (err.line is None, err.line or 0))
        return seating + errors

    def _merged_aliases(self, players: list[str], seats: list[tuple[int, str]]) -> dict[str, str]:
        """Names in a record that belong to duplicates merged into a seated player
        (the seat list was printed before the merge): old name -> seated name."""
        seated = {player_id: name for player_id, name in seats}
        unknown = [p for p in players if p not in seated.values()]
        rows = self.session.execute(select(Player.name, Player.id).where(
            Player.name.in_(unknown), Player.merged_into_id.is_not(None))).all()
        if not rows:
            return {}
        links = merge_links(self.session)
        aliases = {}
        for name, player_id in rows:
            kept = follow(links, player_id)
            if kept in seated:
                aliases[name] = seated[kept]
        return aliases

    @staticmethod
    def _rename(rows: list[tuple[str, ...]], result: MatchRanking,
                aliases: dict[str, str]) -> list[tuple[str, ...]]:
        """Store the seated (kept) names, not a merged duplicate's: the rows
        with their players and dealer renamed (the result is renamed in place)."""
        result.ranking = [(aliases.get(n, n), place) for n, place in result.ranking]
        result.totals = {aliases.get(n, n): t for n, t in result.totals.items()}
        return [(row[0], ";".join(aliases.get(p, p) for p in row[1].split(";")),
                 aliases.get(row[2], row[2])) + row[3:] for row in rows]

    def _canonical_rows(self, game: Game, ordered: list[DealCheck],
                        raws: list[list[str]]) -> list[tuple[str, ...]]:
        """The match's rows in canonical spelling (:func:`canonical_fields`, the
        record codec), with the computed scores, as :data:`CONTENT_COLUMNS`
        tuples; move spellings come from a per-game cache, card cells already
        canonical as read are kept."""
        cache = self._tokens.get(game.id)
        if cache is None or len(cache) >= TOKEN_CACHE_LIMIT:
            cache = self._tokens[game.id] = _TokenCache(game.canonical_token)
            # The tokens met that are their own canonical spelling (the cache's
            # keys or fewer): a row of only those is joined as it is, one superset
            # test instead of a cache lookup per token.
            cache.spelt = set()
        token, spelt = cache.__getitem__, cache.spelt
        score = game.format_score
        if getattr(score, "__func__", None) is Game.format_score:
            score = str  # what Game.format_score does, without a call of its own per score
        cells = self._card_cells
        if cells is None:
            columns = self._reader.columns
            cells = self._card_cells = tuple(
                columns.index(c) if c in columns else None for c in ("hands", "stock", "passes"))
        hands, stock, passes = cells
        rows = []
        for check, raw in zip(ordered, raws):
            record = check.record
            play = record.play
            if not play:
                play = ""
            elif spelt.issuperset(play):
                play = " ".join(play)
            else:
                canonical = list(map(token, play))
                spelt.update(compress(play, map(eq, play, canonical)))
                play = " ".join(canonical)
            read = (raw[hands] if hands is not None else "",
                    raw[stock] if stock is not None else "",
                    raw[passes] if passes is not None else "")
            rows.append((str(record.deal),)
                        + canonical_fields(record, None, score, scores=check.outcome.scores,
                                           read=read, play=play))
        return rows

    def _stored_rows(self, stored: _Stored) -> list[tuple[str, ...]]:
        """The stored version's rows as :data:`CONTENT_COLUMNS` tuples, each
        player under the name they have now (:func:`current_names`)."""
        if self._current_names is None:
            self._current_names = current_names(self.session)
        names = self._current_names
        deals = self.session.execute(
            select(Deal).where(Deal.version_id == stored.version_id).order_by(Deal.number)
        ).scalars().all()
        rows = []
        for deal in deals:
            row = {name: getattr(deal, name) or "" for name in CONTENT_FIELDS}
            row["players"] = rename_players(row["players"], names)
            row["dealer"] = rename_players(row["dealer"], names)
            rows.append((str(deal.number),) + tuple(row[name] for name in CONTENT_FIELDS))
        return rows

    def _difference(self, ctx: _EventContext, stored: _Stored, first: DealRecord,
                    read: list[tuple[int, int, bool, str]], rows: list[tuple[str, ...]],
                    deals: list[tuple[str, ...]], said: list[tuple[str, ...]]) -> RecordError:
        """Stored ``deals`` (:meth:`_stored_rows`) against the file's ``rows``;
        players and dealer quoted as the file ``said`` them."""
        where = f"round {first.round}, table {first.table} of {ctx.event.slug}"
        differences = []
        line, column = first.line, None
        for (at, number, _, _), row, (_, players, dealer, *_) in zip(read, rows, said):
            index = number - 1
            if index >= len(deals):
                continue
            old = deals[index]
            for name, before, now in zip(CONTENT_FIELDS, old[1:], row[1:]):
                if before != now:
                    if column is None:
                        line, column = at, name
                    if name == "players":
                        now = players
                    elif name == "dealer":
                        now = dealer
                    differences.append(f"deal {old[0]} {name}: stored {_clip(before)!r}, "
                                       f"file {_clip(now)!r}")
        if len(deals) != len(rows):
            differences.append(f"stored {count_text(len(deals), 'deal')}, the file has {len(rows)}")
            column = column or "deal"
        shown = "; ".join(differences[:5])
        if len(differences) > 5:
            shown += f"; and {len(differences) - 5} more"
        return RecordError(
            f"{where} is already stored (version {stored.version}) with other content: "
            f"{shown}. Replacing it stores the file's as a new version",
            rule="match-changed", line=line, column=column, setting="replace")

    # -------------------------------------------------------------- storing

    def _accept(self, ctx: _EventContext, first: DealRecord, seats: list[tuple[int, str]],
                deals: list[tuple[int, int, bool, str]], rows: list[tuple[str, ...]],
                digest: str, result: MatchRanking, stored: _Stored | None) -> None:
        if self.dry_run:
            return
        version = 1
        if stored is not None:
            version = 1 + (self.session.execute(
                select(func.max(MatchVersion.version))
                .where(MatchVersion.match_id == stored.match_id)).scalar() or 0)
        ids = {name: player_id for player_id, name in seats}
        seat_of = {name: seat for seat, (_, name) in enumerate(seats)}
        places = [place for _, place in result.ranking]
        points = match_points(places, ctx.event.points)
        # Rows as tuples of PLACE_COLUMNS and DEAL_COLUMNS without the version id,
        # which _flush puts in front once the versions are stored.
        place_rows = [
            (ids[name], seat_of[name], place, float(result.totals[name]), pts)
            for (name, place), pts in zip(result.ranking, points)
        ]
        deal_rows = []
        verified_moves = 0
        for (_, number, claimed, verified), (_, players, dealer, hands, stock, passes, play,
                                             scores) in zip(deals, rows):
            verified_moves += verified == "moves"
            deal_rows.append((number, players, dealer or None, hands, stock, passes, play,
                              scores, claimed, verified))
        version_row = {
            "version": version, "content_sha256": digest, "source_file": self.source_file,
            "source_sha256": self.report.source_sha256 or None, "imported_by": self.imported_by,
            "superseded_at": None, "deals": len(rows),
            "verified_moves": verified_moves,
            "ranking_json": json.dumps([[n, p] for n, p in result.ranking], ensure_ascii=False),
        }
        accepted = _Accepted(ctx, first.round, first.table,
                             stored.match_id if stored else None,
                             stored.version_id if stored else None, version,
                             version_row, deal_rows, place_rows)
        if stored is not None and stored.version_id is not None:
            ctx.touched["replaced"] += 1
            ctx.touched["replacements"].append(accepted)
        else:
            ctx.touched["added"] += 1
        self._pending.append(accepted)
        self._pending_deals += len(deal_rows)
        if self._pending_deals >= self.batch_deals:
            self._flush()

    def _flush(self) -> None:
        pending, self._pending, self._pending_deals = self._pending, [], 0
        if not pending:
            return
        execute = self.session.execute
        self._check_still_current([a for a in pending if a.match_id is not None])
        new = [a for a in pending if a.match_id is None]
        if new:
            ids = self._writer(MATCH_T, MATCH_COLUMNS).write_new(
                [(a.ctx.event.id, a.round, a.table, None) for a in new])
            for accepted, match_id in zip(new, ids):
                accepted.match_id = match_id
                self._added.setdefault(accepted.ctx.event.variant, []).append(match_id)
        versions = self._writer(VERSION_T, VERSION_COLUMNS)
        imported_at = versions.bound("imported_at", self.now)
        version_ids = versions.write_new(
            [(a.match_id, imported_at) + tuple(a.version_row[c] for c in VERSION_COLUMNS[2:])
             for a in pending])
        self._version_ids += [version_id for a, version_id in zip(pending, version_ids)
                              if a.version_row["source_sha256"] is None]  # stamped at the end
        deals, places = [], []
        for accepted, version_id in zip(pending, version_ids):
            head = (version_id,)
            deals += [head + row for row in accepted.deals]
            places += [head + row for row in accepted.places]
            info = accepted.ctx.cached_round(accepted.round)
            if info is not None:  # an evicted round is read again when met again
                info.stored[accepted.table] = _Stored(accepted.match_id, version_id,
                                                      accepted.version_row["content_sha256"],
                                                      accepted.version)
            accepted.version_row["id"] = version_id
        self._writer(DEAL_T, DEAL_COLUMNS).write(deals)
        self._writer(PLACE_T, PLACE_COLUMNS).write(places)
        old = [a.old_version_id for a in pending if a.old_version_id is not None]
        if old:
            execute(update(VERSION_T).where(VERSION_T.c.id.in_(old))
                    .values(superseded_at=self.now))
        set_by_id(self.session, MATCH_T, "current_version_id",
                  [(version_id, a.match_id) for a, version_id in zip(pending, version_ids)])

    def _writer(self, table, columns: tuple[str, ...]) -> BulkInsert:
        """The importer's writer of ``table`` in the session's transaction, by the
        backend's fastest path (one per table, made once)."""
        writer = self._bulk.get(table.name)
        if writer is None:
            writer = self._bulk[table.name] = BulkInsert(self.session, table, columns)
        return writer

    def _check_still_current(self, replacing: list[_Accepted]) -> None:
        """Lock the stored matches about to get a new version and check that their
        current version is still the one this import compared the file with.

        Another import (or a revert) may have stored a version since this one read
        the match; replacing what it read would leave two live versions, or
        silently undo the other command's work. The lock (PostgreSQL; SQLite's
        write lock is held from the start) makes a later command wait until this
        transaction ends, and then see what it stored.
        """
        if not replacing:
            return
        expected = {a.match_id: a for a in replacing}
        ids = sorted(expected)
        current: dict[int, int | None] = {}
        for start in range(0, len(ids), 1000):
            chunk = ids[start:start + 1000]
            current.update(self.session.execute(
                select(MATCH_T.c.id, MATCH_T.c.current_version_id)
                .where(MATCH_T.c.id.in_(chunk)).order_by(MATCH_T.c.id)
                .with_for_update()).all())
        for match_id in ids:
            accepted = expected[match_id]
            if current.get(match_id) != accepted.old_version_id:
                raise ConflictingChange(
                    f"{accepted.ctx.event.slug} round {accepted.round}, table "
                    f"{accepted.table}: another command stored a new version of this "
                    "match while this import ran; nothing was written. Run the import "
                    "again: it then compares the file with what the other one stored")

    def _stamp_source(self) -> None:
        """The file's sha256, known once it is read, on this import's versions."""
        ids = self._version_ids
        for start in range(0, len(ids), 1000):
            self.session.execute(update(VERSION_T).where(VERSION_T.c.id.in_(ids[start:start + 1000]))
                                 .values(source_sha256=self.report.source_sha256))

    def _after_import(self) -> None:
        from ..storage.audit import record_change

        variants = set()
        for ctx in self._events.values():
            if ctx is None or not (ctx.touched["added"] or ctx.touched["replaced"]):
                continue
            variants.add(ctx.event.variant)
            for accepted in ctx.touched["replacements"]:
                record_change(
                    self.session, "result.replace",
                    f"{ctx.event.slug} round {accepted.round} table {accepted.table}",
                    {"version_id": accepted.old_version_id},
                    {"version": accepted.version, "version_id": accepted.version_row.get("id"),
                     "content_sha256": accepted.version_row["content_sha256"],
                     "file": self.source_file},
                    event_id=ctx.event.id, actor=self.imported_by)
            record_change(
                self.session, "result.import", f"{ctx.event.slug}: {self.source_file}", None,
                {"file": self.source_file, "sha256": self.report.source_sha256,
                 "added": ctx.touched["added"], "replaced": ctx.touched["replaced"]},
                event_id=ctx.event.id, actor=self.imported_by)
        self.report.changed_variants = sorted(variants)
        replaced: dict[str, list[int]] = {}
        for ctx in self._events.values():
            if ctx is not None:
                for accepted in ctx.touched["replacements"]:
                    replaced.setdefault(ctx.event.variant, []).append(accepted.match_id)
        self.report.added_matches = {variant: ids for variant, ids in self._added.items()
                                     if variant not in replaced}
        self.report.replaced_matches = {variant: ids for variant, ids in replaced.items()
                                        if variant not in self._added}


def import_results(session: Session, path: str, *, event: str | None = None,
                   replace: bool = False, dry_run: bool = False,
                   rejects: IO[str] | None = None, imported_by: str | None = None,
                   on_progress: Callable[[int], None] | None = None,
                   batch_deals: int = BATCH_DEALS, encoding: str | None = None,
                   sheet: str | None = None, jobs: int | None = None) -> ImportReport:
    """Import a record file into the session's transaction.

    ``event`` is the event of rows without an ``event`` cell (and the only event a
    file may name when given). ``replace`` stores changed matches as new versions;
    without it a changed match is an error. ``dry_run`` checks and counts but
    writes nothing. ``rejects``, a table (:mod:`tourney.records.spreadsheets`) or a
    text stream, turns on skip-invalid mode: valid matches are stored and the rows
    of rejected matches written there (the file's columns and an added ``error``
    column). ``path`` is a CSV in any dialect spreadsheets write or an XLSX
    (``sheet``: which one; ``encoding`` forces a CSV's); ``-`` is standard input. ``on_progress(bytes_read)`` is
    called now and then.

    Raises :class:`ImportRejected` (the caller rolls back) when any match is
    invalid and ``rejects`` is not given, or when the file as a whole is unreadable.
    """
    importer = ResultImporter(session, event=event, replace=replace, dry_run=dry_run,
                              rejects=rejects, imported_by=imported_by,
                              on_progress=on_progress, batch_deals=batch_deals,
                              encoding=encoding, sheet=sheet, jobs=jobs)
    return importer.run(path)
