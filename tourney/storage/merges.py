"""Merged players: the one walk along merge chains.

A duplicate merged into another player keeps its row with ``merged_into_id``; a
player it was merged into may itself be merged later, so the kept player is at the
end of a chain. Tournament services (names in records and commands) and the
ratings (who a result counts for) both follow chains with these functions.
"""
from __future__ import annotations

from sqlalchemy import select
from sqlmodel import Session

from .models import Player


def merge_links(session: Session) -> dict[int, int]:
    """Merged player id -> the id it was merged into (one step)."""
    return dict(session.execute(
        select(Player.id, Player.merged_into_id).where(Player.merged_into_id.is_not(None))).all())


def follow(links: dict[int, int], player_id: int) -> int:
    """The end of ``player_id``'s merge chain (itself when not merged; a cycle,
    which the merge refuses, ends where it closes)."""
    seen = {player_id}
    while player_id in links and links[player_id] not in seen:
        player_id = links[player_id]
        seen.add(player_id)
    return player_id


def canonical_players(session: Session) -> dict[int, int]:
    """Merged player id -> the id it was finally merged into."""
    links = merge_links(session)
    return {player: follow(links, player) for player in links}
