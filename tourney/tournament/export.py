"""Exporting an event's results as the record CSV (docs/guide/records.md).

The export writes the current version of every match, in round order and natural
table order, deal by deal, in the canonical spelling the importer stored, with the
event and variant columns filled and the computed scores written, and every
player under the name they have now (a renamed or merged player's deals were
stored under the old name). Importing an
export back is a no-op (every match ``unchanged``), and the export passes
``tourney validate`` with the event's rules.

Files are written for spreadsheets (:mod:`tourney.records.spreadsheets`): a cell
that a spreadsheet would run as a formula (a player named ``=cmd|...``, scores
``-100;130;60;50``) is written with a leading apostrophe, which every reader takes
off again, so the round trip holds.
"""
from __future__ import annotations

from typing import Iterator

from sqlalchemy import select
from sqlmodel import Session

from ..ordering import natural_key
from ..records.csv_format import COLUMNS, typed_record
from ..storage.merges import current_names, rename_players
from ..storage.models import Deal, Event, Match
from .events import get_event
from .standings import check_round_number

EXPORT_CHUNK = 500  # matches whose deals are read in one query
# XLSX column widths (characters) for COLUMNS: hands and play are long.
EXPORT_WIDTHS = (12, 12, 7, 7, 6, 30, 12, 40, 20, 24, 60, 16)


def iter_export_rows(session: Session, event: Event, round_number: int | None = None
                     ) -> Iterator[dict[str, str]]:
    """The event's current deals as record rows (dicts keyed by column)."""
    query = select(Match.id, Match.round_number, Match.table, Match.current_version_id) \
        .where(Match.event_id == event.id, Match.current_version_id.is_not(None))
    if round_number is not None:
        query = query.where(Match.round_number == round_number)
    matches = sorted(session.execute(query).all(), key=lambda m: (m[1], natural_key(m[2])))
    names = current_names(session)  # stored deals keep the names as imported
    for start in range(0, len(matches), EXPORT_CHUNK):
        chunk = matches[start:start + EXPORT_CHUNK]
        by_version: dict[int, list[Deal]] = {}
        deals = session.execute(select(Deal).where(
            Deal.version_id.in_([m[3] for m in chunk])).order_by(Deal.version_id, Deal.number))
        for deal in deals.scalars():
            by_version.setdefault(deal.version_id, []).append(deal)
        for _match_id, number, table, version_id in chunk:
            for deal in by_version.get(version_id, []):
                yield {
                    "event": event.slug, "variant": event.variant, "round": str(number),
                    "table": table, "deal": str(deal.number),
                    "players": rename_players(deal.players, names),
                    "dealer": rename_players(deal.dealer, names) or "", "hands": deal.hands, "stock": deal.stock,
                    "passes": deal.passes, "play": deal.play, "scores": deal.scores,
                }
        session.expunge_all()  # keep memory flat on a big event


def export_results(session: Session, slug: str, table, round_number: int | None = None) -> int:
    """Write an event's results (or one round's: a round the event has, else the
    :class:`~tourney.errors.UnknownName` of :func:`~.standings.check_round_number`)
    to ``table`` (a table writer of :mod:`tourney.records.spreadsheets` or anything
    with its ``write(row)``, its header :data:`COLUMNS`; or a text stream, for
    CSV); the number of rows."""
    import io

    from ..records.spreadsheets import CsvTable

    if isinstance(table, io.IOBase):
        table = CsvTable(table, COLUMNS, bom=False)
    event = get_event(session, slug)
    if round_number is not None:
        check_round_number(session, event, round_number)
    count = 0
    for row in iter_export_rows(session, event, round_number):
        # round and deal as numbers, as a spreadsheet types them (typed_record)
        table.write(list(typed_record(row).values()))
        count += 1
    return count
