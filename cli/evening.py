"""`tourney event checkin` and `tourney event paid`: the players' evening at the door."""
from __future__ import annotations

import click

from tourney.storage.db import reading, transaction

from .completion import complete_event
from .database import db_option, open_db
from .errors import lookalike_message
from .output import delimited_flags, json_option, message, report_change


def _marking(what: str, slug: str, names, undo: bool, required, as_json, db_url) -> None:
    from tourney.tournament import evening
    from tourney.tournament.events import get_event

    with transaction(open_db(db_url)) as session:
        event = get_event(session, slug)
        switched = None
        if required is not None:
            switched = evening.set_checkin_required(session, event, required == "on")
        changed = evening.mark(session, event, names, what, undo) if names else []
        required_now = evening.event_options(session, event).checkin
    verb = {"checkin": "checked in", "paid": "paid"}[what]
    summary = f"{slug}: {len(changed)} {'no longer ' if undo else ''}{verb}"
    if changed:
        summary += ": " + ", ".join(changed)
    if switched:
        summary += f"; check-in {'required before seating' if required_now else 'not required'}"
    report_change(f"event.{what}", bool(changed or switched), summary, as_json, event=slug,
                  players=changed, undo=undo, checkin_required=required_now)


@click.command("checkin")
@click.argument("slug", shell_complete=complete_event)
@click.argument("names", nargs=-1, metavar="PLAYER...")
@click.option("--undo", is_flag=True, help="Take the players' check-in back.")
@click.option("--required", type=click.Choice(["on", "off"]),
              help="on: `round seat` seats only the players checked in; off: everyone "
                   "entered (the default).")
@json_option
@db_option
def checkin(slug, names, undo, required, as_json, db_url):
    """Check players in at the door (or --undo it).

    With --required on, `tourney round seat` seats only the players checked in:
    who did not come is not drawn into a table.

    \b
    Examples:
      tourney event checkin club-1 --required on
      tourney event checkin club-1 "Anna Berg" "Bo Ek"
      tourney event checkin club-1 "Bo Ek" --undo
    """
    _marking("checkin", slug, names, undo, required, as_json, db_url)


@click.command("paid")
@click.argument("slug", shell_complete=complete_event)
@click.argument("names", nargs=-1, required=True, metavar="PLAYER...")
@click.option("--undo", is_flag=True, help="Take the players' payment back.")
@json_option
@db_option
def paid(slug, names, undo, as_json, db_url):
    """Note that players paid the entry fee (or --undo it).

    \b
    Example:
      tourney event paid club-1 "Anna Berg"
    """
    _marking("paid", slug, names, undo, None, as_json, db_url)


@click.command("signups")
@click.argument("slug", shell_complete=complete_event)
@click.option("--with-email", is_flag=True, help="Show the e-mail addresses too.")
@delimited_flags
@json_option
@db_option
def signups(slug, with_email, as_json, db_url):
    """List the sign-ups sent for an event: id, name, club, status.

    \b
    Example:
      tourney event signups club-1 && tourney event approve club-1 3
    """
    from tourney.tournament import evening
    from tourney.tournament.events import get_event

    from .output import emit_json, emit_table

    with reading(open_db(db_url, read_only=True)) as session:
        rows = [{"id": r.id, "name": r.name, "club": r.club, "status": r.status,
                 **({"email": r.email} if with_email else {})}
                for r in evening.signups(session, get_event(session, slug))]
    if as_json:
        emit_json(rows)
    else:
        emit_table(list(rows[0]) if rows else ["id", "name", "club", "status"],
                   [list(r.values()) for r in rows])


def _decide(slug, request_id, approve, as_json, db_url):
    from tourney.tournament import evening
    from tourney.tournament.events import get_event

    warnings: list = []
    with transaction(open_db(db_url)) as session:
        name = evening.decide_signup(session, get_event(session, slug), request_id, approve,
                                     warnings=warnings)
    for warning in warnings:
        message(lookalike_message(warning))
    verb = "approved and entered" if approve else "rejected"
    report_change("event.approve" if approve else "event.reject", True,
                  f"{slug}: sign-up {request_id} ({name}) {verb}", as_json, event=slug,
                  signup=request_id, player=name,
                  **({"warnings": [w.to_json() for w in warnings]} if approve else {}))


@click.command("approve")
@click.argument("slug", shell_complete=complete_event)
@click.argument("request_id", type=int, metavar="ID")
@json_option
@db_option
def approve(slug, request_id, as_json, db_url):
    """Approve sign-up ID: the player is registered (when new) and entered.

    `tourney event signups SLUG` lists the sign-ups with their ids.

    \b
    Example:
      tourney event approve club-1 3
    """
    _decide(slug, request_id, True, as_json, db_url)


@click.command("reject")
@click.argument("slug", shell_complete=complete_event)
@click.argument("request_id", type=int, metavar="ID")
@json_option
@db_option
def reject(slug, request_id, as_json, db_url):
    """Turn sign-up ID down.

    `tourney event signups SLUG` lists the sign-ups with their ids.

    \b
    Example:
      tourney event reject club-1 4
    """
    _decide(slug, request_id, False, as_json, db_url)


def add_commands(group: click.Group) -> None:
    group.add_command(signups)
    group.add_command(approve)
    group.add_command(reject)
    group.add_command(checkin)
    group.add_command(paid)
