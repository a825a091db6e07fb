"""Stage two of a result import, the comparison: a checked match against the
version stored for its table.

Stored deals keep the names as imported. A match stored before a rename or merge
is compared with a file by player: its names are read as the names the players
have now (:func:`~tourney.storage.merges.current_names`), so the same file
imported again, or an export written since, is ``unchanged``, and a difference
quotes the players as the file names them.
"""
from __future__ import annotations

from sqlalchemy import select
from sqlmodel import Session

from ..errors import RecordError
from ..errors.counts import count_text
from ..records.csv_format import CONTENT_FIELDS, DealRecord
from ..storage.merges import rename_players
from ..storage.models import Deal
from .stored_rounds import EventContext, StoredMatch


def _clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def stored_rows(session: Session, stored: StoredMatch, names: dict[str, str]
                ) -> list[tuple[str, ...]]:
    """The stored version's rows as :data:`~tourney.records.checked.CONTENT_COLUMNS` tuples, each
    player under the name they have now (``names``:
    :func:`~tourney.storage.merges.current_names`)."""
    deals = session.execute(
        select(Deal).where(Deal.version_id == stored.version_id).order_by(Deal.number)
    ).scalars().all()
    rows = []
    for deal in deals:
        row = {name: getattr(deal, name) or "" for name in CONTENT_FIELDS}
        row["players"] = rename_players(row["players"], names)
        row["dealer"] = rename_players(row["dealer"], names)
        rows.append((str(deal.number),) + tuple(row[name] for name in CONTENT_FIELDS))
    return rows


def difference(ctx: EventContext, stored: StoredMatch, first: DealRecord,
               read: list[tuple[int, int, bool, str]], rows: list[tuple[str, ...]],
               deals: list[tuple[str, ...]], said: list[tuple[str, ...]]) -> RecordError:
    """Stored ``deals`` (:func:`stored_rows`) against the file's ``rows``;
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
