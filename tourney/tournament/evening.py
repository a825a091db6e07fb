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

import datetime as dt
import json
import secrets
from dataclasses import dataclass

from sqlmodel import Session, select

from ..errors import TourneyError
from ..errors.words import N_, Message, quoted
from ..person_names import lookalike_key, lookalike_kind
from ..storage.audit import record_change
from ..storage.models import EntryStatus, Event, EventOptions, Player, PlayerLink, SignupRequest, utcnow
from ..times import aware
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
        raise TourneyError(Message(N_("not entered in %(event)s: %(players)s"),
                                   {"event": event.slug, "players": list(unknown)}))
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


# ---------------------------------------------------------------- check-in and fee

def event_options(session: Session, event: Event) -> EventOptions:
    """The event's evening options (a default row, not stored, when none is)."""
    row = session.exec(select(EventOptions).where(EventOptions.event_id == event.id)).first()
    return row if row is not None else EventOptions(event_id=event.id)


def set_checkin_required(session: Session, event: Event, required: bool) -> bool:
    """Require check-in before seating (or not); whether anything changed."""
    row = event_options(session, event)
    if row.checkin == required and row.id is not None:
        return False
    before = row.checkin
    row.checkin = required
    session.add(row)
    session.flush()
    record_change(session, "event.checkin.required", event.slug, {"checkin": before},
                  {"checkin": required}, event_id=event.id)
    return before != required


def _status(session: Session, event: Event, player: Player) -> EntryStatus:
    row = session.exec(select(EntryStatus).where(EntryStatus.event_id == event.id,
                                                 EntryStatus.player_id == player.id)).first()
    return row if row is not None else EntryStatus(event_id=event.id, player_id=player.id)


def _entered(session: Session, event: Event, names) -> list[Player]:
    by_name = {p.name: p for _, p in entries(session, event) if p.merged_into_id is None}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise TourneyError(Message(N_("not entered in %(event)s: %(players)s"),
                                   {"event": event.slug, "players": list(unknown)}))
    return [by_name[name] for name in names]


def mark(session: Session, event: Event, names, what: str, undo: bool = False,
         actor: str | None = None) -> list[str]:
    """Mark the entered players ``names`` checked in (``what="checkin"``) or paid
    (``"paid"``), or take the mark back; the names whose mark changed."""
    column = {"checkin": "checked_in_at", "paid": "paid_at"}[what]
    changed = []
    for player in _entered(session, event, names):
        row = _status(session, event, player)
        has = getattr(row, column) is not None
        if has == (not undo):
            continue
        if undo and what == "checkin":  # kept: they were checked in until now
            row.checkins_undone = json.dumps(
                [*_checkins_undone(row), [aware(row.checked_in_at).isoformat(),
                                          aware(utcnow()).isoformat()]])
        setattr(row, column, None if undo else utcnow())
        session.add(row)
        changed.append(player.name)
    session.flush()
    if changed:
        record_change(session, f"event.{what}" + (".undo" if undo else ""), ", ".join(changed),
                      None, {"players": changed}, event_id=event.id, actor=actor)
    return changed


def entry_marks(session: Session, event: Event) -> dict[int, EntryStatus]:
    """player id -> the entry's check-in and paid marks."""
    return {row.player_id: row for row in session.exec(
        select(EntryStatus).where(EntryStatus.event_id == event.id))}


def _checkins_undone(marks: EntryStatus) -> list[list[str]]:
    return json.loads(marks.checkins_undone) if marks.checkins_undone else []


def checked_in_after(marks: EntryStatus | None, moment: dt.datetime) -> bool:
    """Checked in (``marks``: the entry's), but only after ``moment``: a round seated
    then was seated without them, and seats them only when seated again (the next
    round, or a reseat). A check-in taken back after ``moment`` and given again
    does not make it so: they were checked in at ``moment`` all the same."""
    if marks is None or marks.checked_in_at is None:
        return False
    moment = aware(moment)
    if aware(marks.checked_in_at) <= moment:
        return False
    return not any(dt.datetime.fromisoformat(start) <= moment < dt.datetime.fromisoformat(end)
                   for start, end in _checkins_undone(marks))


def seatable(session: Session, event: Event, players: list) -> list:
    """The players a round may seat: all of them, or, when the event requires
    check-in, those checked in."""
    if not event_options(session, event).checkin:
        return players
    marks = entry_marks(session, event)
    return [p for p in players
            if p.id in marks and marks[p.id].checked_in_at is not None]


def evening_json(session: Session, event: Event) -> dict:
    """The event's evening for ``event show --json``: check-in required or not,
    the fee, and who is checked in and who paid (names only; never addresses)."""
    options = event_options(session, event)
    marks = entry_marks(session, event)
    names = {p.id: p.name for _, p in entries(session, event)}
    return {"checkin_required": options.checkin, "signup": options.signup, "fee": options.fee,
            "checked_in": [names[i] for i, m in marks.items()
                           if m.checked_in_at is not None and i in names],
            "paid": [names[i] for i, m in marks.items() if m.paid_at is not None and i in names]}


def set_evening(session: Session, event: Event, *, fee: float | None = None,
                signup: str | None = None) -> dict:
    """Set the entry fee and open or close sign-up; {setting: (before, after)} of
    what changed."""
    if signup is not None and signup not in ("open", "closed"):
        raise TourneyError(Message(N_("sign-up is open or closed, not %(value)s"),
                                   {"value": quoted(signup)}))
    if fee is not None and not (fee >= 0):
        raise TourneyError(Message(N_("a fee is 0 or more, not %(fee)s"), {"fee": str(fee)}))
    row = event_options(session, event)
    changed = {}
    for key, value in (("fee", fee), ("signup", signup)):
        if value is not None and getattr(row, key) != value:
            changed[key] = (getattr(row, key), value)
            setattr(row, key, value)
    if changed:
        session.add(row)
        session.flush()
        record_change(session, "event.set", event.slug, {k: b for k, (b, _) in changed.items()},
                      {k: a for k, (_, a) in changed.items()}, event_id=event.id)
    return changed


# ---------------------------------------------------------------- sign-up

def signups(session: Session, event: Event) -> list[SignupRequest]:
    return list(session.exec(select(SignupRequest).where(SignupRequest.event_id == event.id)
                             .order_by(SignupRequest.id)))


def decide_signup(session: Session, event: Event, request_id: int, approve: bool, *,
                  warnings: list | None = None) -> str:
    """Approve a pending sign-up (the player is registered when new, with club and
    e-mail, and entered) or reject it; the name. A new name that looks like a
    registered player's (``ANNA BERG`` for ``Anna Berg``, likely the same person
    signing up in other letters) is registered all the same, as ``player add`` does,
    and its :class:`~tourney.tournament.players.Lookalike` appended to ``warnings``
    when given."""
    from .events import enter_players
    from .players import add_players, player_by_name

    row = session.get(SignupRequest, request_id)
    if row is None or row.event_id != event.id:
        raise TourneyError(Message(N_("no sign-up %(id)s for %(event)s"),
                                   {"id": request_id, "event": event.slug}))
    if row.status != "pending":
        said = {"id": request_id, "player": row.name}
        raise TourneyError(Message(N_("sign-up %(id)s (%(player)s) is approved already"), said)
                           if row.status == "approved" else
                           Message(N_("sign-up %(id)s (%(player)s) is rejected already"), said))
    if approve:
        if player_by_name(session, row.name) is None:
            add_players(session, [row.name], club=row.club, email=row.email, warnings=warnings)
        enter_players(session, event, [row.name])
    row.status = "approved" if approve else "rejected"
    row.decided_at = utcnow()
    session.add(row)
    session.flush()
    record_change(session, f"event.signup.{row.status}", row.name, None, None,
                  event_id=event.id)
    return row.name


MAX_PENDING_SIGNUPS = 500  # per event: a sign-up page left open is not a database to fill


class SignupRefused(TourneyError):
    """A sign-up the page cannot take, typed for the caller to word: ``reason`` is
    ``closed`` (sign-up is not open), ``field`` (``field`` names the one that is
    wrong: ``name``, ``club``, ``email``), ``entered`` (that name is entered
    already) or ``full`` (too many sign-ups wait for the organizer)."""

    def __init__(self, reason: str, field: str | None = None, detail: str = ""):
        self.reason, self.field, self.detail = reason, field, detail
        super().__init__(detail or f"sign-up refused: {reason}" + (f" ({field})" if field else ""))


# How a name sent again may differ from a waiting sign-up's and still be the same
# person's (lookalike_kind's words): case and spaces are typing; accents may tell
# two people apart, and the organizer's page marks such a name anyway.
TYPED_OTHERWISE = ("case", "spaces")


@dataclass(frozen=True)
class SignupSent:
    """A sign-up taken: the request waiting for the organizer; ``updated`` when it
    was waiting already (the same name, or the same typed otherwise, sent again),
    with ``earlier`` its name before when that was typed otherwise."""

    request: SignupRequest
    updated: bool = False
    earlier: str | None = None


def add_signup(session: Session, event: Event, name: str, club: str | None,
               email: str | None) -> SignupSent:
    """A sign-up from the event's page, waiting for the organizer. A name sent
    again while its sign-up waits, exactly or apart from case and spaces ("anna
    berg" after "Anna  Berg"), updates that sign-up (one person, one request):
    it takes the name, club and address sent last."""
    from .players import clean_club, clean_email, clean_name

    if event_options(session, event).signup != "open":
        raise SignupRefused("closed")
    checked = {}
    for field_name, clean, value in (("name", clean_name, name), ("club", clean_club, club),
                                     ("email", clean_email, email)):
        try:
            checked[field_name] = clean(value)
        except TourneyError as err:
            raise SignupRefused("field", field_name, str(err)) from None
    if checked["email"] is None:
        raise SignupRefused("field", "email", "an e-mail address is needed to sign up")
    if any(p.name == checked["name"] for _, p in entries(session, event)):
        raise SignupRefused("entered")
    waiting = [r for r in signups(session, event) if r.status == "pending"]
    typed = checked["name"]
    key = lookalike_key(typed)
    row = next((r for r in waiting if r.name == typed), None) or next(
        (r for r in waiting if lookalike_key(r.name) == key
         and lookalike_kind(typed, r.name) in TYPED_OTHERWISE), None)
    new = row is None
    if new:
        if len(waiting) >= MAX_PENDING_SIGNUPS:
            raise SignupRefused("full")
        row = SignupRequest(event_id=event.id, name=typed)
    earlier = None if new or row.name == typed else row.name
    row.name, row.club, row.email = typed, checked["club"], checked["email"]
    session.add(row)
    session.flush()
    # the address stays out of the log, as out of every list
    if new:
        record_change(session, "event.signup", row.name, None, {"club": row.club},
                      event_id=event.id, actor="sign-up page")
    elif earlier is not None:
        record_change(session, "event.signup.update", row.name, {"name": earlier},
                      {"name": row.name}, event_id=event.id, actor="sign-up page")
    return SignupSent(row, updated=not new, earlier=earlier)
