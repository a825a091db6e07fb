"""The server's group commit: the results that arrive while a write is under way
wait for it, and are then stored together, in one transaction.

When every table of a round sends at once, the requests would otherwise each
take the database's writer in turn, each with its own transaction, its own
ratings refresh and its own snapshot keep (most of a result's cost). Here the
first request is written at once; those arriving meanwhile queue, and the next
transaction takes all of them:

- one whose work raises is undone alone and answered alone, the others stand:
  the works run side by side, and if one raises, the transaction is rolled back
  and the batch runs again with each work in a savepoint of its own
  (:func:`~tourney.storage.db.savepoint`), which costs two statements a request
  (round trips, on PostgreSQL) only when it is needed;
- what the batch's works will each read first is read once for all of them
  (``prepare(session, keys)``: the server locks the batch's table links in one
  statement, in the order of their ids), before the first runs;
- the ratings are refreshed, and the series' snapshots kept, once for the batch
  (:func:`~tourney.app.results.refreshing_once`), and each round's seating is
  read once for the batch's tables (:func:`~tourney.tournament.stored_rounds.sharing_rounds`);
- the batch commits, and only then is any of its requests answered: each
  acknowledged result is stored (a kill before the commit loses the batch, and
  no request of it was answered).

A request whose work lost a race with another process (a unique constraint, a
PostgreSQL deadlock or serialization failure) is run again on its own once the
batch is done, as :meth:`Server.in_transaction` retries any write; so is every
request of a batch whose commit lost such a race. A batch that fails otherwise
(the database busy for the whole timeout, an error of the refresh) gives its
error to each of its requests, as each would have had it on its own.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Callable, ContextManager

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from tourney.app.results import refreshing_once
from tourney.storage.db import ConflictingChange, savepoint
from tourney.tournament.stored_rounds import sharing_rounds

RETRYABLE = ("40P01", "40001")  # PostgreSQL: deadlock detected, serialization failure


def lost_race(err: BaseException) -> bool:
    """Whether ``err`` says another writer changed the same rows at the same time
    (run the work again and it sees what the other stored)."""
    if isinstance(err, (IntegrityError, ConflictingChange)):
        return True
    return (isinstance(err, OperationalError)
            and getattr(err.orig, "sqlstate", None) in RETRYABLE)


@dataclass
class _Waiting:
    work: Callable  # work(session) -> answer
    answer: asyncio.Future
    key: Any = None  # what prepare reads for it (None: nothing)
    outcome: Any = None
    error: BaseException | None = None
    again: bool = False  # lost a race: run alone after the batch


@dataclass
class GroupCommit:
    """Writes queued while one is under way, stored together (module docstring).

    ``writing()``: a batch's transaction (the server's one way of writing,
    :meth:`Server.writing`: its write lock, the live site told of what committed);
    ``alone``: runs one work in a transaction of its own, retrying lost races
    (:meth:`Server.in_transaction`); ``prepare(session, keys)``: run first in a
    batch's transaction with the keys its works were given (the module's
    docstring)."""

    writing: Callable[[], ContextManager[Session]]
    alone: Callable[[Callable], Any]
    prepare: Callable[[Any, list], None] | None = None
    queue: list[_Waiting] = field(default_factory=list)
    running: bool = False
    written: int = 0  # batches written
    largest: int = 0  # requests in the largest batch
    _draining: asyncio.Future | None = None

    async def run(self, work: Callable, key: Any = None) -> Any:
        """``work(session)`` stored with whatever else is waiting; its own answer
        (or its own exception), once the batch it was in has committed. ``key``:
        for ``prepare``."""
        waiting = _Waiting(work, asyncio.get_running_loop().create_future(), key)
        self.queue.append(waiting)
        if not self.running:
            self.running = True
            # kept: the event loop holds only a weak reference to a task
            self._draining = asyncio.ensure_future(self._drain())
        # shielded: a client that goes away does not stop the batch its result is in
        return await asyncio.shield(waiting.answer)

    async def _drain(self) -> None:
        try:
            while self.queue:
                batch, self.queue = self.queue, []
                self.written += 1
                self.largest = max(self.largest, len(batch))
                try:
                    await run_in_threadpool(self._write, batch)
                except BaseException as err:  # noqa: BLE001 - handed to each request
                    self._settle(batch, err)
                else:
                    self._settle(batch, None)
        finally:
            self.running = False

    def _settle(self, batch: list[_Waiting], failed: BaseException | None) -> None:
        for waiting in batch:
            if waiting.answer.done():
                continue
            error = failed if failed is not None else waiting.error
            if error is not None:
                waiting.answer.set_exception(error)
            else:
                waiting.answer.set_result(waiting.outcome)

    def _write(self, batch: list[_Waiting]) -> None:
        """One transaction for the batch (in a worker thread), then the works that
        lost a race each alone.

        The works run first side by side, without a savepoint each (two statements
        a request fewer: on PostgreSQL each is a round trip); if one raises, that
        transaction is rolled back, nothing of it answered, and the batch runs
        again with a savepoint each, so the one that raised is undone alone."""
        if len(batch) == 1:  # as any write: a transaction of its own
            only = batch[0]
            try:
                only.outcome = self.alone(only.work)
            except Exception as err:  # noqa: BLE001 - this request's own answer
                only.error = err
            return
        try:
            try:
                self._transaction(batch, isolated=False)
            except _WorkFailed:
                self._transaction(batch, isolated=True)
        except Exception as err:
            if not lost_race(err):
                raise
            for waiting in batch:  # nothing of the batch was written
                waiting.again = True
        for waiting in batch:
            if waiting.again:
                waiting.outcome, waiting.error = None, None
                try:
                    waiting.outcome = self.alone(waiting.work)
                except Exception as err:  # noqa: BLE001 - this request's own answer
                    waiting.error = err

    def _transaction(self, batch: list[_Waiting], *, isolated: bool) -> None:
        """The batch's works in one transaction: ``isolated``, each in a savepoint
        of its own (its error its own answer); else the first that raises rolls the
        whole transaction back (:class:`_WorkFailed`)."""
        for waiting in batch:
            waiting.outcome, waiting.error, waiting.again = None, None, False
        with self.writing() as session, \
                refreshing_once(session) as later, sharing_rounds(session) as shared:
            if self.prepare is not None:
                self.prepare(session, [w.key for w in batch if w.key is not None])
            for waiting in batch:
                mark = later.mark()
                try:
                    if isolated:
                        with savepoint(session):
                            waiting.outcome = waiting.work(session)
                    else:
                        waiting.outcome = waiting.work(session)
                except Exception as err:  # noqa: BLE001 - this request's own answer
                    if not isolated:
                        raise _WorkFailed() from err
                    later.undo_since(mark)
                    shared.forget()
                    waiting.again, waiting.error = lost_race(err), err


class _WorkFailed(Exception):
    """A work of a batch run without savepoints raised: the batch runs again with them."""
