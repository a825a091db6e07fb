"""Alembic's environment for tourney's migrations.

There is no alembic.ini: :mod:`tourney.storage.schema` builds the Alembic config
in code (script location = this folder) and hands over an open connection in
``config.attributes["connection"]``, so migrations run the same from an installed
package as from the source tree, against whichever database ``--db`` names.
"""
from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from tourney.storage import models  # noqa: F401  (registers the tables)

target_metadata = SQLModel.metadata


def render_item(type_, obj, autogen_context):
    """Spell sqlmodel's column types as plain SQLAlchemy types in generated
    scripts, so a migration does not depend on sqlmodel internals."""
    if type_ == "type":
        from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

        if isinstance(obj, AutoString):
            return f"sa.String(length={obj.length!r})" if obj.length else "sa.String()"
        if isinstance(obj, UTCDateTime):  # sqlmodel's aware-UTC DateTime
            return "sa.DateTime(timezone=True)"
    return False


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError(
            "tourney's migrations are run through tourney.storage.schema "
            "(`tourney db upgrade`), not the alembic command")
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things; batch mode copies the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("tourney's migrations run online only (`tourney db upgrade`)")
run_migrations_online()
