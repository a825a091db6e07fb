"""Use cases of results entered at the tables (``tourney serve``): the links of a
round's tables, and what happens to a result sent through one: checked, kept,
stored, or refused.

The flow (one transaction per request, the link's row locked first, so two phones
sending the same table at once are served one after the other):

1. Every row must be of the link's own event, round and table (``other-table``):
   no link can touch another table's result.
2. A table whose match already has a result: the same content is "already stored"
   (nothing written); other content is a conflict the organizer settles.
3. A table with a submission waiting for the organizer: the same content is
   "already received"; other content is a conflict.
4. Otherwise the rows go through the result import (every deal replayed or its
   score sheet checked, the match rules, the seating). Invalid: kept as an
   ``invalid`` submission with its errors, nothing stored. Valid: stored at once
   as a match version when the server auto-accepts, else kept as ``submitted``
   for the organizer to accept (which runs the same import) or reject.
"""
from __future__ import annotations

import io
import json
import os
import re
import tempfile
from dataclasses import dataclass, field

from sqlmodel import Session

from ..errors import RecordError
from ..records.csv_format import RecordReader
from ..storage.audit import record_change
from ..storage.models import Event, Submission, TableLink
from ..tournament import entry
from ..tournament.entry import close_round, round_links  # noqa: F401  (use cases as they are)
from ..tournament.results import ImportRejected
from .results import import_results

STORED, RECEIVED, UNCHANGED, PENDING, INVALID, CONFLICT, CLOSED = (
    "stored", "received", "unchanged", "pending", "invalid", "conflict", "closed")


@dataclass
class Verdict:
    """The answer to one submission (the JSON API sends it as it is)."""

    outcome: str  # stored | received | unchanged | pending | invalid | conflict | closed
    table: str
    round: int
    event: str
    stored: bool = False
    errors: list[RecordError] = field(default_factory=list)
    submission: int | None = None

    @property
    def status_code(self) -> int:
        return {INVALID: 422, CONFLICT: 409, CLOSED: 410}.get(self.outcome, 200)

    def to_json(self) -> dict:
        return {"outcome": self.outcome, "stored": self.stored, "event": self.event,
                "round": self.round, "table": self.table, "submission": self.submission,
                "valid": not self.errors and self.outcome != CONFLICT,
                "errors": [error_json(e) for e in self.errors]}


def error_json(err: RecordError) -> dict:
    """An error object as ``tourney validate --json`` writes one: ``error`` (the
    text) and ``rule`` beside the position (``line``, ``column``, ``move``, ``seat``
    from 1, ``player``)."""
    return {"kind": "deal" if err.line is not None and err.column != "table" else "match",
            "valid": False, "error": str(err), "rule": err.rule, **err.position()}


def error_from_json(data: dict) -> RecordError:
    """An error as :func:`_stored_error` keeps it (its seat 0-based, as stored)."""
    return RecordError(data.get("message") or data.get("error") or "", rule=data.get("rule"),
                       line=data.get("line"), column=data.get("column"),
                       move=data.get("move"), seat=data.get("seat"),
                       token=data.get("token"), player=data.get("player"))


def _stored_error(err: RecordError) -> dict:
    # Stored as the library holds it: the seat 0-based (shown from 1 when read).
    return {"message": err.message, "rule": err.rule, "line": err.line,
            "column": err.column, "move": err.move, "seat": err.seat,
            "token": err.token, "player": err.player}


def rows_of_other_tables(content: str, event: Event, link: TableLink) -> list[RecordError]:
    """Rows that name another event, round or table than the link's."""
    errors = []
    reader = RecordReader(io.BytesIO(content.encode("utf-8")), None, errors="yield")
    rows = 0
    try:
        for item in reader:
            rows += 1
            if isinstance(item, RecordError):
                continue  # the import reports it
            if item.event not in (None, event.slug):
                errors.append(RecordError(
                    f"this link is for {event.slug}, the row is for {item.event}",
                    rule="other-table", line=item.line, column="event"))
            elif item.round != link.round_number:
                errors.append(RecordError(
                    f"this link is for round {link.round_number}, the row is for round "
                    f"{item.round}", rule="other-table", line=item.line, column="round"))
            elif item.table != link.table:
                errors.append(RecordError(
                    f"this link is for table {link.table}, the row is for table {item.table}",
                    rule="other-table", line=item.line, column="table"))
    except RecordError:
        return errors  # a whole-file problem (header, size): the import reports it
    if not rows and not reader.unfilled:
        errors.append(RecordError("no deal was entered", rule="no-deals"))
    return errors


@dataclass
class ImportOutcome:
    """What the import said about one match's rows."""

    errors: list[RecordError] = field(default_factory=list)
    added: int = 0
    unchanged: int = 0

    @property
    def valid(self) -> bool:
        return not self.errors


_SCRATCH: list[str] = []


def _scratch_folder() -> str:
    """This process's folder for the files handed to the import: made once (a
    folder per request cost more than the import of a small match). A file's name
    is its link's, and what is sent through one link is handled under its row
    lock, one at a time."""
    if not _SCRATCH or not os.path.isdir(_SCRATCH[0]):
        _SCRATCH[:] = [tempfile.mkdtemp(prefix="tourney-serve-")]
    return _SCRATCH[0]


def import_match(session: Session, event_slug: str, content: str, *, name: str,
                 actor: str, dry_run: bool) -> ImportOutcome:
    """Check (``dry_run``) or store one match's record CSV through the result import
    (as ``tourney result import FILE --event SLUG``, ratings refreshed), inside the
    caller's transaction. ``name`` is the file name the version and the audit log
    show. A rejected import leaves nothing behind (its savepoint is rolled back)."""
    path = os.path.join(_scratch_folder(), name)
    try:
        with open(path, "w", encoding="utf-8", newline="") as stream:
            stream.write(content)
        savepoint = session.begin_nested()
        try:
            report = import_results(session, path, event=event_slug, dry_run=dry_run,
                                    imported_by=actor)
        except ImportRejected as rejected:
            savepoint.rollback()
            errors = rejected.report.errors
            for err in errors:
                err.file = None  # the scratch file's path means nothing to players
            return ImportOutcome(errors=list(errors))
        except BaseException:
            savepoint.rollback()
            raise
        savepoint.commit()
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
    return ImportOutcome(added=report.added, unchanged=report.unchanged)


def _file_name(link: TableLink) -> str:
    table = re.sub(r"[^A-Za-z0-9_-]", "_", link.table)
    return f"table-{table}-round-{link.round_number}-link-{link.code}.csv"


def link_actor(link: TableLink) -> str:
    return f"table {link.table} link {link.code}"


def submit(session: Session, link: TableLink, content: str, *, auto_accept: bool) -> Verdict:
    """Handle one result sent through ``link`` (see the module's flow)."""
    link = entry.lock_link(session, link)
    event = session.get(Event, link.event_id)
    verdict = Verdict(CLOSED, link.table, link.round_number, event.slug)
    if not entry.link_open(session, link):
        return verdict
    digest = entry.content_sha256(content)
    other = rows_of_other_tables(content, event, link)
    if other:
        row = entry.add_submission(session, link, content, entry.INVALID,
                                   [_stored_error(e) for e in other])
        verdict.outcome, verdict.errors, verdict.submission = INVALID, other, row.id
        return verdict
    if entry.stored_result(session, link) is not None:
        check = import_match(session, event.slug, content, name=_file_name(link),
                                      actor=link_actor(link), dry_run=True)
        if check.valid and check.unchanged:
            verdict.outcome = UNCHANGED
            return verdict
        if not check.valid and any(e.rule != "match-changed" for e in check.errors):
            verdict.outcome, verdict.errors = INVALID, check.errors
            return verdict
        verdict.outcome = CONFLICT
        return verdict
    waiting = entry.latest_submission(session, link, (entry.SUBMITTED,))
    if waiting is not None:
        verdict.submission = waiting.id
        verdict.outcome = PENDING if waiting.content_sha256 == digest else CONFLICT
        return verdict
    outcome = import_match(session, event.slug, content, name=_file_name(link),
                                    actor=link_actor(link), dry_run=not auto_accept)
    if not outcome.valid:
        row = entry.add_submission(session, link, content, entry.INVALID,
                                   [_stored_error(e) for e in outcome.errors])
        verdict.outcome, verdict.errors, verdict.submission = INVALID, outcome.errors, row.id
        return verdict
    if auto_accept:
        match = entry.stored_result(session, link)
        row = entry.add_submission(session, link, content, entry.ACCEPTED,
                                   version_id=match.current_version_id,
                                   decided_by=link_actor(link))
        verdict.outcome, verdict.stored, verdict.submission = STORED, True, row.id
        return verdict
    row = entry.add_submission(session, link, content, entry.SUBMITTED)
    verdict.outcome, verdict.submission = RECEIVED, row.id
    return verdict


class DecisionRefused(Exception):
    """The organizer's accept or reject no longer applies (shown as a message)."""


def accept(session: Session, submission: Submission, by: str) -> list[RecordError]:
    """Store a waiting submission through the import; the errors if it no longer
    passes (then it is marked invalid)."""
    link = entry.lock_link(session, session.get(TableLink, submission.link_id))
    session.refresh(submission)
    if submission.state != entry.SUBMITTED:
        raise DecisionRefused(f"submission {submission.id} is {submission.state}, "
                              "not waiting for a decision")
    event = session.get(Event, link.event_id)
    outcome = import_match(session, event.slug, submission.content,
                                    name=_file_name(link), actor=link_actor(link),
                                    dry_run=False)
    if not outcome.valid:
        entry.decide(session, submission, entry.INVALID, by,
                     errors=[_stored_error(e) for e in outcome.errors])
        return outcome.errors
    match = entry.stored_result(session, link)
    entry.decide(session, submission, entry.ACCEPTED, by, version_id=match.current_version_id)
    record_change(session, "submission.accept",
                  f"{event.slug} round {link.round_number} table {link.table}", None,
                  {"submission": submission.id, "link": link.code,
                   "version_id": match.current_version_id}, event_id=event.id, actor=by)
    return []


def reject(session: Session, submission: Submission, by: str, note: str | None) -> None:
    """Refuse a waiting submission; the table can send again."""
    link = entry.lock_link(session, session.get(TableLink, submission.link_id))
    session.refresh(submission)
    if submission.state != entry.SUBMITTED:
        raise DecisionRefused(f"submission {submission.id} is {submission.state}, "
                              "not waiting for a decision")
    entry.decide(session, submission, entry.REJECTED, by, note=note)
    event = session.get(Event, link.event_id)
    record_change(session, "submission.reject",
                  f"{event.slug} round {link.round_number} table {link.table}", None,
                  {"submission": submission.id, "link": link.code, "note": note},
                  event_id=event.id, actor=by)


def stored_errors(submission: Submission) -> list[RecordError]:
    return [error_from_json(e) for e in json.loads(submission.errors_json or "[]")]
