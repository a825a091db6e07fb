"""Use cases on events: create one, change its settings, delete it, enter and
withdraw players, set the arbiter's seating constraints.

None of them touches a result or a rating (an event with results cannot be
deleted, nor its house rules or points changed), so they are the tournament
services themselves, gathered here so that callers have one surface; a change of
settings (tie-breaks, bye points) or a withdrawal then keeps the event's standings
snapshot if it is in a series (:mod:`tourney.tournament.snapshots`).
``get_event`` finds an event by slug (the one message for an unknown event).
"""
from __future__ import annotations

from ..tournament import events
from ..tournament.arbiter import set_constraints
from ..tournament.events import (
                                 create_event,
                                 delete_event,
                                 enter_players,
                                 get_event,
                                 last_seated_round,
)
from ..tournament.snapshots import keeping_snapshots

change_event = keeping_snapshots(events.change_event)
withdraw_player = keeping_snapshots(events.withdraw_player)

__all__ = ["change_event", "create_event", "delete_event", "enter_players", "get_event",
           "last_seated_round", "set_constraints", "withdraw_player"]
