"""The pure rating engine: ties, model choice, replays, predictions, and the
openskill pitfalls tourney.ratings.models documents (one test each)."""
from __future__ import annotations

import math
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tourney.ratings.engine import Change, Rater, ordinal, predict, rate_matches
from tourney.ratings.models import MODEL_NAMES, ModelSpec


def bare_loop(model, matches):
    """What a user of openskill would write: Rating objects in a dict."""
    ratings = {}
    for ranking in matches:
        teams = [[ratings.get(p) or model.rating()] for p, _ in ranking]
        result = model.rate(teams, ranks=[place for _, place in ranking])
        for (p, _), team in zip(ranking, result):
            ratings[p] = team[0]
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}


def random_matches(rng: random.Random, count: int, players: int = 12):
    matches = []
    for _ in range(count):
        size = rng.choice((2, 3, 4, 4, 5))
        seats = rng.sample(range(players), size)
        places = sorted(rng.randint(1, size) for _ in range(size))
        # competition ranking (1, 2, 2, 4): a place is 1 + the number of better ones
        places = [1 + sum(1 for q in places if q < p) for p in places]
        matches.append(list(zip(seats, places)))
    return matches


matches_strategy = st.builds(lambda seed, n: random_matches(random.Random(seed), n),
                             st.integers(0, 10 ** 9), st.integers(1, 40))


# ------------------------------------------------------------------ rating

@settings(max_examples=60, deadline=None)
@given(matches=matches_strategy, name=st.sampled_from(MODEL_NAMES))
def test_engine_gives_the_bare_loops_numbers_exactly(matches, name):
    model = ModelSpec.create(name).build()
    rater, _ = rate_matches(model, matches)
    assert rater.ratings() == bare_loop(ModelSpec.create(name).build(), matches)


@settings(max_examples=60, deadline=None)
@given(matches=matches_strategy, cut=st.integers(0, 40))
def test_resuming_from_stored_floats_is_bit_identical(matches, cut):
    """What a pool replay does: the state after the first matches, as floats and
    counts, then the rest, equals one run through all of them."""
    cut = min(cut, len(matches))
    spec = ModelSpec.create()
    whole, whole_history = rate_matches(spec.build(), matches)
    first, first_history = rate_matches(spec.build(), matches[:cut])
    state = {p: (float(mu), float(sigma)) for p, (mu, sigma) in first.ratings().items()}
    second, second_history = rate_matches(spec.build(), matches[cut:], state, first.match_counts())
    assert second.ratings() == whole.ratings()
    assert second.match_counts() == whole.match_counts()
    assert first_history + second_history == whole_history


def test_history_rows_chain_and_count():
    matches = random_matches(random.Random(5), 30)
    rater, history = rate_matches(None, matches)
    last = {}
    for ranking, changes in zip(matches, history):
        assert [(c[0], c[1]) for c in changes] == list(ranking)
        for row in changes:
            change = Change(*row)
            assert type(row) is tuple and len(row) == len(Change._fields)
            mu0, sigma0 = last.get(change.player, (25.0, 25.0 / 3.0))
            assert (change.mu_before, change.sigma_before) == (mu0, sigma0)
            last[change.player] = (change.mu_after, change.sigma_after)
    assert last == rater.ratings()
    played = {}
    for ranking in matches:
        for p, _ in ranking:
            played[p] = played.get(p, 0) + 1
    assert rater.match_counts() == played


def test_places_are_ranks_so_shared_places_are_ties():
    rater = Rater()
    changes = rater.rate([("a", 1), ("b", 2), ("c", 2), ("d", 4)])
    after = {c[0]: (c[4], c[5]) for c in changes}
    assert after["b"] == after["c"]  # tied, equal before: equal after
    assert after["a"][0] > after["b"][0] > after["d"][0]
    # the same as openskill given the places as ranks, not as scores
    model = PlackettLuce()
    reference = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 2, 4])
    assert [(t[0].mu, t[0].sigma) for t in reference] == [after[k] for k in "abcd"]
    untied = Rater().rate([("a", 1), ("b", 2), ("c", 3), ("d", 4)])
    assert untied[1][4] != untied[2][4]


def test_a_shared_first_place():
    changes = Rater().rate([("a", 1), ("b", 1), ("c", 3)])
    assert changes[0][4] == changes[1][4] > 25.0 > changes[2][4]


def test_input_order_within_a_match_does_not_matter_for_untied_places():
    forward = Rater().rate([("a", 1), ("b", 2), ("c", 3)])
    backward = Rater().rate([("c", 3), ("b", 2), ("a", 1)])
    assert {c[0]: c[4:] for c in forward} == {c[0]: c[4:] for c in backward}


def test_model_choice_changes_the_numbers():
    ranking = [("a", 1), ("b", 2), ("c", 3), ("d", 4)]
    winners = {}
    for name in MODEL_NAMES:
        rater = Rater(ModelSpec.create(name).build())
        winners[name] = rater.rate(ranking)[0][4]
    assert len(set(winners.values())) == len(MODEL_NAMES)
    assert winners["ThurstoneMostellerFull"] > winners["BradleyTerryFull"] > winners["PlackettLuce"]


def test_starting_ratings_and_unknown_players():
    rater = Rater(None, {"old": (30.0, 2.0)}, {"old": 7})
    assert rater.get("old") == (30.0, 2.0) and rater.is_rated("old")
    assert rater.get("new") == (25.0, 25.0 / 3.0) and not rater.is_rated("new")
    rater.rate([("old", 2), ("new", 1)])
    assert rater.matches("old") == 8 and rater.matches("new") == 1


def test_fewer_than_two_players_rate_nobody():
    rater = Rater()
    assert rater.rate([("a", 1)]) == () and rater.rate([]) == ()
    assert rater.ratings() == {} and rater.match_counts() == {}


def test_a_player_twice_in_one_match_is_an_error():
    with pytest.raises(ValueError, match="listed twice"):
        Rater().rate([("a", 1), ("b", 2), ("a", 3)])


# ------------------------------------------------------------------ pitfalls

def four_new(model):
    return [[model.rating()] for _ in range(4)]


def test_pitfall_rate_tau_zero_is_ignored_so_tau_goes_to_the_constructor():
    model = PlackettLuce()
    ranks = [1, 2, 3, 4]
    ignored = model.rate(four_new(model), ranks=ranks, tau=0)
    default = model.rate(four_new(model), ranks=ranks)
    assert [t[0].sigma for t in ignored] == [t[0].sigma for t in default]
    # openskill falls back to self.tau, and a constructor's 0.0 does apply
    zero = PlackettLuce(tau=0.0).rate(four_new(model), ranks=ranks)
    assert [t[0].sigma for t in zero] != [t[0].sigma for t in default]
    # the engine, given tau=0 by the pool's spec, gives the tau=0 numbers
    spec = ModelSpec.create("PlackettLuce", {"tau": "0"})
    changes = Rater(spec.build()).rate([(i, r) for i, r in enumerate(ranks)])
    assert [c[5] for c in changes] == [t[0].sigma for t in zero]


def test_tau_zero_never_inflates_sigma():
    spec = ModelSpec.create("PlackettLuce", {"tau": "0"})
    matches = random_matches(random.Random(9), 200)
    zero, history = rate_matches(spec.build(), matches)
    assert all(row[5] <= row[3] for changes in history for row in changes)
    # the default tau adds to every sigma before each update
    default, _ = rate_matches(None, matches)
    assert all(zero.get(p)[1] < default.get(p)[1] for p in default.ratings())


def test_pitfall_limit_sigma_in_rate_changes_the_model():
    model = PlackettLuce()
    model.rate(four_new(model), ranks=[1, 2, 3, 4], limit_sigma=True)
    assert model.limit_sigma is True  # a side effect on every later call
    spec = ModelSpec.create("PlackettLuce", {"limit_sigma": "true"})
    built = spec.build()
    rater = Rater(built)
    history = rater.rate_all(random_matches(random.Random(2), 100))
    assert all(row[5] <= row[3] for changes in history for row in changes)
    assert built.limit_sigma is True and DEFAULT_LIMIT_SIGMA is False


DEFAULT_LIMIT_SIGMA = PlackettLuce().limit_sigma


def test_pitfall_weights_on_one_player_teams_are_forced_to_the_upper_bound():
    model = PlackettLuce()
    ranks = [1, 2, 3, 4]
    unweighted = model.rate(four_new(model), ranks=ranks)
    ones = model.rate(four_new(model), ranks=ranks, weights=[[1.0]] * 4)
    halves = model.rate(four_new(model), ranks=ranks, weights=[[0.5]] * 4)
    assert [t[0].mu for t in ones] == [t[0].mu for t in halves]  # both became 2.0
    assert [t[0].mu for t in ones] != [t[0].mu for t in unweighted]
    # the engine passes no weights: its numbers are the unweighted ones
    changes = Rater(PlackettLuce()).rate([(i, r) for i, r in enumerate(ranks)])
    assert [c[4] for c in changes] == [t[0].mu for t in unweighted]


def test_pitfall_compiled_ratings_do_not_unpickle_so_state_is_floats():
    rating = PlackettLuce().rating()
    with pytest.raises(TypeError):
        pickle.loads(pickle.dumps(rating))
    rater, history = rate_matches(None, random_matches(random.Random(3), 20))
    state = rater.ratings()
    assert all(type(mu) is float and type(sigma) is float for mu, sigma in state.values())
    assert pickle.loads(pickle.dumps((state, history))) == (state, history)


# ------------------------------------------------------------------ prediction

def test_prediction_of_a_table():
    rater = Rater(None, {"strong": (35.0, 3.0), "weak": (15.0, 3.0)})
    outlook = rater.predict(["weak", "new", "strong"])
    assert outlook.players == ("weak", "new", "strong")
    assert math.isclose(sum(outlook.win), 1.0)
    assert outlook.win[2] > outlook.win[1] > outlook.win[0]
    assert outlook.rank == (3, 2, 1)
    assert math.isclose(sum(outlook.expected_place), 1 + 2 + 3)
    assert outlook.expected_place[2] < outlook.expected_place[1] < outlook.expected_place[0]
    assert 0.0 < outlook.draw < 1.0
    assert outlook.mu == (15.0, 25.0, 35.0)


def test_equal_ratings_predict_equal_chances():
    outlook = predict(PlackettLuce(), [(25.0, 8.0)] * 4)
    assert all(math.isclose(p, 0.25) for p in outlook.win)
    assert outlook.rank == (1, 1, 1, 1)
    assert all(math.isclose(e, 2.5) for e in outlook.expected_place)


def test_prediction_needs_two_players():
    with pytest.raises(ValueError):
        predict(PlackettLuce(), [(25.0, 8.0)])


def test_ordinal():
    assert ordinal(30.0, 2.0) == 24.0
