"""E-mail to the players (``tourney notify``): each entered player with an e-mail
address gets one message per round and kind, in the event's language.

``seating``: their table, seat and private link. Messages have a text and an HTML
part, a Date, a Message-ID and a From. Every message tried is logged
(:class:`~tourney.storage.models.Notification`); a re-run sends nothing already
sent unless ``resend``. One failing address does not stop the rest.
"""
from __future__ import annotations

import html
import os
import smtplib
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from urllib.parse import unquote, urlsplit

from sqlmodel import Session, select

from ..errors import TourneyError, UsageError
from ..files import atomic_write
from ..storage.models import Event, Notification, utcnow
from ..tournament.evening import player_links
from ..tournament.events import entries
from ..tournament.rounds import seated_tables

TEXTS = {
    "en": ("{event}, round {round}: table {table}", "Hello {player},",
           "in round {round} of {event} you play at table {table}, seat {seat}.",
           "Your page (table, results, standings): {link}"),
    "sv": ("{event}, rond {round}: bord {table}", "Hej {player},",
           "i rond {round} av {event} spelar du vid bord {table}, plats {seat}.",
           "Din sida (bord, resultat, ställning): {link}"),
    "nb": ("{event}, runde {round}: bord {table}", "Hei {player},",
           "i runde {round} av {event} spiller du ved bord {table}, plass {seat}.",
           "Din side (bord, resultater, stilling): {link}"),
    "fi": ("{event}, kierros {round}: pöytä {table}", "Hei {player},",
           "{event}, kierros {round}: pelaat pöydässä {table}, paikka {seat}.",
           "Oma sivusi (pöytä, tulokset, tilanne): {link}"),
}


@dataclass
class NotifyReport:
    sent: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # sent before
    failed: dict[str, str] = field(default_factory=dict)  # player: reason
    no_address: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"sent": self.sent, "skipped": self.skipped, "failed": self.failed,
                "no_address": self.no_address}


def seating_message(event: Event, player: str, address: str, number: int, table: str,
                    seat: int, link: str, sender: str) -> EmailMessage:
    subject, hello, body, page = TEXTS.get(event.lang or "en", TEXTS["en"])
    values = {"event": event.name, "round": number, "table": table, "seat": seat,
              "player": player, "link": link}
    lines = [hello.format(**values), "", body.format(**values), "", page.format(**values)]
    message = EmailMessage()
    message["Subject"] = subject.format(**values)
    message["From"] = sender
    message["To"] = address
    message["Date"] = format_datetime(utcnow())
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "tourney")
    message.set_content("\n".join(lines) + "\n")
    esc = {k: html.escape(str(v)) for k, v in values.items()}
    link_html = f'<a href="{esc["link"]}">{esc["link"]}</a>'
    message.add_alternative(
        f"<p>{hello.format(**esc)}</p><p>{body.format(**esc)}</p>"
        f"<p>{page.format(**dict(esc, link=link_html))}</p>\n", subtype="html")
    return message


def connect(url: str) -> smtplib.SMTP:
    """An SMTP connection as the URL says: smtp:// (plain), smtp+starttls://,
    smtps:// (TLS from the start); user and password from the URL, or the
    password from TOURNEY_SMTP_PASSWORD."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps", "smtp+starttls"):
        raise UsageError(f"not an SMTP URL: {parts.scheme or url!r} (smtp://, smtps://, "
                         "smtp+starttls://)")
    host = parts.hostname or "localhost"
    if parts.scheme == "smtps":
        client = smtplib.SMTP_SSL(host, parts.port or 465, timeout=30,
                                  context=ssl.create_default_context())
    else:
        client = smtplib.SMTP(host, parts.port or 25, timeout=30)
        if parts.scheme == "smtp+starttls":
            client.starttls(context=ssl.create_default_context())
    if parts.username:
        password = (unquote(parts.password) if parts.password is not None
                    else os.environ.get("TOURNEY_SMTP_PASSWORD", ""))
        client.login(unquote(parts.username), password)
    return client


def notify_seating(session: Session, event: Event, number: int, *, smtp_url: str | None,
                   sender: str, base_url: str = "", dry_run: str | None = None,
                   resend: bool = False) -> NotifyReport:
    """Send (or, with ``dry_run``, write as .eml files to that folder) each seated
    player's seating of round ``number``."""
    report = NotifyReport()
    tables = seated_tables(session, event, number)
    seat_of = {p.id: (label, index + 1) for label, players in tables.items()
               for index, p in enumerate(players)}
    links = {row.player: row.to_json(base_url)["url"] for row in player_links(session, event)}
    sent_before = {row.player_id for row in session.exec(select(Notification).where(
        Notification.event_id == event.id, Notification.round_number == number,
        Notification.what == "seating", Notification.status == "sent"))}
    client = None
    try:
        for _, player in entries(session, event):
            if player.id not in seat_of or player.merged_into_id is not None:
                continue
            if not player.email:
                report.no_address.append(player.name)
                continue
            if player.id in sent_before and not resend:
                report.skipped.append(player.name)
                continue
            table, seat = seat_of[player.id]
            message = seating_message(event, player.name, player.email, number, table, seat,
                                      links[player.name], sender)
            status, error = "sent", None
            if dry_run is not None:
                folder = Path(dry_run)
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / f"round-{number}-seating-{player.id}.eml"
                with atomic_write(path, "wb", newline=None, encoding=None) as out:
                    out.write(bytes(message))
                status = "dry-run"
            else:
                try:
                    if client is None:
                        client = connect(smtp_url)
                    client.send_message(message)
                except (smtplib.SMTPException, OSError) as err:
                    status, error = "failed", str(err)[:500]
                    if isinstance(err, (smtplib.SMTPServerDisconnected, OSError)):
                        client = None
            session.add(Notification(event_id=event.id, player_id=player.id,
                                     round_number=number, what="seating",
                                     address=player.email, message_id=message["Message-ID"],
                                     status=status, error=error))
            if status == "failed":
                report.failed[player.name] = error
            else:
                report.sent.append(player.name)
        session.flush()
    finally:
        if client is not None:
            try:
                client.quit()
            except (smtplib.SMTPException, OSError):
                pass
    if not tables:
        raise TourneyError(f"round {number} of {event.slug} is not seated")
    return report
