"""Helpers shared by the trick-game tests (dam-stick, spardame, fast paths): bot
play, rule checks and the errors of a record, each for the game it is given."""
from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st

from tourney.cards import cards_of
from tourney.engines.base import Game
from tourney.errors import IllegalMove, RecordError
from tourney.simulation import finish_deal


def play_out(game: Game, setup, options, rng, skill, prefix=()):
    """Play ``prefix`` as written, then bot moves at ``skill`` to the end of the deal:
    (tokens, outcome, final state)."""
    state = play_tokens(game, setup, options, prefix)
    tokens = list(prefix) + finish_deal(game, state, rng, skill)
    return tokens, game.outcome(state), state


def heuristic_against_random(game: Game, options, deals: int = 150, seed: int = 3):
    """Deals at tables of 4, seat 0's bot at skill 1 and the others at random: seat
    0's total score and the others' average total (fewer points are better)."""
    rng = random.Random(seed)
    bot, rest = 0, 0
    for deal in range(deals):
        setup = game.random_setup(4, deal % 4, 1, options, rng)
        state = game.new_deal(setup, options)
        finish_deal(game, state, rng, [1.0, 0.0, 0.0, 0.0])
        scores = game.outcome(state).scores
        bot += scores[0]
        rest += sum(scores[1:]) / 3
    return bot, rest


# Spardame's house-rule options, for property tests.
SPARDAME_OPTIONS = st.fixed_dictionaries({
    "pass": st.sampled_from(["left", "cycle"]),
    "protect_ace_hearts": st.booleans(),
    "qs_with_jd": st.booleans(),
    "three_no_twos": st.booleans(),
    "hearts_break": st.booleans(),
    "no_points_first_trick": st.booleans(),
    "jd_bonus": st.sampled_from([0, -50, -100]),
    "no_trick_bonus": st.sampled_from([0, -50]),
})


def assert_legal_moves_match_play(game: Game, setup, options, tokens, step: int = 1):
    """Before every ``step``-th move of the record: each card in the hand to play is
    in ``legal_moves`` exactly when ``play`` takes it."""
    for index in range(0, len(tokens), step):
        state = play_tokens(game, setup, options, tokens[:index])
        legal = set(game.legal_moves(state))
        for card in cards_of(state.hands[state.turn]):
            trial = play_tokens(game, setup, options, tokens[:index])
            try:
                game.play(trial, card)
                assert card in legal
            except IllegalMove:
                assert card not in legal


def play_tokens(game: Game, setup, options, tokens):
    """A new deal with ``tokens`` played; the state."""
    state = game.new_deal(setup, options)
    for token in tokens:
        game.play(state, game.parse_move(token))
    return state


def finish(game: Game, setup, options, prefix, rng):
    """``prefix`` played as written, the rest of the deal by random legal moves."""
    return play_out(game, setup, options, rng, 0.0, prefix)[0]


def record_error(game: Game, setup, tokens, options) -> RecordError:
    """The error of the fused replay, checked against the generic Game.replay."""
    with pytest.raises(RecordError) as fused:
        game.replay(setup, tokens, options)
    with pytest.raises(RecordError) as generic:
        Game.replay(game, setup, tokens, options)
    err, ref = fused.value, generic.value
    assert (err.rule, err.move, err.seat, err.token, err.message) == \
        (ref.rule, ref.move, ref.seat, ref.token, ref.message)
    return err


def setup_error(game: Game, setup, options) -> RecordError:
    with pytest.raises(RecordError) as caught:
        game.new_deal(setup, options)
    return caught.value
