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


def current_names(session: Session) -> dict[str, str]:
    """Old name -> the name its player has now, for every name that has moved on:
    a renamed player's old name (kept as an alias row) and a merged duplicate's
    name, each followed to the end of its chain. Stored deals keep the names as
    imported; this is how they are read as the players they are now.

    Reads the merged rows and the players they end at, not every player: a
    league's correction of one match costs what its merges do (issue 34)."""
    rows = session.execute(select(Player.id, Player.name, Player.merged_into_id)
                           .where(Player.merged_into_id.is_not(None))).all()
    links = {player_id: kept for player_id, _, kept in rows}
    ends = {player_id: follow(links, player_id) for player_id in links}
    wanted = sorted(set(ends.values()))
    names: dict[int, str] = {}
    for start in range(0, len(wanted), 1000):
        names.update(session.execute(select(Player.id, Player.name).where(
            Player.id.in_(wanted[start:start + 1000]))).all())
    return {name: names[ends[player_id]] for player_id, name, _ in rows
            if ends[player_id] in names}


def rename_players(text: str | None, names: dict[str, str]) -> str | None:
    """A stored ``players`` (``;``-separated) or ``dealer`` cell with every old
    name replaced by the current one (:func:`current_names`)."""
    if not text or not names:
        return text
    return ";".join(names.get(name, name) for name in text.split(";"))
