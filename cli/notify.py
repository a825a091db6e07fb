"""`tourney notify`: e-mail each entered player their seating or their results."""
from __future__ import annotations

import click

from tourney.storage.db import transaction

from .completion import complete_event
from .database import db_option, open_db, refuse_overwrites
from .output import base_url_option, deprecated_option, json_option, report_change


@click.command()
@click.argument("slug", shell_complete=complete_event)
@click.option("--round", "number", type=click.IntRange(1), required=True,
              help="The round whose seating or results to send.")
@click.option("--what", type=click.Choice(["seating", "results"]), default="seating",
              show_default=True,
              help="seating: each player's table, seat and private link. results: their "
                   "match, place in the standings, rating change, the top of the standings.")
@click.option("--smtp", "smtp_url", metavar="URL",
              help="smtp://HOST:PORT, smtp+starttls://USER@HOST:587 or smtps://USER@HOST "
                   "(password in the URL or in TOURNEY_SMTP_PASSWORD).")
@click.option("--from", "sender", default="tourney@localhost", show_default=True,
              metavar="ADDR", help="The From address.")
@base_url_option("each player's private link")
@click.option("--outbox", metavar="DIR", type=click.Path(file_okay=False),
              help="Write the messages as .eml files into DIR instead of sending them.")
# --dry-run is a flag elsewhere (`result import`: check, write nothing)
@deprecated_option("--dry-run", "--outbox DIR", "old_outbox", metavar="DIR",
                   type=click.Path(file_okay=False))
@click.option("--resend", is_flag=True, help="Send again to players sent to before.")
@json_option
@db_option
def notify(slug, number, what, smtp_url, sender, base_url, outbox, old_outbox, resend, as_json,
           db_url):
    """E-mail each seated player with an address their seating or their results.

    One message per player, in the event's language, with a text and an HTML
    part. --what seating: their table, seat and private link. --what results
    (once the round's results are in): their place at their table, score and
    match points, their place in the standings after the round, their rating
    change and the top of the standings; a player whose table has no result
    yet is left for a later run. What was sent is logged: running it again
    sends nothing twice unless --resend. An address that fails does not stop
    the rest; the summary names it and the exit code is 1.

    \b
    Examples:
      tourney notify club-1 --round 1 --what seating --smtp smtp://mail.example.org:25 \\
          --from club@example.org --base-url http://192.168.1.20:8000
      tourney notify club-1 --round 1 --what results --smtp smtp://mail.example.org:25
      tourney notify club-1 --round 1 --outbox outbox/
    """
    from tourney.app.notify import notify_players
    from tourney.errors import UsageError
    from tourney.tournament.events import get_event

    outbox = outbox or old_outbox
    if not smtp_url and not outbox:
        raise UsageError("give --smtp URL, or --outbox DIR")
    refuse_overwrites(db_url, {"--outbox": outbox}, replace=True)
    with transaction(open_db(db_url)) as session:
        report = notify_players(session, get_event(session, slug), number, what,
                                smtp_url=smtp_url, sender=sender, base_url=base_url,
                                dry_run=outbox, resend=resend)
    summary = (f"{slug} round {number}: {len(report.sent)} "
               f"{'written' if outbox else 'sent'}, {len(report.skipped)} sent before, "
               f"{len(report.no_address)} without an address")
    if report.not_ready:
        summary += f", {len(report.not_ready)} whose table has no result yet"
    if report.failed:
        summary += "; failed: " + "; ".join(f"{k} ({v})" for k, v in report.failed.items())
    report_change("notify", bool(report.sent), summary, as_json, event=slug, round=number,
                  what=what, **report.to_json())
    if report.failed:
        raise SystemExit(1)


def register(group: click.Group) -> None:
    group.add_command(notify)
