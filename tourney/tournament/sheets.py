"""Score-sheet templates: the rows a scorer fills in on a club night without move
records (docs/guide/records.md, "Score sheets").

For every table of a seated round: one row per deal with event, variant, round,
table, deal, players and dealer filled in and ``scores`` left to fill. Where the
event fixes the number of deals (``deals``/``games``), that many rows; where the
match ends by a target or by losses, ``deals`` rows (the scorer leaves the rows of
deals not played empty: rows with nothing in play, scores and hands are skipped on
import and validation).

Dealers follow the event's dealer rule: clockwise rotation is filled in for every
row; with ``loser-deals`` or ``free`` only deal 1's dealer is known in advance and
the scorer writes the others. In ``dam-brade`` colours alternate, so each game's
players are the previous game's reversed.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from sqlmodel import Session

from ..engines.base import MatchRules
from ..records.csv_format import DealRecord
from ..storage.models import Event
from .rounds import seated_tables
from .settings import event_settings

# Rows per table where the match ends by a target or by losses: enough for most
# club matches; unfilled rows are skipped on import.
OPEN_ENDED_ROWS = 8

T = TypeVar("T")


def sheet_rows_per_table(rules: MatchRules, deals: int | None = None) -> int:
    """Rows per table: the event's fixed number of deals, else ``deals``, else
    :data:`OPEN_ENDED_ROWS`."""
    return rules.deals or deals or OPEN_ENDED_ROWS


def sheet_deals(seats: Sequence[T], rules: MatchRules,
                rows: int) -> list[tuple[int, list[T], T | None]]:
    """Per row of a table's sheet: the deal number, the seats in that deal's order
    (reversed every game where colours alternate) and the dealer where known in
    advance (clockwise rotation: every deal; otherwise only deal 1's)."""
    out = []
    order = list(seats)
    for deal in range(1, rows + 1):
        if rules.alternate_colours and deal > 1:
            order = list(reversed(order))
        dealer = None
        if rules.dealer is not None and (deal == 1 or rules.dealer == "rotate"):
            dealer = order[(deal - 1) % len(order)]
        out.append((deal, order, dealer))
    return out


def score_sheet_rows(session: Session, event: Event, number: int,
                     deals: int | None = None) -> list[DealRecord]:
    settings = event_settings(event)
    game = settings.game
    rules = game.match_rules(settings.options)
    rows_per_table = sheet_rows_per_table(rules, deals)
    records = []
    for table, players in seated_tables(session, event, number).items():
        for deal, seats, dealer in sheet_deals([p.name for p in players], rules, rows_per_table):
            records.append(DealRecord(
                line=0, event=event.slug, variant=event.variant, round=number,
                table=table, deal=deal, players=seats, dealer=dealer, play=[],
            ))
    return records
