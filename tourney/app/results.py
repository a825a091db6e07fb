"""Use cases on results: importing a record file, reverting a match; the
arbiter's forfeits and point adjustments.

Import and revert change stored results and then refresh the rating pools of the
variants they changed, in the same transaction. Forfeits and adjustments are the
standings' only (:mod:`tourney.tournament.forfeits`): no match is played, so no
rating changes. Each of them keeps the standings snapshots of the events of a
series it changed (:mod:`tourney.tournament.snapshots`).
"""
from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Iterator

from sqlmodel import Session

from ..collector import BULK_YOUNG, frozen
from ..errors import TourneyError
from ..errors.words import N_, Message
from ..ratings import service as ratings
from ..records.checked import CheckedRecords, ImportOptions, check_records
from ..records.validation import nothing_filled_in
from ..storage.db import session_scope
from ..tournament import forfeits, results, versions
from ..tournament.events import get_event
from ..tournament.forfeits import (
    AdjustmentInfo,
    ForfeitInfo,
    ForfeitReport,
    adjustments,
    list_forfeits,
)
from ..tournament.results import ImportRejected, ImportReport, current_user
from ..tournament.snapshots import keep_series_snapshots, keeping_snapshots
from ..tournament.stored_rounds import EventContexts

__all__ = ["import_results", "store_checked", "refreshing_once", "RefreshLater",
           "check_records", "ImportOptions", "revert_result", "ImportReport", "ImportRejected",
           "NothingFilledIn",
           "AdjustmentInfo", "ForfeitInfo", "ForfeitReport", "adjust_points", "adjustments",
           "forfeit_table", "list_forfeits", "remove_adjustment"]


class NothingFilledIn(ImportRejected):
    """A score sheet imported as ``tourney round sheet`` wrote it: every row is
    still empty, so there is nothing to import (and saying "added: 0" would read
    as success)."""

    def __init__(self, report: ImportReport):
        error = nothing_filled_in(report.unfilled)
        report.add_error(error)
        self.report, self.file_error = report, None
        TourneyError.__init__(self, Message(N_("%(subject)s: %(problem)s"),
                                            {"subject": report.file,
                                             "problem": error.words or error.message}))


def import_results(session: Session, source: str | bytes | IO,
                   options: ImportOptions = ImportOptions(), *,
                   name: str | None = None) -> ImportReport:
    """Import the record file ``source`` (a path, ``-`` for standard input, the
    file's bytes or a stream; ``name``: its name in the report) as ``options``
    say (:class:`~tourney.records.checked.ImportOptions`) and bring the ratings in
    step.

    Raises :class:`tourney.tournament.results.ImportRejected` (its ``report`` lists
    the errors) when a match is invalid and ``options.rejects`` is not given, or the
    file cannot be read as records, and :class:`NothingFilledIn` (one) for a score
    sheet with no row filled in; the caller rolls back.
    """
    if options.event is not None:
        get_event(session, options.event)  # a mistyped --event: one error, not one per row
    if options.imported_by is None:
        options = dataclasses.replace(options, imported_by=current_user())
    with frozen(young=BULK_YOUNG):
        report = results.import_results(session, source, options, name=name)
        return _after_import(session, report)


def store_checked(session: Session, records: CheckedRecords, options: ImportOptions, *,
                  contexts: EventContexts | None = None) -> ImportReport:
    """Stage two alone (the matches checked already, :func:`check_records`) and the
    ratings brought in step; raises as :func:`import_results` does."""
    report = results.store_results(session, records, options, contexts=contexts)
    return _after_import(session, report)


def _after_import(session: Session, report: ImportReport) -> ImportReport:
    if report.unfilled and not report.deals and not report.error_count:
        raise NothingFilledIn(report)
    later = session.info.get(_REFRESH_LATER)
    if later is not None:
        later.changes.append(report)
        return report
    _refresh(session, [report])
    return report


def _refresh(session: Session, reports: list[ImportReport]) -> None:
    """The ratings of the variants ``reports`` changed brought in step, in one
    refresh per variant, and the series' snapshots kept once."""
    added: dict[str, list[int]] = {}
    replaced: dict[str, list[int]] = {}
    mixed: set[str] = set()  # a variant with matches added and replaced
    for report in reports:
        for variant in report.changed_variants:
            added.setdefault(variant, []).extend(report.added_matches.get(variant, ()))
            replaced.setdefault(variant, []).extend(report.replaced_matches.get(variant, ()))
            if variant not in report.added_matches and variant not in report.replaced_matches:
                mixed.add(variant)
    for variant in sorted(added):
        # both kinds at once is neither "only added" nor "only replaced": the refresh
        # then replays from the first match that differs
        both = variant in mixed or (added[variant] and replaced[variant])
        ratings.refresh_after_results(session, variant, added=() if both else added[variant],
                                      replaced=() if both else replaced[variant])
    if added:
        keep_series_snapshots(session)


# session.info key: the imports of a transaction whose refresh waits (refreshing_once)
_REFRESH_LATER = "tourney.refresh_later"


@dataclass
class RefreshLater:
    """The imports stored while :func:`refreshing_once` is open."""

    changes: list[ImportReport] = field(default_factory=list)

    def mark(self) -> int:
        return len(self.changes)

    def undo_since(self, mark: int) -> None:
        """Forget the imports since ``mark``: their part of the transaction was
        rolled back (a savepoint), so there is nothing of theirs to rate."""
        del self.changes[mark:]


@contextmanager
def refreshing_once(session: Session) -> Iterator[RefreshLater]:
    """Results imported inside (:func:`store_checked`, :func:`import_results`) are
    rated, and the series' snapshots kept, once, when the block ends: many tables'
    results stored in one transaction (``tourney serve``'s group commit) cost one
    ratings refresh, not one each. Nothing is refreshed if the block raises (the
    caller rolls back)."""
    with session_scope(session, _REFRESH_LATER, RefreshLater()) as later:
        yield later
    _refresh(session, later.changes)


def revert_result(session: Session, slug: str, round_number: int, table: str,
                  version: int, *, actor: str | None = None) -> bool:
    """Make stored ``version`` of a match (event ``slug``, round, table) current
    again and refresh the ratings; False when it is already current (nothing
    changed)."""
    changed = versions.revert_match(session, slug, round_number, table, version, actor=actor)
    if changed:
        event = get_event(session, slug)
        match = versions.find_match(session, event, round_number, table)
        # Another version made current: to the ratings, a correction of this match.
        ratings.refresh_after_results(session, event.variant, replaced=[match.id])
        keep_series_snapshots(session, [event.id])
    return changed


forfeit_table = keeping_snapshots(forfeits.forfeit_table)
adjust_points = keeping_snapshots(forfeits.adjust_points)
remove_adjustment = keeping_snapshots(forfeits.remove_adjustment)
