"""Opening a database: URL resolution, engine settings per backend, sessions.

``open_engine(url)`` gives a SQLAlchemy engine for any URL; the schema is created
or checked by the migrations module (``tourney db upgrade``).
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

DEFAULT_URL = "sqlite:///tourney.db"


def resolve_url(url: str | None = None) -> str:
    """``--db`` wins, then ``TOURNEY_DB``, then ``tourney.db`` in the current folder.
    A bare path is taken as a SQLite file."""
    url = url or os.environ.get("TOURNEY_DB") or DEFAULT_URL
    if "://" not in url:
        url = f"sqlite:///{url}"
    return url


def open_engine(url: str | None = None) -> Engine:
    url = resolve_url(url)
    if url.startswith("sqlite"):
        # 30 s busy timeout: a second organizer's process waits for the writer
        # instead of failing at once ("database is busy" only after the wait).
        engine = create_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):  # pragma: no cover - trivial
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """A session whose work is committed together or not at all."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
