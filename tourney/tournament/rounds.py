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
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlmodel import Session, select

from ..errors import TourneyError
from ..storage.audit import record_change
from ..storage.models import Event, Match, Player, Round, Seat, utcnow
from .events import (active_players, all_rounds_seated, last_seated_round, lock_event,
                     results_by_round)
from .standings import standings_table
from ..ordering import name_key, name_order, table_order
from ..pairing.seating import Entrant, PastRound, seat_round
from ..numbers import count_text, plural_word


@dataclass
class SeatedTable:
    table: str
    seats: list[str]  # names, seat 0 first

    @property
    def dealer(self) -> str | None:
        return self.seats[0] if self.seats else None


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
        last = last_seated_round(session, event)
        seated = f"rounds 1-{last} are seated" if last > 1 else (
            "round 1 is seated" if last == 1 else "no round is seated yet")
        raise TourneyError(f"{event.slug} has no round {number} ({seated})")
    return row


def seated_keys(session: Session, round_row: Round) -> tuple[dict[str, list[int]], list[int]]:
    """Table label -> player ids in seat order, and the byes, of a seated round."""
    seats = session.exec(select(Seat).where(Seat.round_id == round_row.id)).all()
    tables: dict[str, list[tuple[int, int]]] = {}
    byes = []
    for seat in seats:
        if seat.table is None:
            byes.append(seat.player_id)
        else:
            tables.setdefault(seat.table, []).append((seat.seat or 0, seat.player_id))
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


def round_seating(session: Session, event: Event, number: int) -> RoundSeating:
    row = get_round(session, event, number)
    tables, byes = seated_keys(session, row)
    players = _players_by_id(session, [*byes, *(p for t in tables.values() for p in t)])
    names = {pid: p.name for pid, p in players.items()}
    return RoundSeating(
        event=event.slug, number=number,
        tables=[SeatedTable(label, [names[pid] for pid in keys]) for label, keys in tables.items()],
        byes=sorted((names[pid] for pid in byes), key=name_order(event.lang)),
        repeated_pairs=row.repeated_pairs, seated_at=row.seated_at,
        results=results_by_round(session, event).get(number, set()),
        lang=event.lang,
    )


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
    if len(players) < event.table_min:
        raise TourneyError(
            f"only {count_text(len(players), 'player')} can play in "
            f"round {number} of {event.slug}; a table needs {event.table_min}"
            + ("" if players else "; enter players first"),
            operation=None if players else "event enter")
    past = history(session, event, number)
    byes_had: dict[int, int] = {}
    for round_ in past:
        for key in round_.byes:
            byes_had[key] = byes_had.get(key, 0) + 1
    points = standings_points(session, event) if number > 1 else {}
    entrants = [Entrant(key=p.id, points=points.get(p.id, (0.0, 0))[0],
                        rank=points.get(p.id, (0.0, 0))[1], byes=byes_had.get(p.id, 0))
                for p in players]
    seating = seat_round(entrants, past, min_size=event.table_min, max_size=event.table_max,
                         preferred=event.table_preferred, method=event.seating, seed=seed,
                         round_number=number, total_rounds=event.rounds)
    return seating.tables, seating.byes, seating.repeated_pairs, seating.method


def _store(session: Session, round_row: Round, tables: list[list[int]], byes: list[int]) -> None:
    for index, keys in enumerate(tables, 1):
        for seat, key in enumerate(keys):
            session.add(Seat(round_id=round_row.id, player_id=key, table=str(index), seat=seat))
    for key in byes:
        session.add(Seat(round_id=round_row.id, player_id=key, table=None, seat=None))
    session.flush()


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
            tables = ", ".join(missing)
            raise TourneyError(
                f"round {last} of {event.slug} has no result yet for "
                f"{plural_word(len(missing), 'table')} {tables}; import "
                f"{'them' if len(missing) > 1 else 'it'} first, or seat round {number} "
                "anyway", setting="force", operation="result import")
    row = Round(event_id=event.id, number=number)
    seating = _seat_into(session, event, row, event.seed)
    after = seating.to_json()
    if force and last:
        after["forced"] = missing_results(session, event, last)
    record_change(session, "round.seat", f"{event.slug} round {number}", None, after,
                  event_id=event.id)
    return seating


def reseat_round(session: Session, event: Event, number: int, *,
                 seed: int | None = None) -> tuple[RoundSeating, bool]:
    """Seat a round again; returns the new seating and whether it changed."""
    lock_event(session, event)
    row = get_round(session, event, number)
    last = last_seated_round(session, event)
    if number != last:
        raise TourneyError(f"round {number} of {event.slug} cannot be reseated: round {last} "
                           "is seated after it")
    results = session.exec(select(Match.table).where(
        Match.event_id == event.id, Match.round_number == number,
        Match.current_version_id.is_not(None))).all()
    if results:
        raise TourneyError(
            f"round {number} of {event.slug} cannot be reseated: results are in for "
            f"{plural_word(len(results), 'table')} {', '.join(sorted(results, key=table_order))}")
    before = round_seating(session, event, number)
    for seat in session.exec(select(Seat).where(Seat.round_id == row.id)).all():
        session.delete(seat)
    session.flush()
    row.seated_at = utcnow()
    seating = _seat_into(session, event, row, event.seed if seed is None else seed)
    after = seating.to_json()
    if seed is not None:
        after["seed"] = seed
    changed = before.to_json() != seating.to_json()
    record_change(session, "round.reseat", f"{event.slug} round {number}",
                  before.to_json(), after, event_id=event.id)
    return seating, changed
