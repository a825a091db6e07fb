"""dam-stick: the seed's rules, properties of simulated deals, mutations, notation
and score sheets."""
from __future__ import annotations

import random
from functools import partial

import pytest
import trick_helpers
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cards import CARD_NAMES, QS, cards_of, parse_card, parse_cards
from tourney.engines import get_game
from tourney.engines.base import DealSetup, Game
from tourney.errors import IllegalMove, OptionError

GAME = get_game("dam-stick")
QUEENS = {parse_card(q): v for q, v in [("QS", 10), ("QH", 5), ("QD", 5), ("QC", 5)]}


def opts(**raw):
    return GAME.resolve_options(raw)


def simulate(nplayers, options, rng, skill=0.5, stock=None):
    """A bot-played deal; ``stock`` forces those cards to be the ones set aside."""
    setup = GAME.random_setup(nplayers, rng.randrange(nplayers), 1, options, rng)
    if stock is not None:
        deck = [c for c in range(52) if c not in stock]
        rng.shuffle(deck)
        size = 52 // nplayers
        setup = DealSetup(nplayers, setup.dealer, [sorted(deck[i * size:(i + 1) * size]) for i in range(nplayers)],
                          None, list(stock))
    tokens, outcome, state = trick_helpers.play_out(GAME, setup, options, rng, skill)
    return setup, tokens, outcome, state


finish = partial(trick_helpers.finish, GAME)
record_error = partial(trick_helpers.record_error, GAME)
setup_error = partial(trick_helpers.setup_error, GAME)


def suit_hands():
    """Seat 0 all hearts, 1 all diamonds, 2 all spades, 3 all clubs."""
    return [list(range(13, 26)), list(range(26, 39)), list(range(13)), list(range(39, 52))]


# ------------------------------------------------------------------ the seed

def test_a_deal_gives_25_when_no_queen_is_set_aside():
    rng = random.Random(1)
    for n in (3, 4, 5, 6):
        for _ in range(20):
            setup, tokens, _, _ = simulate(n, opts(), rng, stock=None)
            aside = [c for c in setup.stock if c in QUEENS]
            outcome = GAME.replay(setup, tokens, opts())
            assert sum(outcome.scores) == 25 - sum(QUEENS[q] for q in aside)


@pytest.mark.parametrize("n, stock, total", [
    (4, "", 25),
    (3, "2C", 25),
    (3, "QH", 20),
    (3, "QS", 15),
    (5, "2C 7D", 25),
    (5, "QD 7D", 20),
    (5, "QS 7D", 15),
    (5, "QH QD", 15),
    (5, "QS QC", 10),
    (6, "QS QH QD QC", 0),
    (6, "QH QD QC 2S", 10),
])
def test_set_aside_queens_lower_the_deal(n, stock, total):
    cards = parse_cards(stock)
    setup, tokens, _, _ = simulate(n, opts(), random.Random(n), stock=cards)
    outcome = GAME.replay(setup, tokens, opts())
    assert sum(outcome.scores) == total
    events = [e for e in outcome.events if e.kind == "queens-set-aside"]
    assert len(events) == (1 if total < 25 else 0)
    assert GAME.check_score_sheet(DealSetup(n, 0, None, None, cards), outcome.scores, opts()).verified == "scores"


def test_first_trick_is_led_by_the_dealers_right():
    for n in (3, 4, 5, 6):
        for dealer in range(n):
            setup = GAME.random_setup(n, dealer, 1, opts(), random.Random(dealer))
            state = GAME.new_deal(setup, opts())
            assert GAME.to_move(state) == (dealer - 1) % n


def test_wrong_first_leader():
    setup, tokens, _, _ = simulate(4, opts(), random.Random(2))
    leader = (setup.dealer - 1) % 4
    other = next(c for c in setup.hands[setup.dealer])
    err = record_error(setup, [CARD_NAMES[other]] + tokens[1:], opts())
    assert (err.rule, err.move, err.seat) == ("first-leader", 1, leader)
    assert "right-hand neighbour" in err.message and CARD_NAMES[other] in err.message
    # a set-aside card is not a wrong leader but a card nobody holds
    setup, tokens, _, _ = simulate(5, opts(), random.Random(2))
    err = record_error(setup, [CARD_NAMES[setup.stock[0]]] + tokens[1:], opts())
    assert (err.rule, err.move) == ("card-not-held", 1) and "not in play" in err.message


def test_queens_in_one_trick_count_each():
    """Seat 3 leads QC; the others, void, throw QH, QD, QS: 25 to seat 3 at once."""
    setup = DealSetup(4, 0, suit_hands(), None, [])
    tokens = finish(setup, opts(), ["QC", "QH", "QD", "QS"], random.Random(1))
    outcome = GAME.replay(setup, tokens, opts())
    assert outcome.scores == [0, 0, 0, 25] and outcome.places == [1, 1, 1, 4]
    taken = [e for e in outcome.events if e.kind == "queen-taken"]
    assert len(taken) == 4 and {e.seat for e in taken} == {3} and {e.move for e in taken} == {4}


def test_a_queen_may_be_discarded_and_led():
    setup = DealSetup(4, 0, suit_hands(), None, [])
    # void seats may throw a queen (no obligation either way)
    GAME.replay(setup, finish(setup, opts(), ["2C", "QH", "2D", "2S"], random.Random(3)), opts())
    GAME.replay(setup, finish(setup, opts(), ["2C", "2H", "2D", "2S"], random.Random(3)), opts())


def test_no_queen_first_trick_house_rule():
    setup = DealSetup(4, 0, suit_hands(), None, [])
    options = opts(no_queen_first_trick=True)
    tokens = finish(setup, opts(), ["2C", "QH", "2D", "2S"], random.Random(3))
    err = record_error(setup, tokens, options)
    assert (err.rule, err.move, err.seat) == ("no-queen-first-trick", 2, 0)
    assert "no queen may be discarded on the first trick" in err.message and "2H" in err.message
    # the lead itself is free, and from trick 2 on queens may be thrown again
    tokens = finish(setup, options, ["QC", "2H", "2D", "2S", "KC", "QH", "QD", "QS"], random.Random(4))
    assert GAME.replay(setup, tokens, options).scores[3] == 25


# -------------------------------------------------------------------- mutations

def test_follow_suit_mutation():
    rng = random.Random(5)
    setup, tokens, _, _ = simulate(4, opts(), rng, skill=0.0)
    state = GAME.new_deal(setup, opts())
    for index, token in enumerate(tokens):
        hand = state.hands[state.turn]
        follow = hand & state.led_mask if state.trick_len else 0
        if follow and hand & ~state.led_mask:
            off = cards_of(hand & ~state.led_mask)[0]
            seat = state.turn
            break
        GAME.play(state, GAME.parse_move(token))
    bad = tokens[:index] + [CARD_NAMES[off]] + tokens[index + 1:]
    err = record_error(setup, bad, opts())
    assert (err.rule, err.move, err.seat) == ("follow-suit", index + 1, seat)
    assert err.message.startswith("must follow suit") and CARD_NAMES[cards_of(follow)[0]] in err.message


def test_card_not_held_mutation():
    setup, tokens, _, _ = simulate(5, opts(), random.Random(6))
    # move 11: a card from the set-aside stock, then one already played
    err = record_error(setup, tokens[:10] + [CARD_NAMES[setup.stock[0]]] + tokens[11:], opts())
    assert (err.rule, err.move) == ("card-not-held", 11) and "not in play" in err.message
    err = record_error(setup, tokens[:10] + [tokens[0]] + tokens[11:], opts())
    assert (err.rule, err.move) == ("card-not-held", 11) and "already been played" in err.message


def test_record_length_and_notation_mutations():
    setup, tokens, _, _ = simulate(3, opts(), random.Random(7))
    assert len(tokens) == 51
    err = record_error(setup, tokens + ["2C"], opts())
    assert (err.rule, err.move, err.token) == ("record-too-long", 52, "2C")
    err = record_error(setup, tokens[:-3], opts())
    assert err.rule == "record-incomplete" and "48 moves" in err.message
    err = record_error(setup, tokens[:20] + ["Q"] + tokens[21:], opts())
    assert (err.rule, err.move, err.token) == ("notation", 21, "Q")
    # a bad token after the deal is over is a record that goes on
    err = record_error(setup, tokens + ["zz"], opts())
    assert err.rule == "record-too-long"
    # lenient spellings replay like canonical ones
    lenient = [t.lower().replace("t", "10") for t in tokens]
    assert GAME.replay(setup, lenient, opts()) == GAME.replay(setup, tokens, opts())


def test_deal_mutations():
    options = opts()
    setup = GAME.random_setup(5, 2, 1, options, random.Random(9))
    hands = [list(h) for h in setup.hands]
    assert setup_error(DealSetup(7, 0, hands, None, setup.stock), options).rule == "player-count"
    assert setup_error(DealSetup(2, 0, hands[:2], None, setup.stock), options).rule == "player-count"
    err = setup_error(DealSetup(5, 5, hands, None, setup.stock), options)
    assert (err.rule, err.column) == ("dealer", "dealer")
    err = setup_error(DealSetup(5, None, hands, None, setup.stock), options)
    assert (err.rule, err.column) == ("dealer", "dealer")
    err = setup_error(DealSetup(5, 0, hands, None, setup.stock[:1]), options)
    assert (err.rule, err.column) == ("stock-size", "stock") and "2 cards are set aside" in err.message
    dup = [list(h) for h in hands]
    dup[4][3] = dup[1][3]
    err = setup_error(DealSetup(5, 0, dup, None, setup.stock), options)
    assert (err.rule, err.column) == ("duplicate-card", "hands")
    err = setup_error(DealSetup(5, 0, hands, None, [hands[0][0], setup.stock[0]]), options)
    assert (err.rule, err.column) == ("duplicate-card", "stock")
    long = [list(h) for h in hands]
    long[0].append(setup.stock[0])
    err = setup_error(DealSetup(5, 0, long, None, setup.stock[1:]), options)
    assert (err.rule, err.column) == ("hand-size", "hands") and "11 cards" in err.message
    bad = [list(h) for h in hands]
    bad[2][0] = 52
    err = setup_error(DealSetup(5, 0, bad, None, setup.stock), options)
    assert err.rule == "not-a-card"
    assert setup_error(DealSetup(5, 0, hands[:4], None, setup.stock), options).rule == "hand-count"


# ------------------------------------------------------- simulated properties

@settings(max_examples=120, deadline=None)
@given(n=st.sampled_from([3, 4, 5, 6]), no_queen=st.booleans(), seed=st.integers(0, 2**32 - 1),
       skill=st.sampled_from([0.0, 0.5, 1.0]))
def test_simulated_deals_replay_and_keep_the_invariants(n, no_queen, seed, skill):
    options = opts(no_queen_first_trick=no_queen)
    setup, tokens, stepwise, state = simulate(n, options, random.Random(seed), skill)
    fused = GAME.replay(setup, tokens, options)
    assert fused == Game.replay(GAME, setup, tokens, options)
    assert fused.scores == stepwise.scores and fused.moves == len(tokens) == n * (52 // n)
    in_play = [q for q in QUEENS if q not in setup.stock]
    assert sum(fused.scores) == sum(QUEENS[q] for q in in_play)
    taken = [sorted(q for q in in_play if state.taken[s] >> q & 1) for s in range(n)]
    assert fused.scores == [sum(QUEENS[q] for q in qs) for qs in taken]
    assert len([e for e in fused.events if e.kind == "queen-taken"]) == len(in_play)
    for given_stock in (setup.stock, None):
        sheet = GAME.check_score_sheet(DealSetup(n, setup.dealer, None, None, given_stock), fused.scores, options)
        assert sheet.scores == fused.scores and sheet.places == fused.places


def test_legal_moves_match_play():
    options = opts(no_queen_first_trick=True)
    setup = DealSetup(4, 0, suit_hands(), None, [])
    setup2, _, _, _ = simulate(4, options, random.Random(4), skill=0.0)
    for deal in (setup, setup2):
        tokens = finish(deal, options, [], random.Random(1))
        trick_helpers.assert_legal_moves_match_play(GAME, deal, options, tokens, step=3)


def test_play_refuses_moves_after_the_end():
    _, _, _, state = simulate(4, opts(), random.Random(1))
    assert GAME.is_over(state) and GAME.to_move(state) is None and GAME.legal_moves(state) == []
    with pytest.raises(IllegalMove) as caught:
        GAME.play(state, QS)
    assert caught.value.rule == "deal-over"


def test_heuristic_beats_random_play():
    bot, rest = trick_helpers.heuristic_against_random(GAME, opts())
    assert bot < 0.7 * rest


# ------------------------------------------------------------------- notation

def test_notation():
    for card in range(52):
        assert GAME.parse_move(GAME.format_move(card)) == card
    assert GAME.parse_move("10♦") == parse_card("TD")
    assert GAME.parse_move("qs") == QS
    for bad in ["", "QZ", "1H", "QSQ", "K"]:
        with pytest.raises(IllegalMove) as caught:
            GAME.parse_move(bad)
        assert caught.value.rule == "notation" and repr(bad) in caught.value.message


# ---------------------------------------------------------------- score sheets

@pytest.mark.parametrize("n, stock, scores", [
    (4, None, [10, 5, 5, 5]),
    (4, None, [25, 0, 0, 0]),
    (4, None, [0, 0, 15, 10]),
    (3, None, [5, 5, 5]),  # QS set aside
    (3, None, [10, 5, 5]),  # a 5-point queen set aside
    (5, None, [5, 5, 5, 0, 0]),  # QS and a non-queen, or two 5-point queens
    (5, None, [10, 0, 0, 0, 0]),  # QS and a 5-point queen set aside
    (6, None, [0, 0, 0, 0, 0, 0]),  # all four queens set aside
    (6, None, [5, 0, 0, 0, 0, 0]),
    (5, "QS 2C", [5, 5, 5, 0, 0]),
    (5, "2H 2C", [10, 5, 5, 5, 0]),
])
def test_score_sheet_accepted(n, stock, scores):
    cards = parse_cards(stock) if stock else None
    outcome = GAME.check_score_sheet(DealSetup(n, 0, None, None, cards), scores, opts())
    assert outcome.verified == "scores" and outcome.scores == scores


@pytest.mark.parametrize("n, stock, scores, rule, words", [
    (4, None, [10, 5, 5, 0], "score-sheet-total", "totals 20; with 4 players and no queen set aside a deal gives 25"),
    (4, None, [7, 8, 5, 5], "score-sheet-value", "score 7 is not a sum"),
    (4, None, [30, 0, 0, -5], "score-sheet-value", "score 30"),
    (5, None, [5, 5, 5, 5, 5], "score-sheet-split", "cannot come from one deal"),
    (5, None, [5, 5, 5, 5, 0], "score-sheet-split", "QS alone is worth 10"),
    (5, None, [5, 0, 0, 0, 0], "score-sheet-total", "gives 25, 20, 15 or 10"),
    (3, None, [5, 5, 0], "score-sheet-total", "gives 25, 20 or 15"),
    (5, "QS 2C", [10, 5, 5, 5, 0], "score-sheet-total", "QS set aside a deal gives 15"),
    (5, "2H 2C", [5, 5, 5, 0, 0], "score-sheet-total", "no queen set aside a deal gives 25"),
    (4, None, [25, 0, 0], "score-sheet-seats", "3 scores"),
])
def test_score_sheet_rejected(n, stock, scores, rule, words):
    cards = parse_cards(stock) if stock else None
    with pytest.raises(IllegalMove) as caught:
        GAME.check_score_sheet(DealSetup(n, 0, None, None, cards), scores, opts())
    assert caught.value.rule == rule and words in caught.value.message


# -------------------------------------------------------------------- options

def test_options_and_match_rules():
    rules = GAME.match_rules(opts())
    assert (rules.target, rules.tie_extra, rules.deals, rules.dealer) == (100, True, None, "rotate")
    rules = GAME.match_rules(opts(deals=6, dealer="free"))
    assert (rules.target, rules.deals, rules.tie_extra, rules.dealer) == (None, 6, False, "free")
    assert GAME.match_rules(opts(target=50)).target == 50
    with pytest.raises(OptionError):
        opts(deals=6, target=50)
    with pytest.raises(OptionError):
        opts(dealer="loser-deals")
    keys = {o["key"] for o in GAME.describe()["options"]}
    assert keys == {"no_queen_first_trick", "dealer", "target", "deals"}
