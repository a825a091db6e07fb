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
  re-seating nobody recorded.
- A name in a record that belongs to a player merged (after the seating was
  printed) into the player now seated there is accepted as that player; the
  stored deals carry the kept name, so both spellings are the same content.
- Match points follow the event's points system (:mod:`.scoring`): by default the
  share of the table's other players finished ahead of; ``place`` gives n-1 at a
  table of n down to 0.
- The same match (event, round, table) twice in one file is an error even with
  equal content; its rows must stand together (docs/guide/records.md, "The file").
  With ``skip_invalid`` the first occurrence is kept and the later one rejected.
- A row that cannot be read at all (a ragged row, a bad round number) cannot name
  its match: it is counted against the match whose rows precede it (deals are
  numbered from 1 without gaps, so a missing first deal is caught on its own).
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

from collections import OrderedDict

import getpass
import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import IO, Callable, Iterable

from sqlalchemy import bindparam, func, insert, select, update
from sqlmodel import Session

from ..engines.base import Game, MatchRules
from ..engines.match import MatchRanking
from ..errors import OptionError, RecordError, TourneyError, UsageError
from ..ordering import natural_key
from ..records.csv_format import ERROR_COLUMN, DealRecord, format_row, open_records
from ..records.spreadsheets import CsvTable, XlsxTable, typed_cell
from ..records.validation import MAX_DEALS_PER_MATCH, DealCheck, RecordChecker
from ..seats import seat_text
from ..storage.db import ConflictingChange
from .settings import event_settings, other_event, other_variant
from ..storage.merges import follow, merge_links
from .scoring import match_points
from ..storage.models import (
    Deal,
    Entry,
    Event,
    Match,
    MatchPlace,
    MatchVersion,
    Player,
    Round,
    Seat,
    utcnow,
)
from ..numbers import count_text

MATCH_T = Match.__table__
VERSION_T = MatchVersion.__table__
DEAL_T = Deal.__table__
PLACE_T = MatchPlace.__table__

# Deals buffered before one batch of INSERTs: big enough to amortise round trips,
# small enough that a million-deal file never sits in memory.
BATCH_DEALS = 5000
# Errors kept for the report; the rest are counted (a file of a million bad rows
# must not become a million-entry list).
MAX_ERRORS_KEPT = 10_000
# Canonical move spellings remembered per game (a dict lookup instead of a parse
# per token on the hot path); cleared when it grows past this.
TOKEN_CACHE_LIMIT = 200_000
PROGRESS_EVERY = 2000  # rows between progress callbacks

# The columns a match's content is made of, in the order they are hashed.
CONTENT_COLUMNS = ("deal", "players", "dealer", "hands", "stock", "passes", "play", "scores")

MatchKey = tuple[str, int, str]


# --------------------------------------------------------------------- small pieces

def content_digest(rows: Iterable[dict[str, str]]) -> str:
    """sha256 of a match's canonical rows (deal order), over :data:`CONTENT_COLUMNS`."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update("\x1f".join(row[c] for c in CONTENT_COLUMNS).encode("utf-8"))
        digest.update(b"\x1e")
    return digest.hexdigest()


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
        else:
            text = (f"{report.file}: nothing imported: {count_text(report.error_count, 'error')} "
                    f"in {count_text(report.rejected, 'match')}")
        super().__init__(text)


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
        session, event_id = self.session, self.event.id
        round_id = session.execute(select(Round.id).where(
            Round.event_id == event_id, Round.number == number)).scalar()
        tables: dict[str, list[tuple[int, str]]] = {}
        if round_id is not None:
            seats = session.execute(
                select(Seat.table, Seat.seat, Seat.player_id, Player.name)
                .join(Player, Player.id == Seat.player_id)
                .where(Seat.round_id == round_id, Seat.table.is_not(None))
                .order_by(Seat.table, Seat.seat))
            for table, _seat, player_id, name in seats:
                tables.setdefault(table, []).append((player_id, name))
        stored = {}
        rows = session.execute(
            select(Match.table, Match.id, Match.current_version_id,
                   MatchVersion.content_sha256, MatchVersion.version)
            .outerjoin(MatchVersion, MatchVersion.id == Match.current_version_id)
            .where(Match.event_id == event_id, Match.round_number == number))
        for table, match_id, version_id, sha, version in rows:
            stored[table] = _Stored(match_id, version_id, sha, version)
        return _RoundInfo(round_id is not None, tables, stored)


# --------------------------------------------------------------------- one match in a file

@dataclass
class _Group:
    """The rows of one match as read (or of unreadable rows with no match)."""

    key: MatchKey | None
    ctx: _EventContext | None
    first_line: int
    checks: list[DealCheck] = field(default_factory=list)
    raws: list[list[str]] = field(default_factory=list)
    error: RecordError | None = None  # a match-level error found while reading


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


class ResultImporter:
    """One import of one file into one session; see :func:`import_results`."""

    def __init__(self, session: Session, *, event: str | None = None, replace: bool = False,
                 dry_run: bool = False, rejects: IO[str] | None = None,
                 imported_by: str | None = None,
                 on_progress: Callable[[int], None] | None = None,
                 batch_deals: int = BATCH_DEALS, encoding: str | None = None,
                 sheet: str | None = None):
        self.session = session
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
        self._seen: dict[MatchKey, int] = {}  # match -> first line in this file
        self._pending: list[_Accepted] = []
        self._pending_deals = 0
        self._version_ids: list[int] = []  # this import's versions, given the file's hash at the end
        self._tokens: dict[str, dict[str, str]] = {}
        self.checker = RecordChecker(options_for=self._options_for)
        self.columns: list[str] = []

    # -------------------------------------------------------------- events and rows

    def _context(self, slug: str) -> _EventContext | None:
        if slug not in self._events:
            event = self.session.execute(select(Event).where(Event.slug == slug)).scalars().first()
            self._events[slug] = (_EventContext(self.session, event, self._round_cache)
                                  if event else None)
        return self._events[slug]

    def _options_for(self, record: DealRecord, game: Game) -> dict:
        return self._events[record.event].options

    def _resolve_row(self, record: DealRecord) -> _EventContext:
        """Fill the row's event and variant; :class:`RecordError` if they are wrong."""
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
        if ctx is None:
            raise RecordError(f"no event {record.event!r} in the database",
                              rule="unknown-event", column="event", operation="event list")
        if record.variant is None:
            record.variant = ctx.event.variant
        elif record.variant != ctx.event.variant:
            raise other_variant(ctx.event.slug, ctx.event.variant, record.variant)
        return ctx

    @staticmethod
    def _guess_key(columns: list[str], raw: list[str], default_event: str | None) -> MatchKey | None:
        """The match of an unreadable row, if its event, round and table are readable."""
        if len(raw) != len(columns):
            return None
        fields = dict(zip(columns, raw))
        try:
            number = int(fields.get("round", "").strip())
        except ValueError:
            return None
        table = fields.get("table", "").strip()
        event = (fields.get("event") or "").strip() or default_event
        if not table or event is None:
            return None
        return (event, number, table)

    # -------------------------------------------------------------- the file

    def run(self, path: str) -> ImportReport:
        name = "<stdin>" if path == "-" else path
        report = self.report = ImportReport(file=name, source_sha256="", dry_run=self.dry_run)
        self.source_file = os.path.basename(name)[:500]
        # Read once: the file is hashed as it streams (an endless input meets the
        # reader's bounds instead of a hash that never ends).
        source, reader = open_records(path, errors="yield", encoding=self.encoding,
                                      sheet=self.sheet)
        report.locate = source.locate if source.kind == "xlsx" else None
        group: _Group | None = None
        rows = 0
        with source:
            try:
                for item in reader:
                    rows += 1
                    if self.on_progress is not None and rows % PROGRESS_EVERY == 0:
                        self.on_progress(source.bytes_read)
                    self.columns = reader.columns
                    raw = list(reader.raw_row)
                    if isinstance(item, RecordError):
                        key = self._guess_key(reader.columns, raw, self.event_slug)
                        check = DealCheck(item.line or 0, None, error=item)
                        ctx = None
                    else:
                        key, ctx = item.match_key, None
                        try:
                            ctx = self._resolve_row(item)
                            key = item.match_key
                            check = self.checker.check_deal(item)
                        except RecordError as err:
                            err.line = item.line
                            check = DealCheck(item.line, item, error=err)
                            if (err.column == "event" and group is not None
                                    and group.key is not None
                                    and group.key[1:] == (item.round, item.table)):
                                # A bad event cell amid a match's rows: most likely a
                                # slip in that match, not a match of its own.
                                key = group.key
                    if key is None and group is not None:
                        pass  # an unreadable row: counted against the match it follows
                    elif group is None or key != group.key:
                        if group is not None:
                            self._close(group)
                        group = _Group(key, ctx, check.line)
                        if key is not None:
                            if key in self._seen:
                                group.error = RecordError(
                                    f"round {key[1]}, table {key[2]} of {key[0]} appears twice in "
                                    f"the file (first at line {self._seen[key]}); a match's rows "
                                    "must stand together, once", rule="match-twice",
                                    line=check.line, column="table")
                            else:
                                self._seen[key] = check.line
                    if group.ctx is None and ctx is not None:
                        group.ctx = ctx
                    if len(group.checks) >= MAX_DEALS_PER_MATCH:
                        # Bounded memory for a hostile file of one endless match: the
                        # match is refused, and only its first rows are kept.
                        if group.error is None:
                            group.error = RecordError(
                                f"the match has more than {MAX_DEALS_PER_MATCH} deals; no "
                                "match is that long", rule="match-too-long",
                                line=check.line, column="deal")
                        continue
                    group.checks.append(check)
                    group.raws.append(raw)
                if group is not None:
                    self._close(group)
            except RecordError as err:  # the file as a whole: header, encoding, size
                # (the reader names its line and column)
                report.add_error(err)
                report.file_error = True
                report.added = report.replaced = 0
                raise ImportRejected(report, err) from None
            source.drain()
        report.source_sha256 = source.sha256
        report.notices = list(source.notices)
        self.columns = reader.columns
        report.unfilled = reader.unfilled
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

    # -------------------------------------------------------------- closing a match

    def _reject(self, group: _Group, errors: list[RecordError]) -> None:
        self.report.rejected += 1
        for err in errors:
            self.report.add_error(err)
        if self._rejects is not None:
            by_line = {}
            for err in errors:
                if err.line is not None:
                    by_line.setdefault(err.line, err)
            first = errors[0]
            for check, raw in zip(group.checks, group.raws):
                own = by_line.get(check.line)
                if own is not None:
                    text = error_text(own)
                else:
                    where = first.cell or f"line {first.line}"  # a workbook's cell
                    text = f"another row of this match is invalid ({where}): {first.message}"
                self._write_reject(raw, text)

    def _write_reject(self, raw: list[str] | None, error: str | None) -> None:
        # A rejects file imported again brings its own error column: replaced.
        keep = [i for i, c in enumerate(self.columns) if c != ERROR_COLUMN]
        if not self._rejects_header:
            self._rejects.write([self.columns[i] for i in keep] + [ERROR_COLUMN])
            self._rejects_header = True
        if raw is not None:
            cells = [typed_cell(self.columns[i], raw[i] if i < len(raw) else "") for i in keep]
            self._rejects.write(cells + raw[len(self.columns):] + [error or ""])

    def _close(self, group: _Group) -> None:
        self.report.deals += len(group.checks)
        errors = [c.error for c in group.checks if c.error is not None]
        if group.error is not None:
            errors.insert(0, group.error)
        if group.key is None or group.ctx is None:
            self._reject(group, errors or [RecordError("the row names no match", rule="match")])
            return
        if not errors:
            errors = self._duplicates(group)
        if errors:
            self._reject(group, errors)
            return
        ctx = group.ctx
        checked = self.checker.check_match(group.checks)
        if checked.error is not None:
            self._reject(group, [checked.error])
            return
        ordered = sorted(group.checks, key=lambda c: c.record.deal)
        first = ordered[0].record
        try:
            seats, aliases = self._check_seating(ctx, first)
        except RecordError as err:
            err.line = err.line or first.line
            self._reject(group, [err])
            return
        if aliases:
            self._rename(ordered, checked.result, aliases)
        rows = [self._canonical(ctx.game, c) for c in ordered]
        digest = content_digest(rows)
        stored = ctx.round(first.round).stored.get(first.table)
        if stored is not None and stored.content_sha256 == digest:
            self.report.unchanged += 1
            return
        if stored is not None and stored.version_id is not None and not self.replace:
            self._reject(group, [self._difference(ctx, stored, ordered, rows)])
            return
        if stored is not None and stored.version_id is not None:
            self.report.replaced += 1
        else:
            self.report.added += 1
        if self.report.error_count and not self.skip_invalid:
            return  # the import is rejected anyway: go on checking, stop preparing writes
        self._accept(ctx, first, seats, ordered, rows, digest, checked.result, stored)

    def _duplicates(self, group: _Group) -> list[RecordError]:
        """Two rows for one deal of a match: a duplicated row or a conflict."""
        errors = []
        seen: dict[int, tuple[int, list[str]]] = {}
        for check, raw in zip(group.checks, group.raws):
            number = check.record.deal
            if number in seen:
                line, other = seen[number]
                if other == raw:
                    text = f"a duplicate row: deal {number} of this match is also on line {line}"
                    rule = "duplicate-row"
                else:
                    text = (f"deal {number} of this match appears twice with different "
                            f"content (also on line {line})")
                    rule = "duplicate-deal"
                errors.append(RecordError(text, rule=rule, line=check.line, column="deal"))
            else:
                seen[number] = (check.line, raw)
        return errors

    def _check_seating(self, ctx: _EventContext, record: DealRecord) -> list[tuple[int, str]]:
        """Deal 1 against the seating: the seated players in seat order, seat 0 dealing."""
        slug = ctx.event.slug
        info = ctx.round(record.round)
        if not info.seated:
            raise RecordError(f"round {record.round} of {slug} has not been seated",
                              rule="round-not-seated", column="round",
                              operation=f"round seat {slug}")
        seats = info.tables.get(record.table)
        if seats is None:
            labels = ", ".join(sorted(info.tables, key=natural_key)) or "none"
            raise RecordError(f"round {record.round} of {slug} has no table {record.table!r} "
                              f"(its tables: {labels})", rule="unknown-table", column="table")
        names = [name for _, name in seats]
        aliases = {}
        if record.players != names:
            aliases = self._merged_aliases(record.players, seats)
        if [aliases.get(p, p) for p in record.players] != names:
            seated = ";".join(names)
            strangers = [p for p in record.players if aliases.get(p, p) not in names]
            if strangers:
                raise RecordError(
                    f"{', '.join(strangers)} not seated at round {record.round}, table "
                    f"{record.table}, which seats {seated} ({seat_text(0)} first)",
                    rule="not-seated", column="players")
            raise RecordError(
                f"the players of deal 1 must sit as seated: round {record.round}, table "
                f"{record.table} seats {seated} ({seat_text(0)} first)", rule="seat-order",
                column="players")
        if ctx.game.uses_dealer and aliases.get(record.dealer, record.dealer) != names[0]:
            raise RecordError(
                f"{record.dealer} deals deal 1, but {names[0]} ({seat_text(0)}) deals first at a "
                "seated table", rule="first-dealer", column="dealer")
        for player_id, name in seats:
            last = ctx.withdrawn.get(player_id)
            if last is not None and last < record.round:
                raise RecordError(f"{name} withdrew after round {last} and cannot play "
                                  f"round {record.round}", rule="withdrawn", column="players")
        return seats, aliases

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
    def _rename(checks: list[DealCheck], result: MatchRanking, aliases: dict[str, str]) -> None:
        """Store the seated (kept) names, not a merged duplicate's."""
        for check in checks:
            record = check.record
            record.players = [aliases.get(p, p) for p in record.players]
            if record.dealer is not None:
                record.dealer = aliases.get(record.dealer, record.dealer)
        result.ranking = [(aliases.get(n, n), place) for n, place in result.ranking]
        result.totals = {aliases.get(n, n): t for n, t in result.totals.items()}

    def _canonical(self, game: Game, check: DealCheck) -> dict[str, str]:
        """The deal's row in canonical spelling (:func:`format_row`), with the
        computed scores; move spellings come from a per-game cache."""
        cache = self._tokens.get(game.id)
        if cache is None or len(cache) >= TOKEN_CACHE_LIMIT:
            cache = self._tokens[game.id] = _TokenCache(game.canonical_token)
        return format_row(check.record, cache.__getitem__, game.format_score,
                          scores=check.outcome.scores)

    def _difference(self, ctx: _EventContext, stored: _Stored, ordered: list[DealCheck],
                    rows: list[dict[str, str]]) -> RecordError:
        deals = self.session.execute(
            select(Deal).where(Deal.version_id == stored.version_id).order_by(Deal.number)
        ).scalars().all()
        first = ordered[0].record
        where = f"round {first.round}, table {first.table} of {ctx.event.slug}"
        differences = []
        line, column = first.line, None
        for check, row in zip(ordered, rows):
            index = check.record.deal - 1
            if index >= len(deals):
                continue
            old = deals[index]
            for name in CONTENT_COLUMNS[1:]:
                before = getattr(old, name) or ""
                if before != row[name]:
                    if column is None:
                        line, column = check.line, name
                    differences.append(f"deal {old.number} {name}: stored {_clip(before)!r}, "
                                       f"file {_clip(row[name])!r}")
        if len(deals) != len(rows):
            differences.append(f"stored {len(deals)} deals, the file has {len(rows)}")
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
                ordered: list[DealCheck], rows: list[dict[str, str]], digest: str,
                result: MatchRanking, stored: _Stored | None) -> None:
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
        place_rows = [
            {"player_id": ids[name], "seat": seat_of[name], "place": place,
             "total": float(result.totals[name]), "match_points": pts}
            for (name, place), pts in zip(result.ranking, points)
        ]
        deal_rows = []
        verified_moves = 0
        for check, row in zip(ordered, rows):
            verified = check.outcome.verified
            verified_moves += verified == "moves"
            deal_rows.append({
                "number": check.record.deal, "players": row["players"],
                "dealer": row["dealer"] or None, "hands": row["hands"], "stock": row["stock"],
                "passes": row["passes"], "play": row["play"], "scores": row["scores"],
                "claimed_scores": check.record.scores is not None, "verified": verified,
            })
        version_row = {
            "version": version, "content_sha256": digest, "source_file": self.source_file,
            "source_sha256": None, "imported_by": self.imported_by,
            "imported_at": self.now, "superseded_at": None, "deals": len(rows),
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
            ids = execute(
                insert(MATCH_T).returning(MATCH_T.c.id, sort_by_parameter_order=True),
                [{"event_id": a.ctx.event.id, "round_number": a.round, "table": a.table,
                  "current_version_id": None} for a in new],
            ).scalars().all()
            for accepted, match_id in zip(new, ids):
                accepted.match_id = match_id
        version_ids = execute(
            insert(VERSION_T).returning(VERSION_T.c.id, sort_by_parameter_order=True),
            [dict(a.version_row, match_id=a.match_id) for a in pending],
        ).scalars().all()
        self._version_ids.extend(version_ids)
        deals, places = [], []
        for accepted, version_id in zip(pending, version_ids):
            for row in accepted.deals:
                row["version_id"] = version_id
            for row in accepted.places:
                row["version_id"] = version_id
            deals.extend(accepted.deals)
            places.extend(accepted.places)
            info = accepted.ctx.cached_round(accepted.round)
            if info is not None:  # an evicted round is read again when met again
                info.stored[accepted.table] = _Stored(accepted.match_id, version_id,
                                                      accepted.version_row["content_sha256"],
                                                      accepted.version)
            accepted.version_row["id"] = version_id
        execute(insert(DEAL_T), deals)
        execute(insert(PLACE_T), places)
        old = [a.old_version_id for a in pending if a.old_version_id is not None]
        if old:
            execute(update(VERSION_T).where(VERSION_T.c.id.in_(old))
                    .values(superseded_at=self.now))
        execute(
            update(MATCH_T).where(MATCH_T.c.id == bindparam("b_match"))
            .values(current_version_id=bindparam("b_version")),
            [{"b_match": a.match_id, "b_version": vid} for a, vid in zip(pending, version_ids)],
        )

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


def import_results(session: Session, path: str, *, event: str | None = None,
                   replace: bool = False, dry_run: bool = False,
                   rejects: IO[str] | None = None, imported_by: str | None = None,
                   on_progress: Callable[[int], None] | None = None,
                   batch_deals: int = BATCH_DEALS, encoding: str | None = None,
                   sheet: str | None = None) -> ImportReport:
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
                              encoding=encoding, sheet=sheet)
    return importer.run(path)
