"""Use cases on the database itself: upgrading its schema (logged in the audit
log), copying it to a backup file."""
from __future__ import annotations

import os
import sqlite3
import tempfile

from sqlalchemy.engine import Engine

from ..errors import UsageError
from ..errors.words import N_, Message
from ..files import cannot_write
from ..storage import schema
from ..storage.audit import record_change
from ..storage.db import transaction


def upgrade_database(engine: Engine) -> tuple[str | None, str]:
    """Migrate the database to this tourney's schema and log the upgrade; the
    schema revisions before and after. Unlike the other use cases it takes an
    engine: a migration runs in transactions of its own."""
    before, after = schema.upgrade(engine)
    with transaction(engine) as session:
        record_change(session, "db.upgrade", f"schema {before or 'none'} -> {after}",
                      {"schema": before}, {"schema": after})
    return before, after


def backup_database(engine: Engine, path: str) -> int:
    """Copy a SQLite database, with everything committed so far (also what is still
    in its write-ahead log), to ``path``; the size of the copy in bytes.

    SQLite's online backup: a consistent copy even while another command writes.
    The copy is made in a temporary file beside ``path`` and renamed into place
    when complete, so a failed backup leaves an older one as it was. The copy is a
    single file (rollback journal), ready to be mailed or opened with ``--db``.
    A missing folder of ``path`` is made. A server database is refused: its own
    tools (pg_dump) back it up.
    """
    if engine.dialect.name != "sqlite":
        raise UsageError(Message(N_("a backup copies a SQLite file; back up the %(backend)s "
                                    "database with its own tools (pg_dump for PostgreSQL)"),
                                 {"backend": engine.dialect.name}))
    folder = os.path.dirname(os.path.abspath(path))
    try:
        # a folder for the backups (backups/club-2026-05-11.db) is made when missing:
        # a new folder holds nothing a typo could destroy
        os.makedirs(folder, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                    dir=folder)
    except OSError as err:
        raise cannot_write(path, err) from None
    os.close(fd)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        pooled = engine.raw_connection()
        try:
            copy = sqlite3.connect(temp)
            try:
                pooled.driver_connection.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            finally:
                copy.close()
        finally:
            pooled.close()
        with open(temp, "rb+") as written:
            os.fsync(written.fileno())
        size = os.path.getsize(temp)
        os.replace(temp, path)
    except BaseException:
        for leftover in (temp, temp + "-journal"):
            try:
                os.unlink(leftover)
            except OSError:
                pass
        raise
    return size
