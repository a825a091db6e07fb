"""Swiss pairing: equal or close scores meet, no rematches, colours alternate.

Two-player tables (dam-brade) are paired by a maximum-weight matching
(``networkx.max_weight_matching``) over the players, with a dummy vertex per bye.
An edge's weight is a constant minus a penalty built in strict priority levels, each
level's unit larger than the most all lower levels together can add up to, so a
higher criterion is never traded for any number of lower ones:

1. rematch (per earlier meeting of the pair);
2. the bye: only players with the fewest byes may get it (others have no bye edge at
   all); among them, the lower ranked the better (:func:`.history.bye_order`);
3. an absolute colour clash: both players must have the same colour (colour
   difference of 2 or more, or the same colour the last two rounds);
4. the score difference, squared (in half points): one big jump costs more than two
   small ones, so floaters go down one score group at a time;
5. a strong colour clash (both have played one colour once more than the other);
6. a mild colour clash (both want to alternate the same way);
7. the shape of the score group: as in the Dutch system, the top half of a group
   meets the bottom half (rank i meets rank i + half); a floater meets the top of the
   group below.

``maxcardinality=True`` makes everyone play (a rematch is taken only when no pairing
without one exists).

Large fields: the blossom algorithm is cubic, and networkx takes about 6 s for 1,000
players even on a sparse graph. Above FULL_GRAPH_MAX players the field is therefore
paired in brackets down the standings: each bracket is CHUNK players (plus those
carried down from above) matched together with a LOOKAHEAD of the next players, whose
only role is to take floaters. Pairs inside the bracket are kept; bracket players
matched into the lookahead, or not matched, float down into the next bracket. Inside
brackets a rematch edge is left out (the player floats instead); only the last
bracket may pair a rematch, if nothing else is possible. In this mode the bye is
given first, to the player :func:`.history.bye_order` puts first.

Colours (seat 0 = Black), as the FIDE rules allocate them: both preferences when they
differ; else the stronger preference (absolute, strong, mild), then the larger colour
difference; else both alternate from the last round in which they had different
colours; else the higher ranked gets their preference. Two players without colour
history: the top board's higher ranked player gets a seeded colour and the boards
alternate from there.

Decisions: points are compared in half points (``round(2 * points)``); boards are
ordered by the higher score at the board, then the better standing; a bye gives no
colour. With tables larger than two the Swiss idea is kept by the tabu search of
:mod:`.groups`: the standings are cut into tables and improved with pair weights of
"met before" (as in ``balanced``) plus the squared score difference.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

import networkx as nx

from .groups import meeting_weights, order_seats, split_into_tables
from .history import (BLACK, WHITE, Entrant, EventHistory, Seating, bye_order,
                      standing_order)

FULL_GRAPH_MAX = 100
CHUNK = 20
LOOKAHEAD = 10

# Larger tables: weight of one squared half-point of score difference between two
# table mates (a repeated pair weighs groups.REPEAT_WEIGHT = 1,000,000).
TABLE_SCORE_WEIGHT = 1_000

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0


@dataclass
class Profile:
    """One player as the pairing sees them."""

    entrant: Entrant
    place: int  # 0 = top of the standings
    score: int  # half points
    colours: list[int]  # BLACK / WHITE per two-player round, oldest first
    want: int  # BLACK, WHITE or 0
    strength: int  # ABSOLUTE, STRONG, MILD or NONE
    group_index: int = 0  # place within the score group
    group_size: int = 1

    @property
    def key(self) -> int:
        return self.entrant.key

    @property
    def difference(self) -> int:
        return sum(self.colours)


def colour_preference(colours: Sequence[int]) -> tuple[int, int]:
    """(wanted colour or 0, strength) from a colour history, FIDE style."""
    if not colours:
        return 0, NONE
    difference = sum(colours)
    if difference <= -2:
        return BLACK, ABSOLUTE
    if difference >= 2:
        return WHITE, ABSOLUTE
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return -colours[-1], ABSOLUTE
    if difference:
        return -difference, STRONG
    return -colours[-1], MILD


def seat_swiss(players: Sequence[Entrant], past: EventHistory, sizes: Sequence[int],
               n_byes: int, rng: random.Random) -> Seating:
    """Pair (or, at larger tables, group) one Swiss round; see the module docstring."""
    if any(size != 2 for size in sizes):
        return _swiss_tables(players, past, sizes, n_byes, rng)
    ranked = standing_order(players, rng)
    profiles = _profiles(ranked, past)
    if n_byes and len(profiles) <= FULL_GRAPH_MAX:
        pairs, byes = _pair_with_byes(profiles, past, n_byes, rng)
    else:
        byes = []
        if n_byes:
            chosen = {e.key for e in bye_order(players, past, rng)[:n_byes]}
            byes = [p for p in profiles if p.key in chosen]
            profiles = [p for p in profiles if p.key not in chosen]
        if len(profiles) <= FULL_GRAPH_MAX:
            pairs = _match(profiles, [], past, final=True)
        else:
            pairs = _pair_in_brackets(profiles, past)
    pairs.sort(key=lambda ab: (-max(ab[0].score, ab[1].score), min(ab[0].place, ab[1].place)))
    first_black = rng.random() < 0.5
    tables = []
    for board, (a, b) in enumerate(pairs):
        black, white = allocate_colours(a, b, first_black == (board % 2 == 0))
        tables.append([black.key, white.key])
    return Seating(tables, sorted(p.key for p in byes), past.repeated_pairs(tables), "swiss")


def allocate_colours(a: Profile, b: Profile, higher_gets_black: bool) -> tuple[Profile, Profile]:
    """(Black, White) for a pair; ``higher_gets_black`` settles two fresh players."""
    if a.want != b.want:
        return (a, b) if a.want == BLACK or b.want == WHITE else (b, a)
    if a.want:
        if a.strength != b.strength:
            stronger = a if a.strength > b.strength else b
        elif abs(a.difference) != abs(b.difference):
            stronger = a if abs(a.difference) > abs(b.difference) else b
        else:
            stronger = None
        if stronger is not None:
            other = b if stronger is a else a
            return (stronger, other) if stronger.want == BLACK else (other, stronger)
        # Alternate from the last round in which they had different colours.
        for ca, cb in zip(reversed(a.colours), reversed(b.colours)):
            if ca != cb:
                return (a, b) if ca == WHITE else (b, a)
        higher = a if a.place < b.place else b
        other = b if higher is a else a
        return (higher, other) if higher.want == BLACK else (other, higher)
    higher = a if a.place < b.place else b
    other = b if higher is a else a
    return (higher, other) if higher_gets_black else (other, higher)


# ------------------------------------------------------------------------ the matching

def _profiles(ranked: Sequence[Entrant], past: EventHistory) -> list[Profile]:
    profiles = []
    for place, e in enumerate(ranked):
        colours = past.colour_history(e.key)
        want, strength = colour_preference(colours)
        profiles.append(Profile(e, place, round(2 * e.points), colours, want, strength))
    start = 0
    while start < len(profiles):
        end = start
        while end < len(profiles) and profiles[end].score == profiles[start].score:
            end += 1
        for i in range(start, end):
            profiles[i].group_index = i - start
            profiles[i].group_size = end - start
        start = end
    return profiles


class _Levels:
    """The units of the penalty levels for a graph of n players (see module docstring)."""

    def __init__(self, n: int, profiles: Sequence[Profile]):
        n = max(n, 2)
        scores = [p.score for p in profiles] or [0]
        widest = (max(scores) - min(scores)) ** 2
        self.mild = n * n + 1
        self.strong = self.mild * (n + 1)
        self.score = self.strong * (n + 1)
        self.absolute = self.score * (widest * n + 1)
        self.bye = self.absolute * (n + 1)
        self.rematch = self.bye * (n + 1) * (n + 1)


def _pair_penalty(a: Profile, b: Profile, past: EventHistory, lv: _Levels) -> int:
    penalty = lv.rematch * past.meetings(a.key, b.key)
    if a.want and a.want == b.want:
        penalty += {ABSOLUTE: lv.absolute, STRONG: lv.strong, MILD: lv.mild}[
            min(a.strength, b.strength)]
    penalty += lv.score * (a.score - b.score) ** 2
    if a.score == b.score:
        half = a.group_size // 2
        penalty += abs(abs(a.group_index - b.group_index) - half)
    else:
        upper, lower = (a, b) if a.score > b.score else (b, a)
        penalty += lower.group_index + (upper.group_size - 1 - upper.group_index)
    return penalty


def _pair_with_byes(profiles: list[Profile], past: EventHistory, n_byes: int,
                    rng: random.Random) -> tuple[list[tuple[Profile, Profile]], list[Profile]]:
    """The whole field in one graph, with n_byes dummy vertices for the byes."""
    lv = _Levels(len(profiles), profiles)
    by_key = {p.key: p for p in profiles}
    candidates = bye_order([p.entrant for p in profiles], past, rng)
    fewest = past.byes_had(candidates[0])
    eligible = [by_key[e.key] for e in candidates if past.byes_had(e) == fewest]
    if len(eligible) < n_byes:
        # Fewer players on the fewest byes than byes to give: the next-fewest join in.
        eligible = [by_key[e.key] for e in candidates[:max(n_byes, len(eligible))]]
    graph = nx.Graph()
    edges = []
    for i, a in enumerate(profiles):
        for b in profiles[i + 1:]:
            edges.append((a.place, b.place, _pair_penalty(a, b, past, lv)))
    for d in range(n_byes):
        dummy = -1 - d
        for position, p in enumerate(eligible):
            edges.append((dummy, p.place, lv.bye * position))
    top = max(w for _, _, w in edges) + 1
    graph.add_weighted_edges_from((u, v, top - w) for u, v, w in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    by_place = {p.place: p for p in profiles}
    pairs, byes = [], []
    for u, v in matching:
        if u < 0 or v < 0:
            byes.append(by_place[max(u, v)])
        else:
            pairs.append((by_place[u], by_place[v]))
    return pairs, byes


def _match(bracket: Sequence[Profile], lookahead: Sequence[Profile], past: EventHistory,
           *, final: bool) -> list[tuple[Profile, Profile]]:
    """Pair a bracket; with a lookahead, return its floaters' pairs too (see below).

    Final: every edge, maximum cardinality, the pairs returned. Otherwise each bracket
    player covered is worth ``cover`` (more than any penalty below a rematch, less
    than a rematch), an edge into the lookahead covers one, a rematch edge is left out;
    the matching is returned as is, the caller keeps the pairs inside the bracket.
    """
    nodes = list(bracket) + list(lookahead)
    lv = _Levels(len(nodes), nodes)
    cover = lv.rematch // 2
    graph = nx.Graph()
    edges = []
    for i, a in enumerate(bracket):
        for b in bracket[i + 1:]:
            penalty = _pair_penalty(a, b, past, lv)
            if final:
                edges.append((a.place, b.place, penalty))
            elif penalty < lv.rematch:
                edges.append((a.place, b.place, penalty - 2 * cover))
        for b in lookahead:
            penalty = _pair_penalty(a, b, past, lv)
            if penalty < lv.rematch:
                edges.append((a.place, b.place, penalty - cover))
    if not edges:
        return []
    top = max(w for _, _, w in edges) + 1
    graph.add_weighted_edges_from((u, v, top - w if final else -w) for u, v, w in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=final)
    by_place = {p.place: p for p in nodes}
    return [(by_place[u], by_place[v]) for u, v in matching]


def _pair_in_brackets(profiles: list[Profile], past: EventHistory) -> list[tuple[Profile, Profile]]:
    pairs: list[tuple[Profile, Profile]] = []
    carried: list[Profile] = []
    position = 0
    while True:
        take = max(CHUNK - len(carried), 2)
        bracket = carried + profiles[position:position + take]
        position += take
        lookahead = profiles[position:position + LOOKAHEAD]
        if not lookahead or len(profiles) - position < CHUNK // 2:
            rest = bracket + profiles[position:]
            pairs.extend(_match(rest, [], past, final=True))
            return pairs
        inside = {p.place for p in bracket}
        kept = set()
        for a, b in _match(bracket, lookahead, past, final=False):
            if a.place in inside and b.place in inside:
                pairs.append((a, b))
                kept.update((a.place, b.place))
        carried = sorted((p for p in bracket if p.place not in kept), key=lambda p: p.place)


# -------------------------------------------------------------------- larger tables

def _swiss_tables(players: Sequence[Entrant], past: EventHistory, sizes: Sequence[int],
                  n_byes: int, rng: random.Random) -> Seating:
    byes = sorted(e.key for e in bye_order(players, past, rng)[:n_byes])
    bye_set = set(byes)
    ranked = [e for e in standing_order(players, rng) if e.key not in bye_set]
    keys = [e.key for e in ranked]
    weights = meeting_weights(keys, past)
    scores = [round(2 * e.points) for e in ranked]
    n = len(keys)
    for i in range(n):
        row = weights[i]
        for j in range(n):
            if i != j:
                row[j] += TABLE_SCORE_WEIGHT * (scores[i] - scores[j]) ** 2
    start, first = [], 0
    for size in sizes:
        start.append(list(range(first, first + size)))
        first += size
    # No split costs nothing here (score differences always weigh), so the search
    # runs its whole budget: about 300,000 candidate swaps, a fraction of a second.
    budget = min(2000 + 50 * len(sizes), 300_000 // max(n, 1))
    groups = split_into_tables(sizes, weights, rng, start=start, max_iterations=budget)
    tables = [order_seats([keys[i] for i in group], past, rng) for group in groups]
    place = {key: i for i, key in enumerate(keys)}
    tables.sort(key=lambda t: min(place[k] for k in t))
    return Seating(tables, byes, past.repeated_pairs(tables), "swiss")
