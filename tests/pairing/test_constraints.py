"""The seating honours the arbiter's constraints (pairs kept apart, fixed tables)."""
from tourney.pairing.constraints import SeatingConstraints
from tourney.pairing.history import Entrant, PastRound
from tourney.pairing.seating import seat_round


def players(n):
    return [Entrant(key=k) for k in range(1, n + 1)]


def seat(n, history=(), constraints=None, method="balanced", seed=7, lo=3, hi=5, pref=4):
    return seat_round(players(n), list(history), min_size=lo, max_size=hi, preferred=pref,
                      method=method, seed=seed, round_number=len(history) + 1,
                      constraints=constraints)


def table_of(seating):
    return {k: t for t, table in enumerate(seating.tables) for k in table}


def test_kept_apart_pairs_never_share_a_table():
    apart = [(1, 2), (1, 3), (2, 3), (4, 5), (6, 7), (8, 9)]
    cons = SeatingConstraints.build(apart=apart)
    for method in ("balanced", "random"):
        for seed in range(10):
            s = seat(12, constraints=cons, method=method, seed=seed)
            where = table_of(s)
            assert all(where[a] != where[b] for a, b in apart), (method, seed, s.tables)
            assert s.unmet == []


def test_kept_apart_weighs_above_repeats():
    # Round 1 sat 1..4 apart from 5..8; keeping 1 from 2 and 3 from 4 is met again.
    history = [PastRound([[1, 2, 3, 4], [5, 6, 7, 8]])]
    cons = SeatingConstraints.build(apart=[(1, 5), (2, 6), (3, 7), (4, 8)])
    s = seat(8, history, cons, lo=4, hi=4, pref=4)
    where = table_of(s)
    assert all(where[a] != where[b] for a, b in [(1, 5), (2, 6), (3, 7), (4, 8)])
    assert s.unmet == []


def test_fixed_players_sit_at_their_table():
    cons = SeatingConstraints.build(fixed={5: 0, 9: 2, 11: 2})
    for seed in range(10):
        s = seat(13, constraints=cons, seed=seed)
        where = table_of(s)
        assert where[5] == 0 and where[9] == 2 and where[11] == 2, s.tables
        assert s.unmet == []


def test_what_cannot_be_met_is_listed_with_why():
    # Two tables of four: five mutually apart players cannot all be split.
    group = [1, 2, 3, 4, 5]
    apart = [(a, b) for i, a in enumerate(group) for b in group[i + 1:]]
    cons = SeatingConstraints.build(apart=apart, fixed={6: 9})
    s = seat(8, constraints=cons, lo=4, hi=4, pref=4)
    kinds = {(u.kind, u.reason) for u in s.unmet}
    assert ("fixed", "no-such-table") in kinds
    apart_unmet = [u for u in s.unmet if u.kind == "apart"]
    # the pigeonhole leaves at least 4 pairs together (3 + 2 split); no more than that
    assert len(apart_unmet) == 4
    where = table_of(s)
    assert all(where[u.players[0]] == where[u.players[1]] == u.table for u in apart_unmet)
