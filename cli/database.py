"""The `--db` option and opening the database for a command.

Three ways to open it, by what the command does:

- ``open_db(url, read_only=True)``: read commands. A SQLite file is opened
  read-only (works on a file the user cannot write; its journal mode is left
  alone), a PostgreSQL session with read-only transactions.
- ``open_db(url)``: commands that change a tourney database. A missing file is
  not created.
- ``open_db(url, create=True)``: the commands that may start a league
  (``db init``, ``player add``, ``player import``, ``event create``) create the
  database when the file is missing or empty, and say so on stderr
  (``created a new database tourny.db``: a mistyped --db shows at once);
  ``db init`` reports it itself (``announce=False``). They open it through
  :func:`starting_db`, which removes a file it created again when the command
  then fails (``event create --variant spadame`` on a mistyped --db leaves no
  stray empty league behind), and leaves an empty file it was given empty.

Whatever the mode, a database with tables that are not tourney's is never touched.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from tourney.errors import UsageError
from tourney.errors.words import quoted
from tourney.files import check_outputs
from tourney.storage.db import (
    dispose_engines,
    open_engine,
    open_error,
    reading,
    resolve_url,
    sqlite_file,
)
from tourney.storage.schema import ensure_schema, refusal, schema_status

from .output import (
    db_option,  # noqa: F401  (defined with the light options: `validate --event`)
    message,
)

# The commands that create a database when there is none (named in messages).
CREATING_COMMANDS = "`tourney db init` (or the first `player add`, `player import` or `event create`)"

def missing_database(path: str) -> UsageError:
    folder = missing_folder(path)
    if folder is not None:  # nothing can create a database there
        return UsageError(f"no database at {path}: the folder {folder} does not exist; "
                          "check --db or TOURNEY_DB")
    return UsageError(f"no database at {path}: {CREATING_COMMANDS} creates one; "
                      "check --db or TOURNEY_DB, or the current folder")


def missing_folder(path: str) -> str | None:
    """The folder a database file would be in, when there is no such folder."""
    folder = os.path.dirname(os.path.abspath(path))
    return None if os.path.isdir(folder) else os.path.dirname(path) or folder


def open_db(db_url: str | None, *, read_only: bool = False, create: bool = False,
            announce: bool = True) -> Engine:
    """The engine a command uses, after checking the database is tourney's at the
    current schema (see the module's docstring for the modes)."""
    url = resolve_url(db_url)
    path = sqlite_file(url)
    if path is not None and os.path.isdir(path):
        raise UsageError(f"--db {path} is a folder, not a database file")
    if path is not None and (not os.path.exists(path) or os.path.getsize(path) == 0):
        if not create or missing_folder(path) is not None:
            raise missing_database(path)
        engine = open_engine(url)
        ensure_schema(engine)  # creates it, under the migration lock
        if announce:
            message(f"created a new database {path}")
        return engine
    # First look without changing anything: a foreign file is refused before a
    # writing connection (which would switch a SQLite file to WAL) is opened.
    looking = open_engine(url, read_only=True)
    status = schema_status(looking)
    if status.state == "empty":
        if not create:  # as a missing file: the call names no tourney database
            raise UsageError(f"{status.url} has no tables: {CREATING_COMMANDS} "
                             "sets up a tourney database")
    elif status.state != "current":
        raise refusal(status)
    if read_only:
        return looking
    engine = open_engine(url)
    try:  # opened to write: a folder that cannot take SQLite's files said here
        engine.connect().close()
    except DBAPIError as err:
        raise open_error(engine, err) from None
    if status.state == "empty":
        ensure_schema(engine)
        if announce:
            message(f"created the tables of a new tourney database in {status.url}")
    return engine


@contextmanager
def starting_db(db_url: str | None, *, announce: bool = True) -> Iterator[Engine]:
    """``open_db(db_url, create=True)`` around the work of a command that may start
    a league. When this call created the SQLite file and the command then fails
    (an unknown variant, a bad player file), the file is removed again, and said
    so, as long as it holds no player and no event (nothing else wrote to it)."""
    path = sqlite_file(resolve_url(db_url))
    existed = path is not None and os.path.exists(path)
    new = path is not None and (not existed or os.path.getsize(path) == 0)
    engine = open_db(db_url, create=True, announce=announce)
    try:
        yield engine
    except BaseException:
        if new and _holds_nothing(engine):
            dispose_engines()
            for name in (f"{path}-wal", f"{path}-shm", f"{path}-journal"):
                try:
                    os.remove(name)
                except FileNotFoundError:
                    pass
            if existed:  # an empty file of the user's, given as --db: empty again
                os.truncate(path, 0)
                if announce:
                    message(f"emptied {path} again: nothing was stored in it")
            else:
                os.remove(path)
                if announce:
                    message(f"removed the new database {path} again: nothing was stored in it")
        raise


def _holds_nothing(engine: Engine) -> bool:
    from sqlalchemy import func, select

    from tourney.storage.models import Event, Player

    try:
        with reading(engine) as session:
            return not any(session.execute(select(func.count()).select_from(model)).scalar()
                           for model in (Player, Event))
    except Exception:  # unreadable now: not ours to remove
        return False


def check_not_existing(outputs: dict[str, str | os.PathLike | None]) -> None:
    """Refuse (:class:`UsageError`, exit 2) an output path where something exists
    already: tourney never replaces a file it was not told to replace (``--yes``),
    even one it wrote itself earlier."""
    for option, path in outputs.items():
        if path is None or os.fspath(path) == "-":
            continue
        if os.path.lexists(path):
            label = f"{option} {quoted(os.fspath(path)).english()}" if option.startswith("-") \
                else quoted(os.fspath(path)).english()
            raise UsageError(f"{label} exists already; nothing was written. Give another "
                             "file name, or add --yes to replace it.")


def refuse_overwrites(db_url: str | None, outputs: dict, inputs=(), *, replace: bool) -> None:
    """Exit 2 before anything is touched when an output path is the database (or
    its -wal/-shm/-journal file) or one of the command's inputs (whatever
    ``replace`` says), or an existing file and ``replace`` (``--yes``) was not given."""
    check_outputs(outputs, inputs=inputs, database=sqlite_file(db_url))
    if not replace:
        check_not_existing(outputs)
