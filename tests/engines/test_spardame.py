"""spardame: the seed's worked examples, properties of simulated deals, mutations,
notation and score sheets."""
from __future__ import annotations

import random
from functools import partial

import pytest
import trick_helpers
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cards import (
    AH,
    CARD_NAMES,
    JD,
    QS,
    SUIT_MASKS,
    cards_of,
    parse_card,
    parse_cards,
)
from tourney.engines import get_game
from tourney.engines.base import DealSetup, Game
from tourney.errors import IllegalMove, OptionError

GAME = get_game("spardame")
HEARTS = SUIT_MASKS[1]


def opts(**raw):
    return GAME.resolve_options(raw)


def simulate(nplayers, options, rng, deal_number=1, skill=0.5):
    """A bot-played deal: (setup, tokens, outcome from stepwise play, final state)."""
    setup = GAME.random_setup(nplayers, rng.randrange(nplayers), deal_number, options, rng)
    tokens, outcome, state = trick_helpers.play_out(GAME, setup, options, rng, skill)
    return setup, tokens, outcome, state


finish = partial(trick_helpers.finish, GAME)
record_error = partial(trick_helpers.record_error, GAME)
setup_error = partial(trick_helpers.setup_error, GAME)


# ------------------------------------------------------------- the seed's round

# The seed's round (004_): Anne, Bo, Cecilie, Daniel at seats 0-3. Each trick is
# (leader, the cards of seats 0, 1, 2, 3); trick 2 is the seed's trick worth 110.
SEED_TRICKS = [
    (3, "4C 2S 3S 2C"),
    (0, "AC QS 7H 3C"),
    (0, "5C 2D 2H 6C"),
    (3, "7C 4D 3H 8C"),
    (3, "4S 4H 5H KH"),
    (3, "5S AD 5D 3D"),
    (1, "6S AH 6H 8H"),
    (1, "7S 6D KD 7D"),
    (2, "8S 9H QH TH"),
    (2, "AS TS 9S JD"),
    (0, "KC JH 8D 9C"),
    (0, "QC JS 9D TC"),
    (0, "JC KS TD QD"),
]
# What each seat receives from its right-hand neighbour (passing to the left).
SEED_RECEIVED = ["AS KC QC", "AH AD KS", "KD QH 9S", "KH TH JD"]


def deal_from_tricks(tricks, received, nplayers=4):
    """Hands as dealt, passes and play tokens for a deal written trick by trick:
    the hands after passing are the cards each seat plays; the dealt hands undo a
    pass to the left."""
    after = [[] for _ in range(nplayers)]
    tokens = []
    for leader, text in tricks:
        cards = parse_cards(text)
        for seat, card in enumerate(cards):
            after[seat].append(card)
        tokens += [CARD_NAMES[cards[(leader + k) % nplayers]] for k in range(nplayers)]
    got = [parse_cards(text) for text in received]
    passes = [got[(seat + 1) % nplayers] for seat in range(nplayers)]
    dealt = [sorted(set(after[s]) - set(got[s]) | set(passes[s])) for s in range(nplayers)]
    return dealt, passes, tokens


def seed_deal():
    dealt, passes, tokens = deal_from_tricks(SEED_TRICKS, SEED_RECEIVED)
    return DealSetup(4, 1, dealt, None, [], passes, 1), tokens


def test_seed_trick_worth_110_to_anne():
    """Anne leads AC, Bo QS, Cecilie 7H, Daniel 3C: Anne wins, 110 points."""
    setup, tokens = seed_deal()
    options = opts()
    state = GAME.new_deal(setup, options)
    for token in tokens[:4]:
        GAME.play(state, GAME.parse_move(token))
    assert GAME.to_move(state) == 0  # Anne won trick 1 and leads
    before = state.taken[0]
    assert tokens[4:8] == ["AC", "QS", "7H", "3C"]
    for token in tokens[4:8]:
        GAME.play(state, GAME.parse_move(token))
    trick = state.taken[0] ^ before
    assert state.winners[-1] == 0 and GAME.to_move(state) == 0
    assert cards_of(trick) == sorted(parse_cards("AC QS 7H 3C"))
    from tourney.engines.spardame import penalty
    assert penalty(trick) == 110


def test_seed_round_scores_120_40_30_50():
    setup, tokens = seed_deal()
    outcome = GAME.replay(setup, tokens, opts())
    assert outcome.scores == [120, 40, 30, 50]
    assert sum(outcome.scores) == 240
    assert outcome.places == [4, 2, 1, 3]
    queen = [e for e in outcome.events if e.kind == "queen-taken"]
    assert [(e.seat, e.move) for e in queen] == [(0, 8)] and "trick 2" in queen[0].text
    assert GAME.check_score_sheet(DealSetup(4, 1), [120, 40, 30, 50], opts()).verified == "scores"


def test_seed_round_with_house_rules_that_it_keeps():
    setup, tokens = seed_deal()
    # hearts are discarded (trick 2) before the first heart lead (trick 5); no
    # points on trick 1; JD went to Anne with the 110 trick? no: trick 10.
    options = opts(hearts_break=True, no_points_first_trick=True, jd_bonus=-100, no_trick_bonus=-50)
    outcome = GAME.replay(setup, tokens, options)
    assert outcome.scores == [120 - 100, 40, 30, 50]  # Anne took JD in trick 10; all took tricks
    assert [e.kind for e in outcome.events] == ["queen-taken", "jd-bonus"]


# ------------------------------------------------------------------ the moon

def moon_deal(jd_bonus=0, no_trick_bonus=0):
    """Seat 0 holds 3C..AC and QS and takes every trick: the moon (no passing)."""
    spades = [c for c in parse_cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS")]
    clubs = parse_cards("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")
    hearts = list(range(13, 26))
    diamonds = list(range(26, 39))
    hands = [clubs + [QS], [parse_card("2C")] + spades, hearts, diamonds]
    # trick 1: 2C led by seat 1, then hearts/diamonds discarded under clubs; seat 1
    # keeps 2S for the last trick, which seat 0 leads with QS.
    tokens = ["2C", "2H", "2D", "AC"]
    high_spades = [c for c in spades if c != parse_card("2S")]
    for k in range(11):
        tokens += [CARD_NAMES[clubs[10 - k]], CARD_NAMES[high_spades[k]], CARD_NAMES[hearts[k + 1]],
                   CARD_NAMES[diamonds[k + 1]]]
    tokens += ["QS", "2S", CARD_NAMES[hearts[12]], CARD_NAMES[diamonds[12]]]
    setup = DealSetup(4, 0, [sorted(h) for h in hands], None, [], [[], [], [], []], 4)
    return setup, tokens, opts(**{"pass": "cycle", "jd_bonus": jd_bonus, "no_trick_bonus": no_trick_bonus})


def test_moon_scores_zero_and_hundreds():
    setup, tokens, options = moon_deal()
    outcome = GAME.replay(setup, tokens, options)
    assert outcome.scores == [0, 100, 100, 100]
    assert [e.kind for e in outcome.events] == ["queen-taken", "moon"]
    assert outcome.events[1].seat == 0


@pytest.mark.parametrize("jd, no_trick, expected", [
    (-100, 0, [-100, 100, 100, 100]),
    (-50, -50, [-50, 50, 50, 50]),
    (0, -50, [0, 50, 50, 50]),
])
def test_bonuses_are_added_after_the_moon(jd, no_trick, expected):
    setup, tokens, options = moon_deal(jd, no_trick)
    outcome = GAME.replay(setup, tokens, options)
    assert outcome.scores == expected
    kinds = [e.kind for e in outcome.events]
    assert kinds.count("jd-bonus") == (1 if jd else 0)
    assert kinds.count("no-trick") == (3 if no_trick else 0)
    GAME.check_score_sheet(DealSetup(4, 0), expected, options)


def test_no_points_first_trick_allows_a_hand_of_only_points():
    setup, tokens, options = moon_deal()
    options = dict(options, no_points_first_trick=True)
    # seat 2 holds only hearts and so may discard 2H on trick 1
    assert GAME.replay(setup, tokens, options).scores == [0, 100, 100, 100]


def test_no_points_first_trick_refuses_a_heart_while_holding_others():
    setup, _, options = moon_deal()
    hands = [list(h) for h in setup.hands]
    two_h, two_d = parse_card("2H"), parse_card("2D")
    hands[2] = sorted(set(hands[2]) - {parse_card("KH")} | {two_d})
    hands[3] = sorted(set(hands[3]) - {two_d} | {parse_card("KH")})
    setup = DealSetup(4, 0, hands, None, [], setup.passes, 4)
    tokens = finish(setup, options, ["2C", "2H"], random.Random(5))
    GAME.replay(setup, tokens, options)  # legal without the house rule
    err = record_error(setup, tokens, dict(options, no_points_first_trick=True))
    assert (err.rule, err.move, err.seat) == ("no-points-first-trick", 2, 2)
    assert "first trick" in err.message and "2H" in err.message and "2D" in err.message
    assert two_h in setup.hands[2]


# ---------------------------------------------------------------- hearts break

def test_hearts_break_allows_a_leader_with_only_hearts():
    clubs = parse_cards("3C 4C 5C 6C 7C 8C 9C TC JC QC KC")
    hands = [
        [parse_card("AC")] + [c for c in range(13, 26) if c != parse_card("2H")],
        [parse_card("2C")] + [c for c in range(13) if c != QS],
        clubs + [QS, parse_card("2H")],
        list(range(26, 39)),
    ]
    setup = DealSetup(4, 0, [sorted(h) for h in hands], None, [], [[]] * 4, 4)
    options = opts(**{"pass": "cycle", "hearts_break": True})
    # seat 0 wins trick 1 with AC, no heart was discarded, and holds only hearts
    tokens = finish(setup, options, ["2C", "3C", "2D", "AC", "3H"], random.Random(2))
    assert GAME.replay(setup, tokens, options).moves == 52


def test_hearts_break_refuses_an_early_heart_lead():
    rng = random.Random(11)
    options = opts(hearts_break=True)
    plain = opts()
    for _ in range(200):
        setup, tokens, _, _ = simulate(4, plain, rng, skill=0.0)
        state = GAME.new_deal(setup, plain)
        expected = None
        for index, token in enumerate(tokens):
            card = parse_card(token)
            hand = state.hands[state.turn]
            leading = state.trick_len == 0
            if leading and card in range(13, 26) and not state.hearts_broken and hand & ~HEARTS:
                expected = (index + 1, state.turn)
                break
            GAME.play(state, card)
        if expected:
            break
    assert expected, "no early heart lead found in 200 random deals"
    err = record_error(setup, tokens, options)
    assert (err.rule, err.move, err.seat) == ("hearts-break", *expected)
    assert "hearts may not be led" in err.message


# ------------------------------------------------------------- first lead, play

def test_lowest_club_in_play_leads():
    for n, options, first in [(4, opts(), "2C"), (3, opts(), "3C"), (5, opts(), "3C"),
                              (3, opts(three_no_twos=True), "3C")]:
        setup, tokens, _, state = simulate(n, options, random.Random(n))
        assert tokens[0] == first
        holder = next(s for s, h in enumerate(state.start_hands) if h >> parse_card(first) & 1)
        fresh = GAME.new_deal(setup, options)
        assert GAME.to_move(fresh) == holder and GAME.legal_moves(fresh) == [parse_card(first)]


def test_first_card_must_be_the_lowest_club():
    setup, tokens = seed_deal()
    bad = ["3C"] + tokens[1:]
    err = record_error(setup, bad, opts())
    assert (err.rule, err.move, err.seat) == ("first-lead", 1, 3)
    assert "2C" in err.message and "lowest club" in err.message


def test_follow_suit():
    setup, tokens = seed_deal()
    # trick 4: Daniel leads 8C; Anne holds 7C (and KC, QC, JC) but plays AS
    bad = tokens[:13] + ["AS"] + tokens[14:]
    err = record_error(setup, bad, opts())
    assert (err.rule, err.move, err.seat) == ("follow-suit", 14, 0)
    assert err.message == "must follow suit (clubs led): holds 7C, JC, QC, KC"


def test_card_not_held_and_record_length():
    setup, tokens = seed_deal()
    bad = tokens[:5] + ["KD"] + tokens[6:]  # Bo does not hold KD (Cecilie does)
    err = record_error(setup, bad, opts())
    assert (err.rule, err.move, err.seat) == ("card-not-held", 6, 1)
    assert "KD" in err.message and "seat 2" in err.message
    err = record_error(setup, tokens + ["2C"], opts())
    assert (err.rule, err.move) == ("record-too-long", 53)
    err = record_error(setup, tokens[:-1], opts())
    assert err.rule == "record-incomplete"
    err = record_error(setup, tokens[:7] + ["XX"] + tokens[8:], opts())
    assert (err.rule, err.move, err.seat, err.token) == ("notation", 8, 3, "XX")


# ------------------------------------------------------------------- passing

def test_passes_follow_the_direction_of_the_deal():
    for n, cycle in [(4, ["left", "right", "across", "none"]), (3, ["left", "right", "none"]),
                     (5, ["left", "right", "none"])]:
        options = opts(**{"pass": "cycle"})
        rng = random.Random(n)
        for deal_number, direction in enumerate(cycle * 2, 1):
            setup, _, _, state = simulate(n, options, rng, deal_number)
            assert state.direction == direction
            offset = {"left": 1, "right": -1, "across": 2, "none": 0}[direction]
            for seat in range(n):
                own = set(setup.hands[seat]) - set(setup.passes[seat])
                got = set(setup.passes[(seat - offset) % n]) if offset else set()
                assert set(cards_of(state.start_hands[seat])) == own | got
            if direction == "none":
                assert not any(setup.passes)


def _with_pass(setup, seat, cards):
    passes = [list(p) for p in setup.passes]
    passes[seat] = cards
    return DealSetup(setup.nplayers, setup.dealer, setup.hands, None, setup.stock, passes, setup.deal_number)


def test_pass_mutations():
    setup, _ = seed_deal()
    anne = setup.hands[0]
    assert QS in anne or QS in setup.hands[1]
    bo = setup.hands[1]
    assert QS in bo and AH not in bo
    options = opts()
    err = setup_error(_with_pass(setup, 1, [QS] + setup.passes[1][1:]), options)
    assert (err.rule, err.column) == ("qs-not-passed", "passes") and "queen of spades" in err.message
    err = setup_error(_with_pass(setup, 1, setup.passes[1][:2]), options)
    assert err.rule == "pass-count" and "3" in err.message
    err = setup_error(_with_pass(setup, 1, setup.passes[0]), options)
    assert err.rule == "pass-not-held"
    # Anne passes AH (to Bo, as SEED_RECEIVED says)
    assert AH in setup.passes[0]
    err = setup_error(setup, opts(protect_ace_hearts=True))
    assert err.rule == "ah-not-passed" and "ace of hearts" in err.message
    # qs_with_jd: QS only together with JD
    err = setup_error(_with_pass(setup, 1, [QS] + setup.passes[1][1:]), opts(qs_with_jd=True))
    assert err.rule == "qs-with-jd" and "jack of diamonds" in err.message
    missing = DealSetup(4, 1, setup.hands, None, [], None, 1)
    assert setup_error(missing, options).rule == "pass-count"


def test_qs_with_jd_allows_the_pair():
    setup, _ = seed_deal()
    two_s = parse_card("2S")
    assert two_s in setup.hands[1] and JD in setup.hands[2] and JD in setup.passes[2]
    # Bo is dealt JD instead of 2S (Cecilie gets 2S and passes it where she passed JD)
    hands = [list(h) for h in setup.hands]
    hands[1] = sorted(set(hands[1]) - {two_s} | {JD})
    hands[2] = sorted(set(hands[2]) - {JD} | {two_s})
    passes = [list(p) for p in setup.passes]
    passes[2] = [two_s if c == JD else c for c in passes[2]]
    passes[1] = [QS, JD, passes[1][0]]
    good = DealSetup(4, 1, hands, None, [], passes, 1)
    state = GAME.new_deal(good, opts(qs_with_jd=True))
    assert state.start_hands[2] >> QS & 1 and state.start_hands[2] >> JD & 1
    assert not state.start_hands[1] >> QS & 1
    assert setup_error(good, opts()).rule == "qs-not-passed"


def test_no_pass_deal_needs_empty_passes():
    setup, _ = seed_deal()
    cycle = opts(**{"pass": "cycle"})
    no_pass = DealSetup(4, 1, setup.hands, None, [], setup.passes, 4)
    err = setup_error(no_pass, cycle)
    assert (err.rule, err.column) == ("no-pass-deal", "passes")
    assert GAME.new_deal(DealSetup(4, 1, setup.hands, None, [], [[], [], [], []], 4), cycle)
    assert GAME.new_deal(DealSetup(4, 1, setup.hands, None, [], None, 4), cycle)
    # deal 2 of a cycle passes to the right: the seed's passes are still legal cards
    state = GAME.new_deal(DealSetup(4, 1, setup.hands, None, [], setup.passes, 2), cycle)
    assert state.direction == "right"


# -------------------------------------------------------------------- the deal

def test_deal_mutations():
    setup, _ = seed_deal()
    options = opts()
    hands = [list(h) for h in setup.hands]
    err = setup_error(DealSetup(2, 0, hands[:2], None, [], None, 1), options)
    assert (err.rule, err.column) == ("player-count", "players")
    err = setup_error(DealSetup(4, None, hands, None, [], setup.passes, 1), options)
    assert (err.rule, err.column) == ("dealer", "dealer")
    dup = [list(h) for h in hands]
    dup[2][0] = dup[3][0]
    err = setup_error(DealSetup(4, 1, dup, None, [], setup.passes, 1), options)
    assert (err.rule, err.column) == ("duplicate-card", "hands") and CARD_NAMES[dup[3][0]] in err.message
    short = [list(h) for h in hands]
    moved = short[0].pop()
    err = setup_error(DealSetup(4, 1, short, None, [moved], setup.passes, 1), options)
    assert (err.rule, err.column) == ("hand-size", "hands") and "12 cards" in err.message
    # three players: 2C is removed and listed in the stock
    rng = random.Random(4)
    three = GAME.random_setup(3, 0, 1, options, rng)
    assert three.stock == [parse_card("2C")] and all(len(h) == 17 for h in three.hands)
    err = setup_error(DealSetup(3, 0, three.hands, None, [], three.passes, 1), options)
    assert (err.rule, err.column) == ("removed-cards", "stock") and "2C" in err.message
    five = GAME.random_setup(5, 0, 1, options, rng)
    assert sorted(five.stock) == sorted(parse_cards("2C 2D")) and all(len(h) == 10 for h in five.hands)
    twos = GAME.random_setup(3, 0, 1, opts(three_no_twos=True), rng)
    assert sorted(twos.stock) == sorted(parse_cards("2S 2H 2D 2C")) and all(len(h) == 16 for h in twos.hands)


# ------------------------------------------------------- simulated properties

@settings(max_examples=120, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), raw=trick_helpers.SPARDAME_OPTIONS,
       seed=st.integers(0, 2**32 - 1), deal_number=st.integers(1, 6), skill=st.sampled_from([0.0, 0.5, 1.0]))
def test_simulated_deals_replay_and_keep_the_invariants(n, raw, seed, deal_number, skill):
    options = opts(**raw)
    setup, tokens, stepwise, state = simulate(n, options, random.Random(seed), deal_number, skill)
    fused = GAME.replay(setup, tokens, options)
    generic = Game.replay(GAME, setup, tokens, options)
    assert fused == generic and fused.scores == stepwise.scores
    assert fused.moves == len(tokens) == sum(len(h) for h in setup.hands)
    hearts = 12 if (n == 3 and raw["three_no_twos"]) else 13
    deal_total = 120 + 10 * (hearts - 1)
    idle = [s for s in range(n) if s not in state.winners]
    base = list(fused.scores)
    for s in idle:
        base[s] -= raw["no_trick_bonus"]
    if raw["jd_bonus"]:
        taker = state.winners[next(t for t, m in enumerate(state.trick_masks) if m >> JD & 1)]
        base[taker] -= raw["jd_bonus"]
    moon = [e for e in fused.events if e.kind == "moon"]
    if moon:
        assert sorted(base) == [0] + [100] * (n - 1)
    else:
        assert sum(base) == deal_total and all(b % 10 == 0 and b >= 0 for b in base)
    assert GAME.check_score_sheet(DealSetup(n, setup.dealer), fused.scores, options).scores == fused.scores
    assert [GAME.format_move(GAME.parse_move(t.lower())) for t in tokens] == tokens


def test_legal_moves_match_play():
    options = opts(hearts_break=True, no_points_first_trick=True)
    setup, tokens, _, _ = simulate(4, options, random.Random(8), skill=0.0)
    trick_helpers.assert_legal_moves_match_play(GAME, setup, options, tokens)


def test_heuristic_beats_random_play():
    bot, rest = trick_helpers.heuristic_against_random(GAME, opts())
    assert bot < 0.7 * rest


# ------------------------------------------------------------------- notation

def test_notation_round_trip_and_bad_tokens():
    for card in range(52):
        text = GAME.format_move(card)
        assert GAME.parse_move(text) == card and GAME.parse_move(text.lower()) == card
    assert GAME.parse_move("10h") == parse_card("TH")
    assert GAME.parse_move("Q♠") == QS
    for bad in ["", "1S", "QX", "Q", "QSS", "11C"]:
        with pytest.raises(IllegalMove) as caught:
            GAME.parse_move(bad)
        assert caught.value.rule == "notation"


# ---------------------------------------------------------------- score sheets

@pytest.mark.parametrize("n, raw, scores", [
    (4, {}, [120, 40, 30, 50]),
    (4, {}, [0, 100, 100, 100]),
    (4, {}, [240 - 10, 10, 0, 0]),  # QS, AH and 11 hearts: not all, so no moon
    (3, {}, [100, 140, 0]),
    (5, {}, [100, 20, 40, 40, 40]),
    (3, {"three_no_twos": True}, [230 - 10, 10, 0]),
    (3, {"three_no_twos": True}, [100, 100, 0]),
    (4, {"jd_bonus": -100}, [20, -100, 100, 120]),
    (4, {"jd_bonus": -100}, [-100, 100, 100, 100]),
    (4, {"jd_bonus": -50, "no_trick_bonus": -50}, [190, -50, -50, 50]),
    (4, {"no_trick_bonus": -50}, [0, 50, 50, 100]),
])
def test_score_sheet_accepted(n, raw, scores):
    outcome = GAME.check_score_sheet(DealSetup(n, 0), scores, opts(**raw))
    assert outcome.verified == "scores" and outcome.scores == scores and len(outcome.places) == n


@pytest.mark.parametrize("n, raw, scores, rule, words", [
    (4, {}, [120, 40, 30, 40], "score-sheet-total", "totals 230"),
    (4, {}, [240, 0, 0, 0], "score-sheet-value", "score 240"),
    (4, {}, [125, 40, 30, 45], "score-sheet-value", "score 125"),
    (4, {}, [90, 90, 60, 0], "score-sheet-split", "cannot come from one deal"),  # no seat took QS
    (4, {}, [0, 100, 100, 50], "score-sheet-total", "totals 250"),
    (4, {}, [-50, 100, 100, 90], "score-sheet-value", "score -50"),
    (3, {"three_no_twos": True}, [120, 120, 0], "score-sheet-total", "totals 240"),
    (4, {"jd_bonus": -100}, [120, 40, 30, 50], "score-sheet-total", "totals 240"),
    (4, {"jd_bonus": -50}, [90, 90, 60, -50], "score-sheet-split", "cannot come"),
    (4, {"no_trick_bonus": -50}, [170, 60, -50, 0], "score-sheet-total", "totals 180"),
    (4, {}, [120, 40, 80], "score-sheet-seats", "3 scores"),
])
def test_score_sheet_rejected(n, raw, scores, rule, words):
    with pytest.raises(IllegalMove) as caught:
        GAME.check_score_sheet(DealSetup(n, 0), scores, opts(**raw))
    assert caught.value.rule == rule and words in caught.value.message


def test_score_sheet_total_message_names_the_rule():
    with pytest.raises(IllegalMove) as caught:
        GAME.check_score_sheet(DealSetup(4, 0), [120, 40, 30, 40], opts())
    assert caught.value.message == \
        "spardame deal totals 230; a deal gives 240, or 0 and 3 times 100 when the moon is shot"


# ------------------------------------------------------------------ options

def test_options_and_match_rules():
    assert GAME.match_rules(opts()).deals is None and GAME.match_rules(opts()).target is None
    assert GAME.match_rules(opts(deals=4)).deals == 4
    assert GAME.match_rules(opts(target=500)).target == 500
    with pytest.raises(OptionError):
        opts(deals=4, target=500)
    with pytest.raises(OptionError):
        opts(jd_bonus=-75)
    with pytest.raises(OptionError):
        opts(**{"pass": "across"})
    keys = {o["key"] for o in GAME.describe()["options"]}
    assert keys == {"pass", "protect_ace_hearts", "qs_with_jd", "three_no_twos", "hearts_break",
                    "no_points_first_trick", "jd_bonus", "no_trick_bonus", "deals", "target"}


def test_the_pass_cycle_sentence_is_true_at_every_table_size():
    """pass=cycle passes across only at tables of 4 (3 and 5: left, right, none);
    the sentence the pages, `event show` and `variants` print says so."""
    spec = next(s for s in GAME.option_specs if s.key == "pass")
    said = spec.sentence("cycle").english()
    assert "left, right, across and not at all" in said
    assert "at tables of 3 or 5, left, right and not at all" in said
    assert "tables of 3 or 5 left, right, none" in spec.doc
