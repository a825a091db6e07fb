"""Stage one of a result import: a record file in, checked matches out.

:func:`check_records` reads a path, bytes or a stream (CSV in any dialect
spreadsheets write, or XLSX) and gives its matches in file order, each checked by
the engines (every deal replayed or its score sheet checked, the match rules) and,
when valid, made ready to store: its deals in deal order, its canonical rows and
their digest. Every error carries its file, line, column, seat and player; the
rows as read go with each match for a rejects file. Nothing here touches a
database: what stage one knows of the events comes from an :class:`EventLookup`
its caller gives (stage two, :mod:`tourney.tournament.results`, reads them from
the database; the processes that check a big file in parts get them in memory).

A big CSV file is checked in parts, one forked process each
(:mod:`.parallel`); the parts' matches come back in file order, and a match whose
rows are apart in two parts is refused as one process refuses it (``match-split``).
"""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, replace
from functools import partial
from itertools import compress
from operator import eq
from typing import IO, Callable, Iterator, Protocol

from ..engines.base import DealOutcome, Game, MatchRules
from ..engines.presentation import N_, Message
from ..errors import OptionError, RecordError, TourneyError, UnknownName, UsageError, in_file
from .csv_format import CONTENT_FIELDS, ERROR_COLUMN, DealRecord, RecordReader, canonical_fields
from .parallel import Part, plan_parts, stream_parts, usable_cores
from .sources import Source, open_source
from .spreadsheets import CsvTable, XlsxTable, typed_cell
from .validation import (
    MAX_DEALS_PER_MATCH,
    MAX_MATCHES_PER_FILE,
    DealCheck,
    MatchCheck,
    RecordChecker,
    line_place,
    match_split,
    other_event,
    other_variant,
    row_key_guesser,
    too_many_matches,
)

# Errors kept for a report; the rest are counted (a file of a million bad rows
# must not become a million-entry list). One bound for every list of a file's errors.
MAX_ERRORS_KEPT = 10_000
# Canonical move spellings remembered per game (a dict lookup instead of a parse
# per token on the hot path); cleared when it grows past this.
TOKEN_CACHE_LIMIT = 200_000
PROGRESS_EVERY = 2000  # rows between progress callbacks
# Rows of matches a checking process hands over at a time (``jobs``).
PART_BATCH_ROWS = 2000
# The columns a match's content is made of, in the order they are hashed; a
# canonical row is a tuple of them (the deal number as text).
CONTENT_COLUMNS = ("deal",) + CONTENT_FIELDS


@dataclass(frozen=True)
class ImportOptions:
    """How one record file is imported; the one value that travels from the
    command line or the server through both stages.

    ``event``: the event of rows without an ``event`` cell (and the only event the
    file may name). ``replace``: a match whose content differs from the stored one
    becomes a new version (else it is an error). ``dry_run``: check and count,
    write nothing. ``rejects``: a table writer (:mod:`.spreadsheets`) or a text
    stream; turns on skip-invalid mode (valid matches stored, the rows of rejected
    ones written there with an ``error`` column). ``imported_by``: who imports
    (default: the login name). ``on_progress(bytes_read)`` is called now and then.
    ``batch_deals``: deals buffered before one batch of INSERTs (None: the
    writer's own). ``encoding`` forces a CSV's; ``sheet`` names an XLSX's sheet;
    ``jobs``: processes that check a big CSV file, each a part of it (None: one per
    core; 1: the importing one). ``rejects_note(error, lang)`` words an error in the
    rejects file's error column in ``lang``, the language of its match's event
    (``None`` where the event has none or is not known): by default in English.
    ``reason``: why, on one line (a correction's), kept in the audit log's rows."""

    event: str | None = None
    replace: bool = False
    dry_run: bool = False
    rejects: IO[str] | CsvTable | XlsxTable | None = None
    imported_by: str | None = None
    on_progress: Callable[[int], None] | None = None
    batch_deals: int | None = None
    encoding: str | None = None
    sheet: str | None = None
    jobs: int | None = None
    rejects_note: Callable[[RecordError, str | None], str] | None = None
    reason: str | None = None  # why (a correction's), kept in the audit log

    @property
    def skip_invalid(self) -> bool:
        return self.rejects is not None


# --------------------------------------------------------------------- the events

@dataclass(frozen=True)
class EventRules:
    """What stage one needs of an event: its game and the options its rules give."""

    slug: str
    variant: str
    game: Game
    options: dict
    rules: MatchRules


class EventLookup(Protocol):
    """The events a file may name, as stage one asks for them."""

    def rules(self, slug: str) -> EventRules | None:
        """The event's rules; None when there is no such event. May raise
        :class:`OptionError` or :class:`UsageError` (its stored rules unusable)."""

    def unknown(self, slug: str) -> TourneyError:
        """The error for a row of an event there is not."""

    def in_memory(self) -> "EventLookup":
        """Every event, read now: for processes that must not use what this one
        holds open (a database connection)."""


# --------------------------------------------------------------------- small pieces

def content_digest(rows) -> str:
    """sha256 of a match's canonical rows (deal order), each a tuple of
    :data:`CONTENT_COLUMNS`: every row's fields joined by US, each row ended by RS."""
    rows = list(map("\x1f".join, rows))
    text = "\x1e".join(rows) + "\x1e" if rows else ""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def error_text(err: RecordError) -> str:
    return f"{err} [{err.rule}]" if err.rule else str(err)


class _TokenCache(dict):
    """Move token -> canonical spelling; a miss asks the engine once."""

    def __init__(self, canonical: Callable[[str], str]):
        super().__init__()
        self.canonical = canonical

    def __missing__(self, token: str) -> str:
        spelled = self[token] = self.canonical(token)
        return spelled


# --------------------------------------------------------------------- a checked match

@dataclass
class CheckedMatch:
    """A match as read and checked (in the process that checked it: with
    ``jobs``, not the one that stores it)."""

    match: MatchCheck  # a valid match's deal checks are dropped: see ``deals``
    rows: int  # its rows in the file
    raws: list[list[str]]  # its rows as read, in file order (for a rejects file)
    # A valid match: its first deal, and per deal in deal order (line, deal number,
    # whether the file claimed scores, how the outcome was verified) and its
    # canonical row, with the names as the file gives them. Plain tuples and
    # strings: they pickle fast (``jobs``).
    first: DealRecord | None = None
    deals: list[tuple[int, int, bool, str]] | None = None
    canonical: list[tuple[str, ...]] | None = None
    digest: str | None = None  # content_digest(canonical)
    columns: list[str] | None = None  # the file's columns (set where the part was read)

    @property
    def valid(self) -> bool:
        return self.match.valid

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


class MatchChecker:
    """The rows of one reader (one process's share of a file) grouped into
    checked matches: each row's event and variant resolved through the events,
    each match checked and, when valid, made ready to store."""

    def __init__(self, events: EventLookup, default_event: str | None, file_name: str | None,
                 on_row: Callable[[DealRecord], None] | None = None):
        self.events = events
        self.default_event = default_event
        self.file_name = file_name
        self.on_row = on_row  # sees every row as read, before it is resolved
        self.known: dict[str, EventRules | None] = {}
        self.checker = RecordChecker(options_for=self._options_for, keep_deals=True)
        # the (event, variant) cells of the last row resolved, and what they resolved to
        self._resolved: tuple = ((), None)
        self._tokens: dict[str, dict[str, str]] = {}
        self._card_cells: tuple[int | None, ...] | None = None  # hands, stock, passes
        self._columns: list[str] = []

    def rules(self, slug: str) -> EventRules | None:
        if slug not in self.known:
            self.known[slug] = self.events.rules(slug)
        return self.known[slug]

    def _options_for(self, record: DealRecord, game: Game) -> dict:
        return self.rules(record.event).options

    def resolve_row(self, record: DealRecord) -> None:
        """Fill the row's event and variant; :class:`RecordError` if they are wrong."""
        if self.on_row is not None:
            self.on_row(record)
        as_read = (record.event, record.variant)
        if as_read == self._resolved[0]:  # the common case: as the row before
            record.event, record.variant = self._resolved[1]
            return
        if record.event is None:
            if self.default_event is None:
                raise RecordError(Message(N_("no event: add an event column or name the event")),
                                  rule="event", column="event", setting="event")
            record.event = self.default_event
        elif self.default_event is not None and record.event != self.default_event:
            raise other_event(record.event, self.default_event)
        try:
            rules = self.rules(record.event)
        except (OptionError, UsageError) as err:
            raise RecordError(Message(N_("event %(event)s: %(problem)s"),
                                      {"event": record.event, "problem": err.words or str(err)}),
                              rule="event-rules", column="event") from None
        if rules is None:  # a usage error, said once for the file (not once a row)
            err = self.events.unknown(record.event)
            raise in_file(UnknownName, self.file_name, err.words or str(err),
                          line=record.line, column="event",
                          kind=getattr(err, "kind", None), names=getattr(err, "names", ()),
                          suggestions=getattr(err, "suggestions", ()),
                          setting=err.setting, remedy=err.remedy)
        if record.variant is None:
            record.variant = rules.variant
        elif record.variant != rules.variant:
            raise other_variant(rules.slug, rules.variant, record.variant)
        self._resolved = (as_read, (record.event, record.variant))

    def matches(self, reader: RecordReader) -> Iterator[tuple[CheckedMatch, int]]:
        """The matches of ``reader`` as :meth:`RecordChecker.check_stream` closes
        them, each made ready to store (:meth:`_prepare`), with the number of rows
        read since the last progress report (0 if none due)."""
        self._columns = reader.columns
        raws: list[list[str]] = []  # the open match's rows as read
        rows = in_match = due = 0
        stream = self.checker.check_stream(
            reader, resolve=self.resolve_row,
            guess_key=row_key_guesser(reader, self.default_event))
        for item in stream:
            if item.__class__ is DealCheck:
                rows += 1
                in_match += 1
                if rows % PROGRESS_EVERY == 0:
                    due = rows
                if in_match <= MAX_DEALS_PER_MATCH + 1:  # as kept on the match
                    raws.append(reader.raw_row)
                continue
            self._columns = reader.columns
            yield self._prepare(item, in_match, raws), due
            in_match, raws, due = 0, [], 0

    def _prepare(self, match: MatchCheck, rows: int, raws: list[list[str]]) -> CheckedMatch:
        """A match as :meth:`RecordChecker.check_stream` closed it (``rows``: how
        many rows it had), with what storing needs that the database does not
        give: a valid match's deals in deal order and their canonical rows."""
        read = CheckedMatch(match, rows, raws)
        if match.error is not None or any(c.error is not None for c in match.deals):
            return read
        ordered = match.deals
        if any(a.record.deal > b.record.deal for a, b in zip(ordered, ordered[1:])):
            order = sorted(range(len(raws)), key=lambda i: ordered[i].record.deal)
            ordered, raws = [ordered[i] for i in order], [raws[i] for i in order]
        read.first = ordered[0].record
        read.deals = [(c.line, c.record.deal, c.record.scores is not None, c.outcome.verified)
                      for c in ordered]
        read.canonical = self._canonical_rows(self.known[match.event].game, ordered, raws)
        read.digest = content_digest(read.canonical)
        match.deals = []  # what storing needs is in the fields above
        return read

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
            columns = self._columns
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

    def split_off(self, read: CheckedMatch, first_line: int) -> CheckedMatch:
        """A match of a later part whose key an earlier part's match had: each of
        its rows refused as :meth:`RecordChecker.check_stream` refuses them."""
        match = read.match
        def split(line: int) -> RecordError:
            return RecordError(match_split(match.round, match.table, match.event,
                                           line_place(first_line)),
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
        return CheckedMatch(checked, read.rows, read.raws)


def check_part(source: Source, send: Callable[[object], None], *, events: EventLookup,
               default_event: str | None, keep_raws: bool):
    """In the process of one part: its matches checked and made ready to store,
    sent in batches; returns the part's columns, notices and unfilled rows."""
    checking = MatchChecker(events, default_event, source.name)
    reader = RecordReader(source, filename=source.name, errors="yield")
    batch, rows = [], 0
    for read, _ in checking.matches(reader):
        read.columns = reader.columns
        read.strip(keep_raws=keep_raws)
        batch.append(read)
        rows += read.rows
        if rows >= PART_BATCH_ROWS:
            send((batch, source.bytes_read))
            batch, rows = [], 0
    if batch:
        send((batch, source.bytes_read))
    source.drain()
    return reader.columns, list(source.notices), reader.unfilled


# --------------------------------------------------------------------- the file

def source_name(source: str | bytes | IO, name: str | None = None) -> str:
    """A file's name in errors and reports: ``name`` when given, else the path
    (``<stdin>`` for ``-``), else ``<sent>`` (bytes or a stream)."""
    if name is not None:
        return name
    if isinstance(source, str):
        return "<stdin>" if source == "-" else source
    return "<sent>"


class CheckedRecords:
    """The checked matches of one file, in file order, as they are read.

    Iterate once (or :meth:`kept`, then as often as wanted). What the read says of
    the file as a whole (``sha256``, ``notices``, ``unfilled`` score-sheet rows
    left empty) is known once every match has been taken; ``sha256`` before the
    first when the file is checked in parts. A problem of the file as a whole (its
    header, its encoding, an oversized line, too many matches) is raised as a
    :class:`RecordError` while iterating, after the matches read before it.
    """

    def __init__(self, source: str | bytes | IO, *, events: EventLookup,
                 options: ImportOptions, name: str | None = None,
                 on_row: Callable[[DealRecord], None] | None = None):
        self.name = name = source_name(source, name)
        self.sha256 = ""
        self.notices: list[str] = []
        self.unfilled = 0
        self.locate: Callable[[RecordError], RecordError] | None = None
        self._events = events
        self._options = options
        self._on_row = on_row
        self._columns: list[str] | None = None
        self._kept: list[CheckedMatch] | None = None
        self._error: RecordError | None = None
        self._parts: list[Part] | None = None
        self._reader = None
        if isinstance(source, str) and options.jobs != 1 and options.sheet is None:
            self._parts = plan_parts(source, options.jobs or usable_cores(),
                                     encoding=options.encoding)
        if self._parts is not None:
            self._path = source
            return
        # Read once: the file is hashed as it streams (an endless input meets the
        # reader's bounds instead of a hash that never ends).
        if isinstance(source, str):
            self._source = open_source(source, encoding=options.encoding, sheet=options.sheet)
        else:
            stream = io.BytesIO(source) if isinstance(source, bytes) else source
            if isinstance(stream, io.TextIOBase):
                stream = io.BytesIO(stream.read().encode("utf-8"))
            self._source = Source(stream, name, encoding=options.encoding, sheet=options.sheet)
        self._reader = RecordReader(self._source, filename=name, errors="yield")
        self.locate = self._source.locate if self._source.kind == "xlsx" else None

    @property
    def columns(self) -> list[str]:
        """The file's columns (as its header names them)."""
        if self._reader is not None:
            return self._reader.columns
        return self._columns or []

    @property
    def in_parts(self) -> bool:
        return self._parts is not None

    @property
    def error(self) -> RecordError | None:
        """The problem of the file as a whole met by :meth:`kept`, if one was."""
        return self._error

    @property
    def rows(self) -> int:
        """The rows of the matches :meth:`kept` read."""
        return sum(read.rows for read in self._kept or ())

    def kept(self) -> "CheckedRecords":
        """Every match read now and kept in memory (a small file: a result sent
        from a table), so that the matches can be gone through again; a problem
        of the file as a whole is raised when they are."""
        if self._kept is None:
            kept = []
            try:
                for read in self._read():
                    kept.append(read)
            except RecordError as err:
                self._error = err
            self._kept = kept
        return self

    def __iter__(self) -> Iterator[CheckedMatch]:
        if self._kept is None:
            return self._read()
        return self._replay()

    def _replay(self) -> Iterator[CheckedMatch]:
        yield from self._kept
        if self._error is not None:
            raise self._error

    def _read(self) -> Iterator[CheckedMatch]:
        return self._read_in_parts() if self._parts is not None else self._read_whole()

    def _read_whole(self) -> Iterator[CheckedMatch]:
        """The file read and checked here, in one process, match by match."""
        source, reader = self._source, self._reader
        on_progress = self._options.on_progress
        checking = MatchChecker(self._events, self._options.event, self.name, self._on_row)
        with source:
            for read, rows in checking.matches(reader):
                if on_progress is not None and rows:
                    on_progress(source.bytes_read)
                yield read
            source.drain()
        self.sha256 = source.sha256
        self.notices = list(source.notices)
        self.unfilled = reader.unfilled

    def _read_in_parts(self) -> Iterator[CheckedMatch]:
        """The file checked in parts, a process each (:func:`stream_parts`), the
        matches given here in file order, as :meth:`_read_whole` gives them.

        The processes know the events from what :meth:`EventLookup.in_memory`
        read before they start (they must not use a database connection); a match
        whose rows are apart in two parts is refused here as one process refuses
        it (``match-split``). :class:`~.parallel.PartLost` when a process is killed.
        """
        path, parts, options = self._path, self._parts, self._options
        events = self._events.in_memory()
        hasher = hashlib.sha256()
        with open(path, "rb") as stream:
            # the hash of what the parts read (a regular file, by plan_parts)
            for block in iter(lambda: stream.read(1 << 20), b""):
                hasher.update(block)
        # known before any match is taken: versions are written with it
        self.sha256 = hasher.hexdigest()
        work = partial(check_part, events=events, default_event=options.event,
                       keep_raws=options.skip_invalid)
        checking = MatchChecker(events, options.event, self.name)
        on_progress = options.on_progress
        closed: dict[tuple, int] = {}  # match key -> first line, over all parts
        notices: list = []
        unfilled = 0
        items = stream_parts(path, self.name, parts, work, encoding=options.encoding,
                             jobs=options.jobs or usable_cores())
        for index, done, value in items:
            if done:
                columns, part_notices, part_unfilled = value
                self._columns = self._columns or columns  # a part of no match
                notices += [n for n in part_notices if n not in notices]
                unfilled += part_unfilled
                continue
            batch, bytes_read = value
            for read in batch:
                if self._columns is None:
                    self._columns = read.columns
                key = read.match.key
                if read.match.round is None:  # rows of no match: never cut to (plan_parts)
                    pass
                elif key in closed:
                    read = checking.split_off(read, closed[key])
                else:
                    closed[key] = read.match.lines[0]
                    if len(closed) > MAX_MATCHES_PER_FILE:
                        raise too_many_matches(read.match.lines[0])
                yield read
            if on_progress is not None:
                on_progress(parts[index].start + bytes_read)
        self.notices = notices
        self.unfilled = unfilled


def check_records(source: str | bytes | IO, *, events: EventLookup, options: ImportOptions,
                  name: str | None = None,
                  on_row: Callable[[DealRecord], None] | None = None) -> CheckedRecords:
    """Stage one: the checked matches of a record file (see :class:`CheckedRecords`).

    ``source`` is a path (``-``: standard input), the file's bytes, or a stream
    (binary, or text). ``events`` says what the events are (nothing else is read
    but the file); of ``options``, stage one uses ``event``, ``encoding``,
    ``sheet``, ``jobs``, ``on_progress`` and ``rejects`` (kept or not, the rows as
    read). ``name`` is the file's name in errors (default: the path, or
    ``<sent>``). ``on_row(record)`` sees every readable row as read, before its
    event and variant are resolved. A path that cannot be opened is a
    :class:`UsageError`."""
    return CheckedRecords(source, events=events, options=options, name=name, on_row=on_row)


# --------------------------------------------------------------------- the rejects

def another_row_invalid(first: RecordError) -> Message:
    """What a rejects file says in the error column of a rejected match's row that
    has no error of its own: the match's first error, and where it is (a workbook's
    cell, else the line)."""
    error = first.words or first.message
    if first.cell:
        return Message(N_("another row of this match is invalid (%(cell)s): %(error)s"),
                       {"cell": first.cell, "error": error})
    return Message(N_("another row of this match is invalid (line %(line)s): %(error)s"),
                   {"line": first.line, "error": error})


class RejectsFile:
    """The rows of rejected matches, written as read with an ``error`` column
    (a rejects file imported again brings its own error column: replaced). The
    columns keep the record file's names, which the import reads; ``note(error,
    lang)`` words each error in the language of its match's event (by default
    English, as :func:`error_text`)."""

    def __init__(self, table: IO[str] | CsvTable | XlsxTable,
                 note: Callable[[RecordError, str | None], str] | None = None):
        if not isinstance(table, (CsvTable, XlsxTable)):
            table = CsvTable(table, None, bom=False)  # a text stream
        self.table = table
        self.note = note if note is not None else _english_note
        self._header = False

    def write(self, columns: list[str], raw: list[str] | None, error: str | None) -> None:
        """One row (``raw`` None: only the header, if not written yet)."""
        keep = [i for i, c in enumerate(columns) if c != ERROR_COLUMN]
        if not self._header:
            self.table.write([columns[i] for i in keep] + [ERROR_COLUMN])
            self._header = True
        if raw is not None:
            cells = [typed_cell(columns[i], raw[i] if i < len(raw) else "") for i in keep]
            self.table.write(cells + raw[len(columns):] + [error or ""])

    def reject(self, columns: list[str], match: MatchCheck, raws: list[list[str]],
               errors: list[RecordError], lang: str | None = None) -> None:
        """Every row of a rejected match, each with its own error or the match's
        first, worded in ``lang`` (its event's language)."""
        by_line = {}
        for err in errors:
            if err.line is not None:
                by_line.setdefault(err.line, err)
        first = errors[0]
        # match.lines, not match.deals: a match valid as read has dropped its deal
        # checks before the database refuses it (not seated, changed, withdrawn),
        # and its rows must still be written.
        for line, raw in zip(match.lines, raws):
            own = by_line.get(line)
            if own is not None:
                text = self.note(own, lang)
            else:  # said as the file's other errors are: no place, no rule
                text = self.note(RecordError(another_row_invalid(first)), lang)
            self.write(columns, raw, text)


def _english_note(err: RecordError, lang: str | None) -> str:
    return error_text(err)
