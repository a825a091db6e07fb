"""Results entered at the tables: each table's private link and what was sent through it.

A seated round's tables each get a :class:`~tourney.storage.models.TableLink`: an
unguessable token (the URL, printed as a QR code on the seat list) and a short code
to type. What players send through a link is kept as a
:class:`~tourney.storage.models.Submission`, with the engines' verdict; an accepted
submission points at the match version the import stored.

This module keeps the rows; checking and storing a result goes through the same
import as a file (``tourney serve`` calls both).

Decisions:

- A link is open while its round is the event's latest seated round and the
  organizer has not closed it: seating the next round closes the previous round's
  links without any write (a link is never reopened by a reseat of a later round).
- Tokens are 32 URL-safe characters from :mod:`secrets` (192 bits); codes are 8
  characters from an alphabet without look-alikes (0/O, 1/I/L), about 40 bits,
  enough because wrong codes are rate-limited.
- A table's state, for the organizer: ``accepted`` when its match has a current
  result (however it got there, a file import included), else ``forfeited`` when
  the arbiter scored it without a match (``tourney result forfeit``: the arbiter's
  decision outranks whatever the table sent before it, and a forfeited table's link
  takes no more results), else the state of its latest submission (``submitted``:
  valid and waiting for the organizer; ``invalid``), else ``waiting`` (a rejected
  submission puts the table back there).
"""
from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import delete
from sqlmodel import Session, select

from ..errors import TourneyError
from ..errors.words import N_, Message, and_words
from ..ordering import table_order
from ..storage.audit import record_change
from ..storage.bulk import BulkInsert
from ..storage.models import (  # a submission's states: their home is the model's
    ACCEPTED,
    CONFLICT,
    DISMISSED,
    INVALID,
    REJECTED,
    SUBMITTED,
    Event,
    Match,
    Submission,
    TableLink,
    utcnow,
)
from .rounds import get_round, seated_keys
from .stored_rounds import last_seated

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
# A table's states are a submission's (above) and these two.
WAITING = "waiting"  # nothing sent yet
FORFEITED = "forfeited"  # scored without a match (a table state, never a submission's)
# The submissions a table's state is read from (a conflict row waits beside them).
STATE_ROWS = (SUBMITTED, INVALID, ACCEPTED, REJECTED)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    """A typed code as stored: upper case, without spaces or dashes."""
    return "".join(ch for ch in (text or "").upper() if ch.isalnum())[:CODE_LENGTH * 2]


def display_code(code: str) -> str:
    """A code as shown to people, everywhere (CLI, printed QR page): in two halves,
    ``7AMQ-7AXW``; typed with or without the dash, it is the same code."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}" if half else code


def content_sha256(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def round_links(session: Session, event: Event, number: int) -> list[TableLink]:
    """The links of every table of a seated round, in table order; the missing ones
    are made (so the caller's session must be a writing one). `round seat` makes a
    round's links, so they are written as one bulk insert and read back by one
    query: the statements sent do not grow with the round's tables."""
    tables, _ = seated_keys(session, get_round(session, event, number))

    def stored() -> dict[str, TableLink]:
        return {link.table: link for link in session.exec(select(TableLink).where(
            TableLink.event_id == event.id, TableLink.round_number == number))}

    links = stored()
    missing = [table for table in tables if table not in links]
    if missing:
        writer = BulkInsert(session, TableLink.__table__,
                            ("event_id", "round_number", "table", "token", "code",
                             "created_at"))
        made_at = writer.bound("created_at", utcnow())
        writer.write([(event.id, number, table, new_token(), new_code(), made_at)
                      for table in missing])
        links = stored()
    return [links[t] for t in sorted(tables, key=table_order)]


def _plausible_token(token: str) -> bool:
    return bool(token) and len(token) <= 64


# session.info key: the links of tokens read locked already (lock_links_by_token)
_LOCKED_LINKS = "tourney.locked_links"
_LINKS_EVENTS = "tourney.locked_links_events"  # held: see lock_links_by_token
# session.info key: ids of locked links known to have no submission waiting for the
# organizer (lock_links_by_token; a link leaves it when one is added)
_NONE_WAITING = "tourney.locked_links_none_waiting"


def lock_links_by_token(session: Session, tokens) -> None:
    """Read the links of ``tokens`` locked, in one statement, for the transaction's
    later :func:`link_by_token` (``lock=True``) calls to take without a statement
    each: the server's group commit reads a batch's links at once (on PostgreSQL a
    statement is a round trip). Locked in the order of their ids, so two batches
    (two server processes) that share links wait for each other rather than
    deadlock. A token no link has is remembered as such. Their events are read
    too, and held for the transaction (the session's identity map holds objects
    weakly: each submission would read its event again), and which of them have
    a result waiting for the organizer (:func:`latest_submission` of those
    without one needs no statement: a link's rows change only under its lock)."""
    wanted = sorted({token for token in tokens if _plausible_token(token)})
    if not wanted:
        return
    found: dict[str, TableLink | None] = dict.fromkeys(wanted)
    query = (select(TableLink).where(TableLink.token.in_(wanted)).order_by(TableLink.id)
             .with_for_update().execution_options(populate_existing=True))
    for link in session.exec(query):
        found[link.token] = link
    session.info.setdefault(_LOCKED_LINKS, {}).update(found)
    link_ids = {link.id for link in found.values() if link is not None}
    if not link_ids:
        return
    event_ids = {link.event_id for link in found.values() if link is not None}
    session.info.setdefault(_LINKS_EVENTS, []).extend(
        session.exec(select(Event).where(Event.id.in_(event_ids))))
    waiting = set(session.exec(select(Submission.link_id).distinct().where(
        Submission.link_id.in_(link_ids), Submission.state == SUBMITTED)))
    session.info.setdefault(_NONE_WAITING, set()).update(link_ids - waiting)


def link_by_token(session: Session, token: str, *, lock: bool = False) -> TableLink | None:
    """The link of ``token``; ``lock``: read it locked, as :func:`lock_link` does
    (one statement for a link that is used at once; none when
    :func:`lock_links_by_token` read it already in this transaction)."""
    if not _plausible_token(token):
        return None
    if lock:
        locked = session.info.get(_LOCKED_LINKS)
        if locked is not None and token in locked:
            return locked[token]
    query = select(TableLink).where(TableLink.token == token)
    if lock:
        query = query.with_for_update().execution_options(populate_existing=True)
    return session.exec(query).first()


def link_by_code(session: Session, code: str) -> TableLink | None:
    code = normalize_code(code)
    if len(code) != CODE_LENGTH:
        return None
    return session.exec(select(TableLink).where(TableLink.code == code)).first()


def lock_link(session: Session, link: TableLink) -> TableLink:
    """Serialise what is sent through one link: on PostgreSQL its row is locked
    until the transaction ends (SQLite's write transaction serialises anyway)."""
    locked = session.exec(select(TableLink).where(TableLink.id == link.id)
                          .with_for_update().execution_options(populate_existing=True)).one()
    return locked


def link_open(session: Session, link: TableLink) -> bool:
    if link.closed_at is not None:
        return False
    event = session.get(Event, link.event_id)
    return last_seated(session, event) == link.round_number


def round_closed(session: Session, event: Event, number: int,
                 links: list[TableLink]) -> str | None:
    """Why a round's links take no results (:func:`link_open`), None while they
    do: ``later-round`` (a later round is seated) or ``closed`` (the organizer
    closed the round)."""
    if last_seated(session, event) != number:
        return "later-round"
    if any(link.closed_at is not None for link in links):
        return "closed"
    return None


def close_round(session: Session, event: Event, number: int, *, force: bool = False) -> int:
    """Close the links of a round (no more results through them); how many. A
    round with tables still waiting for a result, or for the organizer's decision,
    is closed only with ``force``: closing it by mistake would turn those tables'
    phones away (:func:`reopen_round` takes it back)."""
    if not force:
        open_tables = [state.table for state in table_states(session, event, number)
                       if state.undecided]
        if open_tables:
            raise TourneyError(Message(
                N_("round %(round)s of %(event)s has tables without a stored result or with "
                   "a result waiting for a decision: %(tables)s"),
                {"round": number, "event": event.slug, "tables": and_words(open_tables)}),
                setting="force")
    closed = _set_closed(session, event, number, utcnow())
    if closed:
        record_change(session, "round.close", f"{event.slug} round {number}", None,
                      {"links_closed": closed}, event_id=event.id)
    return closed


def reopen_round(session: Session, event: Event, number: int) -> int:
    """Open the closed links of the latest seated round again (a round closed by
    mistake); how many. An earlier round's links stay closed: a later round is
    seated."""
    if last_seated(session, event) != number:
        raise TourneyError(Message(N_("round %(round)s of %(event)s is not the latest seated "
                                      "round: its links stay closed"),
                                   {"round": number, "event": event.slug}))
    opened = _set_closed(session, event, number, None)
    if opened:
        record_change(session, "round.reopen", f"{event.slug} round {number}", None,
                      {"links_opened": opened}, event_id=event.id)
    return opened


def _set_closed(session: Session, event: Event, number: int, closed_at: datetime | None) -> int:
    """Close (at ``closed_at``) or, with None, open again the links of a round that
    are not so already; how many."""
    changed = 0
    for link in session.exec(select(TableLink).where(
            TableLink.event_id == event.id, TableLink.round_number == number,
            TableLink.closed_at.is_(None) if closed_at is not None
            else TableLink.closed_at.is_not(None))):
        link.closed_at = closed_at
        session.add(link)
        changed += 1
    session.flush()
    return changed


def stored_result(session: Session, link: TableLink) -> Match | None:
    """The link's match when it has a current result."""
    return session.exec(select(Match).where(
        Match.event_id == link.event_id, Match.round_number == link.round_number,
        Match.table == link.table, Match.current_version_id.is_not(None))).first()


def stores_as_sent(session: Session, link: TableLink, digest: str) -> bool:
    """Whether the link's table has as its current result the version that a text
    of sha256 ``digest`` sent through this link stored (an accepted submission):
    the same text again is unchanged, with no need to read and check it anew."""
    return session.exec(
        select(Submission.id).join(Match, Match.current_version_id == Submission.version_id)
        .where(Submission.link_id == link.id, Submission.state == ACCEPTED,
               Submission.content_sha256 == digest, Match.event_id == link.event_id,
               Match.round_number == link.round_number, Match.table == link.table)
        .limit(1)).first() is not None


def latest_submission(session: Session, link: TableLink,
                      states: tuple[str, ...] | None = None) -> Submission | None:
    if states == (SUBMITTED,) and link.id in session.info.get(_NONE_WAITING, ()):
        return None  # known without a statement (lock_links_by_token)
    query = select(Submission).where(Submission.link_id == link.id)
    if states:
        query = query.where(Submission.state.in_(states))
    return session.exec(query.order_by(Submission.id.desc())).first()


def open_conflicts(session: Session, link: TableLink) -> list[Submission]:
    """The link's conflicts not yet settled, oldest first."""
    return list(session.exec(select(Submission).where(
        Submission.link_id == link.id, Submission.state == CONFLICT).order_by(Submission.id)))


def rounds_with_open_conflicts(session: Session, event: Event, before: int) -> list[int]:
    """The rounds of ``event`` before round ``before`` with a conflict not yet
    settled (a differing result, or an invalid one kept for review), newest first."""
    return list(session.exec(
        select(TableLink.round_number).join(Submission, Submission.link_id == TableLink.id)
        .where(TableLink.event_id == event.id, TableLink.round_number < before,
               Submission.state == CONFLICT)
        .distinct().order_by(TableLink.round_number.desc())))


def add_submission(session: Session, link: TableLink, content: str, state: str,
                   errors: list[dict] | None = None, version_id: int | None = None,
                   decided_by: str | None = None) -> Submission:
    row = Submission(link_id=link.id, content=content, content_sha256=content_sha256(content),
                     state=state, errors_json=json.dumps(errors or [], ensure_ascii=False),
                     version_id=version_id, decided_by=decided_by,
                     decided_at=utcnow() if decided_by else None)
    # no longer known to have none waiting (kept out even if this row is rolled
    # back to a savepoint: latest_submission then asks the database, as ever)
    session.info.get(_NONE_WAITING, set()).discard(link.id)
    session.add(row)
    session.flush()
    return row


def prune_submissions(session: Session, link: TableLink, state: str, keep: int) -> int:
    """Delete all but the latest ``keep`` submissions of ``link`` in ``state``; how
    many went."""
    ids = list(session.exec(select(Submission.id).where(
        Submission.link_id == link.id, Submission.state == state)
        .order_by(Submission.id.desc()).offset(keep)))
    if ids:
        session.exec(delete(Submission).where(Submission.id.in_(ids)))
    return len(ids)


def decide(session: Session, submission: Submission, state: str, by: str, *,
           version_id: int | None = None, errors: list[dict] | None = None,
           note: str | None = None) -> None:
    submission.state = state
    submission.decided_by = (by or "")[:100] or None
    submission.decided_at = utcnow()
    submission.version_id = version_id
    if errors is not None:
        submission.errors_json = json.dumps(errors, ensure_ascii=False)
    submission.note = (note or "")[:300] or None
    session.add(submission)
    session.flush()


def get_submission(session: Session, submission_id: int) -> Submission:
    row = session.get(Submission, submission_id)
    if row is None:
        raise TourneyError(Message(N_("no submission %(id)s"), {"id": submission_id}))
    return row


@dataclass
class TableState:
    table: str
    players: list[str]
    state: str
    link: TableLink
    submission: Submission | None
    submitted_at: datetime | None
    # results that differ from the table's own, waiting for the organizer
    conflicts: list[Submission] = field(default_factory=list)

    @property
    def undecided(self) -> bool:
        """Whether the table waits for a result, or for the organizer's decision on
        one (a result of its own, or a differing one beside the stored)."""
        return self.state not in (ACCEPTED, FORFEITED) or bool(self.conflicts)

    @property
    def errors(self) -> list[dict]:
        if self.submission is None or self.state != INVALID:
            return []
        return json.loads(self.submission.errors_json or "[]")


def _state_of(stored: bool, forfeited: bool, submission: Submission | None) -> str:
    """A table's state from what it has (see the module's decisions: their order)."""
    if stored:
        return ACCEPTED
    if forfeited:
        return FORFEITED
    if submission is not None and submission.state in (SUBMITTED, INVALID):
        return submission.state
    return WAITING


def table_state(session: Session, link: TableLink) -> str:
    """One table's state (see the module's decisions)."""
    # each read only when the one before it does not settle the state
    stored = stored_result(session, link) is not None
    forfeited = not stored and link.table in forfeited_tables(session, link.event_id,
                                                               link.round_number)
    submission = None if stored or forfeited else latest_submission(session, link, STATE_ROWS)
    return _state_of(stored, forfeited, submission)


def forfeited_tables(session: Session, event_id: int, number: int) -> set[str]:
    """The tables of round ``number`` scored by a forfeit (``tourney result forfeit``)."""
    from ..storage.models import Forfeit

    return set(session.exec(select(Forfeit.table).where(
        Forfeit.event_id == event_id, Forfeit.round_number == number)).all())


def table_states(session: Session, event: Event, number: int) -> list[TableState]:
    """Every table of a seated round with its state (see the module's decisions)."""
    from ..storage.models import Player

    links = round_links(session, event, number)
    tables, _ = seated_keys(session, get_round(session, event, number))
    ids = {pid for keys in tables.values() for pid in keys}
    names = dict(session.exec(select(Player.id, Player.name).where(Player.id.in_(ids))).all()) \
        if ids else {}
    done = set(session.exec(select(Match.table).where(
        Match.event_id == event.id, Match.round_number == number,
        Match.current_version_id.is_not(None))))
    forfeited = forfeited_tables(session, event.id, number)
    latest: dict[int, Submission] = {}
    conflicts: dict[int, list[Submission]] = {}
    link_ids = [link.id for link in links]
    if link_ids:
        for row in session.exec(select(Submission).where(
                Submission.link_id.in_(link_ids), Submission.state != DISMISSED)
                .order_by(Submission.id)):
            if row.state == CONFLICT:
                conflicts.setdefault(row.link_id, []).append(row)
            else:
                latest[row.link_id] = row
    states = []
    for link in links:
        submission = latest.get(link.id)
        state = _state_of(link.table in done, link.table in forfeited, submission)
        states.append(TableState(link.table, [names[p] for p in tables[link.table]], state,
                                 link, submission,
                                 submission.submitted_at if submission else None,
                                 conflicts.get(link.id, [])))
    return states
