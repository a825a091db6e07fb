"""Use cases of results entered at the tables (``tourney serve``): the links of a
round's tables, and what happens to a result sent through one: checked, kept,
stored, or refused.

The flow (one transaction per request, the link's row locked first, so two phones
sending the same table at once are served one after the other):

1. Every row must be of the link's own event, round and table (``other-table``):
   no link can touch another table's result.
2. A table whose match already has a result: the same content is "already stored"
   (nothing written); other valid content is a conflict the organizer settles:
   kept as a ``conflict`` submission beside the stored result (the phone is told
   so), until the organizer stores it as a new version (:func:`replace`) or
   dismisses it (:func:`dismiss`). Content that does not pass the checks (rows
   of another table included) is kept the same way, with its errors, and
   answered ``invalid``: the stored result stands, the organizer sees what was
   sent beside it and dismisses it (it can never be stored: :func:`replace`
   runs it through the checks again).
   The text this link stored, sent again while that is still the table's result,
   is known "already stored" from its digest alone (the second phone of a table).
3. A table with a submission waiting for the organizer: the same content is
   "already received"; other valid content is a conflict, kept the same way.
   Invalid content is answered with its errors and not kept: the waiting
   result stands.
4. Otherwise the rows go through the result import (every deal replayed or its
   score sheet checked, the match rules, the seating). Invalid: kept as an
   ``invalid`` submission with its errors, nothing stored. Valid: stored at once
   as a match version when the server auto-accepts, else kept as ``submitted``
   for the organizer to accept (which runs the same import) or reject.

The text sent is read and checked once, in memory (:func:`check_sent`, stage one
of the result import); each step of the flow that needs the import runs stage
two on what that gave (:func:`import_match`).
"""
from __future__ import annotations

import datetime as dt
import io
import json
import re
import sys
from dataclasses import dataclass, field
from dataclasses import replace as replaced

from sqlmodel import Session

from ..engines.presentation import N_, Message, message_from_json, message_json
from ..errors import RecordError
from ..numbers import plain_number
from ..records.checked import CheckedRecords, ImportOptions, check_records
from ..records.csv_format import RecordReader
from ..records.validation import DealCheck, MatchCheck, RecordChecker
from ..storage.audit import record_change
from ..storage.models import Event, Submission, TableLink
from ..tournament import table_links
from ..tournament.arbiter import optional_reason
from ..tournament.results import ImportRejected
from ..tournament.settings import event_settings
from ..tournament.stored_rounds import EventContexts
from ..tournament.table_links import (  # noqa: F401  (use cases as they are)
    close_round,
    reopen_round,
    round_closed,
    round_links,
)
from ..tournament.versions import match_detail, round_results
from .results import store_checked

# A sent result is written in one batch, at the end (see import_match).
ONE_BATCH = sys.maxsize

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
    # an invalid result kept beside the one the table has ("stored"), for the organizer
    beside: str | None = None
    # a conflict: the two versions, the one the table has ("stored" when accepted,
    # "waiting" when awaiting the organizer) and the one just sent
    versions: dict | None = None

    @property
    def status_code(self) -> int:
        return {INVALID: 422, CONFLICT: 409, CLOSED: 410}.get(self.outcome, 200)

    def to_json(self) -> dict:
        answer = {"outcome": self.outcome, "stored": self.stored, "event": self.event,
                  "round": self.round, "table": self.table, "submission": self.submission,
                  # a conflict is a valid result that differs from the table's own:
                  # the outcome says so, "valid" speaks of the result sent alone
                  "valid": not self.errors,
                  "errors": [error_json(e) for e in self.errors]}
        if self.message_words is not None:
            answer["message"] = self.message_words  # its English (a caller translates it)
        if self.outcome == CONFLICT:
            answer["versions"] = self.versions
        return answer

    @property
    def message_words(self) -> str | None:
        """What happens next, a catalogue message: for a conflict, or an invalid
        result kept beside the stored one; None otherwise."""
        if self.outcome == CONFLICT:
            return CONFLICT_MESSAGE
        return KEPT_INVALID_MESSAGE if self.beside else None


CONFLICT_MESSAGE = N_("This table's result differs from the one already sent; both are kept "
                      "and the organizer will compare them and decide which stands.")
KEPT_INVALID_MESSAGE = N_("This result does not pass the checks and was not stored: the "
                          "table's stored result stands; what was sent is kept beside it and "
                          "the organizer will decide.")


def error_json(err: RecordError) -> dict:
    """An error object as ``tourney validate --json`` writes one: ``error`` (the
    text) and ``rule`` beside the position (``line``, ``column``, ``move``, ``seat``
    from 1, ``player``)."""
    return {"kind": "deal" if err.line is not None and err.column != "table" else "match",
            "valid": False, "error": str(err), "rule": err.rule, **err.position()}


def error_from_json(data: dict) -> RecordError:
    """An error as :func:`_stored_error` keeps it (its seat 0-based, as stored): with
    its words where they were kept, else (stored before they were) its English."""
    words = data.get("words")
    return RecordError(message_from_json(words) if words else
                       data.get("message") or data.get("error") or "", rule=data.get("rule"),
                       line=data.get("line"), column=data.get("column"),
                       move=data.get("move"), seat=data.get("seat"),
                       token=data.get("token"), player=data.get("player"))


def _stored_error(err: RecordError) -> dict:
    # Stored as the library holds it: the seat 0-based (shown from 1 when read), the
    # words beside the English so a page says them in its language.
    stored = {"message": err.message, "rule": err.rule, "line": err.line,
              "column": err.column, "move": err.move, "seat": err.seat,
              "token": err.token, "player": err.player}
    if err.words is not None:
        stored["words"] = message_json(err.words)
    return stored


@dataclass
class SentCheck:
    """A result sent through a link, read and checked once (stage one of the
    import, in memory), ready for stage two (:func:`import_match`).

    ``other``: rows that name another event, round or table than the link's, or
    "no deal was entered": such a result never reaches stage two."""

    event: Event
    records: CheckedRecords
    contexts: EventContexts
    other: list[RecordError]


def link_contexts(session: Session, event: Event, link: TableLink) -> EventContexts:
    """What the import reads of the database for a result sent through ``link``
    (a round's table read alone when it is the first the import asks for)."""
    return EventContexts(session, known=[event])


def check_sent(session: Session, event: Event, link: TableLink, content: str,
               contexts: EventContexts | None = None) -> SentCheck:
    """Stage one on the text sent through ``link``, once: every row checked
    (replayed or its score sheet checked), kept in memory, the rows of another
    table found on the way. The link's event is the one already read (each event
    is read once for both stages); ``contexts``: :func:`link_contexts` made
    already."""
    other: list[RecordError] = []

    def of_the_link(row) -> None:
        if row.event not in (None, event.slug):
            other.append(RecordError(
                Message(N_("this link is for %(link)s, the row is for %(row)s"),
                        {"link": event.slug, "row": row.event}),
                rule="other-table", line=row.line, column="event"))
        elif row.round != link.round_number:
            other.append(RecordError(
                Message(N_("this link is for round %(link)s, the row is for round %(row)s"),
                        {"link": link.round_number, "row": row.round}),
                rule="other-table", line=row.line, column="round"))
        elif row.table != link.table:
            other.append(RecordError(
                Message(N_("this link is for table %(link)s, the row is for table %(row)s"),
                        {"link": link.table, "row": row.table}),
                rule="other-table", line=row.line, column="table"))

    contexts = contexts if contexts is not None else link_contexts(session, event, link)
    records = check_records(content.encode("utf-8"), events=contexts,
                            options=ImportOptions(event=event.slug), name=_file_name(link),
                            on_row=of_the_link).kept()
    # a whole-file problem (header, size) is the import's to report
    if records.error is None and not records.rows and not records.unfilled:
        other.append(RecordError(Message(N_("no deal was entered")), rule="no-deals"))
    return SentCheck(event, records, contexts, other)


@dataclass
class ImportOutcome:
    """What the import said about one match's rows."""

    errors: list[RecordError] = field(default_factory=list)
    added: int = 0
    unchanged: int = 0
    version_id: int | None = None  # the version stored, if one was

    @property
    def valid(self) -> bool:
        return not self.errors


def import_match(session: Session, sent: SentCheck, *, actor: str, dry_run: bool,
                 replace: bool = False) -> ImportOutcome:
    """Stage two of the result import on a checked result (``dry_run``: decide
    only), inside the caller's transaction, ratings refreshed (as ``tourney result
    import FILE --event SLUG``); ``replace``: a different stored result becomes
    the old version (``--replace``). A rejected import has written nothing: one
    table's result is written in one batch, at the end, once every match passed."""
    options = ImportOptions(event=sent.event.slug, dry_run=dry_run, replace=replace,
                            imported_by=actor, batch_deals=ONE_BATCH)
    try:
        report = store_checked(session, sent.records, options, contexts=sent.contexts)
    except ImportRejected as rejected:
        errors = rejected.report.errors
        for err in errors:
            err.file = None  # the file's name was made up here: it means nothing to players
        return ImportOutcome(errors=list(errors))
    return ImportOutcome(added=report.added, unchanged=report.unchanged,
                         version_id=report.version_ids[-1] if report.version_ids else None)


# The code in a link's history and audit entries as people see it everywhere else
# (the printed QR page, `round links`, the server's pages): 5JXB-NQ8H.
def _file_name(link: TableLink) -> str:
    table = re.sub(r"[^A-Za-z0-9_-]", "_", link.table)
    return f"table-{table}-round-{link.round_number}-link-{table_links.display_code(link.code)}.csv"


def link_actor(link: TableLink) -> str:
    return f"table {link.table} link {table_links.display_code(link.code)}"


def _has_result(contexts: EventContexts, event: Event, link: TableLink) -> bool:
    """Whether the link's table has a stored result: read with its round's seating
    for the import (:class:`~tourney.tournament.stored_rounds.RoundInfo`)."""
    stored = contexts.context(event.slug).round(link.round_number).table(link.table).stored
    return stored is not None and stored.version_id is not None


def submit(session: Session, link: TableLink, content: str, *, auto_accept: bool,
           locked: bool = False) -> Verdict:
    """Handle one result sent through ``link`` (see the module's flow); ``locked``:
    the caller read the link locked already (``link_by_token(..., lock=True)``)."""
    if not locked:
        link = table_links.lock_link(session, link)
    event = session.get(Event, link.event_id)
    verdict = Verdict(CLOSED, link.table, link.round_number, event.slug)
    if not table_links.link_open(session, link):
        return verdict
    digest = table_links.content_sha256(content)
    contexts = link_contexts(session, event, link)
    has_result = _has_result(contexts, event, link)
    if has_result and table_links.stores_as_sent(session, link, digest):
        verdict.outcome = UNCHANGED  # a second phone of the table: no check
        return verdict
    sent = check_sent(session, event, link, content, contexts)
    other = sent.other
    if has_result:
        if other:
            errors = other
        else:
            check = import_match(session, sent, actor=link_actor(link), dry_run=True)
            if check.valid and check.unchanged:
                verdict.outcome = UNCHANGED
                return verdict
            # "match-changed" only says it differs from the stored result
            errors = [e for e in check.errors if e.rule != "match-changed"]
        return _keep_conflict(session, event, link, content, digest, verdict, errors)
    if other:
        row = _keep_invalid(session, link, content, digest, other)
        verdict.outcome, verdict.errors, verdict.submission = INVALID, other, row.id
        return verdict
    waiting = table_links.latest_submission(session, link, (table_links.SUBMITTED,))
    if waiting is not None:
        if waiting.content_sha256 == digest:
            verdict.outcome, verdict.submission = PENDING, waiting.id
            return verdict
        check = import_match(session, sent, actor=link_actor(link), dry_run=True)
        if not check.valid:
            verdict.outcome, verdict.errors = INVALID, check.errors
            return verdict
        return _keep_conflict(session, event, link, content, digest, verdict)
    outcome = import_match(session, sent, actor=link_actor(link), dry_run=not auto_accept)
    if not outcome.valid:
        row = _keep_invalid(session, link, content, digest, outcome.errors)
        verdict.outcome, verdict.errors, verdict.submission = INVALID, outcome.errors, row.id
        return verdict
    if auto_accept:
        row = table_links.add_submission(session, link, content, table_links.ACCEPTED,
                                   version_id=outcome.version_id,
                                   decided_by=link_actor(link))
        verdict.outcome, verdict.stored, verdict.submission = STORED, True, row.id
        return verdict
    row = table_links.add_submission(session, link, content, table_links.SUBMITTED)
    verdict.outcome, verdict.submission = RECEIVED, row.id
    return verdict


# The invalid results a table link keeps, and its open conflicts (the latest ones of
# each): a phone in a loop sending bad or differing results must not grow the database
# (each may be a whole match) nor the organizer's page without end.
INVALID_KEPT_PER_TABLE = 5
CONFLICTS_KEPT_PER_TABLE = 5


def _keep_invalid(session: Session, link: TableLink, content: str, digest: str,
                  errors: list[RecordError]) -> Submission:
    """Keep an invalid result for the organizer: the same one sent again is the row
    already kept; of a table's invalid results only the latest few are kept."""
    latest = table_links.latest_submission(session, link)
    if latest is not None and latest.state == table_links.INVALID and latest.content_sha256 == digest:
        return latest
    row = table_links.add_submission(session, link, content, table_links.INVALID,
                               [_stored_error(e) for e in errors])
    table_links.prune_submissions(session, link, table_links.INVALID, INVALID_KEPT_PER_TABLE)
    return row


def _keep_conflict(session: Session, event: Event, link: TableLink, content: str,
                   digest: str, verdict: Verdict,
                   errors: list[RecordError] | None = None) -> Verdict:
    """Keep a result that differs from the table's own for the organizer (once:
    the same content again while its conflict is open is that conflict). With
    ``errors`` (it does not pass the checks) it is kept with them and answered
    ``invalid``: the table's stored result stands. Of a table's open conflicts only
    the latest few are kept (the audit log keeps that each came)."""
    row = next((c for c in table_links.open_conflicts(session, link)
                if c.content_sha256 == digest), None)
    if row is None:
        row = table_links.add_submission(session, link, content, table_links.CONFLICT,
                                   [_stored_error(e) for e in errors or []])
        record_change(session, "submission.conflict", _subject(event, link), None,
                      {"submission": row.id, "link": table_links.display_code(link.code),
                       "valid": not errors},
                      event_id=event.id, actor=link_actor(link))
        table_links.prune_submissions(session, link, table_links.CONFLICT,
                                      CONFLICTS_KEPT_PER_TABLE)
    verdict.submission = row.id
    if errors:
        verdict.outcome, verdict.errors, verdict.beside = INVALID, errors, "stored"
    else:
        verdict.outcome = CONFLICT
        verdict.versions = conflict_versions(session, event, link, content)
    return verdict


def conflict_versions(session: Session, event: Event, link: TableLink, content: str) -> dict:
    """Both versions of a conflict as the organizer's review shows them: ``current``
    (the table's stored result, or the one waiting: ``against``) and ``sent``."""
    if table_links.stored_result(session, link) is not None:
        current = stored_results(session, event, link.round_number).get(link.table)
        against = "stored"
    else:
        waiting = table_links.latest_submission(session, link, (table_links.SUBMITTED,))
        current = sent_result(event, waiting.content) if waiting is not None else None
        against = "waiting" if waiting is not None else None
    return {"against": against, "current": current.to_json() if current else None,
            "sent": sent_result(event, content).to_json()}


def _subject(event: Event, link: TableLink) -> str:
    return f"{event.slug} round {link.round_number} table {link.table}"


class DecisionRefused(Exception):
    """The organizer's accept or reject no longer applies (shown as a message); its
    ``words`` for a page (:func:`tourney.web.messages.error_text`)."""

    def __init__(self, words: Message):
        super().__init__(str(words))
        self.words = words


# A submission's states as a refused decision names them (its English: the state)
STATE_WORDS = {table_links.SUBMITTED: N_("submitted"), table_links.ACCEPTED: N_("accepted"),
               table_links.REJECTED: N_("rejected"), table_links.INVALID: N_("invalid"),
               table_links.CONFLICT: N_("conflict"), table_links.DISMISSED: N_("dismissed")}


def _still(session: Session, submission: Submission, state: str) -> TableLink:
    """Lock the submission's table link (a decision at a time per table), read the
    submission again and check it is still ``state`` (else DecisionRefused: the
    table's result was decided meanwhile); the link."""
    link = table_links.lock_link(session, session.get(TableLink, submission.link_id))
    session.refresh(submission)
    if submission.state != state:
        state_words = STATE_WORDS.get(submission.state)
        # said as the organizer sees it (a table of a round, not a submission's id):
        # another tab or organizer decided it meanwhile
        raise DecisionRefused(Message(
            N_("table %(table)s's result in round %(round)s was already decided "
               "(%(state)s): reload the page"),
            {"table": link.table, "round": link.round_number,
             "state": Message(state_words) if state_words else submission.state}))
    return link


# The longest reason kept with a decision (Submission.note); the organizer's page's
# boxes take as much, and a longer one is refused, never cut.
NOTE_LENGTH = 300


def _settle_unstored(session: Session, submission: Submission, state: str,
                     decision: str, action: str, by: str, note: str | None) -> None:
    """Decide a submission without storing its result (reject, dismiss); ``note``,
    the organizer's reason, is kept with it and in the audit log (refused when
    longer than NOTE_LENGTH characters: a note cut short says something else)."""
    note = optional_reason(note, most=NOTE_LENGTH)
    link = _still(session, submission, state)
    table_links.decide(session, submission, decision, by, note=note)
    event = session.get(Event, link.event_id)
    record_change(session, action, _subject(event, link), None,
                  {"submission": submission.id, "link": table_links.display_code(link.code),
                   "note": note},
                  event_id=event.id, actor=by)


def _stored(session: Session, submission: Submission, link: TableLink, event: Event,
            by: str, action: str, before: dict | None) -> None:
    """Mark a submission whose result was just stored accepted, with the version it
    made, and write the audit entry (``before``: what it replaced, if anything)."""
    match = table_links.stored_result(session, link)
    table_links.decide(session, submission, table_links.ACCEPTED, by, version_id=match.current_version_id)
    record_change(session, action, _subject(event, link), before,
                  {"submission": submission.id, "link": table_links.display_code(link.code),
                   "version_id": match.current_version_id}, event_id=event.id, actor=by)


def accept(session: Session, submission: Submission, by: str) -> list[RecordError]:
    """Store a waiting submission through the import; the errors if it no longer
    passes (then it is marked invalid)."""
    link = _still(session, submission, table_links.SUBMITTED)
    event = session.get(Event, link.event_id)
    outcome = import_match(session, check_sent(session, event, link, submission.content),
                           actor=link_actor(link), dry_run=False)
    if not outcome.valid:
        table_links.decide(session, submission, table_links.INVALID, by,
                     errors=[_stored_error(e) for e in outcome.errors])
        return outcome.errors
    _stored(session, submission, link, event, by, "submission.accept", None)
    return []


def reject(session: Session, submission: Submission, by: str, note: str | None) -> None:
    """Refuse a waiting submission; the table can send again."""
    _settle_unstored(session, submission, table_links.SUBMITTED,
                     table_links.REJECTED, "submission.reject", by, note)


def replace(session: Session, submission: Submission, by: str) -> list[RecordError]:
    """Settle a conflict by storing its result: a new version of the table's match
    (the one it replaces stays in the match's history), or, when the result it
    differed from was still waiting, the match's result (the waiting one is then
    rejected). The errors if it no longer passes the checks (it stays a conflict)."""
    link = _still(session, submission, table_links.CONFLICT)
    event = session.get(Event, link.event_id)
    before = table_links.stored_result(session, link)
    replaced_version = before.current_version_id if before is not None else None
    # a result kept with rows of another table never reaches the import
    sent = check_sent(session, event, link, submission.content)
    outcome = ImportOutcome(errors=sent.other) if sent.other else import_match(
        session, sent, actor=link_actor(link), dry_run=False, replace=before is not None)
    if not outcome.valid:
        submission.errors_json = json.dumps([_stored_error(e) for e in outcome.errors],
                                            ensure_ascii=False)
        session.add(submission)
        session.flush()
        return outcome.errors
    waiting = table_links.latest_submission(session, link, (table_links.SUBMITTED,))
    if waiting is not None:
        # no note: a note is the organizer's reason, shown at the table as typed;
        # what replaced it is in the audit entry below, as data
        table_links.decide(session, waiting, table_links.REJECTED, by)
    _stored(session, submission, link, event, by, "submission.replace",
            {"version_id": replaced_version,
             "submission": waiting.id if waiting is not None else None})
    return []


def dismiss(session: Session, submission: Submission, by: str, note: str | None) -> None:
    """Settle a conflict by leaving the table's result as it is."""
    _settle_unstored(session, submission, table_links.CONFLICT,
                     table_links.DISMISSED, "submission.dismiss", by, note)


def stored_errors(submission: Submission) -> list[RecordError]:
    return [error_from_json(e) for e in json.loads(submission.errors_json or "[]")]


# ---------------------------------------------------------------- what was sent

def _shown_places(places: list[int | None]) -> list[tuple[int | None, bool]]:
    """Each place with whether it is shared, as a result grid shows it (1=)."""
    return [(place, place is not None and places.count(place) > 1) for place in places]


# A result of up to this many deals is shown with each deal's scores at once; a
# longer one behind a disclosure (its totals and places always show).
COMPACT_DEALS = 12


@dataclass
class SentResult:
    """One table's result as the organizer compares it: the players in seat order
    (deal 1's), each deal's scores by player (canonical text, "" where a player
    has none), and the totals and places the engine computed; the errors of a
    result that does not pass."""

    players: list[str]
    deals: list[tuple[int, list[str]]] = field(default_factory=list)
    totals: list[float | int | None] = field(default_factory=list)
    places: list[int | None] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=list)
    lines: dict[int, int] = field(default_factory=dict)  # line of the CSV -> its deal
    # each deal's dealer, where the record names one (a correction of a stored result
    # starts from it where the game has the dealer chosen)
    dealers: dict[int, str] = field(default_factory=dict)

    @property
    def compact(self) -> bool:
        return len(self.deals) <= COMPACT_DEALS

    def differences(self, other: "SentResult | None") -> set[tuple]:
        """The cells that differ from ``other``'s: ("player", seat), ("deal",
        number, seat), ("total", seat), ("place", seat) (seats from 0)."""
        if other is None:
            return set()
        out = set()
        width = len(self.players)
        for seat in range(width):
            # a place as shown: "4=" (shared) differs from "4"
            for kind, mine, theirs in (("player", self.players, other.players),
                                       ("total", self.totals, other.totals),
                                       ("place", _shown_places(self.places),
                                        _shown_places(other.places))):
                if seat >= len(theirs) or mine[seat] != theirs[seat]:
                    out.add((kind, seat))
        theirs = dict(other.deals)
        for number, scores in self.deals:
            other_scores = theirs.get(number)
            for seat in range(width):
                if other_scores is None or seat >= len(other_scores) \
                        or other_scores[seat] != scores[seat]:
                    out.add(("deal", number, seat))
        return out

    @property
    def error_cells(self) -> set[tuple]:
        """The score cells the errors name (a deal and a seat), as :meth:`differences`."""
        return {("deal", self.lines[e.line], e.seat) for e in self.errors
                if e.line in self.lines and e.seat is not None}

    def to_json(self) -> dict:
        return {"players": [{"seat": seat + 1, "player": name, "total": self.totals[seat],
                             "place": self.places[seat]}
                            for seat, name in enumerate(self.players)],
                "deals": [{"deal": number, "scores": [_score_value(text) for text in scores]}
                          for number, scores in self.deals],
                "errors": [error_json(e) for e in self.errors]}


def _score_value(text: str) -> int | float | str | None:
    """A deal's score in JSON: a number as the totals are (None where a player has
    none); a text that is no number (an invalid result's) stays the text sent."""
    if text == "":
        return None
    if not _PLAIN_NUMBER.fullmatch(text):  # float() would take "1_0", " 5", "1e3"
        return text
    return plain_number(float(text))


_PLAIN_NUMBER = re.compile(r"-?[0-9]{1,15}(\.[0-9]{1,15})?")


# sent_result's answers by (event, rules, content): a submission's content never
# changes, and the organizer's page is reloaded often. Read-only once made.
_SENT: dict[tuple, SentResult] = {}
_SENT_KEPT = 512


def sent_result(event: Event, content: str) -> SentResult:
    """What a submission's record CSV says, worked out by the engine as the import
    checks it (nothing is read from or written to the database). The answer is
    shared: copy it (``dataclasses.replace``) before changing it."""
    key = (event.slug, event.variant, event.rules_json, table_links.content_sha256(content))
    known = _SENT.get(key)
    if known is None:
        if len(_SENT) >= _SENT_KEPT:
            _SENT.clear()
        known = _SENT[key] = _sent_result(event, content)
    return known


def _sent_result(event: Event, content: str) -> SentResult:
    settings = event_settings(event)
    game, options = settings.game, settings.options
    slug, variant = event.slug, event.variant

    def resolve(record) -> None:
        record.event = record.event or slug
        record.variant = record.variant or variant

    checker = RecordChecker(options_for=lambda record, game: options, keep_deals=True)
    reader = RecordReader(io.BytesIO(content.encode("utf-8")), None, errors="yield")
    match: MatchCheck | None = None
    errors: list[RecordError] = []
    try:
        for item in checker.check_stream(reader, resolve=resolve):
            if isinstance(item, MatchCheck) and match is None:
                match = item
            elif isinstance(item, DealCheck) and item.error is not None:
                errors.append(item.error)
    except RecordError as err:  # the whole text: header, size
        return SentResult([], errors=[err])
    deals = match.deals if match is not None else []
    first = next((d.record for d in deals if d.record is not None), None)
    if first is None:
        return SentResult([], errors=errors)
    players = list(first.players)
    result = SentResult(players, errors=errors,
                        lines={d.line: d.record.deal for d in deals if d.record is not None})
    for check in sorted((d for d in deals if d.record is not None), key=lambda d: d.record.deal):
        scores = dict.fromkeys(players, "")
        if check.outcome is not None:
            for name, value in zip(check.record.players, check.outcome.scores):
                scores[name] = game.format_score(value)
        elif check.record.scores:
            scores.update(zip(check.record.players, check.record.scores))
        result.deals.append((check.record.deal, [scores.get(n, "") for n in players]))
        if check.record.dealer:
            result.dealers[check.record.deal] = check.record.dealer
    ranking = match.result if match is not None and match.valid else None
    places = dict(ranking.ranking) if ranking is not None else {}
    result.totals = [plain_number(ranking.totals[n]) if ranking and n in ranking.totals
                     else None for n in players]
    result.places = [places.get(n) for n in players]
    if match is not None and match.error is not None and match.error.rule != "invalid-deals":
        result.errors.append(match.error)
    return result


def stored_results(session: Session, event: Event, round_number: int) -> dict[str, SentResult]:
    """The stored result (current version) of each table of a round that has one,
    as :func:`sent_result` shows a submission."""
    return {table: _stored_result(detail)
            for table, detail in round_results(session, event, round_number).items()}


def _stored_result(detail: dict) -> SentResult:
    """A stored match (``places`` and ``deals`` as :func:`match_detail` gives them)
    as :func:`sent_result` shows a submission."""
    by_seat = sorted(detail["places"], key=lambda p: p["seat"])
    players = [p["player"] for p in by_seat]
    result = SentResult(players, totals=[p["total"] for p in by_seat],
                        places=[p["place"] for p in by_seat])
    for deal in detail["deals"]:
        scores = dict(zip(deal["players"], (deal["scores"] or "").split(";")))
        result.deals.append((deal["deal"], [scores.get(n, "") for n in players]))
        if deal.get("dealer"):
            result.dealers[deal["deal"]] = deal["dealer"]
    return result


@dataclass(frozen=True)
class TableResult:
    """A table's stored result as its own page shows it: the result (players,
    scores, totals, places), its version and when it was stored (UTC)."""

    result: SentResult
    version: int
    stored_at: dt.datetime


def table_result(session: Session, link: TableLink) -> TableResult | None:
    """The stored result (current version) of a link's table; None without one."""
    if table_links.stored_result(session, link) is None:
        return None
    event = session.get(Event, link.event_id)
    detail = match_detail(session, event.slug, link.round_number, link.table)
    return TableResult(_stored_result(detail), detail["version"],
                       dt.datetime.fromisoformat(detail["imported_at"].replace("Z", "+00:00")))


@dataclass
class Conflict:
    """A result that differs from the table's own, beside the one it differs from
    (``against``: ``stored`` or ``waiting``; None when the table has neither now).
    ``invalid``: it does not pass the checks (``sent.errors`` say why), so it can
    only be dismissed."""

    submission: Submission
    sent: SentResult
    current: SentResult | None
    against: str | None
    invalid: bool = False

    @property
    def differences(self) -> set[tuple]:
        return self.sent.differences(self.current)

    @property
    def marks(self) -> set[tuple]:
        """The cells to mark: the scores the errors are about for an invalid result,
        else what differs from the other result."""
        return self.sent.error_cells if self.invalid else self.differences


@dataclass
class TableReview:
    """What the organizer sees of one table: its state, what it sent (a waiting
    or invalid result), its stored result (an accepted table), and its conflicts."""

    state: table_links.TableState
    sent: SentResult | None = None
    stored: SentResult | None = None
    conflicts: list[Conflict] = field(default_factory=list)
    # the result waiting was sent after the round's clock ran out (`round start`)
    late: bool = False

    def to_json(self) -> dict:
        return {"late": self.late, "sent": self.sent.to_json() if self.sent else None,
                "stored": self.stored.to_json() if self.stored else None,
                "conflicts": [{"submission": c.submission.id, "against": c.against,
                               "valid": not c.invalid, "sent": c.sent.to_json(),
                               "current": c.current.to_json() if c.current else None}
                              for c in self.conflicts]}


@dataclass
class EarlierRound:
    """A round before the latest one with conflicts not yet settled: the tables that
    have one, each as the organizer reviews it (only its conflicts are shown)."""

    number: int
    reviews: list[TableReview]


def earlier_conflicts(session: Session, event: Event, before: int) -> list[EarlierRound]:
    """Every round before round ``before`` with a conflict not yet settled, newest
    first, with the tables that have one (each keeps at most
    ``CONFLICTS_KEPT_PER_TABLE``): a conflict stays in view until it is decided, when
    the next round is seated too."""
    out = []
    for number in table_links.rounds_with_open_conflicts(session, event, before):
        tables = [t for t in table_links.table_states(session, event, number) if t.conflicts]
        out.append(EarlierRound(number, review_tables(session, event, tables)))
    return out


def review_tables(session: Session, event: Event,
                  tables: list[table_links.TableState]) -> list[TableReview]:
    """Each table of a round as the organizer reviews it (see :class:`TableReview`)."""
    from ..tournament.seat_changes import round_clock

    reviews = []
    if not tables:
        return reviews
    stored = (stored_results(session, event, tables[0].link.round_number)
              if any(t.state == table_links.ACCEPTED for t in tables) else {})
    clock = round_clock(session, event, tables[0].link.round_number)
    for table in tables:
        review = TableReview(table, stored=stored.get(table.table)
                             if table.state == table_links.ACCEPTED else None)
        submission = table.submission
        if submission is not None and table.state in (table_links.SUBMITTED, table_links.INVALID):
            review.sent = sent_result(event, submission.content)
            if table.state == table_links.INVALID:  # the import's own words (seating too)
                review.sent = replaced(review.sent, errors=stored_errors(submission))
            review.late = clock.late(submission.submitted_at)
        if table.conflicts:
            if table.state == table_links.ACCEPTED:
                current, against = review.stored, "stored"
            elif table.state == table_links.SUBMITTED:
                current, against = review.sent, "waiting"
            else:
                current, against = None, None
            for row in table.conflicts:
                sent, errors = sent_result(event, row.content), stored_errors(row)
                if errors:  # kept invalid, or no longer passing when stored: the import's words
                    sent = replaced(sent, errors=errors)
                review.conflicts.append(Conflict(row, sent, current, against,
                                                 invalid=bool(errors)))
        reviews.append(review)
    return reviews
