"""svarta-maja (docs/guide/rules.md, "Svarta Maja"): the seed's worked exchange, every
rule broken on purpose, notation, score sheets and simulated deals replayed."""
from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tourney.cards import CARD_NAMES, QS, parse_card, parse_cards
from tourney.engines import get_game
from tourney.engines.base import DealSetup
from tourney.errors import IllegalMove, OptionError, RecordError
from tourney.simulation import finish_deal

GAME = get_game("svarta-maja")
DEFAULT = GAME.resolve_options({})


def cards(text: str) -> list[int]:
    return parse_cards(text)


def names(card_list) -> str:
    return " ".join(CARD_NAMES[c] for c in sorted(card_list))


def make_setup(hands_text: list[str], stock_front: str, indicator: str, dealer: int,
               ) -> DealSetup:
    """A full deal: the hands, the stock starting with ``stock_front``, then every
    other card in card order, then the indicator."""
    hands = [cards(h) for h in hands_text]
    front = cards(stock_front)
    last = parse_card(indicator)
    used = {c for h in hands for c in h} | set(front) | {last}
    rest = [c for c in range(52) if c not in used]
    return DealSetup(nplayers=len(hands), dealer=dealer, hands=hands,
                     stock=front + rest + [last])


def finish_with_bot(state, seed: int = 0, skill=1.0) -> list[str]:
    return finish_deal(GAME, state, random.Random(seed), skill)


def simulate(nplayers: int, seed: int, options=DEFAULT, skill=1.0):
    rng = random.Random(seed)
    setup = GAME.random_setup(nplayers, rng.randrange(nplayers), 1, options, rng)
    state = GAME.new_deal(setup, options)
    tokens = finish_with_bot(state, seed + 1, skill)
    return setup, tokens, state


def replay_error(setup, tokens, options=DEFAULT) -> RecordError:
    with pytest.raises(RecordError) as info:
        GAME.replay(setup, tokens, options)
    return info.value


def states_along(setup, tokens, options=DEFAULT):
    """The state before each move (copies) and after the last."""
    state = GAME.new_deal(setup, options)
    out = [state.copy()]
    for token in tokens:
        GAME.play(state, GAME.parse_move(token))
        out.append(state.copy())
    return out


def seed_after(tokens):
    state = GAME.new_deal(SEED_SETUP, DEFAULT)
    for token in tokens:
        GAME.play(state, GAME.parse_move(token))
    return state


# ------------------------------------------------------------------ the seed example

ELSA, NOAH, SAGA, OLLE = range(4)

# Trump hearts (9H is the indicator). Olle deals, so Elsa attacks first, Noah defends.
SEED_SETUP = make_setup(
    ["7D 9D 2C 3S AC KH",      # Elsa
     "JD 4H QS 3C 5C 6D",      # Noah
     "KS AH 4S 8C 2D TD",      # Saga
     "5S 7S 9C JC 3D 5H"],     # Olle
    stock_front="2S 6S 8S TC 4C 7C", indicator="9H", dealer=OLLE)


def test_seed_exchange_state_after_each_exchange():
    state = GAME.new_deal(SEED_SETUP, DEFAULT)
    assert state.trump == 1  # hearts
    assert GAME.to_move(state) == ELSA and state.defender == NOAH

    # Elsa attacks Noah with 7D and 9D; Noah beats 7D with JD and 9D with the trump 4H.
    GAME.play(state, GAME.parse_move("7D,9D/JD,4H"))
    # The four cards leave play; Elsa refills first (2S 6S), then Noah (8S TC).
    assert names(state.hand(ELSA)) == names(cards("2C 3S AC KH 2S 6S"))
    assert names(state.hand(NOAH)) == names(cards("QS 3C 5C 6D 8S TC"))
    for card in cards("7D 9D JD 4H"):
        assert all(card not in state.hand(s) for s in range(4))
    # Noah beat every card: Noah attacks next, against Saga.
    assert GAME.to_move(state) == NOAH and state.defender == SAGA

    # Noah lays QS and 8S; Saga beats 8S with KS and must take the queen.
    GAME.play(state, GAME.parse_move("QS,8S/-,KS"))
    assert QS in state.hand(SAGA) and QS not in state.hand(NOAH)
    assert names(state.hand(SAGA)) == names(cards("QS AH 4S 8C 2D TD"))
    # Noah refills with 4C 7C; Saga holds six already and draws nothing.
    assert names(state.hand(NOAH)) == names(cards("3C 5C 6D TC 4C 7C"))
    assert len(state.stock_left()) == 52 - 24 - 6 and state.stock_left()[-1] == parse_card("9H")
    # Saga loses her attack: the player to her left (Olle) attacks, Elsa defends.
    assert GAME.to_move(state) == OLLE and state.defender == ELSA

    # The rest of the deal, played by the bots, replays as one legal record.
    tokens = ["7D,9D/JD,4H", "QS,8S/-,KS"] + finish_with_bot(state)
    outcome = GAME.replay(SEED_SETUP, tokens, DEFAULT)
    loser = outcome.scores.index(1)
    assert sorted(outcome.scores) == [0, 0, 0, 1]
    assert QS in state.hand(loser)
    assert [s for s in range(4) if state.hand(s)] == [loser]
    assert outcome.places[loser] == 4
    queen_taken = [e for e in outcome.events if e.kind == "queen-taken"]
    assert (queen_taken[0].move, queen_taken[0].seat) == (2, SAGA)


def test_seed_queen_cannot_be_beaten_even_by_a_trump():
    error = replay_error(SEED_SETUP, ["7D,9D/JD,4H", "QS,8S/AH,KS"])
    assert error.rule == "qs-unbeatable"
    assert "queen of spades cannot be beaten" in error.message and "AH" in error.message
    assert (error.move, error.seat, error.column) == (2, NOAH, "play")


def test_seed_queen_beats_nothing():
    # Saga, now holding the queen, cannot answer with her either.
    state = seed_after(["7D,9D/JD,4H", "QS,8S/-,KS", "3D/-"])  # Olle -> Elsa, Elsa takes 3D
    # Elsa took a card: the attack passes to Noah, who attacks Saga (holding QS).
    assert GAME.to_move(state) == NOAH and state.defender == SAGA
    with pytest.raises(IllegalMove) as info:
        GAME.play(state, GAME.parse_move("3C/QS"))
    assert info.value.rule == "qs-beats-nothing"


# ------------------------------------------------------------------ beating rules

@pytest.mark.parametrize("token, rule, words", [
    ("7D,9D/6D,-", "beat-rank", "higher card of its suit"),
    ("7D,9D/-,9D", "answer-not-in-hand", "defender's (seat 2) hand"),
    ("7D,9D/3C,-", "beat-suit", "or by a trump"),
    ("7D,9D/JD,JD", "answer-reused", "one defending card"),
    ("7D,9D/JD", "answer-count", "exactly one answer"),
    ("7D,9D/JD,4H,-", "answer-count", "exactly one answer"),
    ("7D,2C/-,-", "one-suit", "one suit"),
    ("7D,7D/-,-", "attack-repeated", "twice"),
    ("7D,9D/QS,-", "qs-beats-nothing", "beats nothing"),
])
def test_first_exchange_rules(token, rule, words):
    error = replay_error(SEED_SETUP, [token])
    assert error.rule == rule
    assert words in error.message
    assert (error.move, error.seat) == (1, ELSA)


def test_trump_only_by_higher_trump():
    # Hearts are trump: Elsa's KH cannot be beaten by Noah's 4H (lower) or JD.
    error = replay_error(SEED_SETUP, ["KH/4H"])
    assert error.rule == "beat-trump" and "higher trump" in error.message
    error = replay_error(SEED_SETUP, ["KH/JD"])
    assert error.rule == "beat-trump"
    # A higher trump does beat a trump; any trump beats a non-trump.
    setup = make_setup(["7D 9D 2C 3S AC 5H", "JD 4H QS 3C 5C 6H", "KS AH 4S 8C 2D TD",
                        "5S 7S 9C JC 3D KH"], "2S 6S 8S TC 4C 7C", "9H", OLLE)
    state = GAME.new_deal(setup, DEFAULT)
    GAME.play(state, GAME.parse_move("5H/6H"))
    assert GAME.to_move(state) == NOAH
    state = GAME.new_deal(setup, DEFAULT)
    GAME.play(state, GAME.parse_move("AC/4H"))
    assert GAME.to_move(state) == NOAH


def test_attack_limit_allows_as_many_as_the_defender_holds():
    # Two players: seat 0 attacks with five clubs against six cards, all beaten.
    setup = make_setup(["2C 3C 4C 5C 6C AS", "7C 8C 9C TC JC QS"], "", "2H", 1)
    state = GAME.new_deal(setup, DEFAULT)
    assert GAME.to_move(state) == 0
    GAME.play(state, GAME.parse_move("2C,3C,4C,5C,6C/7C,8C,9C,TC,JC"))
    assert GAME.to_move(state) == 1  # beat every card: seat 1 attacks
    assert len(state.hand(0)) == 6 and len(state.hand(1)) == 6


def test_attack_too_many():
    for seed in range(200):
        setup, tokens, _ = simulate(3, seed)
        states = states_along(setup, tokens)
        for i, state in enumerate(states[:-1]):
            limit = state.hands[state.defender].bit_count()
            attacker_hand = state.hand(state.attacker)
            for suit in range(4):
                suit_cards = [c for c in attacker_hand if c // 13 == suit]
                if len(suit_cards) > limit:
                    token = ",".join(CARD_NAMES[c] for c in suit_cards) + "/" + ",".join(
                        "-" for _ in suit_cards)
                    error = replay_error(setup, tokens[:i] + [token])
                    assert error.rule == "attack-too-many"
                    assert "never more attack cards than the defender holds" in error.message
                    assert (error.move, error.seat) == (i + 1, state.attacker)
                    return
    pytest.fail("no position with a long suit against a short hand")


def test_attack_not_in_hand_and_gone_cards():
    error = replay_error(SEED_SETUP, ["7D,9D/JD,4H", "JD/-"])
    assert error.rule == "attack-not-in-hand"
    assert "JD has left play" in error.message
    # The indicator, deep in the stock, is no refill slip: just not in the hand.
    error = replay_error(SEED_SETUP, ["7D,9D/JD,4H", "3C/9H"])
    assert error.rule == "answer-not-in-hand"
    assert "9H is still in the stock" in error.message and "seat 3" in error.message


# ------------------------------------------------------------------ order rules

def test_first_attacker_is_dealers_left_neighbour():
    # Olle (the dealer) attacks instead of Elsa.
    error = replay_error(SEED_SETUP, ["5S/-"])
    assert error.rule == "first-attacker"
    assert "dealer's (seat 4) left neighbour" in error.message
    assert (error.move, error.seat) == (1, ELSA)
    # Noah attacks (with an answer from Saga, his defender).
    error = replay_error(SEED_SETUP, ["3C/8C"])
    assert error.rule == "first-attacker"


def test_next_attacker_after_all_beaten_is_the_defender():
    # Noah beat everything: Elsa may not attack again.
    error = replay_error(SEED_SETUP, ["7D,9D/JD,4H", "2C/3C"])
    assert error.rule == "next-attacker"
    assert "beats every card attacks next" in error.message
    assert (error.move, error.seat) == (2, NOAH)


def test_next_attacker_after_cards_taken_is_left_of_defender():
    # Saga took the queen: Saga may not attack; Olle does.
    error = replay_error(SEED_SETUP, ["7D,9D/JD,4H", "QS,8S/-,KS", "8C/9C"])
    assert error.rule == "next-attacker"
    assert "did not beat every card" in error.message
    assert (error.move, error.seat) == (3, OLLE)


def test_defender_is_next_active_seat():
    # Elsa attacks with 2C and Saga (not Noah, the defender) beats it with 8C.
    error = replay_error(SEED_SETUP, ["2C/8C"])
    assert error.rule == "defender-order"
    assert "seat 2" in error.message and "8C" in error.message


def test_refill_order_attacker_first():
    # After exchange 1 Elsa drew 2S 6S and Noah 8S TC. A record that had Noah draw
    # first would let Noah attack with 2S.
    error = replay_error(SEED_SETUP, ["7D,9D/JD,4H", "2S/-"])
    assert error.rule == "refill"
    assert "drawn by seat 1" in error.message and "attacker (seat 1) draws" in error.message
    # A card still in the stock.
    error = replay_error(SEED_SETUP, ["7D,9D/JD,4H", "4C/-"])
    assert error.rule == "refill" and "still in the stock" in error.message


def _skipping_exchanges(nplayers: int, seeds: range):
    """Exchanges (in simulated deals) whose defender was reached by skipping a seat
    that is out, the defender taking at least one card, the deal going on."""
    for seed in seeds:
        setup, tokens, _ = simulate(nplayers, seed)
        states = states_along(setup, tokens)
        for i, token in enumerate(tokens[:-1]):
            before, after = states[i], states[i + 1]
            a, d = before.attacker, before.defender
            attack, answers = GAME.parse_move(token)
            taken = [c for c, b in zip(attack, answers) if b < 0]
            if (d - a) % nplayers > 1 and taken and not after.over:
                yield setup, tokens, i, before, after, taken


def test_out_seat_skipped_as_defender():
    # A record that let the seat after an out seat attack, as if the out seat had
    # been the defender and taken the cards.
    for setup, tokens, i, before, after, taken in _skipping_exchanges(5, range(300)):
        wrong = (before.attacker + 2) % 5
        if wrong != after.attacker and after.hand(wrong):
            token = f"{CARD_NAMES[after.hand(wrong)[0]]}/-"
            error = replay_error(setup, tokens[:i + 1] + [token])
            assert error.rule == "out-skipped"
            assert "seats that are out are skipped" in error.message
            assert f"seat {wrong + 1} does not attack now" in error.message  # from 1
            assert (error.move, error.seat) == (i + 2, after.attacker)
            return
    pytest.fail("no suitable skipping exchange found")


def test_out_seat_skipped_card_went_to_defender():
    # A record whose next attacker plays a card the engine gave to the defender
    # reached by skipping an out seat.
    for setup, tokens, i, before, after, taken in _skipping_exchanges(5, range(300)):
        assert taken[0] in after.hand(before.defender)
        error = replay_error(setup, tokens[:i + 1] + [f"{CARD_NAMES[taken[0]]}/-"])
        assert error.rule == "out-skipped"
        assert (error.move, error.seat) == (i + 2, after.attacker)
        return
    pytest.fail("no suitable skipping exchange found")


# ------------------------------------------------------------------ endgame rules

def test_two_players_defender_fails_attacker_again():
    setup, tokens, _ = simulate(2, 3)
    states = states_along(setup, tokens)
    seen_again = seen_switch = False
    for i, token in enumerate(tokens):
        before, after = states[i], states[i + 1]
        if after.over:
            break
        _, answers = GAME.parse_move(token)
        if min(answers) < 0:
            assert after.attacker == before.attacker
            seen_again = True
        else:
            assert after.attacker == before.defender
            seen_switch = True
    assert seen_again and seen_switch


def test_attacker_out_and_shared_places():
    found_shared = found_attacker_out = False
    for seed in range(300):
        setup, tokens, _ = simulate(4, seed, skill=0.5)
        outcome = GAME.replay(setup, tokens, DEFAULT)
        out_moves = {}
        for event in outcome.events:
            if event.kind == "out":
                out_moves.setdefault(event.move, []).append(event.seat)
        for move, seats in out_moves.items():
            places = {outcome.places[s] for s in seats}
            assert len(places) == 1  # out in the same exchange: a shared place
            earlier = sum(len(v) for m, v in out_moves.items() if m < move)
            assert places == {1 + earlier}
            if len(seats) == 2:
                found_shared = True
        states = states_along(setup, tokens)
        for i in range(len(tokens)):
            before, after = states[i], states[i + 1]
            a = before.attacker
            if not after.hands[a] and not after.over and before.hands[a]:
                found_attacker_out = True
                # The out attacker is skipped in both roles.
                assert after.attacker != a and after.defender != a
        if found_shared and found_attacker_out:
            return
    pytest.fail(f"shared={found_shared} attacker-out={found_attacker_out}")


def test_defender_out_after_beating_all_passes_the_attack():
    for seed in range(300):
        setup, tokens, _ = simulate(4, seed)
        states = states_along(setup, tokens)
        for i, token in enumerate(tokens):
            before, after = states[i], states[i + 1]
            _, answers = GAME.parse_move(token)
            d = before.defender
            if min(answers) >= 0 and not after.hands[d] and not after.over:
                expected = (d + 1) % 4
                while not after.hands[expected]:
                    expected = (expected + 1) % 4
                assert after.attacker == expected
                return
    pytest.fail("no defender went out by beating every card")


def test_record_too_long_and_incomplete():
    setup, tokens, _ = simulate(3, 5)
    assert replay_error(setup, tokens[:-1]).rule == "record-incomplete"
    error = replay_error(setup, tokens + ["2C/-"])
    assert error.rule == "record-too-long" and error.move == len(tokens) + 1
    state = GAME.new_deal(setup, DEFAULT)
    for token in tokens:
        GAME.play(state, GAME.parse_move(token))
    with pytest.raises(IllegalMove) as info:
        GAME.play(state, GAME.parse_move("2C/-"))
    assert info.value.rule == "deal-over"


# ------------------------------------------------------------------ setup checks

def _seed_variant(**change) -> DealSetup:
    setup = DealSetup(nplayers=SEED_SETUP.nplayers, dealer=SEED_SETUP.dealer,
                      hands=[list(h) for h in SEED_SETUP.hands], stock=list(SEED_SETUP.stock))
    for key, value in change.items():
        setattr(setup, key, value)
    return setup


def test_setup_errors():
    def error_of(setup, options=DEFAULT):
        with pytest.raises(RecordError) as info:
            GAME.new_deal(setup, options)
        return info.value

    e = error_of(_seed_variant(nplayers=7, hands=[[]] * 7))
    assert (e.rule, e.column) == ("player-count", "players")
    e = error_of(_seed_variant(dealer=None))
    assert (e.rule, e.column) == ("dealer-missing", "dealer")
    e = error_of(_seed_variant(dealer=4))
    assert (e.rule, e.column) == ("dealer-range", "dealer")
    e = error_of(_seed_variant(hands=SEED_SETUP.hands[:3]))
    assert (e.rule, e.column) == ("hand-count", "hands")
    hands = [list(h) for h in SEED_SETUP.hands]
    hands[1].append(SEED_SETUP.stock[0])
    e = error_of(_seed_variant(hands=hands, stock=SEED_SETUP.stock[1:]))
    assert (e.rule, e.column) == ("hand-size", "hands") and "seat 2 has 7" in e.message
    hands = [list(h) for h in SEED_SETUP.hands]
    hands[2][0] = hands[0][0]
    e = error_of(_seed_variant(hands=hands))
    assert (e.rule, e.column) == ("duplicate-card", "hands") and "7D" in e.message
    stock = list(SEED_SETUP.stock)
    stock[0] = stock[1]
    e = error_of(_seed_variant(stock=stock))
    assert (e.rule, e.column) == ("duplicate-card", "stock")
    e = error_of(_seed_variant(stock=SEED_SETUP.stock[1:]))
    assert (e.rule, e.column) == ("missing-card", "stock") and "2S" in e.message
    e = error_of(_seed_variant(stock=[]))
    assert (e.rule, e.column) == ("stock-missing", "stock")
    e = error_of(_seed_variant(stock=SEED_SETUP.stock[:-1] + [52]))
    assert (e.rule, e.column) == ("card-range", "stock")
    # Hand size 5 needs five cards per seat.
    e = error_of(SEED_SETUP, GAME.resolve_options({"hand_size": 5}))
    assert e.rule == "hand-size"


def test_spade_indicator():
    spade_setup = make_setup(
        ["7D 9D 2C 3S AC KH", "JD 4H QS 3C 5C 6D", "KS AH 4S 8C 2D TD",
         "5S 7S 9C JC 3D 5H"], "2S 6S 8S TC 4C 7C", "9S", OLLE)
    with pytest.raises(RecordError) as info:
        GAME.new_deal(spade_setup, DEFAULT)
    assert (info.value.rule, info.value.column) == ("spade-trump", "stock")
    assert "9S" in info.value.message
    options = GAME.resolve_options({"spade_trump": "true"})
    state = GAME.new_deal(spade_setup, options)
    assert state.trump == 0
    with pytest.raises(IllegalMove) as err:
        GAME.play(state, GAME.parse_move("7D/4H"))  # hearts are no trump now
    assert err.value.rule == "beat-suit"
    with pytest.raises(IllegalMove) as err:
        GAME.play(state, GAME.parse_move("7D/QS"))  # a spade, a trump, but the queen
    assert err.value.rule == "qs-beats-nothing"
    # The queen as indicator: spades are trump, she is the last card drawn.
    queen_last = make_setup(["7D 9D 2C 3S AC KH", "JD 4H AS 3C 5C 6D", "KS AH 4S 8C 2D TD",
                             "5S 7S 9C JC 3D 5H"], "2S 6S 8S TC 4C 7C", "QS", OLLE)
    state = GAME.new_deal(queen_last, options)
    assert state.trump == 0 and state.stock_left()[-1] == QS
    GAME.play(state, GAME.parse_move("7D,9D/AS,JD"))  # AS is a trump: it beats 7D
    assert GAME.to_move(state) == NOAH
    with pytest.raises(RecordError) as info:
        GAME.new_deal(queen_last, DEFAULT)
    assert info.value.rule == "spade-trump"


# ------------------------------------------------------------------ notation

def test_notation_examples_and_leniency():
    assert GAME.parse_move("7D,9D/JD,4H") == ((parse_card("7D"), parse_card("9D")),
                                             (parse_card("JD"), parse_card("4H")))
    assert GAME.parse_move("QS,8S/-,KS") == ((QS, parse_card("8S")), (-1, parse_card("KS")))
    assert GAME.canonical_token("qs,8♠/-,k♠") == "QS,8S/-,KS"
    assert GAME.canonical_token("10d,9d/jd,4♥") == "TD,9D/JD,4H"
    assert GAME.canonical_token(" 7D / - ") == "7D/-"


@pytest.mark.parametrize("token", ["", "7D", "7D/", "/-", "XX/-", "7D/-/-", "7D,,9D/-,-",
                                   "7D/ZZ", "1D/-", "7D;9D/-,-"])
def test_bad_tokens(token):
    with pytest.raises(IllegalMove) as info:
        GAME.parse_move(token)
    assert info.value.rule == "notation"
    assert "not an exchange" in info.value.message


card_st = st.integers(0, 51)


@given(st.lists(card_st, min_size=1, max_size=6, unique=True), st.data())
@settings(max_examples=150, deadline=None)
def test_notation_round_trip(attack, data):
    answers = tuple(data.draw(st.one_of(st.just(-1), card_st)) for _ in attack)
    move = (tuple(attack), answers)
    token = GAME.format_move(move)
    assert GAME.parse_move(token) == move
    assert GAME.format_move(GAME.parse_move(token.lower())) == token


# ------------------------------------------------------------------ score sheets

def test_score_sheets():
    sheet = DealSetup(nplayers=4, dealer=0)
    outcome = GAME.check_score_sheet(sheet, [0, 0, 1, 0], DEFAULT)
    assert outcome.verified == "scores" and outcome.places == [1, 1, 4, 1]
    assert GAME.check_score_sheet(DealSetup(nplayers=2), [1, 0], DEFAULT).places == [2, 1]
    for scores, rule in [([0, 0, 0, 0], "score-sheet-loser"), ([1, 0, 1, 0], "score-sheet-loser"),
                         ([2, 0, 0, 0], "score-sheet-value"), ([0, -1, 1, 0], "score-sheet-value"),
                         ([0, 1, 0], "score-sheet-seats"), ([0, 0.5, 0.5, 0], "score-sheet-value")]:
        with pytest.raises(IllegalMove) as info:
            GAME.check_score_sheet(sheet, scores, DEFAULT)
        assert info.value.rule == rule, scores
    with pytest.raises(IllegalMove) as info:
        GAME.check_score_sheet(sheet, [0, 0, 0, 0], DEFAULT)
    assert "0 losers" in info.value.message
    with pytest.raises(IllegalMove) as info:
        GAME.check_score_sheet(DealSetup(nplayers=7), [1, 0, 0, 0, 0, 0, 0], DEFAULT)
    assert info.value.rule == "score-sheet-seats"


# ------------------------------------------------------------------ options, matches

def test_options_and_match_rules():
    assert DEFAULT == {"hand_size": 6, "spade_trump": False, "deals": None, "losses": None,
                       "dealer": "rotate"}
    rules = GAME.match_rules(GAME.resolve_options({"losses": "3", "dealer": "loser-deals"}))
    assert (rules.losses, rules.deals, rules.dealer, rules.higher_is_better) == (
        3, None, "loser-deals", False)
    assert GAME.match_rules(GAME.resolve_options({"deals": 4})).deals == 4
    with pytest.raises(OptionError):
        GAME.resolve_options({"deals": 4, "losses": 3})
    with pytest.raises(OptionError):
        GAME.resolve_options({"hand_size": 7})
    with pytest.raises(OptionError):
        GAME.resolve_options({"dealer": "free"})
    described = GAME.describe()
    assert described["players"] == [2, 6]
    assert {o["key"] for o in described["options"]} == {"hand_size", "spade_trump", "deals",
                                                        "losses", "dealer"}


# ------------------------------------------------------------------ simulated deals

@given(nplayers=st.integers(2, 6), seed=st.integers(0, 10**6),
       hand_size=st.sampled_from([5, 6]), spade_trump=st.booleans(),
       skill=st.sampled_from([0.0, 0.5, 1.0]))
@settings(max_examples=120, deadline=None)
def test_simulated_deals_replay(nplayers, seed, hand_size, spade_trump, skill):
    options = GAME.resolve_options({"hand_size": hand_size, "spade_trump": spade_trump})
    setup, tokens, state = simulate(nplayers, seed, options, skill)
    outcome = GAME.replay(setup, tokens, options)
    assert outcome.scores == GAME.outcome(state).scores
    assert sorted(outcome.scores) == [0] * (nplayers - 1) + [1]
    loser = outcome.scores.index(1)
    assert state.hand(loser) and QS in state.hand(loser)
    assert all(not state.hand(s) for s in range(nplayers) if s != loser)
    assert outcome.places[loser] == nplayers and max(outcome.places) == nplayers
    assert sum(1 for e in outcome.events if e.kind == "out") == nplayers - 1
    assert outcome.moves == len(tokens)
    assert GAME.check_score_sheet(setup, outcome.scores, options).scores == outcome.scores
    # Every card is accounted for: beaten pairs leave play, the rest is the loser's.
    beaten = sum(b >= 0 for token in tokens for b in GAME.parse_move(token)[1])
    assert 2 * beaten + len(state.hand(loser)) == 52


@given(nplayers=st.integers(2, 5), seed=st.integers(0, 10**6))
@settings(max_examples=40, deadline=None)
def test_bot_moves_are_legal_moves(nplayers, seed):
    rng = random.Random(seed)
    setup = GAME.random_setup(nplayers, 0, 1, DEFAULT, rng)
    state = GAME.new_deal(setup, DEFAULT)
    checked = 0
    while not GAME.is_over(state) and checked < 60:
        attacks = GAME.legal_attacks(state)
        move = GAME.choose_move(state, rng, 0.5)
        key = tuple(sorted(zip(*move)))
        assert tuple(sorted(move[0])) in attacks
        size = 0
        for attack in attacks:
            ways = 1
            for card in attack:
                ways *= len(GAME.beaters(state, card)) + 1
            size += ways
        if size <= 3000:
            moves = GAME.legal_moves(state)
            assert len(moves) <= size and len(set(moves)) == len(moves)
            assert key in {tuple(sorted(zip(*m))) for m in moves}
            # Every listed move plays.
            for m in moves[:: max(1, len(moves) // 20)]:
                GAME.play(state.copy(), m)
        GAME.play(state, move)
        checked += 1


def test_heuristic_beats_random():
    losses = 0
    deals = 300
    rng = random.Random(7)
    for _ in range(deals):
        setup = GAME.random_setup(4, rng.randrange(4), 1, DEFAULT, rng)
        state = GAME.new_deal(setup, DEFAULT)
        skills = [1.0, 0.0, 0.0, 0.0]
        while not GAME.is_over(state):
            GAME.play(state, GAME.choose_move(state, rng, skills))
        losses += GAME.outcome(state).scores[0]
    assert losses < deals * 0.25 / 2  # far below the fair share of 1/4


def test_random_setup_never_turns_a_spade():
    rng = random.Random(1)
    for n in range(2, 7):
        for _ in range(50):
            setup = GAME.random_setup(n, 0, 1, DEFAULT, rng)
            assert setup.stock[-1] // 13 != 0
            assert sorted(setup.stock + [c for h in setup.hands for c in h]) == list(range(52))
            GAME.new_deal(setup, DEFAULT)


@given(nplayers=st.integers(2, 6), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
@settings(max_examples=80, deadline=None)
def test_mutated_answer_is_rejected_where_it_is(nplayers, seed, pick):
    """A random exchange of a simulated record gets an answer that does not beat its
    card: the error names the beating rule, the move and the attacker."""
    setup, tokens, _ = simulate(nplayers, seed, skill=0.5)
    states = states_along(setup, tokens)
    candidates = []
    for i, token in enumerate(tokens):
        state = states[i]
        attack, answers = GAME.parse_move(token)
        for slot, card in enumerate(attack):
            others = {b for j, b in enumerate(answers) if j != slot}
            for b in state.hand(state.defender):
                if b in others or b == QS or b in GAME.beaters(state, card):
                    continue
                candidates.append((i, slot, b))
    assume(candidates)
    i, slot, b = candidates[pick % len(candidates)]
    state = states[i]
    attack, answers = GAME.parse_move(tokens[i])
    card = attack[slot]
    trump = state.trump
    if card == QS:
        expected = "qs-unbeatable"
    elif card // 13 == trump:
        expected = "beat-trump"
    elif b // 13 == card // 13:
        expected = "beat-rank"
    else:
        expected = "beat-suit"
    bad = list(answers)
    bad[slot] = b
    mutated = GAME.format_move((attack, tuple(bad)))
    error = replay_error(setup, tokens[:i] + [mutated] + tokens[i + 1:])
    assert error.rule == expected
    assert CARD_NAMES[b] in error.message and CARD_NAMES[card] in error.message
    assert (error.move, error.seat, error.token) == (i + 1, state.attacker, mutated)
