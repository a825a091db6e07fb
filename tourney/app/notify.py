"""E-mail to the players (``tourney notify``): each entered player with an e-mail
address gets one message per round and kind, in the event's language.

``seating``: their table, seat and private link; ``results``: their match of the
round, their place in the standings after it, their rating change, the top of the
standings and their link. Messages have a text and an HTML
part, a Date, a Message-ID and a From. Every message tried is logged
(:class:`~tourney.storage.models.Notification`); a re-run sends nothing already
sent unless ``resend``. One failing address does not stop the rest.
"""
from __future__ import annotations

import functools
import html
import os
import smtplib
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from urllib.parse import unquote, urlsplit

from babel.numbers import format_decimal
from sqlmodel import Session, select

from ..errors import TourneyError, UsageError
from ..errors.words import N_, Message, quoted
from ..files import atomic_write
from ..numbers import halves_text
from ..storage.models import Event, Forfeit, Match, MatchPlace, Notification, utcnow
from ..tournament.evening import player_links
from ..tournament.events import entries
from ..tournament.rounds import seated_tables
from ..tournament.standings import place_text, standings_table
from .evening import evening_of

SEATING_TEXTS = {
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

# The results message, one sentence a line: subject, greeting, the player's match,
# no match this round, the standings, the rating, the top of the standings, the page,
# and for a forfeited table (`tourney result forfeit`): the player who did not play,
# and the table's others.
RESULTS_TEXTS = {
    "en": ("{event}, round {round}: your result", "Hello {player},",
           "in round {round} of {event} you came {place} of {players} at table {table}: "
           "score {total}, {points}.",
           "you had no match in round {round} of {event}.",
           "After round {round} you are {standing} of {entrants} with {standing_points}.",
           "Your rating: {rating_after} ({rating_change}).",
           "The top of the standings:",
           "Your page (table, results, standings): {link}",
           "in round {round} of {event} table {table} was scored as a forfeit: "
           "you did not play, 0 match points.",
           "in round {round} of {event} table {table} was scored as a forfeit: "
           "{points}, a bye's worth."),
    "sv": ("{event}, rond {round}: ditt resultat", "Hej {player},",
           "i rond {round} av {event} kom du {place} av {players} vid bord {table}: "
           "totalt {total}, {points}.",
           "du spelade ingen match i rond {round} av {event}.",
           "Efter rond {round} ligger du {standing} av {entrants} med {standing_points}.",
           "Din rating: {rating_after} ({rating_change}).",
           "Toppen av ställningen:",
           "Din sida (bord, resultat, ställning): {link}",
           "i rond {round} av {event} blev bord {table} walkover: "
           "du spelade inte, 0 matchpoäng.",
           "i rond {round} av {event} blev bord {table} walkover: "
           "{points}, lika mycket som en frirond."),
    "nb": ("{event}, runde {round}: ditt resultat", "Hei {player},",
           "i runde {round} av {event} ble du nummer {place} av {players} ved bord {table}: "
           "totalt {total}, {points}.",
           "du spilte ingen kamp i runde {round} av {event}.",
           "Etter runde {round} ligger du som nummer {standing} av {entrants} med "
           "{standing_points}.",
           "Din rating: {rating_after} ({rating_change}).",
           "Toppen av stillingen:",
           "Din side (bord, resultater, stilling): {link}",
           "i runde {round} av {event} ble bord {table} walkover: "
           "du spilte ikke, 0 kamppoeng.",
           "i runde {round} av {event} ble bord {table} walkover: "
           "{points}, like mye som en frirunde."),
    "fi": ("{event}, kierros {round}: tuloksesi", "Hei {player},",
           "{event}, kierros {round}: sijoituit {place}/{players} pöydässä {table}: "
           "yhteensä {total}, {points}.",
           "sinulla ei ollut ottelua kierroksella {round} ({event}).",
           "Kierroksen {round} jälkeen olet sijalla {standing}/{entrants}, "
           "{standing_points}.",
           "Vahvuuslukusi: {rating_after} ({rating_change}).",
           "Tilanteen kärki:",
           "Oma sivusi (pöytä, tulokset, tilanne): {link}",
           "{event}, kierros {round}: pöytä {table} ratkaistiin luovutuksena: "
           "et pelannut, 0 ottelupistettä.",
           "{event}, kierros {round}: pöytä {table} ratkaistiin luovutuksena: "
           "{points}, vapaakierroksen verran."),
}
# {total}, the sum of the player's deal scores, is named as the pages' "Total" column
# names it: "poäng 81" beside "0,33 poäng" of the standings read as the same points.
# {points} and {standing_points} above with their word: match points and the
# standings' points, singular and plural; English and Finnish say exactly 1 in the
# singular ("1 match point", "1 ottelupiste"), every other number in the plural
# ("0.5 match points", "0,5 ottelupistettä"); Swedish and Norwegian have one form.
POINT_WORDS = {
    "en": (("match point", "match points"), ("point", "points")),
    "sv": (("matchpoäng", "matchpoäng"), ("poäng", "poäng")),
    "nb": (("kamppoeng", "kamppoeng"), ("poeng", "poeng")),
    "fi": (("ottelupiste", "ottelupistettä"), ("piste", "pistettä")),
}
# The arbiter's adjustment of the round (`tourney result adjust --round N`), counted
# in the standings' points the message says: said with its reason, so they add up.
ADJUSTED_TEXTS = {
    "en": "The arbiter adjusted your points by {points} ({reason}).",
    "sv": "Domaren justerade dina poäng med {points} ({reason}).",
    "nb": "Dommeren justerte poengene dine med {points} ({reason}).",
    "fi": "Tuomari muutti pisteitäsi: {points} ({reason}).",
}
TOP_SHOWN = 5  # the top of the standings in a results message


@dataclass
class NotifyReport:
    sent: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # sent before
    failed: dict[str, str] = field(default_factory=dict)  # player: reason
    no_address: list[str] = field(default_factory=list)
    not_ready: list[str] = field(default_factory=list)  # results: their table has none yet

    def to_json(self) -> dict:
        return {"sent": self.sent, "skipped": self.skipped, "failed": self.failed,
                "no_address": self.no_address, "not_ready": self.not_ready}


def _message(subject: str, paragraphs: list[str], address: str, sender: str, lang: str,
             link_line: tuple[str, dict] | None = None, listing: list[str] = ()) -> EmailMessage:
    """One message of plain sentences in ``lang``: a text part and the same as HTML
    (each value escaped there; the link a link). The language is said (the HTML's
    ``lang``, ``Content-Language``) so that a mail reader's speech reads Finnish as
    Finnish."""
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = sender
    message["To"] = address
    message["Date"] = format_datetime(utcnow())
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "tourney")
    text = list(paragraphs)
    html_parts = [f"<p>{html.escape(p)}</p>" for p in paragraphs]
    if listing:
        text.append("\n".join(listing))
        # each line says its own place ("1= Bo: 3": a shared place no list numbers),
        # so the HTML list adds no numbers or bullets of its own
        html_parts.append('<ul style="list-style: none; padding-left: 0">'
                          + "".join(f"<li>{html.escape(line)}</li>" for line in listing)
                          + "</ul>")
    if link_line is not None:
        template, values = link_line
        text.append(template.format(**values))
        esc = {k: html.escape(str(v)) for k, v in values.items()}
        esc["link"] = f'<a href="{esc["link"]}">{esc["link"]}</a>'
        html_parts.append(f"<p>{template.format(**{**esc})}</p>")
    message.set_content("\n\n".join(text) + "\n")
    message.add_alternative(f'<!DOCTYPE html>\n<html lang="{lang}"><body>'
                            + "".join(html_parts) + "</body></html>\n", subtype="html")
    message["Content-Language"] = lang  # after the parts: setting content clears it
    return message


def seating_message(event: Event, player: str, address: str, number: int, table: str,
                    seat: int, link: str, sender: str) -> EmailMessage:
    lang = event.lang if event.lang in SEATING_TEXTS else "en"
    subject, hello, body, page = SEATING_TEXTS[lang]
    values = {"event": event.name, "round": number, "table": table, "seat": seat,
              "player": player, "link": link}
    return _message(subject.format(**values),
                    [hello.format(**values), body.format(**values)], address, sender, lang,
                    (page, values))


def results_message(evening, number: int, address: str, link: str,
                    sender: str) -> EmailMessage:
    """A player's round ``number``: their match, their place in the standings after
    it, their rating change, the top of the standings and their page."""
    event = evening.event
    lang = event.lang or "en"
    (subject, hello, played, no_match, standing, rating, top, page, forfeited,
     forfeit_won) = RESULTS_TEXTS.get(lang, RESULTS_TEXTS["en"])
    number_text = functools.partial(_number, lang)
    match_words, standing_words = POINT_WORDS.get(lang, POINT_WORDS["en"])

    def points(value: float) -> str:
        # halves as the pages write them ("1½"), one way per language
        return halves_text(value, number_text) or number_text(value)

    def points_text(value: float, words: tuple[str, str]) -> str:
        shown = points(value)
        return f"{shown} {words[0] if shown == '1' else words[1]}"

    values = {"event": event.name, "round": number, "player": evening.player, "link": link,
              "entrants": len(evening.rows)}
    result = evening.result_of(number)
    lines = [hello.format(**values)]
    if result is not None and result.kind == "forfeit":
        lines.append((forfeited if result.absent else forfeit_won).format(
            **values, table=result.table, points=points_text(result.match_points, match_words)))
    elif result is not None and result.kind == "match":
        lines.append(played.format(**values, place=place_text(result.place, result.shared),
                                   players=result.players,
                                   table=result.table, total=number_text(result.total),
                                   points=points_text(result.match_points, match_words)))
    else:
        lines.append(no_match.format(**values))
    row = evening.standing
    for adjustment in (row.adjustments if row is not None else ()):
        if adjustment["round"] == number:
            shown = points(adjustment["points"])
            lines.append(ADJUSTED_TEXTS.get(lang, ADJUSTED_TEXTS["en"]).format(
                points=f"+{shown}" if adjustment["points"] > 0 else shown,
                reason=adjustment["reason"]))
    if row is not None:
        lines.append(standing.format(**values, standing=place_text(row.place, row.shared),
                                     standing_points=points_text(row.points,
                                                                 standing_words)))
    change = evening.rating_change(number)
    if change is not None:
        before, after = change
        lines.append(rating.format(rating_after=number_text(after, 1),
                                   rating_change=signed(after - before, lang)))
    # "1. Anna", and a shared place as the pages show it: "2= Bo", "2= Cai"
    listing = [f"{place_text(r.place, r.shared)}{'' if r.shared else '.'} {r.player}: "
               f"{points(r.points)}" for r in evening.rows[:TOP_SHOWN]]
    if listing:
        lines.append(top)
    return _message(subject.format(**values), lines, address, sender,
                    lang if lang in RESULTS_TEXTS else "en", (page, values), listing)


def _number(lang: str, value: float, decimals: int | None = None) -> str:
    """A number as the event's language writes it (1,5 in Swedish)."""
    pattern = "#,##0.##" if decimals is None else "#,##0." + "0" * decimals
    return format_decimal(value, format=pattern, locale=_LOCALES.get(lang, "en"))


def signed(value: float, lang: str) -> str:
    """+1.3 / -0.4 with one decimal (the language's minus sign); 0.0 for a change that rounds to nothing (as
    :func:`tourney.numbers.signed_text`, in the language's digits)."""
    shown = _number(lang, abs(value), 1)
    if not shown.strip("0.,"):
        return shown
    return "+" + shown if value > 0 else _number(lang, value, 1)  # the language's minus


_LOCALES = {"sv": "sv_SE", "nb": "nb_NO", "fi": "fi_FI", "en": "en"}


def connect(url: str) -> smtplib.SMTP:
    """An SMTP connection as the URL says: smtp:// (plain), smtp+starttls://,
    smtps:// (TLS from the start); user and password from the URL, or the
    password from TOURNEY_SMTP_PASSWORD."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps", "smtp+starttls"):
        raise UsageError(Message(N_("not an SMTP URL: %(scheme)s (smtp://, smtps://, "
                                    "smtp+starttls://)"), {"scheme": quoted(parts.scheme or url)}))
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


def notify_players(session: Session, event: Event, number: int, what: str, *,
                   smtp_url: str | None, sender: str, base_url: str = "",
                   dry_run: str | None = None, resend: bool = False) -> NotifyReport:
    """Send (or, with ``dry_run``, write as .eml files to that folder) each player's
    ``what`` of round ``number``: ``seating`` (their table, seat and link) or
    ``results`` (their result, standing, rating change and link)."""
    if what not in ("seating", "results"):
        raise UsageError(Message(N_("notify sends seating or results, not %(what)s"),
                                 {"what": quoted(what)}))
    report = NotifyReport()
    tables = seated_tables(session, event, number)
    if not tables:
        raise TourneyError(Message(N_("round %(round)s of %(event)s is not seated"),
                                   {"round": number, "event": event.slug}))
    seat_of = {p.id: (label, index + 1) for label, players in tables.items()
               for index, p in enumerate(players)}
    links = {row.player: row.to_json(base_url)["url"] for row in player_links(session, event)}
    sent_before = {row.player_id for row in session.exec(select(Notification).where(
        Notification.event_id == event.id, Notification.round_number == number,
        Notification.what == what, Notification.status == "sent"))}
    with_result = set()
    if what == "results":
        with_result = _players_with_a_result(session, event, number, tables)
        if not with_result:
            raise TourneyError(Message(N_("round %(round)s of %(event)s has no results yet"),
                                       {"round": number, "event": event.slug}))
    client = None
    standings = None  # the results' standings, worked out once for every message
    try:
        for _, player in entries(session, event):
            if player.id not in seat_of or player.merged_into_id is not None:
                continue
            if what == "results" and player.id not in with_result:
                table = seat_of[player.id][0]
                if table is not None and len(tables[table]) > 1:
                    report.not_ready.append(player.name)  # their table's result is not in
                    continue
            if not player.email:
                report.no_address.append(player.name)
                continue
            if player.id in sent_before and not resend:
                report.skipped.append(player.name)
                continue
            if what == "seating":
                table, seat = seat_of[player.id]
                message = seating_message(event, player.name, player.email, number, table,
                                          seat, links[player.name], sender)
            else:
                if standings is None:
                    standings = standings_table(session, event, up_to_round=number)
                evening = evening_of(session, event, player, up_to_round=number, rows=standings)
                message = results_message(evening, number, player.email, links[player.name],
                                          sender)
            status, error = "sent", None
            if dry_run is not None:
                folder = Path(dry_run)
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / f"round-{number}-{what}-{player.id}.eml"
                with atomic_write(path, "wb", newline=None, encoding=None) as out:
                    out.write(bytes(message))
                status = "dry-run"
            else:
                try:
                    if client is None:
                        client = connect(smtp_url)
                    client.send_message(message)
                except (smtplib.SMTPException, OSError) as err:
                    status, error = "failed", _smtp_refusal(err)[:500]
                    if isinstance(err, (smtplib.SMTPServerDisconnected, OSError)):
                        client = None
            session.add(Notification(event_id=event.id, player_id=player.id,
                                     round_number=number, what=what,
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
    return report


def _smtp_refusal(err: Exception) -> str:
    """What the mail server said, as it said it: "anna@example.org: 550 no such
    user" for a refused address (smtplib's own str() is a Python dict of bytes)."""
    if isinstance(err, smtplib.SMTPRecipientsRefused):
        return "; ".join(f"{address}: {_reply(code, text)}"
                         for address, (code, text) in err.recipients.items())
    if isinstance(err, smtplib.SMTPResponseException):
        return _reply(err.smtp_code, err.smtp_error)
    return str(err)


def _reply(code: int, text: bytes | str) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return f"{code} {text}".strip()


def _players_with_a_result(session: Session, event: Event, number: int,
                           tables: dict[str, list]) -> set[int]:
    """The players of round ``number`` whose table is done: its result is in, or
    it was forfeited (scored without a match; it will never have a result)."""
    done = set(session.exec(
        select(MatchPlace.player_id)
        .join(Match, MatchPlace.version_id == Match.current_version_id)
        .where(Match.event_id == event.id, Match.round_number == number)).all())
    for table in session.exec(select(Forfeit.table).where(
            Forfeit.event_id == event.id, Forfeit.round_number == number)).all():
        done.update(p.id for p in tables.get(table, ()))
    return done
