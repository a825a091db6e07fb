"""Use cases on ratings: recompute pools, configure a pool, and the reads that
name players (resolved here, so the ratings package needs no player lookup)."""
from __future__ import annotations

from typing import Sequence

from sqlmodel import Session

from ..errors import UsageError
from ..errors.words import N_, Message, and_words, quoted
from ..ratings.service import (
    HistoryEntry,
    TablePrediction,
    check_variant,
    configure_pool,
    player_history,
    pool_settings,
    predict_table,
    rating_list,
    recompute,
    recompute_changes,
)
from ..storage.models import Player
from ..tournament.players import find_player

__all__ = ["configure_pool", "pool_settings", "rating_list", "recompute", "recompute_changes",
           "rating_history", "predict_names"]


def rating_history(session: Session, name: str,
                   variant: str | None = None) -> tuple[Player, list[HistoryEntry]]:
    """The player named ``name`` (a merged duplicate's name finds the kept player)
    and their rated matches in rating order, per variant."""
    player = find_player(session, name)
    return player, player_history(session, player, variant)


def predict_names(session: Session, variant: str, names: Sequence[str]) -> TablePrediction:
    """Win probabilities and predicted ranks for a table of the players named."""
    check_variant(variant)  # an unknown variant before an unknown name
    # fewer than two names: predict_table says a table needs two
    players = [find_player(session, name) for name in names] if len(names) >= 2 else []
    named: dict[int, list[str]] = {}
    for name, player in zip(names, players):
        named.setdefault(player.id, []).append(name)
        if len(named[player.id]) > 1:
            raise UsageError(_named_twice(named[player.id], player.name))
    return predict_table(session, variant, players)


def _named_twice(given: list[str], name: str) -> Message:
    """'Bo' is named twice; 'Åsa Öberg' and 'asa oberg' are one player (Åsa Öberg)."""
    if len(set(given)) == 1:
        return Message(N_("%(name)s is named twice"), {"name": quoted(given[0])})
    return Message(N_("%(names)s are one player (%(player)s); name each player once"),
                   {"names": and_words([quoted(n) for n in dict.fromkeys(given)]),
                    "player": name})
