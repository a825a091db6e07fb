"""``tourney serve``: results entered at the tables, as a Starlette application.

Pages (every one works without JavaScript; forms post normally):

- ``/t/<token>``: a table's page. The players of one table enter their score
  sheet (or paste a full record) and send it; the engines check it and say what is
  wrong in the page's language. ``/t`` takes the short code instead.
- ``/standings/<slug>``: live standings for the venue screen (a script polls
  ``/api/events/<slug>/standings``; without JavaScript the page reloads itself).
- ``/org/...``: the organizer's pages, behind a login with the token printed when
  the server starts (or the password given to it): the current round, each table's
  state and what it sent or has stored (the scores and places the engine worked
  out, or what is wrong), accept or reject a submission, settle a conflict (a
  second, different result of a table, or an invalid one sent after its result was
  stored, shown beside the first; dismissed with a reason), close the round, seat
  the next round, publish the static site, print the table links with QR codes.
  The round page follows the round: its script asks ``/org/<slug>/live`` (a small
  read) every few seconds and fetches the page again only when the round changed.

JSON API: ``POST /t/<token>`` with ``Content-Type: text/csv`` (the record rows of
the table's match) answers with the verdict as JSON; the organizer's actions
answer JSON to ``Accept: application/json`` and take ``Authorization: Bearer
TOKEN`` instead of the login cookie.

Every change goes through the application layer (:mod:`tourney.app`), as the
CLI's do; pages read the services' read models. The database work of a request
runs in a worker thread, one transaction each.
"""
from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import io
import math
import os
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tourney.app import tables as submissions
from tourney.app.evening import organizer_evening
from tourney.app.publish import publish_site
from tourney.app.rounds import RoundShown, seat_next_round, show_round
from tourney.engines.base import DealSetup
from tourney.engines.presentation import N_, Message
from tourney.errors import IllegalMove, RecordError, TourneyError, close_names, error_location
from tourney.errors.words import quoted
from tourney.numbers import typed_number
from tourney.person_names import normalize_name
from tourney.records.csv_format import write_records
from tourney.records.validation import not_a_score
from tourney.reports.i18n import (
    NumberFormat,
    language_name,
    locale_of,
    template_callables,
    translations,
)
from tourney.reports.site import TEMPLATE_DIR as SITE_TEMPLATE_DIR
from tourney.reports.site import Renderer
from tourney.storage.audit import acting_as, record_change
from tourney.storage.db import (
    AUDITED,
    ConflictingChange,
    DatabaseBusy,
    is_sqlite,
    reading,
    transaction,
)
from tourney.storage.models import Event, TableLink
from tourney.tournament import table_links
from tourney.tournament.arbiter import MAX_REASON
from tourney.tournament.evening import decide_signup, mark, set_checkin_required, set_evening
from tourney.tournament.events import get_event, last_seated_round, results_by_round
from tourney.tournament.rounds import (
    get_round,
    seated_keys,
    seating_warnings,
    withdrawn_note,
)
from tourney.tournament.settings import event_settings
from tourney.tournament.sheets import score_sheet_rows
from tourney.tournament.standings import event_tiebreaks, standing_decimals, standings_table

from .grid_names import grid_name, short_names
from .group_commit import GroupCommit, lost_race
from .live_site import LivePublish, LivePublisher
from .messages import (
    REFUSALS,
    bad_fields,
    error_lines,
    error_text,
    refusal_text,
    remedy_sentence,
    setting_way_offer,
    signup_refusal,
)
from .security import (
    SESSION_COOKIE,
    DatabaseFailures,
    DatabaseRevocations,
    FailureLimit,
    SecurityHeaders,
    Sessions,
    SessionsOffTheLoop,
    csrf_ok,
    secret_ok,
)

HERE = Path(__file__).resolve().parent
LANGUAGES = ("en", "sv", "nb", "fi")
# A request body larger than this is refused before it is read: a match has at most
# 1000 deals, and the record reader's limits (line, field, record) apply inside it.
MAX_BODY_BYTES = 2 << 20
POLL_SECONDS = 5
# The static site's filters the live pages use through its macros (macros.html).
SITE_FILTERS = ("num", "dec1", "dec2", "date", "card", "cards", "score", "seat", "points",
                "score_decimals", "decimals", "point_column", "standing_decimals")


# The most fields a form of this server has (a score sheet of 200 deals at 6 seats is
# 1,200): more is refused with a 400, not parsed.
MAX_FORM_FIELDS = 4000
# The largest number a request may name (a round, a submission, a sign-up, minutes):
# the databases' INTEGER (PostgreSQL's is 32 bits). A larger one reached the database
# and answered 500.
MAX_NUMBER = 2**31 - 1


def whole_number(text: str) -> int:
    """``text`` (from a form or a path) as a whole number the databases can hold; a
    TourneyError (answered 4xx) when it is none."""
    try:
        value = int(text.strip())
    except ValueError:
        raise TourneyError(Message(N_("not a whole number: %(text)s"),
                                   {"text": quoted(text)})) from None
    if abs(value) > MAX_NUMBER:
        raise TourneyError(Message(N_("not a whole number this server takes: %(text)s"),
                                   {"text": quoted(text[:20])}))
    return value


@dataclass
class ServerConfig:
    engine: Engine
    secret: str  # the organizer's login token or password
    # the secret is a password the organizer chose (TOURNEY_SERVE_PASSWORD), not a
    # token printed at start: the login page asks for what the organizer has
    password: bool = False
    auto_accept: bool = False
    site_dir: str | None = None
    site_langs: list[str] = field(default_factory=list)
    # publish the site into site_dir by itself after each change (live_site.py);
    # `tourney serve --site` turns it on unless --no-live-site
    live_site: bool = False
    # hears of a live publish that failed (and of the next that worked): the
    # command line words it on the server's log
    live_site_report: Callable[[LivePublish], None] | None = None
    secure_cookies: bool = False
    # failures per client address per window before 429 (wrong links, logins)
    link_failures: int = 20
    login_failures: int = 5
    failure_window: float = 60.0
    # every wrong link, code, login or token waits this long before its answer, so
    # guessing is slow from any number of addresses (others are served meanwhile)
    failure_delay: float = 0.2
    # how often the live standings and the organizer's round page ask for news
    poll_seconds: int = POLL_SECONDS
    # where phones reach the server (links, QR codes); None: the request's own URL
    base_url: str | None = None
    # a request body that stops arriving for this long is answered 408 and dropped
    # (a phone that lost the Wi-Fi mid-send must not hold its request open for ever)
    body_timeout: float = 30.0
    # how many processes serve the same address (`--workers N`): more than one
    # count wrong guesses and remember logouts together, in the database
    processes: int = 1


class Server:
    """The application's state: configuration, sessions, limits, templates."""

    def __init__(self, config: ServerConfig):
        self.config = config
        shared = config.processes > 1
        self.sessions = Sessions(config.secret, revoked=(
            DatabaseRevocations(config.engine) if shared else None))
        self.link_limit, self.login_limit = (
            FailureLimit(failures, config.failure_window,
                         store=DatabaseFailures(config.engine, scope) if shared else None)
            for scope, failures in (("link", config.link_failures),
                                    ("login", config.login_failures)))
        self.write_lock = (threading.Lock() if is_sqlite(config.engine)
                           else contextlib.nullcontext())
        # the results sent at the tables: stored together while a write is under way
        self.results = GroupCommit(self.writing, self.in_transaction,
                                   prepare=table_links.lock_links_by_token)
        self.live_site = (LivePublisher(functools.partial(_publish_site, config),
                                        config.site_dir, config.live_site_report)
                          if config.live_site and config.site_dir else None)
        # The site's templates after the server's own: the live pages import the
        # static site's macros (macros.html), one home for how standings read.
        self.templates = Environment(loader=FileSystemLoader([HERE / "templates", SITE_TEMPLATE_DIR]),
                                     autoescape=select_autoescape(default=True),
                                     extensions=["jinja2.ext.i18n"])
        # {% trans %} calls gettext with its variables, as on the site (the site's
        # macros are rendered here too)
        self.templates.newstyle_gettext = True
        self._renderers: dict = {}
        self.templates.globals["short_names"] = short_names
        self.templates.globals["language_name"] = language_name
        # the organizer's boxes take what the library keeps, not a number of their own
        self.templates.globals["reason_length"] = MAX_REASON
        self.templates.globals["note_length"] = submissions.NOTE_LENGTH
        self.templates.filters["grid_name"] = grid_name
        self.templates.filters["venue_clock"] = venue_clock
        for name in SITE_FILTERS:
            self.templates.filters[name] = self._site_filter(name)

    def _site_filter(self, name: str):
        """The static site's filter ``name`` (``num``: numbers as the site shows
        them) in the language of the page being rendered."""
        @pass_context
        def apply(context, value, *args):
            return self.site_renderer(context["lang"]).env.filters[name](value, *args)
        return apply

    # ------------------------------------------------------------ plumbing

    @contextlib.contextmanager
    def writing(self) -> Iterator[Session]:
        """The one way this server writes (:meth:`in_transaction`, the group commit
        of the tables' results): a transaction, this process's writers in turn on
        SQLite; once it has committed a change the audit log records, the live site
        is published again (:mod:`.live_site`; not for the organizer's own publish,
        which changes nothing the site shows)."""
        with self.write_lock, transaction(self.config.engine) as session:
            yield session
            changed = any(action != "site.publish"
                          for action, _ in session.info.get(AUDITED, ()))
        if changed and self.live_site is not None:
            self.live_site.changed()

    def in_transaction(self, work):
        """Run ``work(session)`` in one transaction (in a worker thread).

        On SQLite one writer at a time holds the database; this process's writers
        queue on a lock of their own, in turn, instead of polling SQLite's busy
        handler (which lets an unlucky request wait past the busy timeout under a
        burst of 100 tables). A race lost to another process (a unique
        constraint) is retried, when the other's result is visible; so is a
        transaction PostgreSQL cancelled to break a deadlock."""
        for attempt in (1, 2, 3):
            try:
                with self.writing() as session:
                    return work(session)
            except (ConflictingChange, OperationalError) as err:
                # PostgreSQL gave up on this transaction to let another one through
                # (deadlock detected, serialization failure): nothing was written.
                if attempt == 3 or not lost_race(err):
                    raise

    def site_renderer(self, lang: str):
        """The static site's renderer of ``lang``: its number formats for live pages."""
        renderer = self._renderers.get(lang)
        if renderer is None:
            renderer = self._renderers[lang] = Renderer(
                lang, "", LANGUAGES, dt.datetime.now(dt.timezone.utc))
        return renderer

    def session_of(self, request: Request) -> tuple[str, dict]:
        """The request's session, looked up once a request (with ``--workers N`` an
        organizer's cookie is looked up among the logouts in the database)."""
        known = request.scope.get("tourney.session")
        if known is None:
            known = request.scope["tourney.session"] = self.sessions.get(
                request.cookies.get(SESSION_COOKIE))
        return known

    def language(self, request: Request, default: str | None = None) -> str:
        asked = request.query_params.get("lang")
        if asked in LANGUAGES:
            return asked
        cookie = request.cookies.get("lang")
        if cookie in LANGUAGES:
            return cookie
        if default in LANGUAGES:
            return default
        for part in request.headers.get("accept-language", "").split(","):
            code = part.split(";")[0].strip().lower().replace("_", "-")
            code = {"no": "nb", "nn": "nb"}.get(code.split("-")[0], code.split("-")[0])
            if code in LANGUAGES:
                return code
        return "en"

    def error_page(self, request: Request, lang: str, status: int, err: Exception,
                   **context) -> HTMLResponse:
        """A refusal's own page (message.html): its words in ``lang``, or its English
        marked as English."""
        text, text_lang = error_text(err, self.site_renderer(lang))
        return self.render(request, "message.html", lang, status, text=text,
                           text_lang=text_lang, **context)

    def render(self, request: Request, name: str, lang: str, status: int = 200,
               **context) -> HTMLResponse:
        sid, session = self.session_of(request)
        template = self.templates.get_template(name)
        gettext = template_callables(translations(lang))
        # the language links open this page again: an answer to a POST that has a
        # page to go back to links there (its own address takes no GET: 405)
        path = request.url.path
        if request.method == "POST" and context.get("back"):
            path = context["back"].split("#")[0]
        # a page whose address says more than its path (the login's ``next``) gives
        # its own language_link(code)
        context.setdefault("language_link", lambda code: f"{path}?lang={code}")
        html = template.render(lang=lang, csrf=session["csrf"], languages=LANGUAGES,
                               number=self.number_format(lang).format,
                               organizer=session["organizer"], **gettext, **context)
        response = HTMLResponse(html, status_code=status)
        self.set_cookies(request, response, sid, lang)
        return response

    @staticmethod
    @functools.cache
    def number_format(lang: str) -> NumberFormat:
        """Numbers in ``lang``'s symbols, as the published pages write them."""
        return NumberFormat(locale_of(lang))

    def set_cookies(self, request: Request, response: Response, sid: str, lang: str) -> None:
        secure = self.config.secure_cookies
        if request.cookies.get(SESSION_COOKIE) != sid:
            response.set_cookie(SESSION_COOKIE, sid, httponly=True, samesite="strict",
                                secure=secure, path="/")
        if request.query_params.get("lang") in LANGUAGES:
            # lax: a language is no secret, and a table link opened from a QR code
            # (a navigation from outside the site) keeps it
            response.set_cookie("lang", lang, samesite="lax", secure=secure, path="/",
                                max_age=365 * 86400)

    @staticmethod
    def client(request: Request) -> str:
        return request.client.host if request.client else "?"

    async def refused(self, limit: FailureLimit, request: Request) -> Response | None:
        """A wrong credential (link, code, login, token): counted against the client's
        address, answered after ``failure_delay``; a 429 once the address is over
        ``limit``. A right credential is never refused: the limit is checked only
        here, after a credential has been found wrong (a phone at a table shares its
        address with every guesser on the venue's Wi-Fi)."""
        wait = await run_in_threadpool(limit.fail, self.client(request))
        if self.config.failure_delay:
            await asyncio.sleep(self.config.failure_delay)
        if not wait:
            return None
        return self.refusal(request, "too-many-attempts", headers={"Retry-After": str(wait)})

    def refusal(self, request: Request, code: str, params: dict | None = None,
                headers: dict | None = None, back: str | None = None,
                **extra) -> Response:
        """A refusal of :data:`.messages.REFUSALS` in the requester's language: a
        page of the site (message.html: what went wrong, what to do, a link back)
        for a browser, ``{"code", "message"}`` for an API client (:func:`is_api`),
        with ``extra`` keys; its status and ``headers`` (``Retry-After``) either
        way. ``back``: the page to go back to, when not the form's own."""
        if is_api(request):
            return self.json_refusal(request, code, params, headers, **extra)
        status = REFUSALS[code].status
        lang = self.language(request)
        text, remedy = refusal_text(code, lang, params)
        response = self.render(request, "message.html", lang, status, text=text,
                               remedy=remedy,
                               back=back or (back_to(request.url.path)
                                             if REFUSALS[code].back else None))
        response.headers.update(headers or {})
        return response

    def json_refusal(self, request: Request, code: str, params: dict | None = None,
                     headers: dict | None = None, **extra) -> JSONResponse:
        """A refusal of the JSON API (:func:`api_answer`), in the language the
        request asks for (``Accept-Language``; English by default)."""
        text, remedy = refusal_text(code, self.language(request), params)
        return api_answer(code, text, remedy, REFUSALS[code].status, headers, **extra)

    def bearer(self, request: Request) -> str | None:
        """The organizer's token as an ``Authorization: Bearer`` header gives it."""
        auth = request.headers.get("authorization", "")
        return auth[7:].strip() if auth.lower().startswith("bearer ") else None

    def is_organizer(self, request: Request) -> bool:
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return secret_ok(self.config.secret, auth[7:].strip())
        _, session = self.session_of(request)
        return session["organizer"]

    async def form(self, request: Request) -> dict[str, str] | Response:
        """The posted form (URL-encoded), size-limited; a Response when refused."""
        body = await read_body(request)
        if isinstance(body, Response):
            return body
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return self.refusal(request, "form-not-utf8")
        try:
            return dict(parse_qsl(text, keep_blank_values=True, max_num_fields=MAX_FORM_FIELDS))
        except ValueError:  # more fields than any page of this server posts
            return self.refusal(request, "too-many-fields", {"limit": MAX_FORM_FIELDS})

    async def checked_form(self, request: Request) -> dict[str, str] | Response:
        """The posted form once its CSRF token is checked; a Response when refused."""
        form = await self.form(request)
        if isinstance(form, Response):
            return form
        return self.csrf_checked(request, form) or form

    def csrf_checked(self, request: Request, form: dict) -> Response | None:
        if request.headers.get("authorization", "").lower().startswith("bearer "):
            return None  # no cookie involved: nothing a foreign page could forge
        _, session = self.session_of(request)
        if csrf_ok(session, form.get("csrf")):
            return None
        return self.refusal(request, "form-expired")


async def read_body(request: Request) -> bytes | Response:
    """The request's body, at most ``MAX_BODY_BYTES``; a Response when refused:
    413 too large, 408 when it stops arriving for ``body_timeout`` seconds, 400
    when the client went away (logged as nothing: a phone leaving is no error)."""
    server: Server = request.app.state.server
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return server.refusal(request, "too-large")
    timeout = server.config.body_timeout
    chunks, size = [], 0
    stream = request.stream().__aiter__()
    while True:
        try:
            chunk = await asyncio.wait_for(stream.__anext__(), timeout)
        except StopAsyncIteration:
            break
        except asyncio.TimeoutError:
            return server.refusal(request, "body-timeout", headers={"Connection": "close"})
        except ClientDisconnect:
            return Response("", status_code=400)  # nobody is there to read it
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return server.refusal(request, "too-large")
        chunks.append(chunk)
    return b"".join(chunks)


def wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


def is_api(request: Request) -> bool:
    """A request of a program, answered in JSON: it asks for JSON, goes to a JSON
    path (``/api/...``) or sends a table's record as CSV."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return (wants_json(request) or request.url.path.startswith("/api/")
            or content_type == "text/csv")


def api_answer(code: str, text: str, todo: str | None, status: int,
               headers: dict | None = None, **extra) -> JSONResponse:
    """A refusal as the JSON API says it: its stable ``code`` and ``message``, its
    words and what to do (``todo``) in the requester's language (``error``: the
    same, the key the organizer's actions answered with before)."""
    message = f"{text} {todo}" if todo else text
    return JSONResponse({"code": code, "message": message, "error": message, **extra},
                        status_code=status, headers=headers)


def verdict_json(verdict: submissions.Verdict, renderer: Renderer) -> dict:
    """A table's verdict as the JSON API answers it: its ``message`` and each error's
    ``message`` in the language of ``renderer`` (the requester's), the rest as the
    library gives it (``outcome``, each error's ``rule``: the stable codes)."""
    answer = verdict.to_json()
    if verdict.message_words is not None:
        answer["message"] = translations(renderer.lang).gettext(verdict.message_words)
    for err, shown in zip(verdict.errors, answer["errors"]):
        shown["message"] = error_text(err, renderer)[0]
    return answer


def local_path(target: str | None) -> str | None:
    """``target`` when it is a path of this server (``/org/club?lang=sv``), else None:
    where a login goes back to (``next``) never leads off this server (``//evil``,
    ``https://evil``, ``/\\evil``: a browser reads a backslash as a slash)."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target or any(ord(c) < 32 or ord(c) == 127 for c in target):
        return None
    parts = urlsplit(target)
    return None if parts.scheme or parts.netloc else target


def login_address(next_path: str | None, lang: str | None) -> str:
    """The login page that goes back to ``next_path`` (when there is one) once logged
    in, in ``lang`` (the language the page asked for was read in) when one was asked."""
    query = {**({"next": next_path} if next_path else {}),
             **({"lang": lang} if lang in LANGUAGES else {})}
    return "/login" + (f"?{urlencode(query)}" if query else "")


def in_language(address: str, lang: str) -> str:
    """``address`` (a path of this server with its query) with its ``lang`` set to
    ``lang``: the page asked for, opened in the language chosen since."""
    parts = urlsplit(address)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "lang"]
    return parts._replace(query=urlencode([*query, ("lang", lang)])).geturl()


def back_to(path: str) -> str:
    """The page to go back to from a refused request to ``path``: the page the form
    was on (an organizer's action goes back to the event's page, a check-in to the
    player's page, a logout home); only ever a path of this server."""
    if not path.startswith("/") or path.startswith("//"):
        return "/"
    parts = path.split("/")
    if len(parts) == 4 and parts[1] in ("org", "p"):
        return "/".join(parts[:3])
    return "/" if path == "/logout" else path


# ---------------------------------------------------------------- table pages

@dataclass
class TableView:
    link: TableLink
    event: Event
    players: list[str]
    rows: list  # score-sheet template rows (DealRecord)
    open: bool
    state: str
    errors: list[RecordError]
    note: str | None
    # a different result sent through the link waits for the organizer
    conflict: bool = False
    # ... one that does not pass the checks (kept beside the stored result)
    invalid_conflict: bool = False
    # the phone keyboard of the score boxes: "decimal" has no minus sign on iOS, so
    # "text" where the game (with the event's house rules) can score below 0
    score_inputmode: str = "text"
    ends_at: RoundEnd | None = None  # the round's clock: when it ends
    # the table's stored result, when it has one
    stored: submissions.TableResult | None = None


def venue_clock(moment: dt.datetime) -> str:
    """A moment as people at the venue read a clock: 15:45, the server's local time
    (the ``venue_clock`` filter of the pages)."""
    return moment.astimezone().strftime("%H:%M")


@dataclass(frozen=True)
class RoundEnd:
    """When a round's clock ends: ``time`` as people at the venue read a clock (15:45,
    the server's local time) and the seconds left when the page was made (negative:
    past it), from which a page counts down without trusting the phone's clock."""

    time: str
    seconds_left: int

    @property
    def minutes_left(self) -> int:
        """Whole minutes left, rounded up (30 s left is "1 min left"); 0 once past."""
        return max(0, -(-self.seconds_left // 60))


def round_ends_at(session, event: Event, number: int) -> RoundEnd | None:
    """When round ``number``'s clock ends (``tourney round start``); None without a
    clock."""
    from tourney.times import aware
    from tourney.tournament.seat_changes import round_clock

    try:
        clock = round_clock(session, event, number)
    except TourneyError:
        return None
    if clock.ends_at is None:
        return None
    return RoundEnd(venue_clock(aware(clock.ends_at)), clock.seconds_left())


def score_inputmode(event: Event) -> str:
    settings = event_settings(event)
    return "text" if settings.game.negative_scores(settings.options) else "decimal"


def table_view(session, link: TableLink) -> TableView:
    event = session.get(Event, link.event_id)
    rows = [r for r in score_sheet_rows(session, event, link.round_number)
            if r.table == link.table]
    last = table_links.latest_submission(session, link, table_links.STATE_ROWS)
    errors = submissions.stored_errors(last) if last and last.state == table_links.INVALID else []
    note = last.note if last and last.state == table_links.REJECTED else None
    conflicts = table_links.open_conflicts(session, link)
    invalid = [bool(submissions.stored_errors(c)) for c in conflicts]
    return TableView(link, event, rows[0].players if rows else [], rows,
                     table_links.link_open(session, link), table_links.table_state(session, link),
                     errors, note, not all(invalid), any(invalid), score_inputmode(event),
                     round_ends_at(session, event, link.round_number),
                     submissions.table_result(session, link))


# Seats a score sheet form names at most (a bound on what a form is read for).
MAX_FORM_SEATS = 16


def seats_as_shown(form: dict) -> list[str] | None:
    """The players the page showed above the score boxes, in their order (the
    form's ``seat-0``, ``seat-1``, ...); None for a form without them (a bare
    client posting boxes, a pasted record: those name their players themselves)."""
    names = []
    for seat in range(MAX_FORM_SEATS):
        name = form.get(f"seat-{seat}")
        if name is None:
            break
        names.append(name)
    return names or None


@dataclass(frozen=True)
class SeatingChanged:
    """A sheet typed under a seating that changed before it was sent (the arbiter
    swapped, moved or replaced a player meanwhile): its boxes are put under the
    players they were typed for, where they still sit at the table, and nothing is
    sent, so no score is stored under another player's name."""

    left: list[str]  # typed for, no longer at the table
    came: list[str]  # at the table now, with empty boxes
    values: dict  # the form with each box under its player's current seat


def seating_changed(form: dict, players: list[str]) -> SeatingChanged | None:
    """None when the form was typed under the table's current seating."""
    shown = seats_as_shown(form)
    if shown is None or shown == players:
        return None
    values = {key: value for key, value in form.items() if not key.startswith("score-")}
    for seat, name in enumerate(players):
        if name not in shown:
            continue
        was = shown.index(name)
        for key, value in form.items():
            deal, _, column = key[len("score-"):].rpartition("-")
            if key.startswith("score-") and column == str(was):
                values[f"score-{deal}-{seat}"] = value
    return SeatingChanged([n for n in shown if n not in players],
                          [n for n in players if n not in shown], values)


def typed_scores(row, form: dict) -> list[str]:
    """What was typed in the score boxes of one row of the grid, in seat order."""
    return [form.get(f"score-{row.deal}-{seat}", "").strip()[:40]
            for seat in range(len(row.players))]


def sheet_content(rows: list, form: dict) -> str:
    """The record CSV of the score sheet as filled in the form."""
    out = []
    for row in rows:
        scores = typed_scores(row, form)
        if any(scores):
            row.scores = scores
            if row.dealer is None:
                chosen = normalize_name(form.get(f"dealer-{row.deal}", ""))
                row.dealer = chosen if chosen in row.players else None
        out.append(row)
    buffer = io.StringIO()
    write_records(buffer, out)
    return buffer.getvalue()


# Rules an engine checks one seat's score by, whatever the other seats have.
ONE_SEAT_RULES = ("score-sheet-value", "score-sheet-range")


def sheet_cell_errors(event: Event, rows: list, form: dict) -> list[RecordError]:
    """Every score box at fault in the deals filled in, each its own error: empty,
    not one number (a ';' in a box is not a second seat: the grid has a box per
    seat), or a score no seat can have in this game (asked of the engine with
    every seat at that score: its one-seat checks come first)."""
    settings = event_settings(event)
    game, options = settings.game, settings.options
    errors = []
    for index, row in enumerate(rows):
        cells = typed_scores(row, form)
        if not any(cells):
            continue
        where = {"line": index + 2, "column": "scores"}
        for seat, text in enumerate(cells):
            at = dict(where, seat=seat, player=row.players[seat])
            if not text:
                errors.append(RecordError(Message(N_("the score is missing")), rule="score-missing",
                                          **at))
                continue
            try:
                if ";" in text:
                    raise ValueError(text)
                value = game.parse_score(text)
                if isinstance(value, float) and not math.isfinite(value):
                    raise ValueError(text)
            except (ValueError, TypeError, ArithmeticError):
                errors.append(RecordError(not_a_score(text), rule="score-cell", **at))
                continue
            setup = DealSetup(nplayers=len(cells), dealer=None, deal_number=row.deal)
            try:
                game.check_score_sheet(setup, [value] * len(cells), options)
            except IllegalMove as err:
                if err.rule in ONE_SEAT_RULES:
                    errors.append(RecordError(err.words or err.message, rule=err.rule, **at))
            except Exception:  # noqa: BLE001 - the full check below says the rest
                pass
    return errors


def form_errors(event: Event, rows: list, form: dict,
                engine_errors: list[RecordError]) -> list[RecordError]:
    """The errors to show for a score sheet sent from the grid: every box at fault,
    and the engine's errors of the deals (and match) with none."""
    cells = sheet_cell_errors(event, rows, form)
    if not cells:
        return engine_errors
    lines = {err.line for err in cells}
    rest = [err for err in engine_errors if err.line is None or err.line not in lines]
    return sorted(cells + rest, key=lambda e: (e.line if e.line is not None else 1 << 30,
                                               -1 if e.seat is None else e.seat))


def typed_boxes(rows: list, form: dict) -> dict[int, list[tuple[str, str]]]:
    """Each deal filled in on the grid: its players and what was typed in their
    boxes, in seat order (the errors say what was entered)."""
    out = {}
    for row in rows:
        cells = typed_scores(row, form)
        if any(cells):
            out[row.deal] = list(zip(row.players, cells))
    return out


def line_deals(rows: list) -> dict[int, int]:
    """Line of the generated CSV -> deal number (the header is line 1)."""
    return {index + 2: row.deal for index, row in enumerate(rows)}


async def _table_view_or_refusal(request: Request):
    """The table's view for the link in the path, or the answer to a link that
    names no table (a wrong one counts against the link rate limit)."""
    server: Server = request.app.state.server
    token = request.path_params["token"]

    def load(session):
        link = table_links.link_by_token(session, token)
        return None if link is None else table_view(session, link)

    try:
        view = await run_in_threadpool(_read, server.config.engine, load)
    except TourneyError as err:
        # the event's stored rules refused by its engine (a database edited by hand,
        # a rule an older tourney took): the table can do nothing until the organizer
        # mends them, and is told why in its language
        def event_lang(session):
            link = table_links.link_by_token(session, token)
            return session.get(Event, link.event_id).lang

        lang = await run_in_threadpool(_read, server.config.engine, event_lang)
        return server.error_page(request, server.language(request, lang), 409, err)
    if view is None:
        return (await server.refused(server.link_limit, request)
                or server.render(request, "unknown_link.html", server.language(request), 404))
    return view


def not_stored(handler):
    """``handler`` with its every answer marked ``Cache-Control: no-store``: a table's
    page and what a send answers are never kept by the browser, so going back after a
    stored result asks again and shows what is stored, not the form and its error
    inviting a second send."""
    @functools.wraps(handler)
    async def answer(request: Request) -> Response:
        response = await handler(request)
        response.headers["Cache-Control"] = "no-store"
        return response
    return answer


@not_stored
async def table_page(request: Request) -> Response:
    server: Server = request.app.state.server
    view = await _table_view_or_refusal(request)
    if isinstance(view, Response):
        return view
    lang = server.language(request, view.event.lang)
    lines = line_deals(view.rows)
    shown = error_lines(view.errors, server.site_renderer(lang), lines)
    return server.render(request, "table.html", lang, view=view, values={},
                         message=None, lines=lines, error_lines=shown,
                         bad_fields=bad_fields(shown))


async def table_result_page(request: Request) -> Response:
    """What a table has stored (``/t/<token>/result``): the scores, totals and
    places, the version and when it was stored; the table comes back to it from
    its page."""
    server: Server = request.app.state.server
    view = await _table_view_or_refusal(request)
    if isinstance(view, Response):
        return view
    response = server.render(request, "table_result.html",
                             server.language(request, view.event.lang), view=view)
    response.headers["Cache-Control"] = "no-store"
    return response


def _read(engine: Engine, work):
    with reading(engine) as session:
        return work(session)


# what a browser's form posts (none: a bare client, checked as a form)
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data", "")


@not_stored
async def table_post(request: Request) -> Response:
    server: Server = request.app.state.server
    token = request.path_params["token"]
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    api = content_type == "text/csv"
    if not api and content_type not in FORM_TYPES:
        # a score app's mistake (JSON, a file's own type): said as the API says
        # things, not as the expired form a browser would have sent
        return server.json_refusal(request, "unsupported-type", outcome="unsupported-type",
                                   stored=False, valid=False, errors=[])
    if api:
        body = await read_body(request)
        if isinstance(body, Response):
            return body
        try:
            csv_text = body.decode("utf-8")
        except UnicodeDecodeError as bad:
            err = RecordError(Message(N_("not UTF-8 text (byte %(byte)s)"),
                                      {"byte": bad.start + 1}), rule="encoding")
            said = error_text(err, server.site_renderer(server.language(request)))[0]
            return JSONResponse({"outcome": "invalid", "stored": False, "valid": False,
                                 "errors": [submissions.error_json(err) | {"message": said}]},
                                status_code=422)
        form = {}
    else:
        form = await server.checked_form(request)
        if isinstance(form, Response):
            return form

    def work(session):
        link = table_links.link_by_token(session, token, lock=True)  # as submit needs it
        if link is None:
            return None, None
        if api:
            content = csv_text
        elif form.get("record", "").strip():
            content = form["record"].strip() + "\n"
        else:
            view = table_view(session, link)
            changed = seating_changed(form, view.players)
            if changed is not None:
                return changed, view
            content = sheet_content(view.rows, form)
        verdict = submissions.submit(session, link, content,
                                     auto_accept=server.config.auto_accept, locked=True)
        return verdict, None if api else table_view(session, link)

    try:
        verdict, view = await server.results.run(work, token)
    except (DatabaseBusy, ConflictingChange):
        if not api:
            return server.refusal(request, "busy", headers={"Retry-After": "2"})
        return server.json_refusal(request, "busy", headers={"Retry-After": "2"},
                                   outcome="busy", stored=False, valid=False, errors=[])
    if verdict is None:
        limited = await server.refused(server.link_limit, request)
        if limited:
            return limited
        if api:
            return server.json_refusal(request, "unknown-link", outcome="unknown-link",
                                       stored=False, valid=False, errors=[])
        return server.render(request, "unknown_link.html", server.language(request), 404)
    if api:
        return JSONResponse(verdict_json(verdict, server.site_renderer(server.language(request))),
                            status_code=verdict.status_code)
    lang = server.language(request, view.event.lang)
    if isinstance(verdict, SeatingChanged):
        return server.render(request, "table.html", lang, 409, view=view,
                             values=verdict.values, message="seating-changed",
                             changed=verdict, lines=line_deals(view.rows), error_lines=[],
                             bad_fields=set())
    pasted = bool(form.get("record", "").strip())
    lines = {} if pasted else line_deals(view.rows)
    values = form if verdict.outcome in (submissions.INVALID, submissions.CONFLICT) else {}
    errors = verdict.errors
    if not pasted and verdict.outcome == submissions.INVALID:
        errors = await run_in_threadpool(form_errors, view.event, view.rows, form, errors)
    shown = error_lines(errors, server.site_renderer(lang), lines, None if pasted else typed_boxes(view.rows, form),
                        pasted=pasted)
    # an invalid result kept beside the stored one is told apart: nothing to correct
    message = "invalid-kept" if verdict.beside else verdict.outcome
    return server.render(request, "table.html", lang, verdict.status_code, view=view,
                         values=values, message=message, lines=lines,
                         error_lines=shown, bad_fields=bad_fields(shown))


def secret_form(template: str, limit: str, refused: int, accept,
                context=lambda server, request, form: {}):
    """The GET and POST handlers of a page that asks for one secret (a table code,
    the organizer token). ``accept(server, request, form)`` answers a right one, or
    gives None for a wrong one, which counts against the server's rate limit named
    ``limit`` and gets the page again with its error, status ``refused``;
    ``context(server, request, form)``: the page's own template variables (``form``:
    None on the GET)."""
    async def page(request: Request) -> Response:
        server: Server = request.app.state.server
        return server.render(request, template, server.language(request), error=False,
                             **context(server, request, None))

    async def post(request: Request) -> Response:
        server: Server = request.app.state.server
        form = await server.checked_form(request)
        if isinstance(form, Response):
            return form
        answer = await accept(server, request, form)
        if answer is None:
            return (await server.refused(getattr(server, limit), request)
                    or server.render(request, template, server.language(request), refused,
                                     error=True, **context(server, request, form)))
        return answer

    return page, post


async def _open_table(server: Server, request: Request, form) -> Response | None:
    link = await run_in_threadpool(
        _read, server.config.engine, lambda s: table_links.link_by_code(s, form.get("code", "")))
    if link is None:
        return None
    # the language the code page was read in goes on to the table's page (and is
    # kept from there in the cookie), or else the table would switch to the
    # event's language
    lang = form.get("lang")
    query = f"?lang={lang}" if lang in LANGUAGES else ""
    return RedirectResponse(f"/t/{link.token}{query}", status_code=303)


code_page, code_post = secret_form("code.html", "link_limit", 404, _open_table)


# ---------------------------------------------------------------- standings

def standings_data(session, slug: str) -> dict:
    event = get_event(session, slug)
    rows = standings_table(session, event)
    # points stay raw numbers; points_decimals is how many decimals the column is
    # shown with, alike in every row and enough to show what decided a place
    # (tourney.tournament.standings.standing_decimals)
    return {"event": event.slug, "name": event.name,
            "standings": [row.to_json() for row in rows],
            "points_decimals": standing_decimals(rows)["points"]}


async def standings_json(request: Request) -> Response:
    server: Server = request.app.state.server
    try:
        data = await run_in_threadpool(_read, server.config.engine,
                                       lambda s: standings_data(s, request.path_params["slug"]))
    except TourneyError:
        return server.json_refusal(request, "unknown-event")
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


async def _unknown_event(request: Request, prefix: str) -> Response:
    """The page of an address naming no event (``prefix`` + slug, mistyped from a
    poster or a screen): the events named like it, as /org/<slug> suggests them."""
    server: Server = request.app.state.server
    close = close_names(request.path_params["slug"], [e.slug for e in await run_in_threadpool(
        _read, server.config.engine, _events)])
    return server.render(request, "unknown_link.html", server.language(request), 404,
                         suggest=[f"{prefix}{name}" for name in close])


async def standings_page(request: Request) -> Response:
    server: Server = request.app.state.server
    slug = request.path_params["slug"]

    def load(session):
        event = get_event(session, slug)
        progress = round_progress(session, event)
        ends = round_ends_at(session, event, progress[0]) if progress else None
        return event, standings_table(session, event), progress, ends, event_tiebreaks(event)

    try:
        event, rows, progress, ends_at, tiebreaks = await run_in_threadpool(
            _read, server.config.engine, load)
    except TourneyError:
        return await _unknown_event(request, "/standings/")
    lang = server.language(request, event.lang)
    return server.render(request, "standings.html", lang, event=event, rows=rows,
                         progress=progress, poll=server.config.poll_seconds, ends_at=ends_at,
                         tiebreaks=tiebreaks, deciding=deciding_tiebreaks(rows, tiebreaks),
                         names=server.site_renderer(lang).names)


def deciding_tiebreaks(rows: list, tiebreaks: list[str]) -> list[str]:
    """The tie-breaks (of ``tiebreaks``, in their order) that separate a player from
    the one above on equal points: the columns the live standings show."""
    used = {row.decided_by for row in rows}
    return [tb for tb in tiebreaks if tb in used]


def round_progress(session, event: Event) -> tuple[int, int, int] | None:
    """The latest seated round while its results are not all in: (round, tables
    with a result, tables)."""
    number = last_seated_round(session, event)
    if not number:
        return None
    tables, _ = seated_keys(session, get_round(session, event, number))
    done = len(results_by_round(session, event).get(number, set()) & set(tables))
    return None if done == len(tables) else (number, done, len(tables))


async def index(request: Request) -> Response:
    server: Server = request.app.state.server
    events = await run_in_threadpool(_read, server.config.engine, _events)
    return server.render(request, "index.html", server.language(request), events=events)


def _events(session) -> list[Event]:
    from sqlmodel import select

    return list(session.exec(select(Event).order_by(Event.created_at.desc(), Event.slug)))


# ---------------------------------------------------------------- organizer

async def _log_in(server: Server, request: Request, form) -> Response | None:
    if not secret_ok(server.config.secret, form.get("token", "").strip()):
        return None
    # A new session id on login (no fixation), organizer from now on.
    old_sid, _ = server.session_of(request)
    server.sessions.drop(old_sid)
    sid, _ = server.sessions.start()
    response = RedirectResponse(local_path(form.get("next")) or "/org", status_code=303)
    response.set_cookie(SESSION_COOKIE, sid, httponly=True, samesite="strict",
                        secure=server.config.secure_cookies, path="/")
    return response


def _login_context(server: Server, request: Request, form: dict | None) -> dict:
    """The login page's variables: what it asks for, and the page it goes back to
    (``next``, only ever a path of this server)."""
    asked = request.query_params.get("next") if form is None else form.get("next")
    next_path = local_path(asked)
    # the language links keep the page asked for, to be opened in the language chosen
    return {"password": server.config.password, "next": next_path,
            "language_link": lambda code: login_address(
                next_path and in_language(next_path, code), code)}


login_page, login_post = secret_form("login.html", "login_limit", 403, _log_in, _login_context)


async def logout_post(request: Request) -> Response:
    server: Server = request.app.state.server
    form = await server.checked_form(request)
    if isinstance(form, Response):
        return form
    sid, _ = server.session_of(request)
    server.sessions.drop(sid)
    return RedirectResponse("/", status_code=303)


def organizer_only(handler):
    async def guarded(request: Request) -> Response:
        server: Server = request.app.state.server
        token = server.bearer(request)
        if token is not None and not secret_ok(server.config.secret, token):
            # a wrong token is a wrong login: slowed and limited alike
            limited = await server.refused(server.login_limit, request)
            return limited or server.json_refusal(request, "wrong-token")
        if not server.is_organizer(request):
            if is_api(request):
                return server.json_refusal(request, "log-in-first")
            if request.method != "GET":
                # a form of a login since lost (a logout in another tab, a restart):
                # the login page, in the language of the page the form was on, which
                # goes back there; nothing was done
                slug = request.path_params.get("slug")
                lang = server.language(request, slug and await run_in_threadpool(
                    _event_lang, server, slug))
                text, _ = refusal_text("log-in-first", lang)
                page = back_to(request.url.path)  # its language links lead there too
                return server.render(request, "login.html", lang,
                                     REFUSALS["log-in-first"].status, error=False,
                                     notice=text, password=server.config.password,
                                     next=page, back=page)
            # the login goes back to the page asked for, in the language asked for
            path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
            return RedirectResponse(login_address(path, request.query_params.get("lang")),
                                    status_code=303)
        return await handler(request)
    return guarded


async def org_index(request: Request) -> Response:
    server: Server = request.app.state.server
    events = await run_in_threadpool(_read, server.config.engine, _events)
    if wants_json(request):
        return JSONResponse([{"event": e.slug, "name": e.name} for e in events])
    return server.render(request, "org_index.html", server.language(request), events=events)


@dataclass
class RoundView:
    event: Event
    number: int
    tables: list
    open: bool
    # each table as the organizer reviews it (what it sent, its conflicts)
    reviews: list = field(default_factory=list)
    # the earlier rounds' conflicts not yet settled, newest round first
    earlier: list = field(default_factory=list)


def round_open(tables: list, number: int, last: int) -> bool:
    """Whether round ``number`` (its tables' states) takes results: the latest seated
    (``last``), not closed by the organizer."""
    return bool(tables) and number == last and all(t.link.closed_at is None for t in tables)


def round_view(session, slug: str, number: int | None = None) -> RoundView:
    event = get_event(session, slug)
    last = last_seated_round(session, event)
    number = number or last
    if not number:
        return RoundView(event, 0, [], False)
    tables = table_links.table_states(session, event, number)
    return RoundView(event, number, tables, round_open(tables, number, last),
                     submissions.review_tables(session, event, tables),
                     submissions.earlier_conflicts(session, event, number))


def round_json(view: RoundView, base: str, shown: RoundShown | None) -> dict:
    """The organizer's page as JSON: the round's tables as the page reviews them,
    the earlier rounds' conflicts, and (once a round is seated) what `tourney round
    show --json` says of the round beside them (byes, players left out, forfeits
    with their reasons, the clock: one use case for both)."""
    said = {} if shown is None else {key: value for key, value in shown.to_json().items()
                                     if key not in ("round", "tables")}
    return {"event": view.event.slug, "round": view.number, "open": view.open, **said,
            "tables": [{"table": t.table, "players": t.players, "state": t.state,
                        "code": table_links.display_code(t.link.code),
                        "url": f"{base}/t/{t.link.token}",
                        "submission": t.submission.id if t.submission else None,
                        "errors": t.errors, **review.to_json()}
                       for t, review in zip(view.tables, view.reviews)],
            # conflicts still to settle of the rounds before, newest round first
            "earlier": [{"round": past.number,
                         "tables": [{"table": r.state.table, "players": r.state.players,
                                     "state": r.state.state,
                                     "conflicts": r.to_json()["conflicts"]}
                                    for r in past.reviews]}
                        for past in view.earlier]}


def round_states(session, event: Event, number: int, tables: list | None = None) -> dict:
    """What the organizer's page follows of round ``number`` (its script asks for it
    every few seconds, ``/org/<slug>/live``): each table's state, how many tables
    have their result, and ``state``, a short fingerprint of everything the page's
    tables and reviews show (a table's state, its submission, its conflicts, the
    round's clock, which marks a result late): the page fetches itself again only
    when it changed. Read only; ``tables``: the round's states when the caller has
    them (the page renders with the same)."""
    import hashlib
    import json

    if not number:
        return {"round": 0, "open": False, "latest": last_seated_round(session, event),
                "tables": [], "results_in": 0, "state": ""}
    if tables is None:
        tables = table_links.table_states(session, event, number)
    last = last_seated_round(session, event)
    is_open = round_open(tables, number, last)
    row = get_round(session, event, number)
    shown = [{"table": t.table, "state": t.state,
              "submission": t.submission.id if t.submission else None,
              "conflicts": [c.id for c in t.conflicts]} for t in tables]
    said = json.dumps([number, last, is_open, shown, str(row.ends_at)], sort_keys=True)
    done = sum(t.state in (table_links.ACCEPTED, table_links.FORFEITED) for t in tables)
    return {"round": number, "open": is_open, "latest": last,
            "tables": [{key: t[key] for key in ("table", "state")} | {
                "conflict": bool(t["conflicts"])} for t in shown],
            "results_in": done,
            "state": hashlib.sha256(said.encode()).hexdigest()[:16]}


async def org_live(request: Request) -> Response:
    """``/org/<slug>/live``: the round the organizer's page shows, as
    :func:`round_states` follows it (``?round=N``: that round; the latest by
    default). A small read, never a write: asked every few seconds by every open
    organizer's page."""
    server: Server = request.app.state.server
    slug = request.path_params["slug"]
    asked = request.query_params.get("round", "")

    def load(session):
        try:
            event = get_event(session, slug)
        except TourneyError:
            return None  # no such event: the round is not what was wrong
        number = whole_number(asked) if asked else last_seated_round(session, event)
        return round_states(session, event, number)

    try:
        data = await run_in_threadpool(_read, server.config.engine, load)
    except TourneyError:  # the event has no such round (or ?round= is no number)
        return server.json_refusal(request, "unknown-round", {"round": asked[:20]})
    if data is None:
        return server.json_refusal(request, "unknown-event")
    return JSONResponse({"event": slug, **data}, headers={"Cache-Control": "no-store"})


def base_url(request: Request) -> str:
    """Where phones reach the server: the configured address (``tourney serve`` always
    gives one: --base-url, else the address it prints), never the request's Host
    header, which anyone can set (a link or QR code pointing elsewhere)."""
    configured = request.app.state.server.config.base_url
    return configured.rstrip("/") if configured else str(request.base_url).rstrip("/")


async def org_event(request: Request) -> Response:
    server: Server = request.app.state.server
    slug = request.path_params["slug"]
    try:
        # a writing transaction: the round's links are made on first view
        view = await run_in_threadpool(server.in_transaction,
                                       lambda s: round_view(s, slug))
    except TourneyError as err:
        if wants_json(request):
            return server.json_refusal(request, "unknown-event")
        return server.error_page(request, server.language(request), 404, err)
    # what the page says of the round is what `round show` says (one use case), read
    # outside the writing transaction (the tables' results wait for none of it)
    shown = await run_in_threadpool(
        _read, server.config.engine,
        lambda s: show_round(s, get_event(s, slug), view.number) if view.number else None)
    if wants_json(request):
        return JSONResponse(round_json(view, base_url(request), shown))
    # what the page's script follows (its poll asks whether it changed)
    live = await run_in_threadpool(
        _read, server.config.engine,
        lambda s: round_states(s, view.event, view.number, view.tables))
    flash = request.query_params.get("done")
    lang = server.language(request, view.event.lang)
    # what is wrong with each invalid result, said as the table was told
    errors = {review.state.table: error_lines(review.sent.errors, server.site_renderer(lang), review.sent.lines)
              for review in view.reviews if review.sent and review.sent.errors}
    # and of each result kept beside the table's own that does not pass
    conflict_errors = {c.submission.id: error_lines(c.sent.errors, server.site_renderer(lang),
                                                    c.sent.lines)
                       for reviews in [view.reviews] + [past.reviews for past in view.earlier]
                       for review in reviews for c in review.conflicts if c.invalid}

    def read_more(s):
        from tourney.app.results import adjustments
        from tourney.app.rounds import absences

        event = get_event(s, slug)
        return (organizer_evening(s, event), adjustments(s, event),
                absences(s, event, max(view.number, 1)),
                round_ends_at(s, event, view.number) if view.open else None,
                seating_warnings(s, event, view.number) if view.number else [])

    evening, adjusted, absent, ends_at, warnings = await run_in_threadpool(
        _read, server.config.engine, read_more)
    forfeits = {f.table: f for f in shown.forfeits} if shown else {}
    seating = shown.seating if shown else None
    reseat = request.query_params.get("reseat", "")
    # players marked absent from the round on the page while it is still seated with
    # them: the offer to seat it again stays until it is taken (not only after the
    # marking, which a reload or another tab loses)
    seated = {name for table in view.tables for name in table.players}
    results_in = any(table.state != table_links.WAITING for table in view.tables)
    still_seated = [] if results_in or not view.open else [
        name for number, name in absent if number == view.number and name in seated]
    # players seated in the round who have since withdrawn: what `round show` warns
    # about, said in the page's language with the remedy the page offers
    note = withdrawn_note(seating, slug) if seating is not None else None
    withdrawn = None if note is None else {
        "text": server.site_renderer(lang).message(note.words), "remedy": note.remedy,
        "sentence": remedy_sentence(note.remedy, lang)}
    return server.render(request, "org_event.html", lang, view=view, flash=flash,
                         still_seated=still_seated, withdrawn=withdrawn,
                         error_lines=errors, conflict_errors=conflict_errors,
                         site_dir=server.config.site_dir, evening=evening, adjusted=adjusted,
                         again=request.query_params.get("again"), absences=absent,
                         ends_at=ends_at, reseat=int(reseat) if reseat.isdigit() else None,
                         warnings=warnings, forfeits=forfeits, seating=seating,
                         live=live, poll=server.config.poll_seconds,
                         live_site=live_site_state(server, lang))


def live_site_state(server: Server, lang: str) -> dict | None:
    """What the organizer's page says of the live site (None: not live): the last
    publish's time (the venue's clock) and files changed or its error, in ``lang``;
    whether one is under way."""
    publisher = server.live_site
    if publisher is None:
        return None
    last = publisher.last
    return {"running": publisher.running,
            "time": venue_clock(last.at) if last else None,
            "changed": last.changed_files if last else None,
            "error": error_text(last.error, server.site_renderer(lang))[0]
            if last and last.error else None}


async def org_links(request: Request) -> Response:
    """The round's table links as a page to print: QR code and short code per table."""
    import segno

    server: Server = request.app.state.server
    slug, number = request.path_params["slug"], request.path_params["number"]
    try:
        number = whole_number(str(number))
        view = await run_in_threadpool(server.in_transaction,
                                       lambda s: round_view(s, slug, number))
    except TourneyError as err:
        return server.error_page(request, server.language(request), 404, err)
    base = base_url(request)
    cards = []
    for table in view.tables:
        url = f"{base}/t/{table.link.token}"
        qr = segno.make(url, error="m")
        cards.append({"table": table.table, "players": table.players, "url": url,
                      "code": table_links.display_code(table.link.code),
                      "qr": qr.svg_data_uri(scale=4, border=2)})
    return server.render(request, "org_links.html", server.language(request, view.event.lang),
                         view=view, cards=cards, base=base)


async def org_player_links(request: Request) -> Response:
    """Each entered player's private link as a card to print or hand out: name,
    QR code and address (made on first ask, as `tourney player links` does)."""
    import segno

    from tourney.tournament.evening import player_links

    server: Server = request.app.state.server
    slug = request.path_params["slug"]
    def work(session):  # links are made on first ask: a writing transaction
        event = get_event(session, slug)
        return event, player_links(session, event)

    try:
        event, links = await run_in_threadpool(server.in_transaction, work)
    except TourneyError as err:
        return server.error_page(request, server.language(request), 404, err)
    base = base_url(request)
    cards = [{"player": link.player, "url": base + link.path(),
              "qr": segno.make(base + link.path(), error="m").svg_data_uri(scale=3, border=2)}
             for link in links]
    response = server.render(request, "org_player_links.html",
                             server.language(request, event.lang), event=event, cards=cards)
    response.headers["Cache-Control"] = "no-store"
    return response


ORGANIZER_ACTOR = "organizer (tourney serve)"


def as_organizer(work):
    """``work`` with every change it records named as the organizer's (the audit log
    said the server's login user, root, for a round seated in the browser)."""
    def run(session):
        with acting_as(ORGANIZER_ACTOR):
            return work(session)
    return run


async def org_action(request: Request) -> Response:
    """accept / reject a submission, settle a conflict (replace: store its result
    instead, dismiss: leave the table's as it is), close the round, seat the next,
    publish."""
    server: Server = request.app.state.server
    slug, action = request.path_params["slug"], request.path_params["action"]
    form = await server.checked_form(request)
    if isinstance(form, Response):
        return form
    actor = ORGANIZER_ACTOR

    def work(session):
        event = get_event(session, slug)
        if action in ("accept", "reject", "replace", "dismiss"):
            if not form.get("submission", "").strip():
                raise TourneyError(Message(N_("no submission named")))
            submission_id = whole_number(form["submission"])
            submission = table_links.get_submission(session, submission_id)
            link = session.get(TableLink, submission.link_id)
            if link.event_id != event.id:
                raise TourneyError(Message(N_("submission %(id)s is not of %(event)s"),
                                           {"id": submission_id, "event": slug}))
            if action in ("accept", "replace"):
                decide = submissions.accept if action == "accept" else submissions.replace
                errors = decide(session, submission, actor)
                if errors:
                    return {"done": "invalid", "errors": [submissions.error_json(e)
                                                          for e in errors]}
                return {"done": "accepted" if action == "accept" else "replaced",
                        "table": link.table}
            note = form.get("note", "")  # the organizer's reason, optional
            if action == "dismiss":
                submissions.dismiss(session, submission, actor, note)
                return {"done": "dismissed", "table": link.table}
            submissions.reject(session, submission, actor, note)
            return {"done": "rejected", "table": link.table}
        if action in ("checkin", "uncheckin", "paid", "unpaid"):
            name = form.get("player", "")
            what = action.removeprefix("un")
            changed = mark(session, event, [name], what, undo=action.startswith("un"),
                           actor=actor)
            return {"done": action, "player": name, "changed": bool(changed)}
        if action in ARBITER_ACTIONS:
            return _arbiter_action(session, event, action, form)
        if action == "checkin-required":
            set_checkin_required(session, event, form.get("value") == "on")
            return {"done": action, "checkin_required": form.get("value") == "on"}
        if action == "signup":
            set_evening(session, event, signup=form.get("value", ""))
            return {"done": action, "signup": form.get("value")}
        if action in ("approve", "decline"):
            if not form.get("signup", "").strip():
                raise TourneyError(Message(N_("no sign-up named")))
            request_id = whole_number(form["signup"])
            name = decide_signup(session, event, request_id, approve=action == "approve")
            return {"done": "approved" if action == "approve" else "declined", "player": name}
        if action == "close":
            number = last_seated_round(session, event)
            return {"done": "closed", "round": number,
                    "links": submissions.close_round(session, event, number,
                                                     force=form.get("force") == "1")}
        if action == "reopen":
            number = last_seated_round(session, event)
            return {"done": "reopened", "round": number,
                    "links": submissions.reopen_round(session, event, number)}
        if action == "seat":
            seating = seat_next_round(session, event, force=form.get("force") == "1")
            return {"done": "seated", "round": seating.number, "seating": seating.to_json()}
        raise TourneyError(Message(N_("unknown action %(action)s"), {"action": quoted(action)}))

    try:
        if action == "publish":
            result = await run_in_threadpool(_publish, server)
        else:
            result = await run_in_threadpool(server.in_transaction, as_organizer(work))
    except (TourneyError, submissions.DecisionRefused) as err:
        remedy = getattr(err, "remedy", None)  # a DecisionRefused has none
        if wants_json(request):
            lang = server.language(request)
            text, _ = error_text(err, server.site_renderer(lang))
            code = "decision-refused" if isinstance(err, submissions.DecisionRefused) else "refused"
            way = getattr(err, "setting_way", None)  # what force would do, as data
            # where, as the command line's --json says it (file, line, column...)
            return api_answer(code, text, remedy_sentence(remedy, lang), 409,
                              **error_location(err), **(
                {"remedy": remedy.to_json()} if remedy is not None else {}), **(
                {"setting_way": way.to_json()} if way is not None else {}))
        # said in the language of the page the form was on (the event's by default)
        lang = server.language(request, await run_in_threadpool(_event_lang, server, slug))
        way = setting_way_offer(getattr(err, "setting_way", None), lang, slug)
        if action not in ARBITER_ACTIONS:
            return server.error_page(request, lang, 409, err,
                                     remedy=remedy_sentence(remedy, lang), way=way,
                                     back=f"/org/{slug}")
        # the arbiter's refusal: said in the organizer's language first (the page's),
        # then in the library's own words, which name what stood in the way
        return server.error_page(request, lang, 409, err, refused=True,
                                 remedy=remedy_sentence(remedy, lang), way=way,
                                 back=f"/org/{slug}#arbiter")
    if wants_json(request):
        return JSONResponse(result)
    anchor = "#evening" if action in EVENING_ACTIONS else "#arbiter" if action in ARBITER_ACTIONS else ""
    extra = f"&again={result['again']}" if "again" in result else ""
    if action in ("absent", "unabsent") and result.get("reseat"):
        extra += f"&reseat={result['reseat']}"
    return RedirectResponse(f"/org/{slug}?done={result['done']}{extra}{anchor}", status_code=303)


def _event_lang(server: Server, slug: str) -> str | None:
    try:
        return _read(server.config.engine, lambda s: get_event(s, slug).lang)
    except TourneyError:
        return None


ARBITER_ACTIONS = ("swap", "move", "substitute", "absent", "unabsent", "reseat", "forfeit",
                   "unforfeit", "adjust", "unadjust", "clock", "clock-stop", "withdraw",
                   "unwithdraw")


def _arbiter_action(session, event: Event, action: str, form: dict) -> dict:
    """The arbiter's decisions from the organizer's page, through the same use cases
    as `tourney round swap|move|substitute|absent|reseat|start` and `tourney result
    forfeit|adjust`: each checks and refuses there, never here."""
    from tourney.app import results as result_actions
    from tourney.app import rounds as round_actions

    def number(key: str) -> int:
        return whole_number(form.get(key, ""))

    reason = form.get("reason", "").strip() or None
    latest = last_seated_round(session, event)
    if action in ("swap", "move", "substitute"):
        if action == "swap":
            change = round_actions.swap_players(session, event, latest, form.get("first", ""),
                                                form.get("second", ""), reason=reason)
        elif action == "move":
            change = round_actions.move_player(session, event, latest, form.get("player", ""),
                                               form.get("table", "").strip(),
                                               force=form.get("force") == "1", reason=reason)
        else:
            change = round_actions.substitute_player(session, event, latest,
                                                     form.get("player", ""),
                                                     form.get("substitute", ""), reason=reason)
        return {"done": action, "again": len(change.again), **change.to_json()}
    if action in ("absent", "unabsent"):
        report = round_actions.mark_absent(session, event, number("round"), form.get("player", ""),
                                           undo=action == "unabsent", reason=reason)
        return {"done": action, **report.to_json()}
    if action == "withdraw":
        from tourney.app.events import withdraw_player

        report = withdraw_player(session, event, form.get("player", ""))
        return {"done": action, "player": report.player.name,
                "last_round": report.last_round, "reseat": report.reseat}
    if action == "unwithdraw":
        from tourney.app.events import enter_players

        # entering a withdrawn player again takes the withdrawal back
        entered = enter_players(session, event, [form.get("player", "")])
        return {"done": action, "player": form.get("player", ""),
                "first_round": entered.first_round}
    if action == "reseat":
        seating, changed = round_actions.reseat_round(session, event, number("round"))
        return {"done": action, "round": seating.number, "changed": changed,
                "again": seating.repeated_pairs, "seating": seating.to_json()}
    if action in ("forfeit", "unforfeit"):
        absent = [] if action == "unforfeit" else [form.get("player", "")]
        report = result_actions.forfeit_table(session, event, latest, form.get("table", ""),
                                              absent, undo=action == "unforfeit", reason=reason)
        return {"done": action, **report.to_json()}
    if action == "adjust":
        points = typed_number(form.get("points", ""))
        if points is None:
            raise TourneyError(Message(N_("not a number of points: %(text)s"),
                                       {"text": quoted(form.get("points", ""))}))
        info = result_actions.adjust_points(session, event, form.get("player", ""), points,
                                            reason or "", round_number=latest or None)
        return {"done": action, "id": info.id, "player": info.player}
    if action == "unadjust":
        info = result_actions.remove_adjustment(session, event, number("adjustment"))
        return {"done": action, "id": info.id, "player": info.player}
    if action == "clock-stop":
        round_actions.start_clock(session, event, latest, None, stop=True)
        return {"done": action, "round": latest}
    clock = round_actions.start_clock(session, event, latest, number("minutes"))
    return {"done": action, "round": latest, **clock.to_json()}


EVENING_ACTIONS = ("checkin", "uncheckin", "paid", "unpaid", "approve", "decline",
                   "checkin-required", "signup")


def _publish_site(config: ServerConfig, jobs: int = 1):
    """The site published into the server's folder (the organizer's button, the
    live site). One job by default: a fork from this threaded process could copy a
    lock another thread holds (:mod:`.live_site`)."""
    # The folder made first, so that even the first publishes into it take turns
    # (the site lock is the folder's): `--workers N` each publish at start, and
    # without it N full builds of a big league ran side by side; after the first,
    # the others find nothing changed.
    with contextlib.suppress(OSError):  # there already, or not possible: publish says
        os.mkdir(config.site_dir)
    return publish_site(config.engine, config.site_dir, langs=config.site_langs,
                        background_cleanup=True, jobs=jobs)


def _publish(server: Server) -> dict:
    if not server.config.site_dir:
        raise TourneyError(Message(N_("this server was started without a folder for the "
                                      "site: nothing to publish to")))
    # one job, as the live site's: a fork from this threaded process could copy a lock
    # another thread holds (a big first publish takes longer; nothing hangs)
    report = _publish_site(server.config)
    # publishing only reads the database; the browser's publish is still one of the
    # organizer's actions, so the audit log says who published and when (the CLI's
    # `publish` stays a read: it writes no row)
    server.in_transaction(as_organizer(lambda session: record_change(
        session, "site.publish", str(report.out), None, {"pages": report.pages})))
    return {"done": "published", "pages": report.pages, "out": str(report.out)}


# ---------------------------------------------------------------- a player's own page

async def player_page(request: Request) -> Response:
    """A player's own page (``tourney player links``): this round's table and seat,
    their results, the standings with their row marked, their rating; an "I am
    here" button while check-in is required. No login: the token is the key; a
    wrong one counts against the link rate limit."""
    from tourney.app.evening import player_evening

    server: Server = request.app.state.server
    token = request.path_params["token"]
    view = await run_in_threadpool(_read, server.config.engine,
                                   lambda s: player_evening(s, token))
    if view is None:
        return (await server.refused(server.link_limit, request)
                or server.render(request, "unknown_link.html", server.language(request), 404))
    lang = server.language(request, view.event.lang)
    tiebreaks = event_tiebreaks(view.event)
    renderer = server.site_renderer(lang)
    response = server.render(request, "player_own.html", lang, view=view, token=token,
                             flash=request.query_params.get("done"), chart=renderer.chart,
                             tiebreaks=tiebreaks,
                             deciding=deciding_tiebreaks(view.rows, tiebreaks),
                             names=renderer.names)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


async def player_checkin(request: Request) -> Response:
    """The player's own "I am here" (while the event requires check-in)."""
    from tourney.app.evening import check_in_by_link

    server: Server = request.app.state.server
    token = request.path_params["token"]
    form = await server.checked_form(request)
    if isinstance(form, Response):
        return form
    name = await run_in_threadpool(server.in_transaction, lambda s: check_in_by_link(s, token))
    if name is None:
        return (await server.refused(server.link_limit, request)
                or server.render(request, "unknown_link.html", server.language(request), 404))
    if wants_json(request):
        return JSONResponse({"done": "checked-in", "player": name})
    return RedirectResponse(f"/p/{token}?done=checked-in", status_code=303)


# ---------------------------------------------------------------- sign-up

async def signup_page(request: Request) -> Response:
    """The event's public sign-up form (while ``event set --signup open``)."""
    return await _signup(request, None)


async def signup_post(request: Request) -> Response:
    form = await request.app.state.server.checked_form(request)
    if isinstance(form, Response):
        return form
    return await _signup(request, form)


async def _signup(request: Request, form: dict | None) -> Response:
    from tourney.tournament.evening import SignupRefused, add_signup, event_options

    server: Server = request.app.state.server
    slug = request.path_params["slug"]

    def work(session):
        event = get_event(session, slug)
        is_open = event_options(session, event).signup == "open"
        if form is None or not is_open:
            return event, is_open, None, None
        try:
            sent = add_signup(session, event, form.get("name", ""), form.get("club", ""),
                              form.get("email", ""))
        except SignupRefused as refused:
            return event, is_open, None, refused
        return event, is_open, sent, None

    # a sign-up sent writes; the form itself is only read
    run = server.in_transaction if form is not None else functools.partial(_read, server.config.engine)
    try:
        event, is_open, sent, refused = await run_in_threadpool(run, work)
    except TourneyError:
        return await _unknown_event(request, "/signup/")
    lang = server.language(request, event.lang)
    # a field to correct is the form's fault (422); closed, entered, full: the state's (409)
    status = 200 if refused is None else 422 if refused.reason == "field" else 409
    refused_text = (translations(lang).gettext(signup_refusal(refused.reason, refused.field))
                    if refused is not None else None)
    if wants_json(request) and form is not None:
        if refused is not None:
            # the language asked for (Accept-Language), not the event's
            text = translations(server.language(request)).gettext(
                signup_refusal(refused.reason, refused.field))
            return JSONResponse({"code": refused.reason, "error": refused.reason,
                                 "field": refused.field, "message": text}, status_code=status)
        return JSONResponse({"done": "signed-up", "name": sent.request.name,
                             "updated": sent.updated, "earlier": sent.earlier})
    if sent is not None:
        # POST/redirect/GET: the thank-you page reloads without sending the form again
        return RedirectResponse(thanks_address(server, slug, sent.request.name, sent.updated,
                                               sent.earlier, request.query_params.get("lang")),
                                status_code=303)
    return server.render(request, "signup.html", lang, status, event=event, is_open=is_open,
                         refused=refused, refused_text=refused_text, form=form or {})


def thanks_address(server: Server, slug: str, name: str, updated: bool,
                   earlier: str | None, lang: str | None) -> str:
    """The thank-you page of a sign-up sent: what it says (the name, whether it
    updated an earlier sign-up and that one's name) in its query, sealed so that
    only a sign-up sent here makes a page say it."""
    said = {"name": name, "updated": "1" if updated else "", "earlier": earlier or ""}
    seal = server.sessions.seal("signup", slug, said["name"], said["updated"], said["earlier"])
    query = {**said, "seal": seal, **({"lang": lang} if lang in LANGUAGES else {})}
    return f"/signup/{quote(slug, safe='')}/thanks?{urlencode(query)}"


async def signup_thanks(request: Request) -> Response:
    """The thank-you page a sign-up sent leads to (:func:`thanks_address`); its
    address unsealed, the sign-up form."""
    server: Server = request.app.state.server
    slug, query = request.path_params["slug"], request.query_params
    said = (query.get("name", ""), query.get("updated", ""), query.get("earlier", ""))
    if not server.sessions.sealed(query.get("seal", ""), "signup", slug, *said):
        return await _signup(request, None)
    try:
        event = await run_in_threadpool(_read, server.config.engine,
                                        lambda s: get_event(s, slug))
    except TourneyError:
        return await _unknown_event(request, "/signup/")
    name, updated, earlier = said
    return server.render(request, "signup.html", server.language(request, event.lang),
                         event=event, is_open=True, signed=name, updated=bool(updated),
                         earlier=earlier or None, refused=None, refused_text=None, form={})


# ---------------------------------------------------------------- the app

def create_app(config: ServerConfig) -> Starlette:
    routes = [
        Route("/", index),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/t", code_page),
        Route("/t", code_post, methods=["POST"]),
        Route("/t/{token}", table_page),
        Route("/t/{token}", table_post, methods=["POST"]),
        Route("/t/{token}/result", table_result_page),
        Route("/p/{token}", player_page),
        Route("/p/{token}/checkin", player_checkin, methods=["POST"]),
        Route("/signup/{slug}", signup_page),
        Route("/signup/{slug}", signup_post, methods=["POST"]),
        Route("/signup/{slug}/thanks", signup_thanks),
        Route("/standings/{slug}", standings_page),
        Route("/api/events/{slug}/standings", standings_json),
        Route("/login", login_page),
        Route("/login", login_post, methods=["POST"]),
        Route("/logout", logout_post, methods=["POST"]),
        Route("/org", organizer_only(org_index)),
        Route("/org/{slug}", organizer_only(org_event)),
        Route("/org/{slug}/round/{number:int}/links", organizer_only(org_links)),
        Route("/org/{slug}/players/links", organizer_only(org_player_links)),
        Route("/org/{slug}/live", organizer_only(org_live)),
        Route("/org/{slug}/{action}", organizer_only(org_action), methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    server = Server(config)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        # the live site is brought up to date at start (a publish that finds it
        # current writes nothing) and stops publishing at the server's exit
        if server.live_site is not None:
            server.live_site.changed()
        yield
        if server.live_site is not None:
            await run_in_threadpool(server.live_site.stop)

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    if config.processes > 1:
        app.add_middleware(SessionsOffTheLoop, lookup=app.state.server.session_of)
    app.add_middleware(SecurityHeaders)
    return app


def organizer_secret(password: str | None) -> tuple[str, bool]:
    """The login secret: the password given, else a fresh token (and whether it
    was made here, so the caller prints it)."""
    if password:
        return password, False
    return secrets.token_urlsafe(16), True

