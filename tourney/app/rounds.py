"""Use cases on rounds: seat the next round, reseat the latest one, the arbiter's
changes to a seated round (swap two players, move one, a substitute), a player
absent from a round (and the absences marked), the round's clock, a predefined seating from a file.

The seating itself is pure (:mod:`tourney.pairing`); the services in
:mod:`tourney.tournament.rounds` gather its inputs (players, history, standings)
and store what it returns. Seating touches no rating.
"""
from __future__ import annotations

import random

from sqlmodel import Session

from ..errors import TourneyError
from ..errors.words import N_, Message
from ..records.csv_format import DealRecord
from ..simulation import simulate_match
from ..tournament.arbiter import absences
from ..tournament.events import get_event
from ..tournament.rounds import RoundSeating, reseat_round, round_seating, seat_next_round
from ..tournament.seat_changes import (
    AbsenceReport,
    Clock,
    SeatChange,
    mark_absent,
    move_player,
    round_clock,
    start_clock,
    substitute_player,
    swap_players,
)
from ..tournament.seating_import import SeatingFileRejected, import_seating
from ..tournament.settings import event_settings


class NothingToSimulate(TourneyError):
    """Every table of the round has its result: nothing is left to play."""


def simulate_round(session: Session, slug: str, number: int, *, seed: int = 0,
                   skill: float = 1.0, deals: int | None = None) -> list[DealRecord]:
    """Bot-played records for every table of a seated round that has no result yet:
    the players in their seats (the first seat deals first), the event's rules, the
    event, round and table columns filled, so `result import` takes them as they
    are. Reproducible from ``seed``."""
    event = get_event(session, slug)
    settings = event_settings(event)
    seating = round_seating(session, event, number)
    tables = [t for t in seating.tables if t.table not in seating.results]
    if not tables:
        raise NothingToSimulate(Message(N_("every table of %(event)s round %(round)s has its "
                                           "result"), {"event": slug, "round": number}))
    # each round deals its own cards: with one seed, round 2's tables must not be
    # dealt round 1's hands again (round 1 keeps the seed as given, so the records
    # it writes are the same as before)
    rng = random.Random(seed if number == 1 else f"{seed} round {number}")
    records: list[DealRecord] = []
    for table in tables:
        records += simulate_match(settings.game, settings.options, table.seats, rng,
                                  event=event.slug, round_number=number, table=table.table,
                                  deals=deals, skills=skill, first_dealer=0)
    return records


__all__ = ["AbsenceReport", "Clock", "NothingToSimulate", "RoundSeating", "SeatChange",
           "SeatingFileRejected", "absences", "import_seating", "mark_absent", "move_player",
           "reseat_round", "round_clock", "seat_next_round", "simulate_round", "start_clock",
           "substitute_player", "swap_players"]
