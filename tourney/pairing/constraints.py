"""The arbiter's constraints on seating: pairs kept apart, players fixed to a table.

Plain data, no database. Player keys are the same ints the seating uses
(:class:`.history.Entrant.key`); tables are indexes into the round's tables, in the
order :func:`.seating.seat_round` returns them (0 = the first table, printed as 1).

The seating honours the constraints while it can: a kept-apart pair is weighed above
any repeated meeting, a fixed player is placed at their table before the search
starts. What could not be met is listed in :attr:`.history.Seating.unmet`, each with
the reason, so that the seat list can say so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from .history import pair


@dataclass(frozen=True)
class SeatingConstraints:
    """What the arbiter asks of a round's seating.

    ``apart``: unordered pairs of player keys that should not share a table (a
    club's members give every pair among them). ``fixed``: player key -> table index.
    """

    apart: frozenset[tuple[int, int]] = frozenset()
    fixed: Mapping[int, int] = field(default_factory=dict)

    @classmethod
    def build(cls, apart: Sequence[tuple[int, int]] = (),
              fixed: Mapping[int, int] | None = None) -> "SeatingConstraints":
        return cls(frozenset(pair(a, b) for a, b in apart if a != b), dict(fixed or {}))

    def __bool__(self) -> bool:
        return bool(self.apart or self.fixed)


@dataclass(frozen=True)
class Unmet:
    """One constraint the seating could not meet.

    ``kind`` is ``"apart"`` (``players`` sat at ``table`` together) or ``"fixed"``
    (``players[0]`` is not at ``table``; ``reason`` says why: ``"no-such-table"``,
    ``"bye"``, ``"table-full"``, ``"absent"``) or, for apart, ``"unavoidable"`` /
    ``"not-found"`` (the search found no seating without it; it may exist).
    """

    kind: str
    players: tuple[int, ...]
    table: int | None
    reason: str


def unmet_constraints(tables: Sequence[Sequence[int]], byes: Sequence[int],
                      constraints: SeatingConstraints | None,
                      present: Sequence[int] | None = None) -> list[Unmet]:
    """Every constraint ``tables`` break, in a stable order."""
    if not constraints:
        return []
    table_of = {key: t for t, table in enumerate(tables) for key in table}
    found: list[Unmet] = []
    for key, want in sorted(constraints.fixed.items()):
        if key in table_of and table_of[key] == want:
            continue
        if present is not None and key not in present and key not in table_of:
            reason = "absent"
        elif key in byes:
            reason = "bye"
        elif not 0 <= want < len(tables):
            reason = "no-such-table"
        else:
            reason = "table-full"
        if reason != "absent":
            found.append(Unmet("fixed", (key,), want, reason))
    for a, b in sorted(constraints.apart):
        if a in table_of and table_of.get(b) == table_of[a]:
            found.append(Unmet("apart", (a, b), table_of[a], "not-found"))
    return found
