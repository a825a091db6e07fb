"""`tourney serve`: results entered at the tables, through a web server."""
from __future__ import annotations

import os
import socket

import click

from tourney.errors import UsageError

from .database import db_option, open_db
from .output import check_base_url, emit_jsonl, json_option, message


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the venue's network in.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on; 0 picks a free one (printed at start).")
@click.option("--review", is_flag=True,
              help="Keep valid results for the organizer to accept (default: a result the "
                   "engines accept is stored at once).")
@click.option("--site", "site_dir", metavar="DIR", type=click.Path(file_okay=False),
              help="Where the static site is published: after each change (see "
                   "--live-site) and by the organizer's Publish button.")
@click.option("--live-site/--no-live-site", default=True, show_default=True,
              help="With --site: publish the site by itself after each change the server "
                   "stores (a result, a forfeit, a round seated), one publish at a time; "
                   "--no-live-site leaves it to the Publish button.")
@click.option("--lang", "langs", multiple=True, metavar="LANG",
              help="Languages of the published site (repeatable), as for `tourney publish`.")
@click.option("--secure-cookies", is_flag=True,
              help="Mark cookies Secure (behind an HTTPS proxy).")
@click.option("--base-url", metavar="URL", callback=check_base_url,
              help="Where phones reach the server (behind a reverse proxy, or a name on the "
                   "venue's network), e.g. https://dam.example.org/; used in every link and "
                   "QR code (default: the address printed at start).")
@click.option("--forwarded-allow-ips", metavar="ADDRESSES",
              help="Behind a reverse proxy: the proxy's addresses (comma-separated, or *), "
                   "whose X-Forwarded-For and X-Forwarded-Proto are believed. Without it "
                   "they are ignored: every phone would count as the proxy's address.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes serving requests (PostgreSQL only): a league's central server "
                   "grows past one process; they share the database and nothing else.")
@json_option
@db_option
def serve(host, port, review, site_dir, live_site, langs, secure_cookies, base_url, forwarded_allow_ips,
          workers, as_json, db_url):
    """Run the venue's web server: players enter results at their tables.

    Each table of a seated round gets a private link (QR code and short code on
    the organizer's printable page, or `tourney round links`). Players enter
    their score sheet, or paste a full record, on a phone; the engines check it
    as an import would and say what is wrong in the page's language (en, sv, nb,
    fi). A result is stored through the result import (versions, audit log
    naming the table's link). /standings/SLUG shows live standings for a screen.

    Players have their own pages (/p/TOKEN, from `tourney player links`: their
    table, results, standings and rating; check-in), and while an event's
    sign-up is open, /signup/SLUG takes sign-ups for the organizer to enter.

    The organizer's pages (/org) need the token printed at start, or the
    password in TOURNEY_SERVE_PASSWORD: the current round and each table's
    state, accept or reject, close the round, seat the next one, publish.

    JSON: POST the CSV rows of a table's match to its link with
    Content-Type: text/csv; the answer is the verdict. With --json, stdout gets
    one line once the server listens: {"url", "host", "port", "organizer_url",
    "token"} (token null when TOURNEY_SERVE_PASSWORD is set), for a script
    that started it with --port 0.

    \b
    Example:
      tourney serve --host 0.0.0.0 --port 8000 --site site/
    """
    from tourney.storage.db import is_sqlite
    from tourney.web.app import ServerConfig, create_app, organizer_secret
    from tourney.web.listen import listening_socket, run_workers, web_server

    engine = open_db(db_url)
    if workers > 1 and is_sqlite(engine):
        # SQLite takes one writer at a time; one process already queues them
        raise UsageError("--workers needs a PostgreSQL database (--db postgresql+psycopg://...); "
                         "on SQLite one process serves a venue")
    secret, made = organizer_secret(os.environ.get("TOURNEY_SERVE_PASSWORD"))

    def make_app():
        engine.dispose(close=False)  # a fresh pool in each process (after a fork)
        return create_app(ServerConfig(engine=engine, secret=secret, password=not made,
                                       auto_accept=not review,
                                       site_dir=site_dir, site_langs=list(langs),
                                       live_site=live_site,
                                       live_site_report=report_live_publish,
                                       secure_cookies=secure_cookies, base_url=url,
                                       processes=workers))

    # The socket is bound here, so --port 0 can say which port the system chose
    # (and a port in use is a one-line error).
    sock = listening_socket(host, port)
    port = sock.getsockname()[1]
    url = base_url.rstrip("/") + "/" if base_url else local_url(host, port)
    everywhere = "listening on every address of this machine; " if host in ("0.0.0.0", "::") else ""
    message(f"tourney serve on {url} ({everywhere}organizer pages: /org)")
    if made:
        message(f"organizer token: {secret}")
    if as_json:
        emit_jsonl({"url": url, "host": host, "port": port, "organizer_url": f"{url}org",
                   "token": secret if made else None})
    with sock:
        if workers > 1:
            run_workers(make_app, sock, workers, forwarded_allow_ips=forwarded_allow_ips)
        else:
            web_server(make_app(), forwarded_allow_ips=forwarded_allow_ips).run(sockets=[sock])


def report_live_publish(state) -> None:
    """A live publish on the server's log: one that failed (the result it followed
    is stored; the next change tries again), or the first that worked after that."""
    from .errors import message as error_message

    if state.error is not None:
        message(f"live site: {error_message(state.error)}")
    else:
        message("live site: published again")


def local_url(host: str, port: int) -> str:
    """The server's address as people type it: localhost for the loopback, and for
    every address (0.0.0.0), this machine's address on its network, which phones on
    the venue's Wi-Fi can reach (0.0.0.0 is nobody's address)."""
    if host in ("127.0.0.1", "::1", "localhost"):
        shown = "localhost"
    elif host in ("0.0.0.0", "::"):
        shown = _network_address() or socket.gethostname()
    else:
        shown = host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}/"


def _network_address() -> str | None:
    """The address this machine reaches other machines from (a UDP 'connection'
    sends nothing; it only picks the route), or None without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("0.") else address


def register(group: click.Group) -> None:
    group.add_command(serve)
