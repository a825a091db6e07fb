"""Use cases on rounds: seat the next round, reseat the latest one.

The seating itself is pure (:mod:`tourney.pairing`); the services in
:mod:`tourney.tournament.rounds` gather its inputs (players, history, standings)
and store what it returns. Seating touches no rating.
"""
from __future__ import annotations

from ..tournament.rounds import RoundSeating, reseat_round, seat_next_round

__all__ = ["RoundSeating", "reseat_round", "seat_next_round"]
