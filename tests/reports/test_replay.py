"""Deal replays: bot-played deals of every variant turned into step-by-step views."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cards import QS, QUEEN
from tourney.engines import VARIANT_IDS, get_game
from tourney.engines.dam_brade import DamBrade
from tourney.records.csv_format import format_row
from tourney.reports.replay import build_replay, square_at
from tourney.simulation import simulate_match

TABLE = {"svarta-maja": 4, "kortrad": 3, "sju-dolda": 5, "dam-stick": 4, "spardame": 4,
         "dam-brade": 2}
RULES = {"svarta-maja": {"deals": "1"}, "kortrad": {"deals": "1"}, "sju-dolda": {"deals": "1"},
         "dam-stick": {"deals": "1"}, "spardame": {"deals": "1", "pass": "cycle"},
         "dam-brade": {"games": "1"}}
KINDS = {"svarta-maja": "exchanges", "kortrad": "turns", "sju-dolda": "turns",
         "dam-stick": "tricks", "spardame": "tricks", "dam-brade": "board"}


def played_deal(variant: str, seed: int, nplayers: int | None = None, rules=None):
    game = get_game(variant)
    options = game.resolve_options(RULES[variant] if rules is None else rules)
    n = nplayers or TABLE[variant]
    names = [f"Player {i}" for i in range(n)]
    record = simulate_match(game, options, names, random.Random(seed))[0]
    row = format_row(record, canonical_token=game.canonical_token)
    return game, options, record, row


def view_of(variant, options, row, number=1, verified="moves"):
    return build_replay(variant, options, number, row["players"], row["dealer"] or None,
                        row["hands"], row["stock"], row["passes"], row["play"], row["scores"],
                        verified)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_variant_gets_its_view(variant):
    game, options, record, row = played_deal(variant, 3)
    view = view_of(variant, options, row)
    assert view.error is None
    assert view.kind == KINDS[variant]
    assert view.players == record.players
    assert view.scores == row["scores"].split(";")
    outcome = game.replay(record.setup(), record.play, options)
    assert view.places == outcome.places
    assert [e.kind for e in view.events] == [e.kind for e in outcome.events]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), n=st.sampled_from([3, 4, 5]),
       variant=st.sampled_from(["dam-stick", "spardame"]))
def test_tricks_follow_the_record(seed, n, variant):
    game, options, record, row = played_deal(variant, seed, n)
    view = view_of(variant, options, row)
    assert view.kind == "tricks"
    # Every card of the record, in order, trick by trick, each seat once a trick.
    played = [c for t in view.steps for c in (t.cards[s] for s in t.order)]
    assert played == [game.parse_move(token) for token in record.play]
    assert len(view.steps) == len(record.play) // n
    for trick in view.steps:
        assert sorted(trick.order) == list(range(n))
        assert trick.order[0] == trick.leader
        led = trick.cards[trick.leader] // 13
        best = max(c for c in trick.cards if c // 13 == led)
        assert trick.cards[trick.winner] == best
    # The hands as dealt are the record's, in display order.
    assert [sorted(h) for h in view.hands] == [sorted(h) for h in record.hands]
    # The next trick is led by the last one's winner.
    for before, after in zip(view.steps, view.steps[1:]):
        assert after.leader == before.winner
    # Queen events name a queen of the trick the seat won.
    for ev in view.events:
        if ev.kind == "queen-taken":
            params = ev.message.params
            trick = view.steps[params["trick"] - 1]
            assert params["cards"][0] in trick.counting
            assert params["cards"][0] % 13 == QUEEN
            assert trick.winner == ev.seat == params["player"]
            if variant == "spardame":
                assert params["cards"] == (QS,)


def test_spardame_passes_are_shown_with_the_hands_after_passing():
    for seed in range(20):
        _game, options, record, row = played_deal("spardame", seed, 4, {"pass": "left"})
        view = view_of("spardame", options, row)
        assert view.pass_direction == "left"
        for seat in range(4):
            giver = (seat - 1) % 4
            expected = (set(record.hands[seat]) - set(record.passes[seat])) | set(record.passes[giver])
            assert set(view.received[seat]) == expected
        return


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), n=st.integers(2, 6))
def test_exchanges_follow_the_record(seed, n):
    game, options, record, row = played_deal("svarta-maja", seed, n)
    view = view_of("svarta-maja", options, row)
    assert view.kind == "exchanges"
    assert len(view.steps) == len(record.play)
    assert view.trump == record.stock[-1]
    for exchange, token in zip(view.steps, record.play):
        attack, _answers = game.parse_move(token)
        assert [a for a, _ in exchange.pairs] == list(attack)
        assert exchange.defender != exchange.attacker
        # The cards in the hands after an exchange plus the stock never exceed the deck.
        held = [c for hand in exchange.hands_after for c in hand]
        assert len(held) == len(set(held))
    last = view.steps[-1]
    holding = [seat for seat, hand in enumerate(last.hands_after) if hand]
    assert holding == [view.scores.index("1")]
    assert QS in last.hands_after[holding[0]]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), variant=st.sampled_from(["kortrad", "sju-dolda"]),
       n=st.integers(2, 4))
def test_turns_follow_the_record(seed, variant, n):
    game, options, record, row = played_deal(variant, seed, n)
    view = view_of(variant, options, row)
    assert view.kind == "turns"
    assert [t.token for t in view.steps] == [game.canonical_token(t) for t in record.play]
    assert view.hands == record.hands  # positions kept, never sorted
    rows = [list(h) for h in record.hands]
    for turn in view.steps:
        # The row after a turn: the card taken goes in at position 1 and the
        # cards shift right up to the last position swapped, whose card is discarded.
        k = turn.swapped
        before = rows[turn.seat]
        if k:
            after = [turn.drawn] + before[:k - 1] + before[k:]
            assert turn.discarded == before[k - 1]
        else:
            after = before
            assert turn.discarded == turn.drawn
        assert turn.row_after == after
        rows[turn.seat] = after
    assert view.final_rows == rows


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 6))
def test_board_follows_the_record(seed):
    game, options, record, row = played_deal("dam-brade", seed)
    view = view_of("dam-brade", options, row)
    assert view.kind == "board"
    plies = view.steps
    assert plies[0].number == 0 and plies[0].board is not None
    assert [p.token for p in plies[1:]] == [game.canonical_token(t) for t in record.play]
    start = plies[0].board
    assert sum(cell == "b" for r in start for cell in r) == 12
    assert sum(cell == "w" for r in start for cell in r) == 12
    for r in range(8):
        for c in range(8):
            assert (start[r][c] == "") == (square_at(r, c) is None)
    # Black's men on 1-12, at the top.
    assert {square_at(r, c) for r in range(8) for c in range(8) if start[r][c] == "b"} \
        == set(range(1, 13))
    if len(record.play) <= DamBrade.BOARD_EVERY_PLY_LIMIT:
        assert all(p.board is not None for p in plies if p.kind != "result")
    else:
        assert view.sampled
        assert all(p.board is not None for p in plies if p.kind in ("capture", "huff"))
    # A piece count never grows.
    counts = [sum(cell not in ("", ".") for r in p.board for cell in r)
              for p in plies if p.board is not None]
    assert counts == sorted(counts, reverse=True)


def test_score_sheet_deals_get_no_replay():
    _game, options, _record, row = played_deal("spardame", 1)
    view = view_of("spardame", options, {**row, "play": "", "hands": "", "stock": "",
                                          "passes": ""}, verified="scores")
    assert view.kind == "score-sheet"
    assert view.steps == [] and view.moves == []
    assert view.scores == row["scores"].split(";")


def test_a_record_the_engine_refuses_shows_the_error_and_the_moves():
    _game, options, _record, row = played_deal("dam-stick", 2)
    short = {**row, "play": " ".join(row["play"].split()[:-1])}  # stops before the end
    view = view_of("dam-stick", options, short)
    assert view.error and "over" in view.error  # the deal is not over
    assert view.kind == "moves"
    assert [m.token for m in view.moves] == short["play"].split()
    assert view.moves[0].seat is not None


def test_an_unknown_variant_is_not_an_exception():
    _game, _options, _record, row = played_deal("kortrad", 1)
    view = view_of("no-such-game", {}, row)
    assert view.error and "no-such-game" in view.error
    assert view.kind == "moves"


def test_every_event_kind_of_the_engines_has_a_message():
    kinds = set()
    for variant in VARIANT_IDS:
        for seed in range(6):
            _game, options, _record, row = played_deal(variant, seed)
            view = view_of(variant, options, row)
            for ev in view.events:
                kinds.add(ev.kind)
                # A catalogue message, never the engine's English text...
                assert ev.message.translate, (variant, ev)
                # ...with every placeholder given.
                ev.message.msgid % {k: "x" for k in ev.message.params}
    assert kinds  # the bots' deals do have events


def test_steps_of_a_shape_the_site_cannot_show_become_the_move_list():
    _game, options, record, row = played_deal("kortrad", 4)
    view = view_of("kortrad", options, row)
    assert view.kind == "turns"
    plain = build_replay("kortrad", options, 1, row["players"], row["dealer"] or None,
                         row["hands"], row["stock"], row["passes"], row["play"], row["scores"],
                         shapes={"tricks", "moves"})
    assert plain.kind == "moves" and plain.error is None
    assert [m.token for m in plain.moves] == row["play"].split()
    assert [m.seat for m in plain.moves] == [t.seat for t in view.steps]
    assert plain.places == view.places and [e.kind for e in plain.events] == [
        e.kind for e in view.events]


def test_register_game_checks_the_id():
    from tourney.engines import register_game
    from tourney.engines.base import Game

    class Nameless(Game):
        id = "Not An Id"

    with pytest.raises(ValueError):
        register_game(Nameless())
    with pytest.raises(ValueError):
        register_game(get_game("spardame"))  # taken
    with pytest.raises(TypeError):
        register_game("spardame")
