"""Forfeits and point adjustments: the arbiter's scoring (``tourney result
forfeit`` / ``result adjust``), issue 31.

Decisions:

- A forfeit scores a table of a seated round whose match was not played (or not
  finished: a player left) without a match: each player named absent gets 0 match
  points for the round; each other player of the table gets the event's bye
  points (:func:`.scoring.event_bye_points`, by default a win's worth), as though
  they had a bye: they came to play and could not. As a bye, a forfeit counts in
  the points but not as a match played, so no tie-break (opponents, score, wins,
  per-match averages) counts it; the standings give each player's ``forfeits``
  (tables they forfeited) and ``forfeit_wins`` (tables forfeited against them).
  No rating changes: ratings come from matches played.
- A forfeited table counts as played: the next round can be seated, the round
  can no longer be reseated, and a result for that table is refused by the
  import until the forfeit is taken back (``--undo``). A table whose result is
  in, or whose result sent from its link waits for the organizer, cannot be
  forfeited.
- The arbiter's reason for a forfeit (optional, on one line, at most MAX_REASON
  characters) is stored with it (each absent player's row), so that everything that
  shows the forfeit shows it too; the audit log keeps it as well, as history.
- An adjustment gives (or, negative, takes) match points to one entered player,
  with a reason, at any time, optionally for one round (the standings after an
  earlier round leave it out). It moves the player's points in the standings and
  nothing else: no tie-break, no rating. Each has an id; ``--cancel ID`` takes it
  back (the audit log keeps both).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from sqlmodel import Session, select

from ..errors import TourneyError, UsageError, no_table
from ..errors.words import N_, Message
from ..numbers import DECIMALS, number_text, plain_number
from ..ordering import table_order
from ..storage.audit import current_actor, record_change
from ..storage.models import Adjustment, Event, Forfeit, Player
from .arbiter import entered_player, optional_reason
from .events import lock_event
from .rounds import get_round, seated_keys
from .scoring import event_bye_points
from .seat_changes import PLAYED_WORDS, played_tables, seat_of

MAX_ADJUSTMENT = 1000.0


@dataclass
class ForfeitReport:
    event: str
    number: int
    table: str
    absent: list[str]
    others: list[str]
    points: float  # each other player's points (the event's bye points)
    undo: bool = False
    reason: str | None = None  # the arbiter's, if given

    def to_json(self) -> dict:
        return {"event": self.event, "round": self.number, "table": self.table,
                "absent": list(self.absent), "others": list(self.others),
                "absent_points": 0, "others_points": self.points, "undo": self.undo,
                "reason": self.reason}


def forfeit_table(session: Session, event: Event, number: int, table: str,
                  absent: list[str], *, undo: bool = False,
                  reason: str | None = None) -> ForfeitReport:
    """Score table ``table`` of round ``number`` as forfeited by ``absent`` (see
    the module's decisions), or take its forfeit back (``undo``). An empty
    ``table`` is the table of the first player named absent: the organizer's page
    asks only who left, so a table chosen apart from the player cannot be the wrong
    one."""
    lock_event(session, event)
    row = get_round(session, event, number)
    tables, _ = seated_keys(session, row)
    table = str(table or "").strip()
    if not table and absent and not undo:
        table = str(seat_of(session, event, row,
                            entered_player(session, event, absent[0])).table or "")
    if table not in tables:
        raise no_table(event.slug, number, table, tables)
    names = {p.id: p.name for p in session.exec(select(Player).where(
        Player.id.in_(tables[table])))}
    rows = list(session.exec(select(Forfeit).where(
        Forfeit.event_id == event.id, Forfeit.round_number == number, Forfeit.table == table)))
    points = event_bye_points(event)
    if undo:
        if absent:
            raise UsageError(Message(N_("taking a forfeit back takes back the table's whole "
                                        "forfeit; name no player")),
                             setting="absent")
        if not rows:
            raise TourneyError(Message(N_("%(event)s round %(round)s, table %(table)s was not "
                                          "forfeited"),
                                       {"event": event.slug, "round": number, "table": table}))
        gone = {r.player_id for r in rows}
        report = ForfeitReport(event.slug, number, table, [names[i] for i in tables[table]
                                                           if i in gone],
                               [names[i] for i in tables[table] if i not in gone], points,
                               undo=True, reason=rows[0].reason)
        for forfeit in rows:
            session.delete(forfeit)
        session.flush()
        record_change(session, "result.forfeit.undo", f"{event.slug} round {number} table {table}",
                      report.to_json(), None, event_id=event.id)
        return report
    if not absent:
        raise UsageError(Message(N_("name the player who did not play (or left)")),
                         setting="absent")
    reason = optional_reason(reason)
    played = played_tables(session, event, number)
    if table in played:
        said = {"event": event.slug, "round": number, "table": table,
                "why": PLAYED_WORDS[played[table]]}
        raise TourneyError(
            Message(N_("%(event)s round %(round)s, table %(table)s cannot be forfeited: "
                       "%(why)s (take the forfeit back first)"), said)
            if played[table] == "forfeit" else
            Message(N_("%(event)s round %(round)s, table %(table)s cannot be forfeited: "
                       "%(why)s"), said))
    players = [entered_player(session, event, name) for name in absent]
    strangers = [p.name for p in players if p.id not in tables[table]]
    if strangers:
        said = {"players": list(strangers), "event": event.slug, "round": number,
                "table": table, "seated": [names[i] for i in tables[table]]}
        # one player named at the wrong table (a typo of its number): say theirs
        their = next((label for label, keys in tables.items()
                      if players[0].id in keys), None) if len(players) == 1 else None
        if their is not None:
            raise TourneyError(Message(N_(
                "%(players)s not seated at %(event)s round %(round)s, table %(table)s, "
                "which seats %(seated)s; %(players)s sits at table %(their)s"),
                {**said, "their": their}))
        raise TourneyError(Message(N_("%(players)s not seated at %(event)s round %(round)s, "
                                      "table %(table)s, which seats %(seated)s"), said))
    gone = {p.id for p in players}
    for player_id in tables[table]:
        if player_id in gone:
            session.add(Forfeit(event_id=event.id, round_number=number, table=table,
                                player_id=player_id, reason=reason))
    session.flush()
    report = ForfeitReport(event.slug, number, table,
                           [names[i] for i in tables[table] if i in gone],
                           [names[i] for i in tables[table] if i not in gone], points,
                           reason=reason)
    record_change(session, "result.forfeit", f"{event.slug} round {number} table {table}",
                  None, report.to_json(), event_id=event.id)
    return report


@dataclass
class ForfeitInfo:
    """A forfeited table as listed (``tourney result forfeit SLUG --list``, the
    organizer's page): who did not play, and the arbiter's reason, if given."""
    round: int
    table: str
    absent: list[str]
    reason: str | None

    def to_json(self) -> dict:
        return dict(self.__dict__)


def list_forfeits(session: Session, event: Event,
                  number: int | None = None) -> list[ForfeitInfo]:
    """The event's forfeited tables (of round ``number`` only, when given), by round
    and table."""
    query = (select(Forfeit, Player.name).join(Player, Player.id == Forfeit.player_id)
             .where(Forfeit.event_id == event.id))
    if number is not None:
        query = query.where(Forfeit.round_number == number)
    tables: dict[tuple[int, str], ForfeitInfo] = {}
    for row, name in session.exec(query.order_by(Forfeit.id)):
        key = (row.round_number, row.table)
        tables.setdefault(key, ForfeitInfo(row.round_number, row.table, [], row.reason))
        tables[key].absent.append(name)
    return [tables[key] for key in sorted(tables, key=lambda k: (k[0], table_order(k[1])))]


# ------------------------------------------------------------------- adjustments

@dataclass
class AdjustmentInfo:
    id: int
    player: str
    points: float
    reason: str
    round: int | None
    actor: str | None
    at: str | None

    def to_json(self) -> dict:
        return dict(self.__dict__)


def _info(row: Adjustment, name: str) -> AdjustmentInfo:
    from ..times import utc_iso

    return AdjustmentInfo(row.id, name, row.points, row.reason, row.round_number, row.actor,
                          utc_iso(row.created_at))


def check_reason(reason: str | None) -> str:
    text = optional_reason(reason)
    if not text:
        raise UsageError(Message(N_("an adjustment needs a reason (it is shown beside the "
                                    "standings)")),
                         setting="reason")
    return text


def adjust_points(session: Session, event: Event, name: str, points: float, reason: str, *,
                  round_number: int | None = None) -> AdjustmentInfo:
    """Give (or take, negative) ``points`` match points to an entered player."""
    lock_event(session, event)
    if (not math.isfinite(points) or points == 0 or abs(points) > MAX_ADJUSTMENT
            or round(points, DECIMALS) != points):  # 0.0001 would show as +0
        raise UsageError(Message(N_("an adjustment is a number of points other than 0, at "
                                    "most %(most)s either way, with at most %(decimals)s "
                                    "decimals, not %(points)s"),
                                 {"most": number_text(MAX_ADJUSTMENT), "decimals": DECIMALS,
                                  "points": str(plain_number(points))}),
                         setting="points")
    text = check_reason(reason)
    player = entered_player(session, event, name)
    if round_number is not None:
        get_round(session, event, round_number)  # a round the event has seated
    row = Adjustment(event_id=event.id, player_id=player.id, round_number=round_number,
                     points=float(points), reason=text, actor=current_actor())
    session.add(row)
    session.flush()
    info = _info(row, player.name)
    record_change(session, "result.adjust", f"{event.slug}: {player.name}", None,
                  info.to_json(), event_id=event.id)
    return info


def remove_adjustment(session: Session, event: Event, adjustment_id: int) -> AdjustmentInfo:
    """Take an adjustment back by its id."""
    lock_event(session, event)
    row = session.get(Adjustment, adjustment_id)
    if row is None or row.event_id != event.id:
        known = [str(a.id) for a in adjustments(session, event)]
        said = {"event": event.slug, "id": adjustment_id, "known": ", ".join(known)}
        raise UsageError(Message(N_("%(event)s has no adjustment %(id)s (its adjustments: "
                                    "%(known)s)"), said) if known else
                         Message(N_("%(event)s has no adjustment %(id)s (it has none)"), said))
    info = _info(row, session.get(Player, row.player_id).name)
    session.delete(row)
    session.flush()
    record_change(session, "result.adjust.remove", f"{event.slug}: {info.player}",
                  info.to_json(), None, event_id=event.id)
    return info


def adjustments(session: Session, event: Event) -> list[AdjustmentInfo]:
    """The event's adjustments, oldest first."""
    rows = list(session.exec(select(Adjustment).where(Adjustment.event_id == event.id)
                             .order_by(Adjustment.id)))
    names = {p.id: p.name for p in session.exec(select(Player).where(
        Player.id.in_({r.player_id for r in rows})))} if rows else {}
    return [_info(r, names[r.player_id]) for r in rows]
