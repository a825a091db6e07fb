"""Importing match results: record CSV files in, match versions out.

``import_results(session, source, options)`` streams a record file (docs/guide/records.md)
through the engines and stores each valid match of seated tables as a new
:class:`~tourney.storage.models.MatchVersion` with its deals and places. The whole
file is one transaction (the caller's): by default any invalid row rejects the whole
file (:class:`ImportRejected`, nothing written); with ``rejects`` the valid
matches are stored and the rows of the rejected ones written there.

Two stages, each in small pieces with one job:

- stage one, :func:`tourney.records.checked.check_records`: a path, bytes or a
  stream in, checked matches out (the engines' verdicts, canonical rows, every
  error placed, the rows as read); no database;
- stage two, :func:`store_results` here: each checked match against the seating
  (:mod:`.result_seating`), against what is stored (:mod:`.result_diff`, the
  events and rounds read by :mod:`.stored_rounds`), then written as versions in
  bulk and audited (:mod:`.result_writer`), or rejected (the rejects file:
  :class:`~tourney.records.checked.RejectsFile`).

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
  seating explains are left out (:func:`.result_seating.seating_first`;
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
- Rows are grouped into matches by
  :meth:`~tourney.records.validation.RecordChecker.check_stream`, the grouper
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

import dataclasses
import os
from dataclasses import dataclass, field
from typing import IO, Callable

from sqlmodel import Session

from ..errors import RecordError, TourneyError
from ..errors.words import N_, Message
from ..records import checked
from ..records.checked import (
    CheckedMatch,
    CheckedRecords,
    ImportOptions,
    RejectsFile,
    check_records,
    content_digest,
    source_name,
)
from ..records.parallel import PartLost
from ..storage.audit import current_actor
from ..storage.merges import current_names
from .result_diff import difference, stored_rows
from .result_seating import check_seating, rename, seating_first
from .result_writer import VersionWriter, audit_import
from .stored_rounds import EventContexts

__all__ = ["ImportRejected", "ImportReport", "import_results", "store_results"]


def current_user() -> str:
    """Who imports or reverts: the audit log's actor (TOURNEY_ACTOR, else the login
    name), so a match's history and `tourney log` name the same person."""
    return current_actor() or os.environ.get("USER") or "unknown"


def error_dict(err: RecordError) -> dict:
    """An error of ``result import --json``: ``error`` (the whole text), ``rule``,
    ``message`` (the text without its position) and the position, the seat from 1."""
    return {"file": err.file, "cell": err.cell, **err.position(),
            "rule": err.rule, "message": err.message, "error": str(err)}


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
    # The versions this import stored, in file order. Not part of the JSON.
    version_ids: list[int] = field(default_factory=list)

    def add_error(self, err: RecordError) -> None:
        if err.file is None:
            err.file = self.file
        if self.locate is not None:
            self.locate(err)  # a workbook's sheet and cell
        self.error_count += 1
        if len(self.errors) < checked.MAX_ERRORS_KEPT:
            self.errors.append(err)

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
            if any(e is file_error for e in report.errors):
                words = Message(N_("%(file)s: nothing imported: the file cannot be read as "
                                   "records"), {"file": report.file})
            else:
                # a file stopped late (too many matches): its own error came after the
                # rows' errors that the list keeps, so it is said here
                words = Message(N_("%(file)s: nothing imported: the file cannot be read as "
                                   "records (%(problem)s)"),
                                {"file": report.file,
                                 "problem": file_error.words or file_error.message})
        else:
            errors, matches = report.error_count, report.rejected
            words = Message(N_("%(file)s: nothing imported: %(errors)s in %(matches)s"), {
                "file": report.file,
                "errors": (Message(N_("1 error")) if errors == 1 else
                           Message(N_("%(count)s errors"), {"count": errors})),
                "matches": (Message(N_("1 match")) if matches == 1 else
                            Message(N_("%(count)s matches"), {"count": matches}))})
        super().__init__(words)

    @property
    def is_usage(self) -> bool:
        # the whole file's error decides when there is one (a bad header is a usage error)
        return self.file_error is not None and self.file_error.is_usage


# --------------------------------------------------------------------- stage two

class _MatchStore:
    """Stage two for one file: each checked match decided (stored, unchanged, or
    rejected) in file order; the writes go through :class:`VersionWriter`."""

    def __init__(self, session: Session, records: CheckedRecords, options: ImportOptions,
                 contexts: EventContexts, report: ImportReport):
        self.session = session
        self.records = records
        self.options = options
        self.contexts = contexts
        self.report = report
        self.rejects = (RejectsFile(options.rejects, options.rejects_note)
                        if options.rejects is not None else None)
        self.source_file = os.path.basename(report.file)[:500]
        self.imported_by = (options.imported_by or current_user())[:100]
        self.writer = VersionWriter(session, source_file=self.source_file,
                                    imported_by=self.imported_by,
                                    batch_deals=options.batch_deals)
        self._current_names: dict[str, str] | None = None  # old name -> name now

    def reject(self, read: CheckedMatch, errors: list[RecordError]) -> None:
        self.report.rejected += 1
        for err in errors:
            self.report.add_error(err)
        if self.rejects is not None:
            self.rejects.reject(self.records.columns, read.match, read.raws, errors,
                                self._lang(read.match.event))

    def _lang(self, slug: str | None) -> str | None:
        """The language of the event ``slug`` (the file's, ``--event``, for a match
        of no known event): its rejected rows are worded in it."""
        for name in (slug, self.options.event):
            ctx = self.contexts.context(name) if name else None
            if ctx is not None:
                return ctx.event.lang
        return None

    def close(self, read: CheckedMatch) -> None:
        """A checked match against the database: stored, or rejected."""
        match, report = read.match, self.report
        report.deals += read.rows
        if not match.valid:  # its rows' errors, then the match's, as validate lists them
            errors = [c.error for c in match.deals if c.error is not None] + match.problems
            self.reject(read, seating_first(self.session, self.contexts, match, errors))
            return
        ctx = self.contexts.context(match.event)
        first = read.first
        seats, aliases, errors = check_seating(self.session, ctx, first)
        if errors:
            self.reject(read, errors)
            return
        said = rows = read.canonical  # said: the players as the file names them
        digest = read.digest
        if aliases:
            rows = rename(rows, match.result, aliases)
            digest = content_digest(rows)
        stored = ctx.round(first.round).table(first.table).stored
        if stored is not None and stored.content_sha256 == digest:
            report.unchanged += 1
            return
        stored_deals = None
        if stored is not None and stored.version_id is not None:
            # Stored deals keep the names as imported: a player renamed or merged
            # since is the same player, so compare with the names of now.
            if self._current_names is None:
                self._current_names = current_names(self.session)
            stored_deals = stored_rows(self.session, stored, self._current_names)
            if content_digest(stored_deals) == digest:
                report.unchanged += 1
                return
        if stored_deals is not None and not self.options.replace:
            self.reject(read, [difference(ctx, stored, first, read.deals, rows,
                                          stored_deals, said, session=self.session)])
            return
        if stored is not None and stored.version_id is not None:
            report.replaced += 1
        else:
            report.added += 1
        if report.error_count and not self.options.skip_invalid:
            return  # the import is rejected anyway: go on checking, stop preparing writes
        if not self.options.dry_run:
            self.writer.add(ctx, first, seats, read.deals, rows, digest, match.result, stored,
                            report.source_sha256)

    def finish(self) -> None:
        """The last batch written, the file's hash on its versions, the audit."""
        report = self.report
        self.writer.flush()
        self.writer.stamp_source(report.source_sha256)
        audit_import(self.session, self.contexts, source_file=self.source_file,
                     sha256=report.source_sha256, actor=self.imported_by,
                     reason=self.options.reason)
        touched = [ctx for ctx in self.contexts if ctx.touched]
        report.changed_variants = sorted({ctx.event.variant for ctx in touched})
        replaced: dict[str, list[int]] = {}
        for ctx in touched:
            for accepted in ctx.replacements:
                replaced.setdefault(ctx.event.variant, []).append(accepted.match_id)
        report.added_matches = {variant: ids for variant, ids in self.writer.added.items()
                                if variant not in replaced}
        report.replaced_matches = {variant: ids for variant, ids in replaced.items()
                                   if variant not in self.writer.added}
        report.version_ids = self.writer.version_ids


def store_results(session: Session, records: CheckedRecords, options: ImportOptions, *,
                  contexts: EventContexts | None = None) -> ImportReport:
    """Stage two: store the checked matches of ``records`` (stage one,
    :func:`~tourney.records.checked.check_records`) in the session's transaction.

    Each match is checked against the seating and against what is stored, then
    added, replaced (``options.replace``), found unchanged, or rejected; of
    ``options`` stage two uses ``replace``, ``dry_run``, ``rejects``,
    ``imported_by`` and ``batch_deals``. ``contexts``: the events as stage one was
    given them (each event then read once). Raises :class:`ImportRejected` (the
    caller rolls back) when a match is invalid and ``options.rejects`` is not
    given, or when the file as a whole is unreadable.
    """
    report = ImportReport(file=records.name, source_sha256="", dry_run=options.dry_run)
    report.locate = records.locate
    contexts = contexts if contexts is not None else EventContexts(session)
    store = _MatchStore(session, records, options, contexts, report)
    try:
        for read in records:
            # known before the first match when the file is read in parts (the
            # versions are written with it), else stamped on them at the end
            report.source_sha256 = records.sha256
            store.close(read)
    except RecordError as err:  # the file as a whole: header, encoding, size
        # (the reader names its line and column)
        report.add_error(err)
        report.file_error = True
        report.added = report.replaced = 0
        raise ImportRejected(report, err) from None
    except PartLost as err:  # killed (out of memory?): what was stored goes too
        raise TourneyError(Message(N_("%(file)s: %(problem)s; nothing was imported. Import it "
                                      "again, or in one process"),
                                   {"file": report.file, "problem": str(err)}),
                           setting="jobs") from None
    report.source_sha256 = records.sha256
    report.notices = list(records.notices)
    report.unfilled = records.unfilled
    if store.rejects is not None:
        store.rejects.write(records.columns, None, None)  # the header, even when none rejected
    if report.error_count and not options.skip_invalid:
        report.added = report.replaced = 0
        raise ImportRejected(report)
    if not options.dry_run:
        store.finish()
        report.committed = True
    return report


def import_results(session: Session, source: str | bytes | IO,
                   options: ImportOptions = ImportOptions(), *,
                   name: str | None = None) -> ImportReport:
    """Both stages: import a record file into the session's transaction.

    ``source`` is a path (a CSV in any dialect spreadsheets write, or an XLSX;
    ``-``: standard input), the file's bytes or a stream; ``name`` its name in the
    report and on the versions (default: the path). ``options``: see
    :class:`~tourney.records.checked.ImportOptions`. Raises
    :class:`ImportRejected` as :func:`store_results` does.
    """
    from .arbiter import optional_reason  # the arbiter's rule for every reason

    if options.reason is not None:
        options = dataclasses.replace(options, reason=optional_reason(options.reason))
    contexts = EventContexts(session)
    try:
        records = check_records(source, events=contexts, options=options, name=name)
    except RecordError as err:  # a file that cannot even be opened as records
        report = ImportReport(file=source_name(source, name), source_sha256="",
                              dry_run=options.dry_run)
        report.add_error(err)
        report.file_error = True
        raise ImportRejected(report, err) from None
    return store_results(session, records, options, contexts=contexts)
