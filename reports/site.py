"""Building the static standings site (``tourney publish``).

:func:`publish` reads the database once (through :mod:`.data`), renders every page
with the jinja2 templates under ``reports/templates`` and swaps the finished folder
into place.

The site (paths relative to the folder, per language tree):

- ``index.html``: the events (running, upcoming, finished) and the rating
  leaderboards per variant (top of each; provisional players apart);
- ``ratings/<variant>.html``: a variant's full leaderboard;
- ``players/index.html`` and ``players/<id>.html``: every player; a player's events,
  matches and places, and the rating history per variant as an SVG chart with a
  table beside it;
- ``events/<slug>/index.html``: standings with the tie-break columns, the results
  grid, the rounds, the rules and options in words;
- ``events/<slug>/round-<n>.html``: a round's seat list by table and by name;
- ``events/<slug>/match-<id>.html``: a match's deals and scores;
- ``events/<slug>/match-<id>-deal-<n>.html``: a deal's replay.

Decisions:

- **Permalinks.** A player's page is ``players/<id>.html``: the id never changes,
  so the URL survives renames (a name in the URL would not). A merged duplicate's
  page stays, as a pointer (and a meta refresh) to the kept player's page. Events
  use their slug (lower-case letters, digits and dashes, checked when created); a
  slug that is not (a database written by other means) falls back to ``e_<id>``,
  which no slug can be. Matches use their id, which survives re-imports (a new
  version keeps the match row).
- **Links are relative** everywhere (``../players/12.html``), so the folder works
  from any path, any web server, or straight from disk (``file://``).
- **Languages.** ``--lang`` is repeatable; the first language's tree is the folder
  itself and each further language is a tree in ``<lang>/`` with the same paths, so
  adding a language never moves a page. Every page links to itself in the other
  languages. Without ``--lang`` the languages are those of the events published
  (``Event.lang``, the most common first), else English.
- **Replays.** Every deal with moves gets a replay page, except that ``--event``
  limits the replays to the events it names (every event's standings, rounds and
  match pages are always published: the folder is replaced as a whole, so a
  partial site would break links). A replay page costs about 1.5 ms (replaying
  the deal and rendering it), the other pages about 1 ms each: a league of
  100,000 matches (200,000 deals) publishes in about two minutes without replays
  and in about seven with all of them, so a big league names the events whose
  replays it wants (bench/bench_publish.py has the figures). ``--jobs N`` renders
  in N processes.
- **Atomic publishing.** The site is built in a temporary folder beside the target
  (``.<name>.publishing-...``) and swapped in with one ``renameat2(RENAME_EXCHANGE)``
  (Linux), else two renames; the old site is then deleted. Readers see the old site
  or the new one, never half of one. A target folder that exists must be empty or
  hold a site built by this command (the ``.tourney-site`` marker): publishing
  never replaces a folder of other files. The replaced site is renamed
  ``.<name>.old-...`` beside the target and deleted; ``tourney publish`` deletes it
  in a detached process, since deleting a big site's files can take as long as
  writing them (a cleanup cut short is finished by the next publish).
- Every path written is made of ids, checked slugs and fixed names and is checked
  to stay inside the build folder.
"""
from __future__ import annotations

import ctypes
import datetime as dt
import errno
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from babel.dates import format_date, format_datetime
from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context
from markupsafe import Markup
from sqlalchemy.engine import Engine

from tourney import __version__
from tourney.engines.presentation import Card, Cards, Message, Note, Seat
from tourney.errors import TourneyError, UsageError
from tourney.numbers import plain_number
from tourney.ratings.engine import ordinal
from tourney.storage.db import reading
from tourney.tournament.events import unknown_event

from . import charts
from .data import (
    DealData,
    EventData,
    EventInfo,
    MatchData,
    PlayerInfo,
    PoolData,
    SiteReader,
)
from .i18n import (
    NumberFormat,
    has_catalogue,
    locale_of,
    normalize_language,
    template_callables,
    translations,
)
from .names import Names
from .replay import build_replay, square_at

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATE_DIR = PACKAGE_DIR / "templates"
STATIC_DIR = PACKAGE_DIR / "static"
SITE_MARKER = ".tourney-site"
# The step shapes the site has a replay page for (replay_<shape>.html); a game whose
# steps have another shape gets the plain list of moves.
REPLAY_SHAPES = frozenset(p.stem.removeprefix("replay_") for p in TEMPLATE_DIR.glob("replay_*.html"))
SAFE_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
LEADERBOARD_TOP = 10  # rows per variant on the index page
STATUS_ORDER = ("running", "upcoming", "finished")


# ------------------------------------------------------------------------ paths

class Links:
    """Page paths relative to a language tree's root."""

    def __init__(self, events: Iterable[EventInfo]):
        self._event_dirs = {e.id: self.event_dir(e) for e in events}

    @staticmethod
    def event_dir(info: EventInfo) -> str:
        slug = info.slug or ""
        if SAFE_SLUG.fullmatch(slug) and len(slug) <= 100:
            return f"events/{slug}"
        return f"events/e_{int(info.id)}"

    def event(self, event_id: int) -> str:
        return f"{self._event_dirs[event_id]}/index.html"

    def round(self, event_id: int, number: int) -> str:
        return f"{self._event_dirs[event_id]}/round-{int(number)}.html"

    def match(self, event_id: int, match_id: int) -> str:
        return f"{self._event_dirs[event_id]}/match-{int(match_id)}.html"

    def deal(self, event_id: int, match_id: int, number: int) -> str:
        return f"{self._event_dirs[event_id]}/match-{int(match_id)}-deal-{int(number)}.html"

    @staticmethod
    def player(player_id: int) -> str:
        return f"players/{int(player_id)}.html"

    @staticmethod
    def ratings(variant: str) -> str:
        if not SAFE_SLUG.fullmatch(variant):
            raise TourneyError(f"not a variant id: {variant!r}")
        return f"ratings/{variant}.html"


class PlayerLinks(dict):
    """``P[player_id]``: the link to a player's page from pages at one depth, built
    once per player and depth (a name is never translated, so every language
    shares it)."""

    def __init__(self, root: str, players: dict[int, PlayerInfo]):
        super().__init__()
        self.root = root
        self.players = players

    def __missing__(self, player_id: int) -> Markup:
        player = self.players.get(player_id)
        name = player.name if player is not None else f"#{player_id}"
        # <bdi>: a name with right-to-left marks cannot reorder the text around it.
        html = Markup('<a href="{}"><bdi>{}</bdi></a>').format(
            self.root + Links.player(player_id), name)
        self[player_id] = html
        return html


class EventLinks(dict):
    """``E[event_id]``: the link to an event's page from pages at one depth."""

    def __init__(self, root: str, links: Links, events: dict[int, EventInfo]):
        super().__init__()
        self.root = root
        self.links = links
        self.events = events

    def __missing__(self, event_id: int) -> Markup:
        html = Markup('<a href="{}"><bdi>{}</bdi></a>').format(
            self.root + self.links.event(event_id), self.events[event_id].name)
        self[event_id] = html
        return html


def root_of(path: str) -> str:
    """The relative prefix from a page back to its tree's root."""
    return "../" * path.count("/")


def check_relpath(path: str) -> str:
    parts = path.split("/")
    if (not path or path.startswith("/") or "\\" in path or "\0" in path
            or any(p in ("", ".", "..") for p in parts)):
        raise TourneyError(f"refusing to write outside the site: {path!r}")
    return path


# ------------------------------------------------------------------------ publishing

@dataclass
class PublishReport:
    out: Path
    languages: list[str]
    events: int = 0
    players: int = 0
    matches: int = 0
    pages: int = 0
    replays: int = 0
    replay_events: list[str] = field(default_factory=list)
    missing_catalogues: list[str] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"out": str(self.out), "languages": self.languages, "events": self.events,
                "players": self.players, "matches": self.matches, "pages": self.pages,
                "replays": self.replays, "replay_events": self.replay_events,
                "missing_catalogues": self.missing_catalogues,
                "seconds": round(self.seconds, 3),
                "timings": {k: round(v, 3) for k, v in self.timings.items()}}


def publish(engine: Engine, out: str | os.PathLike, *, events: Sequence[str] = (),
            langs: Sequence[str] = (), replays: bool = True,
            now: dt.datetime | None = None,
            background_cleanup: bool = False, jobs: int = 1) -> PublishReport:
    """Build the site from the database into ``out``, atomically.

    ``jobs`` > 1 renders in that many processes (0: one per CPU); see
    :meth:`SiteBuilder._in_workers`.

    ``background_cleanup`` deletes the replaced site in a detached process (the
    command line does); otherwise before returning."""
    started = time.perf_counter()
    jobs = resolve_jobs(jobs)
    target = prepare_target(out)
    now = now or dt.datetime.now(dt.UTC)
    with reading(engine) as session:
        reader = SiteReader(session)
        infos = reader.events(now.date())
        known = {e.slug: e for e in infos}
        for slug in events:
            if slug not in known:
                raise unknown_event(slug, sorted(known))
        languages = choose_languages(langs, [known[s] for s in events] if events else infos)
        report = PublishReport(target, languages)
        report.missing_catalogues = [lang for lang in languages if not has_catalogue(lang)]
        replay_ids = ({known[s].id for s in events} if events else {e.id for e in infos}) \
            if replays else set()
        report.replay_events = [e.slug for e in infos if e.id in replay_ids]
        build_dir = Path(tempfile.mkdtemp(prefix=f".{target.name}.publishing-",
                                          dir=target.parent))
        os.chmod(build_dir, 0o777 & ~_umask())  # mkdtemp's 0700 would hide the site
        try:
            builder = SiteBuilder(build_dir, reader, infos, languages, now, report)
            builder.build(replay_ids, jobs=jobs, engine=engine)
            (build_dir / SITE_MARKER).write_text(json.dumps({
                "generator": f"tourney {__version__}", "languages": languages,
                "built_at": now.isoformat(timespec="seconds")}) + "\n", encoding="utf-8")
            old_site = swap_into_place(build_dir, target)
        except BaseException:
            shutil.rmtree(build_dir, ignore_errors=True)
            raise
    discard([old_site, *leftovers(target)] if old_site else leftovers(target),
            background=background_cleanup)
    report.seconds = time.perf_counter() - started
    return report


def resolve_jobs(jobs: int) -> int:
    if jobs < 0:
        raise UsageError("--jobs takes 0 (one per CPU) or a positive number")
    if jobs == 0:
        return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                   else (os.cpu_count() or 1))
    return jobs


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def choose_languages(langs: Sequence[str], events: Sequence[EventInfo]) -> list[str]:
    chosen: list[str] = []
    for lang in langs:
        code = normalize_language(lang)
        if code not in chosen:
            chosen.append(code)
    if chosen:
        return chosen
    counts = Counter(normalize_language(e.lang) for e in events if e.lang)
    order = {lang: i for i, lang in reversed(list(enumerate(
        normalize_language(e.lang) for e in events if e.lang)))}
    found = sorted(counts, key=lambda lang: (-counts[lang], order[lang]))
    return found or ["en"]


def prepare_target(out: str | os.PathLike) -> Path:
    """The target folder, checked: absent, empty, or a site built by this command."""
    text = os.fspath(out)
    if not text.strip():
        raise UsageError("--out needs a folder")
    target = Path(os.path.realpath(text))
    if target == Path(target.anchor):
        raise UsageError("refusing to publish over the file system's root")
    if target.exists():
        if not target.is_dir():
            raise UsageError(f"{text} exists and is not a folder")
        if any(target.iterdir()) and not (target / SITE_MARKER).is_file():
            raise UsageError(
                f"{text} is not empty and holds no site published by tourney "
                f"(no {SITE_MARKER} file); publish into a new or empty folder")
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
    return target


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_into_place(build_dir: Path, target: Path) -> Path | None:
    """Put the finished build where the site goes; the old site's folder, renamed
    ``.<name>.old-...`` beside the target (for :func:`discard`), or ``None``."""
    if not target.exists():
        os.rename(build_dir, target)
        return None
    old = target.with_name(f".{target.name}.old-{os.getpid()}-{time.time_ns()}")
    if _exchange(build_dir, target):
        os.rename(build_dir, old)  # build_dir now holds the old site
        return old
    os.rename(target, old)
    try:
        os.rename(build_dir, target)
    except OSError:
        os.rename(old, target)
        raise
    return old


def leftovers(target: Path) -> list[Path]:
    """Old sites an earlier publish left beside the target (its cleanup was cut
    short): ``.<name>.old-*`` folders. Folders still being built are not touched."""
    prefix = f".{target.name}.old-"
    try:
        return [p for p in target.parent.iterdir() if p.name.startswith(prefix) and p.is_dir()]
    except OSError:
        return []


def discard(paths: Sequence[Path], background: bool) -> None:
    """Delete old sites. In the background (a detached process) when asked:
    deleting tens of thousands of files can take longer than building them, and
    nobody needs to wait for it; the site is already in place."""
    paths = [p for p in paths if p is not None]
    if not paths:
        return
    if background:
        try:
            subprocess.Popen(
                [sys.executable, "-c",
                 "import shutil, sys\nfor p in sys.argv[1:]: shutil.rmtree(p, ignore_errors=True)",
                 *map(str, paths)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, close_fds=True, start_new_session=True)
            return
        except OSError:
            pass  # no process to spare: delete here
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)


# ------------------------------------------------------------------------ rendering

class Renderer:
    """One language: its jinja2 environment, names and number and date formats."""

    def __init__(self, lang: str, prefix: str, languages: Sequence[str], now: dt.datetime):
        self.lang = lang
        self.prefix = prefix  # the tree's folder inside the site: "" or "sv/"
        self.translations = translations(lang)
        self.gettext = self.translations.gettext
        self.ngettext = self.translations.ngettext
        self.locale = locale_of(lang)
        # A language without a catalogue shows English text: say so to browsers.
        self.html_lang = lang.replace("_", "-") if has_catalogue(lang) else "en"
        self.names = Names(self.translations)
        env = Environment(loader=FileSystemLoader(str(TEMPLATE_DIR)), autoescape=True,
                          extensions=["jinja2.ext.i18n"], undefined=StrictUndefined,
                          trim_blocks=True, lstrip_blocks=True, auto_reload=False)
        env.install_gettext_translations(self.translations, newstyle=True)
        env.globals.update(template_callables(self.translations))
        self._numbers: dict[Any, str] = {}
        self.numbers = NumberFormat(self.locale)
        env.filters.update(
            num=self.number, dec1=self.decimal1, dec2=self.decimal2, date=self.date,
            card=lambda c: self.names.card_html[c], cards=self.names.cards_html)
        env.filters["score"] = self.score
        env.filters["points"] = self.match_points
        env.globals.update(
            names=self.names, lang=self.html_lang, event_text=self.event_text,
            square_at=square_at,
            generated=self.datetime(now), rating_chart=self.chart)
        self.env = env
        self._templates: dict[str, Any] = {}
        self.languages = list(languages)

    def template(self, name: str):
        template = self._templates.get(name)
        if template is None:
            template = self._templates[name] = self.env.get_template(name)
        return template

    # ---- formats

    def number(self, value) -> str:
        """A score or points: whole numbers without decimals, else up to two."""
        if value is None:
            return ""
        text = self._numbers.get(value)
        if text is None:
            text = self._numbers[value] = self.numbers.format(value, 2, 0)
        return text

    def match_points(self, value) -> str:
        """A match's points: a half as "½" (a draw: "½", "1½"), else as :meth:`number`."""
        if value is None:
            return ""
        whole, rest = divmod(value, 1)
        if rest == 0.5:
            return ("" if whole == 0 else self.number(int(whole))) + "½"
        return self.number(value)

    def score(self, text) -> str:
        """A score as stored (canonical text: "25", "0.5") in the page's locale."""
        value = _score_value(str(text))
        return self.number(value) if not isinstance(value, str) else value

    def chart(self, history, chart_id: str, title: str, desc: str) -> Markup:
        # The template's {% set %} blocks give escaped Markup; the chart escapes itself.
        title = title.unescape() if isinstance(title, Markup) else str(title)
        desc = desc.unescape() if isinstance(desc, Markup) else str(desc)
        return charts.rating_chart(history, chart_id=chart_id, title=title, desc=desc,
                                   number=self.decimal1)

    def decimal1(self, value) -> str:
        return self.numbers.format(value, 1, 1)

    def decimal2(self, value) -> str:
        return self.numbers.format(value, 2, 2)

    def date(self, value) -> str:
        if value is None:
            return ""
        return format_date(value, format="medium", locale=self.locale)

    def datetime(self, value: dt.datetime) -> str:
        return format_datetime(value, format="medium", tzinfo=dt.UTC,
                               locale=self.locale) + " UTC"

    # ---- text built from the catalogue

    def message(self, message: Message, seat_names: Sequence[str] = ()) -> str:
        """An engine's message in this language (plain text: the template escapes
        it): seats become the players' names, cards their names, numbers are
        formatted for the locale."""
        if not message.translate:
            return message.msgid
        params = {}
        for key, value in message.params.items():
            if isinstance(value, Seat):
                params[key] = seat_names[value] if 0 <= value < len(seat_names) else "?"
            elif isinstance(value, Card):
                params[key] = self.names.card[value]
            elif isinstance(value, Cards):
                params[key] = self.names.cards_words(value)
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                params[key] = self.number(value)
            else:
                params[key] = value
        try:
            return self.gettext(message.msgid) % params
        except (KeyError, ValueError, TypeError):  # a translation with other placeholders
            return message.msgid % params

    @pass_context
    def event_text(self, context, note: Note) -> str:
        """A replay note in words."""
        return self.message(note.message, context.get("N") or ())


# ------------------------------------------------------------------------ view rows

# Kept per player over the whole build (a row per player per match): tuples of
# plain values, which the garbage collector stops tracking, so a big league's
# hundreds of thousands of rows do not slow every collection down.
class PlayerMatch(NamedTuple):
    event_id: int
    match_id: int
    round: int
    table: str
    place: int
    size: int
    points: float
    total: float
    opponents: tuple[int, ...]
    deals: int = 0
    verified_moves: int = 0  # deals replayed move by move; the rest are score sheets
    shared: bool = False  # another player of the match had the same place (a draw)

    @property
    def checked(self) -> str:
        """How the result was checked: "moves", "scores" or "mixed"."""
        if self.verified_moves >= self.deals:
            return "moves"
        return "scores" if self.verified_moves == 0 else "mixed"


class PlayerEvent(NamedTuple):
    event_id: int
    place: int | None
    points: float
    matches: int
    entrants: int
    shared: bool


@dataclass
class GridCell:
    kind: str  # "match", "pending", "bye", "none"
    match_id: int | None = None
    place: int | None = None
    size: int = 0
    points: float | None = None
    table: str | None = None
    opponent_rank: int | None = None
    shared: bool = False  # another player at the table had the same place (a draw)


def write_file(path: str, data: bytes) -> None:
    """One page, written with the bare system calls (no buffered file object)."""
    fd = os.open(path, _WRITE_FLAGS, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)


class SiteBuilder:
    """Renders every page of the site into a build folder."""

    def __init__(self, build_dir: Path, reader: SiteReader, events: list[EventInfo],
                 languages: list[str], now: dt.datetime, report: PublishReport):
        self.build_dir = build_dir
        self.reader = reader
        self.events = events
        self.events_by_id = {e.id: e for e in events}
        self.languages = languages
        self.now = now
        self.report = report
        self.links = Links(events)
        self.renderers = [Renderer(lang, "" if i == 0 else f"{lang}/", languages, now)
                          for i, lang in enumerate(languages)]
        self._dirs: set[str] = set()
        self._link_maps: dict[str, tuple[PlayerLinks, EventLinks]] = {}
        self.players: dict[int, PlayerInfo] = {}
        self.player_matches: dict[int, list[PlayerMatch]] = {}
        self.player_events: dict[int, list[PlayerEvent]] = {}

    # ---- writing

    def write(self, renderer: Renderer, path: str, html: str) -> None:
        full = os.path.join(self.build_dir, renderer.prefix + check_relpath(path))
        parent = os.path.dirname(full)
        if parent not in self._dirs:
            os.makedirs(parent, exist_ok=True)
            self._dirs.add(parent)
        write_file(full, html.encode("utf-8"))
        self.report.pages += 1

    def link_maps(self, root: str) -> tuple[PlayerLinks, EventLinks]:
        maps = self._link_maps.get(root)
        if maps is None:
            maps = self._link_maps[root] = (PlayerLinks(root, self.players),
                                            EventLinks(root, self.links, self.events_by_id))
        return maps

    def page(self, template: str, path: str, per_language: Callable | None = None,
             **context) -> None:
        """Render one page in every language; one render per page and language.
        ``per_language(renderer)`` adds context that depends on the language."""
        root = root_of(path)
        player_links, event_links = self.link_maps(root)
        for renderer in self.renderers:
            switcher = self.switcher(renderer, path, root) if len(self.renderers) > 1 else []
            extra = per_language(renderer) if per_language is not None else {}
            html = renderer.template(template).render(
                root=root, path=path, links=self.links, players=self.players,
                events_by_id=self.events_by_id, switcher=switcher, P=player_links,
                E=event_links, **context, **extra)
            self.write(renderer, path, html)

    def switcher(self, current: Renderer, path: str, root: str) -> list[dict]:
        up = "../" if current.prefix else ""
        items = []
        for other in self.renderers:
            items.append({
                "lang": other.lang,
                "name": other.locale.get_display_name(other.locale) or other.lang,
                "href": root + up + other.prefix + path,
                "current": other is current,
            })
        return items

    # ---- the whole site

    def build(self, replay_ids: set[int], jobs: int = 1, engine: Engine | None = None) -> None:
        """Every page. With ``jobs`` > 1 (and ``fork``), the events' pages and then
        the players' pages are shared out to that many worker processes."""
        timings = self.report.timings
        t0 = time.perf_counter()
        self.players = self.reader.players()
        pools = self.reader.pools()
        timings["load"] = time.perf_counter() - t0
        self.report.players = sum(1 for p in self.players.values() if p.merged_into is None)
        self.report.events = len(self.events)
        parallel = jobs > 1 and engine is not None and hasattr(os, "fork")

        t0 = time.perf_counter()
        if parallel:
            shares = [self.events[i::jobs] for i in range(jobs)]
            self._in_workers(engine, shares, lambda share: self._event_share(share, replay_ids))
        else:
            self._event_share(self.events, replay_ids)
        timings["events"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        context = self._player_context(pools)
        self.page("players.html", "players/index.html", summary=context["summary"])
        ids = sorted(self.players)
        if parallel:
            shares = [ids[i::jobs] for i in range(jobs)]
            self._in_workers(engine, shares,
                             lambda share: self.player_pages(pools, share, context),
                             collect=False)
        else:
            self.player_pages(pools, ids, context)
        timings["players"] = time.perf_counter() - t0
        self.rating_pages(pools)
        self.index_page(pools)
        self.static_files()

    def _event_share(self, infos: Sequence[EventInfo], replay_ids: set[int]) -> None:
        for info in infos:
            data = self.reader.event_data(info)
            self.event_pages(data, info.id in replay_ids)

    def _in_workers(self, engine: Engine, shares: list, work: Callable,
                    collect: bool = True) -> None:
        """Run ``work(share)`` for each share in a forked process of its own, then
        merge what the workers learned (the players' matches and events, the
        counts) back into this builder.

        A worker reads through a connection of its own (the pool inherited from
        this process is dropped, not closed, as SQLAlchemy advises after a fork)
        and writes its pages straight into the build folder. Decision: the workers'
        reads are separate transactions, so a result imported while a big site is
        being published may show on some pages and not others until the next
        publish; with one job the whole site is one read transaction.
        """
        url = engine.url.render_as_string(hide_password=False)
        children = []
        for share in shares:
            if not share:
                continue
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:  # the worker
                os.close(read_end)
                status = 0
                try:
                    from tourney.storage.db import open_engine

                    worker_engine = open_engine(url)
                    worker_engine.dispose(close=False)
                    if collect:  # send back only what this worker adds
                        self.player_matches, self.player_events = {}, {}
                    counts = (self.report.pages, self.report.matches, self.report.replays)
                    with reading(worker_engine) as session:
                        self.reader = SiteReader(session)
                        work(share)
                    result = ("ok", self.player_matches if collect else {},
                              self.player_events if collect else {},
                              self.report.pages - counts[0], self.report.matches - counts[1],
                              self.report.replays - counts[2])
                except BaseException as err:  # noqa: BLE001 - reported by the parent
                    status = 1
                    result = ("error", type(err).__name__, str(err),
                              isinstance(err, TourneyError))
                try:
                    with os.fdopen(write_end, "wb") as stream:
                        pickle.dump(result, stream, protocol=pickle.HIGHEST_PROTOCOL)
                finally:
                    os._exit(status)
            os.close(write_end)
            children.append((pid, read_end))
        failures = []
        for pid, read_end in children:
            with os.fdopen(read_end, "rb") as stream:
                try:
                    result = pickle.load(stream)
                except EOFError:
                    result = ("error", "WorkerDied", "a publishing worker stopped", False)
            os.waitpid(pid, 0)
            if result[0] != "ok":
                failures.append(result)
                continue
            _, matches, events, pages, match_count, replays = result
            if not collect:
                matches, events = {}, {}
            for player_id, rows in matches.items():
                self.player_matches.setdefault(player_id, []).extend(rows)
            for player_id, rows in events.items():
                self.player_events.setdefault(player_id, []).extend(rows)
            self.report.pages += pages
            self.report.matches += match_count
            self.report.replays += replays
        if failures:
            _, kind, text, ours = failures[0]
            if ours:
                raise TourneyError(text)
            raise RuntimeError(f"a publishing worker failed: {kind}: {text}")

    def static_files(self) -> None:
        for renderer in self.renderers:
            folder = self.build_dir / renderer.prefix / "static"
            folder.mkdir(parents=True, exist_ok=True)
            for item in sorted(STATIC_DIR.iterdir()):
                if item.is_file():
                    shutil.copyfile(item, folder / item.name)

    # ---- index and ratings

    def index_page(self, pools: list[PoolData]) -> None:
        groups = {status: [e for e in self.events if e.status == status]
                  for status in STATUS_ORDER}
        boards = []
        for pool in pools:
            established = [e for e in pool.leaderboard if not e.provisional]
            provisional = [e for e in pool.leaderboard if e.provisional]
            if not pool.leaderboard:
                continue
            boards.append({"pool": pool, "top": established[:LEADERBOARD_TOP],
                           "established": len(established), "provisional": provisional,
                           "provisional_count": len(provisional)})
        self.page("index.html", "index.html", groups=groups, boards=boards,
                  status_order=STATUS_ORDER, ordinal=ordinal)

    def rating_pages(self, pools: list[PoolData]) -> None:
        for pool in pools:
            if not pool.leaderboard:
                continue
            established = [e for e in pool.leaderboard if not e.provisional]
            provisional = [e for e in pool.leaderboard if e.provisional]
            self.page("ratings.html", self.links.ratings(pool.variant), pool=pool,
                      established=established, provisional=provisional, ordinal=ordinal)

    # ---- events

    def event_pages(self, data: EventData, with_replays: bool) -> None:
        info = data.info
        rank_of = {row.player_id: row.place for row in data.standings}
        size = len(data.standings)
        for row in data.standings:
            self.player_events.setdefault(row.player_id, []).append(PlayerEvent(
                info.id, row.place, row.points, row.matches, size, row.decided_by == "shared"))
        grid = self.results_grid(data, rank_of)
        self.page("event.html", self.links.event(info.id), info=info, data=data, grid=grid,
                  per_language=lambda renderer: {"rules": self._rule_sentences(renderer, info)})

        for rnd in data.rounds:
            self.page("round.html", self.links.round(info.id, rnd.number), info=info,
                      rnd=rnd, by_name=self._by_name(rnd))
        matches_by_round: dict[int, list[MatchData]] = {}
        for match in data.matches:
            matches_by_round.setdefault(match.round, []).append(match)
        for number, matches in matches_by_round.items():
            deals = self.reader.deals(info.id, number, with_moves=with_replays)
            for match in matches:
                self.report.matches += 1
                self._remember_match(info, match)
                self.match_pages(info, match, deals.get(match.version_id, []), with_replays)

    def _rule_sentences(self, renderer: Renderer, info: EventInfo) -> list[dict]:
        out = []
        if info.options is None:
            return out
        game = renderer.names.rules(info.variant)
        specs = {s.key: s for s in game.option_specs}
        for key, value in info.options.items():
            sentence = game.option_sentence(key, value)
            if sentence is None:
                continue
            spec = specs.get(key)
            house = key in info.rules and (spec is None or value != spec.default)
            out.append({"text": renderer.message(sentence), "house": house, "key": key})
        return out

    def _by_name(self, rnd) -> list[dict]:
        rows = []
        for table in rnd.tables:
            for seat, pid in enumerate(table.players):
                rows.append({"player": pid, "table": table.label, "seat": seat})
        for pid in rnd.byes:
            rows.append({"player": pid, "table": None, "seat": None})
        players = self.players
        rows.sort(key=lambda r: (players[r["player"]].name.casefold(), players[r["player"]].name))
        return rows

    def results_grid(self, data: EventData, rank_of: dict[int, int]) -> dict[int, list[GridCell]]:
        """Per player (standings order): one cell per round."""
        cells: dict[int, dict[int, GridCell]] = {}
        for rnd in data.rounds:
            for table in rnd.tables:
                match = table.match
                places = {p.player_id: p for p in match.places} if match and match.has_result else {}
                for pid in table.players:
                    place = places.get(pid)
                    if place is None:
                        cell = GridCell("pending", match.id if match else None,
                                        table=table.label, size=len(table.players))
                    else:
                        cell = GridCell("match", match.id, place.place, len(table.players),
                                        place.match_points, table.label,
                                        shared=shared_places(match.places)[place.place])
                        if len(table.players) == 2:
                            other = [p for p in table.players if p != pid]
                            cell.opponent_rank = rank_of.get(other[0]) if other else None
                    cells.setdefault(pid, {})[rnd.number] = cell
            for pid in rnd.byes:
                cells.setdefault(pid, {})[rnd.number] = GridCell("bye")
        grid = {}
        numbers = [r.number for r in data.rounds]
        for row in data.standings:
            mine = cells.get(row.player_id, {})
            grid[row.player_id] = [mine.get(n, GridCell("none")) for n in numbers]
        return grid

    def _remember_match(self, info: EventInfo, match: MatchData) -> None:
        if not match.has_result:
            return
        ids = [p.player_id for p in match.places]
        size = len(ids)
        shared = shared_places(match.places)
        for place in match.places:
            self.player_matches.setdefault(place.player_id, []).append(PlayerMatch(
                info.id, match.id, match.round, match.table, place.place, size,
                place.match_points, place.total, tuple(o for o in ids if o != place.player_id),
                match.deals, match.verified_moves, shared[place.place]))

    # ---- matches and deals

    def match_pages(self, info: EventInfo, match: MatchData, deals: list[DealData],
                    with_replays: bool) -> None:
        columns = [p.player_id for p in match.places]  # seat order of deal 1
        game = self.renderers[0].names.rules(info.variant)
        name_to_player = {}
        if deals:
            first = deals[0].players.split(";")
            for place in match.places:
                if 0 <= place.seat < len(first):
                    name_to_player[first[place.seat]] = place.player_id
        rows = []
        for deal in deals:
            seat_names = deal.players.split(";")
            scores = deal.scores.split(";") if deal.scores else []
            by_player = {}
            for seat, name in enumerate(seat_names):
                pid = name_to_player.get(name)
                if pid is not None and seat < len(scores):
                    by_player[pid] = _score_value(scores[seat])
            replay = with_replays and deal.verified != "scores" and bool(deal.play)
            # the dealer, or who played the first colour
            dealer_seat = seat_names.index(deal.dealer) if deal.dealer in seat_names else None
            role_seat = game.role_seat(dealer_seat)
            role_name = (seat_names[role_seat] if role_seat is not None
                         and 0 <= role_seat < len(seat_names) else deal.dealer)
            rows.append({"deal": deal, "scores": [by_player.get(pid) for pid in columns],
                         "role": name_to_player.get(role_name) if role_name else None,
                         "role_name": role_name, "replay": replay})
        standing = sorted(match.places, key=lambda p: (p.place, p.seat))
        self.page("match.html", self.links.match(info.id, match.id), info=info, match=match,
                  columns=columns, rows=rows, standing=standing, replays=with_replays,
                  shared=shared_places(match.places))
        if not with_replays:
            return
        replayed = [d for d in deals if d.verified != "scores" and d.play]
        numbers = [d.number for d in replayed]  # prev/next: only deals with a replay
        for index, deal in enumerate(replayed):
            view = build_replay(info.variant, info.options or {}, deal.number, deal.players,
                                deal.dealer, deal.hands, deal.stock, deal.passes, deal.play,
                                deal.scores, deal.verified, shapes=REPLAY_SHAPES)
            path = self.links.deal(info.id, match.id, deal.number)
            player_links = self.link_maps(root_of(path))[0]
            seat_players = [name_to_player.get(name) for name in view.players]
            seat_links = [player_links[pid] if pid is not None else name
                          for pid, name in zip(seat_players, view.players)]
            seat_names = [self.players[pid].name if pid in self.players else name
                          for pid, name in zip(seat_players, view.players)]
            self.page(f"replay_{view.kind}.html", path, info=info, match=match,
                      deal=deal, view=view, S=_Seats(seat_links), N=_Seats(seat_names),
                      prev=numbers[index - 1] if index else None,
                      next=numbers[index + 1] if index + 1 < len(numbers) else None)
            self.report.replays += 1

    # ---- players

    def _player_context(self, pools: list[PoolData]) -> dict:
        """What every player's page needs, worked out once."""
        match_info = {}
        for matches in self.player_matches.values():
            for m in matches:
                match_info[m.match_id] = m
        live = sorted((p for p in self.players.values() if p.merged_into is None),
                      key=lambda p: (p.name.casefold(), p.name))
        rated: dict[int, list[str]] = {}
        entries: dict[str, dict[int, Any]] = {}
        for pool in pools:
            entries[pool.variant] = {e.player_id: e for e in pool.leaderboard}
            for entry in pool.leaderboard:
                rated.setdefault(entry.player_id, []).append(pool.variant)
        summary = [{"player": p, "events": len(self.player_events.get(p.id, ())),
                    "matches": len(self.player_matches.get(p.id, ())),
                    "variants": rated.get(p.id, [])} for p in live]
        return {"match_info": match_info, "entries": entries, "summary": summary}

    def player_pages(self, pools: list[PoolData], player_ids: Iterable[int],
                     context: dict) -> None:
        match_info, entries = context["match_info"], context["entries"]
        for player_id in player_ids:
            player = self.players[player_id]
            if player.merged_into is not None:
                kept = self._kept(player)
                self.page("merged.html", self.links.player(player.id), player=player, kept=kept)
                continue
            ratings = []
            for pool in pools:
                entry = entries[pool.variant].get(player.id)
                history = pool.history.get(player.id, [])
                if entry is None and not history:
                    continue
                ratings.append({"pool": pool, "entry": entry, "history": history,
                                "chart_id": f"chart-{pool.variant}"})
            matches = sorted(self.player_matches.get(player.id, []),
                             key=lambda m: (-self.events_by_id[m.event_id].sort_date.toordinal(),
                                            -m.event_id, -m.round))
            events = sorted(self.player_events.get(player.id, []),
                            key=lambda e: (self.events_by_id[e.event_id].sort_date,
                                           e.event_id), reverse=True)
            self.page("player.html", self.links.player(player.id), player=player,
                      ratings=ratings, matches=matches, events=events, match_info=match_info,
                      my_matches={m.match_id: m for m in matches}, ordinal=ordinal)

    def _kept(self, player: PlayerInfo) -> PlayerInfo:
        seen = {player.id}
        while player.merged_into is not None and player.merged_into in self.players:
            player = self.players[player.merged_into]
            if player.id in seen:
                break
            seen.add(player.id)
        return player


class _Seats(list):
    """Per seat: a player's link or name; ``"?"`` for a seat the deal does not have."""

    def __getitem__(self, seat):
        if seat is None or not isinstance(seat, int) or not 0 <= seat < len(self):
            return "?"
        return super().__getitem__(seat)


def shared_places(places) -> dict[int, bool]:
    """Per place of a match: is it shared by more than one player (a draw)?"""
    counts = Counter(p.place for p in places)
    return {place: n > 1 for place, n in counts.items()}


def _score_value(text: str):
    try:
        return plain_number(float(text))
    except ValueError:
        return text


__all__ = [
    "SITE_MARKER",
    "Links",
    "PublishReport",
    "choose_languages",
    "prepare_target",
    "publish",
    "swap_into_place",
]
