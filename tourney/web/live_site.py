"""The live site: ``tourney serve --site DIR`` publishes the static site again by
itself after each change, so that the public standings follow the evening.

Decisions (docs/decisions.md, "The server keeps the site live"):

- What sets a publish off: a transaction of the server that committed a change the
  audit log records (:meth:`Server.writing`, the one way the server writes). Whether
  the site shows it is the publish's own question: a publish whose content stamp is
  the last one's leaves the site as it is (a check-in costs a few reads, no page).
- One publisher at a time, coalescing: changes that come while a publish runs ask
  for one more publish after it, however many they are (a burst of 30 results: two
  publishes). The publish runs in a thread of its own, never on a request's path: a
  result is answered once committed, whatever the site is doing.
- One job (no forked workers): the server is a threaded process (the event loop, the
  thread pool of the requests, this thread), and a fork copies only the forking
  thread: a lock another thread held at that moment (the database pool's, the
  logging's, an allocator's) stays locked in the child for ever. The publish after
  one result renders a few pages (too few to fork for, :data:`AUTO_JOBS_MIN_PAGES`),
  and one job leaves the venue's requests the other cores.
- A failing publish (disk full, a foreign file in the folder) is reported, typed
  (:class:`LivePublishFailed`), to the server's log (``report``) and kept for the
  organizer's page; the server goes on and the result stays stored. The next change
  tries again.
- No audit entry per automatic publish: it changes nothing in the database, and a
  row per result would double the audit log of an evening; the organizer's Publish
  button still records ``site.publish`` (someone chose to).
- Shut-down: no publish starts after :meth:`LivePublisher.stop`; one under way gets
  a few seconds to finish and is otherwise abandoned (the thread is a daemon): the
  next publish into the folder cleans what a cut-short build left.
- ``--workers N``: each result is committed by one process, and only that process's
  publisher hears of it: N processes publish once a result, not N times. Publishes of
  two processes into one folder take turns (:func:`tourney.reports.folders.site_lock`).
"""
from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass
from typing import Callable

from tourney.engines.presentation import N_, Message
from tourney.errors import TourneyError

# How long the server's exit waits for a publish under way before abandoning it.
STOP_SECONDS = 5.0


class LivePublishFailed(TourneyError):
    """The live site could not be published (its reason, typed, inside)."""


@dataclass(frozen=True)
class LivePublish:
    """How the last live publish went: when it ended, the files it changed (0: the
    site already showed everything), or why it failed."""

    at: dt.datetime
    changed_files: int = 0
    error: LivePublishFailed | None = None


def publish_failure(folder: str, err: Exception) -> LivePublishFailed:
    """``err`` of a publish into ``folder`` as the live site reports it: its own
    words when it has some (a full disk, a foreign file), else its text."""
    reason = getattr(err, "words", None) or str(err) or type(err).__name__
    return LivePublishFailed(Message(
        N_("the site in %(folder)s could not be published: %(reason)s"),
        {"folder": folder, "reason": reason}))


class LivePublisher:
    """Runs ``publish()`` in a thread of its own each time :meth:`changed` is called,
    one at a time, coalescing (the module's decisions). ``publish`` returns the
    publish's report (its ``changed_files``); ``report(state)`` hears of each
    publish that failed, and of the first that worked again after one that failed."""

    def __init__(self, publish: Callable, folder: str,
                 report: Callable[[LivePublish], None] | None = None):
        self._publish = publish
        self._folder = folder
        self._report = report
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._again = False
        self._stopped = False
        self.last: LivePublish | None = None
        self.publishes = 0  # publishes run (tests and the organizer's page count them)

    @property
    def running(self) -> bool:
        return self._thread is not None

    def changed(self) -> None:
        """Something the site may show changed: publish, now or after the publish
        under way (once, however often this is called meanwhile)."""
        with self._lock:
            if self._stopped:
                return
            if self._thread is not None:
                self._again = True
                return
            self._thread = threading.Thread(target=self._run, name="tourney-live-site",
                                            daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                report = self._publish()
                # a first publish replaced no site: every page it wrote is new
                changed = (report.changed_files if report.changed_files is not None
                           else report.pages)
                state = LivePublish(dt.datetime.now(dt.timezone.utc), changed_files=changed)
            except Exception as err:  # noqa: BLE001 - reported; the server goes on
                state = LivePublish(dt.datetime.now(dt.timezone.utc),
                                    error=publish_failure(self._folder, err))
            with self._lock:
                recovered = state.error is None and self.last is not None \
                    and self.last.error is not None
                self.last = state
                self.publishes += 1
                again = self._again and not self._stopped
                self._again = False
                if not again:
                    self._thread = None
                    self._idle.notify_all()
            if self._report is not None and (state.error is not None or recovered):
                try:
                    self._report(state)
                except Exception:  # noqa: BLE001, S110 - a log that fails loses one line
                    pass
            if not again:
                return

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no publish runs or is asked for; whether it came to that."""
        with self._lock:
            return self._idle.wait_for(lambda: self._thread is None, timeout)

    def stop(self, timeout: float | None = None) -> None:
        """No publish from now on; the one under way gets ``timeout`` seconds
        (:data:`STOP_SECONDS`)."""
        timeout = STOP_SECONDS if timeout is None else timeout
        with self._lock:
            self._stopped = True
            self._again = False
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
