"""Use cases on the database itself: upgrading its schema (logged in the audit log)."""
from __future__ import annotations

from sqlalchemy.engine import Engine

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
