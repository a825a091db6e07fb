"""Stage two of a result import, the writing: accepted matches as new match
versions with their deals and places, in batches of bulk INSERTs by the backend's
fastest path (:class:`~tourney.storage.bulk.BulkInsert`: one writer per table,
one statement per table per batch), and the audit rows of the import.

Audit: one ``result.import`` row per event touched by an import (the counts, the
file and its sha256), one ``result.replace`` row per replaced match. Per-match rows
for plain additions would double the writes of a season import and say nothing
the versions do not.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import func, select, update
from sqlmodel import Session

from ..engines.match import MatchRanking
from ..errors.words import N_, Message
from ..records.csv_format import CONTENT_FIELDS, DealRecord
from ..storage.audit import record_change
from ..storage.bulk import BulkInsert, set_by_id
from ..storage.db import ConflictingChange
from ..storage.models import Deal, MatchPlace, MatchVersion, utcnow
from .scoring import match_points
from .stored_rounds import MATCH_T, VERSION_T, EventContext, EventContexts, StoredMatch

DEAL_T = Deal.__table__
PLACE_T = MatchPlace.__table__

# Deals buffered before one batch of INSERTs: big enough to amortise round trips,
# small enough that a million-deal file never sits in memory.
BATCH_DEALS = 5000
# The columns of the deal and place rows the importer writes, in tuple order.
DEAL_COLUMNS = ("version_id", "number") + CONTENT_FIELDS + ("claimed_scores", "verified")
PLACE_COLUMNS = ("version_id", "player_id", "seat", "place", "total", "match_points")
MATCH_COLUMNS = ("event_id", "round_number", "table", "current_version_id")
# A version row's columns: the match and the time of import first (the same for
# every version of an import), then the keys of Accepted.version_row.
VERSION_COLUMNS = ("match_id", "imported_at", "version", "content_sha256", "source_file",
                   "source_sha256", "imported_by", "superseded_at", "deals",
                   "verified_moves", "ranking_json")


@dataclass
class Accepted:
    """A valid match waiting for its batch of INSERTs."""

    ctx: EventContext
    round: int
    table: str
    match_id: int | None
    old_version_id: int | None
    version: int
    version_row: dict
    deals: list[tuple]
    places: list[tuple]


class VersionWriter:
    """The new versions of one import, written in batches of ``batch_deals`` deals."""

    def __init__(self, session: Session, *, source_file: str, imported_by: str,
                 batch_deals: int | None = None):
        self.session = session
        self.source_file = source_file
        self.imported_by = imported_by
        self.batch_deals = batch_deals or BATCH_DEALS
        self.now = utcnow()
        self._pending: list[Accepted] = []
        self._pending_deals = 0
        # this import's versions stored before the file's hash was known (read as it
        # streams), given the hash at the end
        self._version_ids: list[int] = []
        self.added: dict[str, list[int]] = {}  # variant -> the matches this import made
        self.version_ids: list[int] = []  # every version written, in order
        self._bulk: dict[str, BulkInsert] = {}  # table name -> its writer

    def add(self, ctx: EventContext, first: DealRecord, seats: list[tuple[int, str]],
            deals: list[tuple[int, int, bool, str]], rows: list[tuple[str, ...]],
            digest: str, result: MatchRanking, stored: StoredMatch | None,
            source_sha256: str) -> None:
        """A valid match as a new version (of ``stored``, when there is one)."""
        version = 1
        if stored is not None:
            version = 1 + (self.session.execute(
                select(func.max(MatchVersion.version))
                .where(MatchVersion.match_id == stored.match_id)).scalar() or 0)
        ids = {name: player_id for player_id, name in seats}
        seat_of = {name: seat for seat, (_, name) in enumerate(seats)}
        places = [place for _, place in result.ranking]
        points = match_points(places, ctx.event.points)
        # Rows as tuples of PLACE_COLUMNS and DEAL_COLUMNS without the version id,
        # which flush puts in front once the versions are stored.
        place_rows = [
            (ids[name], seat_of[name], place, float(result.totals[name]), pts)
            for (name, place), pts in zip(result.ranking, points)
        ]
        deal_rows = []
        verified_moves = 0
        for (_, number, claimed, verified), (_, players, dealer, hands, stock, passes, play,
                                             scores) in zip(deals, rows):
            verified_moves += verified == "moves"
            deal_rows.append((number, players, dealer or None, hands, stock, passes, play,
                              scores, claimed, verified))
        version_row = {
            "version": version, "content_sha256": digest, "source_file": self.source_file,
            "source_sha256": source_sha256 or None, "imported_by": self.imported_by,
            "superseded_at": None, "deals": len(rows),
            "verified_moves": verified_moves,
            "ranking_json": json.dumps([[n, p] for n, p in result.ranking], ensure_ascii=False),
        }
        accepted = Accepted(ctx, first.round, first.table,
                            stored.match_id if stored else None,
                            stored.version_id if stored else None, version,
                            version_row, deal_rows, place_rows)
        if stored is not None and stored.version_id is not None:
            ctx.replaced += 1
            ctx.replacements.append(accepted)
        else:
            ctx.added += 1
        self._pending.append(accepted)
        self._pending_deals += len(deal_rows)
        if self._pending_deals >= self.batch_deals:
            self.flush()

    def flush(self) -> None:
        pending, self._pending, self._pending_deals = self._pending, [], 0
        if not pending:
            return
        self._check_still_current([a for a in pending if a.match_id is not None])
        new = [a for a in pending if a.match_id is None]
        if new:
            ids = self._writer(MATCH_T, MATCH_COLUMNS).write_new(
                [(a.ctx.event.id, a.round, a.table, None) for a in new])
            for accepted, match_id in zip(new, ids):
                accepted.match_id = match_id
                self.added.setdefault(accepted.ctx.event.variant, []).append(match_id)
        versions = self._writer(VERSION_T, VERSION_COLUMNS)
        imported_at = versions.bound("imported_at", self.now)
        version_ids = versions.write_new(
            [(a.match_id, imported_at) + tuple(a.version_row[c] for c in VERSION_COLUMNS[2:])
             for a in pending])
        self._version_ids += [version_id for a, version_id in zip(pending, version_ids)
                              if a.version_row["source_sha256"] is None]  # stamped at the end
        self.version_ids += version_ids
        deals, places = [], []
        for accepted, version_id in zip(pending, version_ids):
            head = (version_id,)
            deals += [head + row for row in accepted.deals]
            places += [head + row for row in accepted.places]
            info = accepted.ctx.cached_round(accepted.round)
            if info is not None:  # an evicted round is read again when met again
                info.store(accepted.table, StoredMatch(
                    accepted.match_id, version_id, accepted.version_row["content_sha256"],
                    accepted.version))
            accepted.version_row["id"] = version_id
        self._writer(DEAL_T, DEAL_COLUMNS).write(deals)
        self._writer(PLACE_T, PLACE_COLUMNS).write(places)
        old = [a.old_version_id for a in pending if a.old_version_id is not None]
        if old:
            self.session.execute(update(VERSION_T).where(VERSION_T.c.id.in_(old))
                                 .values(superseded_at=self.now))
        set_by_id(self.session, MATCH_T, "current_version_id",
                  [(version_id, a.match_id) for a, version_id in zip(pending, version_ids)])

    def _writer(self, table, columns: tuple[str, ...]) -> BulkInsert:
        """The writer of ``table`` in the session's transaction, by the backend's
        fastest path (one per table, made once)."""
        writer = self._bulk.get(table.name)
        if writer is None:
            writer = self._bulk[table.name] = BulkInsert(self.session, table, columns)
        return writer

    def _check_still_current(self, replacing: list[Accepted]) -> None:
        """Lock the stored matches about to get a new version and check that their
        current version is still the one this import compared the file with.

        Another import (or a revert) may have stored a version since this one read
        the match; replacing what it read would leave two live versions, or
        silently undo the other command's work. The lock (PostgreSQL; SQLite's
        write lock is held from the start) makes a later command wait until this
        transaction ends, and then see what it stored.
        """
        if not replacing:
            return
        expected = {a.match_id: a for a in replacing}
        ids = sorted(expected)
        current: dict[int, int | None] = {}
        for start in range(0, len(ids), 1000):
            chunk = ids[start:start + 1000]
            current.update(self.session.execute(
                select(MATCH_T.c.id, MATCH_T.c.current_version_id)
                .where(MATCH_T.c.id.in_(chunk)).order_by(MATCH_T.c.id)
                .with_for_update()).all())
        for match_id in ids:
            accepted = expected[match_id]
            if current.get(match_id) != accepted.old_version_id:
                raise ConflictingChange(Message(
                    N_("%(event)s round %(round)s, table %(table)s: another command stored a "
                       "new version of this match while this import ran; nothing was "
                       "written. Run the import again: it then compares the file with what "
                       "the other one stored"),
                    {"event": accepted.ctx.event.slug, "round": accepted.round,
                     "table": accepted.table}))

    def stamp_source(self, sha256: str) -> None:
        """The file's sha256, known once it is read, on this import's versions."""
        ids = self._version_ids
        for start in range(0, len(ids), 1000):
            self.session.execute(update(VERSION_T).where(VERSION_T.c.id.in_(ids[start:start + 1000]))
                                 .values(source_sha256=sha256))


def audit_import(session: Session, contexts: EventContexts, *, source_file: str,
                 sha256: str, actor: str, reason: str | None = None) -> None:
    """The audit rows of an import: per replaced match, then per event touched;
    ``reason`` (a correction's why) in each row's after, when given."""
    why = {"reason": reason} if reason else {}
    for ctx in contexts:
        if not ctx.touched:
            continue
        replaced = _replaced_versions(session, [a.old_version_id for a in ctx.replacements])
        for accepted in ctx.replacements:
            old = replaced.get(accepted.old_version_id)
            # the places before and after, so the log alone answers "what was it?"
            before = {"version_id": accepted.old_version_id}
            if old is not None:
                before.update(version=old.version, content_sha256=old.content_sha256,
                              file=old.source_file, imported_by=old.imported_by,
                              ranking=json.loads(old.ranking_json or "[]"))
            record_change(
                session, "result.replace",
                f"{ctx.event.slug} round {accepted.round} table {accepted.table}",
                before,
                {"version": accepted.version, "version_id": accepted.version_row.get("id"),
                 "content_sha256": accepted.version_row["content_sha256"],
                 "file": source_file,
                 "ranking": json.loads(accepted.version_row.get("ranking_json") or "[]"),
                 **why},
                event_id=ctx.event.id, actor=actor)
        record_change(
            session, "result.import", f"{ctx.event.slug}: {source_file}", None,
            {"file": source_file, "sha256": sha256,
             "added": ctx.added, "replaced": ctx.replaced, **why},
            event_id=ctx.event.id, actor=actor)


def _replaced_versions(session: Session, ids: list) -> dict[int, MatchVersion]:
    """The versions an import replaced, by id (one query per thousand)."""
    ids = [i for i in ids if i is not None]
    found: dict[int, MatchVersion] = {}
    for start in range(0, len(ids), 1000):
        for row in session.execute(select(MatchVersion).where(
                MatchVersion.id.in_(ids[start:start + 1000]))).scalars():
            found[row.id] = row
    return found
