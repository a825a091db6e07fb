"""Fuzzing every engine's replay with mutated valid records.

Mutations: a move dropped, inserted or replaced by another legal-looking token
(every token the bots wrote for the variant), two moves swapped, a hand card
changed or dropped, two hands or two players swapped, the dealer changed, a stock
or pass card changed, a secret card dropped, a claimed score changed, the moves
removed (a score-sheet row). The checker then gives an outcome or a
:class:`RecordError` with a line and a column or move, never the catch-all rule
``internal`` (an engine crash), and never lets another exception out. The match
layer gets the same treatment with one deal of a match mutated.
"""
from __future__ import annotations

import copy

import pytest
from fuzz_support import check_deal_record, check_item, mutate_record, samples, token_pool
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tourney.engines import VARIANT_IDS
from tourney.records.validation import RecordChecker

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Tokens of the other notations: legal-looking, but of the wrong game.
FOREIGN = tuple(t for v in VARIANT_IDS for t in token_pool(v)[:20])
TRICK_GAMES = ("dam-stick", "spardame")


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_mutated_deals_never_crash_an_engine(variant):
    pool = samples(variant)

    @FUZZ
    @given(st.sampled_from(pool), st.data(), st.integers(1, 3), st.randoms(use_true_random=False))
    def check(sample, data, count, rng):
        record = data.draw(st.sampled_from(sample.records))
        done = []
        for _ in range(count):
            what, record = mutate_record(record, variant, rng, extra_tokens=FOREIGN)
            done.append(what)
        result = check_deal_record(record, variant, sample.rules)
        # In a trick game every card in play is played once: a move more or less
        # can never be a valid record.
        if variant in TRICK_GAMES and len(done) == 1 and record.play and \
                done[0].startswith(("drop move", "insert")):
            assert not result.valid, done

    check()


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_matches_with_a_mutated_deal_never_crash(variant):
    pool = samples(variant)

    @settings(FUZZ, max_examples=60)
    @given(st.sampled_from(pool), st.data(), st.randoms(use_true_random=False))
    def check(sample, data, rng):
        records = [copy.deepcopy(r) for r in sample.records]
        i = data.draw(st.integers(0, len(records) - 1))
        _, records[i] = mutate_record(records[i], variant, rng)
        if data.draw(st.booleans()):  # deal numbers or order disturbed too
            j = data.draw(st.integers(0, len(records) - 1))
            records[j].deal = data.draw(st.integers(1, 5))
        checker = RecordChecker(variant=variant, rules=sample.rules)
        for item in checker.check_stream(records):
            check_item(item)

    check()


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_unmutated_samples_replay_valid(variant):
    """The baseline: every sample deal is valid, so mutations start from valid data."""
    for sample in samples(variant):
        for record in sample.records:
            assert check_deal_record(record, variant, sample.rules).valid
