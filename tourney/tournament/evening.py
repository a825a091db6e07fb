"""The players' evening: each entered player's private link (``tourney player
links``), revocable by renewing it.

Decisions:

- A token is 32 URL-safe characters from :func:`secrets.token_urlsafe` (192
  bits), as a table link's; there is no login: whoever has the link sees that
  player's page.
- Renewing a player's link revokes the old token (it stays, with ``revoked_at``,
  so a revoked link is told apart from a mistyped one) and makes a new one.
- Links are made on first ask, for every entered player not merged away.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlmodel import Session, select

from ..errors import TourneyError
from ..storage.audit import record_change
from ..storage.models import Event, Player, PlayerLink, utcnow
from .events import entries


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class PlayerLinkInfo:
    player: str
    token: str
    renewed: bool = False

    def path(self) -> str:
        return f"/p/{self.token}"

    def to_json(self, base_url: str = "") -> dict:
        return {"player": self.player, "token": self.token,
                "url": base_url.rstrip("/") + self.path(), "renewed": self.renewed}


def current_link(session: Session, event: Event, player_id: int) -> PlayerLink | None:
    return session.exec(select(PlayerLink).where(
        PlayerLink.event_id == event.id, PlayerLink.player_id == player_id,
        PlayerLink.revoked_at.is_(None))).first()


def player_links(session: Session, event: Event, renew: tuple[str, ...] = ()
                 ) -> list[PlayerLinkInfo]:
    """Every entered player's private link, made where missing; the players named
    in ``renew`` get a new one (their old link stops answering)."""
    rows = [(e, p) for e, p in entries(session, event) if p.merged_into_id is None]
    names = {p.name for _, p in rows}
    unknown = [name for name in renew if name not in names]
    if unknown:
        raise TourneyError(f"not entered in {event.slug}: {', '.join(unknown)}")
    out = []
    for _, player in rows:
        link = current_link(session, event, player.id)
        renewed = player.name in renew
        if link is not None and renewed:
            link.revoked_at = utcnow()
            session.add(link)
            session.flush()
            record_change(session, "player.link.renew", player.name, None, None,
                          event_id=event.id)
            link = None
        if link is None:
            link = PlayerLink(event_id=event.id, player_id=player.id, token=new_token())
            session.add(link)
            session.flush()
        out.append(PlayerLinkInfo(player.name, link.token, renewed))
    return out


def link_by_token(session: Session, token: str) -> tuple[PlayerLink, Player, Event] | None:
    """The live link with this token, its player and event; None for an unknown or
    revoked token."""
    link = session.exec(select(PlayerLink).where(PlayerLink.token == token)).first()
    if link is None or link.revoked_at is not None:
        return None
    return link, session.get(Player, link.player_id), session.get(Event, link.event_id)
