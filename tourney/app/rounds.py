"""Use cases on rounds: seat the next round, reseat the latest one, the arbiter's
changes to a seated round (swap two players, move one, a substitute), a player
absent from a round (and the absences marked), the round's clock, a predefined
seating from a file, a round as it is shown (`round show`, the organizer's page).

The seating itself is pure (:mod:`tourney.pairing`); the services in
:mod:`tourney.tournament.rounds` gather its inputs (players, history, standings)
and store what it returns. Seating touches no rating.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from sqlmodel import Session

from ..errors import TourneyError
from ..errors.words import N_, Message
from ..records.csv_format import DealRecord
from ..simulation import simulate_match
from ..storage.models import Event
from ..tournament import rounds as stored_rounds
from ..tournament import seating_import
from ..tournament.arbiter import absences
from ..tournament.events import get_event
from ..tournament.forfeits import ForfeitInfo, list_forfeits
from ..tournament.rounds import RoundSeating, round_seating
from ..tournament.seat_changes import (
    AbsenceReport,
    Clock,
    SeatChange,
    forced_size_words,
    mark_absent,
    move_player,
    round_clock,
    start_clock,
    substitute_player,
    swap_players,
)
from ..tournament.seating_import import SeatingFileRejected
from ..tournament.settings import event_settings
from ..tournament.table_links import round_links

# A round seated by any way (the command line, the organizer's page, a file) has its
# tables' links from the start: a player's own page links to their table's score
# sheet whether or not `round links` was run.

def seat_next_round(session: Session, event: Event, *, force: bool = False) -> RoundSeating:
    """Seat the event's next round, store it and make its tables' links."""
    seating = stored_rounds.seat_next_round(session, event, force=force)
    round_links(session, event, seating.number)
    return seating


def reseat_round(session: Session, event: Event, number: int, *,
                 seed: int | None = None) -> tuple[RoundSeating, bool]:
    """Seat a round again (new seating, whether it changed) and make the links of
    its tables (a new table gets one; the others keep theirs)."""
    seating, changed = stored_rounds.reseat_round(session, event, number, seed=seed)
    round_links(session, event, seating.number)
    return seating, changed


def import_seating(session: Session, event: Event, number: int, path: str, *,
                   force: bool = False, sheet: str | None = None,
                   encoding: str | None = None) -> RoundSeating:
    """Seat round ``number`` as the file ``path`` says, and make its tables' links."""
    seating = seating_import.import_seating(session, event, number, path, force=force,
                                            sheet=sheet, encoding=encoding)
    round_links(session, event, seating.number)
    return seating


@dataclass
class RoundShown:
    """A seated round as it is shown (`tourney round show`, the organizer's page and
    its JSON): the seating with everything said about it, the round's clock and
    its forfeited tables with the arbiter's reasons."""

    seating: RoundSeating
    clock: Clock
    forfeits: list[ForfeitInfo] = field(default_factory=list)

    def to_json(self) -> dict:
        seating = self.seating
        return {**seating.to_json(),
                "withdrawn": [w.to_json() for w in seating.withdrawn],
                "reseat": bool(seating.withdrawn) and seating.reseatable,
                "unmet": list(seating.unmet), "absent": list(seating.absent),
                "not_checked_in": list(seating.not_checked_in),
                "checked_in_late": list(seating.checked_in_late),
                "forfeits": [f.to_json() for f in self.forfeits],
                "clock": self.clock.to_json()}


def show_round(session: Session, event: Event, number: int) -> RoundShown:
    """Round ``number`` of ``event`` as it is shown (:class:`RoundShown`)."""
    return RoundShown(round_seating(session, event, number), round_clock(session, event, number),
                      list_forfeits(session, event, number))


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


__all__ = ["AbsenceReport", "Clock", "NothingToSimulate", "RoundSeating", "RoundShown",
           "SeatChange", "SeatingFileRejected", "absences", "forced_size_words",
           "import_seating", "mark_absent", "move_player", "reseat_round", "round_clock",
           "seat_next_round", "show_round", "simulate_round", "start_clock",
           "substitute_player", "swap_players"]
