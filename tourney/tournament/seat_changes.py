"""The arbiter's changes to a seated round: swapping two players, moving one to
another table (``tourney round swap`` / ``round move``), a player absent from one
round (``tourney round absent``), issue 31.

Decisions:

- Only tables still to be played change: a table with a result in, a forfeit, or
  a result sent from its link that waits for the organizer is refused, naming it
  (:func:`played_tables`). A bye counts as a table still to be played while the
  round has a table without a result.
- A swap trades the two players' seats (table and seat; a player with a bye and
  a seated one trade the bye too), so no table's size changes. Two players of one
  table trade seats (who deals first changes).
- A move takes the player from their seat (the players after them move up one
  seat) to the last seat of the table named; a table the round does not have
  yet may be named by the next number (a new table). The table left must keep
  the event's smallest table size, or be empty (it is then gone), and the table
  joined may not exceed its largest, unless forced (an arbiter may build a new
  table one move at a time); the variant's largest table is never exceeded.
- Each says how many pairs meet again in the round after the change (they met
  in an earlier round) and which pairs the change makes meet again; the round's
  stored count of repeated pairs follows.
- An absent player is not seated in that round and is back in the next; they
  score nothing for it (no bye). Marking the latest seated round while none of its
  results is in leaves its seating as it is until it is reseated (as a withdrawal
  from it does); once a result of it is in, the player's table is scored without
  them by a forfeit (``tourney result forfeit``) instead.
- The clock (``tourney round start``): the latest seated round's start and end
  are stored; ``round show`` and the organizer's review in ``tourney serve`` read
  them (a result sent after the end is marked late there; it is taken all the
  same: the arbiter decides).
"""
from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field

from sqlmodel import Session, select

from ..engines import get_game
from ..errors import Remedy, SettingWay, TourneyError, UsageError, no_table
from ..errors.words import N_, Message, then_words
from ..pairing.history import EventHistory, pair
from ..storage.audit import record_change
from ..storage.models import (
    Absence,
    Entry,
    Event,
    Forfeit,
    Player,
    Round,
    Seat,
    Submission,
    TableLink,
    utcnow,
)
from ..times import aware, utc_iso
from .arbiter import absent_players, entered_player, optional_reason
from .events import entry_active, last_seated_round, lock_event, results_by_round
from .players import find_player
from .rounds import RoundSeating, get_round, history, round_seating, seated_keys

WAITING_STATES = ("submitted", "conflict")  # a result sent from a table, not decided


def played_tables(session: Session, event: Event, number: int) -> dict[str, str]:
    """Table label -> why the round's table can no longer change: ``"result"``
    (its result is in), ``"forfeit"``, ``"sent"`` (a result sent from its link
    waits for the organizer)."""
    why = {label: "forfeit" for label in session.exec(select(Forfeit.table).where(
        Forfeit.event_id == event.id, Forfeit.round_number == number)).all()}
    for label in results_by_round(session, event).get(number, ()):
        why.setdefault(label, "result")  # (results_by_round counts forfeits too)
    sent = session.exec(select(TableLink.table).join(Submission, Submission.link_id == TableLink.id)
                        .where(TableLink.event_id == event.id, TableLink.round_number == number,
                               Submission.state.in_(WAITING_STATES))).all()
    for label in sent:
        why.setdefault(label, "sent")
    return why


PLAYED_WORDS = {"result": Message(N_("its result is in")),
                "forfeit": Message(N_("it was forfeited")),
                "sent": Message(N_("a result sent from it waits for the organizer"))}
# what is refused at a played table (refuse_played's ``doing``)
DOING_WORDS = {"swap": Message(N_("a swap")), "move": Message(N_("a move")),
               "substitute": Message(N_("a substitute")),
               "absence": Message(N_("an absence"))}


def refuse_played(event: Event, number: int, label: str | None, why: dict[str, str],
                  doing: str) -> None:
    """Refuse ``doing`` (a key of :data:`DOING_WORDS`) at table ``label`` of a round
    when it is played."""
    if label is not None and label in why:
        raise TourneyError(Message(
            N_("%(event)s round %(round)s, table %(table)s: %(doing)s is refused: %(why)s"),
            {"event": event.slug, "round": number, "table": label,
             "doing": DOING_WORDS[doing], "why": PLAYED_WORDS[why[label]]}))


# A table size a forced move goes past, as data (``{"size": "over", "table": "3",
# "count": 6, "most": 5}``): kept so in the audit log and the JSON, worded where it
# is shown (:func:`forced_size_words`), in the reader's language. ``over``: the
# table joined seats more than the event's largest; ``under``: fewer than its
# smallest; ``left``: the table left keeps fewer than its smallest.
FORCED_SIZE_WORDS = {
    "over": N_("table %(table)s seats %(count)s, more than the event's %(most)s"),
    "under": N_("table %(table)s seats %(count)s, fewer than the event's %(least)s"),
    "left": N_("table %(table)s is left with %(count)s, fewer than the event's %(least)s"),
}


def forced_size_words(size: dict) -> Message:
    """The words of a table size a forced move goes past (one of
    :class:`SeatChange`'s ``forced``)."""
    return Message(FORCED_SIZE_WORDS[size["size"]],
                   {key: value for key, value in size.items() if key != "size"})


@dataclass
class SeatChange:
    """What a swap or move did: each player's seat before and after
    (``{"player", "from": {"table", "seat"}, "to": {...}}``; a bye has table None,
    seats count from 1), the round's repeated pairs before and after, the pairs the
    change makes meet again, and the round's seating after."""

    action: str
    event: str
    number: int
    moved: list[dict]
    repeated_before: int
    repeated_after: int
    again: list[list[str]]
    seating: RoundSeating
    # the table sizes forced past, as data (FORCED_SIZE_WORDS)
    forced: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"event": self.event, "round": self.number, "moved": self.moved,
                "repeated_pairs_before": self.repeated_before,
                "repeated_pairs": self.repeated_after, "meet_again": self.again,
                "forced": list(self.forced), "unmet": list(self.seating.unmet)}


def _place(seat: Seat) -> dict:
    return {"table": seat.table, "seat": None if seat.seat is None else seat.seat + 1}


def seat_of(session: Session, event: Event, row: Round, player: Player) -> Seat:
    """The player's seat in the round (its table is None for a bye); refused when the
    round does not seat them."""
    seat = session.exec(select(Seat).where(Seat.round_id == row.id,
                                           Seat.player_id == player.id)).first()
    if seat is None:
        raise TourneyError(Message(N_("%(player)s is not seated in %(event)s round %(round)s"),
                                   {"player": player.name, "event": event.slug,
                                    "round": row.number}))
    return seat


def _pairs(tables: dict[str, list[int]]) -> set[tuple[int, int]]:
    return {pair(a, b) for keys in tables.values() for i, a in enumerate(keys)
            for b in keys[i + 1:]}


def _finish(session: Session, event: Event, row: Round, action: str, before_tables,
            moved: list[dict], reason: str | None, forced: list[dict]) -> SeatChange:
    session.flush()
    past = EventHistory(history(session, event, row.number))
    after_tables, _ = seated_keys(session, row)
    before_count = past.repeated_pairs(before_tables.values())
    after_count = past.repeated_pairs(after_tables.values())
    new = sorted(p for p in _pairs(after_tables) - _pairs(before_tables) if p in past.met)
    names = {p.id: p.name for p in session.exec(select(Player).where(
        Player.id.in_({i for p in new for i in p})))} if new else {}
    again = [sorted([names[a], names[b]]) for a, b in new]
    row.repeated_pairs = after_count
    session.add(row)
    session.flush()
    seating = round_seating(session, event, row.number)
    change = SeatChange(action, event.slug, row.number, moved, before_count, after_count,
                        again, seating, forced)
    # the subject names who moved, as an absence's does: the log's text says who
    record_change(session, action,
                  f"{event.slug} round {row.number}: {', '.join(m['player'] for m in moved)}",
                  {"seats": [{"player": m["player"], **m["from"]} for m in moved]},
                  {"seats": [{"player": m["player"], **m["to"]} for m in moved],
                   "meet_again": again, "forced": forced, "reason": reason},
                  event_id=event.id)
    return change


def swap_players(session: Session, event: Event, number: int, first: str, second: str, *,
                 reason: str | None = None) -> SeatChange:
    """Trade the seats of two players of a seated round (see the module's decisions)."""
    reason = optional_reason(reason)
    lock_event(session, event)
    row = get_round(session, event, number)
    players = [entered_player(session, event, name) for name in (first, second)]
    if players[0].id == players[1].id:
        raise UsageError(Message(N_("name two players to swap, not %(player)s twice"),
                                 {"player": players[0].name}))
    seats = [seat_of(session, event, row, p) for p in players]
    why = played_tables(session, event, number)
    for seat in seats:
        refuse_played(event, number, seat.table, why, "swap")
    if all(seat.table is None for seat in seats):
        raise TourneyError(Message(N_("%(first)s and %(second)s both have a bye in %(event)s "
                                      "round %(round)s: a swap changes nothing"),
                                   {"first": players[0].name, "second": players[1].name,
                                    "event": event.slug, "round": number}))
    before_tables, _ = seated_keys(session, row)
    moved = [{"player": p.name, "from": _place(s)} for p, s in zip(players, seats)]
    places = [(s.table, s.seat) for s in seats]
    seats[0].table, seats[0].seat = places[1]
    seats[1].table, seats[1].seat = places[0]
    for seat in seats:
        session.add(seat)
    for entry, seat in zip(moved, seats):
        entry["to"] = _place(seat)
    return _finish(session, event, row, "round.swap", before_tables, moved, reason, [])


def move_player(session: Session, event: Event, number: int, name: str, table: str, *,
                force: bool = False, reason: str | None = None) -> SeatChange:
    """Move a player of a seated round to the last seat of table ``table`` (see
    the module's decisions); ``force`` goes past the event's table sizes."""
    reason = optional_reason(reason)
    lock_event(session, event)
    row = get_round(session, event, number)
    player = entered_player(session, event, name)
    seat = seat_of(session, event, row, player)
    tables, _ = seated_keys(session, row)
    table = str(table).strip()
    new_label = str(len(tables) + 1)
    if table not in tables and table != new_label:
        raise no_table(event.slug, number, table, tables)
    if seat.table == table:
        raise TourneyError(Message(N_("%(player)s sits at table %(table)s of %(event)s round "
                                      "%(round)s already"),
                                   {"player": player.name, "table": table,
                                    "event": event.slug, "round": number}))
    why = played_tables(session, event, number)
    refuse_played(event, number, seat.table, why, "move")
    refuse_played(event, number, table, why, "move")
    game = get_game(event.variant)
    joined = len(tables.get(table, [])) + 1
    left = len(tables[seat.table]) - 1 if seat.table is not None else None
    if joined > game.max_players:
        raise TourneyError(Message(N_("%(variant)s is played by at most %(most)s players: "
                                      "table %(table)s cannot seat %(count)s"),
                                   {"variant": game.id, "most": game.max_players,
                                    "table": table, "count": joined}))
    forced: list[dict] = []  # the table sizes a forced move goes past (FORCED_SIZE_WORDS)
    if joined > event.table_max:
        forced.append({"size": "over", "table": table, "count": joined,
                       "most": event.table_max})
    if joined < event.table_min:
        forced.append({"size": "under", "table": table, "count": joined,
                       "least": event.table_min})
    if left is not None and 0 < left < event.table_min:
        forced.append({"size": "left", "table": seat.table, "count": left,
                       "least": event.table_min})
    if forced and not force:
        sizes = [forced_size_words(size) for size in forced]
        broken = sizes[0]
        for size in sizes[1:]:
            broken = then_words(broken, size)
        raise TourneyError(Message(N_("%(event)s round %(round)s: moving %(player)s to table "
                                      "%(table)s breaks the table sizes (%(sizes)s); move "
                                      "another player too"),
                                   {"event": event.slug, "round": number, "player": player.name,
                                    "table": table, "sizes": broken}),
                           setting="force", setting_way=SettingWay("move-anyway"))
    before_tables = {label: list(keys) for label, keys in tables.items()}
    moved = [{"player": player.name, "from": _place(seat)}]
    if seat.table is not None:
        for other in session.exec(select(Seat).where(
                Seat.round_id == row.id, Seat.table == seat.table,
                Seat.seat > seat.seat)).all():
            other.seat -= 1
            session.add(other)
    seat.table, seat.seat = table, joined - 1
    session.add(seat)
    moved[0]["to"] = _place(seat)
    return _finish(session, event, row, "round.move", before_tables, moved, reason, forced)


def not_playing(player: Player, event: Event, number: int, entry: Entry) -> TourneyError:
    """The refusal of a player whose entry does not cover round ``number`` (entered
    from a later round, or withdrew before it)."""
    said = {"player": player.name, "round": number, "event": event.slug,
            "first": entry.first_round, "last": entry.withdrawn_after}
    return TourneyError(
        Message(N_("%(player)s does not play round %(round)s of %(event)s (entered from "
                   "round %(first)s)"), said) if entry.first_round > number else
        Message(N_("%(player)s does not play round %(round)s of %(event)s (withdrew after "
                   "round %(last)s)"), said))


def substitute_player(session: Session, event: Event, number: int, out: str, sub: str, *,
                      reason: str | None = None) -> SeatChange:
    """Seat ``sub`` in ``out``'s seat of a seated round (a player who left, or withdrew
    after the seating): ``sub`` must be entered (`event enter --from-round`), play
    that round (entered by then, not withdrawn, not marked absent) and not be seated
    in it; the table must still be to be played (a bye is refused: no table waits
    for them). ``out``'s entry is left as it is (withdraw them for the rounds after,
    if they are gone for good)."""
    reason = optional_reason(reason)
    lock_event(session, event)
    row = get_round(session, event, number)
    leaving = find_player(session, out)
    coming = entered_player(session, event, sub)
    if leaving.id == coming.id:
        raise UsageError(Message(N_("name two players: %(player)s cannot take their own seat"),
                                 {"player": coming.name}))
    seat = seat_of(session, event, row, leaving)
    if seat.table is None:
        raise TourneyError(Message(N_("%(player)s has a bye in %(event)s round %(round)s: a "
                                      "substitute takes a seat at a table, and no table waits "
                                      "for them"),
                                   {"player": leaving.name, "event": event.slug,
                                    "round": number}))
    refuse_played(event, number, seat.table, played_tables(session, event, number),
                  "substitute")
    entry = session.exec(select(Entry).where(Entry.event_id == event.id,
                                             Entry.player_id == coming.id)).one()
    if not entry_active(entry, number):
        raise not_playing(coming, event, number, entry)
    if coming.id in absent_players(session, event, number):
        raise TourneyError(Message(N_("%(player)s is marked absent from %(event)s round "
                                      "%(round)s (take the absence back first)"),
                                   {"player": coming.name, "event": event.slug,
                                    "round": number}),
                           remedy=Remedy("undo-absence", event=event.slug, round=number,
                                         player=coming.name))
    taken = session.exec(select(Seat).where(Seat.round_id == row.id,
                                            Seat.player_id == coming.id)).first()
    if taken is not None:
        said = {"player": coming.name, "event": event.slug, "round": number,
                "other": leaving.name, "table": taken.table}
        raise TourneyError(Message(N_("%(player)s has a bye in %(event)s round %(round)s "
                                      "already (to trade their seats with %(other)s, swap "
                                      "them)"), said) if taken.table is None else
                           Message(N_("%(player)s sits at table %(table)s in %(event)s round "
                                      "%(round)s already (to trade their seats with "
                                      "%(other)s, swap them)"), said),
                           remedy=Remedy("swap-seats", event=event.slug, round=number))
    before_tables, _ = seated_keys(session, row)
    place = _place(seat)
    seat.player_id = coming.id
    session.add(seat)
    moved = [{"player": coming.name, "from": {"table": None, "seat": None}, "to": place},
             {"player": leaving.name, "from": place, "to": {"table": None, "seat": None}}]
    return _finish(session, event, row, "round.substitute", before_tables, moved, reason, [])


# ------------------------------------------------------------------- absence

@dataclass
class AbsenceReport:
    """What :func:`mark_absent` did: ``changed`` (False: they were marked so
    already), and ``reseat``: the seated round, none of whose results is in, that
    still seats them (or, undone, that is seated without them): a reseat seats it
    anew."""

    player: str
    number: int
    undo: bool
    changed: bool
    reseat: int | None = None

    def to_json(self) -> dict:
        return {"player": self.player, "round": self.number, "undo": self.undo,
                "reseat": self.reseat}


def mark_absent(session: Session, event: Event, number: int, name: str, *,
                undo: bool = False, reason: str | None = None) -> AbsenceReport:
    """Mark a player absent from one round (not seated in it; back the next), or
    take it back (``undo``). The round is the next to be seated or a later one, or
    the latest seated round while none of its results is in (it is then to be
    reseated); a round with results in is refused, naming the forfeit that scores
    the player's table without them."""
    reason = optional_reason(reason)
    lock_event(session, event)
    player = entered_player(session, event, name)
    entry = session.exec(select(Entry).where(Entry.event_id == event.id,
                                             Entry.player_id == player.id)).one()
    if event.rounds is not None and number > event.rounds:
        raise UsageError(Message(N_("%(event)s has round 1, so there is no round %(round)s")
                                 if event.rounds == 1 else
                                 N_("%(event)s has rounds 1-%(last)s, so there is no round "
                                    "%(round)s"),
                                 {"event": event.slug, "last": event.rounds, "round": number}))
    if not entry_active(entry, number):
        raise not_playing(player, event, number, entry)
    last = last_seated_round(session, event)
    if number < last:
        raise TourneyError(Message(N_("round %(round)s of %(event)s is over: round %(last)s "
                                      "is seated"),
                                   {"round": number, "event": event.slug, "last": last}))
    seat = None
    if number == last:
        row = get_round(session, event, number)
        seat = session.exec(select(Seat).where(Seat.round_id == row.id,
                                               Seat.player_id == player.id)).first()
        played = played_tables(session, event, number)
        if played and seat is not None and not undo:
            if seat.table in played:
                refuse_played(event, number, seat.table, played, "absence")
            forfeit = (Remedy("forfeit-absent", event=event.slug, round=number,
                              table=seat.table, player=player.name)
                       if seat.table is not None else None)
            said = {"round": number, "event": event.slug, "player": player.name,
                    "table": seat.table}
            raise TourneyError(
                Message(N_("round %(round)s of %(event)s has results in and cannot be "
                           "reseated; %(player)s is seated there (table %(table)s): a forfeit "
                           "scores their table without them"), said) if forfeit else
                Message(N_("round %(round)s of %(event)s has results in and cannot be "
                           "reseated; %(player)s is seated there (a bye)"), said),
                remedy=forfeit)
    marked = session.exec(select(Absence).where(
        Absence.event_id == event.id, Absence.round_number == number,
        Absence.player_id == player.id)).first()
    report = AbsenceReport(player.name, number, undo, changed=(marked is None) != undo)
    if not report.changed:
        return report
    if undo:
        session.delete(marked)
    else:
        session.add(Absence(event_id=event.id, round_number=number, player_id=player.id))
    session.flush()
    if number == last and not played_tables(session, event, number) \
            and (seat is not None) != undo:
        report.reseat = number
    record_change(session, "round.absent" + (".undo" if undo else ""),
                  f"{event.slug} round {number}: {player.name}",
                  None, {"player": player.name, "round": number, "reason": reason},
                  event_id=event.id)
    return report


# ------------------------------------------------------------------- the clock

MAX_MINUTES = 24 * 60


@dataclass
class Clock:
    """A round's clock (``tourney round start``): when it started and ends."""

    started_at: dt.datetime | None
    ends_at: dt.datetime | None

    def seconds_left(self, now: dt.datetime | None = None) -> int | None:
        """Seconds until the end (negative: past it); None when not started."""
        if self.ends_at is None:
            return None
        now = now or utcnow()
        return math.floor((aware(self.ends_at) - aware(now)).total_seconds())

    def late(self, moment: dt.datetime | None) -> bool:
        """Whether ``moment`` (a result sent) is after the round's time."""
        return (self.ends_at is not None and moment is not None
                and aware(moment) > aware(self.ends_at))

    def to_json(self, now: dt.datetime | None = None) -> dict:
        minutes = None
        if self.started_at is not None and self.ends_at is not None:
            minutes = round((aware(self.ends_at) - aware(self.started_at)).total_seconds() / 60)
        return {"started_at": utc_iso(self.started_at), "ends_at": utc_iso(self.ends_at),
                "minutes": minutes, "seconds_left": self.seconds_left(now)}


def round_clock(session: Session, event: Event, number: int) -> Clock:
    row = get_round(session, event, number)
    return Clock(row.started_at, row.ends_at)


def start_clock(session: Session, event: Event, number: int, minutes: int | None, *,
                stop: bool = False) -> Clock:
    """Start round ``number``'s clock now for ``minutes`` (started again: from
    now), or ``stop`` it (no time limit)."""
    lock_event(session, event)
    row = get_round(session, event, number)
    before = Clock(row.started_at, row.ends_at).to_json()
    if stop:
        if row.started_at is None:
            raise TourneyError(Message(N_("%(event)s round %(round)s has no clock running"),
                                       {"event": event.slug, "round": number}))
        row.started_at = row.ends_at = None
    else:
        if minutes is None or not 1 <= minutes <= MAX_MINUTES:
            raise UsageError(Message(N_("a round's time is 1 to %(most)s minutes, not "
                                        "%(minutes)s"),
                                     {"most": MAX_MINUTES, "minutes": str(minutes)}),
                             setting="minutes")
        if number != last_seated_round(session, event):
            raise TourneyError(Message(N_("%(event)s round %(round)s is not the latest round: "
                                          "round %(last)s is seated after it"),
                                       {"event": event.slug, "round": number,
                                        "last": last_seated_round(session, event)}))
        now = utcnow()
        row.started_at, row.ends_at = now, now + dt.timedelta(minutes=minutes)
    session.add(row)
    session.flush()
    clock = Clock(row.started_at, row.ends_at)
    record_change(session, "round.start" if not stop else "round.start.stop",
                  f"{event.slug} round {number}", before if before["started_at"] else None,
                  clock.to_json() if not stop else None, event_id=event.id)
    return clock
