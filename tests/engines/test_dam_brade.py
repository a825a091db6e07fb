"""Tests of the dam-brade engine (checkers, Alga rules: docs/guide/rules.md, "Dam, the
board game")."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engines import get_game
from tourney.engines.base import DealSetup, MatchRules
from tourney.engines.dam_brade import (
    BLACK,
    DAM_BRADE,
    QUIET_PLY_LIMIT,
    WHITE,
    has_piece_move,
    jumpers,
    mask_of,
)
from tourney.errors import IllegalMove, OptionError, RecordError
from tourney.simulation import finish_deal

GAME = DAM_BRADE
OPTIONS = GAME.resolve_options()
CAPTURER = GAME.resolve_options({"huff": "capturer"})
SETUP = DealSetup(nplayers=2)


def replay(tokens, options=OPTIONS):
    if isinstance(tokens, str):
        tokens = tokens.split()
    return GAME.replay(SETUP, tokens, options)


def rejected(tokens, options=OPTIONS) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(tokens, options)
    return info.value


def play_all(state, tokens):
    for token in tokens.split():
        GAME.play(state, GAME.parse_move(token))
    return state


def illegal(state, token) -> IllegalMove:
    before = snapshot(state)
    with pytest.raises(IllegalMove) as info:
        GAME.play(state, GAME.parse_move(token))
    assert snapshot(state) == before, "a refused move must leave the state untouched"
    return info.value


def snapshot(state):
    return (tuple(state.pieces), state.kings, state.turn, state.last_step, state.ply,
            state.result, state.token_seen, len(state.events))


def moves_text(state):
    return sorted(GAME.format_move(m) for m in GAME.legal_moves(state))


# ------------------------------------------------------------- an independent model
# A deliberately naive rules model on (row, column) coordinates, written from
# The rules alone, to check the engine's bit-mask tables and move generation.

def _coords(square):
    row = (square - 1) // 4
    return row, 2 * ((square - 1) % 4) + (1 if row % 2 == 0 else 0)


def _square(row, col):
    if 0 <= row < 8 and 0 <= col < 8 and (row + col) % 2 == 1:
        return row * 4 + col // 2 + 1
    return None


def naive_moves(black, white, kings, turn):
    """Steps and capture sequences (no huffs) as canonical tokens."""
    own, opp = (black, white) if turn == BLACK else (white, black)
    forward = 1 if turn == BLACK else -1
    crown_row = 7 if turn == BLACK else 0
    occupied = set(black) | set(white)
    out = set()
    for sq in own:
        r, c = _coords(sq)
        rows = (1, -1) if sq in kings else (forward,)
        for dr in rows:
            for dc in (-1, 1):
                t = _square(r + dr, c + dc)
                if t is not None and t not in occupied:
                    out.add(f"{sq}-{t}")

        def extend(cur, path, jumped, is_king, start=sq):
            went_on = False
            cr, cc = _coords(cur)
            for dr in ((1, -1) if is_king else (forward,)):
                for dc in (-1, 1):
                    over = _square(cr + dr, cc + dc)
                    land = _square(cr + 2 * dr, cc + 2 * dc)
                    if (over in opp and over not in jumped and land is not None
                            and (land not in occupied or land == start)):
                        went_on = True
                        if not is_king and _coords(land)[0] == crown_row:
                            out.add("x".join(map(str, path + [land])))
                        else:
                            extend(land, path + [land], jumped | {over}, is_king, start)
            if not went_on and len(path) > 1:
                out.add("x".join(map(str, path)))

        extend(sq, [sq], frozenset(), sq in kings)
    return out


positions = st.builds(
    lambda cells, turn: (
        [s for s, v in enumerate(cells, 1) if v in (1, 2)],
        [s for s, v in enumerate(cells, 1) if v in (3, 4)],
        [s for s, v in enumerate(cells, 1) if v in (2, 4)],
        turn,
    ),
    st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4]), min_size=32, max_size=32),
    st.sampled_from([BLACK, WHITE]),
).filter(lambda p: p[0] and p[1])


@settings(max_examples=200, deadline=None)
@given(positions)
def test_move_generation_agrees_with_a_naive_model(position):
    black, white, kings, turn = position
    state = GAME.position(black, white, kings, turn)
    expected = naive_moves(black, white, set(kings), turn)
    assert set(moves_text(state)) == expected
    own, opp = state.pieces[turn], state.pieces[1 - turn]
    capturers = {int(m.split("x")[0]) for m in expected if "x" in m}
    assert jumpers(turn, own, opp, state.kings) == mask_of(capturers)
    assert has_piece_move(turn, own, opp, state.kings) == bool(expected)


@settings(max_examples=150, deadline=None)
@given(positions, st.randoms(use_true_random=False))
def test_play_accepts_exactly_the_listed_moves(position, rng):
    black, white, kings, turn = position
    state = GAME.position(black, white, kings, turn)
    listed = set(moves_text(state))
    # every listed move plays; every other one-step token is refused
    for token in listed:
        GAME.play(state.copy(), GAME.parse_move(token))
    for a in range(1, 33):
        for b in range(1, 33):
            token = f"{a}-{b}"
            if a != b and token not in listed:
                with pytest.raises(IllegalMove):
                    GAME.play(state.copy(), GAME.parse_move(token))
    # stopping a multi-jump early is refused (the piece could still jump)
    for token in listed:
        squares = token.split("x")
        if len(squares) > 2:
            prefix = "x".join(squares[:-1])
            err = illegal(state.copy(), prefix)
            assert err.rule == "must-continue"
            assert "must go on" in err.message


def test_ghost_layout_matches_the_board_geometry():
    for square in range(1, 33):
        r, c = _coords(square)
        state = GAME.position([square], [], kings=[square])
        targets = {t for dr in (1, -1) for dc in (1, -1)
                   if (t := _square(r + dr, c + dc)) is not None}
        assert {int(m.split("-")[1]) for m in moves_text(state)} == targets


# ----------------------------------------------------------------- opening, steps

def test_opening_position():
    state = GAME.new_deal(SETUP, OPTIONS)
    assert state.squares(BLACK) == list(range(1, 13))
    assert state.squares(WHITE) == list(range(21, 33))
    assert state.squares(BLACK, kings=True) == []
    assert GAME.to_move(state) == BLACK
    assert moves_text(state) == sorted(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    GAME.play(state, GAME.parse_move("11-15"))
    assert GAME.to_move(state) == WHITE
    assert moves_text(state) == sorted(
        ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"])
    assert state.board_text().splitlines()[0] == " b b b b"


def test_a_short_game_with_captures():
    out = replay("11-15 22-18 15x22 25x18 12-16 18-14 9x18 23x14 1/2-1/2")
    assert out.scores == [0.5, 0.5]
    assert out.places == [1, 1]
    assert out.moves == 9
    assert [e.kind for e in out.events] == ["draw-agreed"]


@pytest.mark.parametrize("tokens, rule, move, seat, words", [
    ("11-15 22-18 15-22", "not-a-step", 3, BLACK, "one step"),
    ("11-15 22-18 15-11", "man-backwards", 3, BLACK, "forward only"),
    ("11-15 15-19", "no-piece", 2, WHITE, "no piece on 15"),
    ("11-15 21-17 10-15", "square-occupied", 3, BLACK, "not empty"),
    ("11-15 22-18 18x11", "no-piece", 3, BLACK, "Black has no piece on 18"),
    ("11-15 22-18 15x26", "not-a-jump", 3, BLACK, "15x26 is not a jump"),
    ("11-15 22-18 15x24", "not-a-jump", 3, BLACK, "19 (between 15 and 24) is empty"),
    ("11-15 22-17 15x22", "not-a-jump", 3, BLACK, "is empty"),
    ("11-15 22-18 H18", "huff-not-allowed", 3, BLACK, "skipped a capture"),
    ("11-15 22-18 15x22 25x18 1/2-1/2 9-14", "after-result", 6, None, "result token"),
    ("1-0 11-15", "after-result", 2, None, "nothing may follow"),
])
def test_broken_rules_are_named_with_move_and_seat(tokens, rule, move, seat, words):
    err = rejected(tokens)
    assert err.rule == rule
    assert err.move == move
    assert err.seat == seat
    assert err.column == "play"
    assert words in err.message
    assert err.token == tokens.split()[move - 1]


def test_an_unfinished_undecided_record_needs_a_result_token():
    err = rejected("11-15 22-18")
    assert err.rule == "record-incomplete"
    assert "result token" in err.message
    assert rejected([]).rule == "record-incomplete"


# ------------------------------------------------------------------ captures

def test_multi_jump_must_continue_and_may_turn():
    state = GAME.position([9, 1], [14, 22, 23])
    assert set(moves_text(state)) >= {"9x18x25", "9x18x27"}
    assert "9x18" not in moves_text(state)
    err = illegal(state, "9x18")
    assert err.rule == "must-continue"
    assert "from 18 it can still jump" in err.message
    # either branch may be chosen (no majority rule); the turn at 18 is allowed
    for token, left in (("9x18x25", [23]), ("9x18x27", [22])):
        s = state.copy()
        GAME.play(s, GAME.parse_move(token))
        assert s.squares(WHITE) == left
        assert s.squares(BLACK) == [1, int(token.split("x")[-1])]
        assert s.events[-1].kind == "multi-capture"
        assert "captured 2 pieces" in s.events[-1].text


def test_any_capture_may_be_chosen_not_the_longest():
    state = GAME.position([9, 15, 21], [18, 6, 25])
    assert sorted(GAME.format_move(m) for m in GAME.capture_moves(state)) == [
        "15x22x29", "21x30"]
    GAME.play(state, GAME.parse_move("21x30"))  # one piece while two could be taken
    assert state.squares(WHITE) == [6, 18]
    assert state.squares(BLACK, kings=True) == [30]


def test_a_man_crowned_during_a_capture_ends_its_move():
    state = GAME.position([22, 1], [26, 27])
    assert "22x31" in moves_text(state)
    err = illegal(state, "22x31x24")
    assert err.rule == "crowned-ends-move"
    assert "crowned on 31" in err.message
    GAME.play(state, GAME.parse_move("22x31"))
    assert state.squares(BLACK, kings=True) == [31]
    assert state.events[-1].kind == "crowned"
    assert not GAME.is_over(state)


def test_a_king_is_not_stopped_on_the_crowning_row():
    state = GAME.position([22, 1], [26, 27], kings=[22])
    assert illegal(state, "22x31").rule == "must-continue"
    GAME.play(state, GAME.parse_move("22x31x24"))
    assert GAME.is_over(state) and state.result == (1.0, 0.0)


def test_no_piece_is_jumped_twice_and_jumped_pieces_stay_until_the_end():
    state = GAME.position([9, 1], [14, 30], kings=[9])
    err = illegal(state, "9x18x9")
    assert err.rule == "jumped-twice"
    assert "14 was already jumped" in err.message
    # a king may come back to its own start square, round four pieces
    loop = GAME.position([9, 1], [14, 15, 7, 6, 30], kings=[9])
    assert {"9x18x11x2x9", "9x2x11x18x9"} <= set(moves_text(loop))
    GAME.play(loop, GAME.parse_move("9x18x11x2x9"))
    assert loop.squares(WHITE) == [30]
    assert loop.squares(BLACK) == [1, 9]
    assert "captured 4 pieces: 6, 7, 14, 15" in loop.events[-1].text


def test_a_man_captures_forward_only():
    state = GAME.position([18, 1], [14, 30])
    err = illegal(state, "18x9")
    assert err.rule == "man-backwards"
    assert "captures forward only" in err.message


def test_a_capture_must_jump_an_opposing_piece():
    state = GAME.position([9, 14], [30])
    err = illegal(state, "9x18")
    assert err.rule == "not-a-jump"
    assert "own piece" in err.message
    assert illegal(GAME.position([9, 1], [14, 18]), "9x18").rule == "square-occupied"


# ---------------------------------------------------------------------- kings

def test_king_moves_one_step_both_ways_and_captures_backwards():
    state = GAME.position([18, 1], [30], kings=[18])
    assert {"18-14", "18-15", "18-22", "18-23"} <= set(moves_text(state))
    assert illegal(state, "18-25").rule == "not-a-step"
    assert illegal(state, "18-11").rule == "not-a-step"
    man = GAME.position([18, 1], [30])
    assert illegal(man, "18-14").rule == "man-backwards"
    backwards = GAME.position([18, 1], [14, 30], kings=[18])
    GAME.play(backwards, GAME.parse_move("18x9"))
    assert backwards.squares(WHITE) == [30]
    assert backwards.squares(BLACK, kings=True) == [9]


def test_crowning_by_a_step():
    state = GAME.position([27, 1], [10])
    GAME.play(state, GAME.parse_move("27-32"))
    assert state.squares(BLACK, kings=True) == [32]
    assert state.events[-1].kind == "crowned"
    white = GAME.position([30], [6, 27], turn=WHITE)
    GAME.play(white, GAME.parse_move("6-2"))
    assert white.squares(WHITE, kings=True) == [2]


# ---------------------------------------------------------------------- huffs

SKIP = "11-15 22-18 9-13"  # Black could take 15x22 and steps instead


def test_huff_any_piece_then_move():
    out = replay(SKIP + " H1 18x11 8x15 1/2-1/2")
    kinds = [e.kind for e in out.events]
    assert kinds[:1] == ["huff"]
    assert out.events[0].move == 4 and out.events[0].seat == WHITE
    state = play_all(GAME.new_deal(SETUP, OPTIONS), SKIP)
    assert GAME.to_move(state) == WHITE
    assert {m[1] for m in GAME.legal_moves(state) if m[0] == "H"} == set(state.squares(BLACK))
    play_all(state, "H1")
    assert state.squares(BLACK).count(1) == 0
    assert GAME.to_move(state) == WHITE  # the huffer still moves
    assert not [m for m in GAME.legal_moves(state) if m[0] == "H"]


def test_only_one_huff_per_turn_and_only_right_after_the_skip():
    assert rejected(SKIP + " H1 H2").rule == "huff-not-allowed"
    assert "one huff per turn" in rejected(SKIP + " H1 H2").message
    err = rejected(SKIP + " 18x11 8x15 H1")  # White did not huff: the right lapsed
    assert err.rule == "huff-not-allowed" and err.move == 6 and err.seat == WHITE
    err = rejected(SKIP + " 18x11 H11")  # a capture gives no huff right
    assert err.rule == "huff-not-allowed"
    err = rejected(SKIP + " H18")
    assert err.rule == "huff-no-piece" and "Black has no piece on 18" in err.message


def test_huff_capturer_only_a_piece_that_could_have_captured():
    err = rejected(SKIP + " H1", CAPTURER)
    assert err.rule == "huff-not-capturer"
    assert "15, not 1" in err.message
    out = replay(SKIP + " H15 1/2-1/2", CAPTURER)
    assert out.events[0].kind == "huff"


def test_huff_capturer_takes_the_moved_capturer_on_its_new_square():
    moved = "11-15 22-18 15-19"  # 15 could take 18 and moves on to 19 instead
    assert rejected(moved + " H15", CAPTURER).rule == "huff-no-piece"
    assert rejected(moved + " H11", CAPTURER).rule == "huff-no-piece"
    assert rejected(moved + " H10", CAPTURER).rule == "huff-not-capturer"
    out = replay(moved + " H19 1/2-1/2", CAPTURER)
    assert out.events[0].text.endswith("piece on 19 (a capture was skipped)")


def test_huff_capturer_another_piece_stepped():
    # Black's 19 could take 23 (landing 26); 27 steps (and crowns) instead
    state = GAME.position([19, 27], [31, 23, 5], options=CAPTURER)
    assert "19x26" in moves_text(state)
    GAME.play(state, GAME.parse_move("27-32"))
    assert GAME.huff_mask(state) == mask_of([19])
    assert {m for m in GAME.legal_moves(state) if m[0] == "H"} == {("H", 19)}
    moved = GAME.position([19, 27], [31, 23, 5], options=CAPTURER)
    GAME.play(moved, GAME.parse_move("19-24"))
    assert GAME.huff_mask(moved) == mask_of([24])
    anything = GAME.position([19, 27], [31, 23, 5])
    GAME.play(anything, GAME.parse_move("19-24"))
    assert GAME.huff_mask(anything) == mask_of([24, 27])


def test_the_capture_duty_is_judged_after_the_movers_own_huff():
    # White's only capture (18x11 over 15) disappears with White's huff of 15
    out = replay(SKIP + " H15 24-20 1/2-1/2")
    assert [e.kind for e in out.events] == ["huff", "draw-agreed"]
    assert rejected(SKIP + " H15 24-20 H20").rule == "huff-not-allowed"
    # without that huff the same step skips 18x11, and Black may huff
    out = replay(SKIP + " H1 24-20 H20 1/2-1/2")
    assert [e.kind for e in out.events] == ["huff", "huff", "draw-agreed"]
    # a huff can also open a capture: White's huff of 11 opens 18x11 over 15
    state = GAME.position([6, 11, 15], [18, 26])
    assert not jumpers(WHITE, state.pieces[WHITE], state.pieces[BLACK], state.kings)
    play_all(state, "6-10 H11 26-23")
    assert GAME.huff_mask(state) == state.pieces[WHITE]


def test_a_huff_may_end_the_game():
    state = GAME.position([15], [18, 30])
    play_all(state, "15-19 H19")
    assert GAME.is_over(state) and state.result == (0.0, 1.0)
    assert "no pieces left" in state.end_reason
    lone = GAME.position([14, 3], [18], kings=[14, 18])
    play_all(lone, "3-7 H7")
    assert lone.result == (0.5, 0.5)
    assert lone.events[-1].kind == "draw-lone-kings"


# ----------------------------------------------------------------- ends, results

def test_loss_by_no_pieces_with_optional_agreeing_result():
    record = "11-15 22-18 15x22 25x18"
    state = play_all(GAME.new_deal(SETUP, OPTIONS), record)
    assert not GAME.is_over(state)
    end = GAME.position([9, 1], [14, 22, 23])
    play_all(end, "9x18x25")
    assert not GAME.is_over(end)
    last = GAME.position([9], [14])
    play_all(last, "9x18")
    assert GAME.is_over(last) and last.result == (1.0, 0.0)
    assert GAME.to_move(last) is None
    assert GAME.legal_moves(last) == []
    out = GAME.outcome(last)
    assert out.scores == [1.0, 0.0] and out.places == [1, 2]
    assert out.events[-1].kind == "won"
    # an agreeing token may follow, once; a disagreeing one may not
    GAME.play(last.copy(), GAME.parse_move("1-0"))
    err = illegal(last.copy(), "0-1")
    assert err.rule == "result-disagrees" and "so the game is 1-0" in err.message
    assert illegal(last.copy(), "1/2-1/2").rule == "result-disagrees"
    assert illegal(last.copy(), "11-15").rule == "record-too-long"
    confirmed = play_all(last.copy(), "1-0")
    assert illegal(confirmed, "1-0").rule == "after-result"


def test_loss_by_no_legal_move():
    state = GAME.position([1, 12], [5])
    play_all(state, "12-16")
    assert GAME.is_over(state)
    assert state.result == (1.0, 0.0)
    assert state.end_reason == "White has no legal move"


def test_no_legal_move_is_judged_before_the_huff():
    # Black skips 1x10 (or 2x9); White, blocked, loses though it could huff 1
    state = GAME.position([1, 2, 12], [5, 6])
    assert {"1x10", "2x9"} <= set(moves_text(state))
    play_all(state, "12-16")
    assert state.result == (1.0, 0.0)


def test_draw_by_lone_kings():
    state = GAME.position([18], [22, 23], kings=[18, 23])
    play_all(state, "18x25")
    assert GAME.is_over(state)
    assert state.result == (0.5, 0.5)
    assert GAME.outcome(state).places == [1, 1]
    assert illegal(state.copy(), "1-0").rule == "result-disagrees"
    play_all(state, "1/2-1/2")
    # a king against a man is no draw
    uneven = GAME.position([18], [22, 23], kings=[18])
    play_all(uneven, "18x25")
    assert not GAME.is_over(uneven)
    # a crowning step can make it one king each
    crown = GAME.position([27], [10], kings=[10])
    play_all(crown, "27-32")
    assert crown.result == (0.5, 0.5)


@pytest.mark.parametrize("token, scores, kind, seat", [
    ("1-0", [1.0, 0.0], "resigned", WHITE),
    ("0-1", [0.0, 1.0], "resigned", BLACK),
    ("1/2-1/2", [0.5, 0.5], "draw-agreed", None),
])
def test_result_only_records_and_resignations(token, scores, kind, seat):
    out = replay([token])
    assert out.scores == scores
    assert out.moves == 1
    assert [(e.kind, e.seat) for e in out.events] == [(kind, seat)]
    mid = replay(["11-15", "22-18", token])
    assert mid.scores == scores


def test_an_undecided_position_accepts_any_result():
    for token in ("1-0", "0-1", "1/2-1/2"):
        assert replay(SKIP + " " + token).scores == list(
            {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}[token])
    # also right after a huff, before the huffer's move
    assert replay(SKIP + " H1 0-1").scores == [0.0, 1.0]


# ------------------------------------------------------------------- notation

@pytest.mark.parametrize("token, canonical", [
    ("11-15", "11-15"), (" 11-15 ", "11-15"), ("11\u201315", "11-15"),
    ("15x24", "15x24"), ("15X24", "15x24"), ("15x24x31", "15x24x31"),
    ("H18", "H18"), ("h18", "H18"), ("1-0", "1-0"), ("0-1", "0-1"),
    ("1/2-1/2", "1/2-1/2"), ("½-½", "1/2-1/2"), ("1-32", "1-32"),
])
def test_notation_canonical(token, canonical):
    assert GAME.canonical_token(token) == canonical


@pytest.mark.parametrize("token", [
    "", "   ", "11-", "-15", "11-15-19", "0-5", "33-29", "11-033", "H", "H33", "H0",
    "foo", "11x", "x15", "15xx24", "1/2", "2-0", "11_15", "11:15", "1-0-1", "Hx18",
])
def test_bad_notation(token):
    with pytest.raises(IllegalMove) as info:
        GAME.parse_move(token)
    assert info.value.rule == "notation"
    err = rejected(["11-15", token]) if token.strip() else None
    if err is not None:
        assert err.rule == "notation" and err.move == 2


@settings(max_examples=100, deadline=None)
@given(positions)
def test_notation_round_trips(position):
    state = GAME.position(*position)
    for move in GAME.legal_moves(state):
        text = GAME.format_move(move)
        assert GAME.parse_move(text) == move
        assert GAME.format_move(GAME.parse_move(text.lower())) == text


# ------------------------------------------------------------------ setup, options

def test_options_and_match_rules():
    assert OPTIONS == {"huff": "any", "games": 1}
    assert GAME.match_rules(GAME.resolve_options({"games": "4"})) == MatchRules(
        deals=4, dealer=None, higher_is_better=True, alternate_colours=True)
    with pytest.raises(OptionError):
        GAME.resolve_options({"huff": "all"})
    with pytest.raises(OptionError):
        GAME.resolve_options({"games": 0})
    with pytest.raises(OptionError):
        GAME.resolve_options({"deals": 3})
    assert {o["key"] for o in GAME.describe()["options"]} == {"huff", "games"}
    assert get_game("dam-brade") is GAME
    assert GAME.uses_dealer is False
    assert GAME.higher_is_better


@pytest.mark.parametrize("setup, column, rule", [
    (DealSetup(nplayers=3), "players", "player-count"),
    (DealSetup(nplayers=2, dealer=0), "dealer", "no-dealer"),
    (DealSetup(nplayers=2, hands=[[1], [2]]), "hands", "no-cards"),
    (DealSetup(nplayers=2, stock=[5]), "stock", "no-cards"),
])
def test_setup_is_only_two_players(setup, column, rule):
    with pytest.raises(RecordError) as info:
        GAME.new_deal(setup, OPTIONS)
    assert (info.value.column, info.value.rule) == (column, rule)
    GAME.new_deal(DealSetup(nplayers=2, hands=[[], []], stock=[]), OPTIONS)


# ---------------------------------------------------------------- score sheets

@pytest.mark.parametrize("text, places", [
    ("1;0", [1, 2]), ("0;1", [2, 1]), ("0.5;0.5", [1, 1]), ("½;½", [1, 1]),
])
def test_score_sheet_accepted(text, places):
    scores = [GAME.parse_score(t) for t in text.split(";")]
    out = GAME.check_score_sheet(DealSetup(nplayers=2), scores, OPTIONS)
    assert out.verified == "scores"
    assert out.places == places
    assert ";".join(GAME.format_score(s) for s in out.scores) == text.replace("½", "0.5")


@pytest.mark.parametrize("text", ["1;1", "0;0", "0.5;0", "1;0.5", "2;0", "1;-0", "1;0;0", "1"])
def test_score_sheet_rejected(text):
    scores = [GAME.parse_score(t) for t in text.split(";")]
    if text == "1;-0":
        # -0 is 0: accepted as 1;0
        GAME.check_score_sheet(DealSetup(nplayers=2), scores, OPTIONS)
        return
    with pytest.raises(IllegalMove) as info:
        GAME.check_score_sheet(DealSetup(nplayers=2), scores, OPTIONS)
    assert info.value.rule == "score-sheet-points"
    assert "1;0, 0;1 or 0.5;0.5" in info.value.message


def test_scores_parse_and_format():
    assert GAME.parse_score("1") == 1.0 and GAME.parse_score("0.5") == 0.5
    assert GAME.format_score(1.0) == "1" and GAME.format_score(0.5) == "0.5"
    assert GAME.format_score(0) == "0"
    with pytest.raises(ValueError):
        GAME.parse_score("one")


# ------------------------------------------------------------------ simulation

def simulate(seed, skills, options):
    rng = random.Random(seed)
    setup = GAME.random_setup(2, None, 1, options, rng)
    state = GAME.new_deal(setup, options)
    return setup, finish_deal(GAME, state, rng, skills), state


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([0.0, 0.3, 1.0]),
       st.sampled_from([0.0, 0.7, 1.0]), st.sampled_from(["any", "capturer"]))
def test_simulated_games_replay(seed, skill_black, skill_white, huff):
    options = GAME.resolve_options({"huff": huff})
    setup, tokens, state = simulate(seed, (skill_black, skill_white), options)
    out = GAME.replay(setup, tokens, options)
    assert out.scores == list(state.result)
    assert sorted(out.scores) in ([0.0, 1.0], [0.5, 0.5])
    assert sum(out.scores) == 1.0
    assert out.moves == len(tokens)
    assert [e.kind for e in out.events] == [e.kind for e in state.events]
    # captures and huffs only ever remove pieces: 12 each at most
    assert len(state.squares(BLACK)) <= 12 and len(state.squares(WHITE)) <= 12
    huffs = sum(1 for t in tokens if t.startswith("H"))
    assert huffs == sum(1 for e in out.events if e.kind == "huff")
    if tokens[-1] in ("1-0", "0-1", "1/2-1/2"):
        assert not state.decided or state.token_seen
    else:
        assert state.decided


def test_a_decided_record_may_confirm_but_not_contradict_or_go_on():
    for seed in range(200):
        setup, tokens, state = simulate(seed, (1.0, 0.3), OPTIONS)
        if state.decided:
            break
    assert state.decided and tokens[-1] not in ("1-0", "0-1", "1/2-1/2")
    right = {(1.0, 0.0): "1-0", (0.0, 1.0): "0-1", (0.5, 0.5): "1/2-1/2"}[state.result]
    assert GAME.replay(setup, tokens + [right], OPTIONS).scores == list(state.result)
    end = len(tokens) + 1
    for wrong in {"1-0", "0-1", "1/2-1/2"} - {right}:
        err = rejected(tokens + [wrong])
        assert (err.rule, err.move, err.seat) == ("result-disagrees", end, None)
        assert "must agree with the position" in err.message
    err = rejected(tokens + ["9-13"])
    assert (err.rule, err.move) == ("record-too-long", end)
    assert rejected(tokens + [right, right]).rule == "after-result"
    # an undecided record cut short is incomplete
    assert rejected(tokens[:-1]).rule == "record-incomplete"


def test_random_bots_get_huffed_and_games_end():
    kinds = set()
    for seed in range(12):
        _, tokens, state = simulate(seed, (0.0, 0.0), OPTIONS)
        assert len(tokens) <= 12 * 2 * (QUIET_PLY_LIMIT + 2) + 50
        kinds |= {e.kind for e in state.events}
    assert "huff" in kinds and "crowned" in kinds


def test_a_quiet_game_is_agreed_drawn():
    state = GAME.position([1], [32], kings=[1, 32])
    state.ply = state.noisy_ply + QUIET_PLY_LIMIT
    assert GAME.choose_move(state, random.Random(1), 1.0) == ("R", "1/2-1/2")


def test_heuristic_beats_random():
    points = 0.0
    for seed in range(20):
        heuristic = seed % 2
        skills = (1.0, 0.0) if heuristic == BLACK else (0.0, 1.0)
        _, _, state = simulate(1000 + seed, skills, OPTIONS)
        points += state.result[heuristic]
    assert points >= 17


@settings(max_examples=100, deadline=None)
@given(positions, st.integers(0, 1000))
def test_heuristic_captures_the_longest_and_huffs(position, seed):
    state = GAME.position(*position)
    captures = GAME.capture_moves(state)
    if not GAME.legal_moves(state):
        return
    move = GAME.choose_move(state, random.Random(seed), 1.0)
    if captures:
        assert move in captures
        assert len(move) == max(len(m) for m in captures)
        steps = [m for m in GAME.legal_moves(state) if m[0] == "-"]
        if steps:
            GAME.play(state, steps[0])  # skip the capture
            if not GAME.is_over(state) and GAME.huff_mask(state):
                assert GAME.choose_move(state, random.Random(seed), 1.0)[0] == "H"
    else:
        assert move in GAME.legal_moves(state)


def test_copy_keeps_every_field_and_is_independent():
    state = play_all(GAME.new_deal(SETUP, CAPTURER), SKIP + " H15")
    other = state.copy()
    for name in type(state).__slots__:
        assert getattr(other, name) == getattr(state, name), name
    GAME.play(other, GAME.parse_move("24-20"))
    assert other.pieces != state.pieces and len(state.events) == 1
