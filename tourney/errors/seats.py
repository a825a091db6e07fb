"""Seats as people count them.

Inside tourney a seat is a 0-based int (seat 0 deals or leads first), in records,
engines, the database and the pairing. People count seats from 1: every text made
for them (error messages, deal notes, ``result show``, seat lists, JSON error
objects) converts here, and nowhere else. It lives beside the errors, whose
positions it words ("seat 2"), because the engines, which import only the
engines, cards and errors, word seats too.
"""
from __future__ import annotations

from typing import Iterable


def seat_number(seat: int | None) -> int | None:
    """The seat as people count it (from 1); ``None`` stays ``None``."""
    return None if seat is None else seat + 1


def seat_text(seat: int) -> str:
    """``seat 3`` for the 0-based seat 2."""
    return f"seat {seat + 1}"


def seat_numbers(seats: Iterable[int]) -> str:
    """Several seats as people count them: ``1, 2, 4``."""
    return ", ".join(str(seat + 1) for seat in seats)


def seats_text(seats: Iterable[int]) -> str:
    """``seat 2`` for one seat, ``seats 2, 3`` for several (from 1)."""
    seats = list(seats)
    return seat_text(seats[0]) if len(seats) == 1 else f"seats {seat_numbers(seats)}"
