"""The audit log: one row for every change to players, events, seating and results.

Call :func:`record_change` inside the same transaction as the change, so the log
and the data never disagree. ``before`` and ``after`` are JSON-able snapshots of
what changed (``None`` for "did not exist" / "no longer exists"); keep them small
and readable: names and numbers rather than whole rows.

Action names are ``noun.verb``: ``player.add``, ``player.rename``,
``player.merge``, ``player.import``, ``event.create``, ``event.enter``,
``event.withdraw``, ``round.seat``, ``round.reseat``, ``result.import``...

The actor is who ran the command: ``actor=`` if given, else ``TOURNEY_ACTOR``,
else the login name of the process.
"""
from __future__ import annotations

import getpass
import json
import os
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, select

from ..times import utc_iso
from .db import AUDITED
from .models import AuditLog, Event


def current_actor() -> str | None:
    """Who acts: the one a caller acts for (:func:`acting_as`: the organizer in the
    browser), else TOURNEY_ACTOR, else the login name."""
    acting = ACTOR.get()
    if acting:
        return acting
    actor = os.environ.get("TOURNEY_ACTOR")
    if actor:
        return actor[:100]
    try:
        return getpass.getuser()[:100]
    except Exception:  # no login name (some containers): not worth failing over
        return None


# Who acts, for the changes a caller makes on someone's behalf (the server: the
# organizer in the browser), so that every change down the call chain names them
# without each function passing it on.
ACTOR: ContextVar[str | None] = ContextVar("tourney_actor", default=None)


@contextmanager
def acting_as(actor: str):
    """Changes recorded inside name ``actor`` (unless one names its own)."""
    token = ACTOR.set(actor)
    try:
        yield
    finally:
        ACTOR.reset(token)


def _to_json(value: Any) -> str | None:
    if value is None:
        return None
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def record_change(session: Session, action: str, subject: str | None,
                  before: Any, after: Any, event_id: int | None = None,
                  actor: str | None = None) -> AuditLog:
    """Add an audit row to the session (committed with the change itself)."""
    row = AuditLog(
        action=action,
        subject=None if subject is None else str(subject)[:300],
        before_json=_to_json(before),
        after_json=_to_json(after),
        event_id=event_id,
        actor=actor or current_actor(),
    )
    session.add(row)
    # kept for the transaction's commit, which hands them to WRITES.stored
    session.info.setdefault(AUDITED, []).append((action, row.subject))
    return row


def list_changes(session: Session, *, event_id: int | None = None,
                 action: str | None = None, limit: int | None = None) -> list[AuditLog]:
    """Audit rows oldest first; ``action`` matches a whole name (``player.add``) or
    a noun (``player``); ``limit`` keeps the newest rows."""
    query = select(AuditLog)
    if event_id is not None:
        query = query.where(AuditLog.event_id == event_id)
    if action:
        if "." in action:
            query = query.where(AuditLog.action == action)
        else:
            query = query.where(AuditLog.action.startswith(action + "."))
    query = query.order_by(AuditLog.id.desc())
    if limit is not None:
        query = query.limit(limit)
    return list(reversed(session.exec(query).all()))


@dataclass(frozen=True)
class Change:
    """One audit row as ``tourney log`` reports it: its event by slug, the
    snapshots parsed back."""

    id: int | None
    at: str | None
    actor: str
    action: str
    event: str | None
    subject: str | None
    before: Any
    after: Any

    @classmethod
    def of(cls, row: AuditLog, event_slugs: dict[int, str] | None = None) -> "Change":
        return cls(row.id, utc_iso(row.at), row.actor, row.action,
                   (event_slugs or {}).get(row.event_id) if row.event_id is not None else None,
                   row.subject, json.loads(row.before_json) if row.before_json else None,
                   json.loads(row.after_json) if row.after_json else None)

    def to_json(self) -> dict:
        return {"id": self.id, "at": self.at, "actor": self.actor, "action": self.action,
                "event": self.event, "subject": self.subject, "before": self.before,
                "after": self.after}


def event_slugs(session: Session) -> dict[int, str]:
    return {e.id: e.slug for e in session.exec(select(Event))}
