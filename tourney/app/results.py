"""Use cases on results: importing a record file, reverting a match; the
arbiter's forfeits and point adjustments.

Import and revert change stored results and then refresh the rating pools of the
variants they changed, in the same transaction. Forfeits and adjustments are the
standings' only (:mod:`tourney.tournament.forfeits`): no match is played, so no
rating changes. Each of them keeps the standings snapshots of the events of a
series it changed (:mod:`tourney.tournament.snapshots`).
"""
from __future__ import annotations

from typing import IO, Callable

from sqlmodel import Session

from ..collector import frozen
from ..errors import TourneyError
from ..ratings import service as ratings
from ..records.validation import nothing_filled_in
from ..tournament import forfeits, results, versions
from ..tournament.events import get_event
from ..tournament.forfeits import AdjustmentInfo, ForfeitReport, adjustments
from ..tournament.results import ImportRejected, ImportReport, current_user
from ..tournament.snapshots import keep_series_snapshots, keeping_snapshots

# An import's collections: the youngest generation every 50,000 allocations
# (tourney.collector): 100,000-row import, storing process 5.8 -> 4.6 s CPU.
BULK_YOUNG = 50_000

__all__ = ["import_results", "revert_result", "ImportReport", "NothingFilledIn",
           "AdjustmentInfo", "ForfeitReport", "adjust_points", "adjustments", "forfeit_table",
           "remove_adjustment"]


class NothingFilledIn(ImportRejected):
    """A score sheet imported as ``tourney round sheet`` wrote it: every row is
    still empty, so there is nothing to import (and saying "added: 0" would read
    as success)."""

    def __init__(self, report: ImportReport):
        error = nothing_filled_in(report.unfilled)
        report.add_error(error)
        self.report, self.file_error = report, None
        TourneyError.__init__(self, f"{report.file}: {error.message}")


def import_results(session: Session, path: str, *, event: str | None = None,
                   replace: bool = False, dry_run: bool = False,
                   rejects: IO[str] | None = None, imported_by: str | None = None,
                   on_progress: Callable[[int], None] | None = None,
                   batch_deals: int = results.BATCH_DEALS, encoding: str | None = None,
                   sheet: str | None = None, jobs: int | None = None) -> ImportReport:
    """Import the record file ``path`` and bring the ratings in step.

    ``event``: the event slug of rows without an ``event`` cell (and the only event
    the file may name). ``replace``: a match whose content differs from the stored
    one becomes a new version (else it is an error). ``dry_run``: check and count,
    write nothing (use a read-only session). ``rejects``: a table writer of
    :mod:`tourney.records.spreadsheets` or a text stream; turns on
    skip-invalid mode (valid matches stored, the rows of rejected ones written
    there with an ``error`` column). ``imported_by``: who imports (default: the
    login name). ``on_progress(bytes_read)`` is called now and then. ``path`` is a
    CSV in any dialect spreadsheets write or an XLSX (``sheet``: which sheet;
    ``encoding`` forces a CSV's); ``-`` is standard input. ``jobs``: processes that
    check a big CSV file, each a part of it (default: one per core; 1: this one).

    Raises :class:`tourney.tournament.results.ImportRejected` (its ``report`` lists
    the errors) when a match is invalid and ``rejects`` is not given, or the file
    cannot be read as records, and :class:`NothingFilledIn` (one) for a score sheet
    with no row filled in; the caller rolls back.
    """
    if event is not None:
        get_event(session, event)  # a mistyped --event: one error, not one per row
    with frozen(young=BULK_YOUNG):
        report = results.import_results(
            session, path, event=event, replace=replace, dry_run=dry_run, rejects=rejects,
            imported_by=imported_by or current_user(), on_progress=on_progress,
            batch_deals=batch_deals, encoding=encoding, sheet=sheet, jobs=jobs)
        if report.unfilled and not report.deals and not report.error_count:
            raise NothingFilledIn(report)
        for variant in report.changed_variants:
            ratings.refresh_after_results(session, variant,
                                          added=report.added_matches.get(variant, ()),
                                          replaced=report.replaced_matches.get(variant, ()))
        if report.changed_variants:
            keep_series_snapshots(session)
    return report


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
