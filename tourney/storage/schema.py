"""Making sure a database has the current schema before use.

TEMPORARY: creates missing tables directly. The storage helper replaces this with
Alembic: a new database is upgraded to head, an old one is refused with a message
naming `tourney db upgrade`.
"""
from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

from . import models  # noqa: F401  (registers the tables)


def ensure_schema(engine: Engine) -> None:
    SQLModel.metadata.create_all(engine)
