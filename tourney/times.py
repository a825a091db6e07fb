"""Moments as tourney reports them: the one text form of a stored time.

Every time is stored in UTC (:func:`tourney.storage.models.utcnow`); SQLite gives
it back without a zone, PostgreSQL with one. Whatever prints a time as data (every
``--json``, the audit log, the published open data) writes it with
:func:`utc_iso`, so one moment reads the same everywhere.
"""
from __future__ import annotations

import datetime as dt


def aware(moment: dt.datetime) -> dt.datetime:
    """A stored time with its zone (SQLite gives UTC back without one), so that two
    stored times compare whichever database they come from."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.timezone.utc)


def utc_iso(moment: dt.datetime | None) -> str | None:
    """``moment`` as ISO 8601 in UTC to the second, with a ``Z``:
    ``2026-12-03T16:31:58Z`` (a time without a zone is taken as UTC, as stored);
    ``None`` for none."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    return moment.astimezone(dt.timezone.utc).isoformat(timespec="seconds").replace(
        "+00:00", "Z")
