"""Merge chains: the one walk (tourney.storage.merges)."""
from __future__ import annotations

from tourney.storage.merges import follow


def test_follow_walks_chains_and_stops_at_a_cycle():
    links = {1: 2, 2: 3, 5: 6, 6: 5}
    assert [follow(links, p) for p in (1, 2, 3, 4)] == [3, 3, 3, 4]
    assert follow(links, 5) == 6 and follow(links, 6) == 5  # never loops
