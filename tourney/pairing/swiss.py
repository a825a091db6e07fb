"""Swiss pairing: equal or close scores meet, no rematches, colours alternate.

Two-player tables (dam-brade) are paired by a maximum-weight matching
(``rustworkx.max_weight_matching``, the blossom algorithm in compiled code) over the
players, with a dummy vertex per bye. An edge's weight is a constant minus a penalty
built in strict priority levels, each level's unit larger than the most all lower
levels together can add up to, so a higher criterion is never traded for any number
of lower ones. The order follows the FIDE Dutch system:

1. rematch (per earlier meeting of the pair);
2. the bye: only players with the fewest byes may get it (others have no bye edge at
   all); among them, the lower ranked the better (:func:`.history.bye_order`);
3. an absolute colour clash: both players must have the same colour (colour
   difference of 2 or more, or the same colour the last two rounds);
4. floats across score groups, bracket by bracket: a pair whose scores differ
   crosses every boundary between score groups that lies between them, and one
   crossing of a higher boundary outweighs any number of crossings of lower ones
   (the Dutch system pairs as many players as it can in each score group from the
   top down). Exact while the weights fit the 128-bit integers the matching adds
   (small fields, brackets); beyond, one higher crossing outweighs as many lower ones
   as fit;
5. in the event's last round only (its length known): a topscorer (more than half
   of the points the rounds so far could give) or a topscorer's opponent getting a
   colour against the absolute rule. For pairs with a topscorer this replaces level
   3, so the top of the final standings is decided between equal scores;
6. the score difference (half points);
7. a colour preference left unmet (both players want the same colour);
8. of which a strong one (the loser of the clash has played one colour more often);
9. the score difference squared: among equal floats, two small ones before one big;
10. the shape of the score group: as in the Dutch system, the top half of a group
    meets the bottom half (rank i meets rank i + half); a floater meets the top of the
    group below.

``max_cardinality=True`` makes everyone play (a rematch is taken only when no pairing
without one exists).

Large fields: above FULL_GRAPH_MAX players the field is paired in brackets down the
standings (the complete graph of 1,000 players has half a million edges, too many to
weigh in Python within a second): each bracket is CHUNK players (plus those carried
down from above) matched together with a LOOKAHEAD of the next players, whose only
role is to take floaters. Pairs inside the bracket are kept; bracket players matched
into the lookahead, or not matched, float down into the next bracket. Inside brackets
a rematch edge is left out (the player floats instead); only the last bracket may pair
a rematch, if nothing else is possible. In this mode the bye is given first, to the
player :func:`.history.bye_order` puts first.

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

from .groups import meeting_weights, order_seats, split_into_tables
from .history import BLACK, WHITE, Entrant, EventHistory, Seating, bye_order, standing_order

FULL_GRAPH_MAX = 200
CHUNK = 50
LOOKAHEAD = 25

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
    topscorer: bool = False  # last round only: more than half the points so far

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
               n_byes: int, rng: random.Random, *, last_round: bool = False) -> Seating:
    """Pair (or, at larger tables, group) one Swiss round; see the module docstring.

    ``last_round``: the event's final round (its length known), where topscorers may
    be paired against the colour rules rather than against a lower score.
    """
    if any(size != 2 for size in sizes):
        return _swiss_tables(players, past, sizes, n_byes, rng)
    ranked = standing_order(players, rng)
    # Topscorers: more than half of the points the rounds so far could give.
    profiles = _profiles(ranked, past, past.rounds_played if last_round else None)
    if n_byes and len(profiles) <= FULL_GRAPH_MAX:
        pairs, byes = _pair_with_byes(profiles, past, n_byes, rng)
    else:
        byes = []
        if n_byes:
            chosen = {e.key for e in bye_order(players, past, rng)[:n_byes]}
            byes = [p for p in profiles if p.key in chosen]
            profiles = [p for p in profiles if p.key not in chosen]
        if len(profiles) <= FULL_GRAPH_MAX:
            pairs = _match(profiles, [], past, _Weights(len(profiles),
                                                        [p.score for p in profiles],
                                                        _most_met(past)), final=True)
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

def _profiles(ranked: Sequence[Entrant], past: EventHistory, top_above: int | None
              ) -> list[Profile]:
    profiles = []
    for place, e in enumerate(ranked):
        colours = past.colour_history(e.key)
        want, strength = colour_preference(colours)
        score = round(2 * e.points)
        profiles.append(Profile(e, place, score, colours, want, strength,
                                topscorer=top_above is not None and score > top_above))
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


class _Weights:
    """A pair's penalty as one integer: the levels of the module docstring in mixed
    radix, each level's unit above what the lower levels of all pairs of a graph of
    ``n`` players can add up to. ``scores``: every score (half points) in the round,
    for the score groups a float crosses; ``meetings``: the most any pair has met."""

    BITS = 118  # rustworkx sums weights in 128-bit integers

    def __init__(self, n: int, scores: Sequence[int], meetings: int = 1):
        n = max(n, 2)
        pairs = n // 2 + 1
        levels = sorted(set(scores), reverse=True) or [0]
        widest = levels[0] - levels[-1]
        self.spread = n + 1  # the shape term of a pair stays below n
        self.clash = self.spread * (pairs * widest * widest + 1)
        self.strong = self.clash * (pairs + 1)
        self.difference = self.strong * (pairs + 1)
        self.top_break = self.difference * (pairs * widest + 1)
        self.crossing = self.top_break * (pairs + 1)
        # A float down across the boundary below score group k costs base ** (gaps - 1 - k):
        # one crossing of a higher boundary outweighs ``base - 1`` of the next lower
        # one; base = pairs + 1 (exactly bracket by bracket) where that fits.
        gaps = max(len(levels) - 1, 1)
        above = self.crossing * pairs * (pairs + 1) * (n + 1) * (pairs * meetings + 1) * 4
        room = self.BITS - above.bit_length()
        base = 2
        while base <= pairs and (base + 1) ** gaps < 2 ** room:
            base += 1
        self.before = {}  # score -> the crossings' cost from the top down to it
        total = 0
        for k, score in enumerate(levels):
            self.before[score] = total
            total += base ** max(gaps - 1 - k, 0)
        self.absolute = self.crossing * (pairs * base ** gaps + 1)
        self.bye = self.absolute * (pairs + 1)
        self.rematch = self.bye * (n + 1)
        self.cover = self.rematch * (pairs * meetings + 1)
        self.colour = {ABSOLUTE: self.absolute + self.strong + self.clash,
                       STRONG: self.strong + self.clash, MILD: self.clash}
        self.top_colour = self.top_break + self.strong + self.clash


def _max_weight(nodes: int, edges: list[tuple[int, int, int]], cardinality: bool
                ) -> list[tuple[int, int]]:
    """Matching of largest total weight (edges between 0..nodes-1; with
    ``cardinality`` the largest among those with the most pairs)."""
    import rustworkx  # loaded on first use: most commands never pair a Swiss round

    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(nodes))
    graph.add_edges_from(edges)
    return list(rustworkx.max_weight_matching(graph, max_cardinality=cardinality,
                                              weight_fn=_identity))


def _identity(weight: int) -> int:
    return weight


def _pair_with_byes(profiles: list[Profile], past: EventHistory, n_byes: int,
                    rng: random.Random) -> tuple[list[tuple[Profile, Profile]], list[Profile]]:
    """The whole field in one graph, with n_byes dummy vertices for the byes."""
    lv = _Weights(len(profiles) + n_byes, [p.score for p in profiles], _most_met(past))
    by_key = {p.key: p for p in profiles}
    candidates = bye_order([p.entrant for p in profiles], past, rng)
    fewest = past.byes_had(candidates[0])
    eligible = [by_key[e.key] for e in candidates if past.byes_had(e) == fewest]
    if len(eligible) < n_byes:
        # Fewer players on the fewest byes than byes to give: the next-fewest join in.
        eligible = [by_key[e.key] for e in candidates[:max(n_byes, len(eligible))]]
    n = len(profiles)
    edges = _penalties(lv, profiles, n, past.met)
    for d in range(n_byes):
        for position, p in enumerate(eligible):
            edges.append((n + d, p.place, lv.bye * position))
    top = max(w for _, _, w in edges) + 1
    matching = _max_weight(n + n_byes, [(u, v, top - w) for u, v, w in edges], True)
    pairs, byes = [], []
    for u, v in matching:
        if u >= n or v >= n:
            byes.append(profiles[min(u, v)])
        else:
            pairs.append((profiles[u], profiles[v]))
    return pairs, byes


def _most_met(past: EventHistory) -> int:
    return max(past.met.values(), default=1)


def _penalties(lv: _Weights, nodes: Sequence[Profile], first: int, met: dict,
               *, skip_rematches: bool = False) -> list[tuple[int, int, int]]:
    """(i, j, penalty) for every pair of ``nodes`` (by index) whose i is below ``first``,
    the levels of the module docstring packed by ``lv`` (inlined: this is the loop a
    large field spends its time in)."""
    rows = [(p.key, p.want, p.strength, p.topscorer, p.score, lv.before[p.score],
             p.group_index, p.group_size) for p in nodes]
    rematch, crossing, difference, spread = lv.rematch, lv.crossing, lv.difference, lv.spread
    colour, top_colour = lv.colour, lv.top_colour
    edges = []
    append = edges.append
    for i in range(first):
        ka, wa, sta, ta, sa, ba, gia, gsa = rows[i]
        half = gsa // 2
        for j, (kb, wb, stb, tb, sb, bb, gib, gsb) in enumerate(rows[i + 1:], i + 1):
            times = met.get((ka, kb) if ka < kb else (kb, ka), 0)
            if times:
                if skip_rematches:
                    continue
                penalty = rematch * times
            else:
                penalty = 0
            if wa and wa == wb:
                st = sta if sta < stb else stb
                penalty += top_colour if st == ABSOLUTE and (ta or tb) else colour[st]
            if sa == sb:
                gap = gia - gib if gia > gib else gib - gia
                penalty += gap - half if gap > half else half - gap
            elif sa > sb:
                d = sa - sb
                penalty += (crossing * (bb - ba) + difference * d + spread * d * d
                            + gib + gsa - 1 - gia)
            else:
                d = sb - sa
                penalty += (crossing * (ba - bb) + difference * d + spread * d * d
                            + gia + gsb - 1 - gib)
            append((i, j, penalty))
    return edges


def _match(bracket: Sequence[Profile], lookahead: Sequence[Profile], past: EventHistory,
           lv: _Weights, *, final: bool, carry: bool = False) -> list[tuple[Profile, Profile]]:
    """Pair a bracket; with a lookahead, return its floaters' pairs too (see below).

    Final: every edge, maximum cardinality, the pairs returned. Otherwise each bracket
    player covered is worth ``cover`` (more than any penalty below a rematch, less
    than a rematch), an edge into the lookahead covers one, a rematch edge is left out;
    the matching is returned as is, the caller keeps the pairs inside the bracket.
    With ``carry``, a player of the score group the lookahead starts with is worth
    just under half a colour clash: carried down they stay in their group, so two of
    them who would clash are left for the next bracket, where others may want the
    other colour.
    """
    nodes = list(bracket) + list(lookahead)
    inside = len(bracket)
    edges = _penalties(lv, nodes, inside, past.met, skip_rematches=not final)
    if not edges:
        return []
    if final:
        top = max(w for _, _, w in edges) + 1
        edges = [(u, v, top - w) for u, v, w in edges]
    else:
        same = lookahead[0].score if carry and lookahead else None
        worth = [lv.clash // 2 - 1 if p.score == same else lv.cover for p in bracket]
        edges = [(u, v, worth[u] + (worth[v] if v < inside else 0) - w) for u, v, w in edges]
    return [(nodes[u], nodes[v]) for u, v in _max_weight(len(nodes), edges, final)]


def _pair_in_brackets(profiles: list[Profile], past: EventHistory
                      ) -> list[tuple[Profile, Profile]]:
    scores = [p.score for p in profiles]
    most = _most_met(past)
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
            pairs.extend(_match(rest, [], past, _Weights(len(rest), scores, most),
                                final=True))
            return pairs
        inside = {p.place for p in bracket}
        kept = set()
        lv = _Weights(len(bracket) + len(lookahead), scores, most)
        for a, b in _match(bracket, lookahead, past, lv, final=False,
                           carry=len(carried) < CHUNK // 2):
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
    # Every pair with different scores weighs something here, so these rows are dense
    # (fields seated Swiss at larger tables are small).
    for i, row in enumerate(weights):
        si = scores[i]
        for j in range(n):
            if j != i and scores[j] != si:
                row[j] = row.get(j, 0) + TABLE_SCORE_WEIGHT * (si - scores[j]) ** 2
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
