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

from ..engines.presentation import N_, Message, then_words
from ..errors import RecordError
from ..errors.words import quoted
from ..records.csv_format import CONTENT_FIELDS, DealRecord
from ..storage.merges import rename_players
from ..storage.models import Deal, Submission
from .stored_rounds import EventContext, StoredMatch

# The record's columns as a difference names them (the English is the column's name).
FIELD_WORDS = {"players": N_("players"), "dealer": N_("dealer"), "hands": N_("hands"),
               "stock": N_("stock"), "passes": N_("passes"), "play": N_("play"),
               "scores": N_("scores")}


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


PLAY = 1 + CONTENT_FIELDS.index("play")  # a row's play column (after the deal number)


def _score_sheet_stored(session: Session, ctx: EventContext, stored: StoredMatch,
                        first: DealRecord, rows: list[tuple[str, ...]],
                        deals: list[tuple[str, ...]]) -> RecordError | None:
    """A stored score sheet (scores, no moves) against a file with the deals'
    moves: said as that, not as a difference in every column the sheet leaves
    empty; ``None`` for any other pair."""
    if not deals or any(deal[PLAY] for deal in deals) or not any(row[PLAY] for row in rows):
        return None
    at_venue = session.execute(select(Submission.id).where(
        Submission.version_id == stored.version_id)).first() is not None
    said = {"round": first.round, "table": first.table, "event": ctx.event.slug,
            "version": stored.version}
    return RecordError(
        Message(N_("round %(round)s, table %(table)s of %(event)s was entered at the venue "
                   "as a score sheet (version %(version)s: scores, no moves), and this file "
                   "has the moves. Replacing it stores the file's as a new version; the "
                   "score sheet stays in the match history") if at_venue else
                N_("round %(round)s, table %(table)s of %(event)s is stored as a score sheet "
                   "(version %(version)s: scores, no moves), and this file has the moves. "
                   "Replacing it stores the file's as a new version; the score sheet stays "
                   "in the match history"), said),
        rule="match-changed", line=first.line, column="play", setting="replace")


def difference(ctx: EventContext, stored: StoredMatch, first: DealRecord,
               read: list[tuple[int, int, bool, str]], rows: list[tuple[str, ...]],
               deals: list[tuple[str, ...]], said: list[tuple[str, ...]], *,
               session: Session | None = None) -> RecordError:
    """Stored ``deals`` (:func:`stored_rows`) against the file's ``rows``;
    players and dealer quoted as the file ``said`` them. A stored score sheet
    against a file with moves is said as that (``session``: to tell one entered
    at the venue, on a table's phone)."""
    if session is not None:
        sheet = _score_sheet_stored(session, ctx, stored, first, rows, deals)
        if sheet is not None:
            return sheet
    differences: list[Message] = []
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
                differences.append(Message(
                    N_("deal %(deal)s %(column)s: stored %(stored)s, file %(file)s"),
                    {"deal": old[0], "column": Message(FIELD_WORDS[name]),
                     "stored": quoted(_clip(before)), "file": quoted(_clip(now))}))
    if len(deals) != len(rows):
        counts = {"stored": len(deals), "file": len(rows)}
        differences.append(Message(N_("stored %(stored)s deal, the file has %(file)s")
                                   if len(deals) == 1 else
                                   N_("stored %(stored)s deals, the file has %(file)s"), counts))
        column = column or "deal"
    shown: str | Message = differences[0] if differences else ""
    for more in differences[1:5]:
        shown = then_words(shown, more)
    if len(differences) > 5:
        shown = Message(N_("%(shown)s; and %(n)s more"), {"shown": shown, "n": len(differences) - 5})
    return RecordError(
        Message(N_("round %(round)s, table %(table)s of %(event)s is already stored (version "
                   "%(version)s) with other content: %(differences)s. Replacing it stores the "
                   "file's as a new version"),
                {"round": first.round, "table": first.table, "event": ctx.event.slug,
                 "version": stored.version, "differences": shown}),
        rule="match-changed", line=line, column=column, setting="replace")
