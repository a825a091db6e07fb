"""Rounds: seating the next round, showing a round, reseating it.

Seating is done by :func:`tourney.pairing.seating.seat_round` from the players
active in the round (late entries and withdrawals applied), every earlier round of
the event as history, the standings so far (points and rank, for Swiss pairing and
byes) and the event's seed. Tables are labelled ``"1"``, ``"2"``, ... in the order
the seating returns them; a bye is a seat row without a table.

Decisions:

- Round N + 1 is seated only when every table of round N has a result, unless
  ``force=True`` (``--force``): Swiss pairing and byes depend on the results.
- A round can be reseated only while it is the latest round and none of its
  results is in; the reseat uses the players active now (so a late arrival or a
  withdrawal can be taken into account) and the event's seed unless another is
  given. The audit log keeps the seating it replaced.
- ``dealer`` in the seating data is always seat 0 (docs/guide/rules.md, "Common
  ground": seat 0 deals the first deal; in dam-brade, which has no dealer, seat 0
  plays Black first).
- Points and places so far come from
  :func:`tourney.tournament.standings.standings_table`.
- A seated round that still seats a player who has since withdrawn (at a table
  without a result, or with a bye) says so (``RoundSeating.withdrawn``): such a
  table cannot be imported as seated, and a bye would still give its points.
  While the round can be reseated that is the way out; score sheets and table
  links of such a seating are refused unless forced
  (:func:`check_no_withdrawn`).
- Seating or reseating a round that gives more than one player a bye warns
  (``RoundSeating.warnings``), naming them and the changes that would help that
  the event can still take (:func:`bye_warning`).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import insert
from sqlmodel import Session, select

from ..engines import get_game
from ..engines.presentation import N_, Message
from ..errors import Advice, Remedy, SettingWay, TourneyError, no_round
from ..errors.words import and_words
from ..ordering import name_key, name_order, table_order
from ..pairing.history import Entrant, PastRound
from ..storage.audit import record_change
from ..storage.models import Entry, Event, Forfeit, Match, Player, Round, Seat, utcnow
from .arbiter import absent_players, event_constraints, unmet_report
from .events import (
    active_players,
    all_rounds_seated,
    change_refusals,
    drop_withdrawn_unseated,
    entry_active,
    last_seated_round,
    lock_event,
    preferred_size,
    results_by_round,
)
from .scoring import event_bye_points
from .standings import standings_table


@dataclass
class SeatedTable:
    table: str
    seats: list[str]  # names, seat 0 first

    @property
    def dealer(self) -> str | None:
        return self.seats[0] if self.seats else None


@dataclass(frozen=True)
class WithdrawnSeat:
    """A player seated in a round they no longer play (they withdrew), at a table
    without a result (``table``) or with a bye (``table`` None)."""

    name: str
    table: str | None

    def to_json(self) -> dict:
        return {"name": self.name, "table": self.table}


@dataclass
class RoundSeating:
    """A seated round, by name."""

    event: str
    number: int
    tables: list[SeatedTable]
    byes: list[str]
    repeated_pairs: int
    seated_at: dt.datetime | None = None
    results: set[str] = field(default_factory=set)  # tables whose result is in
    method: str = ""
    lang: str | None = None  # the event's language: how names sort
    # players seated here who withdrew since (see the module's decisions)
    withdrawn: list[WithdrawnSeat] = field(default_factory=list)
    # whether the round can be reseated: the latest round, none of its results in
    reseatable: bool = False
    # what seating (or reseating) it has to say: bye_warning's
    warnings: list[dict] = field(default_factory=list)
    # a reseat's: players who withdrew before playing, no longer entered now
    no_longer_entered: list[str] = field(default_factory=list)
    # the event's seating constraints this seating breaks, each with why
    # (:func:`tourney.tournament.arbiter.unmet_report`)
    unmet: list[dict] = field(default_factory=list)
    # the players marked absent from the round (`tourney round absent`), by name
    absent: list[str] = field(default_factory=list)
    # the players the round left out because the event requires check-in, by name:
    # those not checked in, and those who checked in only after it was seated (a
    # reseat seats them, else the next round does); see _left_out_by_checkin
    not_checked_in: list[str] = field(default_factory=list)
    checked_in_late: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "round": self.number,
            "tables": [{"table": t.table, "seats": list(t.seats), "dealer": t.dealer}
                       for t in self.tables],
            "byes": list(self.byes),
            "repeated_pairs": self.repeated_pairs,
        }

    def by_name(self, lang: str | None = None) -> list[tuple[str, str | None, int | None]]:
        """(name, table, seat index) for every player, alphabetical in the event's
        language, else ``lang`` (:func:`tourney.ordering.name_key`); byes have
        ``None`` for table and seat."""
        lang = self.lang or lang
        rows: list[tuple[str, str | None, int | None]] = []
        for table in self.tables:
            for index, name in enumerate(table.seats):
                rows.append((name, table.table, index))
        rows.extend((name, None, None) for name in self.byes)
        return sorted(rows, key=lambda r: name_key(r[0], lang))


# ------------------------------------------------------------------------- reading

def get_round(session: Session, event: Event, number: int) -> Round:
    row = session.exec(select(Round).where(Round.event_id == event.id,
                                           Round.number == number)).first()
    if row is None:
        raise no_round(event.slug, number, last_seated_round(session, event))
    return row


def seated_keys(session: Session, round_row: Round) -> tuple[dict[str, list[int]], list[int]]:
    """Table label -> player ids in seat order, and the byes, of a seated round."""
    # columns, not Seat objects: a league round has tens of thousands of seats
    seats = session.execute(select(Seat.table, Seat.seat, Seat.player_id)
                            .where(Seat.round_id == round_row.id)).all()
    tables: dict[str, list[tuple[int, int]]] = {}
    byes = []
    for table, seat, player_id in seats:
        if table is None:
            byes.append(player_id)
        else:
            tables.setdefault(table, []).append((seat or 0, player_id))
    ordered = {label: [pid for _, pid in sorted(tables[label])]
               for label in sorted(tables, key=table_order)}
    return ordered, sorted(byes)


def seated_tables(session: Session, event: Event, number: int) -> dict[str, list[Player]]:
    """Table label -> the players in seat order, for a seated round (for result
    import: who should be at which table)."""
    tables, _ = seated_keys(session, get_round(session, event, number))
    players = _players_by_id(session, [pid for keys in tables.values() for pid in keys])
    return {label: [players[pid] for pid in keys] for label, keys in tables.items()}


def _players_by_id(session: Session, ids) -> dict[int, Player]:
    ids = list(set(ids))
    if not ids:
        return {}
    return {p.id: p for p in session.exec(select(Player).where(Player.id.in_(ids)))}


def _names_of(session: Session, ids) -> list[str]:
    return [p.name for p in _players_by_id(session, ids).values()]


def round_seating(session: Session, event: Event, number: int) -> RoundSeating:
    row = get_round(session, event, number)
    tables, byes = seated_keys(session, row)
    players = _players_by_id(session, [*byes, *(p for t in tables.values() for p in t)])
    names = {pid: p.name for pid, p in players.items()}
    results = results_by_round(session, event)
    done = results.get(number, set())
    # Seated here but not playing this round: withdrawn before it (or no longer
    # entered at all), at a table still to be played or with a bye.
    entered = {e.player_id: e for e in session.exec(
        select(Entry).where(Entry.event_id == event.id))}
    gone = {pid for pid in names
            if pid not in entered or not entry_active(entered[pid], number)}
    order = name_order(event.lang)
    missing, late = _left_out_by_checkin(session, event, row, set(names))
    withdrawn = sorted(
        [WithdrawnSeat(names[pid], label) for label, keys in tables.items()
         if label not in done for pid in keys if pid in gone]
        + [WithdrawnSeat(names[pid], None) for pid in byes if pid in gone],
        key=lambda w: order(w.name))
    return RoundSeating(
        event=event.slug, number=number,
        tables=[SeatedTable(label, [names[pid] for pid in keys]) for label, keys in tables.items()],
        byes=sorted((names[pid] for pid in byes), key=order),
        repeated_pairs=row.repeated_pairs, seated_at=row.seated_at,
        results=done, lang=event.lang, withdrawn=withdrawn,
        reseatable=number == last_seated_round(session, event) and not done,
        unmet=unmet_report(session, event, tables, byes),
        absent=sorted(_names_of(session, absent_players(session, event, number)), key=order),
        not_checked_in=sorted(missing, key=order), checked_in_late=sorted(late, key=order),
    )


def _left_out_by_checkin(session: Session, event: Event, row: Round,
                         seated: set[int]) -> tuple[list[str], list[str]]:
    """The players who could play round ``row.number`` (not withdrawn, not marked
    absent) but are not seated in it because the event requires check-in, in two:
    those not checked in, and those who checked in after the round was seated
    (``row.seated_at``). A player who was checked in by then and is not seated
    (entered after the seating, or substituted out) is in neither: check-in is not
    why."""
    # check-in, when the event requires it
    from .evening import checked_in_after, entry_marks, event_options
    if not event_options(session, event).checkin:
        return [], []
    absent = absent_players(session, event, row.number)
    marks = entry_marks(session, event)
    missing, late = [], []
    for player in active_players(session, event, row.number):
        if player.id in seated or player.id in absent:
            continue
        mark = marks.get(player.id)
        if mark is None or mark.checked_in_at is None:
            missing.append(player.name)
        elif checked_in_after(mark, row.seated_at):
            late.append(player.name)
    return missing, late


def withdrawn_words(withdrawn: list[WithdrawnSeat]) -> Message:
    """``Bo (table 2)``, ``Bo (table 2) and Cilla (bye)``, as words a page says in
    its language."""
    return and_words(
        Message(N_("%(player)s (bye)"), {"player": w.name}) if w.table is None else
        Message(N_("%(player)s (table %(table)s)"), {"player": w.name, "table": w.table})
        for w in withdrawn)


def withdrawn_note(seating: RoundSeating, slug: str) -> Advice | None:
    """What to do about a round that seats players who withdrew (``None``: it
    seats none): reseat it, or, once a result is in, enter them again."""
    if not seating.withdrawn:
        return None
    said = {"round": seating.number, "event": slug, "who": withdrawn_words(seating.withdrawn)}
    if seating.reseatable:
        return Advice(Message(N_("round %(round)s of %(event)s seats %(who)s, who withdrew: "
                                 "reseating it seats it again without them"), said),
                      Remedy("reseat-round", event=slug, round=seating.number))
    at_tables = sorted({w.table for w in seating.withdrawn if w.table is not None},
                       key=table_order)
    if not at_tables:
        return None  # only byes, and the round can no longer be reseated: they stand
    done = ", ".join(sorted(seating.results, key=table_order))
    enter = tuple(w.name for w in seating.withdrawn if w.table is not None)
    tables = {"tables": ", ".join(at_tables)}
    return Advice(Message(
        N_("round %(round)s of %(event)s seats %(who)s, who withdrew, and cannot be reseated "
           "(results are in for %(done)s): %(playable)s"),
        {**said,
         "done": Message(N_("table %(tables)s") if len(seating.results) == 1 else
                         N_("tables %(tables)s"), {"tables": done}),
         "playable": Message(
             N_("table %(tables)s can be played as seated only if entering them again "
                "takes the withdrawal back") if len(at_tables) == 1 else
             N_("tables %(tables)s can be played as seated only if entering them again "
                "takes the withdrawal back"), tables)}),
        Remedy("enter-players", event=slug, players=enter))


def check_no_withdrawn(session: Session, event: Event, number: int,
                       anyway: SettingWay) -> None:
    """Refuse a round whose seating seats a player who withdrew at a table still to
    be played (or, while the round can be reseated, with a bye: the reseat seats
    every table anew), naming them and the reseat; ``anyway`` says what the
    caller's ``force`` does (``write-sheet-anyway``)."""
    seating = round_seating(session, event, number)
    at_tables = [w for w in seating.withdrawn if w.table is not None]
    if not at_tables and not (seating.withdrawn and seating.reseatable):
        return
    said = {"round": number, "event": event.slug,
            "who": withdrawn_words(seating.withdrawn if seating.reseatable else at_tables)}
    if seating.reseatable:
        raise TourneyError(
            Message(N_("round %(round)s of %(event)s seats %(who)s, who withdrew: their "
                       "table cannot be played as seated; reseat the round first"), said),
            setting="force",
            remedy=Remedy("reseat-round", event=event.slug, round=number), setting_way=anyway)
    raise TourneyError(
        Message(N_("round %(round)s of %(event)s seats %(who)s, who withdrew, and results "
                   "are in, so it cannot be reseated: take the withdrawal back"), said),
        setting="force",
        remedy=Remedy("enter-players", event=event.slug,
                      players=tuple(w.name for w in at_tables)), setting_way=anyway)


def history(session: Session, event: Event, before: int) -> list[PastRound]:
    """Rounds 1 .. before-1 as the seating module takes them."""
    rows = session.exec(select(Round).where(Round.event_id == event.id, Round.number < before)
                        .order_by(Round.number)).all()
    past = []
    for row in rows:
        tables, byes = seated_keys(session, row)
        past.append(PastRound(tables=list(tables.values()), byes=byes))
    return past


# ------------------------------------------------------------------------- standings

def standings_points(session: Session, event: Event) -> dict[int, tuple[float, int]]:
    """Player id -> (match points, place) from the standings so far."""
    return {row.player_id: (float(row.points), row.place)
            for row in standings_table(session, event)}


# ------------------------------------------------------------------------- seating

def _seat(session: Session, event: Event, number: int, seed: int) -> tuple[list[list[int]], list[int], int, str]:
    players = active_players(session, event, number)
    from .evening import seatable  # check-in, when the event requires it
    players = seatable(session, event, players)
    absent = absent_players(session, event, number)  # `tourney round absent`
    players = [p for p in players if p.id not in absent]
    if len(players) < event.table_min:
        said = {"count": len(players), "round": number, "event": event.slug,
                "least": event.table_min}
        raise TourneyError(
            Message(N_("no player can play in round %(round)s of %(event)s; a table needs "
                       "%(least)s; enter players first"), said) if not players else
            Message(N_("only 1 player can play in round %(round)s of %(event)s; a table "
                       "needs %(least)s"), said) if len(players) == 1 else
            Message(N_("only %(count)s players can play in round %(round)s of %(event)s; a "
                       "table needs %(least)s"), said),
            remedy=None if players else Remedy("enter-players"))
    past = history(session, event, number)
    byes_had: dict[int, int] = {}
    for round_ in past:
        for key in round_.byes:
            byes_had[key] = byes_had.get(key, 0) + 1
    points = standings_points(session, event) if number > 1 else {}
    entrants = [Entrant(key=p.id, points=points.get(p.id, (0.0, 0))[0],
                        rank=points.get(p.id, (0.0, 0))[1], byes=byes_had.get(p.id, 0))
                for p in players]
    constraints = event_constraints(session, event)
    # the seating search (every planner): loaded by the commands that seat, not by the
    # many that only read seated tables (publish, round show, score sheets)
    from ..pairing.seating import seat_round

    seating = seat_round(entrants, past, min_size=event.table_min, max_size=event.table_max,
                         preferred=event.table_preferred, method=event.seating, seed=seed,
                         round_number=number, total_rounds=event.rounds,
                         constraints=constraints.for_seating() if constraints else None)
    return seating.tables, seating.byes, seating.repeated_pairs, seating.method


def _store(session: Session, round_row: Round, tables: list[list[int]], byes: list[int]) -> None:
    # one bulk insert of plain rows (a Seat object each cost more than the seating
    # search at 16,000 players)
    rows = [{"round_id": round_row.id, "player_id": key, "table": str(index), "seat": seat}
            for index, keys in enumerate(tables, 1) for seat, key in enumerate(keys)]
    rows += [{"round_id": round_row.id, "player_id": key, "table": None, "seat": None}
             for key in byes]
    session.flush()
    if rows:
        session.execute(insert(Seat), rows)


def _seat_into(session: Session, event: Event, row: Round, seed: int) -> RoundSeating:
    """Seat round ``row.number`` with ``seed``, store the seats on ``row`` (new or
    emptied), and read the seating back."""
    tables, byes, repeated, method = _seat(session, event, row.number, seed)
    row.repeated_pairs = repeated
    session.add(row)
    session.flush()
    _store(session, row, tables, byes)
    seating = round_seating(session, event, row.number)
    seating.method = method
    return seating


def fewer_byes_sizes(event: Event, players: int) -> tuple[int, int, int] | None:
    """The table sizes closest to the event's (min, max, and the byes they leave)
    that the variant allows and that leave fewer byes for ``players`` than the
    event's sizes do; ``None`` when no allowed sizes do better."""
    from ..pairing.seating import plan_table_sizes  # (see _seat)

    game = get_game(event.variant)
    _, byes = plan_table_sizes(players, event.table_min, event.table_max,
                               event.table_preferred)
    best = None
    for low in range(game.min_players, event.table_min + 1):
        for high in range(event.table_max, game.max_players + 1):
            _, left = plan_table_sizes(players, low, high, preferred_size(game, low, high))
            widened = (event.table_min - low) + (high - event.table_max)
            key = (left, widened, -low)
            if left < byes and (best is None or key < best[0]):
                best = (key, (low, high, left))
    return best[1] if best else None


def bye_warning(session: Session, event: Event, seating: RoundSeating) -> dict | None:
    """A warning for a round that gives more than one player a bye (each worth a
    win by default), as data a caller words (the command line, the organizer's
    page): the players, what a bye is worth, the players seated and the event's
    table sizes, and what would help that the event can still take: other table
    sizes (``table_sizes``: "3-4", then a reseat; ``byes_left``: the byes they
    leave) and, while no round that gave byes has a result in, a bye worth less
    (``bye_points_can_change``). ``None`` for one bye or none."""
    if len(seating.byes) < 2:
        return None
    players = sum(len(t.seats) for t in seating.tables) + len(seating.byes)
    suggested = fewer_byes_sizes(event, players)
    shown, left = None, None
    if suggested is not None:
        low, high, left = suggested
        shown = f"{low}" if low == high else f"{low}-{high}"
    # (a bye worth nothing stands for any other worth: change_refusals says whether
    # what a bye is worth can change at all)
    cheaper = bool(event_bye_points(event)) and not change_refusals(
        session, event, {"bye_points": 0.0})
    return {"warning": "byes", "round": seating.number, "players": list(seating.byes),
            "bye_points": event_bye_points(event), "seated": players,
            "table_min": event.table_min, "table_max": event.table_max,
            "table_sizes": shown, "byes_left": left, "bye_points_can_change": cheaper}


def seating_warnings(session: Session, event: Event, number: int) -> list[dict]:
    """What a seated round has to warn about, as data, for a page that shows the
    round: the event's seating constraints it does not meet (``"warning":
    "unmet"`` with :func:`tourney.tournament.arbiter.unmet_report`'s keys), and
    while it can still be seated again (no result in) :func:`bye_warning`'s."""
    seating = round_seating(session, event, number)
    warnings = [{"warning": "unmet", **unmet} for unmet in seating.unmet]
    if seating.reseatable:
        warning = bye_warning(session, event, seating)
        warnings += [warning] if warning else []
    return warnings


def missing_results(session: Session, event: Event, number: int) -> list[str]:
    """Tables of a seated round without a result, in table order."""
    tables, _ = seated_keys(session, get_round(session, event, number))
    done = results_by_round(session, event).get(number, set())
    return [label for label in tables if label not in done]


def seat_next_round(session: Session, event: Event, *, force: bool = False) -> RoundSeating:
    """Seat the event's next round and store it."""
    lock_event(session, event)
    last = last_seated_round(session, event)
    number = last + 1
    if event.rounds is not None and number > event.rounds:
        raise TourneyError(all_rounds_seated(event))
    if last and not force:
        missing = missing_results(session, event, last)
        if missing:
            said = {"round": last, "event": event.slug, "tables": ", ".join(missing)}
            raise TourneyError(
                Message(N_("round %(round)s of %(event)s has no result yet for table "
                           "%(tables)s; import it first"), said) if len(missing) == 1 else
                Message(N_("round %(round)s of %(event)s has no result yet for tables "
                           "%(tables)s; import them first"), said), setting="force",
                remedy=Remedy("import-results"), setting_way=SettingWay("seat-anyway", round=number))
    row = Round(event_id=event.id, number=number)
    seating = _seat_into(session, event, row, event.seed)
    after = seating.to_json()
    if force and last:
        after["forced"] = missing_results(session, event, last)
    if seating.unmet:
        after["unmet"] = seating.unmet
    record_change(session, "round.seat", f"{event.slug} round {number}", None, after,
                  event_id=event.id)
    _add_warnings(session, event, seating)
    return seating


def _add_warnings(session: Session, event: Event, seating: RoundSeating) -> None:
    warning = bye_warning(session, event, seating)
    if warning is not None:
        seating.warnings.append(warning)


def reseat_round(session: Session, event: Event, number: int, *,
                 seed: int | None = None) -> tuple[RoundSeating, bool]:
    """Seat a round again; returns the new seating and whether it changed."""
    lock_event(session, event)
    row = get_round(session, event, number)
    last = last_seated_round(session, event)
    if number != last:
        raise TourneyError(Message(N_("round %(round)s of %(event)s cannot be reseated: round "
                                      "%(last)s is seated after it"),
                                   {"round": number, "event": event.slug, "last": last}))
    results = session.exec(select(Match.table).where(
        Match.event_id == event.id, Match.round_number == number,
        Match.current_version_id.is_not(None))).all()
    if results:
        said = {"round": number, "event": event.slug,
                "tables": ", ".join(sorted(results, key=table_order))}
        raise TourneyError(
            Message(N_("round %(round)s of %(event)s cannot be reseated: results are in for "
                       "table %(tables)s"), said) if len(results) == 1 else
            Message(N_("round %(round)s of %(event)s cannot be reseated: results are in for "
                       "tables %(tables)s"), said))
    # a forfeit counts as played (`result forfeit`): it scores the players seated at
    # its table, who a new seating would move
    forfeited = sorted(set(session.exec(select(Forfeit.table).where(
        Forfeit.event_id == event.id, Forfeit.round_number == number)).all()), key=table_order)
    if forfeited:
        said = {"round": number, "event": event.slug, "tables": ", ".join(forfeited)}
        raise TourneyError(
            Message(N_("round %(round)s of %(event)s cannot be reseated: table %(tables)s was "
                       "forfeited (take the forfeit back first)"), said)
            if len(forfeited) == 1 else
            Message(N_("round %(round)s of %(event)s cannot be reseated: tables %(tables)s "
                       "were forfeited (take the forfeit back first)"), said),
            remedy=Remedy("undo-forfeit", event=event.slug, round=number, table=forfeited[0]))
    before = round_seating(session, event, number)
    for seat in session.exec(select(Seat).where(Seat.round_id == row.id)).all():
        session.delete(seat)
    session.flush()
    row.seated_at = utcnow()
    seating = _seat_into(session, event, row, event.seed if seed is None else seed)
    after = seating.to_json()
    if seed is not None:
        after["seed"] = seed
    if seating.unmet:
        after["unmet"] = seating.unmet
    changed = before.to_json() != seating.to_json()
    seating.no_longer_entered = drop_withdrawn_unseated(session, event)
    if seating.no_longer_entered:
        after["no_longer_entered"] = seating.no_longer_entered
        changed = True
    record_change(session, "round.reseat", f"{event.slug} round {number}",
                  before.to_json(), after, event_id=event.id)
    _add_warnings(session, event, seating)
    return seating, changed
