"""The engines' replay fast paths held to their careful paths.

Every engine's ``replay`` has a fast path (state in locals, fewer checks per move,
events built only when read) and falls back to the careful path on any doubt. The
careful path is the reference: the generic :meth:`Game.replay` (per-token
``parse_move`` and ``play``), :func:`play_cards`, the rule-by-rule setup checks.
Simulated records, and mutations of them that break every kind of rule, must give
the same outcome or the same error (rule, move, seat, token, message) both ways.
"""
from __future__ import annotations

import dataclasses
import random

import pytest
import trick_helpers
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cards import CARD_NAMES, QS
from tourney.engines import dam_brade as dam_brade_module
from tourney.engines import dam_stick as dam_stick_module
from tourney.engines import get_game
from tourney.engines import row_games as row_games_module
from tourney.engines import spardame as spardame_module
from tourney.engines import svarta_maja as svarta_maja_module
from tourney.engines import trick_play as trick_play_module
from tourney.engines.base import (
    DealEvent,
    DealOutcome,
    DealSetup,
    Game,
    LazyEventsOutcome,
    places_from_scores,
)
from tourney.engines.dam_brade import (
    PARSE_CACHE_SIZE,
    TOKEN_TABLE,
    MultiCaptureEvent,
    mask_of,
)
from tourney.engines.dam_stick import QUEEN_POINTS, QUEENS_MASK, queen_points
from tourney.engines.spardame import penalty
from tourney.engines.svarta_maja import HALF_CACHE_SIZE
from tourney.engines.trick_play import TrickState, play_cards, play_whole_deal
from tourney.errors import IllegalMove, RecordError
from tourney.simulation import finish_deal

DAM_STICK = get_game("dam-stick")
SPARDAME = get_game("spardame")
SVARTA_MAJA = get_game("svarta-maja")
DAM_BRADE = get_game("dam-brade")
KORTRAD = get_game("kortrad")


# ------------------------------------------------------------------ helpers

def events_of(outcome) -> list[tuple]:
    return [(e.move, e.seat, e.kind, e.text) for e in outcome.events]


def result_of(replay, game, setup, tokens, options):
    """An outcome as plain values, or the error's identifying fields."""
    try:
        out = replay(game, setup, tokens, options)
    except RecordError as err:
        return ("error", err.rule, err.column, err.move, err.seat, err.token, err.message)
    return ("outcome", out.scores, out.places, out.verified, out.moves, events_of(out))


def assert_same(game, setup, tokens, options, reference=Game.replay):
    """The engine's replay and the reference give the same; returns that."""
    fast = result_of(type(game).replay, game, setup, tokens, options)
    careful = result_of(reference, game, setup, tokens, options)
    assert fast == careful, (tokens, fast, careful)
    return fast


def bot_tokens(game, setup, options, rng, skill) -> list[str]:
    return finish_deal(game, game.new_deal(setup, options), rng, skill)


def mutations(tokens: list[str], rng: random.Random, spellings) -> list[list[str]]:
    """Records that break rules in many ways: swapped, replaced, dropped, repeated,
    re-spelled tokens; cut short; going on after the end; garbage."""
    out = []
    n = len(tokens)
    for _ in range(3):
        i, j = rng.randrange(n), rng.randrange(n)
        swapped = list(tokens)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        out.append(swapped)
    for _ in range(3):
        replaced = list(tokens)
        replaced[rng.randrange(n)] = rng.choice(spellings)
        out.append(replaced)
    i = rng.randrange(n)
    out.append(tokens[:i] + tokens[i + 1:])
    out.append(tokens[:i] + [tokens[i]] + tokens[i:])
    out.append(tokens[:rng.randrange(n)])
    out.append(tokens + [rng.choice(spellings)])
    respelled = list(tokens)
    respelled[i] = respelled[i].lower()
    out.append(respelled)
    out.append(tokens[:i] + ["??"] + tokens[i + 1:])
    out.append([])
    return out


# ------------------------------------------------------- LazyEventsOutcome

def test_lazy_events_are_built_once_on_first_read():
    calls = []

    def build(seat):
        calls.append(seat)
        return [DealEvent(3, seat, "out", f"seat {seat} is out")]

    lazy = LazyEventsOutcome([0, 1], [1, 2], "moves", None, 3, build, (1,))
    assert calls == []
    first = lazy.events
    assert calls == [1] and first == [DealEvent(3, 1, "out", "seat 1 is out")]
    assert lazy.events is first and calls == [1]
    eager = DealOutcome([0, 1], [1, 2], "moves", [DealEvent(3, 1, "out", "seat 1 is out")], 3)
    assert lazy == eager and eager == lazy
    assert (lazy != eager) is False  # __ne__ follows __eq__
    assert lazy != DealOutcome([0, 1], [1, 2], "moves", [], 3)
    assert dataclasses.asdict(lazy) == dataclasses.asdict(eager)
    changed = dataclasses.replace(lazy, scores=[1, 0])
    assert changed.scores == [1, 0] and changed.events == first
    lazy.events = []
    assert lazy.events == [] and lazy != eager
    assert LazyEventsOutcome([0], [1]).events == []


@pytest.mark.parametrize("game, module", [
    (DAM_STICK, dam_stick_module), (SPARDAME, spardame_module),
    (SVARTA_MAJA, svarta_maja_module), (KORTRAD, row_games_module),
])
def test_replay_builds_events_only_when_read(game, module, monkeypatch):
    calls = []
    builder = module._deal_events

    def counting(*args):
        calls.append(1)
        return builder(*args)

    monkeypatch.setattr(module, "_deal_events", counting)
    options = game.resolve_options()
    rng = random.Random(5)
    setup = game.random_setup(4, 0, 1, options, rng)
    out = game.replay(setup, bot_tokens(game, setup, options, rng, 0.5), options)
    assert calls == []
    events = out.events
    assert calls == [1] and out.events is events


def test_valid_records_stay_on_the_fast_paths(monkeypatch):
    """A fast path that refused a legal move would still give the right answer
    (the careful path takes over), only slowly: valid records must not need it."""
    records = []
    for seed in range(12):
        rng = random.Random(seed)
        for game, n in ((DAM_STICK, 3 + seed % 4), (SPARDAME, 3 + seed % 3),
                        (SVARTA_MAJA, 2 + seed % 5), (DAM_BRADE, 2)):
            options = game.resolve_options()
            setup = game.random_setup(n, 0 if game.uses_dealer else None, 1 + seed % 4, options, rng)
            records.append((game, setup, bot_tokens(game, setup, options, rng, 0.5), options))
    careful = []
    monkeypatch.setattr(trick_play_module, "play_cards", lambda *args: careful.append("cards"))
    maja_play = type(SVARTA_MAJA).play
    monkeypatch.setattr(type(SVARTA_MAJA), "play",
                        lambda self, state, move: careful.append("maja") or maja_play(self, state, move))
    brade_play = type(DAM_BRADE).play
    kinds = []
    monkeypatch.setattr(type(DAM_BRADE), "play",
                        lambda self, state, move: kinds.append(move[0]) or brade_play(self, state, move))
    for game, setup, tokens, options in records:
        careful.clear()
        kinds.clear()
        game.replay(setup, tokens, options)
        assert careful == [], (game.id, tokens)
        # dam-brade: steps never go through play(); most single jumps do not either
        assert "-" not in kinds and len(kinds) < len(tokens) / 4


# ------------------------------------------------------------- trick games

def trick_state_of(st_) -> dict:
    return {name: (list(value) if isinstance(value, list) else value)
            for name in TrickState.__slots__ if name != "game"
            for value in [getattr(st_, name)]}


def check_trick_records(game, setup, tokens, options, rng, valid=True):
    card_names = list(CARD_NAMES) + ["10h", "qs ", "XX"]
    verdict = assert_same(game, setup, tokens, options)[0]
    if valid:  # else the record may break a house rule it was not played under
        assert verdict == "outcome"
    for record in mutations(tokens, rng, card_names):
        assert_same(game, setup, record, options)
    # play_whole_deal and play_cards: the same verdict, and the same state
    cards = [game.parse_move(t) for t in tokens]
    for sequence in [cards] + [[game.parse_move(t) for t in m] for m in mutations(tokens, rng, CARD_NAMES)
                               if len(m) == len(cards) and "??" not in m]:
        fast = game.new_deal(setup, options)
        before = trick_state_of(fast)
        careful = game.new_deal(setup, options)
        try:
            play_cards(careful, sequence)
            legal = True
        except IllegalMove:
            legal = False
        assert play_whole_deal(fast, sequence, len(sequence)) is legal
        assert trick_state_of(fast) == (trick_state_of(careful) if legal else before)


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), raw=trick_helpers.SPARDAME_OPTIONS,
       seed=st.integers(0, 2**32 - 1), deal_number=st.integers(1, 4), skill=st.sampled_from([0.0, 0.5, 1.0]))
def test_spardame_fast_replay_matches_the_careful_one(n, raw, seed, deal_number, skill):
    options = SPARDAME.resolve_options(raw)
    rng = random.Random(seed)
    setup = SPARDAME.random_setup(n, rng.randrange(n), deal_number, options, rng)
    check_trick_records(SPARDAME, setup, bot_tokens(SPARDAME, setup, options, rng, skill), options, rng)


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1),
       hearts_break=st.booleans(), no_points=st.booleans())
def test_spardame_house_rules_broken_by_a_record_played_without_them(n, seed, hearts_break, no_points):
    """Random play without hearts_break / no_points_first_trick, replayed with them."""
    plain = SPARDAME.resolve_options()
    strict = SPARDAME.resolve_options({"hearts_break": hearts_break, "no_points_first_trick": no_points})
    rng = random.Random(seed)
    setup = SPARDAME.random_setup(n, rng.randrange(n), 1, plain, rng)
    check_trick_records(SPARDAME, setup, bot_tokens(SPARDAME, setup, plain, rng, 0.0), strict, rng,
                        valid=False)


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([3, 4, 5, 6]), seed=st.integers(0, 2**32 - 1))
def test_dam_stick_house_rule_broken_by_a_record_played_without_it(n, seed):
    plain = DAM_STICK.resolve_options()
    strict = DAM_STICK.resolve_options({"no_queen_first_trick": True})
    rng = random.Random(seed)
    setup = DAM_STICK.random_setup(n, rng.randrange(n), 1, plain, rng)
    check_trick_records(DAM_STICK, setup, bot_tokens(DAM_STICK, setup, plain, rng, 0.0), strict, rng,
                        valid=False)


@pytest.mark.parametrize("game, raw", [
    (DAM_STICK, {"no_queen_first_trick": True}),
    (SPARDAME, {"no_points_first_trick": True, "hearts_break": True, "pass": "cycle"}),
])
def test_first_trick_discards_with_one_suit_per_seat(game, raw):
    """Each seat holds one suit, so every card after a lead is a discard: random
    play breaks the first-trick and hearts rules often, and not always."""
    strict = game.resolve_options(raw)
    plain = game.resolve_options({"pass": "cycle"} if game is SPARDAME else {})
    hands = [list(range(13 * suit, 13 * suit + 13)) for suit in range(4)]
    # spardame deal 4 of a cycle has no passing
    setup = DealSetup(4, 1, hands, None, [], [[], [], [], []] if game is SPARDAME else None, 4)
    verdicts = set()
    for seed in range(40):
        rng = random.Random(seed)
        tokens = bot_tokens(game, setup, plain, rng, 0.0)
        result = assert_same(game, setup, tokens, strict)
        verdicts.add("legal" if result[0] == "outcome" else result[1])
        check_trick_records(game, setup, tokens, strict, rng, valid=False)
    # some records keep the rules, some break the first-trick rule
    assert "legal" in verdicts and verdicts & {"no-queen-first-trick", "no-points-first-trick"}


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([3, 4, 5, 6]), barred=st.booleans(), seed=st.integers(0, 2**32 - 1),
       skill=st.sampled_from([0.0, 0.5, 1.0]))
def test_dam_stick_fast_replay_matches_the_careful_one(n, barred, seed, skill):
    options = DAM_STICK.resolve_options({"no_queen_first_trick": barred})
    rng = random.Random(seed)
    setup = DAM_STICK.random_setup(n, rng.randrange(n), 1, options, rng)
    check_trick_records(DAM_STICK, setup, bot_tokens(DAM_STICK, setup, options, rng, skill), options, rng)


def spardame_setup_mutations(setup: DealSetup, rng: random.Random) -> list[DealSetup]:
    """Deals that break the setup rules: cards moved, repeated, missing, out of
    range; passes too many, too few, not held, QS and AH passed; odd seats."""
    out = []

    def variant(**change):
        fresh = DealSetup(setup.nplayers, setup.dealer, [list(h) for h in setup.hands], None,
                          list(setup.stock), [list(p) for p in setup.passes or []] or setup.passes,
                          setup.deal_number)
        for key, value in change.items():
            setattr(fresh, key, value)
        out.append(fresh)
        return fresh

    n = setup.nplayers
    variant()
    hands = [list(h) for h in setup.hands]
    a, b = rng.sample(range(n), 2)
    hands[a].append(hands[b].pop())
    variant(hands=hands)
    hands = [list(h) for h in setup.hands]
    hands[a][0] = hands[b][0]
    variant(hands=hands)
    hands = [list(h) for h in setup.hands]
    hands[a][0] = rng.choice([52, -1, "QS", None])
    variant(hands=hands)
    variant(stock=[])
    variant(stock=list(setup.stock) + [setup.hands[0][0]])
    variant(dealer=n)
    variant(dealer=None)
    variant(nplayers=n + 1)
    variant(hands=setup.hands[:-1])
    if setup.passes and any(setup.passes):
        passes = [list(p) for p in setup.passes]
        passes[a] = passes[a][:-1]
        variant(passes=passes)
        passes = [list(p) for p in setup.passes]
        passes[a][0] = setup.hands[b][0]
        variant(passes=passes)
        passes = [list(p) for p in setup.passes]
        passes[a][0] = passes[a][1]
        variant(passes=passes)
        passes = [list(p) for p in setup.passes]
        passes[a] = passes[a] + [passes[a][0]]
        variant(passes=passes)
        for card in (QS, 25):  # QS, AH: from the hand holding it
            holder = next(s for s in range(n) if card in setup.hands[s])
            passes = [list(p) for p in setup.passes]
            if card not in passes[holder]:
                passes[holder][0] = card
            variant(passes=passes)
        variant(passes=setup.passes[:-1])
        variant(passes=None)
    else:
        variant(passes=[[h[0]] for h in setup.hands])
    return out


def new_deal_result(new_deal, setup, options):
    try:
        state = new_deal(setup, options)
    except RecordError as err:
        return ("error", err.rule, err.column, err.message)
    return ("state", trick_state_of(state), state.point_cards, state.deal_points, state.jd_bonus,
            state.no_trick_bonus, state.direction, state.passed)


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), raw=trick_helpers.SPARDAME_OPTIONS,
       seed=st.integers(0, 2**32 - 1), deal_number=st.integers(1, 4))
def test_spardame_deal_checks_fast_and_careful_agree(n, raw, seed, deal_number):
    options = SPARDAME.resolve_options(raw)
    rng = random.Random(seed)
    setup = SPARDAME.random_setup(n, rng.randrange(n), deal_number, options, rng)
    for variant in spardame_setup_mutations(setup, rng):
        assert (new_deal_result(SPARDAME.new_deal, variant, options)
                == new_deal_result(SPARDAME._new_deal_checked, variant, options))


def test_queen_points_table_and_heart_points_lookup():
    rng = random.Random(3)
    for _ in range(300):
        mask = rng.getrandbits(52)
        assert QUEEN_POINTS[mask & QUEENS_MASK] == queen_points(mask)
    assert len(QUEEN_POINTS) == 16
    # spardame scores (no moon) are the penalties of the cards taken
    options = SPARDAME.resolve_options()
    for seed in range(30):
        rng = random.Random(seed)
        setup = SPARDAME.random_setup(4, 0, 1, options, rng)
        tokens = bot_tokens(SPARDAME, setup, options, rng, 0.0)
        state = SPARDAME.new_deal(setup, options)
        for token in tokens:
            SPARDAME.play(state, SPARDAME.parse_move(token))
        out = SPARDAME.outcome(state)
        penalties = [penalty(m) for m in state.taken]
        if 240 in penalties:
            assert sorted(out.scores) == [0, 100, 100, 100]
        else:
            assert out.scores == penalties
        assert out.places == places_from_scores(out.scores)


# --------------------------------------------------------------- dam-brade

def reference_brade_replay(game, setup, tokens, options):
    """dam-brade's replay as it was before the fused loop: every token through
    parse_move and play."""
    state = game.new_deal(setup, options)
    number = 0
    for token in tokens:
        number += 1
        try:
            game.play(state, game.parse_move(token))
        except IllegalMove as err:
            seat = state.turn if state.result is None else None
            raise RecordError.from_illegal(err, column="play", move=number, seat=seat,
                                           token=token) from None
    if state.result is None:
        raise RecordError(
            f"the record stops after {number} moves while the game is not over: "
            "a game the rules do not decide must end with a result token "
            "(1-0, 0-1 or 1/2-1/2)",
            rule="record-incomplete", column="play",
        )
    return game.outcome(state)


BRADE_SPELLINGS = sorted(TOKEN_TABLE) + ["h18", "15X24", "11\u201315", "1-33", "x", "11-15-19"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), skills=st.sampled_from([(1.0, 1.0), (0.3, 1.0), (0.0, 0.7)]),
       huff=st.sampled_from(["any", "capturer"]))
def test_dam_brade_fast_replay_matches_the_careful_one(seed, skills, huff):
    options = DAM_BRADE.resolve_options({"huff": huff})
    rng = random.Random(seed)
    setup = DAM_BRADE.random_setup(2, None, 1, options, rng)
    state = DAM_BRADE.new_deal(setup, options)
    tokens = finish_deal(DAM_BRADE, state, rng, skills)
    # a record may or may not end with a result token after a decided end
    records = [tokens, tokens + [DAM_BRADE.format_move(("R", dam_brade_module.SCORE_RESULTS[state.result]))]]
    # results at any point: resignations, agreed draws, and on a decided end
    cut = rng.randrange(len(tokens))
    records += [tokens[:cut] + [result] for result in ("1-0", "0-1", "1/2-1/2")]
    records += mutations(tokens, rng, BRADE_SPELLINGS)
    # a multi-jump cut short: the capture must go on
    for i, token in enumerate(tokens):
        if token.count("x") > 1:
            records.append(tokens[:i] + ["x".join(token.split("x")[:2])] + tokens[i + 1:])
    for record in records:
        assert_same(DAM_BRADE, setup, record, options, reference_brade_replay)
    assert assert_same(DAM_BRADE, setup, tokens, options, reference_brade_replay)[0] == "outcome"


def test_dam_brade_game_ended_by_a_plain_move():
    """A step or a single capture that leaves the other side without a legal move,
    or a capture that leaves one king each, ends the game at once (the fused loop
    checks "no legal move" only at the next token): then a result must agree and
    any move is one too many."""
    options = DAM_BRADE.resolve_options()
    found = set()
    for seed in range(200):
        rng = random.Random(seed)
        skill = 0.0 if seed % 2 else 0.8  # random games end in lone kings more often
        setup = DAM_BRADE.random_setup(2, None, 1, options, rng)
        state = DAM_BRADE.new_deal(setup, options)
        tokens = finish_deal(DAM_BRADE, state, rng, skill)
        kind = TOKEN_TABLE.get(tokens[-1], "?")[0]
        if "no legal move" in state.end_reason:
            kind += " no move"
        elif "one king" in state.end_reason:
            kind += " lone kings"
        else:
            continue
        if kind in found:
            continue
        found.add(kind)
        right = dam_brade_module.SCORE_RESULTS[state.result]
        wrong = "1/2-1/2"
        going_on = state.copy()
        going_on.result = None  # as if the game were not over: a move legal there
        extra = DAM_BRADE.format_move(DAM_BRADE.legal_moves(going_on)[0]) if DAM_BRADE.legal_moves(going_on) \
            else tokens[-2]
        for record in (tokens, tokens + [right], tokens + [wrong], tokens + [extra]):
            assert_same(DAM_BRADE, setup, record, options, reference_brade_replay)
        assert DAM_BRADE.replay(setup, tokens, options).scores == list(state.result)
        if {"- no move", "x no move", "x lone kings"} <= found:
            return
    pytest.fail(f"not every kind of end was found: {found}")


def test_multi_capture_event_words_its_text_when_read():
    event = MultiCaptureEvent(7, 1, mask_of([6, 7, 14]))
    assert event._text is None
    assert event.text == "White captured 3 pieces: 6, 7, 14"
    assert event == DealEvent(7, 1, "multi-capture", "White captured 3 pieces: 6, 7, 14")
    assert DealEvent(7, 1, "multi-capture", "White captured 3 pieces: 6, 7, 14") == event
    assert event != DealEvent(7, 1, "multi-capture", "White captured 2 pieces: 6, 7")
    assert dataclasses.asdict(event)["text"] == event.text
    event.text = "changed"
    assert event.text == "changed"


def test_dam_brade_parse_cache_is_bounded_and_parses_as_parse_move():
    game = type(DAM_BRADE)()
    rng = random.Random(11)
    tokens = {"x".join(str(rng.randint(1, 32)) for _ in range(rng.randint(3, 5)))
              for _ in range(PARSE_CACHE_SIZE + 500)}
    for token in tokens:
        assert game._parse_cached(token) == game.parse_move(token)
        assert len(game._parse_cache) <= PARSE_CACHE_SIZE
    assert game._parse_cached("11-15") is TOKEN_TABLE["11-15"]
    with pytest.raises(IllegalMove):
        game._parse_cached("11-99")
    assert "11-99" not in game._parse_cache


# ------------------------------------------------------------- svarta-maja

def maja_spellings(rng: random.Random) -> list[str]:
    names = list(CARD_NAMES)
    out = []
    for _ in range(40):
        k = rng.randint(1, 3)
        attack = rng.sample(names, k)
        answers = [rng.choice(names + ["-"]) for _ in range(k)]
        out.append(",".join(attack) + "/" + ",".join(answers))
    return out + ["7d/jd", "7D,7D/-,-", "7D/-/-", "7D", "/", "QS/-", "10H/-"]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 10**9), hand_size=st.sampled_from([5, 6]),
       spade_trump=st.booleans(), skill=st.sampled_from([0.0, 0.5, 1.0]))
def test_svarta_maja_fast_replay_matches_the_careful_one(n, seed, hand_size, spade_trump, skill):
    options = SVARTA_MAJA.resolve_options({"hand_size": hand_size, "spade_trump": spade_trump})
    rng = random.Random(seed)
    setup = SVARTA_MAJA.random_setup(n, rng.randrange(n), 1, options, rng)
    tokens = bot_tokens(SVARTA_MAJA, setup, options, rng, skill)
    assert assert_same(SVARTA_MAJA, setup, tokens, options)[0] == "outcome"
    spellings = maja_spellings(rng) + tokens
    for record in mutations(tokens, rng, spellings) + maja_big_attacks(setup, tokens, options):
        assert_same(SVARTA_MAJA, setup, record, options)


def maja_big_attacks(setup, tokens, options, limit=4) -> list[list[str]]:
    """Records where an attack uses one card more than the defender holds (and,
    for contrast, exactly as many), nothing beaten."""
    out = []
    state = SVARTA_MAJA.new_deal(setup, options)
    for i, token in enumerate(tokens):
        held = state.hands[state.attacker]
        room = state.hands[state.defender].bit_count()
        for suit in range(4):
            cards = [CARD_NAMES[c] for c in range(13 * suit, 13 * suit + 13) if held >> c & 1]
            if len(cards) > room:
                for size in (room + 1, room):
                    attack = cards[:size]
                    out.append(tokens[:i] + [",".join(attack) + "/" + ",".join(["-"] * size)]
                               + tokens[i + 1:])
                break
        if len(out) >= 2 * limit:
            break
        SVARTA_MAJA.play(state, SVARTA_MAJA.parse_move(token))
    return out


def maja_state_of(state) -> dict:
    return {name: (list(value) if isinstance(value, list) else value)
            for name in type(state).__slots__ for value in [getattr(state, name)]}


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 10**9), spade_trump=st.booleans())
def test_svarta_maja_deal_checks_fast_and_careful_agree(n, seed, spade_trump):
    options = SVARTA_MAJA.resolve_options({"spade_trump": spade_trump})
    rng = random.Random(seed)
    setup = SVARTA_MAJA.random_setup(n, rng.randrange(n), 1, options, rng)
    variants = [setup]
    for change in range(9):
        hands = [list(h) for h in setup.hands]
        stock = list(setup.stock)
        a = rng.randrange(n)
        if change == 0:
            hands[a].append(stock.pop(0))
        elif change == 1:
            hands[a][0] = stock[0]
        elif change == 2:
            hands[a][0] = rng.choice([52, -1, -52, 1.0, True])
        elif change == 3:
            stock[-1] = rng.choice([52, -3, QS])
        elif change == 4:
            stock = stock[1:]
        elif change == 5:
            stock = [c for c in stock if c != QS] + [QS] if QS in stock else stock[::-1]
        elif change == 6:
            hands = hands[:-1]
        elif change == 7:
            hands[a] = []
        else:
            stock = stock[:1]
        variants.append(DealSetup(nplayers=n, dealer=setup.dealer, hands=hands, stock=stock))
    variants.append(DealSetup(nplayers=n, dealer=n, hands=setup.hands, stock=setup.stock))
    for variant in variants:
        try:
            fast = ("state", maja_state_of(SVARTA_MAJA.new_deal(variant, options)))
        except RecordError as err:
            fast = ("error", err.rule, err.column, err.message)
        try:
            careful = ("state", maja_state_of(SVARTA_MAJA._check_setup(variant, options)))
        except RecordError as err:
            careful = ("error", err.rule, err.column, err.message)
        assert fast == careful


def test_svarta_maja_half_caches_are_bounded():
    game = type(SVARTA_MAJA)()
    rng = random.Random(2)
    for _ in range(HALF_CACHE_SIZE + 300):
        attack = rng.sample(CARD_NAMES, 3)
        answers = [rng.choice(list(CARD_NAMES) + ["-"]) for _ in attack]
        token = ",".join(attack) + "/" + ",".join(answers)
        assert game._parse_canonical(token)
        cards, mask, one_suit = game._attack_cache[token.partition("/")[0]]
        move = game.parse_move(token)
        assert cards == move[0] and game._answer_cache[token.partition("/")[2]] == move[1]
        assert mask == sum(1 << c for c in set(cards))
        assert one_suit == (len({c // 13 for c in cards}) == 1)
        assert len(game._attack_cache) <= HALF_CACHE_SIZE
        assert len(game._answer_cache) <= HALF_CACHE_SIZE
    assert not game._parse_canonical("7d/jd") and not game._parse_canonical("7D")


# --------------------------------------------------------------- row games

@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["kortrad", "sju-dolda"]), seed=st.integers(0, 10**9),
       secret=st.sampled_from([0, 1, 2]), n=st.integers(2, 4))
def test_row_game_outcomes_and_events(variant, seed, secret, n):
    game = get_game(variant)
    options = game.resolve_options({"secret": secret})
    rng = random.Random(seed)
    setup = game.random_setup(n, None, 1, options, rng)
    tokens = bot_tokens(game, setup, options, rng, 0.7)
    spellings = [f"{s}{k}" for s in "SDsd" for k in range(9)] + [" S1", "S03", "X1"]
    for record in [tokens] + mutations(tokens, rng, spellings):
        assert_same(game, setup, record, options)
    out = game.replay(setup, tokens, options)
    assert out.places == places_from_scores(out.scores)
    # secret-decides exactly when the secret cards change the order
    state = game.new_deal(setup, options)
    for token in tokens:
        game.play(state, game.parse_move(token))
    rows = [sum(row_games_module.POINTS[c] for c in cards) for cards in state.rows]
    decides = [e for e in out.events if e.kind == "secret-decides"]
    assert bool(decides) == (places_from_scores(rows) != out.places)
    if decides:
        assert ";".join(map(str, rows)) in decides[0].text
