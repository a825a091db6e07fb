"""The engines as a library user meets them (docs/guide/library.md): ``help()`` on a
game's methods says what each does for a caller, and what the engines raise and the
card helpers are exported by name."""
from __future__ import annotations

import inspect

import pytest

import tourney.cards as cards
import tourney.engines as engines
from tourney.engines import VARIANT_IDS, get_game

# What a caller calls to play, read and check a deal, as python-chess users would.
CALLED = ("resolve_options", "match_rules", "new_deal", "to_move", "legal_moves", "play",
          "is_over", "outcome", "parse_move", "format_move", "canonical_token", "replay",
          "replay_steps", "check_score_sheet", "parse_score", "random_setup", "choose_move")


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_help_on_every_method_a_caller_calls_says_what_it_does(variant):
    game = get_game(variant)
    for name in CALLED:
        doc = inspect.getdoc(getattr(game, name))
        assert doc, f"{variant}: help() on {name} says nothing"
        # the base class's note to implementers is no help to a caller of a real game
        assert "*abstract*" not in doc, f"{variant}: {name} reads as not implemented"


def test_the_game_docstring_example_plays_a_deal():
    """The example in Game's docstring runs as written."""
    example = inspect.getdoc(engines.Game).split("::\n", 1)[1].split("\n\n")[0]
    namespace: dict = {}
    exec("import random\nfrom tourney.engines import get_game\n"
         + inspect.cleandoc(example).replace("print(", "(lambda *a: None)("), namespace)
    assert namespace["game"].is_over(namespace["state"])


def test_what_the_engines_raise_is_exported_with_them():
    for name in ("IllegalMove", "RecordError", "OptionError", "UnknownName"):
        assert name in engines.__all__ and hasattr(engines, name)
    with pytest.raises(engines.OptionError):
        get_game("spardame").resolve_options({"pas": "cycle"})
    with pytest.raises(engines.IllegalMove) as raised:
        get_game("spardame").parse_move("XX")
    assert raised.value.rule == "notation"


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("token", [None, 5, b"QS", ["QS"], ""])
def test_a_token_that_is_no_text_is_a_typed_notation_error(variant, token):
    """parse_move given what is no token (None, a number, bytes, a list) raises the
    engines' IllegalMove with rule ``notation``, as for a misspelt one: never an
    AttributeError or TypeError from inside the engine."""
    with pytest.raises(engines.IllegalMove) as raised:
        get_game(variant).parse_move(token)
    assert raised.value.rule == "notation"
    # the token named as given (a list: its items, as a list parameter is said)
    shown = ", ".join(token) if isinstance(token, list) else repr(token)
    assert shown in str(raised.value) or token == ""  # an empty token: said so
    assert raised.value.words is not None  # words a page says in its language


@pytest.mark.parametrize("value", [52, -1, 100, None, "QS", 3.0])
def test_what_is_no_card_is_a_card_error(value):
    """card_name and format_cards name no card for what is not one (an int past 51
    or below 0, text, None) with the typed CardError parse_card raises, never an
    IndexError or TypeError (nor a negative int read from the end of the deck)."""
    with pytest.raises(cards.CardError) as raised:
        cards.card_name(value)
    assert raised.value.text == value and raised.value.words is not None
    with pytest.raises(cards.CardError):
        cards.format_cards([0, value])


@pytest.mark.parametrize("text", [None, 5, ["QS"], b"QS"])
def test_parse_card_of_what_is_no_text_is_a_card_error(text):
    with pytest.raises(cards.CardError):
        cards.parse_card(text)


def test_the_card_helpers_are_exported_and_go_both_ways():
    assert set(cards.__all__) <= set(dir(cards))
    assert "annotations" not in cards.__all__ and "Iterable" not in cards.__all__
    for card in cards.DECK:
        assert cards.parse_card(cards.card_name(card)) == card
        assert cards.make_card(cards.rank_of(card), cards.suit_of(card)) == card
    assert cards.suit_of(cards.parse_card("Q♠")) == cards.SPADES
    assert cards.rank_of(cards.parse_card("10h")) == cards.TEN


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_deal_for_a_table_the_game_has_not_is_refused_by_rule(variant):
    """random_setup for too many or too few seats: the typed error every other
    setup problem is (not a KeyError, nor a deal no rule allows)."""
    import random

    game = get_game(variant)
    options = game.resolve_options({})
    dealer = 0 if game.uses_dealer else None
    for seats in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(engines.RecordError) as raised:
            game.random_setup(seats, dealer, 1, options, random.Random(1))
        assert (raised.value.rule, raised.value.column) == ("player-count", "players")
        assert str(seats) in str(raised.value)
    for seats in (game.min_players, game.max_players):  # the table sizes it has still deal
        setup = game.random_setup(seats, dealer, 1, options, random.Random(1))
        game.new_deal(setup, options)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_deal_in_progress_reads_at_the_prompt(variant):
    """repr() of a state shows the deal as it stands, as python-chess's board does:
    whose turn and the cards (or the board), not ``<... object at 0x...>``."""
    import random

    game = get_game(variant)
    options = game.resolve_options({})
    seats = 4 if game.max_players >= 4 else game.min_players
    state = game.new_deal(game.random_setup(seats, 0 if game.uses_dealer else None, 1,
                                            options, random.Random(5)), options)
    for _ in range(3):
        game.play(state, game.choose_move(state, random.Random(1)))
    shown = repr(state)
    assert " object at 0x" not in shown and type(state).__name__ in shown
    if variant == "dam-brade":
        assert state.board_text() in shown and f"turn={game.to_move(state)}" in shown
    elif variant in ("dam-stick", "spardame"):
        assert f"turn={game.to_move(state)}" in shown
        held = [cards.format_cards(cards.cards_of(hand)) for hand in state.hands]
        assert repr(held) in shown
    elif variant == "svarta-maja":
        assert f"attacker={game.to_move(state)}" in shown
        assert repr([cards.format_cards(state.hand(seat)) for seat in range(seats)]) in shown
    else:  # the row games: each seat's row left to right
        assert f"seat={game.to_move(state)}" in shown
        assert repr([cards.format_cards(row) for row in state.rows]) in shown


def test_cards_are_written_as_a_record_writes_them():
    assert cards.format_cards(cards.parse_cards("qs 10h 2♣")) == "QS TH 2C"
    assert cards.parse_cards(cards.format_cards(cards.DECK)) == list(cards.DECK)
