"""`tourney serve`: results entered at the tables, through a web server."""
from __future__ import annotations

import os

import click

from .database import db_option, open_db
from .output import message


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the venue's network in.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--review", is_flag=True,
              help="Keep valid results for the organizer to accept (default: a result the "
                   "engines accept is stored at once).")
@click.option("--site", "site_dir", metavar="DIR", type=click.Path(file_okay=False),
              help="Where the organizer's Publish button writes the static site.")
@click.option("--lang", "langs", multiple=True, metavar="LANG",
              help="Languages of the published site (repeatable), as for `tourney publish`.")
@click.option("--secure-cookies", is_flag=True,
              help="Mark cookies Secure (behind an HTTPS proxy).")
@db_option
def serve(host, port, review, site_dir, langs, secure_cookies, db_url):
    """Run the venue's web server: players enter results at their tables.

    Each table of a seated round gets a private link (QR code and short code on
    the organizer's printable page, or `tourney round links`). Players enter
    their score sheet, or paste a full record, on a phone; the engines check it
    as an import would and say what is wrong in the page's language (en, sv, nb,
    fi). A result is stored through the result import (versions, audit log
    naming the table's link). /standings/SLUG shows live standings for a screen.

    The organizer's pages (/org) need the token printed at start, or the
    password in TOURNEY_SERVE_PASSWORD: the current round and each table's
    state, accept or reject, close the round, seat the next one, publish.

    JSON: POST the CSV rows of a table's match to its link with
    Content-Type: text/csv; the answer is the verdict.

    \b
    Example:
      tourney serve --host 0.0.0.0 --port 8000 --site site/
    """
    import uvicorn

    from tourney.reports.web.app import ServerConfig, create_app, organizer_secret

    engine = open_db(db_url)
    secret, made = organizer_secret(os.environ.get("TOURNEY_SERVE_PASSWORD"))
    app = create_app(ServerConfig(engine=engine, secret=secret, auto_accept=not review,
                                  site_dir=site_dir, site_langs=list(langs),
                                  secure_cookies=secure_cookies))
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    message(f"tourney serve on http://{shown}:{port}/ (organizer pages: /org)")
    if made:
        message(f"organizer token: {secret}")
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False,
                proxy_headers=False)


def register(group: click.Group) -> None:
    group.add_command(serve)
