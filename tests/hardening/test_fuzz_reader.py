"""Fuzzing the record CSV reader (and the checker behind it) with hostile files.

For arbitrary bytes, arbitrary text and mutations of valid simulated files
(tokens, cells and rows deleted, duplicated or swapped; bytes flipped), reading
and checking raise nothing but the project's own errors, every error has a
position (a line; a column or move for a deal's error), and no deal is reported
with the catch-all rule ``internal``. Valid records survive write -> read
unchanged, also when their cards and tokens were spelt non-canonically and their
names hold commas, quotes and line breaks.
"""
from __future__ import annotations

import io
import random

from fuzz_support import (
    all_samples,
    check_bytes,
    mutate_bytes,
    mutate_text,
    respell_token,
    to_csv,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tourney.engines import get_game
from tourney.person_names import normalize_name
from tourney.records.csv_format import COLUMNS, read_records_text, write_records

FUZZ = settings(max_examples=200, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SAMPLES = all_samples()
HEADER = ",".join(COLUMNS)
samples = st.sampled_from(SAMPLES)

# Text built from the characters CSV and the notations care about.
CSV_CHARS = ",;|\"\n\r \t/-x0123456789SHDCshdcQKJTA♠♥♦♣\x00\ufeff\u2028"
csv_text = st.text(alphabet=CSV_CHARS, max_size=400)


@FUZZ
@given(st.binary(max_size=2000))
def test_arbitrary_bytes(data):
    check_bytes(data)


@FUZZ
@given(st.binary(max_size=1000))
def test_arbitrary_bytes_after_a_valid_header(data):
    check_bytes((HEADER + "\n").encode() + data)


@FUZZ
@given(st.one_of(st.text(max_size=500), csv_text))
def test_arbitrary_text_after_a_valid_header(text):
    check_bytes((HEADER + "\n" + text).encode("utf-8", "surrogatepass"), variant="spardame")


@FUZZ
@given(samples, st.integers(1, 6), st.randoms(use_true_random=False))
def test_mutated_valid_files_text_level(sample, count, rng):
    text = to_csv(sample.records, sample.variant)
    for _ in range(count):
        text = mutate_text(text, rng)
    check_bytes(text.encode(), rules=sample.rules)


@FUZZ
@given(samples, st.integers(1, 6), st.randoms(use_true_random=False))
def test_mutated_valid_files_byte_level(sample, count, rng):
    data = to_csv(sample.records, sample.variant).encode()
    for _ in range(count):
        data = mutate_bytes(data, rng)
    check_bytes(data, rules=sample.rules)


@FUZZ
@given(samples, st.randoms(use_true_random=False))
def test_mixed_variant_files_without_rules(sample, rng):
    """Rows of several variants in one file, interleaved rows of matches split."""
    other = rng.choice(SAMPLES)
    lines = to_csv(sample.records, sample.variant).splitlines()
    extra = to_csv(other.records, other.variant).splitlines()[1:]
    body = lines[1:] + extra
    rng.shuffle(body)
    check_bytes("\n".join([lines[0]] + body).encode())


def test_valid_simulated_files_check_valid():
    """The baseline the mutations start from: every sample is valid."""
    for sample in SAMPLES:
        valid, invalid = check_bytes(to_csv(sample.records, sample.variant).encode(),
                                     rules=sample.rules)
        assert (valid, invalid) == (len(sample.records), 0), sample.variant


# ------------------------------------------------------------------- round trip

# Names as the players module lets them through (NFC, no ';', no control character,
# no surrounding blanks), including CSV's own special characters.
name_chars = st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters=";")
names = st.text(alphabet=name_chars, min_size=1, max_size=30).map(normalize_name).filter(bool)


def same(field, read, original) -> bool:
    """Equal as data: an empty stock is written as an empty cell, which reads as
    ``None`` (no stock), the same deal to every engine."""
    if field == "stock":
        return (read or None) == (original or None)
    return read == original


def written(records, variant) -> str:
    game = get_game(variant)
    buffer = io.StringIO()
    write_records(buffer, records, game_for=lambda record: game)
    return buffer.getvalue()


@FUZZ
@given(samples, st.data())
def test_valid_records_survive_write_then_read(sample, data):
    records = [r for r in sample.records]
    n = len(records[0].players)
    players = data.draw(st.lists(names, min_size=n, max_size=n, unique=True))
    table = data.draw(names)
    event = data.draw(st.one_of(st.none(), names))
    new_name = dict(zip(records[0].players, players))
    renamed = []
    for r in records:
        r = type(r)(**{f: getattr(r, f) for f in r.__dataclass_fields__})
        r.players = [new_name[p] for p in r.players]
        r.dealer = new_name[r.dealer] if r.dealer is not None else None
        r.table, r.event = table, event
        renamed.append(r)
    text = written(renamed, sample.variant)
    back = read_records_text(text)
    assert len(back) == len(renamed)
    for original, read in zip(renamed, back):
        for field in ("event", "variant", "round", "table", "deal", "players", "dealer",
                      "hands", "secrets", "stock", "passes", "play", "scores"):
            assert same(field, getattr(read, field), getattr(original, field)), field
    # and the checker agrees they are valid, with the house rules they were played by
    assert check_bytes(text.encode(), rules=sample.rules) == (len(renamed), 0)
    # writing what was read gives the same text: the canonical form is a fixed point
    assert written(back, sample.variant) == text


@FUZZ
@given(samples, st.randoms(use_true_random=False))
def test_non_canonical_spellings_read_to_the_same_records(sample, rng):
    """10 for T, lower case, suit symbols in every card column and move token."""
    from tourney.records.csv_format import format_row

    rows = []
    for r in sample.records:
        row = format_row(r)
        for column in ("hands", "stock", "passes"):
            row[column] = respell_token(row[column], "spardame", rng)
        row["play"] = " ".join(respell_token(t, sample.variant, rng) for t in r.play)
        rows.append(row)
    buffer = io.StringIO()
    from tourney.records.csv_format import RecordWriter

    writer = RecordWriter(buffer)
    for row in rows:
        writer.write(row)
    back = read_records_text(buffer.getvalue())
    assert written(back, sample.variant) == written(list(sample.records), sample.variant)
    assert check_bytes(buffer.getvalue().encode(), rules=sample.rules) == (len(rows), 0)


def test_mutations_change_files():
    """The mutators do mutate (a broken mutator would make the fuzz tests vacuous)."""
    rng = random.Random(3)
    text = to_csv(SAMPLES[0].records, SAMPLES[0].variant)
    changed_text = sum(mutate_text(text, rng) != text for _ in range(100))
    changed_bytes = sum(mutate_bytes(text.encode(), rng) != text.encode() for _ in range(100))
    assert changed_text > 80 and changed_bytes > 90
