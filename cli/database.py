"""The `--db` option and opening the database for a command."""
from __future__ import annotations

import click
from sqlalchemy.engine import Engine

from tourney.files import check_outputs
from tourney.storage.db import open_engine, resolve_url, sqlite_file
from tourney.storage.schema import ensure_schema

db_option = click.option(
    "--db", "db_url", envvar="TOURNEY_DB", default=None, metavar="URL",
    help="Database: a SQLAlchemy URL or a SQLite file path "
         "(default: TOURNEY_DB, else tourney.db in the current folder).")


def open_db(db_url: str | None) -> Engine:
    engine = open_engine(resolve_url(db_url))
    ensure_schema(engine)
    return engine


def refuse_overwrites(db_url: str | None, outputs: dict, inputs=()) -> None:
    """Exit 2 before anything is touched when an output path is the database (or
    its -wal/-shm/-journal file) or one of the command's inputs."""
    check_outputs(outputs, inputs=inputs, database=sqlite_file(db_url))
