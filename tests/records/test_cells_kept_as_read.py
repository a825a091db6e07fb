"""Card cells kept as read by the importer's codec, held to the text test they skip.

``parse_row`` marks the card cells its hot path read as canonical
(``DealRecord.as_read``), and ``canonical_fields`` then keeps them as read without
matching them against the canonical pattern again. A marked cell must be exactly
what the cards give when written out, and the fields must be what the pattern
test alone gives, for any cell.
"""
from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cards import CARD_NAMES
from tourney.errors import RecordError
from tourney.records.csv_format import (
    HANDS_AS_READ,
    PASSES_AS_READ,
    STOCK_AS_READ,
    canonical_fields,
    parse_row,
)

PLAYERS = ["Anna", "Bo", "Cai", "Dag"]
CARDS = list(CARD_NAMES) + ["10H", "qs", "Q♠", "XX", ""]
SEPARATORS = [" "] * 8 + [";"] * 3 + ["|"] * 2 + ["  ", "\t", ";;", " ;", "| "]
AROUND = ["", "", "", " ", "\t", " \n"]


@st.composite
def cells(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    count = draw(st.integers(1, 30))
    parts = [rng.choice(AROUND)]
    for index in range(count):
        parts.append(rng.choice(CARD_NAMES) if rng.random() < 0.9 else rng.choice(CARDS))
        if index < count - 1:
            parts.append(rng.choice(SEPARATORS))
    parts.append(rng.choice(AROUND))
    return "".join(parts)


def fields_alike(fields):
    try:
        record = parse_row(dict(fields), 2)
    except RecordError:
        return
    read = (fields.get("hands", ""), fields.get("stock", ""), fields.get("passes", ""))
    kept = canonical_fields(record, read=read)
    tested = canonical_fields(replace(record, as_read=0), read=read)
    assert kept == tested, fields
    written = canonical_fields(record)  # from the cards alone
    for bit, index, cell in ((HANDS_AS_READ, 2, read[0]), (STOCK_AS_READ, 3, read[1]),
                             (PASSES_AS_READ, 4, read[2])):
        if record.as_read & bit:
            assert cell == written[index], fields


@settings(max_examples=400, deadline=None)
@given(hands=cells(), stock=cells(), passes=cells(), players=st.integers(1, 4))
def test_cells_kept_as_read_are_canonical(hands, stock, passes, players):
    base = {"round": "1", "table": "1", "deal": "1", "players": ";".join(PLAYERS[:players]),
            "play": "S0"}
    fields_alike({**base, "hands": hands})
    fields_alike({**base, "stock": stock})
    fields_alike({**base, "passes": passes})
    fields_alike({**base, "hands": hands, "stock": stock, "passes": passes})


def test_real_cells_are_kept_as_read():
    hands = "JD KS QS 6D JH 5D|KC;2D 3C 7C QH 6S 2C|8C;AS 5C AD AC KD 2S|7S;3S 6C QD TD JS 8S|QC"
    fields = {"round": "1", "table": "1", "deal": "1", "players": ";".join(PLAYERS),
              "hands": hands, "stock": "9D 9H JC", "passes": "2H;3H;4H;5H", "play": "S0"}
    record = parse_row(fields, 2)
    assert record.as_read == HANDS_AS_READ | STOCK_AS_READ | PASSES_AS_READ
    assert parse_row({**fields, "hands": " " + hands}, 2).as_read == STOCK_AS_READ | PASSES_AS_READ
    # not content: a record equals one read from other spellings of its cards
    assert parse_row({**fields, "stock": "9d 9h jc"}, 2) == record
