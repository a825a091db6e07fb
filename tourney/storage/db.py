"""Opening a database: URL resolution, engine settings per backend, sessions.

``open_engine(url)`` gives a SQLAlchemy engine for any URL; the schema is created
or checked by :mod:`tourney.storage.schema` (``ensure_schema``, ``tourney db upgrade``).

Writes go through :func:`transaction` (all or nothing); reads through
:func:`reading`. Both turn SQLite's "database is locked" into
:class:`DatabaseBusy`, a one-line message instead of a traceback; a write refused
by a unique or foreign-key constraint (two commands racing) becomes
:class:`ConflictingChange`.

SQLite specifics (why they are here):

- WAL journal, so readers never wait for the writer; foreign keys on (off by
  default in SQLite); a busy timeout (30 s, or ``?timeout=S`` in the URL) so a
  second organizer's command waits for the first instead of failing at once.
- A command that wrote copies the log into the database file when it ends
  (:func:`checkpoint_written`, ``PRAGMA wal_checkpoint(TRUNCATE)``): ``tourney.db``
  alone then holds everything, and an organizer who copies or mails just that file
  after the evening has the evening. Read commands never checkpoint.
- The driver's own transaction handling is switched off and SQLAlchemy emits
  ``BEGIN`` itself (the SQLAlchemy documentation's pysqlite recipe): Python's
  sqlite3 module would otherwise run DDL outside any transaction, and it opens
  write transactions lazily, at the first INSERT. A :func:`transaction` begins
  with ``BEGIN IMMEDIATE`` instead, taking the write lock up front: in WAL mode a
  deferred transaction that read first and then finds another writer fails at
  once (SQLITE_BUSY_SNAPSHOT) without honouring the busy timeout.
"""
from __future__ import annotations

import os
import urllib.parse
from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlalchemy.pool import NullPool
from sqlmodel import Session, create_engine

from ..errors import TourneyError, UsageError
from ..errors.words import N_, Message, quoted
from .writes import WRITES

DEFAULT_URL = "sqlite:///tourney.db"
SQLITE_BUSY_TIMEOUT = 30.0  # seconds
# Seconds to wait for a PostgreSQL server to answer (a URL's ?connect_timeout=S
# wins): a server that accepts and never answers must not hang every command.
PG_CONNECT_TIMEOUT = 10
# Execution option read by the BEGIN hook: take SQLite's write lock at BEGIN.
_IMMEDIATE = "tourney_begin_immediate"


class DatabaseBusy(TourneyError):
    """Another process held the database's write lock for the whole busy timeout."""


def resolve_url(url: str | None = None) -> str:
    """``--db`` wins, then ``TOURNEY_DB``, then ``tourney.db`` in the current folder.
    A bare path is taken as a SQLite file."""
    url = url or os.environ.get("TOURNEY_DB") or DEFAULT_URL
    if "://" not in url:
        url = f"sqlite:///{url}"
    return url


def sqlite_file(url: str | None = None) -> str | None:
    """The file of a SQLite URL (``None`` for a server database or an in-memory one)."""
    try:
        parsed = make_url(resolve_url(url))
    except (ArgumentError, ValueError):
        return None
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return database


def display_url(url: str) -> str:
    """The URL with any password masked, for messages; a SQLite file as its path
    (also when opened read-only, as a ``file:`` URI)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return url
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        database = parsed.database
        if database.startswith("file:"):
            database = urllib.parse.unquote(database[len("file:"):])
        return database
    return parsed.render_as_string(hide_password=True)


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


# One engine per URL (and mode) per process: a process that runs many commands
# (the test suite, a long-lived caller) reuses its connection pool instead of
# leaving one behind per command.
_ENGINES: dict[tuple[str, bool], Engine] = {}


def open_engine(url: str | None = None, *, read_only: bool = False) -> Engine:
    """An engine for ``url``. ``read_only`` opens a SQLite file with
    ``mode=ro`` (no journal switch, works on a file the user may not write) and a
    PostgreSQL session with read-only transactions: a read command cannot change
    the database whatever it runs."""
    url = resolve_url(url)
    engine = _ENGINES.get((url, read_only))
    if engine is None:
        engine = _ENGINES[(url, read_only)] = _new_engine(url, read_only)
    return engine


def dispose_engines() -> None:
    """Close every pooled connection of the engines opened so far (before a test
    drops its database, say)."""
    _WRITTEN.clear()
    while _ENGINES:
        _, engine = _ENGINES.popitem()
        engine.dispose()


# Writable SQLite engines that committed since their last checkpoint.
_WRITTEN: dict[int, Engine] = {}
# How long the checkpoint at the end of a command waits for another process's
# readers (milliseconds); what it could not copy stays safe in the log.
CHECKPOINT_WAIT_MS = 2000


def checkpoint_written() -> None:
    """Copy SQLite's write-ahead log into the database file of every engine that
    committed a change since the last call, and empty the log
    (``PRAGMA wal_checkpoint(TRUNCATE)``). The CLI calls it when a command ends.

    Engines that only read are not touched. A checkpoint that cannot complete
    (another process reading for longer than :data:`CHECKPOINT_WAIT_MS`, a full
    disk) leaves the rest in the log, where SQLite still finds it: nothing is lost.
    """
    while _WRITTEN:
        _, engine = _WRITTEN.popitem()
        try:
            pooled = engine.raw_connection()
        except Exception:  # the database went away: nothing to copy
            continue
        try:
            connection = pooled.driver_connection
            wait = connection.execute("PRAGMA busy_timeout").fetchone()[0]
            connection.execute(f"PRAGMA busy_timeout={min(wait, CHECKPOINT_WAIT_MS)}")
            try:
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            finally:
                connection.execute(f"PRAGMA busy_timeout={wait}")
        except Exception:  # the data is in the log; the next writer copies it
            pass
        finally:
            pooled.close()


def _new_engine(url: str, read_only: bool = False) -> Engine:
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as err:
        raise UsageError(Message(N_("not a database URL: %(url)s (%(reason)s)"),
                                 {"url": quoted(url), "reason": str(err)})) from None
    try:
        if parsed.get_backend_name() == "sqlite":
            return _sqlite_engine(parsed, read_only)
        connect_args = {}
        if parsed.get_backend_name() == "postgresql":
            if "connect_timeout" not in parsed.query:  # the URL's own wins
                connect_args["connect_timeout"] = PG_CONNECT_TIMEOUT
            if read_only:
                connect_args["options"] = "-c default_transaction_read_only=on"
        return create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)
    except ModuleNotFoundError as err:
        raise UsageError(Message(N_("no driver for %(url)s: %(reason)s"),
                                 {"url": display_url(url), "reason": str(err)})) from None
    except (ArgumentError, ValueError, TypeError) as err:
        raise UsageError(Message(N_("cannot open %(url)s: %(reason)s"),
                                 {"url": display_url(url), "reason": str(err)})) from None


def _sqlite_engine(url, read_only: bool = False) -> Engine:
    connect_args = {}
    if "timeout" not in url.query:  # a URL's ?timeout=S wins (tests use a short one)
        connect_args["timeout"] = SQLITE_BUSY_TIMEOUT
    read_only = read_only or url.query.get("mode") == "ro"  # a worker given a read-only URL
    path = None
    if read_only and url.database and url.database != ":memory:" and not url.database.startswith("file:"):
        # The file as a read-only URI (sqlite3's uri=True): nothing can be written,
        # no -journal is made, the journal mode is left as it is.
        path = os.path.abspath(url.database)
        url = url.set(database="file:" + urllib.parse.quote(path),
                      query={**url.query, "mode": "ro", "uri": "true"})
    engine = create_engine(url, connect_args=connect_args)

    if path is not None:
        @event.listens_for(engine, "do_connect")
        def _sqlite_read_only_connect(dialect, _record, cargs, cparams):
            return _read_only_connection(dialect.loaded_dbapi, path, cargs, cparams)

    @event.listens_for(engine, "connect")
    def _sqlite_setup(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if read_only:
            cursor.execute("PRAGMA query_only=ON")
        else:
            # WAL only on a connection that is going to write, which is opened once
            # the file is known to be tourney's (or is being created): a read, or a
            # look at another program's file, leaves its journal mode alone.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _sqlite_begin(connection):
        immediate = connection.get_execution_options().get(_IMMEDIATE)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    if not read_only:
        @event.listens_for(engine, "commit")
        def _sqlite_commit(_connection):
            _WRITTEN[id(engine)] = engine

    return engine


@contextmanager
def first_look(engine: Engine) -> Iterator[Connection]:
    """A connection for a first look at a database that may not be tourney's (its
    tables, its schema version). A SQLite file that no one has open (no -wal or
    -journal file beside it) is read as it lies on disk, ``immutable``: SQLite makes
    no -wal, -shm or -journal file and takes no lock, so another program's database,
    in WAL mode, is left exactly as it was found, with nothing new in its folder.
    Otherwise: a connection of ``engine``."""
    path = display_url(str(engine.url)) if is_sqlite(engine) else ""
    if (not path or path == ":memory:" or not os.path.isfile(path)
            or any(os.path.exists(f"{path}{side}") for side in ("-wal", "-journal"))):
        with engine.connect() as connection:
            yield connection
        return
    peek = create_engine(
        f"sqlite:///file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro&immutable=1"
        "&uri=true", poolclass=NullPool)
    try:
        with peek.connect() as connection:
            yield connection
    finally:
        peek.dispose()


def _read_only_connection(dbapi, path: str, cargs, cparams):
    """A read-only connection to the SQLite file ``path``, also where its folder
    cannot be written. A database in WAL mode (every tourney database) is read
    through its -wal and -shm files, which SQLite makes next to it when they are not
    there; in a folder it may not write (a league archived on a read-only share)
    that fails with SQLITE_CANTOPEN. The file is then opened ``immutable``, which
    needs neither: nothing can be writing to it there (a writer would need those
    files too), and with no -wal file, or an empty one, the file holds every change.
    Any other failure is left to the first query to report."""
    connection = dbapi.connect(*cargs, **cparams)
    try:
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except dbapi.OperationalError as err:
        log = f"{path}-wal"
        if (getattr(err, "sqlite_errorname", None) != "SQLITE_CANTOPEN"
                or (os.path.isfile(log) and os.path.getsize(log) > 0)):
            return connection
        connection.close()
        return dbapi.connect(f"{cargs[0]}&immutable=1", *cargs[1:], **cparams)
    return connection


def open_failure(engine: Engine, err: BaseException) -> Message:
    """One line saying why a database could not be opened (never the SQL or its
    parameters)."""
    reason = first_line(err)
    said = {"url": display_url(str(engine.url)), "reason": reason}
    if engine.dialect.name == "postgresql" and "timeout" in reason.lower():
        said["seconds"] = engine.url.query.get("connect_timeout", PG_CONNECT_TIMEOUT)
        said["option"] = "?connect_timeout=SECONDS"
        return Message(N_("cannot open the database %(url)s: %(reason)s (no answer within "
                          "%(seconds)s s; add %(option)s to the URL to wait longer)"), said)
    if (getattr(getattr(err, "orig", None), "sqlite_errorname", None) == "SQLITE_CANTOPEN"
            and engine.url.query.get("mode") != "ro" and os.path.isfile(said["url"])):
        # The file is there and readable (the first look read it): what a writer
        # cannot make is its -wal or -shm file, in a folder it may not write.
        said["folder"] = os.path.dirname(os.path.abspath(said["url"]))
        return Message(N_("cannot open the database %(url)s: %(reason)s; a change needs "
                          "SQLite's -wal and -shm files beside it, in %(folder)s, which "
                          "cannot be written (reading works)"), said)
    return Message(N_("cannot open the database %(url)s: %(reason)s"), said)


# SQLite's answers when the file given cannot be a database it opens (a CSV file,
# a file it may not read): --db names the wrong file.
_NOT_A_DATABASE = {"SQLITE_NOTADB", "SQLITE_CANTOPEN"}


def open_error(engine: Engine, err: BaseException) -> TourneyError:
    """The error for a database that could not be opened (:func:`open_failure`
    says why): a :class:`UsageError` when the file given is not a database, like
    any file that is not of the kind a command takes; else a failure of the
    database itself (no server, no answer)."""
    name = getattr(getattr(err, "orig", None), "sqlite_errorname", None)
    kind = UsageError if name in _NOT_A_DATABASE else TourneyError
    return kind(open_failure(engine, err))


def first_line(err: BaseException) -> str:
    """The driver's own message of a database error, first line only: SQLAlchemy's
    text would add the statement and its bound parameters (player names, hands)."""
    lines = str(getattr(err, "orig", None) or err).strip().splitlines()
    return lines[0].strip() if lines else type(err).__name__


def is_busy_error(err: BaseException) -> bool:
    """SQLite's "database is locked" (or "is busy"): the busy timeout ran out."""
    if not isinstance(err, OperationalError):
        return False
    text = str(getattr(err, "orig", err)).lower()
    return "database is locked" in text or "database is busy" in text


def busy_message(engine: Engine | None = None) -> Message:
    if engine is None:
        return Message(N_("database is busy: another tourney command is writing to it; "
                          "nothing was changed, try again when it has finished"))
    return Message(N_("database is busy: another tourney command is writing to it (%(url)s); "
                      "nothing was changed, try again when it has finished"),
                   {"url": display_url(str(engine.url))})


@contextmanager
def busy_errors(engine: Engine | None = None) -> Iterator[None]:
    """Turn SQLite's "database is locked" into :class:`DatabaseBusy`."""
    try:
        yield
    except OperationalError as err:
        if is_busy_error(err):
            raise DatabaseBusy(busy_message(engine)) from None
        raise


def write_connection_options(engine: Engine) -> dict:
    """Execution options for a connection that is going to write."""
    return {_IMMEDIATE: True} if is_sqlite(engine) else {}


class ConflictingChange(TourneyError):
    """A uniqueness or reference rule of the schema refused the change: usually
    another command changed the same data at the same moment."""


# What a refused constraint means, in words an organizer can act on.
_CONFLICT_WORDS = {
    "uq_match_event_id_round_number_table":
        N_("another import stored a result for one of these matches at the same moment"),
    "uq_matchversion_match_id_version":
        N_("another import stored a new version of one of these matches at the same moment"),
    "ix_ratingpool_variant":
        N_("another command created the same rating pool at the same moment"),
}


def conflict_message(reason: str) -> Message:
    """A change the schema refused (``reason``: the database's first line), in
    words an organizer can act on where the constraint is known."""
    for constraint, words in _CONFLICT_WORDS.items():
        if constraint in reason:
            return Message(N_("%(what)s; nothing was written. Run the command again: it then "
                              "sees what the other one stored (%(constraint)s)"),
                           {"what": Message(words), "constraint": constraint})
    return Message(N_("the database refused the change (did another command change the same "
                      "data at the same moment? try again): %(reason)s"), {"reason": reason})


# PostgreSQL's deadlock_detected and serialization_failure: two commands raced.
_RACE_STATES = {"40P01", "40001"}


def _sqlstate(err: BaseException) -> str | None:
    orig = getattr(err, "orig", None)
    return getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)


AUDITED = "tourney.audited"  # session.info key: the audit entries a transaction adds


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """A session whose work is committed together or not at all.

    On SQLite the write lock is taken when the session first touches the
    database, so a second writer waits (the busy timeout) and then fails with
    :class:`DatabaseBusy` before it has read anything it would act on.
    """
    with busy_errors(engine), Session(engine, expire_on_commit=False) as session:
        WRITES.begun += 1
        WRITES.committing = False
        options = write_connection_options(engine)
        if options:
            session.connection(execution_options=options)
        try:
            yield session
            WRITES.committing = True
            try:
                session.commit()
            except BaseException as err:
                # refused by the database: rolled back below; interrupted: undecided
                WRITES.committing = isinstance(err, KeyboardInterrupt)
                raise
            WRITES.committing = False
            WRITES.committed += 1
            WRITES.store(session.info.pop(AUDITED, ()))
        except IntegrityError as err:
            session.rollback()
            reason = str(getattr(err, "orig", err)).strip().splitlines()
            raise ConflictingChange(conflict_message(reason[0] if reason else str(err))) from None
        except OperationalError as err:
            session.rollback()
            if _sqlstate(err) in _RACE_STATES:  # PostgreSQL chose this one to give way
                raise ConflictingChange(Message(
                    N_("another command changed the same data at the same moment (%(reason)s); "
                       "nothing was written. Run the command again"),
                    {"reason": first_line(err)})) from None
            raise
        except BaseException:
            session.rollback()
            raise


@contextmanager
def session_scope(session: Session, key: str, value):
    """``value`` kept in ``session.info[key]`` while the block runs (what the work of
    one transaction shares between its parts: :func:`~tourney.app.results.refreshing_once`,
    :func:`~tourney.tournament.stored_rounds.sharing_rounds`); one such scope per
    session at a time: opening a second inside the first is a bug, raised at once."""
    if key in session.info:
        raise RuntimeError(f"{key} is already open in this session")
    session.info[key] = value
    try:
        yield value
    finally:
        session.info.pop(key, None)


@contextmanager
def savepoint(session: Session) -> Iterator[None]:
    """A part of the session's transaction that is undone alone when it raises (a
    SAVEPOINT), the rest of the transaction standing; its audit entries go with it."""
    audited = len(session.info.get(AUDITED, ()))
    try:
        with session.begin_nested():
            yield
    except BaseException:
        del session.info.get(AUDITED, [])[audited:]
        raise


@contextmanager
def reading(engine: Engine) -> Iterator[Session]:
    """A session for reading only; whatever it did is rolled back when it closes
    (closing, not rolling back, leaves the objects read usable afterwards)."""
    with busy_errors(engine), Session(engine, expire_on_commit=False) as session:
        yield session
