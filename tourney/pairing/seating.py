"""Seating a round: table sizes, byes, and who sits where.

The entry points are :func:`plan_table_sizes` and :func:`seat_round`. An event's
variant allows tables of ``min_size..max_size`` players and prefers ``preferred``
(spardame 3-5, preferring 4; svarta-maja 2-6; dam-brade exactly 2). Seat 0 deals
first; at a two-player table seat 0 plays Black.

Methods (:data:`METHODS`):

``balanced`` (the default for tables of three or more)
    As few repeated meetings over the event as possible, seat positions balanced.
    Where the field is one of the perfect schedules of :mod:`.schedules` (all tables
    one size, no byes) and every earlier round of the event is a round of that
    schedule under this seed's player mapping, the next unused round of it is
    played: 16 players at 4 go 5 rounds, 20 go 5, 24 go 7, 28 go 9, 32 go 10, 36
    go 11, 40 go 13, 44 go 11, 48 go 15, 52 go 17, 64 go 21 without any pair meeting
    twice, with or without ``total_rounds`` (an open-ended event follows the schedule
    round by round just the same). Otherwise (late entries, withdrawals, mixed sizes, rounds past the
    schedule's end, earlier rounds seated another way) a seeded tabu search
    (:mod:`.groups`) picks the tables with the fewest repeated pairs it can find.
``swiss`` (the default for two-player tables)
    Players with equal or close points meet, no rematches unless unavoidable, colours
    alternate; see :mod:`.swiss`.
``random``
    A seeded shuffle into the planned tables.

Byes, every method: only as many as :func:`plan_table_sizes` finds no legal split for;
each goes to the player with the fewest byes who ranks lowest (see
:func:`.history.bye_order`), so nobody gets a second bye while anyone present has had
none.

Reproducibility: every draw comes from ``random.Random(f"{seed}:{round_number}")``,
except the player-to-point mapping of a perfect schedule, which must stay the same
all event and so is drawn from ``random.Random(f"{seed}:perfect:{n}:{k}")``. The
entrants' order in the call never matters (they are sorted by key first).

Decisions (the rules of the games say nothing about seating):

- Table sizes: the fewest byes first; then as many tables of the preferred size as
  possible; the rest split into the other allowed sizes with the smallest sum of
  squared distances from the preferred size, then the fewest tables
  (:func:`plan_table_sizes`). ``balanced`` with sizes that may differ then searches the
  SPLITS_TRIED splits closest to that one (:func:`size_splits`) and keeps the one
  meeting the fewest pairs again: repeated pairs first, the preferred size after.
  Sizes are listed largest first, and tables come back in that order.
- Repeated meetings are weighed per pair (see :func:`.groups.meeting_weights`): first
  the number of pairs that met before, then how often they met, then how recently.
  Without ``total_rounds`` only the round being seated is optimised. With it, and a
  small field (players times rounds left at most PLAN_MAX_WORK) without byes, the
  remaining rounds are planned together and the plan is followed while the history
  matches it (:func:`follow_event_plan`): a greedy round-by-round seating can paint
  itself into a corner that a joint plan avoids (20 players at 4 over 5 rounds: 0
  repeats planned, 2 or 3 greedily).
- A perfect schedule is followed only when the history matches it exactly (same
  players every round, no byes, each round one of the schedule's rounds). The order of
  its rounds and the player mapping are drawn from the seed.
- The returned :class:`~.history.Seating` names in ``method`` what was done:
  ``"perfect"`` for a perfect-schedule round, else the method asked for.
"""
from __future__ import annotations

import random
from typing import Sequence

from ..errors import OptionError
from ..errors.words import N_, Message, quoted
from . import swiss
from .constraints import SeatingConstraints, honour_constraints, unmet_constraints
from .groups import meeting_weights, order_seats, plan_rounds, split_into_tables, table_size_costs
from .history import Entrant, EventHistory, PastRound, Seating, bye_order, check_entrants
from .methods import METHODS, default_method
from .schedules import perfect_schedules

# Joint planning of the rest of an event is used while players x rounds left is at
# most this (about half a second of search at the limit); larger fields have room
# enough that seating round by round loses little.
PLAN_MAX_WORK = 1200

__all__ = ["Entrant", "PastRound", "Seating", "METHODS", "default_method",
           "plan_table_sizes", "seat_round"]


def check_sizes(min_size: int, max_size: int, preferred: int) -> None:
    if min_size < 2:
        raise OptionError(Message(N_("a table seats at least 2 players, not %(size)s"),
                                  {"size": min_size}))
    if not min_size <= preferred <= max_size:
        raise OptionError(Message(
            N_("preferred table size %(size)s is not within %(least)s..%(most)s"),
            {"size": preferred, "least": min_size, "most": max_size}))


def plan_table_sizes(n_players: int, min_size: int, max_size: int,
                     preferred: int) -> tuple[list[int], int]:
    """Table sizes for ``n_players`` (largest first) and how many players get a bye.

    Byes only where no legal split exists: 22 players at 3-5 preferring 4 give
    ``([4, 4, 4, 4, 3, 3], 0)``, 5 players at exactly 2 give ``([2, 2], 1)``, 1 player
    gives ``([], 1)``. See the module docstring for how ties are settled.
    """
    check_sizes(min_size, max_size, preferred)
    if n_players < 0:
        raise OptionError(Message(N_("cannot seat %(count)s players"), {"count": n_players}))
    others = [s for s in range(min_size, max_size + 1) if s != preferred]
    # rest[r]: the best split of r players into the non-preferred sizes, as
    # (sum of squared distances from preferred, tables, last size), or None.
    rest: list[tuple[int, int, int] | None] = [None] * (n_players + 1)
    rest[0] = (0, 0, 0)
    for r in range(1, n_players + 1):
        for size in others:
            if size <= r and rest[r - size] is not None:
                dev, count, _ = rest[r - size]
                candidate = (dev + (size - preferred) ** 2, count + 1, size)
                if rest[r] is None or candidate[:2] < rest[r][:2]:
                    rest[r] = candidate
    for byes in range(n_players + 1):
        seated = n_players - byes
        for n_preferred in range(seated // preferred, -1, -1):
            r = seated - n_preferred * preferred
            if rest[r] is not None:
                sizes = [preferred] * n_preferred
                while r:
                    size = rest[r][2]
                    sizes.append(size)
                    r -= size
                return sorted(sizes, reverse=True), byes
    raise AssertionError("unreachable: seating nobody is always legal")


# Table-size splits searched per round when sizes may differ (see _seat_round), and
# the fields they are searched for (beyond, one search: a big field has room enough).
SPLITS_TRIED = 4
SPLIT_SEARCH_MAX_PLAYERS = 200


def size_splits(seated: int, min_size: int, max_size: int, preferred: int, limit: int,
                *, first: Sequence[int]) -> list[list[int]]:
    """``first`` (:func:`plan_table_sizes`' split), then the other splits of ``seated``
    players into tables of ``min_size..max_size``, closest to the preferred size
    first (sum of squared distances, then fewer tables): ``limit`` in all, one for a
    field past SPLIT_SEARCH_MAX_PLAYERS or sizes that cannot differ."""
    splits = [list(first)]
    if min_size == max_size or seated > SPLIT_SEARCH_MAX_PLAYERS or not first:
        return splits
    found: list[tuple[int, int, list[int]]] = []

    def extend(left: int, largest: int, sizes: list[int]) -> None:
        if left == 0:
            found.append((sum((x - preferred) ** 2 for x in sizes), len(sizes), sizes[:]))
            return
        for size in range(min(largest, left), min_size - 1, -1):
            sizes.append(size)
            extend(left - size, size, sizes)
            sizes.pop()
            if len(found) > 10_000:  # a guard: fields this size have a few hundred
                return

    extend(seated, max_size, [])
    for _, _, split in sorted(found):
        if split != splits[0] and len(splits) < limit:
            splits.append(split)
    return splits


def seat_round(
    entrants: Sequence[Entrant],
    history: Sequence[PastRound],
    *,
    min_size: int,
    max_size: int,
    preferred: int,
    method: str,
    seed: int,
    round_number: int,
    total_rounds: int | None = None,
    constraints: SeatingConstraints | None = None,
) -> Seating:
    """Seat one round. See the module docstring for the methods and rules.

    ``history`` is every earlier round of the event in order (players who have left
    may appear in it; players who joined late simply have less of it).
    ``total_rounds`` (the event's length, if known) lets ``balanced`` plan the rest
    of the event at once for small fields (see :func:`follow_event_plan`).
    ``constraints`` (:mod:`.constraints`) are the arbiter's: what could not be met is
    listed in the result's ``unmet``.
    """
    seating = _seat_round(entrants, history, min_size=min_size, max_size=max_size,
                          preferred=preferred, method=method, seed=seed,
                          round_number=round_number, total_rounds=total_rounds,
                          constraints=constraints)
    seating.unmet = unmet_constraints(seating.tables, seating.byes, constraints,
                                      present=[e.key for e in entrants])
    return seating


def _seat_round(entrants, history, *, min_size, max_size, preferred, method, seed,
                round_number, total_rounds, constraints) -> Seating:
    if method not in METHODS:
        raise OptionError(Message(N_("unknown seating method %(method)s; use one of "
                                     "%(methods)s"),
                                  {"method": quoted(method), "methods": list(METHODS)}))
    check_sizes(min_size, max_size, preferred)
    players = check_entrants(entrants)
    past = EventHistory(history)
    rng = random.Random(f"{seed}:{round_number}")
    sizes, n_byes = plan_table_sizes(len(players), min_size, max_size, preferred)

    if method == "swiss":
        return swiss.seat_swiss(players, past, sizes, n_byes, rng,
                                last_round=total_rounds is not None
                                and round_number >= total_rounds)

    byes = sorted(e.key for e in bye_order(players, past, rng)[:n_byes])
    bye_set = set(byes)
    keys = [e.key for e in players if e.key not in bye_set]

    if method == "random":
        rng.shuffle(keys)
        tables, start = [], 0
        for size in sizes:
            tables.append(keys[start:start + size])
            start += size
        tables = honour_constraints(tables, constraints, past.met)
        return Seating(tables, byes, past.repeated_pairs(tables), "random")

    tables = follow_perfect_schedule(keys, sizes, history, seed)
    used = "perfect"
    if tables is None:
        used = "balanced"
        # The joint plan knows meetings only; with tables of several sizes the round
        # is seated on its own so that the sizes can be shared out.
        if total_rounds is not None and n_byes == 0 and len(set(sizes)) == 1:
            tables = follow_event_plan(keys, sizes, history, seed, total_rounds)
    if tables is None:
        weights = meeting_weights(keys, past)
        best = None
        # Repeated pairs first, the preferred size after: with tables of several sizes
        # allowed, the splits closest to the preferred size are each searched and the
        # one meeting the fewest pairs again is kept (13 players at 3-5 after a round
        # of 5+4+4: 5+4+4 again repeats at least 3 pairs, 4+3+3+3 can repeat 1).
        for rank, split in enumerate(size_splits(len(keys), min_size, max_size, preferred,
                                                 SPLITS_TRIED, first=sizes)):
            groups = split_into_tables(split, weights, rng,
                                       seat_costs=table_size_costs(keys, split, past))
            tried = [[keys[i] for i in group] for group in groups]
            score = (past.repeated_pairs(tried), rank)
            if best is None or score < best[0]:
                best = (score, tried)
            if score[0] == 0:
                break  # no repeat: nothing beats the closest split to the preferred size
        tables = best[1]
    if constraints:
        honoured = honour_constraints(tables, constraints, past.met)
        if honoured != tables:
            used = "balanced"  # a perfect schedule's round changed is one no longer
        tables = honoured
    seated = [order_seats(table, past, rng) for table in tables]
    return Seating(seated, byes, past.repeated_pairs(seated), used)


def follow_perfect_schedule(keys: Sequence[int], sizes: Sequence[int],
                            history: Sequence[PastRound], seed: int) -> list[list[int]] | None:
    """The next round of a perfect schedule for this field, or None if none applies.

    Applies when all tables have one size k, :func:`.schedules.perfect_schedules` knows
    a schedule for len(keys) players at k, and every past round seated exactly these
    players, without byes, as one of the schedule's rounds not used before (under
    this seed's mapping of sorted keys to points). The next round is the first unused
    one in the seed's order of rounds; None once all are used. Of several schedules
    for the field the longest one that the history matches is followed (a new event
    takes the longest; one begun on another goes on with it).
    """
    if not sizes or len(set(sizes)) != 1:
        return None
    n, k = len(keys), sizes[0]
    for schedule in perfect_schedules(n, k):
        tables = _next_scheduled_round(schedule, keys, history, seed, k)
        if tables is not None:
            return tables
    return None


def _next_scheduled_round(schedule, keys, history, seed, k) -> list[list[int]] | None:
    n = len(keys)
    draw = random.Random(f"{seed}:perfect:{n}:{k}")
    points = list(range(n))
    draw.shuffle(points)
    round_order = list(range(len(schedule)))
    draw.shuffle(round_order)
    ordered_keys = sorted(keys)
    point_of = {key: points[i] for i, key in enumerate(ordered_keys)}
    key_of = {points[i]: key for i, key in enumerate(ordered_keys)}
    index_of = {rnd: i for i, rnd in enumerate(schedule)}
    used: set[int] = set()
    for past in history:
        if past.byes:
            return None
        try:
            mapped = tuple(sorted(tuple(sorted(point_of[key] for key in table))
                                  for table in past.tables))
        except KeyError:
            return None
        index = index_of.get(mapped)
        if index is None or index in used:
            return None
        used.add(index)
    for index in round_order:
        if index not in used:
            return [[key_of[point] for point in table] for table in schedule[index]]
    return None


def follow_event_plan(keys: Sequence[int], sizes: Sequence[int],
                      history: Sequence[PastRound], seed: int,
                      total_rounds: int) -> list[list[int]] | None:
    """This round from a joint plan of the event's remaining rounds, or None.

    The plan is anchored at the first round of the history's trailing run seated with
    exactly these players at these table sizes without byes (round s+1, say): it
    covers rounds s+1..total_rounds given the meetings before s+1, and is drawn from
    ``random.Random(f"{seed}:plan:{s}")``, so every call in the run recomputes the same
    plan. If the rounds since s are that plan's first rounds, the next one is
    returned; otherwise (they were seated some other way) the rest of the event is
    planned afresh from now. None when fewer than two rounds are left, the field is
    too large to plan (PLAN_MAX_WORK), or so large for the event's length that no
    player meets half of it (seating round by round then finds no repeats anyway).
    """
    played = len(history)
    left = total_rounds - played
    if left < 2 or len(keys) * left > PLAN_MAX_WORK or len(sizes) < 2:
        return None
    if total_rounds * (max(sizes) - 1) * 2 <= len(keys) - 1:
        # Nobody meets even half the field: round by round loses nothing here.
        return None
    ordered = sorted(keys)
    wanted_sizes = sorted(sizes)
    field = set(ordered)
    anchor = played
    while anchor > 0:
        past = history[anchor - 1]
        if past.byes or sorted(len(t) for t in past.tables) != wanted_sizes:
            break
        if {k for t in past.tables for k in t} != field:
            break
        anchor -= 1
    index = {key: i for i, key in enumerate(ordered)}

    def planned(start: int) -> list[list[list[int]]]:
        met = EventHistory(history[:start]).met
        n = len(ordered)
        counts = [[0] * n for _ in range(n)]
        for (a, b), c in met.items():
            if a in index and b in index:
                counts[index[a]][index[b]] = counts[index[b]][index[a]] = c
        rng = random.Random(f"{seed}:plan:{start}")
        return plan_rounds(sizes, total_rounds - start, counts, rng)

    def partition(tables) -> frozenset:
        return frozenset(frozenset(t) for t in tables)

    if anchor < played:
        plan = planned(anchor)
        followed = all(
            partition([index[k] for k in t] for t in history[anchor + i].tables)
            == partition(plan[i])
            for i in range(played - anchor))
        if followed and played - anchor < len(plan):
            return [[ordered[i] for i in t] for t in plan[played - anchor]]
    plan = planned(played)
    return [[ordered[i] for i in t] for t in plan[0]]
