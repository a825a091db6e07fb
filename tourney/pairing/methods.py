"""The seating methods by name, and the default for a table size: what an event
stores and checks without loading the seating algorithms (:mod:`.seating`, which
imports every planner), so a command that lists or creates events stays light."""
from __future__ import annotations

METHODS = ("balanced", "swiss", "random")


def default_method(min_size: int, max_size: int) -> str:
    """``swiss`` for two-player tables (dam-brade), ``balanced`` otherwise."""
    return "swiss" if max_size == 2 else "balanced"
