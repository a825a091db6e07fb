"""Use cases on events: create one, enter and withdraw players.

None of them touches a result or a rating, so they are the tournament services
themselves, gathered here so that callers have one surface. ``get_event`` finds an
event by slug (the one message for an unknown event).
"""
from __future__ import annotations

from ..tournament.events import (create_event, enter_players, get_event, last_seated_round,
                                 withdraw_player)

__all__ = ["create_event", "enter_players", "get_event", "last_seated_round",
           "withdraw_player"]
