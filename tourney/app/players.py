"""Use cases on players: register, import a list, rename, set club and e-mail,
merge duplicates.

Adding, importing, renaming and setting touch no rating (ratings are kept by player id),
so they are the tournament services themselves. Merging moves results from one
player to another, so it also folds the duplicate's ratings into the kept
player's and refreshes the pools concerned.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlmodel import Session

from ..tournament import players
from ..tournament.players import (
    add_players,
    find_player,
    import_players,
    read_player_csv,
    rename_player,
    set_player,
)

if TYPE_CHECKING:
    from ..ratings import service as ratings

__all__ = ["add_players", "find_player", "import_players", "read_player_csv",
           "rename_player", "set_player", "merge_players", "PlayerMerge"]


@dataclass
class PlayerMerge:
    """A merge of a duplicate into a kept player: what moved with the results
    (:class:`~tourney.tournament.players.MergeReport`), what the ratings did
    (:class:`~tourney.ratings.service.MergedRatings`) and the matches each pool
    rated again."""

    results: players.MergeReport
    ratings: ratings.MergedRatings
    ratings_refreshed: dict[str, int] = field(default_factory=dict)  # variant: matches

    @property
    def keep(self) -> str:
        return self.results.keep

    @property
    def duplicate(self) -> str:
        return self.results.duplicate

    def to_json(self) -> dict:
        return {**self.results.to_json(), "ratings_moved": self.ratings.moved,
                "ratings_conflicting": self.ratings.conflicting,
                "history_moved": self.ratings.history_moved,
                "ratings_refreshed": self.ratings_refreshed}


def merge_players(session: Session, keep: str, duplicate: str) -> PlayerMerge:
    """Merge the player named ``duplicate`` into ``keep`` (one person registered
    twice): entries, seats and results move (see :mod:`tourney.tournament.players`),
    then the duplicate's ratings are folded into the kept player's and every pool
    either was rated in is brought in step (a pool both were rated in is replayed
    from the first match of either)."""
    # Only a merge rates and sums seasons: listing or adding players loads neither.
    from ..ratings import service as ratings
    from ..tournament.snapshots import keep_series_snapshots

    moved = players.merge_players(session, keep, duplicate)
    folded = ratings.fold_merged_player(session, moved.keep_id, moved.duplicate_id)
    refreshed = {variant: ratings.refresh_after_results(session, variant)
                 for variant in folded.variants}
    keep_series_snapshots(session)
    return PlayerMerge(moved, folded, refreshed)
