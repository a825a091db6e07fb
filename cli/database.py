"""The `--db` option and opening the database for a command."""
from __future__ import annotations

import click
from sqlalchemy.engine import Engine

from tourney.storage.db import open_engine, resolve_url
from tourney.storage.schema import ensure_schema

db_option = click.option(
    "--db", "db_url", envvar="TOURNEY_DB", default=None, metavar="URL",
    help="Database: a SQLAlchemy URL or a SQLite file path "
         "(default: TOURNEY_DB, else tourney.db in the current folder).")


def open_db(db_url: str | None) -> Engine:
    engine = open_engine(resolve_url(db_url))
    ensure_schema(engine)
    return engine
