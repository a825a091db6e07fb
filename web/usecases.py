"""The operations the server shares with the CLI, in one place.

Every action of ``tourney serve`` that changes or reads tournament data goes
through these functions, which call the very services the CLI commands call
(result import, seating, standings, publishing): the server never re-implements
their checks. When the application layer of use cases lands, this module is the
one place to switch over.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field

from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.errors import RecordError
from tourney.reports.site import publish as publish_site
from tourney.tournament.events import get_event  # noqa: F401  (re-exported for the app)
from tourney.tournament.results import ImportRejected, import_results
from tourney.tournament.rounds import round_seating, seat_next_round  # noqa: F401
from tourney.tournament.sheets import score_sheet_rows  # noqa: F401
from tourney.tournament.standings import standings_table  # noqa: F401


@dataclass
class ImportOutcome:
    """What the import said about one match's rows."""

    errors: list[RecordError] = field(default_factory=list)
    added: int = 0
    unchanged: int = 0
    version_id: int | None = None

    @property
    def valid(self) -> bool:
        return not self.errors


def import_match(session: Session, event_slug: str, content: str, *, name: str,
                 actor: str, dry_run: bool) -> ImportOutcome:
    """Check (``dry_run``) or store one match's record CSV through the result import,
    as ``tourney result import FILE --event SLUG`` would, inside the caller's
    transaction. ``name`` is the file name the version and the audit log show.
    A rejected import leaves nothing behind (a savepoint is rolled back)."""
    folder = tempfile.mkdtemp(prefix="tourney-serve-")
    path = os.path.join(folder, name)
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
                err.file = None  # the temporary file's path means nothing to players
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
        os.rmdir(folder)
    return ImportOutcome(added=report.added, unchanged=report.unchanged)


def publish(engine: Engine, out: str, langs: list[str]):
    """``tourney publish --out OUT --lang ...``."""
    return publish_site(engine, out, langs=langs, background_cleanup=True)
