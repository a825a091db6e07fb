"""Helpers shared by the trick-game tests (dam-stick, spardame): bot play and the
errors of a record, each for the game it is given."""
from __future__ import annotations

import pytest

from tourney.engines.base import Game
from tourney.errors import RecordError


def play_out(game: Game, setup, options, rng, skill, prefix=()):
    """Play ``prefix`` as written, then bot moves at ``skill`` to the end of the deal:
    (tokens, outcome, final state)."""
    state = game.new_deal(setup, options)
    tokens = list(prefix)
    for token in tokens:
        game.play(state, game.parse_move(token))
    while not game.is_over(state):
        move = game.choose_move(state, rng, skill)
        game.play(state, move)
        tokens.append(game.format_move(move))
    return tokens, game.outcome(state), state


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
