"""`tourney db upgrade`, `tourney db status` and `tourney log`."""
from __future__ import annotations

import click

from tourney.storage import schema
from tourney.storage.audit import change_dict, event_slugs, list_changes, record_change
from tourney.storage.db import open_engine, reading, resolve_url, transaction
from tourney.tournament.events import get_event

from .database import db_option, open_db
from .output import COUNT, emit_json, emit_table, json_option, message


@click.group("db")
def db():
    """The database itself: its schema version and upgrades.

    \b
    Examples:
      tourney db status
      tourney db upgrade --db postgresql+psycopg://postgres@127.0.0.1/league
    """


@db.command("upgrade")
@db_option
def upgrade(db_url):
    """Bring the database's schema up to this tourney's version.

    A new (empty) database gets every table; an older one is migrated in one
    transaction where the backend allows it (PostgreSQL; SQLite for most
    changes). Back up a league database before upgrading it. A database with
    tourney's tables but no schema version (from a development build) is
    adopted when its tables are those of the first schema.
    """
    engine = open_engine(resolve_url(db_url))
    status = schema.schema_status(engine)
    if status.state == "current":
        message(f"{status.url}: already at schema {status.head}")
        return
    before, after = schema.upgrade(engine)
    with transaction(engine) as session:
        record_change(session, "db.upgrade", f"schema {before or 'none'} -> {after}",
                      {"schema": before}, {"schema": after})
    message(f"{status.url}: upgraded from schema {before or 'none'} to {after}")


@db.command("status")
@json_option
@db_option
def status(as_json, db_url):
    """Show the database's schema version and whether it needs an upgrade.

    Changes nothing. Exit status 0 when the database can be used as it is (or is
    empty: it is set up on first use), 1 when it needs `tourney db upgrade` or
    cannot be used by this tourney.
    """
    engine = open_engine(resolve_url(db_url))
    state = schema.schema_status(engine)
    problem = schema.refusal(state)
    if as_json:
        emit_json({**state.as_dict(), "problem": problem})
    else:
        click.echo(f"database: {state.url}")
        click.echo(f"schema: {state.revision or 'none'} (this tourney: {state.head})")
        words = {
            "current": "up to date",
            "empty": "empty: set up on first use (or `tourney db upgrade`)",
            "outdated": "needs `tourney db upgrade` (" + ", ".join(state.pending) + " pending)",
            "unversioned": "tourney tables without a schema version: run `tourney db upgrade`",
            "unknown": "unknown schema",
        }
        click.echo(f"state: {words[state.state]}")
    if problem:
        raise SystemExit(1)


@click.command("log")
@click.option("--event", "slug", metavar="SLUG", help="Only the changes to this event.")
@click.option("--action", metavar="NAME",
              help="Only this action (player.merge) or noun (player).")
@click.option("--limit", type=COUNT, metavar="N", help="Only the newest N.")
@json_option
@db_option
def log(slug, action, limit, as_json, db_url):
    """Show the audit log: every change to players, events, seating and results.

    Oldest first; each change with when, by whom (TOURNEY_ACTOR or the login
    name), what, and its before and after (in --json).

    \b
    Examples:
      tourney log --event club-1
      tourney log --action player.merge --json
    """
    engine = open_db(db_url)
    with reading(engine) as session:
        event_id = get_event(session, slug).id if slug else None
        rows = list_changes(session, event_id=event_id, action=action, limit=limit)
        slugs = event_slugs(session)
        data = [change_dict(row, slugs) for row in rows]
    if as_json:
        emit_json(data)
        return
    emit_table(["id", "at", "actor", "action", "event", "subject"], [
        [d["id"], (d["at"] or "")[:19].replace("T", " "), d["actor"], d["action"],
         d["event"], d["subject"]] for d in data])


def register(group: click.Group) -> None:
    group.add_command(db)
    group.add_command(log)
