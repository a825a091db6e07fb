"""Use cases on events: create one, change its settings, delete it, enter and
withdraw players, set the arbiter's seating constraints.

None of them touches a result or a rating (an event with results cannot be
deleted, nor its house rules or points changed), so they are the tournament
services themselves, gathered here so that callers have one surface.
``get_event`` finds an event by slug (the one message for an unknown event).
"""
from __future__ import annotations

from ..tournament.arbiter import set_constraints
from ..tournament.events import (
                                 change_event,
                                 create_event,
                                 delete_event,
                                 enter_players,
                                 get_event,
                                 last_seated_round,
                                 withdraw_player,
)

__all__ = ["change_event", "create_event", "delete_event", "enter_players", "get_event",
           "last_seated_round", "set_constraints", "withdraw_player"]
