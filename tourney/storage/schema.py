"""The database schema's version: checking it before use, upgrading it.

The schema is defined by :mod:`tourney.storage.models` and reaches databases
through Alembic migrations in ``migrations/versions`` (shipped inside the package;
the Alembic config is built here in code, so no ``alembic.ini`` is needed in the
user's folder).

:func:`ensure_schema` runs before every command that uses the database:

- an empty database is upgraded to the newest schema (head) on the spot;
- a database at head is used as it is;
- a database at an older revision is refused: ``this database is at schema 0001;
  run `tourney db upgrade``` (upgrading someone's league database is a step they
  take on purpose, e.g. after a backup);
- a database with tourney's tables but no version table (made by a development
  build before migrations existed) is refused the same way; ``tourney db
  upgrade`` adopts it when its tables and columns are those of the first
  migration, and refuses otherwise;
- a database at a revision this program does not know (a newer tourney wrote it)
  is refused.

To write a new migration after changing models.py::

    python -m tourney.storage.schema revision "what changed"

autogenerates ``versions/NNNN_what_changed.py`` against a scratch SQLite database
at head; read and edit it before use.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import SQLModel

if TYPE_CHECKING:  # alembic is imported only when a migration runs (it is slow to import)
    from alembic.config import Config
    from alembic.script import ScriptDirectory

from ..errors import Remedy, TourneyError, UsageError
from ..errors.words import N_, Message, then_words
from . import models  # noqa: F401  (registers the tables)
from .db import busy_errors, display_url, first_look, open_error, write_connection_options

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
VERSION_TABLE = "alembic_version"
FIRST_REVISION = "0001"
# PostgreSQL advisory lock key ("tourney" in ASCII) that serialises migrations.
_PG_LOCK_KEY = 0x746F75726E6579


class SchemaError(TourneyError):
    """The database's schema is not one this program can use as it is."""


class ForeignDatabase(SchemaError, UsageError):
    """The database is another program's: a usage error (the call names the wrong
    database, like a file that is not of the kind a command takes), where one
    that needs upgrading is refused as it stands."""


@dataclass(frozen=True)
class SchemaStatus:
    """Where a database stands.

    ``state`` is ``empty`` (no tables at all), ``foreign`` (tables, none of them
    tourney's: another program's database), ``current`` (at head),
    ``outdated`` (an older revision: needs ``tourney db upgrade``), ``unversioned``
    (tourney tables without a version table), or ``unknown`` (a revision this
    program does not know, or an alembic version table of some other program).
    """

    url: str
    revision: str | None
    head: str
    state: str
    pending: tuple[str, ...] = ()  # revisions an upgrade would apply, oldest first
    tables: int = 0  # tourney tables present

    def to_json(self) -> dict:
        return {"url": self.url, "revision": self.revision, "head": self.head,
                "state": self.state, "pending": list(self.pending), "tables": self.tables}


def alembic_config(connection: Connection | None = None,
                   script_location: Path | None = None) -> "Config":
    """The Alembic config, built in code; ``connection`` is what env.py migrates."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(script_location or MIGRATIONS_DIR))
    config.set_main_option("path_separator", "os")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def script_directory() -> "ScriptDirectory":
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


@lru_cache(maxsize=4)
def _revision_graph(versions_dir: Path) -> dict[str, str | None]:
    """revision -> down_revision, read from the version files' assignments.

    The check before every command uses this instead of Alembic's script
    directory, so commands do not pay for importing Alembic (a fifth of a
    second); anything unusual (branches, merges) falls back to Alembic.
    """
    graph: dict[str, str | None] = {}
    for path in sorted(versions_dir.glob("*.py")):
        values = {}
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            target = (node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1
                      else node.target if isinstance(node, ast.AnnAssign) else None)
            if isinstance(target, ast.Name) and target.id in ("revision", "down_revision"):
                values[target.id] = ast.literal_eval(node.value)
        revision, down = values.get("revision"), values.get("down_revision")
        if not isinstance(revision, str) or not (down is None or isinstance(down, str)):
            raise ValueError(f"{path.name}: not a plain linear revision")
        graph[revision] = down
    return graph


def _linear_history() -> list[str] | None:
    """Revisions oldest first when the history is one straight line, else None."""
    try:
        graph = _revision_graph(MIGRATIONS_DIR / "versions")
    except (OSError, SyntaxError, ValueError):
        return None
    heads = set(graph) - {down for down in graph.values() if down is not None}
    if len(heads) != 1:
        return None
    order = []
    revision: str | None = heads.pop()
    while revision is not None:
        if revision not in graph or revision in order:
            return None
        order.append(revision)
        revision = graph[revision]
    return order[::-1] if len(order) == len(graph) else None


def history_revisions() -> list[str]:
    """Every revision, oldest first."""
    linear = _linear_history()
    if linear is not None:
        return linear
    scripts = script_directory()
    return [s.revision for s in scripts.walk_revisions()][::-1]


def head_revision() -> str:
    revisions = history_revisions()
    assert revisions, "no migrations found in " + str(MIGRATIONS_DIR)
    return revisions[-1]


def tourney_table_names() -> set[str]:
    return set(SQLModel.metadata.tables)


def current_revision(connection: Connection) -> str | None:
    """The revision in the version table (which must exist)."""
    rows = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
    if len(rows) > 1:
        return "+".join(sorted(r[0] for r in rows))  # branches: not ours
    return rows[0][0] if rows else None


def _status(connection: Connection, url: str) -> SchemaStatus:
    revisions = history_revisions()
    head = revisions[-1]
    present = set(inspect(connection).get_table_names())
    ours = len(present & tourney_table_names())
    revision = current_revision(connection) if VERSION_TABLE in present else None
    if revision is None:
        state = "unversioned" if ours else "foreign" if present else "empty"
        return SchemaStatus(url, None, head, state, () if ours else tuple(revisions), ours)
    if revision == head:
        return SchemaStatus(url, revision, head, "current", (), ours)
    if revision not in revisions:
        return SchemaStatus(url, revision, head, "unknown", (), ours)
    pending = tuple(revisions[revisions.index(revision) + 1:])
    return SchemaStatus(url, revision, head, "outdated", pending, ours)


def schema_status(engine: Engine) -> SchemaStatus:
    """Where the database stands; changes nothing. The first contact with the
    database, so a database that cannot be opened is reported here."""
    url = display_url(str(engine.url))
    try:
        with busy_errors(engine), first_look(engine) as connection:
            status = _status(connection, url)
            connection.rollback()
    except DBAPIError as err:  # not a database file, no server, no answer
        raise open_error(engine, err) from None
    return status


def refusal(status: SchemaStatus) -> SchemaError | None:
    """Why a database cannot be used as it is (``None``: it can); where upgrading
    helps, the error names that operation (``db upgrade``)."""
    said = {"revision": status.revision, "head": status.head}
    if status.state == "outdated":
        return SchemaError(Message(N_("this database is at schema %(revision)s, before this "
                                      "tourney's %(head)s; back it up, then upgrade it"), said),
                           remedy=Remedy("upgrade-database"))
    if status.state == "unversioned":
        return SchemaError(Message(N_("this database has tourney tables but no schema "
                                      "version; upgrade it")),
                           remedy=Remedy("upgrade-database"))
    if status.state == "foreign":
        return ForeignDatabase(Message(N_("%(url)s is not a tourney database: it has tables, "
                                          "none of them tourney's (another program's "
                                          "database?); nothing was changed"),
                                       {"url": status.url}))
    if status.state == "unknown":
        return SchemaError(Message(N_("this database is at schema %(revision)s, which this "
                                      "tourney (schema %(head)s) does not know; is it from a "
                                      "newer tourney?"), said))
    return None


def ensure_schema(engine: Engine) -> None:
    """Make sure the database has the current schema before use.

    An empty database is upgraded to head; anything else not at head is refused
    with a :class:`SchemaError` saying what to do.
    """
    status = schema_status(engine)
    if status.state == "current":
        return
    if status.state == "empty":
        _migrate(engine, only_if_empty=True)
        return
    raise refusal(status)


def upgrade(engine: Engine, revision: str = "head") -> tuple[str | None, str]:
    """Apply migrations up to ``revision``; return (revision before, after).

    A database with tourney tables but no version table is adopted when its tables
    and columns are exactly those of the first migration (it is stamped at that
    revision, then upgraded); otherwise it is refused.
    """
    return _migrate(engine, target=revision)


def _migrate(engine: Engine, target: str = "head",
             only_if_empty: bool = False) -> tuple[str | None, str]:
    """Migrate under a lock, re-reading the state once the lock is held, so two
    commands starting at once on a new database do not both create it."""
    with busy_errors(engine), engine.connect() as connection:
        connection = connection.execution_options(**write_connection_options(engine))
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": _PG_LOCK_KEY})
            status = _status(connection, display_url(str(engine.url)))
            before = status.revision
            if only_if_empty and status.state != "empty":
                # Someone else created it meanwhile; use it if it is current.
                problem = refusal(status)
                if problem:
                    raise problem
                return before, status.revision
            if status.state in ("unknown", "foreign"):
                raise refusal(status)
            from alembic import command

            config = alembic_config(connection)
            if status.state == "unversioned":
                _check_adoptable(connection)
                command.stamp(config, FIRST_REVISION)
                before = None
            command.upgrade(config, target)
            after = current_revision(connection)
        return before, after


def _columns_by_table(connection: Connection, tables: set[str]) -> dict[str, set[str]]:
    inspector = inspect(connection)
    present = set(inspector.get_table_names())
    return {name: {c["name"] for c in inspector.get_columns(name)}
            for name in sorted(tables & present)}


def first_schema_columns() -> dict[str, set[str]]:
    """Tables and columns the first migration creates (built in a scratch
    in-memory SQLite database, so this stays true whatever models.py says now)."""
    from alembic import command

    scratch = create_engine("sqlite://")
    with scratch.begin() as connection:
        command.upgrade(alembic_config(connection), FIRST_REVISION)
        tables = set(inspect(connection).get_table_names()) - {VERSION_TABLE}
        columns = _columns_by_table(connection, tables)
    scratch.dispose()
    return columns


def _check_adoptable(connection: Connection) -> None:
    expected = first_schema_columns()
    found = _columns_by_table(connection, tourney_table_names() | set(expected))
    if found == expected:
        return
    problems = []
    for table in sorted(set(expected) & set(found)):
        if found[table] != expected[table]:
            missing = ", ".join(sorted(expected[table] - found[table]))
            extra = ", ".join(sorted(found[table] - expected[table]))
            details = [*([Message(N_("no column %(columns)s"), {"columns": missing})]
                         if missing else []),
                       *([Message(N_("unexpected column %(columns)s"), {"columns": extra})]
                         if extra else [])]
            problems.append(Message(N_("table %(table)s: %(detail)s"),
                                    {"table": table, "detail": _each_then(details)}))
    absent = sorted(set(expected) - set(found))
    if absent:
        problems.append(Message(N_("no table %(tables)s"), {"tables": list(absent)}))
    raise SchemaError(Message(N_("this database has tourney tables but no schema version, and "
                                 "they are not those of schema %(revision)s, so it cannot be "
                                 "upgraded: %(problems)s"),
                              {"revision": FIRST_REVISION, "problems": _each_then(problems)}))


def _each_then(parts: list[Message]) -> Message | str:
    """``first; second; third``: each part in turn, joined by :func:`then_words`
    (nothing for no parts)."""
    if not parts:
        return ""
    said = parts[-1]
    for earlier in reversed(parts[:-1]):
        said = then_words(earlier, said)
    return said


def new_revision(message: str) -> None:
    """Autogenerate a migration from the difference between models.py and head
    (a development tool, not a user command)."""
    from alembic import command
    from alembic.script import ScriptDirectory

    scratch = create_engine("sqlite://")
    with scratch.begin() as connection:
        config = alembic_config(connection)
        command.upgrade(config, "head")
        scripts = ScriptDirectory.from_config(config)
        number = int(scripts.get_current_head() or "0") + 1
        command.revision(config, message=message, autogenerate=True, rev_id=f"{number:04d}")
    scratch.dispose()


if __name__ == "__main__":  # pragma: no cover - development tool
    if len(sys.argv) != 3 or sys.argv[1] != "revision":
        sys.exit("usage: python -m tourney.storage.schema revision MESSAGE")
    new_revision(sys.argv[2])
