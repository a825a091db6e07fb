"""A predefined seating from a file (``tourney round import``), issue 31: a club's
own schedule, checked against the event's table sizes and entries.

The file (CSV as spreadsheets save it, or XLSX; ``-`` is standard input) has a
header with ``table`` and ``player`` columns and optionally ``seat``: one row per
player. Rows of one table are seated in file order unless ``seat`` numbers them
(1 deals first). A table cell ``bye`` (any case) gives the player a bye.

Decisions:

- The round is the next to be seated (once every table of the latest has a
  result, unless forced, as ``round seat``), or the latest seated round while none
  of its results is in (its seating is replaced, as by a reseat).
- Every player who can play the round (entered, not withdrawn, not marked absent,
  checked in when the event asks for it) is in the file once; no one else is.
- Each table seats the event's table sizes (forced: the variant's player counts).
- Every problem is listed, each naming the file, line (or sheet and cell), column
  and player; any problem stores nothing.
- The round's constraints are not applied (the file decides) but what it breaks
  of them is said, as for any seating.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from ..engines import get_game
from ..errors import RecordError, Remedy, SettingWay, TourneyError, UsageError, in_file
from ..errors.words import N_, Message, quoted
from ..ordering import table_order
from ..pairing.history import EventHistory
from ..person_names import normalize_name
from ..records.csv_format import ragged_row_message
from ..storage.audit import record_change
from ..storage.models import Event, Round, Seat, utcnow
from .arbiter import absent_players
from .events import active_players, all_rounds_seated, last_seated_round, lock_event
from .players import player_by_name, resolve_merged, unknown_player_error
from .rounds import RoundSeating, get_round, history, missing_results, round_seating
from .seat_changes import played_tables

COLUMNS = ("table", "seat", "player")
BYE = "bye"
MAX_ROWS = 10_000
MAX_LABEL = 20


class SeatingFileRejected(TourneyError):
    """A seating file with problems: nothing is stored. ``errors``: each problem
    (a :class:`~tourney.errors.RecordError` naming the file, line or cell, column
    and player)."""

    def __init__(self, file: str, errors: list[RecordError]):
        self.file = file
        self.errors = errors
        self.error_count = len(errors)
        super().__init__(Message(N_("%(file)s: the seating is not imported: 1 problem in "
                                    "the file") if len(errors) == 1 else
                                 N_("%(file)s: the seating is not imported: %(count)s problems "
                                    "in the file"), {"file": file, "count": len(errors)}))


@dataclass
class _Row:
    line: int
    table: str | None  # None: a bye
    seat: int | None
    player_id: int
    name: str


def import_seating(session: Session, event: Event, number: int, path: str, *,
                   force: bool = False, sheet: str | None = None,
                   encoding: str | None = None) -> RoundSeating:
    """Seat round ``number`` as the file ``path`` says (see the module)."""
    from ..records.sources import open_source

    lock_event(session, event)
    last = last_seated_round(session, event)
    replace = number == last and last > 0
    if number not in (last, last + 1) or number < 1:
        raise UsageError(Message(N_("round %(round)s of %(event)s cannot be imported: the "
                                    "next round to seat is %(next)s (or round %(last)s, "
                                    "seated, while none of its results is in)") if last else
                                 N_("round %(round)s of %(event)s cannot be imported: the "
                                    "next round to seat is %(next)s"),
                                 {"round": number, "event": event.slug, "next": last + 1,
                                  "last": last}))
    if event.rounds is not None and number > event.rounds:
        raise TourneyError(all_rounds_seated(event))
    if replace and played_tables(session, event, number):
        raise TourneyError(Message(N_("round %(round)s of %(event)s cannot be seated again: "
                                      "results are in"), {"round": number, "event": event.slug}))
    if not replace and last and not force:
        missing = missing_results(session, event, last)
        if missing:
            raise TourneyError(Message(
                N_("round %(round)s of %(event)s has no result yet for table %(tables)s; "
                   "import it first") if len(missing) == 1 else
                N_("round %(round)s of %(event)s has no result yet for tables %(tables)s; "
                   "import them first"),
                {"round": last, "event": event.slug, "tables": list(missing)}),
                setting="force",
                remedy=Remedy("import-results"), setting_way=SettingWay("seat-anyway", round=number))
    name = "<stdin>" if path == "-" else str(path)
    source = open_source(str(path), encoding=encoding, sheet=sheet)
    errors: list[RecordError] = []
    with source:
        rows = _read(session, event, number, source, name, errors)
    _check(session, event, number, rows, name, errors, force, source)
    if errors:
        raise SeatingFileRejected(name, errors)
    tables: dict[str, list[_Row]] = {}
    byes = []
    for row in rows:
        if row.table is None:
            byes.append(row)
        else:
            tables.setdefault(row.table, []).append(row)
    ordered = {label: [r.player_id for r in sorted(
        members, key=lambda r: (r.seat if r.seat is not None else 0, r.line))]
        for label, members in sorted(tables.items(), key=lambda kv: table_order(kv[0]))}
    before = None
    if replace:
        row = get_round(session, event, number)
        before = round_seating(session, event, number).to_json()
        for seat in session.exec(select(Seat).where(Seat.round_id == row.id)).all():
            session.delete(seat)
        session.flush()
        row.seated_at = utcnow()
    else:
        row = Round(event_id=event.id, number=number)
    row.repeated_pairs = EventHistory(history(session, event, number)).repeated_pairs(
        ordered.values())
    session.add(row)
    session.flush()
    for label, keys in ordered.items():
        for seat, key in enumerate(keys):
            session.add(Seat(round_id=row.id, player_id=key, table=label, seat=seat))
    for bye in byes:
        session.add(Seat(round_id=row.id, player_id=bye.player_id, table=None, seat=None))
    session.flush()
    seating = round_seating(session, event, number)
    seating.method = "imported"
    after = {**seating.to_json(), "file": name}
    if seating.unmet:
        after["unmet"] = seating.unmet
    record_change(session, "round.import", f"{event.slug} round {number}", before, after,
                  event_id=event.id)
    return seating


def _read(session, event, number, source, name, errors) -> list[_Row]:
    def refuse(line, message, column=None, player=None):
        errors.append(RecordError(message, rule="seating-file", file=name, line=line,
                                  column=column, player=player,
                                  cell=source.cell(line, column) if line else None))

    table_rows = source.rows(known=COLUMNS)
    header = table_rows.read_header()
    if header is None or not any(h.strip() for h in header):
        raise UsageError(Message(N_("%(file)s: no header line (it needs table and player "
                                    "columns)"), {"file": name}))
    columns = [h.strip().lower() for h in header]
    unknown = [h for h, c in zip(header, columns) if c not in COLUMNS]
    if unknown:
        raise in_file(UsageError, name, Message(N_("unknown column %(column)s; a seating file "
                                                   "has table, player and optionally seat"),
                                                {"column": quoted(unknown[0][:40])}), line=1)
    for column, missing in (("table", N_("no table column")),
                            ("player", N_("no player column"))):
        if column not in columns:
            raise in_file(UsageError, name, Message(missing), line=1)
    if len(set(columns)) != len(columns):
        raise in_file(UsageError, name, Message(N_("a column appears twice")), line=1)
    source.set_columns(columns)
    out: list[_Row] = []
    seen: dict[int, int] = {}
    for line, values in table_rows:
        if not any(v.strip() for v in values):
            continue
        if len(out) + len(errors) > MAX_ROWS:
            raise in_file(TourneyError, name, Message(N_("more than %(most)s rows; not a "
                                                         "seating"), {"most": MAX_ROWS}),
                          line=line)
        if len(values) != len(columns):
            refuse(line, ragged_row_message(values, len(columns)))
            continue
        cells = dict(zip(columns, values))
        player_name = normalize_name(cells["player"])
        if not player_name:
            refuse(line, Message(N_("no player named")), "player")
            continue
        label = cells["table"].strip()
        table = None if label.casefold() in (BYE, "") else label
        if table is not None and len(table) > MAX_LABEL:
            refuse(line, Message(N_("a table label is at most %(most)s characters"),
                                 {"most": MAX_LABEL}), "table", player_name)
            continue
        seat = None
        if cells.get("seat", "").strip():
            text = cells["seat"].strip()
            if not text.isdigit() or not 1 <= int(text) <= 100:
                refuse(line, Message(N_("a seat is a number from 1, not %(text)s"),
                                     {"text": quoted(text[:20])}), "seat", player_name)
                continue
            seat = int(text)
        player = player_by_name(session, player_name)
        if player is None:
            unknown = unknown_player_error(session, player_name)
            refuse(line, unknown.words or str(unknown), "player", player_name)
            continue
        player = resolve_merged(session, player)
        if player.id in seen:
            refuse(line, Message(N_("%(player)s is on line %(line)s already"),
                                 {"player": player.name, "line": seen[player.id]}), "player",
                   player.name)
            continue
        seen[player.id] = line
        out.append(_Row(line, table, seat, player.id, player.name))
    return out


def _check(session, event, number, rows, name, errors, force, source) -> None:
    from .evening import seatable

    def refuse(line, message, column=None, player=None):
        errors.append(RecordError(message, rule="seating-file", file=name, line=line,
                                  column=column, player=player,
                                  cell=source.cell(line, column) if line else None))

    playing = seatable(session, event, active_players(session, event, number))
    absent = absent_players(session, event, number)
    can_play = {p.id: p for p in playing if p.id not in absent}
    for row in rows:
        if row.player_id not in can_play:
            refuse(row.line, Message(
                N_("%(player)s cannot play round %(round)s of %(event)s: is marked absent "
                   "from it") if row.player_id in absent else
                N_("%(player)s cannot play round %(round)s of %(event)s: is not entered, has "
                   "withdrawn or is not checked in"),
                {"player": row.name, "round": number, "event": event.slug}), "player",
                row.name)
    listed = {row.player_id for row in rows}
    missing = sorted(p.name for pid, p in can_play.items() if pid not in listed)
    if missing:
        errors.append(RecordError(
            Message(N_("not in the file: %(players)s; every player of round %(round)s is "
                       "seated or has a bye, unless marked absent"),
                    {"players": list(missing), "round": number}),
            rule="seating-file", file=name,
            remedy=Remedy("mark-absent", event=event.slug, round=number,
                          player=missing[0] if len(missing) == 1 else None)))
    game = get_game(event.variant)
    tables: dict[str, list] = {}
    for row in rows:
        if row.table is not None:
            tables.setdefault(row.table, []).append(row)
    for label, members in tables.items():
        first = members[0]
        size = len(members)
        low, high = (game.min_players, game.max_players) if force else (
            event.table_min, event.table_max)
        if not low <= size <= high:
            allowed = f"{low}" if low == high else f"{low}-{high}"
            refuse(first.line, Message(
                N_("table %(table)s seats %(count)s; the variant's tables seat %(allowed)s")
                if force else
                N_("table %(table)s seats %(count)s; the event's (forced: the variant's) "
                   "tables seat %(allowed)s"),
                {"table": label, "count": size, "allowed": allowed}), "table", first.name)
        seats = [r.seat for r in members]
        if any(s is not None for s in seats):
            if sorted(s or 0 for s in seats) != list(range(1, size + 1)):
                odd = next(r for r in members if r.seat is None or r.seat > size
                           or seats.count(r.seat) > 1)
                refuse(odd.line, Message(N_("table %(table)s's seats are numbered 1 to "
                                            "%(count)s, each once"),
                                         {"table": label, "count": size}), "seat", odd.name)
