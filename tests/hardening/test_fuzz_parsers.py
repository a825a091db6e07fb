"""Fuzzing the small parsers: card spellings and every engine's move notation.

A parser given any text either returns a value or raises the project's own error
(:class:`CardError` for cards, :class:`IllegalMove` with rule ``notation`` for
moves); a move it accepts has a canonical spelling that parses back to the same
move (so ``canonical_token`` is idempotent and a written file reads back).
"""
from __future__ import annotations

import pytest
from fuzz_support import token_pool
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tourney.cards import CARD_NAMES, RANKS, SUIT_SYMBOLS, SUITS, card_name, parse_card, parse_cards
from tourney.engines import VARIANT_IDS, get_game
from tourney.errors import CardError, IllegalMove, TourneyError
from tourney.records.csv_format import MAX_TOKEN_CHARS

FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

# Text that looks like cards and moves: the alphabets of every notation, digits
# of other scripts, dashes, blanks and a few characters that break naive parsers.
NOTATION_CHARS = (RANKS + RANKS.lower() + SUITS + SUITS.lower() + SUIT_SYMBOLS
                  + "0123456789-x/,|;HhSsDd ½\u2013\u2212\u00a0\t\n\x00١２³Ⅻ")
notation_text = st.text(alphabet=NOTATION_CHARS, max_size=40)
any_text = st.text(max_size=60)


def long_numbers(prefixes: str) -> st.SearchStrategy[str]:
    """A prefix and a long run of digits: Python refuses int() of over 4300 digits."""
    return st.builds(lambda p, d, n, tail: p + d * n + tail,
                     st.sampled_from(list(prefixes)), st.sampled_from(list("0159")),
                     st.integers(1, MAX_TOKEN_CHARS), st.sampled_from(["", "-15", "x24", "/-"]))


# ------------------------------------------------------------------- cards

def respellings(card: int) -> list[str]:
    rank, suit = CARD_NAMES[card]
    ranks = [rank, "10"] if rank == "T" else [rank]
    suits = [suit, SUIT_SYMBOLS[SUITS.index(suit)]]
    out = []
    for r in ranks:
        for s in suits:
            out += [r + s, (r + s).lower(), f" {r + s} "]
    return out


@FUZZ
@given(st.one_of(any_text, notation_text))
def test_parse_card_returns_a_card_or_raises_card_error(text):
    try:
        card = parse_card(text)
    except CardError as err:
        assert err.text == text and "not a card" in str(err)
        return
    assert 0 <= card < 52
    # whatever it accepted is one of the documented spellings of that card
    assert text.strip().upper().replace("10", "T", 1) in {s.strip().upper().replace("10", "T", 1)
                                                          for s in respellings(card)}


@FUZZ
@given(st.integers(0, 51), st.data())
def test_every_documented_spelling_parses_and_canonical_round_trips(card, data):
    spelling = data.draw(st.sampled_from(respellings(card)))
    assert parse_card(spelling) == card
    assert parse_card(card_name(card)) == card


@FUZZ
@given(st.one_of(any_text, notation_text,
                 st.lists(st.sampled_from(CARD_NAMES), max_size=60).map(" ".join)))
def test_parse_cards_gives_cards_or_card_error(text):
    try:
        cards = parse_cards(text)
    except CardError:
        return
    assert all(0 <= c < 52 for c in cards)
    assert len(cards) == len(text.split())


# ------------------------------------------------------------------- moves

def move_text(variant: str) -> st.SearchStrategy[str]:
    pool = token_pool(variant)
    return st.one_of(
        any_text, notation_text,
        st.sampled_from(pool),
        # a valid token with a character inserted, deleted or replaced
        st.builds(lambda t, i, c: t[:i % (len(t) + 1)] + c + t[i % (len(t) + 1):],
                  st.sampled_from(pool), st.integers(0, 60), st.sampled_from(NOTATION_CHARS)),
        st.builds(lambda t, i: t[:i % len(t)] + t[i % len(t) + 1:],
                  st.sampled_from(pool), st.integers(0, 60)),
        # long runs of digits within what the reader lets through
        long_numbers("SDHsdh1"),
    )


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_parse_move_gives_a_move_or_a_notation_error(variant):
    game = get_game(variant)

    @FUZZ
    @given(move_text(variant))
    def check(token):
        try:
            move = game.parse_move(token)
        except IllegalMove as err:
            assert err.rule == "notation" and err.message
            return
        except TourneyError as err:  # pragma: no cover - a finding
            pytest.fail(f"{variant}: parse_move({token!r}) raised {type(err).__name__}, "
                        f"not IllegalMove: {err}")
        canonical = game.format_move(move)
        assert game.parse_move(canonical) == move
        assert game.canonical_token(canonical) == canonical

    check()


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_token_the_bots_write_is_canonical(variant):
    game = get_game(variant)
    for token in token_pool(variant):
        assert game.canonical_token(token) == token


@pytest.mark.parametrize("variant", ["kortrad", "sju-dolda"])
def test_row_games_parse_a_turn_of_5000_digits_as_a_notation_error(variant):
    with pytest.raises(IllegalMove):
        get_game(variant).parse_move("S" + "9" * 5000)
