"""The match rules' words count deals in the right number ("after 1 deal")."""
from __future__ import annotations

from tourney.engines.base import MatchRules
from tourney.engines.match import _finished_text, _unfinished_text


def test_one_deal_is_a_deal():
    said = [str(words) for words in (
        _unfinished_text(MatchRules(losses=1), {"A": 0}, {"A": 0}, 1),
        _unfinished_text(MatchRules(target=50), {"A": 10}, {}, 1),
        _unfinished_text(MatchRules(deals=1), {}, {}, 2),
        _finished_text(MatchRules(losses=1), 1), _finished_text(MatchRules(deals=1), 2))]
    assert not any("1 deals" in text or "1 lost deals" in text for text in said), said
    assert "after 1 deal the highest is 10" in said[1]
    assert "after 3 deals" in str(_unfinished_text(MatchRules(target=50), {"A": 10}, {}, 3))
