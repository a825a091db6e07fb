"""Swiss pairing, tested the FIDE way: random tournaments and an independent checker.

A seeded generator plays whole events with random results (wins, losses, draws),
byes, late entries and withdrawals; after every round an independent checker verifies
the round's constraints from the raw tables alone (it recomputes colours, byes and
meetings itself and uses no code of the pairing):

- every entrant at exactly one two-player table or on a bye, and only entrants;
- byes: as many as the field's parity asks, to a player on the fewest byes, and to
  the lowest ranked such player unless that player's bye would force a rematch;
- no rematch when a pairing without one exists (the least possible number otherwise);
- colours bounded: no colour difference beyond 2 and no colour three times running,
  unless every rematch-free pairing makes someone break it;
- score closeness: no exchange of partners between two boards gives fewer meetings,
  or as many and fewer absolute colour clashes, or as many of both and fewer boards
  spanning a boundary between score groups, counted from the top group down (the
  Dutch system's "most pairs in each bracket, bracket by bracket"), or as many of all
  three and a smaller sum of score differences.
"""
from __future__ import annotations

import random
import time
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.pairing import swiss
from tourney.pairing.history import BLACK, WHITE, Entrant, EventHistory, PastRound
from tourney.pairing.seating import seat_round
from tourney.pairing.swiss import Profile, allocate_colours, colour_preference
from tourney.simulation import random_pair_results

PAIRS = dict(min_size=2, max_size=2, preferred=2)


# ------------------------------------------------------------------ the generator

def play_event(n_players: int, n_rounds: int, seed: int, *, churn: bool = False,
               method: str = "swiss"):
    """Yield (entrants, history so far, seating) for each round of a random event.

    With ``churn`` a player may withdraw or a new one enter between rounds.
    Results: 45 % first seat wins, 45 % second, 10 % draw; a bye scores 1.
    """
    results = random.Random(f"results:{seed}")
    points = {key: 0.0 for key in range(100, 100 + n_players)}
    byes = {key: 0 for key in points}
    next_key = 100 + n_players
    history: list[PastRound] = []
    for number in range(1, n_rounds + 1):
        if churn and number > 1 and len(points) > 3:
            if results.random() < 0.3:
                del points[results.choice(sorted(points))]
            if results.random() < 0.3:
                points[next_key] = 0.0
                byes[next_key] = 0
                next_key += 1
        standing = sorted(points, key=lambda k: (-points[k], k))
        rank = {key: place + 1 for place, key in enumerate(standing)}
        entrants = [Entrant(key, points[key], rank[key], byes[key]) for key in points]
        results.shuffle(entrants)  # the caller's order must not matter
        seating = seat_round(entrants, list(history), **PAIRS, method=method, seed=seed,
                             round_number=number)
        yield entrants, list(history), seating
        random_pair_results(seating, points, byes, results)
        history.append(PastRound([list(t) for t in seating.tables], list(seating.byes)))


# -------------------------------------------------------------------- the checker

def absolute_need(colours: list[int]) -> int:
    """The colour a player must get next (FIDE absolute), or 0."""
    difference = sum(colours)
    if difference >= 2:
        return WHITE
    if difference <= -2:
        return BLACK
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return -colours[-1]
    return 0


def breaks_colour_rule(colours: list[int]) -> bool:
    three_running = len(colours) >= 3 and colours[-1] == colours[-2] == colours[-3]
    return abs(sum(colours)) > 2 or three_running


def perfect_matching_exists(players, allowed) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for a, b in combinations(players, 2) if allowed(a, b))
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players)


def fewest_rematches(players, met) -> int:
    """The fewest rematch pairs any pairing of ``players`` must have."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for a, b in combinations(players, 2)
                         if frozenset((a, b)) not in met)
    return len(players) // 2 - len(nx.max_weight_matching(graph, maxcardinality=True))


def lower_for_bye(e: Entrant, f: Entrant) -> bool:
    """e ranks strictly lower than f: fewer points, or as many and a worse rank."""
    return e.points < f.points or (e.points == f.points and e.rank > f.rank)


def check_swiss_round(entrants, history, seating, *, exact: bool = True) -> None:
    """Assert every Swiss rule for one round. ``exact``: the whole field in one matching."""
    keys = {e.key for e in entrants}
    by_key = {e.key: e for e in entrants}
    seated = [k for t in seating.tables for k in t]
    assert all(len(t) == 2 for t in seating.tables)
    assert sorted(seated + list(seating.byes)) == sorted(keys)
    assert len(seating.byes) == len(keys) % 2

    meetings: dict[frozenset, int] = {}
    colours: dict[int, list[int]] = {k: [] for k in keys}
    byes_had = {e.key: e.byes for e in entrants}
    for past in history:
        for a, b in past.tables:
            meetings[frozenset((a, b))] = meetings.get(frozenset((a, b)), 0) + 1
            if a in colours:
                colours[a].append(BLACK)
            if b in colours:
                colours[b].append(WHITE)
    met = set(meetings)
    rematches = sum(1 for a, b in seating.tables if frozenset((a, b)) in met)
    assert rematches == seating.repeated_pairs

    # Byes: fewest byes had; lowest ranked unless that costs a rematch.
    rest = [k for k in keys if k not in seating.byes]
    needed = fewest_rematches(rest, met)
    if seating.byes:
        (bye,) = seating.byes
        fewest = min(byes_had.values())
        assert byes_had[bye] == fewest, "a second bye while someone has had none"
        if exact:
            for e in entrants:
                if byes_had[e.key] == fewest and lower_for_bye(e, by_key[bye]):
                    other_rest = [k for k in keys if k != e.key]
                    assert fewest_rematches(other_rest, met) > needed, (
                        f"bye to {bye}, but lower-ranked {e.key} could have had it")

    # Rematches only when unavoidable (per pair; a pair meeting a third time may
    # be traded for two second meetings, so the count is exact only without those).
    if all(c == 1 for c in meetings.values()):
        assert rematches == needed
    if exact and needed == 0:
        assert rematches == 0

    # Colours: bounded unless every rematch-free pairing breaks the bound.
    after = {k: colours[k] + ([BLACK] if k == t[0] else [WHITE])
             for t in seating.tables for k in t}
    broken = [k for k, c in after.items() if breaks_colour_rule(c)]
    if broken and rematches == 0 and exact:
        need = {k: absolute_need(colours[k]) for k in rest}
        assert not perfect_matching_exists(
            rest, lambda a, b: frozenset((a, b)) not in met
            and not (need[a] and need[a] == need[b])), f"avoidable colour break for {broken}"

    # Score closeness: no better exchange of partners between two boards.
    if exact:
        need = {k: absolute_need(colours[k]) for k in rest}
        levels = sorted({2 * by_key[k].points for k in rest}, reverse=True)

        def crossings(a, b):
            """Per boundary between score groups, top first: 1 if a-b spans it."""
            high, low = sorted((2 * by_key[a].points, 2 * by_key[b].points), reverse=True)
            return [1 if high >= upper > low else 0 for upper in levels[:-1]]

        def key_of(pairs):
            spans = [crossings(a, b) for a, b in pairs]
            return (sum(meetings.get(frozenset(p), 0) for p in pairs),
                    sum(1 for a, b in pairs if need[a] and need[a] == need[b]),
                    [sum(column) for column in zip(*spans)],
                    sum(abs(2 * by_key[a].points - 2 * by_key[b].points) for a, b in pairs))

        for (a, b), (c, d) in combinations(seating.tables, 2):
            now = key_of([(a, b), (c, d)])
            for alternative in ([(a, c), (b, d)], [(a, d), (b, c)]):
                assert now <= key_of(alternative), (
                    f"boards {a}-{b} and {c}-{d} pair better as {alternative}")


# --------------------------------------------------------------------------- tests

@pytest.mark.parametrize("seed", range(24))
def test_random_events_keep_every_rule(seed):
    picker = random.Random(seed)
    n_players = picker.randint(2, 28)
    n_rounds = picker.randint(1, min(9, max(1, n_players - 1)))
    for entrants, history, seating in play_event(n_players, n_rounds, seed):
        check_swiss_round(entrants, history, seating)


@pytest.mark.parametrize("seed", range(100, 112))
def test_random_events_with_late_entries_and_withdrawals(seed):
    picker = random.Random(seed)
    n_players = picker.randint(6, 24)
    for entrants, history, seating in play_event(n_players, 7, seed, churn=True):
        check_swiss_round(entrants, history, seating)


@given(seed=st.integers(0, 10**6), n_players=st.integers(3, 16))
@settings(max_examples=30, deadline=None)
def test_generated_events_keep_every_rule(seed, n_players):
    for entrants, history, seating in play_event(n_players, min(5, n_players - 1), seed):
        check_swiss_round(entrants, history, seating)


def test_no_colour_runs_or_rematches_over_a_long_event():
    # 20 players, 9 rounds: every player's colours alternate within the bounds.
    seen = set()
    colours: dict[int, list[int]] = {}
    for entrants, history, seating in play_event(20, 9, 7):
        check_swiss_round(entrants, history, seating)
        for a, b in seating.tables:
            assert frozenset((a, b)) not in seen
            seen.add(frozenset((a, b)))
            colours.setdefault(a, []).append(BLACK)
            colours.setdefault(b, []).append(WHITE)
    assert all(abs(sum(c)) <= 2 for c in colours.values())


def test_first_round_pairs_top_half_against_bottom_half_with_alternating_colours():
    entrants = [Entrant(key, 0.0, key) for key in range(1, 9)]  # rank = key
    seating = seat_round(entrants, [], **PAIRS, method="swiss", seed=3, round_number=1)
    pairs = sorted(tuple(sorted(t)) for t in seating.tables)
    assert pairs == [(1, 5), (2, 6), (3, 7), (4, 8)]
    # Boards in order, and the higher ranked player's colour alternates by board.
    higher_black = [t[0] == min(t) for t in seating.tables]
    assert higher_black in ([True, False, True, False], [False, True, False, True])


def test_equal_scores_meet_and_the_bye_goes_to_the_lowest():
    # Two score groups of four and one straggler: groups pair within themselves.
    points = {1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1, 7: 1, 8: 1, 9: 0}
    entrants = [Entrant(k, float(p), k) for k, p in points.items()]
    seating = seat_round(entrants, [], **PAIRS, method="swiss", seed=1, round_number=3)
    assert seating.byes == [9]
    for a, b in seating.tables:
        assert points[a] == points[b]


def test_bye_is_never_given_twice_while_others_have_had_none():
    keys = set()
    for entrants, history, seating in play_event(9, 8, 11):
        check_swiss_round(entrants, history, seating)
        assert not keys & set(seating.byes)
        keys.update(seating.byes)
    assert len(keys) == 8


def test_rematch_only_when_nothing_else_is_possible():
    # Four players after a full round robin: any pairing repeats two meetings.
    history = [PastRound([[1, 2], [3, 4]]), PastRound([[1, 3], [2, 4]]),
               PastRound([[1, 4], [2, 3]])]
    entrants = [Entrant(k, 1.5, k) for k in (1, 2, 3, 4)]
    seating = seat_round(entrants, history, **PAIRS, method="swiss", seed=1, round_number=4)
    assert seating.repeated_pairs == 2
    # Drop one meeting and the pairing finds the only fresh pairs left.
    seating = seat_round(entrants, history[:2], **PAIRS, method="swiss", seed=1, round_number=3)
    assert sorted(sorted(t) for t in seating.tables) == [[1, 4], [2, 3]]
    assert seating.repeated_pairs == 0


def test_same_seed_same_pairing_and_seed_decides_an_unranked_first_round():
    entrants = [Entrant(k) for k in range(20)]
    first = seat_round(entrants, [], **PAIRS, method="swiss", seed=5, round_number=1)
    again = seat_round(list(reversed(entrants)), [], **PAIRS, method="swiss", seed=5,
                       round_number=1)
    assert first == again
    others = [seat_round(entrants, [], **PAIRS, method="swiss", seed=s, round_number=1).tables
              for s in range(6, 12)]
    assert sum(tables != first.tables for tables in others) >= 5


def test_colour_preference_levels():
    assert colour_preference([]) == (0, swiss.NONE)
    assert colour_preference([BLACK]) == (WHITE, swiss.STRONG)
    assert colour_preference([BLACK, WHITE]) == (BLACK, swiss.MILD)
    assert colour_preference([BLACK, BLACK]) == (WHITE, swiss.ABSOLUTE)
    assert colour_preference([WHITE, BLACK, WHITE, WHITE]) == (BLACK, swiss.ABSOLUTE)
    assert colour_preference([WHITE, WHITE, BLACK]) == (BLACK, swiss.STRONG)


def _profile(key, place, colours):
    want, strength = colour_preference(colours)
    return Profile(Entrant(key), place, 0, list(colours), want, strength)


@given(st.lists(st.sampled_from([BLACK, WHITE]), max_size=6),
       st.lists(st.sampled_from([BLACK, WHITE]), max_size=6), st.booleans())
@settings(max_examples=150, deadline=None)
def test_colour_allocation_respects_the_stronger_preference(ca, cb, coin):
    a, b = _profile(1, 0, ca), _profile(2, 1, cb)
    black, white = allocate_colours(a, b, coin)
    assert {black.key, white.key} == {1, 2}
    got = {black.key: BLACK, white.key: WHITE}
    if a.want != b.want:
        for p in (a, b):
            if p.want:
                assert got[p.key] == p.want
    elif a.want and a.strength != b.strength:
        stronger = a if a.strength > b.strength else b
        assert got[stronger.key] == stronger.want
    if not a.colours and not b.colours:
        assert (black.key == 1) == coin  # a is the higher ranked


@pytest.mark.parametrize("seed", [1, 2])
def test_large_field_pairs_in_brackets(seed):
    # Above FULL_GRAPH_MAX the field is paired bracket by bracket: the basic rules
    # still hold, and floaters drop one score group at most.
    n_players = swiss.FULL_GRAPH_MAX + 61
    for entrants, history, seating in play_event(n_players, 4, seed):
        check_swiss_round(entrants, history, seating, exact=False)
        assert seating.repeated_pairs == 0
        by_key = {e.key: e for e in entrants}
        gaps = [abs(by_key[a].points - by_key[b].points) for a, b in seating.tables]
        assert max(gaps) <= 1.0
        groups = len({e.points for e in entrants})
        assert sum(1 for g in gaps if g) <= groups


def test_a_thousand_players_pair_in_a_few_seconds():
    picker = random.Random(4)
    entrants = [Entrant(k, picker.randint(0, 8) / 2, 0, 0) for k in range(1001)]
    history = [PastRound([[k, k + 1] for k in range(0, 1000, 2)], [1000])]
    start = time.process_time()
    seating = seat_round(entrants, history, **PAIRS, method="swiss", seed=1, round_number=2)
    elapsed = time.process_time() - start
    assert elapsed < 6.0
    assert len(seating.tables) == 500 and seating.repeated_pairs == 0
    assert seating.byes != [1000]  # 1000 had the bye already


def test_swiss_at_larger_tables_groups_close_scores():
    picker = random.Random(2)
    entrants = [Entrant(k, float(picker.randint(0, 4))) for k in range(23)]
    seating = seat_round(entrants, [], min_size=3, max_size=5, preferred=4, method="swiss",
                         seed=1, round_number=3)
    assert sorted(len(t) for t in seating.tables) == [3, 4, 4, 4, 4, 4]
    assert sorted(k for t in seating.tables for k in t) == list(range(23))
    points = {e.key: e.points for e in entrants}
    # Sorted by score, the tables are the score bands: spread at most one point.
    assert all(max(points[k] for k in t) - min(points[k] for k in t) <= 1 for t in seating.tables)


def test_history_colours_come_from_two_player_tables():
    past = EventHistory([PastRound([[1, 2]]), PastRound([[2, 1, 3]]), PastRound([[3, 1]], [2])])
    assert past.colour_history(1) == [BLACK, WHITE]
    assert past.colour_history(2) == [WHITE]
    assert past.colour_history(3) == [BLACK]
    assert past.listed_byes == {2: 1}


def test_floats_go_bracket_by_bracket_from_the_top():
    # 1, 2 on 2 points; 3, 4 on 1.5 (they met); 5 on 1; 6 on 0.5. Pairing 1-3 and 2-4
    # (two floats out of the top group, each half a point) and 5-6 has the smaller sum
    # of squared differences, but the Dutch system pairs the top group within itself
    # first: 1-2, and the two from 1.5 float to 5 and 6.
    points = {1: 2.0, 2: 2.0, 3: 1.5, 4: 1.5, 5: 1.0, 6: 0.5}
    entrants = [Entrant(k, p, k) for k, p in points.items()]
    history = [PastRound([[3, 4], [1, 5], [2, 6]])]
    seating = seat_round(entrants, history, **PAIRS, method="swiss", seed=1, round_number=2)
    pairs = {frozenset(t) for t in seating.tables}
    assert frozenset((1, 2)) in pairs
    assert seating.repeated_pairs == 0
    assert {frozenset((3, 5)), frozenset((4, 6))} <= pairs or \
        {frozenset((3, 6)), frozenset((4, 5))} <= pairs


def _topscorer_round(total_rounds):
    # 1 and 2 lead (2 of 2 points) and both must have White (Black twice); everyone
    # else is on 1 point. Apart from 1-2 every pairing without a rematch or an
    # absolute colour clash sends both leaders down a score group.
    points = {1: 2.0, 2: 2.0, 3: 1.0, 4: 1.0, 5: 1.0, 6: 1.0}
    entrants = [Entrant(k, p, k) for k, p in points.items()]
    history = [PastRound([[1, 3], [2, 4], [5, 6]]), PastRound([[1, 5], [2, 6], [4, 3]])]
    return seat_round(entrants, history, **PAIRS, method="swiss", seed=1, round_number=3,
                      total_rounds=total_rounds)


def test_topscorers_may_meet_against_the_colour_rule_in_the_last_round_only():
    last = _topscorer_round(3)
    assert sorted(map(sorted, last.tables))[0] == [1, 2]
    assert last.repeated_pairs == 0
    for total_rounds in (None, 5):
        seating = _topscorer_round(total_rounds)
        pairs = {frozenset(t) for t in seating.tables}
        assert frozenset((1, 2)) not in pairs
        # Both leaders get White, as their colour history demands.
        whites = {t[1] for t in seating.tables}
        assert {1, 2} <= whites


def test_weights_rank_a_higher_float_above_any_number_of_lower_ones():
    # Small fields: the crossings are exactly lexicographic (base above the pairs).
    lv = swiss._Weights(20, [16, 12, 10, 8, 6, 4, 2, 0])
    one_high = lv.before[12] - lv.before[16]
    all_lower = (lv.before[0] - lv.before[12]) * 11
    assert one_high > all_lower
    # Every level outweighs all lower ones together.
    assert lv.crossing > lv.top_break * 11 > lv.difference * 11 * 16
    assert lv.difference > lv.strong * 11 > lv.clash * 11 * 11
    assert lv.absolute > lv.crossing * 11 * (lv.before[0] + 1)
    assert lv.cover.bit_length() <= swiss._Weights.BITS


def test_a_bracket_carries_a_colour_clash_down_inside_its_score_group():
    # Large fields pair in brackets. Bracket 1-2 and the lookahead 3 share a score
    # group that goes on below; 1 and 2 both want White, 3 and the players after it
    # want Black. Paired inside the bracket 1-2 would clash; a lookahead player takes
    # only one of them, so without carrying 1-2 would be paired. Carried down, both
    # can meet a player who wants Black.
    past = EventHistory([PastRound([[1, 3], [2, 4]])])
    ranked = [Entrant(k, 1.0, k) for k in range(1, 5)]
    profiles = swiss._profiles(ranked, past, None)
    assert [p.want for p in profiles] == [WHITE, WHITE, BLACK, BLACK]
    bracket, lookahead = profiles[:2], profiles[2:3]
    lv = swiss._Weights(4, [p.score for p in profiles])

    def inside(pairs):
        return [(a.key, b.key) for a, b in pairs if a.key <= 2 and b.key <= 2]

    assert inside(swiss._match(bracket, lookahead, past, lv, final=False, carry=True)) == []
    assert len(inside(swiss._match(bracket, lookahead, past, lv, final=False,
                                   carry=False))) == 1
