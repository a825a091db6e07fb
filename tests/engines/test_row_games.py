"""The row games kortrad and sju-dolda (docs/guide/rules.md, "Dam med kortrad")."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cards import CARD_NAMES, parse_card, parse_cards
from tourney.engines import get_game
from tourney.engines.base import DealSetup, Game
from tourney.engines.row_games import (
    KORTRAD,
    POINTS,
    SJU_DOLDA,
    ZERO_CARDS,
    RowGame,
    card_points,
    cards_points,
)
from tourney.errors import IllegalMove, OptionError, RecordError
from tourney.simulation import finish_deal

# ---------------------------------------------------------------------------- helpers

def build_setup(rows, secrets=None, stock_top=(), dealer=0, extra_stock_last=()):
    """A deal whose rows, secret cards and first stock cards are as given; the rest
    of the deck follows in card order, then ``extra_stock_last``."""
    rows = [parse_cards(r) for r in rows]
    secrets = None if secrets is None else [parse_cards(s) for s in secrets]
    top = parse_cards(" ".join(stock_top)) if stock_top else []
    last = parse_cards(" ".join(extra_stock_last)) if extra_stock_last else []
    used = {c for r in rows for c in r} | set(top) | set(last)
    if secrets:
        used |= {c for s in secrets for c in s}
    middle = [c for c in range(52) if c not in used]
    return DealSetup(nplayers=len(rows), dealer=dealer, hands=rows, secrets=secrets,
                     stock=top + middle + last)


def names(cards) -> str:
    return " ".join(CARD_NAMES[c] for c in cards)


def finish_with_stock_draws(setup, tokens):
    """``tokens`` then ``S0`` turns until the last stock card is drawn."""
    drawn = sum(1 for t in tokens if t[0] in "Ss")
    return list(tokens) + ["S0"] * (len(setup.stock) - drawn)


def play_out(game, setup, options, tokens):
    state = game.new_deal(setup, options)
    for token in tokens:
        game.play(state, game.parse_move(token))
    return state


def simulate(game, options, nplayers, seed, skill):
    rng = random.Random(seed)
    setup = game.random_setup(nplayers, rng.randrange(nplayers), 1, options, rng)
    state = game.new_deal(setup, options)
    return setup, finish_deal(game, state, rng, skill), state


def replay_error(game, setup, tokens, options) -> RecordError:
    with pytest.raises(RecordError) as info:
        game.replay(setup, tokens, options)
    return info.value


# ---------------------------------------------------------------------- registry, options

def test_registry_gives_the_presets():
    assert get_game("kortrad") is KORTRAD
    assert get_game("sju-dolda") is SJU_DOLDA
    assert isinstance(KORTRAD, RowGame) and type(KORTRAD) is type(SJU_DOLDA)
    assert (KORTRAD.min_players, KORTRAD.max_players) == (2, 4)
    assert (SJU_DOLDA.min_players, SJU_DOLDA.max_players) == (2, 6)


def test_preset_defaults_and_describe():
    k = KORTRAD.resolve_options({})
    s = SJU_DOLDA.resolve_options({})
    assert (k["row"], k["secret"]) == (6, 1)
    assert (s["row"], s["secret"]) == (7, 0)
    assert k["deals"] is None and k["target"] is None and k["dealer"] == "rotate"
    keys = {o["key"] for o in KORTRAD.describe()["options"]}
    assert keys == {"row", "secret", "deals", "target", "dealer"}
    assert SJU_DOLDA.describe()["players"] == [2, 6]


def test_sexkortsversionen_is_kortrad_with_row_five():
    options = KORTRAD.resolve_options({"row": "5", "secret": "1"})
    setup = KORTRAD.random_setup(3, 0, 1, options, random.Random(3))
    assert [len(h) for h in setup.hands] == [5, 5, 5]
    assert [len(s) for s in setup.secrets] == [1, 1, 1]
    assert len(setup.stock) == 52 - 18


@pytest.mark.parametrize("raw", [{"row": 8}, {"row": 0}, {"secret": 3}, {"secret": -1},
                                 {"deals": 3, "target": 100}, {"dealer": "loser-deals"},
                                 {"hand_size": 6}])
def test_bad_options_are_refused(raw):
    with pytest.raises(OptionError):
        KORTRAD.resolve_options(raw)


def test_match_rules():
    assert KORTRAD.match_rules(KORTRAD.resolve_options({})).deals is None
    rules = SJU_DOLDA.match_rules(SJU_DOLDA.resolve_options({"target": 100}))
    assert rules.target == 100 and rules.deals is None and not rules.tie_extra
    assert rules.dealer == "rotate" and not rules.higher_is_better
    assert KORTRAD.match_rules(KORTRAD.resolve_options({"deals": 4})).deals == 4


# ------------------------------------------------------------------------ card points

def test_card_points_table():
    # The rules: every queen 0, KH 0, ace 1, 2-10 face value, jack 11, KS KD KC 13.
    for suit in "SHDC":
        assert card_points(parse_card("Q" + suit)) == 0
        assert card_points(parse_card("A" + suit)) == 1
        assert card_points(parse_card("J" + suit)) == 11
        for face in range(2, 11):
            assert card_points(parse_card(f"{face}{suit}")) == face
    assert card_points(parse_card("KH")) == 0
    assert [card_points(parse_card(k)) for k in ("KS", "KD", "KC")] == [13, 13, 13]
    assert sorted(CARD_NAMES[c] for c in ZERO_CARDS) == ["KH", "QC", "QD", "QH", "QS"]
    assert sum(POINTS) == 303


def test_seed_000_points():
    ida_row = parse_cards("QH AS 2S KH 4S 6S")
    pontus_row = parse_cards("QD QC AH 3S 5S 8S")
    assert cards_points(ida_row) == 13 and cards_points(pontus_row) == 17
    assert cards_points(ida_row + parse_cards("JS")) == 24
    assert cards_points(pontus_row + parse_cards("2H")) == 19


def test_seed_002_points():
    assert cards_points(parse_cards("KH QS AC 6D JH 9S KC")) == 40


# ---------------------------------------------------------------- seed worked examples

IDA_PONTUS_ROWS = ["KS AS 2S KH 4S 6S", "QC TS AH 3S 5S 8S"]
# Ida (seat 0) starts: the dealer is Pontus (seat 1).
IDA_PONTUS_OPENING = ["S1", "S2", "D0"]


def ida_pontus_setup(secret=True):
    if secret:
        return build_setup(IDA_PONTUS_ROWS, ["JS", "2H"], stock_top=["QH", "QD"], dealer=1)
    return build_setup(IDA_PONTUS_ROWS, None, stock_top=["QH", "QD"], dealer=1,
                       extra_stock_last=["JS", "2H"])


def test_seed_000_ida_24_pontus_19_full_replay():
    options = KORTRAD.resolve_options({})
    setup = ida_pontus_setup()
    tokens = finish_with_stock_draws(setup, IDA_PONTUS_OPENING)
    # Ida draws QH and swaps it in at position 1, discarding KS; Pontus draws QD,
    # swaps it for QC and QC for TS, discarding TS; Ida takes TS and discards it.
    state = play_out(KORTRAD, setup, options, tokens)
    assert names(state.rows[0]) == "QH AS 2S KH 4S 6S"
    assert names(state.rows[1]) == "QD QC AH 3S 5S 8S"
    outcome = KORTRAD.replay(setup, tokens, options)
    assert outcome.scores == [24, 19]
    assert outcome.places == [2, 1]  # Pontus wins
    assert outcome.moves == len(tokens) == 39
    kinds = [e.kind for e in outcome.events]
    assert kinds == ["secret-decides"]
    assert "13;17" in outcome.events[0].text and "24;19" in outcome.events[0].text
    assert KORTRAD.outcome(state).scores == [24, 19]


def test_seed_000_without_secret_cards_13_against_17():
    options = KORTRAD.resolve_options({"secret": 0})
    setup = ida_pontus_setup(secret=False)
    tokens = finish_with_stock_draws(setup, IDA_PONTUS_OPENING)
    outcome = KORTRAD.replay(setup, tokens, options)
    assert outcome.scores == [13, 17]
    assert outcome.places == [1, 2]  # Ida was ahead before the secret cards
    assert outcome.events == []


def test_seed_002_seven_card_hand_worth_40_full_replay():
    # Seat 0 draws KH and swaps it along the whole row: the card at position 7 (7H)
    # must then be discarded. Seat 1 draws a five and swaps it in at position 1; the
    # king found there is discarded (002: "Anna drar en femma ...").
    options = SJU_DOLDA.resolve_options({})
    setup = build_setup(["QS AC 6D JH 9S KC 7H", "KD 2C 3C 4C 5C 6C 7C"], None,
                        stock_top=["KH", "5H"], dealer=1)
    state = play_out(SJU_DOLDA, setup, options, ["S7"])
    assert names(state.rows[0]) == "KH QS AC 6D JH 9S KC"
    assert CARD_NAMES[state.pile[-1]] == "7H"
    SJU_DOLDA.play(state, SJU_DOLDA.parse_move("S1"))
    assert CARD_NAMES[state.rows[1][0]] == "5H" and CARD_NAMES[state.pile[-1]] == "KD"
    tokens = finish_with_stock_draws(setup, ["S7", "S1"])
    outcome = SJU_DOLDA.replay(setup, tokens, options)
    assert outcome.scores[0] == 40
    assert outcome.scores[1] == 5 + 2 + 3 + 4 + 5 + 6 + 7
    assert outcome.places == [2, 1]


def test_full_row_swap_discards_the_last_card_even_if_good():
    options = KORTRAD.resolve_options({})
    setup = build_setup(["2S 3S 4S 5S 6S QH", "2H 3H 4H 5H 6H 7H"], ["8S", "8H"],
                        stock_top=["AS"], dealer=1)
    state = play_out(KORTRAD, setup, options, ["S6"])
    assert names(state.rows[0]) == "AS 2S 3S 4S 5S 6S"
    assert CARD_NAMES[state.pile[-1]] == "QH"


def test_pile_turn_takes_the_discard_and_zero_card_event():
    options = KORTRAD.resolve_options({})
    setup = build_setup(["QH 3S 4S 5S 6S 7S", "KC 3H 4H 5H 6H 7H"], ["8S", "8H"],
                        stock_top=["KS"], dealer=1)
    # Seat 0 draws KS, swaps it in at 1 and discards QH; seat 1 takes QH from the pile
    # for position 1 and discards KC.
    tokens = finish_with_stock_draws(setup, ["S1", "D1"])
    state = play_out(KORTRAD, setup, options, tokens[:2])
    assert CARD_NAMES[state.rows[1][0]] == "QH" and CARD_NAMES[state.pile[-1]] == "KC"
    assert len(state.stock) == len(setup.stock) - 1  # a pile turn draws no stock card
    outcome = KORTRAD.replay(setup, tokens, options)
    assert [(e.move, e.seat, e.kind) for e in outcome.events][:1] == [(2, 1, "zero-taken")]
    assert "QH" in outcome.events[0].text


def test_first_turn_is_the_dealers_left_neighbour():
    options = SJU_DOLDA.resolve_options({})
    for dealer in range(4):
        setup = SJU_DOLDA.random_setup(4, dealer, 1, options, random.Random(dealer))
        state = SJU_DOLDA.new_deal(setup, options)
        assert SJU_DOLDA.to_move(state) == (dealer + 1) % 4
        SJU_DOLDA.play(state, SJU_DOLDA.parse_move("S0"))
        assert SJU_DOLDA.to_move(state) == (dealer + 2) % 4


def test_pile_turns_can_go_on_the_record_decides():
    options = KORTRAD.resolve_options({})
    setup = ida_pontus_setup()
    tokens = finish_with_stock_draws(setup, IDA_PONTUS_OPENING + ["D0"] * 200)
    outcome = KORTRAD.replay(setup, tokens, options)
    assert outcome.scores == [24, 19] and outcome.moves == 39 + 200


def test_legal_moves():
    options = KORTRAD.resolve_options({})
    state = KORTRAD.new_deal(ida_pontus_setup(), options)
    assert [KORTRAD.format_move(m) for m in KORTRAD.legal_moves(state)] == [
        f"S{k}" for k in range(7)]
    KORTRAD.play(state, KORTRAD.parse_move("S0"))
    assert sorted(KORTRAD.format_move(m) for m in KORTRAD.legal_moves(state)) == sorted(
        [f"S{k}" for k in range(7)] + [f"D{k}" for k in range(7)])


# ---------------------------------------------------------------------- mutation tests

def test_pile_on_the_first_turn_is_rejected():
    options = KORTRAD.resolve_options({})
    setup = ida_pontus_setup()
    tokens = finish_with_stock_draws(setup, ["D1"] + IDA_PONTUS_OPENING[1:])
    err = replay_error(KORTRAD, setup, tokens, options)
    assert err.rule == "pile-first-turn" and err.move == 1 and err.seat == 0
    assert "first turn" in err.message and err.column == "play"


@pytest.mark.parametrize("game,options,bad", [
    (KORTRAD, {}, "S7"), (KORTRAD, {}, "D7"), (KORTRAD, {"row": 5}, "S6"),
    (SJU_DOLDA, {}, "S8"), (SJU_DOLDA, {}, "D12")])
def test_too_many_swaps_is_rejected(game, options, bad):
    options = game.resolve_options(options)
    setup = game.random_setup(3, 2, 1, options, random.Random(5))
    tokens = finish_with_stock_draws(setup, ["S0", "S1", bad])
    err = replay_error(game, setup, tokens, options)
    assert err.rule == "swap-count" and err.move == 3 and err.seat == 2  # dealer 2: 0, 1, 2
    assert f"0 to {options['row']} positions" in err.message


def test_record_going_on_after_the_last_stock_card_is_rejected():
    options = KORTRAD.resolve_options({})
    setup = ida_pontus_setup()
    tokens = finish_with_stock_draws(setup, IDA_PONTUS_OPENING) + ["D0"]
    err = replay_error(KORTRAD, setup, tokens, options)
    assert err.rule == "record-too-long" and err.move == 40


def test_record_stopping_before_the_last_stock_card_is_rejected():
    options = KORTRAD.resolve_options({})
    setup = ida_pontus_setup()
    tokens = finish_with_stock_draws(setup, IDA_PONTUS_OPENING)
    err = replay_error(KORTRAD, setup, tokens[:-1], options)
    assert err.rule == "record-incomplete"
    # Pile turns never end a deal.
    err = replay_error(KORTRAD, setup, tokens[:-1] + ["D0", "D3"], options)
    assert err.rule == "record-incomplete"


@pytest.mark.parametrize("bad", ["X3", "S", "3S", "S-1", "S3.0", "S 3", "S\u00b3", "", "SD3"])
def test_bad_token_in_a_record_is_a_notation_error(bad):
    options = SJU_DOLDA.resolve_options({})
    setup = SJU_DOLDA.random_setup(2, 0, 1, options, random.Random(8))
    tokens = finish_with_stock_draws(setup, ["S1", "D2"])
    tokens[1] = bad
    err = replay_error(SJU_DOLDA, setup, tokens, options)
    assert err.rule == "notation" and err.move == 2 and err.seat == 0
    assert "not a turn" in err.message


def _setup_error(game, setup, options=None) -> RecordError:
    with pytest.raises(RecordError) as info:
        game.new_deal(setup, game.resolve_options(options or {}))
    # The replay path reports the same problem.
    with pytest.raises(RecordError) as again:
        game.replay(setup, ["S0"], game.resolve_options(options or {}))
    assert again.value.rule == info.value.rule
    return info.value


def test_setup_player_count():
    setup = SJU_DOLDA.random_setup(5, 0, 1, SJU_DOLDA.resolve_options({"row": 6}),
                                   random.Random(1))
    err = _setup_error(KORTRAD, setup, {"row": 6, "secret": 0})
    assert err.rule == "player-count" and err.column == "players" and "2-4" in err.message


def test_setup_deck_too_small():
    deck = list(range(52))
    setup = DealSetup(6, 0, [deck[i * 7:i * 7 + 7] for i in range(6)], None, deck[42:])
    # 6 seats x (7 + 2) = 54 cards: cannot be dealt.
    err = _setup_error(SJU_DOLDA, setup, {"secret": 2})
    assert err.rule == "deck-too-small" and err.column == "players"


def test_setup_dealer():
    setup = ida_pontus_setup()
    for dealer in (None, 2, -1):
        setup.dealer = dealer
        err = _setup_error(KORTRAD, setup)
        assert err.rule == "dealer" and err.column == "dealer"


def test_setup_hand_size():
    setup = ida_pontus_setup()
    setup.stock.append(setup.hands[0].pop())
    err = _setup_error(KORTRAD, setup)
    assert err.rule == "hand-size" and err.column == "hands" and "seat 1" in err.message
    setup = ida_pontus_setup()
    setup.hands = setup.hands[:1]
    assert _setup_error(KORTRAD, setup).rule == "hand-size"
    setup.hands = None
    assert _setup_error(KORTRAD, setup).rule == "hand-size"


def test_setup_secret_cards():
    setup = ida_pontus_setup(secret=False)  # no '|' part, but kortrad has one secret card
    err = _setup_error(KORTRAD, setup)
    assert err.rule == "secret-size" and err.column == "hands" and "'|'" in err.message
    setup = ida_pontus_setup()
    setup.stock.append(setup.secrets[1].pop())
    err = _setup_error(KORTRAD, setup)
    assert err.rule == "secret-size" and "seat 2" in err.message
    # secret=0: secret cards are refused, an empty '|' part is fine.
    setup = ida_pontus_setup()
    assert _setup_error(KORTRAD, setup, {"secret": 0}).rule == "secret-size"
    setup = ida_pontus_setup(secret=False)
    setup.secrets = [[], []]
    assert KORTRAD.new_deal(setup, KORTRAD.resolve_options({"secret": 0})).secret == 0


def test_setup_every_card_once():
    setup = ida_pontus_setup()
    setup.stock[5] = setup.hands[1][2]
    err = _setup_error(KORTRAD, setup)
    assert err.rule == "duplicate-card" and err.column == "stock"
    assert CARD_NAMES[setup.hands[1][2]] in err.message and "seat 2's row" in err.message
    setup = ida_pontus_setup()
    gone = setup.stock.pop()
    err = _setup_error(KORTRAD, setup)
    assert err.rule == "missing-card" and CARD_NAMES[gone] in err.message
    setup = ida_pontus_setup()
    setup.stock[0] = 52
    assert _setup_error(KORTRAD, setup).rule == "not-a-card"


# ------------------------------------------------------------------------------ notation

@pytest.mark.parametrize("token,canonical", [
    ("S0", "S0"), ("s3", "S3"), ("D6", "D6"), ("d0", "D0"), (" S2 ", "S2"), ("S03", "S3"),
    ("D10", "D10")])
def test_notation_round_trip(token, canonical):
    for game in (KORTRAD, SJU_DOLDA):
        move = game.parse_move(token)
        assert game.format_move(move) == canonical
        assert game.parse_move(game.format_move(move)) == move
        assert game.canonical_token(token) == canonical


@given(st.sampled_from("SDsd"), st.integers(0, 99))
@settings(max_examples=100, deadline=None)
def test_notation_round_trip_property(letter, k):
    move = KORTRAD.parse_move(f"{letter}{k}")
    assert KORTRAD.format_move(move) == f"{letter.upper()}{k}"
    assert KORTRAD.parse_move(KORTRAD.format_move(move)) == move


@pytest.mark.parametrize("bad", ["", "S", "D", "X1", "1", "3S", "S-2", "S+2", "S2a", "S\u0663",
                                 "SD1", "S 1", "QS"])
def test_bad_tokens(bad):
    with pytest.raises(IllegalMove) as info:
        KORTRAD.parse_move(bad)
    assert info.value.rule == "notation"


# ------------------------------------------------------------------------- score sheets

def sheet(game, scores, options=None, nplayers=None):
    setup = DealSetup(nplayers=nplayers or len(scores), dealer=0)
    return game.check_score_sheet(setup, scores, game.resolve_options(options or {}))


def sheet_rule(game, scores, options=None, nplayers=None) -> str:
    with pytest.raises(IllegalMove) as info:
        sheet(game, scores, options, nplayers)
    assert str(info.value)  # a message in words
    return info.value.rule


def test_score_sheet_accepted():
    outcome = sheet(KORTRAD, [24, 19])
    assert outcome.verified == "scores" and outcome.places == [2, 1]
    assert sheet(SJU_DOLDA, [40, 27, 27, 30, 12, 80]).places == [5, 2, 2, 4, 1, 6]


def test_score_sheet_kortrad_boundaries():
    # Seven cards a seat. Lowest seven: five zero cards and two aces = 2. Highest:
    # three kings (13) and four jacks (11) = 83.
    assert sheet(KORTRAD, [2, 40]).scores == [2, 40]
    assert sheet_rule(KORTRAD, [1, 40]) == "score-sheet-range"
    assert sheet(KORTRAD, [83, 40]).scores == [83, 40]
    assert sheet_rule(KORTRAD, [84, 40]) == "score-sheet-range"
    # Two seats hold 14 distinct cards: at least 5x0 + 4x1 + 4x2 + 3 = 15 ...
    assert sheet(KORTRAD, [2, 13]).scores == [2, 13]
    assert sheet_rule(KORTRAD, [2, 12]) == "score-sheet-total"
    # ... and at most 3x13 + 4x11 + 4x10 + 3x9 = 150.
    assert sheet(KORTRAD, [83, 67]).scores == [83, 67]
    assert sheet_rule(KORTRAD, [83, 68]) == "score-sheet-total"


def test_score_sheet_total_of_some_seats():
    # Four seats: the two highest may not exceed 150 though each seat is in range.
    assert sheet(KORTRAD, [80, 70, 20, 20]).scores == [80, 70, 20, 20]
    with pytest.raises(IllegalMove) as info:
        sheet(KORTRAD, [80, 71, 20, 20])
    assert info.value.rule == "score-sheet-total"
    assert "seats 1, 2 score 151 together" in info.value.message
    assert "at most 150" in info.value.message


def test_score_sheet_sju_dolda_boundaries():
    # Seven cards and no secret card: the same per-seat bounds as kortrad.
    assert sheet(SJU_DOLDA, [2, 83]).scores == [2, 83]
    assert sheet_rule(SJU_DOLDA, [0, 40]) == "score-sheet-range"
    # Six seats hold 42 cards, leaving at best the ten most valuable (3 kings, 4 jacks,
    # 3 tens: 113 of the deck's 303) in the pile: together at least 190.
    assert sum(sorted(POINTS)[:42]) == 303 - 113 == 190
    assert sheet(SJU_DOLDA, [40, 30, 30, 30, 30, 30]).scores[0] == 40
    with pytest.raises(IllegalMove) as info:
        sheet(SJU_DOLDA, [40, 30, 30, 30, 30, 29])
    assert info.value.rule == "score-sheet-total"
    assert "seats 1, 2, 3, 4, 5, 6 score 189 together" in info.value.message
    assert "at least 190" in info.value.message


def test_score_sheet_unreachable_single_card_total():
    # One card a seat: 12 is no card's value.
    assert sheet(SJU_DOLDA, [13, 11], {"row": 1}).scores == [13, 11]
    with pytest.raises(IllegalMove) as info:
        sheet(SJU_DOLDA, [12, 11], {"row": 1})
    assert info.value.rule == "score-sheet-range" and "12" in info.value.message


def test_score_sheet_shape_problems():
    assert sheet_rule(KORTRAD, [24, 19, 3], nplayers=2) == "score-sheet-count"
    assert sheet_rule(KORTRAD, [24, 19.5]) == "score-sheet-value"
    assert sheet_rule(KORTRAD, [24, "19"]) == "score-sheet-value"
    with pytest.raises(RecordError) as info:
        sheet(KORTRAD, [10, 10, 10, 10, 10])
    assert info.value.rule == "player-count"


# ------------------------------------------------------------------ simulated deals

CONFIGS = [
    (KORTRAD, {}, (2, 3, 4)),
    (KORTRAD, {"row": 5}, (2, 3, 4)),  # sexkortsversionen
    (KORTRAD, {"secret": 0}, (2, 4)),
    (SJU_DOLDA, {}, (2, 3, 4, 5, 6)),
    (SJU_DOLDA, {"secret": 1}, (2, 6)),
    (SJU_DOLDA, {"row": 3, "secret": 2}, (2, 6)),
    (SJU_DOLDA, {"row": 1}, (2, 6)),
]
CASES = [(game, options, n) for game, options, ns in CONFIGS for n in ns]


@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32),
       skill=st.sampled_from([0.0, 0.5, 1.0]))
@settings(max_examples=150, deadline=None)
def test_simulated_deals_replay(case, seed, skill):
    game, raw, nplayers = case
    options = game.resolve_options(raw)
    setup, tokens, state = simulate(game, options, nplayers, seed, skill)
    outcome = game.replay(setup, tokens, options)
    # The inlined replay and the generic move-by-move one agree.
    assert outcome == Game.replay(game, setup, tokens, options) == game.outcome(state)
    row, secret = options["row"], options["secret"]
    # Scores: the points of each seat's final row and secret cards.
    for seat in range(nplayers):
        assert len(state.rows[seat]) == row
        expected = sum(POINTS[c] for c in state.rows[seat])
        if secret:
            expected += sum(POINTS[c] for c in setup.secrets[seat])
        assert outcome.scores[seat] == expected
        assert type(outcome.scores[seat]) is int
    # Every card once at the end: rows, secret cards and the discard pile.
    end = [c for r in state.rows for c in r] + [c for s in state.secrets for c in s] + state.pile
    assert sorted(end) == list(range(52)) and not state.stock
    # One stock draw per card; the last turn drew the last one.
    draws = [t for t in tokens if t[0] == "S"]
    assert len(draws) == len(setup.stock) and tokens[-1][0] == "S"
    assert tokens[0][0] == "S"
    # Places, and the score sheet accepts what was played.
    assert min(outcome.places) == 1
    for seat, place in enumerate(outcome.places):
        assert place == 1 + sum(1 for s in outcome.scores if s < outcome.scores[seat])
    assert game.check_score_sheet(DealSetup(nplayers, setup.dealer), outcome.scores,
                                  options).scores == outcome.scores
    for token in tokens:
        assert game.canonical_token(token) == token


@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32),
       cut=st.integers(0, 10**6), kind=st.sampled_from(["drop", "extra", "swap", "pile"]))
@settings(max_examples=100, deadline=None)
def test_mutated_simulated_records(case, seed, cut, kind):
    game, raw, nplayers = case
    options = game.resolve_options(raw)
    setup, tokens, _ = simulate(game, options, nplayers, seed, 0.5)
    if kind == "drop":
        err = replay_error(game, setup, tokens[:cut % len(tokens)], options)
        assert err.rule == "record-incomplete"
    elif kind == "extra":
        err = replay_error(game, setup, tokens + ["S0"], options)
        assert err.rule == "record-too-long" and err.move == len(tokens) + 1
    elif kind == "swap":
        at = cut % len(tokens)
        bad = tokens[:at] + [tokens[at][0] + str(options["row"] + 1)] + tokens[at + 1:]
        err = replay_error(game, setup, bad, options)
        assert err.rule == "swap-count" and err.move == at + 1
        assert err.seat == (setup.dealer + 1 + at) % nplayers
    else:
        err = replay_error(game, setup, ["D0"] + tokens[1:], options)
        assert err.rule == "pile-first-turn" and err.move == 1
        assert err.seat == (setup.dealer + 1) % nplayers


# ----------------------------------------------------------------------------- bots

def test_random_setup_is_a_deal():
    for game, raw, ns in CONFIGS:
        options = game.resolve_options(raw)
        for n in ns:
            setup = game.random_setup(n, n - 1, 3, options, random.Random(n))
            assert setup.dealer == n - 1 and setup.deal_number == 3
            cards = [c for h in setup.hands for c in h] + setup.stock
            if setup.secrets is not None:
                cards += [c for s in setup.secrets for c in s]
            assert sorted(cards) == list(range(52))
            assert (setup.secrets is None) == (options["secret"] == 0)
            game.new_deal(setup, options)


def test_heuristic_beats_random_play():
    for game, nplayers in ((KORTRAD, 2), (KORTRAD, 4), (SJU_DOLDA, 3)):
        options = game.resolve_options({})
        mean = {}
        for skill in (0.0, 1.0):
            total = 0
            for seed in range(40):
                _, _, state = simulate(game, options, nplayers, seed, skill)
                total += sum(game.outcome(state).scores) / nplayers
            mean[skill] = total / 40
        assert mean[1.0] < mean[0.0] - 10, mean


def test_heuristic_takes_a_queen_from_the_pile():
    # 000 tip: "Ta det kastade kortet om det är en dam."
    options = KORTRAD.resolve_options({})
    setup = build_setup(["QH 3S 4S 5S 6S 7S", "KC 3H 4H 5H 6H 7H"], ["8S", "8H"],
                        stock_top=["KS"], dealer=1)
    state = play_out(KORTRAD, setup, options, ["S1"])  # QH is on the pile
    move = KORTRAD.choose_move(state, random.Random(0), 1.0)
    assert KORTRAD.format_move(move)[0] == "D" and move >> 1 >= 1


def test_heuristic_stops_at_a_high_card():
    # 000 tip: "Ser du en tia eller en kung när du byter i raden, kasta den."
    options = KORTRAD.resolve_options({})
    setup = build_setup(["KS 3S 4S 5S 6S 7S", "KC 3H 4H 5H 6H 7H"], ["8S", "8H"],
                        stock_top=["2C"], dealer=1)
    state = KORTRAD.new_deal(setup, options)
    assert KORTRAD.format_move(KORTRAD.choose_move(state, random.Random(0), 1.0)) == "S1"


def test_heuristic_remembers_seen_positions():
    options = KORTRAD.resolve_options({})
    # Seat 0 draws AS and swaps through positions 1-3, seeing 3S, 4S and 2S (which
    # it discards): it now knows AS 3S 4S at positions 1-3.
    setup = build_setup(["3S 4S 2S JS 6S 7S", "KC 3H 4H 5H 6H 7H"], ["8S", "8H"],
                        stock_top=["AS", "2H"], dealer=1)
    state = play_out(KORTRAD, setup, options, ["S3", "S0"])
    assert state.known[0] == 0b111
    # 2H on the pile beats an unseen card: seat 0 takes it, passes its known low
    # cards along to the first unseen position (4: JS) and discards the jack.
    move = KORTRAD.choose_move(state, random.Random(0), 1.0)
    assert KORTRAD.format_move(move) == "D4"
    KORTRAD.play(state, move)
    assert names(state.rows[0]) == "2H AS 3S 4S 6S 7S"
    assert CARD_NAMES[state.pile[-1]] == "JS" and state.known[0] == 0b1111
