"""Splitting players into tables with few repeated meetings, and ordering the seats.

:func:`split_into_tables` is a seeded tabu search over swaps of two players at
different tables (after Dotú and Van Hentenryck's local search for the social golfer
problem), started from a greedy split. The cost of a split is the sum, over every pair
sharing a table, of that pair's weight; the weights come from :func:`meeting_weights`
(or any other positive integer weights in the same sparse rows: the Swiss seating of
larger tables adds score differences, which makes its rows dense). A player is *in
conflict* when its table costs it something; each step takes up to six such players
and makes the best swap of one of them with anyone at another table that the tabu
list allows (a forbidden swap is allowed when it beats the best split found); when
steps stop helping, the search goes back to the best split and shakes it with a few
random swaps. It stops at a split no other can beat: no pair weight left and the
seat costs at their least (see :func:`_seat_cost_bound`).

Weights are sparse, because seating has to scale to fields of many thousands
(issue 34: a dense n x n matrix and per-player, per-table arrays took 3.5 GB and most
of a minute at 16,000 players): a player's row holds only those it has a weight with
(in ``balanced`` seating, the handful it has met), a player's *affinity* (what it
would pay at each table) only the tables where that is positive, and the tabu list
only the moves made. The greedy start and a swap touch the players concerned and
those they have weights with, never every player or every table; a step's scan for
the best partner of a conflicted player is its one pass over the field. Seat costs
are kept per table size, not per table (sizes are few). A first round, where nobody
has met, is split greedily with no conflict left to search.

Everything is driven by the ``random.Random`` passed in and by iteration counts, never
by the clock, so a seed gives the same tables on any machine.

:func:`plan_rounds` plans several rounds at once (used when the event's length is
known and the field is small): rounds built one by one as above, then a tabu search
over swaps inside any round, aimed at the pairs that meet more than once.

:func:`order_seats` then puts each table's players in seat order so that seat 0 (who
deals first, or plays Black) and the other seats go round evenly over the event, and
nobody keeps sitting at the same neighbour's left.
"""
from __future__ import annotations

import random
from itertools import permutations
from typing import Sequence

from .history import EventHistory

# Weight of a pair that has met before: large enough that one repeated pair costs
# more than any arrangement of the secondary terms below it.
REPEAT_WEIGHT = 1_000_000
# Each earlier meeting beyond the first: meeting a third time is worse than a second.
EXTRA_MEETING_WEIGHT = 10_000
# A recent meeting is worse than an old one: this much per round closer than RECENT.
RECENCY_WEIGHT = 100
RECENT = 10

# Sharing out table sizes (table_size_costs): below a repeated pair and a further
# meeting, so repeats are kept as few as possible first and the sizes are then shared
# out as evenly as that allows (above the recency of a repeat: a player's rounds at
# the big table weigh more than which old pair meets).
SIZE_WEIGHT = REPEAT_WEIGHT // 1000

# Seat weights for order_seats: seat 0 deals first, so being dealer is balanced hardest.
DEALER_SEAT_WEIGHT = 4
OTHER_SEAT_WEIGHT = 1
# Sitting again at the same player's left (passing cards to them, attacking them).
NEIGHBOUR_WEIGHT = 2
# Joint planning: the repeated pairs whose players a step tries to move.
PLAN_PAIRS_PER_STEP = 2
# Tables up to this size get their seat order by trying every permutation.
EXACT_SEAT_ORDER_MAX = 6


def meeting_weights(keys: Sequence[int], history: EventHistory) -> list[dict[int, int]]:
    """The pair weights for ``keys`` from past meetings, as sparse rows.

    ``weights[i][j]`` (indices into ``keys``) is there only for a pair that met:
    REPEAT_WEIGHT, plus EXTRA_MEETING_WEIGHT for each meeting beyond the first, plus
    RECENCY_WEIGHT per round the last meeting is closer than RECENT rounds ago. A pair
    that never met weighs 0 and has no entry, so the rows cost memory in proportion
    to the meetings played, not to the square of the field.
    """
    index = {k: i for i, k in enumerate(keys)}
    weights: list[dict[int, int]] = [{} for _ in keys]
    for (a, b), count in history.met.items():
        i = index.get(a)
        j = index.get(b)
        if i is None or j is None:
            continue
        ago = history.rounds_since(a, b) or RECENT
        w = (REPEAT_WEIGHT + EXTRA_MEETING_WEIGHT * (count - 1)
             + RECENCY_WEIGHT * max(0, RECENT - ago))
        weights[i][j] = weights[j][i] = w
    return weights


def table_size_costs(keys: Sequence[int], sizes: Sequence[int],
                     history: EventHistory) -> list[dict[int, int]] | None:
    """``seat_costs`` for :func:`split_into_tables` that share out table sizes.

    Sitting at a table of size s costs SIZE_WEIGHT * (2c + 1), c the player's earlier
    rounds at that size: the growth of the sum of squares of each player's counts
    per size, so the counts stay level (two players who played every round differ
    by at most one at each size wherever a split allows it). One cost per player and
    distinct size (sizes are few, tables many). None when every table has one size
    (nothing to share out).
    """
    distinct = sorted(set(sizes))
    if len(distinct) < 2:
        return None
    costs = []
    for key in keys:
        at = history.size_counts.get(key, {})
        costs.append({size: SIZE_WEIGHT * (2 * at.get(size, 0) + 1) for size in distinct})
    return costs


def split_into_tables(
    sizes: Sequence[int],
    weights: Sequence[dict[int, int]],
    rng: random.Random,
    *,
    start: Sequence[Sequence[int]] | None = None,
    max_iterations: int | None = None,
    lower_bound: int = 0,
    seat_costs: Sequence[dict[int, int]] | None = None,
) -> list[list[int]]:
    """Split players 0..n-1 (n = sum(sizes)) into tables of ``sizes``, cheap pairs together.

    ``weights[x]`` maps each player y that x costs something with to that weight
    (symmetric, positive; a pair without an entry weighs 0): see the module docstring.
    ``seat_costs[x][s]``, when given, is what putting player x at a table of size s
    costs on its own (added to the pair weights): the seating uses it to share out
    table sizes (:func:`table_size_costs`). A player costing more where it sits than at
    its cheapest table counts as in conflict, so the search moves it.

    ``start`` is an initial split (table ``t`` of size ``sizes[t]``); by default a
    greedy one. The search stops at ``lower_bound`` (no split costs less) or after
    ``max_iterations`` steps, default a budget that grows with the field. Tables come
    back in the order of ``sizes``, players within a table in no particular order.
    """
    n = sum(sizes)
    m = len(sizes)
    if m == 0:
        return []
    if m == 1:
        return [list(range(n))]
    members = [list(t) for t in start] if start is not None else _greedy_split(sizes, weights, rng)
    if max_iterations is None:
        max_iterations = 400 + 40 * m
    table_of = [0] * n
    for t, group in enumerate(members):
        for p in group:
            table_of[p] = t
    if seat_costs is not None:
        # Seat costs never all vanish, so without this bound the search would run its
        # whole budget even once it has the best split (a large field: minutes).
        lower_bound = max(lower_bound, _seat_cost_bound(sizes, seat_costs))
    state = _Split(sizes, weights, seat_costs, table_of)
    cost = state.total_cost()
    best_cost = cost
    best_table_of = table_of[:]
    # tabu[(x, t)]: the iteration until which x may not move (back) to table t.
    tabu: dict[tuple[int, int], int] = {}
    stall_limit = 60 + 4 * m
    stall = 0
    iteration = 0
    while best_cost > lower_bound and iteration < max_iterations:
        iteration += 1
        if not state.conflicted:
            break
        # Sorted, so that the sample depends on the seed and the split only.
        conflicted = sorted(state.conflicted)
        if len(conflicted) > 6:
            conflicted = rng.sample(conflicted, 6)
        tabu = {key: until for key, until in tabu.items() if until > iteration}
        best_delta = None
        choices: list[tuple[int, int]] = []
        table_of = state.table_of
        affinity = state.affinity
        size_of = sizes
        for p in conflicted:
            a = table_of[p]
            ap = affinity[p]
            wp = weights[p]
            own = ap.get(a, 0)
            # base[b]: what moving p to table b changes for p (all q at b share it).
            base = [ap.get(b, 0) - own for b in range(m)] if ap else [-own] * m
            if seat_costs is not None:
                up = seat_costs[p]
                here = up[size_of[a]]
                for b in range(m):
                    base[b] += up[size_of[b]] - here
            tabu_p = {t for (x, t) in tabu if x == p}
            tabu_a = {x for (x, t) in tabu if t == a}
            for q in range(n):
                b = table_of[q]
                if b == a:
                    continue
                delta = base[b]
                aq = affinity[q]
                if aq:
                    delta += aq.get(a, 0) - aq.get(b, 0)
                if q in wp:
                    delta -= 2 * wp[q]
                if seat_costs is not None:
                    uq = seat_costs[q]
                    delta += uq[size_of[a]] - uq[size_of[b]]
                if (b in tabu_p or q in tabu_a) and cost + delta >= best_cost:
                    continue
                if best_delta is None or delta < best_delta:
                    best_delta = delta
                    choices = [(p, q)]
                elif delta == best_delta:
                    choices.append((p, q))
        if not choices:
            continue
        p, q = choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]
        a, b = table_of[p], table_of[q]
        state.swap(p, q)
        tenure = 4 + rng.randrange(8)
        tabu[p, a] = iteration + tenure
        tabu[q, b] = iteration + tenure
        cost += best_delta
        if cost < best_cost:
            best_cost = cost
            best_table_of = table_of[:]
            stall = 0
        else:
            stall += 1
            if stall > stall_limit:
                # Stuck: go back to the best split and shake it by a few random swaps.
                stall = 0
                state = _Split(sizes, weights, seat_costs, best_table_of[:])
                for _ in range(1 + n // 16):
                    p, q = rng.randrange(n), rng.randrange(n)
                    if state.table_of[p] != state.table_of[q]:
                        state.swap(p, q)
                cost = state.total_cost()
    result: list[list[int]] = [[] for _ in range(m)]
    for x, t in enumerate(best_table_of):
        result[t].append(x)
    return result


def _seat_cost_bound(sizes: Sequence[int], seat_costs: Sequence[dict[int, int]]) -> int:
    """The least the seat costs alone add up to in any split into ``sizes``: exact
    for two distinct sizes (the players cheapest to move take the smaller tables'
    seats), each player's cheapest size with more."""
    distinct = sorted(set(sizes))
    if len(distinct) != 2:
        return sum(min(c.values()) for c in seat_costs)
    small, large = distinct
    extra = sorted(c[small] - c[large] for c in seat_costs)
    return sum(c[large] for c in seat_costs) + sum(extra[:small * sizes.count(small)])


class _Split:
    """A split under search, with what each player would pay where, kept up to date.

    ``affinity[x]`` maps a table t to x's summed weight to t's members, only where
    that is positive: a player has entries for the tables of those it met, a handful,
    so the whole costs memory in proportion to the meetings, not players x tables.
    ``conflicted`` holds the players whose table costs them something (a pair weight,
    or a seat cost above their cheapest size). A swap updates both for the two players
    and those they have weights with only.
    """

    __slots__ = ("sizes", "weights", "seat_costs", "cheapest", "table_of", "affinity",
                 "conflicted")

    def __init__(self, sizes, weights, seat_costs, table_of):
        self.sizes = sizes
        self.weights = weights
        self.seat_costs = seat_costs
        self.cheapest = None if seat_costs is None else [min(c.values()) for c in seat_costs]
        self.table_of = table_of
        affinity: list[dict[int, int]] = []
        for row in weights:
            ax: dict[int, int] = {}
            for y, w in row.items():
                t = table_of[y]
                ax[t] = ax.get(t, 0) + w
            affinity.append(ax)
        self.affinity = affinity
        self.conflicted = {x for x in range(len(table_of)) if self._in_conflict(x)}

    def _in_conflict(self, x: int) -> bool:
        t = self.table_of[x]
        if self.affinity[x].get(t, 0) > 0:
            return True
        return (self.seat_costs is not None
                and self.seat_costs[x][self.sizes[t]] > self.cheapest[x])

    def total_cost(self) -> int:
        table_of, affinity = self.table_of, self.affinity
        cost = sum(affinity[x].get(table_of[x], 0) for x in range(len(table_of))) // 2
        if self.seat_costs is not None:
            cost += sum(c[self.sizes[table_of[x]]] for x, c in enumerate(self.seat_costs))
        return cost

    def swap(self, p: int, q: int) -> None:
        table_of, affinity = self.table_of, self.affinity
        a, b = table_of[p], table_of[q]
        table_of[p] = b
        table_of[q] = a
        touched = {p, q}
        for mover, old, new in ((p, a, b), (q, b, a)):
            for x, w in self.weights[mover].items():
                ax = affinity[x]
                left = ax[old] - w
                if left:
                    ax[old] = left
                else:
                    del ax[old]
                ax[new] = ax.get(new, 0) + w
                touched.add(x)
        for x in touched:
            if self._in_conflict(x):
                self.conflicted.add(x)
            else:
                self.conflicted.discard(x)


def _greedy_split(sizes: Sequence[int], weights: Sequence[dict[int, int]],
                  rng: random.Random) -> list[list[int]]:
    """Fill the tables one at a time, each seat with the cheapest player left.

    Players are taken in a seeded order, the first of the cheapest for each seat.
    Only those with a weight to someone at the table cost anything, so the scan for a
    seat passes over those alone before it finds one who costs nothing: a field is
    split in time proportional to its size and its meetings, not to its square.
    """
    n = len(weights)
    order = list(range(n))
    rng.shuffle(order)
    # The players left, as a linked list in the seeded order (unlinked when seated).
    after = {order[i]: order[i + 1] if i + 1 < n else None for i in range(n)}
    before = {order[i]: order[i - 1] if i else None for i in range(n)}
    head = order[0] if n else None

    def take(x: int) -> None:
        nonlocal head
        prev, nxt = before.pop(x), after.pop(x)
        if prev is None:
            head = nxt
        else:
            after[prev] = nxt
        if nxt is not None:
            before[nxt] = prev

    tables = []
    for size in sizes:
        first = head
        take(first)
        group = [first]
        # cost[x]: what player x, not yet seated, would pay at this table (if anything).
        cost: dict[int, int] = {}
        for y, w in weights[first].items():
            if y in after:
                cost[y] = cost.get(y, 0) + w
        while len(group) < size:
            x = head
            best, best_w = None, None
            while x is not None:
                w = cost.get(x, 0)
                if best_w is None or w < best_w:
                    best, best_w = x, w
                    if w == 0:
                        break
                x = after[x]
            take(best)
            cost.pop(best, None)
            group.append(best)
            for y, w in weights[best].items():
                if y in after:
                    cost[y] = cost.get(y, 0) + w
        tables.append(group)
    return tables


def order_seats(players: Sequence[int], history: EventHistory, rng: random.Random) -> list[int]:
    """``players`` (keys) in seat order, balancing seats and neighbours over the event.

    Putting player p in seat s costs the seat's weight times ``2*c + 1``, where c is how
    often p sat there before (the growth of a sum of squares, so counts stay even);
    seat 0 weighs most. At tables of three or more, sitting at the left of someone p
    sat at the left of before costs NEIGHBOUR_WEIGHT per earlier time. Ties go to the
    first order found in a seeded shuffle.
    """
    order = list(players)
    rng.shuffle(order)
    k = len(order)
    if k <= 1:
        return order

    def seat_cost(key: int, seat: int) -> int:
        weight = DEALER_SEAT_WEIGHT if seat == 0 else OTHER_SEAT_WEIGHT
        return weight * (2 * history.seat_count(key, seat) + 1)

    cost = [[seat_cost(key, s) for s in range(k)] for key in order]
    neighbour = [[NEIGHBOUR_WEIGHT * history.left_of.get((x, y), 0) if k >= 3 else 0
                  for y in order] for x in order]
    if k > EXACT_SEAT_ORDER_MAX:
        return _greedy_seats(order, cost, neighbour)
    best, best_cost = None, None
    for perm in permutations(range(k)):
        total = 0
        for s, i in enumerate(perm):
            total += cost[i][s] + neighbour[i][perm[(s + 1) % k]]
        if best_cost is None or total < best_cost:
            best, best_cost = perm, total
    return [order[i] for i in best]


def _greedy_seats(order: list[int], cost: list[list[int]], neighbour: list[list[int]]) -> list[int]:
    """Seat by seat from seat 0, each time the player cheapest there (large tables)."""
    k = len(order)
    left = list(range(k))
    seated: list[int] = []
    for s in range(k):
        prev = seated[-1] if seated else None
        i = min(left, key=lambda i: cost[i][s] + (neighbour[prev][i] if prev is not None else 0))
        left.remove(i)
        seated.append(i)
    return [order[i] for i in seated]


def plan_rounds(
    sizes: Sequence[int],
    n_rounds: int,
    met: list[list[int]],
    rng: random.Random,
    *,
    max_evaluations: int = 150_000,
) -> list[list[list[int]]]:
    """Plan ``n_rounds`` rounds of players 0..n-1 at tables of ``sizes`` together.

    ``met[i][j]`` counts the meetings already played (it is not changed). The plan
    minimises, over the whole event, the sum over pairs of ``c * (c - 1) / 2`` for a
    pair meeting c times: every repeated meeting costs, and a third one more than a
    second. Rounds are first built one by one by :func:`split_into_tables`, then a
    tabu search swaps two players of one round, moving a player of a pair that meets
    more than once, until no planned meeting repeats or ``max_evaluations`` candidate
    swaps have been weighed (a count, not a clock, so the plan is reproducible; the
    default is about a third of a second). Rounds come back as lists of tables of player indices.
    """
    n = sum(sizes)
    m = len(sizes)
    plan = _Plan(met, n, n_rounds)
    for r in range(n_rounds):
        weights = [{j: REPEAT_WEIGHT + EXTRA_MEETING_WEIGHT * (c - 1)
                    for j, c in enumerate(row) if c} for row in plan.counts]
        plan.add_round(split_into_tables(sizes, weights, rng, max_iterations=100 + 10 * m))
    if m < 2:
        return plan.rounds
    cost = plan.excess()
    best_cost, best = cost, plan.snapshot()
    tabu = [[[0] * m for _ in range(n)] for _ in range(n_rounds)]
    stall, stall_limit = 0, 100 + 10 * m
    iteration = evaluations = 0
    while cost > 0 and evaluations < max_evaluations:
        iteration += 1
        hot = list(plan.hot)
        if not hot:
            break
        if len(hot) > PLAN_PAIRS_PER_STEP:
            hot = [hot[i] for i in sorted(rng.sample(range(len(hot)), PLAN_PAIRS_PER_STEP))]
        picks = set()
        for a, b in hot:
            for r in plan.together[a, b]:
                picks.add((r, a))
                picks.add((r, b))
        best_delta, choices = None, []
        counts = plan.counts
        for r, p in sorted(picks):
            tables = plan.rounds[r]
            tab_r = plan.table_of[r]
            a = tab_r[p]
            mates_a = [x for x in tables[a] if x != p]
            cp = counts[p]
            leave_p = sum(cp[x] - 1 for x in mates_a)
            tabu_p = tabu[r][p]
            tabu_r = tabu[r]
            evaluations += n + 64  # the step's own overhead counts too
            for b, group in enumerate(tables):
                if b == a:
                    continue
                join_b = sum(cp[y] for y in group)
                for q in group:
                    cq = counts[q]
                    delta = (sum(cq[x] for x in mates_a) - leave_p + join_b - cp[q]
                             - sum(cq[y] - 1 for y in group if y != q))
                    if ((tabu_p[b] > iteration or tabu_r[q][a] > iteration)
                            and cost + delta >= best_cost):
                        continue
                    if best_delta is None or delta < best_delta:
                        best_delta, choices = delta, [(r, p, q)]
                    elif delta == best_delta:
                        choices.append((r, p, q))
        if not choices:
            continue
        r, p, q = choices[rng.randrange(len(choices))]
        a, b = plan.table_of[r][p], plan.table_of[r][q]
        plan.swap(r, p, q)
        tenure = 4 + rng.randrange(8)
        tabu[r][p][a] = iteration + tenure
        tabu[r][q][b] = iteration + tenure
        cost += best_delta
        if cost < best_cost:
            best_cost, best = cost, plan.snapshot()
            stall = 0
        else:
            stall += 1
            if stall > stall_limit:
                # Stuck: back to the best plan, shaken by a few random swaps.
                stall = 0
                plan = _Plan(met, n, n_rounds)
                for tables in best:
                    plan.add_round([g[:] for g in tables])
                for _ in range(1 + n_rounds):
                    r = rng.randrange(n_rounds)
                    p, q = rng.randrange(n), rng.randrange(n)
                    if plan.table_of[r][p] != plan.table_of[r][q]:
                        plan.swap(r, p, q)
                cost = plan.excess()
    return best


class _Plan:
    """Planned rounds with their meeting counts, kept up to date under swaps.

    ``together[(i, j)]`` (i < j) is the set of planned rounds where i and j share a
    table; ``hot`` the pairs that share a planned table and meet more than once in
    all, the only places a swap can help.
    """

    __slots__ = ("met", "counts", "rounds", "table_of", "together", "hot")

    def __init__(self, met: list[list[int]], n: int, n_rounds: int):
        self.met = met
        self.counts = [row[:] for row in met]
        self.rounds: list[list[list[int]]] = []
        self.table_of: list[list[int]] = []
        self.together: dict[tuple[int, int], set[int]] = {}
        self.hot: set[tuple[int, int]] = set()

    def add_round(self, tables: list[list[int]]) -> None:
        r = len(self.rounds)
        self.rounds.append(tables)
        table_of = [0] * len(self.counts)
        for t, group in enumerate(tables):
            for x in group:
                table_of[x] = t
            for i in range(len(group)):
                for j in range(i + 1, len(group)):
                    self._join(group[i], group[j], r)
        self.table_of.append(table_of)

    def _join(self, x: int, y: int, r: int) -> None:
        key = (x, y) if x < y else (y, x)
        self.counts[x][y] += 1
        self.counts[y][x] += 1
        self.together.setdefault(key, set()).add(r)
        if self.counts[x][y] > 1:
            self.hot.add(key)

    def _part(self, x: int, y: int, r: int) -> None:
        key = (x, y) if x < y else (y, x)
        self.counts[x][y] -= 1
        self.counts[y][x] -= 1
        rounds = self.together[key]
        rounds.discard(r)
        if self.counts[x][y] <= 1 or not rounds:
            self.hot.discard(key)

    def swap(self, r: int, p: int, q: int) -> None:
        tables, table_of = self.rounds[r], self.table_of[r]
        a, b = table_of[p], table_of[q]
        for x in tables[a]:
            if x != p:
                self._part(p, x, r)
                self._join(q, x, r)
        for y in tables[b]:
            if y != q:
                self._part(q, y, r)
                self._join(p, y, r)
        tables[a].remove(p)
        tables[a].append(q)
        tables[b].remove(q)
        tables[b].append(p)
        table_of[p], table_of[q] = b, a

    def excess(self) -> int:
        """The repeated meetings the plan adds to those already played."""
        total = 0
        for (x, y), rounds in self.together.items():
            if rounds:
                c, before = self.counts[x][y], self.met[x][y]
                total += c * (c - 1) // 2 - before * (before - 1) // 2
        return total

    def snapshot(self) -> list[list[list[int]]]:
        return [[g[:] for g in tables] for tables in self.rounds]
