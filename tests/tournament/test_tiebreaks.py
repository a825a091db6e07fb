"""The tie-break registry is the one definition: the guide, the help and the pages
read it, and its words name no game."""
from __future__ import annotations

import re
from pathlib import Path

from tourney.engines import variant_ids
from tourney.tournament.tiebreaks import DEFAULT_TIEBREAKS, TIEBREAKS

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "scoring.md"


def test_the_guide_lists_every_tiebreak_and_no_other():
    listed = re.findall(r"^\| `([a-z0-9-]+)` \|", GUIDE.read_text(encoding="utf-8"), re.M)
    assert sorted(listed) == sorted(TIEBREAKS)


def test_every_tiebreak_has_words_that_name_no_game():
    assert set(DEFAULT_TIEBREAKS) <= set(TIEBREAKS)
    for tiebreak in TIEBREAKS.values():
        assert tiebreak.label and tiebreak.note.endswith(".")
        assert tiebreak.better in ("higher", "lower", "game")
        words = " ".join(filter(None, (tiebreak.label, tiebreak.note, tiebreak.note_higher)))
        for variant in variant_ids():
            assert variant not in words.lower(), (tiebreak.id, variant)
        assert "card game" not in words and "checkers" not in words


def test_the_direction_follows_the_game():
    score = TIEBREAKS["score"]
    assert score.key_sign(higher_is_better=False) * 5 == 5
    assert score.key_sign(higher_is_better=True) * 5 == -5
    assert score.note_for(True) != score.note_for(False)
    assert TIEBREAKS["lot"].key_sign(True) * 0.3 == 0.3
    assert TIEBREAKS["wins"].key_sign(False) * 2 == -2
