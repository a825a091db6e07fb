"""The reader's hot path for card cells held to its careful path.

``parse_row`` reads hands, stock and passes in canonical spelling a whole cell at
a time (:func:`~tourney.records.csv_format._canonical_cards`); anything else goes
the careful way, token by token. Both must give the same record, or the same
error, for any cell: here the careful way alone is the reference.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cards import CARD_NAMES
from tourney.errors import RecordError
from tourney.records import csv_format
from tourney.records.csv_format import parse_row

PLAYERS = ["Anna", "Bo", "Cai", "Dag"]


def outcome(fields):
    try:
        record = parse_row(dict(fields), 2)
    except RecordError as err:
        return ("error", err.rule, err.column, err.seat, err.player, err.token, err.message)
    return ("record", record.hands, record.secrets, record.stock, record.passes)


def both_ways(fields):
    fast = outcome(fields)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(csv_format, "_canonical_cards", lambda text: None)
        careful = outcome(fields)
    assert fast == careful, fields
    return fast


# Cells near the canonical form: cards (canonical and not), and separators that
# keep or break the one-character rhythm.
CARDS = list(CARD_NAMES) + ["10H", "qs", "Q♠", "XX", "1", "QSS", ""]
SEPARATORS = [" "] * 8 + [";"] * 3 + ["|"] * 2 + ["  ", "\t", ";;", "||", " ;", "| ", "é"]


@st.composite
def cells(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    count = draw(st.integers(1, 30))
    parts = []
    for index in range(count):
        parts.append(rng.choice(CARD_NAMES) if rng.random() < 0.9 else rng.choice(CARDS))
        if index < count - 1:
            parts.append(rng.choice(SEPARATORS))
    return "".join(parts)


def test_canonical_cells_take_the_hot_path():
    hands = "JD KS QS 6D JH 5D|KC;2D 3C 7C QH 6S 2C|8C;AS 5C AD AC KD 2S|7S;3S 6C QD TD JS 8S|QC"
    cards, separators = csv_format._canonical_cards(hands)
    assert [CARD_NAMES[c] for c in cards] == hands.replace("|", " ").replace(";", " ").split()
    assert separators == b"     |;" * 3 + b"     |"
    for text in ("", "QS ", "qs", "10H", "Q♠", "QS  KS", "QSKS"):
        assert csv_format._canonical_cards(text) is None


@settings(max_examples=400, deadline=None)
@given(hands=cells(), stock=cells(), passes=cells(), players=st.integers(1, 4))
def test_card_cells_read_alike_fast_and_careful(hands, stock, passes, players):
    base = {"round": "1", "table": "1", "deal": "1", "players": ";".join(PLAYERS[:players]),
            "play": "S0"}
    both_ways({**base, "hands": hands})
    both_ways({**base, "stock": stock})
    both_ways({**base, "passes": passes})
    both_ways({**base, "hands": hands, "stock": stock, "passes": passes})


def test_real_cells_read_alike():
    rng = random.Random(7)
    for _ in range(300):
        deck = list(range(52))
        rng.shuffle(deck)
        n = rng.randint(2, 4)
        row, secret = rng.randint(1, 7), rng.randint(0, 2)
        seats = []
        for s in range(n):
            cards = deck[s * (row + secret):(s + 1) * (row + secret)]
            text = " ".join(CARD_NAMES[c] for c in cards[:row])
            if secret:
                text += "|" + " ".join(CARD_NAMES[c] for c in cards[row:])
            seats.append(text)
        stock = " ".join(CARD_NAMES[c] for c in deck[n * (row + secret):])
        fields = {"round": "1", "table": "1", "deal": "1", "players": ";".join(PLAYERS[:n]),
                  "hands": ";".join(seats), "stock": stock, "play": "S0",
                  "passes": ";".join(" ".join(CARD_NAMES[c] for c in deck[3 * s:3 * s + 3])
                                     for s in range(n))}
        kind, hands, secrets, stock_cards, passes = both_ways(fields)
        assert kind == "record" and len(hands) == n and (secrets is None) == (not secret)
