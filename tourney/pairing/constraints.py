"""The arbiter's constraints on seating: pairs kept apart, players fixed to a table.

Plain data, no database. Player keys are the same ints the seating uses
(:class:`.history.Entrant.key`); tables are indexes into the round's tables, in the
order :func:`.seating.seat_round` returns them (0 = the first table, printed as 1).

The seating honours the constraints while it can (:func:`honour_constraints`, after
the search, by trading places of two players): a fixed player is moved to their
table, and a kept-apart pair is split, weighed above any repeated meeting. What
could not be met is listed in :attr:`.history.Seating.unmet`, each with the reason,
so that the seat list can say so.
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
    ``"bye"``, ``"table-full"`` (every seat there is held by a player fixed to it),
    ``"seated-elsewhere"`` (a seating given put them at another table), ``"absent"``)
    or, for apart, ``"unavoidable"`` / ``"not-found"`` (the search found no seating
    without it; it may exist) / ``"partable"`` (the seating, as given or changed by
    hand, puts them together, and trading the places of ``swap``'s two players parts
    them, breaking no other constraint: :func:`parting_swap`, which the round's
    report asks of each pair that is not unavoidable).
    """

    kind: str
    players: tuple[int, ...]
    table: int | None
    reason: str
    swap: tuple[int, int] | None = None


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
        elif all(constraints.fixed.get(other) == want for other in tables[want]):
            reason = "table-full"  # every seat there is another's who is fixed to it
        else:
            reason = "seated-elsewhere"  # a seating given (an imported one, a move)
        if reason != "absent":
            found.append(Unmet("fixed", (key,), want, reason))
    for a, b in sorted(constraints.apart):
        if a in table_of and table_of.get(b) == table_of[a]:
            found.append(Unmet("apart", (a, b), table_of[a], "not-found"))
    return found


def parting_swap(tables: Sequence[Sequence[int]], constraints: SeatingConstraints,
                 a: int, b: int) -> tuple[int, int] | None:
    """Two players whose trade of places parts ``a`` and ``b`` (sharing a table)
    without seating any kept-apart pair together or moving a fixed player off their
    table: ``(b or a, a player of another table)``, the first in table and seat
    order; None when no such trade exists. A seating the search made has none (it
    would have made the trade), so one found says the seating was given or changed
    by hand, and how to mend it."""
    table_of = {key: t for t, table in enumerate(tables) for key in table}
    here = table_of[a]

    def apart(x: int, y: int) -> bool:
        return pair(x, y) in constraints.apart

    for mover in (b, a):
        if constraints.fixed.get(mover) == here:
            continue
        stays = [k for k in tables[here] if k != mover]
        for there, table in enumerate(tables):
            if there == here:
                continue
            for other in table:
                if constraints.fixed.get(other) == there:
                    continue
                if any(apart(mover, k) for k in table if k != other):
                    continue
                if any(apart(other, k) for k in stays):
                    continue
                return mover, other
    return None


def honour_constraints(tables: list[list[int]], constraints: SeatingConstraints | None,
                       met: Mapping[tuple[int, int], int]) -> list[list[int]]:
    """``tables`` with the constraints met where a swap of two players can do it.

    Fixed players first: each seated one not at their table trades places with a
    player there who is not fixed to it. Then each kept-apart pair at one table: one
    of the two trades places with a player of another table, the swap breaking the
    fewest constraints and then repeating the fewest pairs (``met``) kept. A kept-apart
    pair weighs above any repeat; a swap never moves a fixed player off their table.
    What cannot be met stays, for :func:`unmet_constraints` to list.
    """
    if not constraints:
        return tables
    tables = [list(t) for t in tables]
    fixed = {k: t for k, t in constraints.fixed.items() if 0 <= t < len(tables)}
    apart_of: dict[int, set[int]] = {}
    for a, b in constraints.apart:
        apart_of.setdefault(a, set()).add(b)
        apart_of.setdefault(b, set()).add(a)

    def where() -> dict[int, int]:
        return {key: t for t, table in enumerate(tables) for key in table}

    def movable(key: int, to: int) -> bool:
        return key not in fixed or fixed[key] == to

    def cost(key: int, t: int, without: int) -> tuple[int, int]:
        """(kept-apart partners, repeated meetings) of ``key`` at table ``t``."""
        others = [o for o in tables[t] if o != without and o != key]
        return (sum(o in apart_of.get(key, ()) for o in others),
                sum(pair(key, o) in met for o in others))

    for key, want in sorted(fixed.items()):
        table_of = where()
        if key not in table_of or table_of[key] == want:
            continue
        here = table_of[key]
        best = None
        for other in tables[want]:
            if not movable(other, here):
                continue
            a, b = cost(key, want, other), cost(other, here, key)
            score = (a[0] + b[0], a[1] + b[1], other)
            if best is None or score < best[0]:
                best = (score, other)
        if best is not None:
            other = best[1]
            tables[here][tables[here].index(key)] = other
            tables[want][tables[want].index(other)] = key

    for a, b in sorted(constraints.apart):
        table_of = where()
        if a not in table_of or table_of.get(b) != table_of[a]:
            continue
        here = table_of[a]
        best = None
        for mover in (a, b):
            if not movable(mover, -1):
                continue
            before = cost(mover, here, -1)
            for t, table in enumerate(tables):
                if t == here:
                    continue
                for other in table:
                    if not movable(other, -1):
                        continue
                    now_mover, now_other = cost(mover, t, other), cost(other, here, mover)
                    was_other = cost(other, t, -1)
                    score = (now_mover[0] + now_other[0] - before[0] - was_other[0],
                             now_mover[1] + now_other[1] - before[1] - was_other[1],
                             mover, other)
                    if score[0] < 0 and (best is None or score < best[0]):
                        best = (score, mover, other, t)
        if best is not None:
            _, mover, other, t = best
            tables[here][tables[here].index(mover)] = other
            tables[t][tables[t].index(other)] = mover
    return tables
