"""A seventh game is one engine module, one registry entry and its translations.

The toy game here, ``hogsta-kortet`` (high card), is written the way a new engine
module would be: a :class:`~tourney.engines.base.Game` subclass with its rules,
notation, bots and its own words (name, tagline, option sentences, a replay note).
It is registered with :func:`tourney.engines.register_game` and nothing else in
tourney is changed; the test then takes it through the whole tool: ``variants``,
seating, ``validate``, ``result import``, ``standings``, ratings and ``publish``,
and reads the published pages for the game's own words.
"""
from __future__ import annotations

import random

import pytest

from tourney.cards import CARD_NAMES, parse_card
from tourney.engines import get_game, register_game, unregister_game, variant_ids
from tourney.engines.base import (
    DealEvent,
    DealOutcome,
    DealSetup,
    Game,
    MatchRules,
    OptionSpec,
    dealer_option,
    places_from_scores,
)
from tourney.engines.presentation import N_, Message, deals_sentence
from tourney.errors import IllegalMove, RecordError
from tourney.records.csv_format import read_records_text, write_records
from tourney.simulation import simulate_match

CARDS_EACH = 3


class HighCardState:
    __slots__ = ("nplayers", "hands", "shown", "turn", "moves")

    def __init__(self, nplayers: int, hands: list[list[int]], first: int):
        self.nplayers = nplayers
        self.hands = [list(h) for h in hands]
        self.shown: list[int | None] = [None] * nplayers
        self.turn = first
        self.moves = 0


class HighCard(Game):
    """Each seat is dealt three cards and shows one, in turn from the dealer's left;
    a seat scores the rank of the card it showed (2 to 14, ace high)."""

    id = "hogsta-kortet"
    name = "Högsta kortet (high card)"
    title = N_("Högsta kortet (high card)")
    tagline = N_("Each player shows one of three cards; the highest card wins.")
    summary = "Each seat is dealt three cards and shows one; the highest rank wins."
    min_players = 2
    max_players = 4
    preferred_players = 3
    higher_is_better = True
    option_specs = (
        OptionSpec("deals", "int", 2, "deals in a match", minimum=1, sentence=deals_sentence),
        OptionSpec("jokers", "bool", False, "a house rule that changes nothing",
                   sentence=lambda on: Message(N_("No jokers.")) if not on else None),
        dealer_option(("rotate",), "the dealer moves clockwise"),
    )
    event_sentences = {"high-card": N_("%(player)s shows the highest card")}

    def match_rules(self, options: dict) -> MatchRules:
        return MatchRules(deals=options["deals"], dealer="rotate", higher_is_better=True)

    def new_deal(self, setup: DealSetup, options: dict) -> HighCardState:
        n = setup.nplayers
        if not self.min_players <= n <= self.max_players:
            raise RecordError(f"hogsta-kortet is played by 2 to 4 players, not {n}",
                              rule="players", column="players")
        hands = setup.hands or []
        if len(hands) != n or any(len(h) != CARDS_EACH for h in hands):
            raise RecordError("each seat is dealt three cards", rule="hands", column="hands")
        return HighCardState(n, hands, (setup.dealer + 1) % n)

    def to_move(self, state: HighCardState) -> int | None:
        return None if state.moves == state.nplayers else state.turn

    def is_over(self, state: HighCardState) -> bool:
        return state.moves == state.nplayers

    def legal_moves(self, state: HighCardState) -> list:
        return list(state.hands[state.turn])

    def play(self, state: HighCardState, move) -> None:
        if state.moves == state.nplayers:
            raise IllegalMove("deal-over", "every seat has shown a card")
        if move not in state.hands[state.turn]:
            raise IllegalMove("card-not-held", f"{CARD_NAMES[move]} is not in the hand")
        state.shown[state.turn] = move
        state.turn = (state.turn + 1) % state.nplayers
        state.moves += 1

    def outcome(self, state: HighCardState) -> DealOutcome:
        scores = [card % 13 + 2 for card in state.shown]
        best = scores.index(max(scores))
        return DealOutcome(scores, places_from_scores(scores, True), "moves",
                           [DealEvent(state.moves, best, "high-card", f"seat {best} is high")],
                           state.moves)

    def parse_move(self, token: str):
        try:
            return parse_card(token)
        except Exception:  # noqa: BLE001 - any bad token is a notation error
            raise IllegalMove("notation", f"not a card: {token!r}") from None

    def format_move(self, move) -> str:
        return CARD_NAMES[move]

    def check_score_sheet(self, setup: DealSetup, scores: list, options: dict) -> DealOutcome:
        if any(not 2 <= s <= 14 for s in scores):
            raise IllegalMove("score-sheet-range", "a score is a rank from 2 to 14")
        return DealOutcome(scores, places_from_scores(scores, True), "scores")

    def random_setup(self, nplayers, dealer, deal_number, options, rng) -> DealSetup:
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sorted(deck[i * CARDS_EACH:(i + 1) * CARDS_EACH]) for i in range(nplayers)]
        return DealSetup(nplayers, dealer, hands, deal_number=deal_number)

    def choose_move(self, state, rng, skill=1.0):
        hand = state.hands[state.turn]
        return max(hand, key=lambda c: c % 13) if rng.random() < skill else rng.choice(hand)


HIGH_CARD = HighCard()
PLAYERS = ["Agnes Ek", "Bo Lind", "Cilla Ås", "Dag Öst", "Eva Berg", "Frans Holm"]


@pytest.fixture
def toy_game():
    register_game(HIGH_CARD)
    yield HIGH_CARD
    unregister_game(HIGH_CARD.id)


def play_round(seating: dict, slug: str, options: dict, seed: int, path) -> None:
    rng = random.Random(seed)
    records = []
    for table in seating["tables"]:
        records += simulate_match(HIGH_CARD, options, table["seats"], rng, event=slug,
                                  round_number=seating["round"], table=table["table"])
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda r: HIGH_CARD)


def test_registering_a_game_is_all_it_takes(toy_game, tourney, run_cli, tmp_path):
    assert get_game("hogsta-kortet") is toy_game
    assert "hogsta-kortet" in variant_ids()
    listed = run_cli(None, "variants", "--json").json
    assert "hogsta-kortet" in [v["id"] for v in listed]

    for name in PLAYERS:
        tourney("player", "add", name)
    tourney("event", "create", "high-night", "--variant", "hogsta-kortet", "--rounds", "2",
            "--table-sizes", "3", "--seed", "7", "--rule", "jokers=false")
    tourney("event", "enter", "high-night", "--all")
    options = toy_game.resolve_options({"jokers": "false"})

    for number in (1, 2):
        seating = tourney("round", "seat", "high-night", "--json").json
        path = tmp_path / f"round-{number}.csv"
        play_round(seating, "high-night", options, number, path)
        checked = run_cli(None, "validate", str(path), "--variant", "hogsta-kortet", "--json")
        assert checked.stdout  # validate accepts the toy game's records
        report = tourney("result", "import", str(path), "--json").json["details"]
        assert report["added"] == len(seating["tables"]) == 2 and report["rejected"] == 0

    # A record the toy game's rules refuse is refused, naming the rule it breaks.
    record = read_records_text((tmp_path / "round-1.csv").read_text(encoding="utf-8"))[0]
    held = {c for hand in record.hands for c in hand}
    record.play[0] = CARD_NAMES[min(set(range(52)) - held)]
    broken = tmp_path / "broken.csv"
    with open(broken, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, [record], game_for=lambda r: HIGH_CARD)
    refused = run_cli(None, "validate", str(broken), "--variant", "hogsta-kortet",
                      "--json", exit_code=1)
    assert "card-not-held" in refused.stdout

    standings = tourney("standings", "high-night", "--json").json
    assert sorted(row["player"] for row in standings) == sorted(PLAYERS)
    assert [row["place"] for row in standings][0] == 1

    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")
    event_page = next(site.glob("events/*/index.html")).read_text(encoding="utf-8")
    assert "Högsta kortet (high card)" in event_page  # the game's name, from its engine
    assert "Each player shows one of three cards" in event_page  # its tagline
    assert "A match is 2 deals" in event_page and "No jokers." in event_page  # its options
    replays = sorted(site.glob("events/*/match-*-deal-*.html"))
    assert replays
    replay = replays[0].read_text(encoding="utf-8")
    assert "shows the highest card" in replay  # its note, with the player's name
    assert any(name in replay for name in PLAYERS)
