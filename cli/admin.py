"""`tourney db upgrade`, `tourney db status` and `tourney log`."""
from __future__ import annotations

import os

import click

from tourney.app.database import backup_database, upgrade_database
from tourney.errors.counts import count_text
from tourney.storage import schema
from tourney.storage.audit import Change, event_slugs, list_changes
from tourney.storage.db import display_url, open_engine, reading, resolve_url, sqlite_file
from tourney.tournament.events import get_event

from .database import db_option, missing_database, missing_folder, open_db, refuse_overwrites
from .errors import exit_code
from .errors import message as error_message
from .output import (
    COUNT,
    CommandGroup,
    delimited_flags,
    echo,
    emit_json,
    emit_table,
    json_option,
    replace_option,
    report_change,
)


@click.group("db", cls=CommandGroup)
def db():
    """The database itself: its schema version, upgrades and backups.

    \b
    Examples:
      tourney db status
      tourney db backup league-backup.db
      tourney db upgrade --db postgresql+psycopg://postgres@127.0.0.1/league
    """


@db.command("init")
@json_option
@db_option
def init(as_json, db_url):
    """Create a new tourney database (the SQLite file, or the tables in an empty
    PostgreSQL database).

    An existing tourney database is left as it is; a file or database with
    another program's tables is refused. `player add`, `player import` and
    `event create` also create the database when there is none; every other
    command refuses a missing one, so a mistyped --db cannot start a new league.

    \b
    Examples:
      tourney db init
      tourney db init --db league.db
      tourney db init --db postgresql+psycopg://postgres@127.0.0.1/league
    """
    path = sqlite_file(db_url)
    existed = path is None or (os.path.exists(path) and os.path.getsize(path) > 0)
    before = schema.schema_status(open_engine(resolve_url(db_url), read_only=True)).state \
        if existed else "missing"
    engine = open_db(db_url, create=True, announce=False)
    where = display_url(str(engine.url))
    created = before in ("missing", "empty")
    summary = (f"{where}: created a tourney database at schema {schema.head_revision()}"
               if created else f"{where}: already a tourney database (schema "
                               f"{schema.head_revision()}); nothing changed")
    report_change("db.init", created, summary, as_json, database=where,
                  schema=schema.head_revision())


@db.command("upgrade")
@json_option
@db_option
def upgrade(as_json, db_url):
    """Bring the database's schema up to this tourney's version.

    A new (empty) database gets every table; an older one is migrated in one
    transaction where the backend allows it (PostgreSQL; SQLite for most
    changes). Back up a league database before upgrading it. A database with
    tourney's tables but no schema version (from a development build) is
    adopted when its tables are those of the first schema.

    A SQLite file that is not there is refused (exit 2), never created: a
    mistyped --db starts no new, empty league. `tourney db init` creates one.

    \b
    Examples:
      tourney db status
      tourney db backup before-upgrade.db && tourney db upgrade
      tourney db upgrade --db league.db
    """
    path = sqlite_file(resolve_url(db_url))
    if path is not None and not os.path.exists(path):
        # as every command but the ones that may start a league (`db init`): a
        # mistyped --db says so instead of upgrading a new empty file
        raise missing_database(path)
    # looked at read-only first: a foreign database is refused untouched
    status = schema.schema_status(open_engine(resolve_url(db_url), read_only=True))
    if status.state == "foreign":
        raise schema.refusal(status)
    engine = open_engine(resolve_url(db_url))
    if status.state == "current":
        report_change("db.upgrade", False, f"{status.url}: already at schema {status.head}",
                      as_json, database=status.url, before=status.head, after=status.head)
        return
    before, after = upgrade_database(engine)
    report_change("db.upgrade", True, f"{status.url}: upgraded from schema {before or 'none'} "
                  f"to {after}", as_json, database=status.url, before=before, after=after)


@db.command("backup")
@click.argument("file", type=click.Path(dir_okay=False))
@replace_option
@json_option
@db_option
def backup(file, yes, as_json, db_url):
    """Copy the SQLite database, with everything committed so far, to FILE.

    A consistent copy even while another command or `tourney serve` writes; the
    database itself is only read. FILE is one file (no -wal beside it) that
    opens with --db FILE. It is written whole or not at all; an existing FILE
    is replaced only with --yes, and the database itself (or its -wal, -shm or
    -journal file) never. A PostgreSQL database is backed up with pg_dump.

    \b
    Examples:
      tourney db backup backups/league-2026-05-11.db
      tourney db backup league-copy.db --db league.db --yes
    """
    refuse_overwrites(db_url, {"FILE": file}, replace=yes)
    engine = open_db(db_url, read_only=True)
    where = display_url(str(engine.url))
    size = backup_database(engine, file)
    report_change("db.backup", True, f"{where}: copied to {file} ({count_text(size, 'byte')})",
                  as_json, database=where, file=file, bytes=size)


@db.command("status")
@json_option
@db_option
def status(as_json, db_url):
    """Show the database's schema version and whether it needs an upgrade.

    Changes nothing. Exit status 0 when the database can be used as it is (or is
    empty: `tourney db init` sets it up), 1 when it needs `tourney db upgrade` or
    cannot be used by this tourney, 2 when there is no such file or it is another
    program's database: the status every other command would exit with.

    \b
    Example:
      tourney db status --db league.db --json
    """
    path = sqlite_file(db_url)
    if path is not None and not os.path.exists(path):
        state = schema.SchemaStatus(path, None, schema.head_revision(), "missing",
                                    tuple(schema.history_revisions()))
        refused = missing_database(path)
    else:
        state = schema.schema_status(open_engine(resolve_url(db_url), read_only=True))
        refused = schema.refusal(state)
    problem = None if refused is None else error_message(refused)
    if as_json:
        emit_json({**state.to_json(), "problem": problem})
    else:
        echo(f"database: {state.url}")
        echo(f"schema: {state.revision or 'none'} (this tourney: {state.head})")
        words = {
            "current": "up to date",
            "empty": "empty: `tourney db init` sets it up",
            "outdated": "needs `tourney db upgrade` (" + ", ".join(state.pending) + " pending)",
            "unversioned": "tourney tables without a schema version: run `tourney db upgrade`",
            "unknown": "unknown schema",
            "foreign": "not a tourney database (another program's tables)",
            "missing": "no such file: `tourney db init` creates it",
        }
        if state.state == "missing" and missing_folder(path) is not None:
            words["missing"] = f"no such file, nor its folder {missing_folder(path)}"
        echo(f"state: {words[state.state]}")
    if refused is not None:
        raise SystemExit(exit_code(refused))


@click.command("log")
@click.option("--event", "slug", metavar="SLUG", help="Only the changes to this event.")
@click.option("--action", metavar="NAME",
              help="Only this action (player.merge) or noun (player).")
@click.option("--limit", type=COUNT, metavar="N", help="Only the newest N.")
@delimited_flags
@json_option
@db_option
def log(slug, action, limit, as_json, db_url):
    """Show the audit log: every change to players, events, seating and results.

    Oldest first; each change with when (in UTC), by whom (TOURNEY_ACTOR or the
    login name), what, the --reason given, and its before and after (in --json).

    \b
    Examples:
      tourney log --event club-1
      tourney log --action player.merge --json
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        event_id = get_event(session, slug).id if slug else None
        rows = list_changes(session, event_id=event_id, action=action, limit=limit)
        slugs = event_slugs(session)
        data = [Change.of(row, slugs).to_json() for row in rows]
    if as_json:
        emit_json(data)
        return
    emit_table(["id", "at", "actor", "action", "event", "subject", "reason"], [
        # the one form of a time, as `result history` and every JSON give it (Z: UTC)
        [d["id"], d["at"], d["actor"], d["action"], d["event"], d["subject"], _reason(d)]
        for d in data])


def _reason(change: dict) -> str:
    """The arbiter's --reason of a change (kept in its after; in its before for a
    take-back), the first thing asked of the log on the night: why?"""
    for side in (change["after"], change["before"]):
        if isinstance(side, dict) and isinstance(side.get("reason"), str):
            return side["reason"]
    return ""


def register(group: click.Group) -> None:
    group.add_command(db)
    group.add_command(log)
