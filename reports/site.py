"""Building the static standings site (``tourney publish``).

:func:`publish` reads the database once (through :mod:`.data`), renders every page
with the jinja2 templates under ``reports/templates`` and swaps the finished folder
into place.

The site (paths relative to the folder, per language tree):

- ``index.html``: the events (running, upcoming, finished) and the rating
  leaderboards per variant (top of each; provisional players ranked and marked);
- ``ratings/<variant>.html``: a variant's full leaderboard;
- ``players/index.html`` and ``players/<id>.html``: every player; a player's events,
  matches and places, and the rating history per variant as an SVG chart with a
  table beside it;
- ``events/<slug>/index.html``: standings with the tie-break columns, the results
  grid, the rounds, the rules and options in words;
- ``events/<slug>/round-<n>.html``: a round's seat list by table and by name (a
  round of more than :data:`ROUND_PART_TABLES` tables: the list of its pages of
  tables and the seats by name);
- ``events/<slug>/round-<n>-part-<k>.html``: a big round's tables, a page of
  :data:`ROUND_PART_TABLES`, with their results;
- ``events/<slug>/round-<n>-sheets.html``: the round's score sheets to print, a
  page per table;
- ``events/<slug>/screen.html``: the venue screen for a projector (the latest
  round's seating and the standings in large type, reloading while the event runs);
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
  languages. Without ``--lang`` the languages are those of the last publish into
  the folder (its manifest, or for a site published before the manifest kept them,
  its marker), so a publish after one with ``--lang sv --lang en`` does not drop a
  language; a first publish takes the languages of the events published
  (``Event.lang``, the most common first), else English.
- **Replays.** Every deal with moves gets a replay page, except that ``--event``
  limits the replays to the events it names (every event's standings, rounds and
  match pages are always published: the folder is replaced as a whole, so a
  partial site would break links). A replay page costs about 1.5 ms (replaying
  the deal and rendering it), the other pages about 1 ms each: a league of
  100,000 matches (200,000 deals) publishes in about two minutes without replays
  and in about seven with all of them, so a big league names the events whose
  replays it wants (bench/bench_publish.py has the figures).
- **Writing the site.** A first publish into a folder (and ``--full``) builds the
  site in a temporary folder beside the target (``.<name>.publishing-...``) and swaps
  it in with one ``renameat2(RENAME_EXCHANGE)`` (Linux), else two renames; the old
  site is then deleted. A publish into a site it published before (its manifest
  lists the files) renders the changed files into that folder beside the site and
  then writes them into the live site, each renamed over its path
  (:func:`write_in_place`): the pages a page links to before it, files removed
  after, the manifest and the marker last. Why: the swap cost a hard link for every
  unchanged file (20,000 at 16,000 players, most of a publish after one result) and
  kept the site only as consistent as each page is: a reader sees every page whole,
  old or new, and every link of a page reachable from the index resolves at every
  moment. A publish killed on the way leaves the manifest listing the files it was
  writing without a key, so the next publish renders them again and the site
  converges on the one a full publish builds. Publishes into one folder take turns
  (:func:`.folders.site_lock`). What publish may replace, keep or remove (its
  marker, leftovers of killed publishes, files it did not write, the database, mount
  points) is decided in :mod:`.folders`. The replaced site is deleted in a detached
  process by ``tourney publish``, since deleting a big site's files can take as
  long as writing them (a cleanup cut short is finished by the next publish).
- **Incremental publishing.** A page is kept from the site it replaces (left where
  it is, or a hard link into a new build: byte-identical, not rendered) when its
  content key is unchanged; the keys
  and the files written are in the manifest (see :class:`SiteBuilder`). Only the
  index shows when the site was published. Any change to the code or templates
  renders everything again (:func:`code_digest`); ``--full`` does so on demand.
- **Processes.** By default a publish renders in one process per CPU when there
  are enough pages to render to gain from it (``AUTO_JOBS_MIN_PAGES``); workers are
  forked, die with their parent, and are killed if it gives up.
- Every path written is made of ids, checked slugs and fixed names and is checked
  to stay inside the build folder.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import gc
import hashlib
import marshal
import math
import os
import pickle
import re
import shutil
import time
import unicodedata
import urllib.parse
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from babel.dates import format_date, format_datetime
from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context
from markupsafe import Markup
from sqlalchemy.engine import Engine

from tourney import __version__
from tourney.code import PACKAGE_DIR as TOURNEY_DIR
from tourney.code import code_digest as source_digest
from tourney.collector import BULK_YOUNG, frozen
from tourney.engines.presentation import N_, Card, Cards, Message, Note, Seat
from tourney.errors import InvalidValue, TourneyError, UsageError
from tourney.errors.seats import seat_number
from tourney.errors.words import QUOTED, Quoted, comma_words, quoted, quoted_in
from tourney.numbers import column_decimals, halves_text, plain_number, shown_decimals
from tourney.ordering import name_key
from tourney.ratings.engine import ordinal
from tourney.ratings.service import RatingEntry
from tourney.storage.db import reading
from tourney.storage.settings import SiteSettings, site_settings
from tourney.tournament.standings import standing_decimals

from . import charts, opendata
from .data import (
    DealData,
    EventData,
    EventInfo,
    MatchData,
    PlayerInfo,
    PoolData,
    RoundData,
    SiteReader,
    TableData,
    UnreadRound,
    round_decided,
)
from .folders import (
    MANIFEST,
    SITE_MARKER,
    BuildFolder,
    carry_foreign,
    conflicts,
    describe,
    die_with_parent,
    discard,
    folder_times,
    foreign_files,
    leftovers,
    link_or_copy,
    manifest_bytes,
    marker_bytes,
    place_file,
    prepare_target,
    read_manifest,
    read_marker,
    remove_file,
    replace_file,
    same_folder_times,
    site_lock,
    stop_workers,
    swap_into_place,
    write_error,
)
from .i18n import (
    NumberFormat,
    has_catalogue,
    language_name,
    locale_of,
    normalize_language,
    template_callables,
    translations,
)
from .replay import build_replay, square_at
from .translated_words import Names

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATE_DIR = PACKAGE_DIR / "templates"
STATIC_DIR = PACKAGE_DIR / "static"
# The step shapes the site has a replay page for (replay_<shape>.html); a game whose
# steps have another shape gets the plain list of moves.
REPLAY_SHAPES = frozenset(p.stem.removeprefix("replay_") for p in TEMPLATE_DIR.glob("replay_*.html"))
SAFE_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
LEADERBOARD_TOP = 10  # rows per variant on the index page
STATUS_ORDER = ("running", "upcoming", "finished")
SCREEN_REFRESH_SECONDS = 60  # the venue screen reloads this often while its event runs
# A round of more tables than this has its tables on pages of this many (its page lists
# them), so that a result re-renders one of them; a club night's round is one page.
ROUND_PART_TABLES = 100


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

    def round_part(self, event_id: int, number: int, part: int) -> str:
        """A page of a big round's tables (:func:`round_parts`), ``part`` from 1."""
        return f"{self._event_dirs[event_id]}/round-{int(number)}-part-{int(part)}.html"

    def sheets(self, event_id: int, number: int) -> str:
        return f"{self._event_dirs[event_id]}/round-{int(number)}-sheets.html"

    def screen(self, event_id: int) -> str:
        return f"{self._event_dirs[event_id]}/screen.html"

    def match(self, event_id: int, match_id: int) -> str:
        return f"{self._event_dirs[event_id]}/match-{int(match_id)}.html"

    def deal(self, event_id: int, match_id: int, number: int) -> str:
        return f"{self._event_dirs[event_id]}/match-{int(match_id)}-deal-{int(number)}.html"

    @staticmethod
    def player(player_id: int) -> str:
        return f"players/{int(player_id)}.html"

    @staticmethod
    def series(slug: str) -> str:
        if not SAFE_SLUG.fullmatch(slug):
            raise TourneyError(Message(N_("not a series slug: %(slug)s"), {"slug": quoted(slug)}))
        return f"series/{slug}.html"

    @staticmethod
    def series_team(slug: str, team: str) -> str:
        """A team's page in a series: its name made safe (letters and digits kept,
        accents dropped) and a digest of the whole name, so two names that read
        alike get pages of their own and a team keeps its page while it exists."""
        base = Links.series(slug).removesuffix(".html")
        plain = unicodedata.normalize("NFKD", team).encode("ascii", "ignore").decode().lower()
        words = "-".join(re.findall(r"[a-z0-9]+", plain))[:40].strip("-") or "team"
        digest = hashlib.sha256(team.encode("utf-8")).hexdigest()[:8]
        return f"{base}/{words}-{digest}.html"

    @staticmethod
    def ratings(variant: str) -> str:
        if not SAFE_SLUG.fullmatch(variant):
            raise TourneyError(Message(N_("not a variant id: %(variant)s"),
                                       {"variant": quoted(variant)}))
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
        raise TourneyError(Message(N_("refusing to write outside the site: %(path)s"),
                                   {"path": quoted(path)}))
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
    rendered: int = 0  # pages rendered this time; the rest were unchanged (reused)
    # Against the site replaced (None: there was none): the files whose bytes
    # changed, those that differ only in the publication time, those removed.
    changed_files: int | None = None
    stamp_only: list[str] = field(default_factory=list)
    removed_files: int = 0
    jobs: int = 1
    replay_events: list[str] = field(default_factory=list)
    # where the languages came from: "option" (--lang), "last publish" (the
    # site replaced), "events" (their languages), "default" (English)
    languages_from: str = "option"
    missing_catalogues: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # files publish did not write, carried
    dropped: list[str] = field(default_factory=list)  # the same, dropped (--force)
    removed_leftovers: list[str] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    # nothing the site shows changed since the last publish (its content stamp is
    # the one in the site's marker): the site was left as it was, not rebuilt
    unchanged: bool = False

    # what the site's marker keeps for a publish that finds nothing changed
    COUNTED = ("events", "players", "matches", "pages", "replays", "replay_events")

    def counts(self) -> dict:
        return {name: getattr(self, name) for name in self.COUNTED}

    @property
    def changed(self) -> bool:
        """Whether the published site differs from the one it replaced beyond the
        publication time (a first publish: yes)."""
        return bool(self.changed_files is None or self.changed_files or self.removed_files
                    or self.dropped or self.removed_leftovers)

    def to_json(self) -> dict:
        return {"out": str(self.out), "languages": self.languages,
                "languages_from": self.languages_from, "events": self.events,
                "players": self.players, "matches": self.matches, "pages": self.pages,
                "rendered": self.rendered, "reused": self.pages - self.rendered,
                "replays": self.replays, "replay_events": self.replay_events,
                "new_site": self.changed_files is None,
                "changed_files": self.pages if self.changed_files is None
                else self.changed_files,
                "stamp_only": self.stamp_only, "removed_files": self.removed_files,
                "jobs": self.jobs, "missing_catalogues": self.missing_catalogues,
                "kept": self.kept, "dropped": self.dropped,
                "removed_leftovers": self.removed_leftovers,
                "unchanged": self.unchanged, "seconds": round(self.seconds, 3),
                "timings": {k: round(v, 3) for k, v in self.timings.items()}}


def publish(engine: Engine, out: str | os.PathLike, *, events: Sequence[str] = (),
            langs: Sequence[str] = (), replays: bool = True,
            now: dt.datetime | None = None, background_cleanup: bool = False,
            jobs: int | None = None, force: bool = False,
            incremental: bool = True) -> PublishReport:
    """Build the site from the database into ``out``: a new site swapped in whole, or
    the changed files of a site published there before written into it, each whole
    (see "Writing the site" above).

    ``jobs``: render in that many processes; ``None`` or 0, one per CPU when the
    work is big enough to gain from it (see :meth:`SiteBuilder._in_workers`).
    ``incremental``: keep the pages of the site in ``out`` whose content is
    unchanged (no rendering) and write the others into it; False renders every page
    and swaps a new site in.
    ``force``: drop the files in ``out`` that publish did not write instead of
    carrying them into the new site (:mod:`.folders`).

    ``background_cleanup`` deletes the replaced site in a detached process (the
    command line does); otherwise before returning."""
    started = time.perf_counter()
    automatic = not jobs
    jobs = resolve_jobs(jobs or 0)
    target = prepare_target(out, protect=database_files(engine))
    # What exists before the publish (the modules and what they hold) and the old
    # site's manifest (frozen once read) stay out of the collector's sight: a full
    # collection, set off by the rows read, walked them every time (0.23 CPU s of a
    # publish after one result at 16,000 players went to the collector, most of it
    # in three full collections over the modules and the manifest's ~100,000 objects).
    with site_lock(target), frozen(young=BULK_YOUNG):  # publishes into one folder take turns
        stale = leftovers(target)
        discard(stale, background=background_cleanup)
        marker = read_marker(target) if target.is_dir() else None
        now = now or dt.datetime.now(dt.UTC)
        with reading(engine) as session:
            reader = SiteReader(session)
            settings = site_settings(session)
            # one stamp of everything the site shows and how it was asked for: equal to
            # the last publish's, the site there is the one this would build
            content = reader.content_stamp(now.date())

            def site_stamp(languages: Sequence[str]) -> str:
                return content_key(code_digest(), "site", content, settings.to_json(),
                                   sorted(events), list(languages), replays)

            # ... and the site's folders as that publish left them (no file added,
            # removed or renamed there since: those publish would carry, drop or refuse)
            if incremental and not force and marker is not None and marker.get("stamp") == \
                    site_stamp(choose_languages(langs, ()) if langs
                               else marker.get("languages") or []) \
                    and same_folder_times(target, marker.get("folders")):
                return unchanged_site(target, marker, langs, stale, started)
            previous = read_manifest(target) if target.is_dir() else None
            gc.freeze()  # the manifest lives as long as the publish (see above)
            # A site publish wrote and listed is updated where it is (the changed files
            # renamed into place, :func:`write_in_place`); a first publish, or one that
            # renders everything, builds the whole site beside it and swaps it in.
            in_place = incremental and previous is not None
            infos = reader.events(now.date())
            known = {e.slug: e for e in infos}
            for slug in events:
                if slug not in known:
                    from tourney.tournament.events import unknown_event  # a failure's only

                    raise unknown_event(slug, sorted(known))
            published = [] if langs else previous_languages(target, previous)
            chosen_for = [known[s] for s in events] if events else infos
            languages = choose_languages(langs or published, chosen_for)
            report = PublishReport(target, languages)
            report.languages_from = ("option" if langs else "last publish" if published
                                     else "events" if any(e.lang for e in chosen_for)
                                     else "default")
            report.removed_leftovers = [p.name for p in stale]
            report.missing_catalogues = [lang for lang in languages if not has_catalogue(lang)]
            replay_ids = ({known[s].id for s in events} if events else {e.id for e in infos}) \
                if replays else set()
            report.replay_events = [e.slug for e in infos if e.id in replay_ids]
            try:
                build = BuildFolder(target)
            except OSError as err:
                raise write_error(err, target) from None
            old_site = None
            # no file added, removed or renamed in the site since the last publish
            # (its folders' times): its files are those that publish left
            untouched = in_place and marker is not None \
                and same_folder_times(target, marker.get("folders"))
            try:
                builder = SiteBuilder(build.path, reader, infos, languages, now, report,
                                      previous=Previous(target, previous)
                                      if incremental and previous else None, settings=settings,
                                      live=in_place, trusted=untouched)
                builder.build(replay_ids, jobs=jobs, engine=engine, automatic=automatic)
                if untouched and _path_list(marker.get("foreign")):
                    # the files publish did not write that the last publish kept (it left
                    # no symbolic link): not a walk of the site's every file (a big
                    # league's tens of thousands) on each publish
                    foreign, links = list(marker["foreign"]), []
                else:
                    foreign, links = (foreign_files(target, previous) if target.is_dir()
                                      else ([], []))
                report.dropped = links
                if foreign and force:
                    report.dropped = sorted(foreign + links)
                elif foreign:
                    clash = (conflicts(build.path, foreign) if not in_place
                             else builder.clashes(foreign))
                    if clash:
                        raise TourneyError(Message(
                            N_("%(folder)s holds files publish did not write at paths the new "
                               "site uses: %(files)s; move them away, or drop every file "
                               "publish did not write"),
                            {"folder": str(out), "files": describe(clash)}), setting="force")
                    if not in_place:
                        carry_foreign(target, build.path, foreign)
                    report.kept = foreign
                marker_content = {"generator": f"tourney {__version__}", "languages": languages,
                                  "built_at": now.isoformat(timespec="seconds"),
                                  "stamp": site_stamp(languages), "counts": report.counts(),
                                  "foreign": report.kept}
                if in_place:
                    placed = compare_sites(build.path, target, previous, builder, report,
                                           report.dropped)
                    try:
                        write_in_place(build.path, target, previous, builder, placed,
                                       report.dropped, marker_content)
                    except OSError as err:
                        raise write_error(err, target, partly=True) from None
                else:
                    if previous is not None:
                        compare_sites(build.path, target, previous, builder, report)
                    builder.write_manifest()
                    build.write_marker({**marker_content, "folders": folder_times(build.path)})
                    old_site = swap_into_place(build.path, target)
            except OSError as err:
                build.remove()
                raise write_error(err, target) from None
            except BaseException:
                build.remove()
                raise
            if in_place:
                build.remove()
            build.release()
        discard([old_site] if old_site else [], background=background_cleanup)
        report.seconds = time.perf_counter() - started
        return report


def _path_list(value) -> bool:
    """Whether a marker's value is a list of relative paths (a marker is a file in
    the site: anything may be in it)."""
    return isinstance(value, list) and all(
        isinstance(rel, str) and rel and not rel.startswith("/") and ".." not in rel.split("/")
        for rel in value)


def unchanged_site(target: Path, marker: dict, langs: Sequence[str], stale: list[Path],
                   started: float) -> PublishReport:
    """The report of a publish that found the site unchanged (the same stamp):
    its counts as the last publish recorded them; nothing rendered or written."""
    report = PublishReport(target, list(marker.get("languages") or []), unchanged=True,
                           changed_files=0, languages_from="option" if langs
                           else "last publish")
    counts = marker.get("counts")
    for name in PublishReport.COUNTED:
        value = counts.get(name) if isinstance(counts, dict) else None
        if isinstance(value, type(getattr(report, name))):
            setattr(report, name, value)
    report.missing_catalogues = [lang for lang in report.languages if not has_catalogue(lang)]
    report.removed_leftovers = [p.name for p in stale]
    report.seconds = time.perf_counter() - started
    return report


def publication_stamps(old: Path, builder: "SiteBuilder") -> list[tuple[bytes, bytes]]:
    """The publication time as the site in ``old`` wrote it (its pages and open
    data) and as this publish writes it, each pair that differs."""
    try:
        before = dt.datetime.fromisoformat((read_marker(old) or {})["built_at"])
    except (ValueError, KeyError, TypeError):
        return []
    stamps = [(opendata.moment(before), opendata.moment(builder.now))]
    stamps += [(r.datetime(before), r.datetime(builder.now)) for r in builder.renderers]
    return [(a.encode("utf-8"), b.encode("utf-8")) for a, b in stamps if a != b]


def stamp_only(new_bytes: bytes, old_bytes: bytes, stamps: list[tuple[bytes, bytes]]) -> bool:
    """Whether two versions of a file differ only in the publication time."""
    for a, b in stamps:
        old_bytes = old_bytes.replace(a, b)
    return bool(stamps) and new_bytes == old_bytes


def compare_sites(build: Path, old: Path, manifest: dict, builder: "SiteBuilder",
                  report: PublishReport, dropped: Iterable[str] = ()) -> list[str]:
    """Fill ``report``'s comparison of the files rendered into ``build`` with those
    of the site in ``old``: a reused file (kept, or a hard link) or one with the same
    bytes is unchanged; one that differs only in the publication time (the old
    site's, as its pages and open data wrote it, against this one's) is counted
    apart. Returns the files whose bytes differ or are new: those a publish into
    the live site writes there (a file rendered with the bytes it has is left as it
    is); ``dropped``: files in ``old`` that publish did not write and drops, so the
    new file is written in their place."""
    stamps = publication_stamps(old, builder)
    changed = 0
    placed = []
    reused = builder.reused
    dropped = set(dropped)
    for rel in builder.files:
        if rel in reused:  # kept or linked from the old site: the same bytes
            continue
        new_path, old_path = build / rel, old / rel
        try:
            if rel in dropped:
                raise FileNotFoundError(rel)
            if os.path.samefile(new_path, old_path):
                continue
            old_bytes = old_path.read_bytes()
        except OSError:  # not in the old site (or not a file publish can read)
            changed += 1
            placed.append(rel)
            continue
        new_bytes = new_path.read_bytes()
        if new_bytes == old_bytes:
            continue
        placed.append(rel)
        if stamp_only(new_bytes, old_bytes, stamps):
            report.stamp_only.append(rel)
        else:
            changed += 1
    report.changed_files = changed
    report.removed_files = sum(1 for rel in manifest.get("files", {})
                               if rel not in builder.files)
    return placed


def write_in_place(build: Path, site: Path, manifest: dict, builder: "SiteBuilder",
                   placed: Sequence[str], dropped: Sequence[str], marker: dict) -> None:
    """Update the live site in ``site`` to the one built: each file of ``placed``
    renamed from the build folder over its path in the site, the pages a page links
    to before it (:meth:`SiteBuilder.placing_order`), then the files of the old
    site the new one has not removed, then the manifest and the marker.

    A publish killed on the way leaves a site whose pages' links resolve (a page
    is put in place after the new pages it links to) and a manifest that has the
    files being written with no key (and the events read again, whose files they
    may be, with none), so the next publish renders them again and converges on
    the site a full publish builds. The files the site had and this publish
    removes are listed until the new manifest replaces the old one."""
    old_files = manifest["files"]
    pending = dict(manifest)
    pending["files"] = {**old_files, **dict.fromkeys(placed, "")}
    records = builder.event_records
    pending["events"] = {
        event_id: record if records.get(event_id) is record or not isinstance(record, dict)
        else {**record, "key": ""}
        for event_id, record in manifest.get("events", {}).items()}
    replace_file(site / MANIFEST, manifest_bytes(pending))
    for rel in set(dropped).difference(placed):  # never publish's: not in its manifest
        remove_file(site, rel)
    base, live = os.fspath(build), os.fspath(site)
    for rel in sorted(placed, key=builder.placing_order):
        place_file(os.path.join(base, rel), os.path.join(live, rel))
    for rel in old_files:
        if rel not in builder.files:
            remove_file(site, rel)
    replace_file(site / MANIFEST, manifest_bytes(builder.manifest()))
    # The marker holds the folders' times (the next publish's test that nothing was
    # added, removed or renamed since); writing it touches the site's own folder,
    # whose time is then put back as recorded.
    times = folder_times(site)
    replace_file(site / SITE_MARKER, marker_bytes({**marker, "folders": times}))
    os.utime(site, ns=(time.time_ns(), times["."]))


def database_files(engine: Engine) -> list[str]:
    """The files of an SQLite database (none for a server database)."""
    if engine.url.get_backend_name() != "sqlite":
        return []
    name = engine.url.database or ""
    if name.startswith("file:"):  # a read-only engine's URI
        name = urllib.parse.unquote(name.removeprefix("file:").split("?")[0])
    if not name or name == ":memory:":
        return []
    return [name]


def resolve_jobs(jobs: int) -> int:
    if jobs < 0:
        raise InvalidValue("jobs", jobs, Message(N_("0 (one per CPU) or a positive number")))
    if jobs == 0:
        return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                   else (os.cpu_count() or 1))
    return jobs


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


def previous_languages(target: Path, manifest: dict | None) -> list[str]:
    """The languages of the site published in ``target`` (the default of the next
    publish into it): its manifest's, else its marker's (a site published before
    the manifest kept them); empty when there is no site or they are unreadable."""
    found = manifest.get("languages") if manifest else None
    if found is None and manifest is not None:
        found = (read_marker(target) or {}).get("languages")
    if not isinstance(found, list):
        return []
    languages = []
    for lang in found:
        try:
            code = normalize_language(lang) if isinstance(lang, str) else None
        except UsageError:
            code = None
        if code and code not in languages:
            languages.append(code)
    return languages


class Previous(NamedTuple):
    """The site being replaced and its manifest: the pages a publish may reuse."""

    folder: Path
    manifest: dict


_CODE_DIGEST: list[str] = []


def code_digest() -> str:
    """A digest of the code and files that make pages (templates, styles, message
    catalogues, the site and standings code): any change renders every page."""
    if not _CODE_DIGEST:
        _CODE_DIGEST.append(source_digest(
            [PACKAGE_DIR, TOURNEY_DIR], (".py", ".html", ".css", ".js", ".mo", ".json")))
    return _CODE_DIGEST[0]


def content_key(*parts) -> str:
    """A page's key: a digest of everything its content is made of."""
    return hashlib.blake2b(pickle.dumps(parts, protocol=5), digest_size=16).hexdigest()


def row_digest(row: tuple) -> bytes:
    """A digest (16 bytes) of a row of plain values (numbers, text, None, bytes and
    tuples of them), marshalled in format 2: equal rows give equal bytes whatever
    objects hold the values (format 3 on refers back to an object met before); a
    row marshal cannot write is pickled."""
    try:
        data = marshal.dumps(row, 2)
    except ValueError:
        data = pickle.dumps(row, protocol=5)
    return hashlib.blake2b(data, digest_size=16).digest()


# ------------------------------------------------------------------------ rendering

class PointColumn(NamedTuple):
    """How a column of match points is shown (:meth:`Renderer.point_column`)."""
    halves: bool  # wholes and halves, a half as "½"
    decimals: int  # else every value with these decimals


_TEMPLATE_CACHE: list = []


def template_cache():
    """The compiled templates, kept between publishes in the user's cache folder
    (``$XDG_CACHE_HOME/tourney/site-templates``, made private to the user), each
    known by its path and a digest of its source: compiling a publish's templates
    took about a third of a publish after one result. None (each publish compiles
    them) where that folder cannot be made."""
    if not _TEMPLATE_CACHE:
        from jinja2 import FileSystemBytecodeCache

        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
            os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "tourney", "site-templates")
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            found = os.stat(folder)  # the user's alone: a compiled template is code
            usable = found.st_uid == os.getuid() and not found.st_mode & 0o022
        except (OSError, AttributeError):
            usable = False
        _TEMPLATE_CACHE.append(FileSystemBytecodeCache(folder) if usable else None)
    return _TEMPLATE_CACHE[0]


class Renderer:
    """One language: its jinja2 environment, names and number and date formats."""

    def __init__(self, lang: str, prefix: str, languages: Sequence[str], now: dt.datetime,
                 settings: SiteSettings | None = None):
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
                          trim_blocks=True, lstrip_blocks=True, auto_reload=False,
                          bytecode_cache=template_cache())
        env.install_gettext_translations(self.translations, newstyle=True)
        env.globals.update(template_callables(self.translations))
        self._numbers: dict[Any, str] = {}
        self.numbers = NumberFormat(self.locale)
        env.filters.update(
            num=self.number, dec1=self.decimal1, dec2=self.decimal2, date=self.date,
            card=lambda c: self.names.card_html[c], cards=self.names.cards_html)
        env.filters["score"] = self.score
        env.filters["seat"] = seat_number  # seats as people count them, from 1
        env.filters["points"] = self.match_points
        env.filters["score_decimals"] = self.score_decimals
        env.filters["decimals"] = self.decimals  # a column's decimals, alike in every row
        env.filters["point_column"] = self.point_column
        # the standings' columns: enough decimals to show what decided each place
        env.filters["standing_decimals"] = standing_decimals
        env.globals.update(
            names=self.names, lang=self.html_lang, event_text=self.event_text,
            square_at=square_at,
            generated=self.datetime(now), rating_chart=self.chart,
            site_title=settings.title if settings else None,
            site_organisation=settings.organisation if settings else None)
        self.env = env
        self._templates: dict[str, Any] = {}
        self.languages = list(languages)

    def template(self, name: str):
        template = self._templates.get(name)
        if template is None:
            template = self._templates[name] = self.env.get_template(name)
        return template

    # ---- formats

    def number(self, value, decimals: int | None = None) -> str:
        """A score or points as the terminal shows it (tourney.numbers) in the
        page's language: with ``decimals`` (a column's, :meth:`decimals`), else
        the value's own (a number standing alone)."""
        if value is None:
            return ""
        if decimals is None:
            decimals = shown_decimals(value)
        key = (value, decimals)
        text = self._numbers.get(key)
        if text is None:
            text = self._numbers[key] = self.numbers.format(value, decimals, decimals)
        return text

    @staticmethod
    def decimals(values) -> int:
        """The decimals of a column of numbers (tourney.numbers.column_decimals),
        for ``{% set d = rows|map(attribute="points")|decimals %}`` and
        ``row.points|num(d)``."""
        return column_decimals(values)

    @staticmethod
    def point_column(values, decimals: int | None = None) -> PointColumn:
        """How a column of match points is shown: as halves ("½", "1½", "2") when
        every value is a whole or a half (a drawn game), else with ``decimals``
        (default: the column's, :func:`~tourney.numbers.column_decimals`; the
        standings pass :func:`~tourney.tournament.standings.standing_decimals`)
        like any number."""
        values = [v for v in values if v is not None]
        halves = all(float(2 * v).is_integer() for v in values)
        return PointColumn(halves and any(not float(v).is_integer() for v in values),
                           column_decimals(values) if decimals is None else decimals)

    def match_points(self, value, column: PointColumn | None = None) -> str:
        """A match's points in its column (:meth:`point_column`; None: a column
        of one): a half as "½" (a draw: "½", "1½") in a column of halves, else
        as :meth:`number` with the column's decimals."""
        if value is None:
            return ""
        if column is None:
            column = self.point_column((value,))
        if column.halves:
            return halves_text(value, self.number)
        return self.number(value, column.decimals)

    def score(self, text, decimals: int | None = None) -> str:
        """A score as stored (canonical text: "25", "0.5") in the page's locale,
        with its column's decimals (:meth:`score_decimals`)."""
        value = _score_value(str(text))
        return self.number(value, decimals) if not isinstance(value, str) else value

    @staticmethod
    def score_decimals(texts) -> int:
        """The decimals of a column of scores as stored (text that is not a number
        left out)."""
        return column_decimals(v for v in map(_score_value, map(str, texts))
                               if not isinstance(v, str))

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
        formatted for the locale, a nested message is said in turn."""
        if not message.translate:
            return message.msgid
        params = {}
        for key, value in message.params.items():
            if isinstance(value, (list, tuple)) and not isinstance(value, Cards):
                value = comma_words(value) if value else ""  # a list as data
            if isinstance(value, Message):
                params[key] = self.message(value, seat_names)
            elif isinstance(value, Quoted):
                params[key] = quoted_in(value, self.gettext(QUOTED))
            elif isinstance(value, Seat):
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

    def round_summary(self, tables: int, results: int, forfeits: int, byes: int) -> str:
        """A round in the event's Atom feed, in this language: ``2 tables, 1 result
        (1 by a forfeit), 0 byes``."""
        results_words = (
            self.ngettext("%(count)s result (%(forfeits)s by a forfeit)",
                          "%(count)s results (%(forfeits)s by a forfeit)", results)
            if forfeits else self.ngettext("%(count)s result", "%(count)s results", results))
        parts = [self.ngettext("%(count)s table", "%(count)s tables", tables)
                 % {"count": tables},
                 results_words % {"count": results, "forfeits": forfeits},
                 self.ngettext("%(count)s bye", "%(count)s byes", byes) % {"count": byes}]
        # each comma the catalogue's (tourney.errors.words.comma_words)
        said = parts[-1]
        for earlier in reversed(parts[:-1]):
            said = self.gettext("%(first)s, %(then)s") % {"first": earlier, "then": said}
        return said

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

    bye = False
    forfeit = False

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
    byes: tuple[int, ...] = ()  # the rounds the player had a bye in
    # the place, points and matches are after this round, the last one with every
    # result in, while a later round is being played (None: as the event stands)
    after_round: int | None = None
    # the arbiter's, in flat tuples of plain values (the manifest keeps the rows):
    # the rounds of the forfeited tables the player sat at, whether the player was
    # absent there and the reason; the adjustments' points, reasons and rounds
    forfeits: tuple[int, ...] = ()
    forfeit_absent: tuple[bool, ...] = ()
    forfeit_reasons: tuple[str | None, ...] = ()
    adjustments: tuple[float, ...] = ()
    adjustment_reasons: tuple[str, ...] = ()
    adjustment_rounds: tuple[int | None, ...] = ()


class MatchRef(NamedTuple):
    """A match a rating history links to: its event and round."""
    event_id: int
    round: int


class PlayerBye(NamedTuple):
    """A round a player sat out with a bye: a row among the matches of the
    player's page."""
    event_id: int
    round: int
    points: float
    bye = True
    forfeit = False


class PlayerForfeit(NamedTuple):
    """A round whose table was forfeited (the player absent, or the table's others
    scored a bye's worth): a row among the matches of the player's page."""
    event_id: int
    round: int
    points: float
    absent: bool
    reason: str | None
    bye = False
    forfeit = True


@dataclass
class GridCell:
    kind: str  # "match", "pending", "forfeit", "bye", "none"
    match_id: int | None = None
    place: int | None = None
    size: int = 0
    points: float | None = None
    table: str | None = None
    opponent_rank: int | None = None
    shared: bool = False  # another player at the table had the same place (a draw)
    absent: bool = False  # a forfeit's: the player did not play
    reason: str | None = None  # a forfeit's, if given


class RoundPart(NamedTuple):
    """A page of a big round's tables: its number (from 1), its tables, the labels of
    its first and last table and the position in the round (from 1) of its first."""
    number: int
    tables: list[TableData]
    first: str
    last: str
    start: int

    @property
    def results_in(self) -> int:
        """The tables decided: with a result in, or forfeited."""
        return sum(1 for t in self.tables if t.decided)


def round_parts(rnd: RoundData) -> list[RoundPart]:
    """A big round's pages of tables, :data:`ROUND_PART_TABLES` each, in the round's
    table order; none for a round that fits on its own page. The parts follow the
    seating alone, so a result never moves a table to another page."""
    size = ROUND_PART_TABLES
    tables = rnd.tables
    if len(tables) <= size:
        return []
    return [RoundPart(i // size + 1, tables[i:i + size], tables[i].label,
                      tables[min(i + size, len(tables)) - 1].label, i + 1)
            for i in range(0, len(tables), size)]


def event_player_ids(data: EventData) -> set[int]:
    """The players an event's pages show: entered, seated or placed (the standings
    are of these)."""
    ids = {e.player_id for e in data.entries}
    # flat lists, one update each (a big event's tens of thousands of seats and places)
    ids.update([pid for rnd in data.rounds for table in rnd.tables for pid in table.players])
    ids.update([pid for rnd in data.rounds for pid in rnd.byes])
    ids.update([p.player_id for match in data.matches for p in match.places])
    return ids


def seats_by_table_size(data: EventData) -> dict[int, dict[int, int]]:
    """Per player: table size -> rounds seated at a table of that size (byes left out)."""
    counts: dict[int, dict[int, int]] = {}
    for rnd in data.rounds:
        for table in rnd.tables:
            size = len(table.players)
            for pid in table.players:
                mine = counts.setdefault(pid, {})
                mine[size] = mine.get(size, 0) + 1
    for row in data.standings:
        counts.setdefault(row.player_id, {})
    return counts


def write_file(path: str, data: bytes) -> None:
    """One file, written with the bare system calls (no buffered file object).
    Never through an existing name: the build folder's files may be hard links
    to the live site's (reused pages), which must not change."""
    try:
        fd = os.open(path, _WRITE_FLAGS, 0o644)
    except FileExistsError:
        os.unlink(path)
        fd = os.open(path, _WRITE_FLAGS, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
# Below this many pages to render, forking workers costs more than it saves (a
# fork and a worker's connection cost tens of milliseconds, a page one to ten):
# the hundred players of the event a league night changed are worth sharing out.
AUTO_JOBS_MIN_PAGES = 100


# what the manifest keeps of a round (SiteBuilder._round_part)
PART_FIELDS = frozenset(("stamp", "row", "seating", "list", "complete", "feed", "matches",
                         "standings", "extra", "of"))


class _ReadEveryRound(Exception):
    """An event's outputs need a round :meth:`SiteReader.event_data` did not read (an
    output that shows every round, or one of the round's own, must be made again):
    the event is read again whole (:meth:`SiteBuilder._event`)."""


class SiteBuilder:
    """Renders every page of the site into a build folder.

    Incremental publishing: with ``previous`` (the site being replaced and its
    manifest), a page whose content key is the one it had there is kept instead of
    rendered (``live``: left in the site, which :func:`write_in_place` then updates
    with what the build holds; else hard-linked into the build), so it stays
    byte-identical. Keys: an event's pages share one (:meth:`event_key`: the event
    row, its content stamp, which triggers in the database change on any write to
    its rows, its players' names, the code digest and the site's settings), so an
    unchanged event's rows are never read, and of a changed event only the rounds
    whose own content stamp changed (:meth:`_event`); a player's page has its own
    (:meth:`player_key`: the player's name and ratings and the keys of the player's
    events), so only the matches of the players whose pages are rendered are read;
    the players' list, the leaderboards and their open data have keys of what they
    show (the results of complete rounds, :meth:`SiteReader.boards_before`); the
    index and the open data index are rendered every time (they show when the site
    was published: the only pages that do)."""

    def __init__(self, build_dir: Path, reader: SiteReader, events: list[EventInfo],
                 languages: list[str], now: dt.datetime, report: PublishReport,
                 previous: Previous | None = None, settings: SiteSettings | None = None,
                 live: bool = False, trusted: bool = False):
        self.build_dir = build_dir
        # live: the site is updated where it is (:func:`write_in_place`): a page kept
        # stays there, not linked into the build, which holds only what is rendered;
        # trusted: the site's folders are as the last publish left them (no file
        # added, removed or renamed since), so a kept page is there without a look
        self.live = live and previous is not None
        self.trusted = trusted
        self.reader = reader
        self.events = events
        self.events_by_id = {e.id: e for e in events}
        self.languages = languages
        self.now = now
        self.report = report
        self.previous = previous
        self.links = Links(events)
        self.settings = settings or SiteSettings()
        self.renderers = [Renderer(lang, "" if i == 0 else f"{lang}/", languages, now,
                                   self.settings)
                          for i, lang in enumerate(languages)]
        self._dirs: set[str] = set()
        self._link_maps: dict[str, tuple[PlayerLinks, EventLinks]] = {}
        self.players: dict[int, PlayerInfo] = {}
        self.player_matches: dict[int, list[PlayerMatch]] = {}
        self.player_events: dict[int, list[PlayerEvent]] = {}
        self.site_key = content_key(code_digest(), languages, self.settings.to_json())
        self.files: dict[str, str] = {}  # path in the site -> content key ("": always built)
        self.reused: set[str] = set()  # the files linked from the old site
        self._old_by_key: dict[str, list[str]] | None = None  # _files_by_key
        self.event_records: dict[str, dict] = {}  # event id -> its key, files, player rows
        self._collecting: list[str] | None = None  # the current event's files
        self._name_rows: dict[int, tuple] | None = None  # see _names
        # the matches of rounds being played, by id: (event id, round); the site-wide
        # lists leave them out until their round is complete
        self.pending: dict[int, tuple[int, int]] = {}
        self._memo: dict[tuple, Any] = {}  # per event: keys' parts worked out once
        # per event: the record of each round's outputs as a whole (see event_pages)
        self._round_records: dict[str, list] = {}
        self._boards_read = False  # see _load_boards
        self._being_played: dict[str, list[tuple[int, int]]] = {}
        # per game: its board's mark, the names' digest, top and counts (for the index)
        self.board_summaries: dict[str, dict] = {}
        self._names_digest: str | None = None  # of every player's name row
        self.basis: dict = {}  # see _basis
        self.match_counts_record: dict = {}  # see _match_counts
        self.board_marks_record: dict = {}  # see _board_marks
        # the matches of the history rows appended since the old site (None: not
        # only appended, or not known; see _players_changed)
        self._rated_since: set[int] | None = None

    # ---- writing

    def write(self, renderer: Renderer | None, path: str, data: str | bytes,
              key: str = "") -> None:
        """A file of the site: a page in ``renderer``'s tree, or (no renderer) a
        file at the site's root shared by every language."""
        rel = (renderer.prefix if renderer is not None else "") + check_relpath(path)
        write_file(self._place(rel), data.encode("utf-8") if isinstance(data, str) else data)
        self.files[rel] = key
        if self._collecting is not None:
            self._collecting.append(rel)
        self.report.pages += 1
        self.report.rendered += 1

    def _place(self, rel: str) -> str:
        """The full path of a file of the site in the build, its folder made."""
        full = os.path.join(self.build_dir, rel)
        parent = os.path.dirname(full)
        if parent not in self._dirs:
            os.makedirs(parent, exist_ok=True)
            self._dirs.add(parent)
        return full

    def reuse(self, rels: Sequence[str], key: str = "", looked: bool = False) -> bool:
        """Keep these files of the old site: in the live site where they are (a
        look that each is there, unless the site is untouched since its publish or
        the caller ``looked``), else hard-linked into the build (a copy where links
        are not possible); False, with nothing left behind, if one is missing."""
        if self.previous is None:
            return False
        if self.live:
            if not self.trusted and not looked and not all(
                    os.path.isfile(os.path.join(self.previous.folder, rel)) for rel in rels):
                return False
        else:
            done = []
            for rel in rels:
                try:
                    link_or_copy(os.path.join(self.previous.folder, rel), self._place(rel))
                except FileNotFoundError:
                    for undo in done:
                        os.unlink(os.path.join(self.build_dir, undo))
                    return False
                done.append(rel)
        # a file reused as part of a whole (an unchanged event) keeps the key it had
        # of its own (a match's page): the next publish can still reuse it alone
        had = self.previous.manifest["files"]
        for rel in rels:
            self.files[rel] = key or had.get(rel, "")
        self.reused.update(rels)
        if self._collecting is not None:
            self._collecting.extend(rels)
        self.report.pages += len(rels)
        return True

    def link_maps(self, root: str) -> tuple[PlayerLinks, EventLinks]:
        maps = self._link_maps.get(root)
        if maps is None:
            maps = self._link_maps[root] = (PlayerLinks(root, self.players),
                                            EventLinks(root, self.links, self.events_by_id))
        return maps

    def page(self, template: str, path: str, per_language: Callable | None = None,
             key: str = "", **context) -> None:
        """Render one page in every language; one render per page and language.
        ``per_language(renderer)`` adds context that depends on the language.
        With a ``key`` the old site's page is reused if it had the same key."""
        if key and self.previous is not None:
            rels = [renderer.prefix + path for renderer in self.renderers]
            old = self.previous.manifest["files"]
            if all(old.get(rel) == key for rel in rels) and self.reuse(rels, key):
                return
        root = root_of(path)
        player_links, event_links = self.link_maps(root)
        for renderer in self.renderers:
            switcher = self.switcher(renderer, path, root) if len(self.renderers) > 1 else []
            extra = per_language(renderer) if per_language is not None else {}
            html = renderer.template(template).render(
                root=root, path=path, links=self.links, players=self.players,
                events_by_id=self.events_by_id, switcher=switcher, P=player_links,
                E=event_links, **context, **extra)
            self.write(renderer, path, html, key)

    def switcher(self, current: Renderer, path: str, root: str) -> list[dict]:
        up = "../" if current.prefix else ""
        items = []
        for other in self.renderers:
            items.append({
                "lang": other.lang,
                "name": language_name(other.lang),
                "href": root + up + other.prefix + path,
                "current": other is current,
            })
        return items

    def manifest(self) -> dict:
        """What this publish wrote, for the next one (:mod:`.folders`)."""
        return {"format": 1, "generator": f"tourney {__version__}",
                "languages": self.languages, "basis": self.basis,
                "files": self.files, "events": self.event_records,
                "boards": self.board_summaries, "match_counts": self.match_counts_record,
                "board_marks": self.board_marks_record}

    def write_manifest(self) -> None:
        write_file(os.path.join(self.build_dir, MANIFEST), manifest_bytes(self.manifest()))

    def clashes(self, foreign: Sequence[str]) -> list[str]:
        """The files publish did not write (``foreign``) at a path the new site uses,
        or where it needs a folder."""
        folders = set()
        for rel in self.files:
            parts = rel.split("/")[:-1]
            folders.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
        return [rel for rel in foreign if rel in self.files or rel in folders]

    # What a page links to is put in place before it (:func:`write_in_place`), so a
    # publish stopped half-way leaves no page reachable from the index with a link to
    # a page not there yet: the styles, an event's open data, replays, matches,
    # players' pages, a big round's pages of tables, rounds, score sheets, venue
    # screens, feeds and event pages, then the site-wide lists, the index and its
    # open data. (A page that links to one that links back, a match and its replays,
    # a new player and their first match, is reachable only through the later one.)
    PLACING = tuple((re.compile(pattern), tier) for pattern, tier in (
        (r"static/", 0), (r"events/[^/]+/match-\d+-deal-", 2), (r"events/[^/]+/match-", 3),
        (r"players/index\.html$", 8), (r"players/", 4), (r"events/[^/]+/round-\d+-part-", 5),
        (r"events/[^/]+/(round-|screen\.html$)", 6),
        (r"events/[^/]+/(feed\.atom|index\.html)$", 7), (r"events/", 1),
        (r"(index\.html|data/index\.json)$", 9)))

    def placing_order(self, rel: str) -> tuple[int, str]:
        """Where a file of the site comes in :func:`write_in_place` (the lower the
        sooner), and its path."""
        path = rel
        for renderer in self.renderers:
            if renderer.prefix and rel.startswith(renderer.prefix):
                path = rel[len(renderer.prefix):]
                break
        for pattern, tier in self.PLACING:
            if pattern.match(path):
                return tier, rel
        return 8, rel  # leaderboards, series, the players' list, site-wide open data

    # ---- content keys

    def _names(self, player_ids: Iterable[int]) -> list[tuple]:
        rows = self._name_rows
        if rows is None:  # a row per player, made once (every key needs some)
            rows = self._name_rows = {pid: (pid, p.name, p.club, p.merged_into)
                                      for pid, p in self.players.items()}
        return [rows.get(pid) or (pid, None) for pid in sorted(player_ids)]

    def event_key(self, info: EventInfo, with_replays: bool, names: str) -> str:
        """An event's pages' key: its info (with its content stamp, which changes
        with any write to its rows), whether it has replays (:meth:`_event_info_key`),
        and the names of the players in it (entered, seated or placed), by their
        digest (``names``). Its rows are not read: the stamp stands for them."""
        return content_key(self._event_info_key(info, with_replays), names)

    def _event_info_key(self, info: EventInfo, with_replays: bool) -> str:
        return content_key(self.site_key, "event", info, with_replays)

    @staticmethod
    def _event_ref(info: EventInfo) -> tuple:
        """What a player's page shows of an event."""
        return (info.id, info.slug, info.name, info.variant, info.date, info.status,
                bool(info.results_in), info.sort_date)

    def player_key(self, player: PlayerInfo, ratings: list[dict], event_ids: set[int],
                   match_refs: dict[int, tuple[int, int]]) -> str:
        """A player's page's key: the player's name row, ratings and history, and the
        keys of the events the player is in (which stand for the player's matches,
        places and opponents' names there) and of the events of the matches the
        history links to. The player's matches are not read."""
        event_ids = set(event_ids)
        rating_parts = []
        for r in ratings:  # plain tuples: they pickle several times as fast
            entry, pool = r["entry"], r["pool"]
            # the history by its digest (the database's): it is not read for the key
            rating_parts.append((pool.variant, pool.provisional_matches,
                                 None if entry is None else astuple_entry(entry),
                                 pool.digest.get(player.id)))
            # the events of the matches it links to (whether a match has a result,
            # its event and round, are in their keys)
            event_ids.update(pool.history_events.get(player.id, ()))
        # An event the player is in stands by the player's own row (their place after
        # the last complete round), their own matches and the names of the event's
        # players, not by the event's key: one result changes few players' pages.
        records = self.event_records
        mine = {row.event_id: row for row in self.player_events.get(player.id, ())}
        refs = []
        for e in sorted(event_ids):
            if e not in self.events_by_id:
                continue
            record = records.get(str(e)) or {}
            if e in mine and isinstance(record.get("parts"), dict):
                shown = (tuple(mine[e]), self._matches_of(record, player.id),
                         record.get("names"))
            else:
                shown = record.get("key")
            refs.append((e, shown, self._event_ref(self.events_by_id[e])))
        return content_key(self.site_key, "player", rating_parts, refs,
                           self._names((player.id,)))

    @staticmethod
    def _matches_of(record: dict, player_id: int) -> tuple:
        """What a player's page shows of their own matches in an event: a digest of
        their match of each round (its parts, :meth:`_round_part`), by round."""
        pid = str(player_id)
        return tuple(part["of"].get(pid) for part in record["parts"].values())

    # ---- the whole site

    def build(self, replay_ids: set[int], jobs: int = 1, engine: Engine | None = None,
              automatic: bool = False) -> None:
        """Every page. With ``jobs`` > 1 (and ``fork``), the events' pages and then
        the players' pages that must be rendered are shared out to that many
        worker processes; ``automatic``: only when there are enough of them."""
        timings = self.report.timings
        # What lives for the whole build (the old site's manifest, read before; a big
        # league's hundreds of thousands of rows read here): out of the collector's
        # sight, so that its collections, which the build's many small objects set
        # off, stop walking them each time (the manifest's objects set off a full
        # collection while the players were read: a twentieth of a publish after
        # one result at 16,000 players).
        with frozen():
            t0 = time.perf_counter()
            self.players = self.reader.players()
            self._name_rows = None
            # every history only for a full build: else those of the pages to render,
            # and the leaderboards and the players' digests as far as the build needs
            pools = self.reader.pools(history=self.previous is None,
                                      lazy=self.previous is not None)
            timings["load"] = time.perf_counter() - t0
            gc.freeze()  # what was just read too (unfrozen with the rest on the way out)
            self._build(replay_ids, pools, jobs, engine, automatic)

    def _build(self, replay_ids: set[int], pools: list[PoolData], jobs: int,
               engine: Engine | None, automatic: bool) -> None:
        timings = self.report.timings
        self.report.players = sum(1 for p in self.players.values() if p.merged_into is None)
        self.report.events = len(self.events)
        can_fork = jobs > 1 and engine is not None and hasattr(os, "fork")
        languages = len(self.renderers)

        t0 = time.perf_counter()
        to_render = []
        estimate = 0
        for info in self.events:
            with_replays = info.id in replay_ids
            if not self._reuse_event(info, with_replays):
                to_render.append((info, with_replays))
                estimate += (1 + 3 * info.rounds_seated + info.tables_seated
                             + (2 * info.results_in if with_replays else 0))
        parallel = can_fork and len(to_render) > 1 and (
            not automatic or estimate * languages >= AUTO_JOBS_MIN_PAGES)
        if parallel:
            self._in_workers(engine, [to_render[i::jobs] for i in range(jobs)],
                             self._event_share)
            self.report.jobs = jobs
        else:
            self._event_share(to_render)
        timings["events"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        # The site-wide lists count the results of complete rounds (as the standings
        # do): a result of a round being played changes its own pages, not them.
        after_rounds = {int(e): r["after_round"] for e, r in self.event_records.items()
                        if r.get("after_round") is not None}
        self.pending = self.reader.results_being_played(after_rounds)
        # the rounds seated after each event's last complete one, by game
        being_played: dict[str, list[tuple[int, int]]] = {}
        for event_id, after in after_rounds.items():
            info = self.events_by_id[event_id]
            being_played.setdefault(info.variant, []).extend(
                (event_id, n) for n in range(after + 1, info.rounds_seated + 1))
        self._being_played = being_played
        changed = self._players_changed(pools)  # None: any player's page may have
        # the boards are known by what they are made of (their marks), and read and
        # ranked only when a page that shows them must be made again
        self._board_marks(pools, changed is not None)
        for pool in pools:
            pool.board_pending = sorted(being_played.get(pool.variant, ()))
        if self.previous is None:
            self._load_boards(pools)
        context = self._player_context(pools)
        summary = context["summary"]
        not_counted = sorted(r for rounds in being_played.values() for r in rounds)
        self.page("players.html", "players/index.html", key=content_key(
            self.site_key, "players", [(s["player"].id, s["events"], s["matches"])
                                       for s in summary],
            [(pool.variant, pool.board_mark) for pool in pools],  # who is rated in what
            self._all_names(), not_counted, self._pending_events(not_counted)),
            not_counted=not_counted, per_language=lambda renderer: {
                "summary": sorted(self._rated_in(pools, summary),
                                  key=lambda s: name_key(s["player"].name, renderer.lang))})
        keys = {}
        old_files = self.previous.manifest["files"] if self.previous is not None else {}
        keyed = self._keep_unchanged_players(changed, old_files)
        self._load_ratings(pools, context, keyed)
        for player_id in keyed:
            key = self._player_key(player_id, context)
            if not self._reused(self.links.player(player_id), key):
                keys[player_id] = key
        every = len(keys) * 2 > len(self.players)
        self._load_player_matches(keys, every=every)
        if self.previous is not None:
            self.reader.load_history(pools, None if every else keys)
        self._load_match_refs(pools, context, keys, every)
        pending = [self._player_page(player_id, keys[player_id], context) for player_id in keys]
        timings["player_keys"] = time.perf_counter() - t0
        parallel = can_fork and len(pending) > 1 and (
            not automatic or len(pending) * languages >= AUTO_JOBS_MIN_PAGES)
        if parallel:
            self._in_workers(engine, [pending[i::jobs] for i in range(jobs)],
                             self._render_pages, collect=False)
            self.report.jobs = jobs
        else:
            self._render_pages(pending)
        timings["players"] = time.perf_counter() - t0
        self.rating_pages(pools)
        t0 = time.perf_counter()
        series = self.series_pages()
        timings["series"] = time.perf_counter() - t0
        self.index_page(pools, series)
        self.site_data_files(pools, series)
        self.static_files()

    def _load_boards(self, pools: list[PoolData]) -> None:
        """The leaderboards and the boards the site's lists show
        (:meth:`SiteReader.boards_before`), read and ranked once, when a page that
        shows them is made."""
        if not self._boards_read:
            self.reader.boards_before(pools, self.pending, self._being_played)
            self._boards_read = True

    def _rated_in(self, pools: list[PoolData], summary: list[dict]) -> list[dict]:
        """The players' list's rows with the games each player is rated in (on the
        board) filled in."""
        if summary and "variants" not in summary[0]:
            self._load_boards(pools)
            rated: dict[int, list[str]] = {}
            for pool in pools:
                for entry in pool.board or ():
                    rated.setdefault(entry.player_id, []).append(pool.variant)
            for row in summary:
                row["variants"] = rated.get(row["player"].id, [])
        return summary

    def _load_ratings(self, pools: list[PoolData], context: dict,
                      player_ids: Sequence[int]) -> None:
        """What the keys and pages of these players need of the pools: their
        leaderboard entries, history digests and history events (every player's
        when most are asked for)."""
        if not player_ids:
            return
        if len(player_ids) * 2 > len(self.players):
            self.reader.load_boards(pools)
            self.reader.load_digests(pools, None)
            for pool in pools:
                context["entries"][pool.variant] = {e.player_id: e for e in pool.leaderboard}
            return
        self.reader.load_digests(pools, player_ids)
        for variant, found in self.reader.rating_entries(pools, player_ids).items():
            context["entries"].setdefault(variant, {}).update(found)

    def _history_players(self, pools: list[PoolData], event_id: int) -> set[int]:
        """The players whose rating history links to a match of this event."""
        if all(pool.digests_of is None for pool in pools):  # every player's read
            return {pid for pool in pools for pid, events in pool.history_events.items()
                    if event_id in events}
        return self.reader.history_players(event_id)

    def _basis(self, pools: list[PoolData]) -> dict:
        """What every player's page key rests on beside the player's own rows: the
        site's key, every player's name, and per rating pool its settings and its
        history's count, highest row id and stamp (which the database changes when a
        row is deleted or changed, not when one is appended; kept in the manifest)."""
        tops = self.reader.history_tops()
        return {"site": self.site_key, "names": self._all_names(),
                "pools": [[p.pool_id, p.variant, p.provisional_matches,
                           [*tops[p.pool_id], p.history_stamp] if p.pool_id in tops else None]
                          for p in pools]}

    def _all_names(self) -> str:
        if self._names_digest is None:
            self._names_digest = content_key(self._names(self.players))
        return self._names_digest

    def _players_changed(self, pools: list[PoolData]) -> set[int] | None:
        """The players whose page may have changed since the site replaced, found
        without working out every player's key: those rated since (history rows
        after the old site's last), those whose row, matches or event changed in an
        event read again, and every player of an event added, removed, renamed or
        whose players' names changed. None (every player's key is worked out) when
        the site's key, a name, a pool's settings changed, or a rating history lost
        rows (a correction rated matches again)."""
        self.basis = basis = self._basis(pools)
        old = self.previous.manifest.get("basis") if self.previous is not None else None
        if not isinstance(old, dict) or old.get("site") != basis["site"] \
                or old.get("names") != basis["names"] \
                or [p[:3] for p in old.get("pools") or []] != [p[:3] for p in basis["pools"]]:
            return None
        changed: set[int] = set()
        marks = {p[0]: p[3] for p in old["pools"] if p[3] is not None}
        now = {p[0]: p[3] for p in basis["pools"]}
        if any(not isinstance(mark, list) or len(mark) != 3 or now.get(pool_id) is None
               or now[pool_id][2] != mark[2] for pool_id, mark in marks.items()):
            return None  # rows removed or rewritten (a correction): not only appended
        rated: set[int] = set()  # the matches of the rows appended since
        for pool_id, mark in marks.items():
            rows = (self.reader.rated_since(pool_id, mark[1])
                    if now[pool_id][:2] != mark[:2] else set())
            if now[pool_id][0] - mark[0] != len(rows):
                return None  # not only rows after the old highest id appended
            changed.update(pid for pid, _ in rows)
            rated.update(mid for _, mid in rows)
        if any(p[3] is None and now[3] is not None
               for p, now in zip(old["pools"], basis["pools"])):
            return None  # a pool's first ratings
        self._rated_since = rated
        old_events = self.previous.manifest.get("events", {})
        history_of: dict[int, set[int]] = {}
        for event_id, record in self.event_records.items():
            had = old_events.get(event_id)
            if had is record:
                continue  # reused: the same rows
            if not isinstance(had, dict) or had.get("names") != record.get("names") \
                    or had.get("ref") != record.get("ref"):
                changed.update(record["players"])
                changed.update(had.get("players", ()) if isinstance(had, dict) else ())
            else:
                if record["players"] != had.get("players"):  # (sorted lists: one compare)
                    changed.update(set(record["players"]) ^ set(had.get("players", ())))
                if had.get("player_events") is not record["player_events"]:  # made anew
                    rows = {row[0]: row for row in had.get("player_events", ())}
                    for row in record["player_events"]:  # (the manifest's rows hold lists)
                        if rows.get(row[0]) != [list(v) if isinstance(v, tuple) else v
                                                for v in row]:
                            changed.add(row[0])
                changed.update(self._own_matches_changed(record, had))
            if not isinstance(had, dict) or had.get("key") != record.get("key"):
                # a page that links to the event's matches from its history, of a
                # player without a row in the event, is keyed by the event's key
                if int(event_id) not in history_of:
                    history_of[int(event_id)] = self._history_players(pools, int(event_id))
                changed.update(history_of[int(event_id)].difference(
                    row[0] for row in record["player_events"]))
        for event_id, had in old_events.items():
            if event_id not in self.event_records and isinstance(had, dict):
                changed.update(had.get("players", ()))
        return changed

    @staticmethod
    def _own_matches_changed(record: dict, had: dict) -> set[int]:
        """The players whose own matches in an event (:meth:`_matches_of`) differ
        between its old record and its new one: of the rounds whose part is not the
        old one itself (not read again), those whose digest differs or who have one in
        only one of them (a set of (player, digest) pairs each: compared in C)."""
        parts = record.get("parts") or {}
        old_parts = had.get("parts") if isinstance(had.get("parts"), dict) else {}
        changed: set[int] = set()
        for n in parts.keys() | old_parts.keys():
            mine, theirs = parts.get(n), old_parts.get(n)
            if mine is theirs:
                continue
            mine = mine["of"] if isinstance(mine, dict) else {}
            theirs = theirs.get("of", {}) if isinstance(theirs, dict) else {}
            if mine != theirs:
                changed.update(int(pid) for pid, _ in
                               set(mine.items()).symmetric_difference(theirs.items()))
        return changed

    def _board_marks(self, pools: list[PoolData], appended: bool) -> None:
        """Each pool's board mark and count of rated players
        (:meth:`SiteReader.board_marks`, over every rating): the old manifest's while
        what the boards are made of is as it was, which holds when the ratings'
        histories only grew since the old site (``appended``: no name, merge or
        pool's settings changed either, :meth:`_players_changed`) by the rows of
        matches of rounds being played, and the matches of rounds being played are
        those then and the matches of those rows (a board leaves them out: its
        ratings are as they stood before them)."""
        had = self.previous.manifest.get("board_marks") if self.previous is not None else None
        pending = sorted(self.pending)
        settings = {str(p.pool_id): [p.model, p.params_json] for p in pools}
        if appended and self._rated_since is not None and isinstance(had, dict) \
                and isinstance(had.get("pending"), list) \
                and isinstance(had.get("pools"), dict) \
                and set(self.pending) == set(had["pending"]) | self._rated_since \
                and all(isinstance(had["pools"].get(pool_id), list)
                        and had["pools"][pool_id][2:] == setting
                        for pool_id, setting in settings.items()):
            for pool in pools:
                pool.board_mark, pool.rated = had["pools"][str(pool.pool_id)][:2]
            self.board_marks_record = {"pending": pending, "pools": had["pools"]}
            return
        self.reader.board_marks(pools, self.pending)
        self.board_marks_record = {"pending": pending, "pools": {
            str(p.pool_id): [p.board_mark, p.rated, p.model, p.params_json] for p in pools}}

    def _pending_events(self, rounds: Iterable[tuple[int, int]]) -> list:
        """What a list's note shows of the events of rounds being played."""
        return [(e, self.events_by_id[e].name, self.links.event(e)) for e in
                sorted({event_id for event_id, _ in rounds})]

    def _board_key(self, kind: str, pool: PoolData) -> str:
        """The key of a leaderboard's page or file: what its entries as the lists
        show them are made of (the board's mark and the players' names, not the
        entries: they are not read while it is unchanged) and the rounds being
        played they leave out."""
        return content_key(self.site_key, kind, pool.variant, pool.provisional_matches,
                           pool.board_mark, self._all_names(), pool.board_pending,
                           self._pending_events(pool.board_pending))

    def _reused(self, path: str, key: str) -> bool:
        if not key or self.previous is None:
            return False
        rels = [renderer.prefix + path for renderer in self.renderers]
        old = self.previous.manifest["files"]
        return all(old.get(rel) == key for rel in rels) and self.reuse(rels, key)

    def _render_pages(self, pages: Sequence[tuple]) -> None:
        for template, path, key, context in pages:
            self.page(template, path, key=key, **context)

    def _reuse_event(self, info: EventInfo, with_replays: bool) -> bool:
        """An unchanged event (the same key, :meth:`event_key`, with the players the
        old manifest lists for it): its files linked from the old site, its
        players' rows from the old manifest (no event read, no rendering)."""
        if self.previous is None:
            return False
        old = self.previous.manifest.get("events", {}).get(str(info.id))
        if not isinstance(old, dict) or not isinstance(old.get("players"), list):
            return False
        # the event's info first: a changed event's players' names (a big event's
        # thousands) are not worked out for a key that cannot match
        info_key = self._event_info_key(info, with_replays)
        if old.get("info_key") != info_key or old.get("key") != content_key(
                info_key, content_key(self._names(old["players"]))):
            return False
        if not self.reuse(old["files"]):
            return False
        self.event_records[str(info.id)] = old
        for pid, event_row in self._player_rows(info.id, old["player_events"]):
            self.player_events.setdefault(pid, []).append(event_row)
        self.report.matches += old.get("matches", 0)
        self.report.replays += old.get("replays", 0)
        return True

    def _event_share(self, items: Sequence[tuple[EventInfo, bool]]) -> None:
        for info, with_replays in items:
            old = self._old_event(info)
            # the rounds unchanged since the old site (their stamps) are not read while
            # what the old manifest keeps of them is all the event's outputs need
            data = self.reader.event_data(info, standings=False, known=self._known_rounds(old))
            try:
                self._event(data, with_replays, old)
            except _ReadEveryRound:
                self._event(self.reader.event_data(info, standings=False), with_replays, old)

    def _old_event(self, info: EventInfo) -> dict | None:
        """The old manifest's record of an event (see :meth:`_event`), if any."""
        if self.previous is None:
            return None
        old = self.previous.manifest.get("events", {}).get(str(info.id))
        return old if isinstance(old, dict) else None

    @staticmethod
    def _known_rounds(old: dict | None) -> dict[int, tuple[int, bool]]:
        """The rounds the old record keeps the parts of (:meth:`_round_part`): per
        number, its stamp then and whether every table was decided."""
        parts = old.get("parts") if old is not None else None
        if not isinstance(parts, dict):
            return {}
        return {int(n): (part["stamp"], part["complete"]) for n, part in parts.items()
                if n.isdigit() and isinstance(part, dict) and PART_FIELDS <= part.keys()
                and isinstance(part["stamp"], int) and isinstance(part["complete"], bool)}

    def _event(self, data: EventData, with_replays: bool, old: dict | None) -> None:
        """An event's outputs and its record in the manifest. Raises
        :class:`_ReadEveryRound`, before it makes or keeps anything, when a round not
        read (``data.unread``) is needed."""
        info = data.info
        self._collecting = []
        self._memo = {}
        replays = self.report.replays
        parts = self._event_parts(data, old)
        players = event_player_ids(data)
        for n in data.unread:
            players.update(parts[n]["extra"])
        names = content_key(self._names(players))
        rows, standings_key, kept = self.event_pages(data, with_replays, names, parts, old)
        self.event_records[str(info.id)] = {
            "key": self.event_key(info, with_replays, names), "files": self._collecting,
            "info_key": self._event_info_key(info, with_replays),
            "standings": standings_key,
            "names": names, "ref": content_key(self._event_ref(info)),
            "replays": self.report.replays - replays,
            "matches": sum(part["matches"] for part in parts.values()),
            "after_round": data.after_round,
            "rounds": self._round_records,
            # what the event's outputs take of each round (by number, as text)
            "parts": {str(n): part for n, part in parts.items()},
            "entries": self._entry_rows(data).hex(),
            "round_base": self._memo["round base"],
            "players": sorted(players),
            # the old manifest's rows themselves while the standings are unchanged
            "player_events": kept if kept is not None
            else [[pid, *row[1:]] for pid, row in rows]}
        self._collecting = None

    def _in_workers(self, engine: Engine, shares: list, work: Callable,
                    collect: bool = True) -> None:
        """Run ``work(share)`` for each share in a forked process of its own, then
        merge what the workers learned (the files written, the players' matches
        and events, the counts) back into this builder.

        A worker reads through a connection of its own (the pool inherited from
        this process is dropped, not closed, as SQLAlchemy advises after a fork)
        and writes its pages straight into the build folder. A worker dies with
        this process (it is killed with it, :func:`.folders.die_with_parent`), and
        if this process gives up it kills its workers. Decision: the workers'
        reads are separate transactions, so a result imported while a big site is
        being published may show on some pages and not others until the next
        publish; with one job the whole site is one read transaction.
        """
        url = engine.url.render_as_string(hide_password=False)
        parent = os.getpid()
        children = []
        try:
            for share in shares:
                if not share:
                    continue
                read_end, write_end = os.pipe()
                pid = os.fork()
                if pid == 0:  # the worker
                    die_with_parent(parent)
                    os.close(read_end)
                    self._work_in_child(url, share, work, collect, write_end)
                os.close(write_end)
                children.append((pid, read_end))
            failures = []
            while children:
                pid, read_end = children[0]
                with os.fdopen(read_end, "rb") as stream:
                    try:
                        result = pickle.load(stream)
                    except EOFError:
                        result = ("error", "WorkerDied", "a publishing worker stopped",
                                  False, None)
                os.waitpid(pid, 0)
                children.pop(0)
                if result[0] != "ok":
                    failures.append(result)
                    continue
                (_, matches, events, files, records, pages, rendered, match_count, replays,
                 reused) = result
                for player_id, rows in matches.items():
                    self.player_matches.setdefault(player_id, []).extend(rows)
                for player_id, rows in events.items():
                    self.player_events.setdefault(player_id, []).extend(rows)
                self.files.update(files)
                self.reused.update(reused)  # kept in the live site: nothing in the build
                self.event_records.update(records)
                self.report.pages += pages
                self.report.rendered += rendered
                self.report.matches += match_count
                self.report.replays += replays
        except BaseException:
            stop_workers([pid for pid, _ in children])
            for _, read_end in children:
                try:
                    os.close(read_end)
                except OSError:
                    pass
            raise
        if failures:
            _, kind, text, ours, err_no = failures[0]
            if ours:
                raise TourneyError(text)
            if err_no is not None:
                raise OSError(err_no, text)
            raise RuntimeError(f"a publishing worker failed: {kind}: {text}")

    def _work_in_child(self, url: str, share, work: Callable, collect: bool,
                       write_end: int) -> None:
        status = 0
        try:
            from tourney.storage.db import open_engine

            worker_engine = open_engine(url)
            worker_engine.dispose(close=False)
            # send back only what this worker adds
            self.player_matches, self.player_events = {}, {}
            self.files, self.event_records, self.reused = {}, {}, set()
            counts = (self.report.pages, self.report.rendered, self.report.matches,
                      self.report.replays)
            with reading(worker_engine) as session:
                self.reader = SiteReader(session)
                work(share)
            result = ("ok", self.player_matches if collect else {},
                      self.player_events if collect else {}, self.files, self.event_records,
                      self.report.pages - counts[0], self.report.rendered - counts[1],
                      self.report.matches - counts[2], self.report.replays - counts[3],
                      self.reused)
        except BaseException as err:  # noqa: BLE001 - reported by the parent
            status = 1
            result = ("error", type(err).__name__,
                      err.strerror if isinstance(err, OSError) and err.strerror else str(err),
                      isinstance(err, TourneyError),
                      err.errno if isinstance(err, OSError) else None)
        try:
            with os.fdopen(write_end, "wb") as stream:
                pickle.dump(result, stream, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            os._exit(status)

    def static_files(self) -> None:
        """The styles and scripts, in every language's tree; kept from the old site
        while the code that ships them is the same (the site's key has its digest)."""
        key = content_key(self.site_key, "static")
        old = self.previous.manifest["files"] if self.previous is not None else {}
        for renderer in self.renderers:
            folder = self.build_dir / renderer.prefix / "static"
            for item in sorted(STATIC_DIR.iterdir()):
                if not item.is_file():
                    continue
                rel = f"{renderer.prefix}static/{item.name}"
                pages = self.report.pages
                if old.get(rel) == key and self.reuse([rel], key):
                    self.report.pages = pages  # not a page
                    continue
                folder.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(item, folder / item.name)
                self.files[rel] = key

    # ---- index and ratings

    def index_page(self, pools: list[PoolData], series: Sequence[dict] = ()) -> None:
        groups = {status: [e for e in self.events if e.status == status]
                  for status in STATUS_ORDER}
        boards = []
        for pool in pools:
            if not pool.rated:
                continue
            # everyone ranked by rating, provisional players marked, not left out; as
            # the site's lists show the ratings (without the rounds being played)
            shown = self._board_summary(pools, pool)
            boards.append({"pool": pool, "top": [RatingEntry(*row) for row in shown["top"]],
                           "established": shown["established"],
                           "provisional_count": shown["provisional_count"]})
        self.page("index.html", "index.html", groups=groups, boards=boards,
                  status_order=STATUS_ORDER, ordinal=ordinal, series=series)

    # ---- series

    def _board_summary(self, pools: list[PoolData], pool: PoolData) -> dict:
        """What the index shows of a game's board: its top and counts, kept in the
        manifest with the board's mark and the names' digest, and taken from there
        while they are unchanged (the board is not read)."""
        names = self._all_names()
        old = (self.previous.manifest.get("boards", {}).get(pool.variant)
               if self.previous is not None else None)
        if isinstance(old, dict) and old.get("mark") == pool.board_mark \
                and old.get("names") == names:
            shown = old
        else:
            self._load_boards(pools)
            board = pool.board or []
            provisional = sum(1 for e in board if e.provisional)
            shown = {"mark": pool.board_mark, "names": names,
                     "top": [list(astuple_entry(e)) for e in board[:LEADERBOARD_TOP]],
                     "established": len(board) - provisional,
                     "provisional_count": provisional}
        self.board_summaries[pool.variant] = shown
        return shown

    def series_pages(self) -> list[dict]:
        """A page per series: its standings, one column an event (a link to it),
        dropped events in brackets, qualifiers marked, and its teams. The page is
        reused while its key is unchanged: the series' settings, handicaps and
        declared teams, its events' infos (with their content stamps, which change
        with any write to their results) and the players' names; otherwise the
        standings are computed from the events' (:mod:`tourney.tournament.series`).
        The series for the index, by name."""
        from sqlalchemy import func, select

        from tourney.storage.models import (
            Match,
            MatchVersion,
            Series,
            SeriesEvent,
            SeriesHandicap,
            Team,
            TeamMember,
        )
        session = self.reader.session
        listed = []
        for series in session.execute(select(Series).order_by(Series.name)).scalars():
            # Imported once there is a series: they load the events' and seating's
            # modules, which a site without series never needs (`tourney publish`'s start).
            from tourney.tournament.season import points_decimals
            from tourney.tournament.series import SeriesInfo, series_standings
            from tourney.tournament.teams import team_standings

            path = self.links.series(series.slug)
            info = SeriesInfo.of(series).to_json()
            event_ids = list(session.execute(
                select(SeriesEvent.event_id).where(SeriesEvent.series_id == series.id)
                .order_by(SeriesEvent.position, SeriesEvent.id)).scalars())
            events = [self.events_by_id[i] for i in event_ids if i in self.events_by_id]
            handicaps = sorted(session.execute(
                select(SeriesHandicap.player_id, SeriesHandicap.value)
                .where(SeriesHandicap.series_id == series.id)).all())
            teams = sorted(session.execute(
                select(Team.name, TeamMember.player_id).join(
                    TeamMember, TeamMember.team_id == Team.id)
                .where(Team.series_id == series.id)).all())
            key = content_key(self.site_key, "series", info, events, handicaps, teams,
                              self._names(self.players))
            data_path = path.removesuffix(".html") + ".json"
            feed_path = path.removesuffix(".html") + ".atom"
            listed.append({"name": series.name, "slug": series.slug, "path": path,
                           "events": len(events), "data": data_path, "feed": feed_path})
            # its page, its teams' pages and its open data share the key: reused together
            if self._reuse_keyed(key, [path, data_path, feed_path]):
                continue
            standings = series_standings(session, series)
            rows = standings.rows
            by = "declared" if teams else "club"
            team_rows = team_standings(session, series.slug, by, series_rows=rows).rows
            if by == "club" and len(team_rows) < 2:
                team_rows = []  # one club is no team standings
            team_paths = {t.team: self.links.series_team(series.slug, t.team) for t in team_rows}
            # one precision for every points column (events, gross, handicap, net)
            decimals = points_decimals(rows)
            team_decimals = column_decimals([float(t.total) for t in team_rows])
            self.page("series.html", path, key=key, series=info, events=events, rows=rows,
                      decimals=decimals, teams=team_rows, teams_by=by, team_paths=team_paths,
                      team_decimals=team_decimals,
                      unhandicapped={e.id for e in standings.without_handicap})
            by_player = {r.player_id: r for r in rows}
            ids = self._ids_by_name()
            for team in team_rows:
                members = [(by_player.get(ids.get(name)), counted)
                           for members, counted in ((team.counted, True), (team.others, False))
                           for name, _ in members]
                self.page("series_team.html", team_paths[team.team], key=key, series=info,
                          series_path=path, team=team, teams_by=by, members=members,
                          decimals=decimals, team_decimals=team_decimals)
            event_pages = {e.id: self.links.event(e.id) for e in events}
            self.write(None, data_path, opendata.dump("series", opendata.series_body(
                standings, team_rows, team_paths, ids, path, feed_path, event_pages)), key)
            first = self.renderers[0]
            site_title = self.settings.title or first.gettext("Dam tournaments")
            latest = dict(session.execute(
                select(Match.event_id, func.max(MatchVersion.imported_at))
                .join(MatchVersion, MatchVersion.id == Match.current_version_id)
                .where(Match.event_id.in_(event_ids)).group_by(Match.event_id)).all())
            self.write(None, feed_path, opendata.series_feed(
                standings, latest, feed_path, path, event_pages,
                title=f"{series.name} · {site_title}",
                entry_title=lambda event: f"{series.name}: {event.name}",
                lang=self.renderers[0].html_lang, author=self.settings.organisation or site_title,
                base_url=self.settings.url), key)
        return listed

    def _reuse_keyed(self, key: str, required: Sequence[str]) -> bool:
        """Reuse every file of the old site that had ``key`` (a page in every
        language or a shared file), if ``required`` (pages, in every language, and
        ``.json``/``.atom`` files, once) were among them."""
        if self.previous is None:
            return False
        old = self.previous.manifest["files"]
        needed = [prefix + path for path in required
                  for prefix in ([r.prefix for r in self.renderers] if path.endswith(".html")
                                 else [""])]
        if not all(old.get(rel) == key for rel in needed):
            return False
        return self.reuse(self._files_by_key().get(key, []), key)

    def _reused_replays(self, key: str, event_id: int, match_id: int) -> int:
        """The replay pages of a match reused with ``key`` (in one language), counted
        as a render counts them."""
        page = self.renderers[0].prefix + self.links.match(event_id, match_id)
        stem = page[:-len(".html")] + "-deal-"
        return sum(1 for rel in self._files_by_key().get(key, []) if rel.startswith(stem))

    def _files_by_key(self) -> dict[str, list[str]]:
        """The old site's files by their key, worked out once (a big event asks for
        thousands of matches' files: a walk of the whole manifest each was quadratic)."""
        if self._old_by_key is None:
            self._old_by_key = {}
            for rel, had in self.previous.manifest["files"].items():
                if had:
                    self._old_by_key.setdefault(had, []).append(rel)
        return self._old_by_key

    def _ids_by_name(self) -> dict[str, int]:
        """Player id by name (names are unique), for tables that carry names."""
        return {p.name: p.id for p in self.players.values()}

    def rating_pages(self, pools: list[PoolData]) -> None:
        """A page per rated game: its leaderboard as the site's lists show it (the
        ratings before the results of rounds being played, :meth:`SiteReader.boards_before`),
        keyed by its entries, so a result of a round being played leaves it as it was."""
        for pool in pools:
            if not pool.rated:
                continue
            path, key = self.links.ratings(pool.variant), self._board_key("ratings", pool)
            if self._reused(path, key):
                continue
            self._load_boards(pools)
            self.page("ratings.html", path, key=key, pool=pool, ordinal=ordinal)

    # ---- events

    def event_pages(self, data: EventData, with_replays: bool, names: str,
                    parts: dict[int, dict], old: dict | None
                    ) -> tuple[list[tuple[int, PlayerEvent]], str, list | None]:
        """The event's pages and open data; its row on each player's page, by player
        id, its standings' key, and the old manifest's players' rows if the
        standings are those it had (the rows made of them).

        Every output has a key of its own, of what it shows. The standings (the
        event's page with its results grid, the venue screen, standings.json, a
        player's place) are those after the last round with every result in while
        a round is being played (:meth:`SiteReader.event_data`), so one result
        re-renders its round's page, its match's pages and its round's matches
        file, not the outputs of the event's thousands of rows; the round's last
        result changes them all once.

        ``names``: a digest of the names of the event's players, which the keys of
        the pages that show most of them (a round's, its score sheets) take instead
        of the names themselves.

        ``parts``: what the outputs take of each round (:meth:`_round_part`), by
        number; the keys of the outputs that show every round (the standings, the
        event's page, the venue screen, ``rounds.json``, the feed) are made of them,
        so that a round not read (``data.unread``) is known by the part the old
        manifest keeps. Such a round's outputs are kept with the keys they had; if
        one of them, or an output that shows every round, must be made again,
        :class:`_ReadEveryRound` is raised (before anything is made or kept)."""
        info = data.info
        after = data.after_round
        shown = self._event_shown(info)
        round_base = self._memo["round base"] = content_key(
            self.site_key, "round-outputs", shown, opendata.event_ref(info), info.bye_points,
            with_replays, names)
        # The standings are known by what they are made of (their key), and computed
        # only when an output that shows them must be made again: a result of the
        # round being played leaves their inputs, and the players' rows the old
        # manifest keeps, as they were.
        # (not the counts of results and forfeits, which change with those of the round
        # being played: the standings outputs show those of the rounds counted, which
        # their parts stand for)
        on_standings = dataclasses.replace(info, stamp=None, results_in=0, forfeited=0)
        has_results = bool(info.results_in) if after is None else after > 0
        standings_key = content_key(
            self.site_key, "standings", on_standings, after, has_results, self._entry_rows(data),
            # each counted round's matches with a result, byes and forfeits (as the grid
            # and the players' rows show them, with the reason)
            [(n, part["standings"]) for n, part in parts.items() if after is None or n <= after],
            # the names of the event's players (the entrants' among them) by their digest
            self.reader.standings_inputs(data), names)
        kept_rows = (old["player_events"] if old is not None
                     and old.get("standings") == standings_key else None)
        old_rounds = old.get("rounds") if old is not None else None
        if not isinstance(old_rounds, dict):
            old_rounds = {}
        if data.unread and not (
                kept_rows is not None and old.get("round_base") == round_base
                and self._keepable(self._standings_outputs(data, standings_key)
                                   + [self._rounds_file(data)])
                and all(self._round_keepable(old_rounds.get(str(n))) for n in data.unread)):
            raise _ReadEveryRound
        self._round_records = {}
        self._keep_unread_rounds(data, parts, old_rounds)
        if kept_rows is None or not self._had(self._standings_outputs(data, standings_key)):
            self.reader.fill_standings(data)
        if kept_rows is not None:
            rows = self._player_rows(info.id, kept_rows)
        else:
            counted = [m for m in data.matches
                       if m.has_result and (after is None or m.round <= after)]
            entrants = ({e.player_id for e in data.entries}
                        | {p.player_id for m in counted for p in m.places})
            rows = self._standings_rows(data, entrants)
        for pid, event_row in rows:
            self.player_events.setdefault(pid, []).append(event_row)

        self.event_page(data, standings_key, has_results)
        self.screen_page(data, standings_key, has_results)
        matches_by_round: dict[int, list[MatchData]] = {}
        for match in data.matches:
            matches_by_round.setdefault(match.round, []).append(match)
        # A round's, a match's and a replay's pages have keys of their own (what
        # they show: the event's name and game, the round or the match as stored,
        # its players' names), so one result re-renders its own pages. A round's
        # outputs as a whole (its pages, score sheets, matches' and replays' pages
        # and matches file) are known by the round's key too (:meth:`_round_key`):
        # a round unchanged since the old site, a complete round while a later one
        # is played, keeps them without each being keyed (a big round's thousands).
        event_dir = self.links.event(info.id).rsplit("/", 1)[0]
        for rnd in data.rounds:
            matches = matches_by_round.pop(rnd.number, [])
            key = self._round_key(round_base, rnd, matches)
            if self._reuse_round(rnd.number, old_rounds.get(str(rnd.number)), key,
                                 len(matches)):
                continue
            began, replays = len(self._collecting), self.report.replays
            self.round_pages(info, rnd, shown, names)
            self.sheet_page(info, rnd, content_key(
                self.site_key, "sheets", shown, self._seating(rnd), names))
            self._match_pages_of(info, rnd.number, matches, shown, with_replays)
            self._round_matches_file(info, event_dir, rnd, matches)
            self._round_records[str(rnd.number)] = [
                key, self._collecting[began:], self.report.replays - replays]
        for number, matches in matches_by_round.items():  # of a round no longer seated
            self._match_pages_of(info, number, matches, shown, with_replays)
        self.event_data_files(data, standings_key)
        return rows, standings_key, kept_rows

    def _round_key(self, round_base: str, rnd: RoundData, matches: Sequence[MatchData]) -> str:
        """The key of a round's outputs as a whole: what any of them shows (``round_base``:
        the event as its round and match pages show it, its open data's reference and a
        bye's worth, the replays asked for or not, its players' names by their
        digest; the round's seating, its matches as stored and its forfeits)."""
        return content_key(
            round_base, rnd.number, self._seating(rnd), rnd.repeated_pairs,
            rnd.seated_at, [self._match_row(m) for m in matches],
            [(t.label, t.forfeit) for t in rnd.tables if t.forfeit is not None])

    def _keep_unread_rounds(self, data: EventData, parts: dict[int, dict],
                            old_rounds: dict) -> None:
        """Keep the outputs of the rounds not read (``data.unread``: the old site's, their
        stamps and the base of their keys those they had) with the keys they had. A
        file gone since :meth:`_round_keepable` looked: nothing kept, and
        :class:`_ReadEveryRound`."""
        report, files = self.report, len(self._collecting or ())
        counts = (report.pages, report.matches, report.replays)
        for number in data.unread:
            had = old_rounds[str(number)]
            if not self._reuse_round(number, had, had[0], parts[number]["matches"],
                                     checked=True):
                for rel in self._collecting[files:]:
                    self.files.pop(rel, None)
                    self.reused.discard(rel)
                del self._collecting[files:]
                report.pages, report.matches, report.replays = counts
                self._round_records = {}
                raise _ReadEveryRound

    def _round_keepable(self, had, look: bool = True) -> bool:
        """Whether a round's outputs of the old site can be kept as they are: ``had``,
        the old event record's [key, files, replays] of the round, is whole and its
        files, each with a key of its own, are there (``look``: else :meth:`reuse`
        looks)."""
        if self.previous is None or not (
                isinstance(had, list) and len(had) == 3 and isinstance(had[0], str)
                and isinstance(had[1], list) and had[1] and isinstance(had[2], int)):
            return False
        old = self.previous.manifest["files"]
        return all(old.get(rel) for rel in had[1]) and (not look or self._there(had[1]))

    def _there(self, rels: Sequence[str]) -> bool:
        """Whether these files of the old site are there to be kept (:meth:`reuse`)."""
        return self.trusted or all(os.path.isfile(os.path.join(self.previous.folder, rel))
                                   for rel in rels)

    def _keepable(self, outputs: Sequence[tuple[str, str]]) -> bool:
        """Whether the old site had these (path, key) outputs (:meth:`_had`) and they
        are there to be kept."""
        if not self._had(outputs):
            return False
        return self._there([prefix + path for path, _ in outputs
                            for prefix in ([r.prefix for r in self.renderers]
                                           if path.endswith(".html") else [""])])

    def _reuse_round(self, number: int, had, key: str, matches: int,
                     checked: bool = False) -> bool:
        """Keep a round's outputs of the old site (each with the key it had of its
        own) if the round's key is the one it had there (``had``: the old event
        record's [key, files, replays] of the round); ``checked``: they can be
        (:meth:`_round_keepable`)."""
        if not checked and not (self._round_keepable(had, look=False) and had[0] == key):
            return False
        if not self.reuse(had[1], looked=checked):
            return False
        self._round_records[str(number)] = had
        self.report.matches += matches
        self.report.replays += had[2]
        return True

    def _match_pages_of(self, info: EventInfo, number: int, matches: Sequence[MatchData],
                        shown: tuple, with_replays: bool) -> None:
        """A round's matches' pages (and replays), each kept if its key is the one
        it had; the round's deals read only if one must be made."""
        # what every match's page shows of the event, by its digest (worked out once)
        match_base = self._memo.get(("match base", with_replays))
        if match_base is None:
            match_base = self._memo[("match base", with_replays)] = content_key(
                self.site_key, "match", shown, with_replays)
        pending = []
        for match in matches:
            self.report.matches += 1
            key = content_key(match_base, self._match_row(match),
                              self._names([p.player_id for p in match.places]))
            if not self._reuse_keyed(key, [self.links.match(info.id, match.id)]):
                pending.append((match, key))
            elif with_replays:
                self.report.replays += self._reused_replays(key, info.id, match.id)
        if not pending:
            return  # the round's deals are not read
        deals = self.reader.deals(info.id, number, with_moves=with_replays)
        for match, key in pending:
            self.match_pages(info, match, deals.get(match.version_id, []), with_replays, key)

    def round_pages(self, info: EventInfo, rnd: RoundData, shown: tuple, names: str) -> None:
        """A round's page: its seats by table, with the results as they come in, and
        by name. A big round's tables are on pages of their own (:func:`round_parts`),
        each known by its tables, their players' names and which have a result; the
        round's page then lists those pages and the seats by name, each linking to its
        table: it changes with the seating and the names, not with a result."""
        path = self.links.round(info.id, rnd.number)
        parts = round_parts(rnd)
        if not parts:
            self.page("round.html", path, key=content_key(self.site_key, "round", shown, rnd, names),
                      info=info, rnd=rnd, parts=(), per_language=lambda renderer: {
                          "by_name": self._by_name(rnd, renderer.lang)})
            return
        spans = [(p.number, p.first, p.last) for p in parts]
        self.page("round.html", path, key=content_key(
            self.site_key, "round", shown, self._seating(rnd), names, spans), info=info,
            rnd=rnd, parts=parts, per_language=lambda renderer: {
                "by_name": self._by_name(rnd, renderer.lang, parts, info.id)})
        for part in parts:
            tables = [(t.label, tuple(t.players),
                       t.match.id if t.match is not None and t.match.has_result else None,
                       t.forfeit) for t in part.tables]
            key = content_key(self.site_key, "round-part", shown, rnd.number, part.number,
                              spans, tables, names)
            self.page("round_part.html", self.links.round_part(info.id, rnd.number, part.number),
                      key=key, info=info, rnd=rnd, parts=parts, part=part)

    @staticmethod
    def _standings_rows(data: EventData, entrants: set[int]) -> list[tuple[int, PlayerEvent]]:
        """The event's row on each entrant's page: their place in the standings."""
        info, after = data.info, data.after_round
        standing = {row.player_id: row for row in data.standings}
        bye_rounds: dict[int, list[int]] = {}
        forfeits: dict[int, list[tuple]] = {}
        for rnd in data.rounds:
            if after is None or rnd.number <= after:
                for pid in rnd.byes:
                    bye_rounds.setdefault(pid, []).append(rnd.number)
                for table in rnd.tables:
                    if table.forfeit is not None:
                        for pid in table.players:
                            forfeits.setdefault(pid, []).append(
                                (rnd.number, pid in table.forfeit.absent,
                                 table.forfeit.reason))
        rows = []
        for pid in sorted(entrants):
            at = standing.get(pid)
            mine = forfeits.get(pid, ())
            adjusted = at.adjustments if at else ()
            rows.append((pid, PlayerEvent(
                info.id, at.place if at else None, at.points if at else 0.0,
                at.matches if at else 0, len(entrants), at.shared if at else False,
                tuple(bye_rounds.get(pid, ())), after,
                tuple(f[0] for f in mine), tuple(f[1] for f in mine), tuple(f[2] for f in mine),
                tuple(float(a["points"]) for a in adjusted),
                tuple(a["reason"] for a in adjusted), tuple(a["round"] for a in adjusted))))
        return rows

    @staticmethod
    def _player_rows(event_id: int, kept: list) -> list[tuple[int, PlayerEvent]]:
        """The players' rows of an event as the manifest keeps them."""
        width = len(PlayerEvent._fields)  # a row: the player's id, then the event's fields
        if all(len(row) == width for row in kept):
            # the rows this version writes, made straight into tuples (a big event's
            # 16,000 through the named tuple's constructor and a generator each cost
            # three times as much, on every publish that reads the event)
            make, event = tuple.__new__, PlayerEvent
            return [(r[0], make(event, (event_id, r[1], r[2], r[3], r[4], r[5], tuple(r[6]),
                                        r[7], tuple(r[8]), tuple(r[9]), tuple(r[10]),
                                        tuple(r[11]), tuple(r[12]), tuple(r[13]))))
                    for r in kept]
        return [(row[0], PlayerEvent(event_id, *row[1:6], tuple(row[6]) if len(row) > 6 else (),
                                     row[7] if len(row) > 7 else None,
                                     *(tuple(v) for v in row[8:14]))) for row in kept]

    def _had(self, outputs: Sequence[tuple[str, str]]) -> bool:
        """Whether the old site had these (path, key) outputs (a page in every
        language; a file of open data once)."""
        if self.previous is None:
            return False
        old = self.previous.manifest["files"]
        return all(old.get(prefix + path) == key for path, key in outputs
                   for prefix in ([r.prefix for r in self.renderers]
                                  if path.endswith(".html") else [""]))

    def _event_page_key(self, data: EventData, standings_key: str) -> str:
        """The event's page's key: its standings' (which stand for the results grid
        of the rounds they count), the rounds' list (a round being played without
        its count of results) and every round's seating (the grid's rounds', and
        the table sizes each player sat at: those digests are worked out for the
        rounds' keys anyway, where counting the sizes took a big event's every seat
        again)."""
        memo = ("event page", standings_key)
        if memo not in self._memo:
            self._memo[memo] = self._event_page_key_of(data, standings_key)
        return self._memo[memo]

    def _event_page_key_of(self, data: EventData, standings_key: str) -> str:
        seated = self._seated_parts()
        after = data.after_round
        rounds = [(n, *part["list"][:2],
                   part["list"][2] if after is None or n <= after else None)
                  for n, part in seated]
        return content_key(self.site_key, "event", standings_key, rounds,
                           [part["seating"] for _, part in seated])

    def _seated_parts(self) -> list[tuple[int, dict]]:
        """The current event's seated rounds' parts (:meth:`_round_part`), by number."""
        return [(n, part) for n, part in self._memo["parts"].items()
                if part["seating"] is not None]

    @staticmethod
    def _rounds_list(data: EventData) -> list[tuple]:
        """The event's rounds as its page lists them: number, tables, byes and
        results in (None for a round being played: its page has them)."""
        after = data.after_round
        return [(r.number, len(r.tables), len(r.byes),
                 r.results_in if after is None or r.number <= after else None)
                for r in data.rounds]

    def _screen_key(self, data: EventData, standings_key: str) -> str:
        seated = self._seated_parts()
        return content_key(self.site_key, "screen", standings_key,
                           seated[-1][1]["seating"] if seated else None,
                           self._screen_refresh(data))

    @staticmethod
    def _screen_refresh(data: EventData) -> int | None:
        return SCREEN_REFRESH_SECONDS if data.info.status == "running" else None

    def _standings_outputs(self, data: EventData, standings_key: str) -> list[tuple[str, str]]:
        """The outputs that show the event's standings, (path, key) each."""
        info = data.info
        standings_file = self.links.event(info.id).rsplit("/", 1)[0] + "/standings.json"
        return [(self.links.event(info.id), self._event_page_key(data, standings_key)),
                (self.links.screen(info.id), self._screen_key(data, standings_key)),
                (standings_file, content_key(self.site_key, "data", standings_file,
                                             standings_key))]

    def event_page(self, data: EventData, standings_key: str, has_results: bool) -> None:
        """The event's page: its facts, its standings and results grid (of the rounds
        the standings count), its rounds (a round being played links to its page,
        where the results are as they arrive) and its rules."""
        info, after = data.info, data.after_round
        key = self._event_page_key(data, standings_key)
        if self._reused(self.links.event(info.id), key):
            return
        grid_rounds = [r for r in data.rounds if after is None or r.number <= after]
        grid = self.results_grid(data, grid_rounds)
        table_sizes = seats_by_table_size(data)
        sizes_seated = sorted({size for counts in table_sizes.values() for size in counts})
        # the grid's match points, one column for the whole grid (byes too)
        grid_points = Renderer.point_column(
            [cell.points for cells in grid.values() for cell in cells
             if cell.kind in ("match", "forfeit")]
            + [info.bye_points for cells in grid.values() for cell in cells
               if cell.kind == "bye"][:1])
        self.page("event.html", self.links.event(info.id), key=key, info=info, data=data,
                  after=after, has_results=has_results, rounds=self._rounds_list(data),
                  entrants=self._entrant_ids(data), grid_rounds=grid_rounds, grid=grid,
                  grid_points=grid_points, table_sizes=table_sizes,
                  sizes_seated=sizes_seated if len(sizes_seated) > 1 else [],
                  per_language=lambda renderer: {"rules": self._rule_sentences(renderer, info)})

    def _entrant_ids(self, data: EventData) -> list[int]:
        """The event's entrants by name (listed while no standings are shown)."""
        names = self.players
        return sorted({e.player_id for e in data.entries},
                      key=lambda pid: (names[pid].name if pid in names else "", pid))

    def _seating(self, rnd: RoundData) -> bytes:
        """A digest of a round's seating: its tables' players in seat order and its
        byes (not its results). Worked out once per round and publish (several keys
        take it: a big round's thousands of tables pickled for each cost more than
        the rest of their keys)."""
        key = ("seating", id(rnd))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = row_digest((
                rnd.number, tuple((t.label, tuple(t.players)) for t in rnd.tables),
                tuple(rnd.byes)))
        return found

    def _entry_rows(self, data: EventData) -> bytes:
        """A digest of the event's entries (for keys), worked out once."""
        found = self._memo.get(("entries",))
        if found is None:
            found = self._memo[("entries",)] = row_digest(tuple(
                (e.player_id, e.first_round, e.withdrawn_after) for e in data.entries))
        return found

    def _match_row(self, match: MatchData) -> bytes:
        """A digest of a match as stored (its version and places), for keys: worked out
        once per match and publish, from a plain tuple marshalled (the keys of a big
        event's thousands of matches and of its players' own matches take it, not the
        match: pickling the tuples with their times cost a tenth of a publish)."""
        key = ("match", match.id)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = row_digest((
                match.id, match.version_id, match.version,
                None if match.imported_at is None else match.imported_at.isoformat(),
                match.imported_by, match.round, match.table, match.deals,
                match.verified_moves, tuple((p.player_id, p.seat, p.place, p.total,
                                             p.match_points) for p in match.places)))
        return found

    def _event_parts(self, data: EventData, old: dict | None) -> dict[int, dict]:
        """What the event's outputs take of each round (:meth:`_round_part`), by number:
        of a round read, worked out from its rows (and of the matches of a round no
        longer seated); of a round not read, the old record's part. Raises
        :class:`_ReadEveryRound` when a round not read cannot be known by it (the
        entries or the round's row changed since)."""
        entrants = {e.player_id for e in data.entries}
        by_round: dict[int, list[MatchData]] = {}
        for match in data.matches:
            by_round.setdefault(match.round, []).append(match)
        parts: dict[int, dict] = {}
        for rnd in data.rounds:
            parts[rnd.number] = self._round_part(rnd, by_round.pop(rnd.number, []), entrants)
        for number, matches in by_round.items():  # of a round no longer seated
            parts[number] = self._round_part(None, matches, entrants, number)
        if data.unread:
            if old is None or old.get("entries") != self._entry_rows(data).hex():
                raise _ReadEveryRound
            for number, unread in data.unread.items():
                part = old["parts"][str(number)]
                if part.get("row") != self._round_row(unread):
                    raise _ReadEveryRound
                parts[number] = part
        parts = dict(sorted(parts.items()))
        self._memo["parts"] = parts
        return parts

    @staticmethod
    def _round_row(rnd: RoundData | UnreadRound) -> list:
        """A round's own row as its outputs show it (not its stamp)."""
        return [rnd.repeated_pairs, None if rnd.seated_at is None else rnd.seated_at.isoformat()]

    def _round_part(self, rnd: RoundData | None, matches: Sequence[MatchData],
                    entrants: set[int], number: int | None = None) -> dict:
        """What the event's outputs take of a round (``rnd``; None: the ``matches`` of
        round ``number``, no longer seated), kept in the manifest while the round's
        stamp is unchanged so that the round is not read again (plain JSON values):
        its stamp and row; its seating's digest, count of tables, byes and tables
        decided and whether they all are (the event's page, the venue screen, the
        rounds' file, the last complete round); its entry in the feed; its matches
        with a result, byes and forfeits, as the standings count them, by their
        digest; its players who are not entrants; and per player a digest of their
        match with a result (their page)."""
        of: dict[str, str] = {}
        blake2b = hashlib.blake2b
        for match in matches:
            if match.has_result:
                row = blake2b(self._match_row(match), digest_size=8).hexdigest()
                for place in match.places:
                    of[str(place.player_id)] = row
        players = {p.player_id for m in matches for p in m.places}
        if rnd is None:
            return {"stamp": None, "row": None, "seating": None, "list": None,
                    "complete": True, "feed": None, "matches": len(matches),
                    "standings": row_digest((number, tuple(
                        self._match_row(m) for m in matches if m.has_result))).hex(),
                    "extra": sorted(players - entrants), "of": of}
        players.update(pid for table in rnd.tables for pid in table.players)
        players.update(rnd.byes)
        return {
            "stamp": rnd.stamp, "row": self._round_row(rnd),
            "seating": self._seating(rnd).hex(),
            "list": [len(rnd.tables), len(rnd.byes), rnd.results_in],
            "complete": round_decided(rnd), "feed": list(opendata.feed_round(rnd)),
            "matches": len(matches),
            "standings": row_digest((rnd.number, tuple(
                self._match_row(m) for m in matches if m.has_result), tuple(rnd.byes),
                tuple((t.label, t.forfeit) for t in rnd.tables if t.forfeit is not None))).hex(),
            "extra": sorted(players - entrants), "of": of}

    @staticmethod
    def _event_shown(info: EventInfo) -> tuple:
        """What an event's round, sheet, match and replay pages show of the event
        itself (not its standings, status or stamp, which change with every result)."""
        return (info.id, info.slug, info.name, info.variant, info.date, info.lang,
                info.options, info.rules, info.points, info.bye_points)

    def _round_matches_file(self, info: EventInfo, event_dir: str, rnd: RoundData,
                            matches: Sequence[MatchData]) -> None:
        """A round's matches file of open data, keyed by what it holds (a result
        changes its round's)."""
        matches = [m for m in matches if m.has_result]
        forfeited = [t for t in rnd.tables if t.forfeit is not None]
        path = opendata.matches_path(event_dir, rnd.number)
        key = content_key(self.site_key, "data", path, (
            opendata.event_ref(info), rnd.number, [self._match_row(m) for m in matches],
            [(t.label, tuple(t.players), t.forfeit) for t in forfeited], info.bye_points))
        if not self._reuse_keyed(key, [path]):
            self.write(None, path, opendata.dump("matches", opendata.round_matches_body(
                info, rnd.number, matches, event_dir, forfeited)), key)

    def _rounds_file(self, data: EventData) -> tuple[str, str]:
        """The event's ``rounds.json`` and its key (every seated round's seating)."""
        path = self.links.event(data.info.id).rsplit("/", 1)[0] + "/rounds.json"
        return path, content_key(self.site_key, "data", path, (
            opendata.event_ref(data.info), [part["seating"] for _, part in self._seated_parts()]))

    def event_data_files(self, data: EventData, standings_key: str) -> None:
        """The event's open data but its rounds' matches files
        (:meth:`_round_matches_file`) and its Atom feed, once (not per language);
        each file keyed by what it holds: a result changes the feed, the standings
        only with the round's last result."""
        info = data.info
        event_dir = self.links.event(info.id).rsplit("/", 1)[0]
        on_event = dataclasses.replace(info, stamp=None, results_in=0, tables_seated=0)
        data_key = lambda path, shown: content_key(self.site_key, "data", path, shown)  # noqa: E731
        files = [
            (f"{event_dir}/event.json",
             data_key(f"{event_dir}/event.json", (on_event, self._entry_rows(data))), "event",
             lambda: opendata.event_body(info, data, event_dir)),
            (f"{event_dir}/standings.json",
             data_key(f"{event_dir}/standings.json", standings_key), "standings",
             lambda: opendata.standings_body(info, data)),
            (*self._rounds_file(data), "rounds",
             lambda: opendata.rounds_body(info, data, event_dir))]
        for path, key, kind, body in files:
            if not self._reuse_keyed(key, [path]):
                self.write(None, path, opendata.dump(kind, body()), key)
        first = self.renderers[0]
        site_title = self.settings.title or first.gettext("Dam tournaments")
        feed = opendata.atom_feed(
            info, [opendata.FeedRound(*part["feed"]) for _, part in self._seated_parts()],
            event_dir, title=f"{info.name} · {site_title}",
            round_title=lambda n: f"{info.name}: " + first.gettext("Round %(n)s") % {"n": n},
            round_summary=first.round_summary, lang=first.html_lang,
            author=self.settings.organisation or site_title, base_url=self.settings.url)
        self.write(None, f"{event_dir}/feed.atom", feed)

    def site_data_files(self, pools: list[PoolData], series: Sequence[dict] = ()) -> None:
        """The open data of the whole site (rebuilt every time; the index holds the
        publication time)."""
        key = content_key(self.site_key, "data", "players", self._names(self.players))
        if not self._reuse_keyed(key, ["data/players.json"]):
            self.write(None, "data/players.json", opendata.players_file(self.players), key)
        variants = []
        for pool in pools:
            if pool.rated:
                self.links.ratings(pool.variant)  # checks the variant id
                path = f"data/ratings/{pool.variant}.json"
                key = self._board_key("data", pool)
                if not self._reuse_keyed(key, [path]):
                    self._load_boards(pools)
                    slugs = {e.id: e.slug for e in self.events}
                    self.write(None, path, opendata.ratings_file(pool, slugs), key)
                variants.append(pool.variant)
        dirs = {e.id: self.links.event(e.id).rsplit("/", 1)[0] for e in self.events}
        self.write(None, "data/index.json",
                   opendata.index_file(self.events, dirs, variants, self.settings, self.now,
                                       series))

    def sheet_page(self, info: EventInfo, rnd, key: str = "") -> None:
        """A round's score sheets to print: per table, one row per deal (the
        event's number of deals, else room for :data:`OPEN_ENDED_ROWS`) with the
        dealer or first colour where the rules fix it, a column per player."""
        game = self.renderers[0].names.rules(info.variant)
        if info.options is None or self._reused(self.links.sheets(info.id, rnd.number), key):
            return
        # Imported here: the score sheets need the seating's modules, which a publish
        # that reuses every sheet (most of them) does not load (`tourney publish`'s start).
        from tourney.tournament.sheets import sheet_deals, sheet_rows_per_table

        rules = game.match_rules(info.options)
        rows = sheet_rows_per_table(rules)
        tables = []
        for table in rnd.tables:
            deals = []
            for number, order, dealer in sheet_deals(table.players, rules, rows):
                role_seat = game.role_seat(order.index(dealer) if dealer is not None else None)
                deals.append({"number": number,
                              "role": order[role_seat] if role_seat is not None else None})
            tables.append({"table": table, "deals": deals})
        self.page("sheets.html", self.links.sheets(info.id, rnd.number), key=key, info=info,
                  rnd=rnd, tables=tables,
                  per_language=lambda renderer: {"rules": self._rule_sentences(renderer, info)})

    def screen_page(self, data: EventData, standings_key: str, has_results: bool) -> None:
        """The venue screen: the latest round's seating and the standings (those of
        the event's page) in large type; while the event runs it reloads itself (a
        meta refresh, so it needs no script) to show the next publish. It shows no
        result of the round being played (the round's page does): a result leaves
        it as it was."""
        rnd = data.rounds[-1] if data.rounds else None
        info = data.info
        key = self._screen_key(data, standings_key)
        refresh = self._screen_refresh(data)
        self.page("screen.html", self.links.screen(info.id), key=key, info=info, data=data,
                  rnd=rnd, after=data.after_round, has_results=has_results,
                  per_language=lambda renderer: {
                      "by_name": self._by_name(rnd, renderer.lang) if rnd else []},
                  refresh=refresh)

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

    def _by_name(self, rnd, lang: str, parts: Sequence[RoundPart] = (),
                 event_id: int | None = None) -> list[dict]:
        """A round's seats by name, as the page's language sorts names; with the
        round's pages of tables (``parts``, of event ``event_id``), each seat links to
        its table there (``href``, from the site's root)."""
        rows = []
        hrefs = {}
        for part in parts:
            page = self.links.round_part(event_id, rnd.number, part.number)
            for i, table in enumerate(part.tables):
                hrefs[table.label] = f"{page}#t{part.start + i}"
        for table in rnd.tables:
            href = hrefs.get(table.label)
            for seat, pid in enumerate(table.players):
                rows.append({"player": pid, "table": table.label, "seat": seat, "href": href})
        for pid in rnd.byes:
            rows.append({"player": pid, "table": None, "seat": None, "href": None})
        players = self.players
        rows.sort(key=lambda r: name_key(players[r["player"]].name, lang))
        return rows

    def results_grid(self, data: EventData, rounds: Sequence[RoundData]
                     ) -> dict[int, list[GridCell]]:
        """Per player (standings order): one cell per round of ``rounds``."""
        rank_of = {row.player_id: row.place for row in data.standings}
        cells: dict[int, dict[int, GridCell]] = {}
        for rnd in rounds:
            for table in rnd.tables:
                match = table.match
                places = {p.player_id: p for p in match.places} if match and match.has_result else {}
                forfeit = table.forfeit
                for pid in table.players:
                    place = places.get(pid)
                    if forfeit is not None:
                        absent = pid in forfeit.absent
                        cell = GridCell("forfeit", table=table.label, size=len(table.players),
                                        points=0.0 if absent else data.info.bye_points,
                                        absent=absent, reason=forfeit.reason)
                    elif place is None:
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
        numbers = [r.number for r in rounds]
        for row in data.standings:
            mine = cells.get(row.player_id, {})
            grid[row.player_id] = [mine.get(n, GridCell("none")) for n in numbers]
        return grid

    def _load_player_matches(self, player_ids: Collection[int], every: bool = False) -> None:
        """The matches of these players (every player's with ``every``), read for
        their pages (a row per player per match)."""
        if not player_ids and not every:
            return
        wanted = None if every else set(player_ids)
        rows = self.reader.player_matches(None if every else wanted)
        for mid, (event_id, rnd, table, deals, verified, places) in rows.items():
            ids = [p[0] for p in places]
            size = len(ids)
            shared: dict[int, bool] = {}
            for p in places:
                shared[p[2]] = p[2] in shared
            for pid, _seat, place, total, points in places:
                if wanted is not None and pid not in wanted:
                    continue
                self.player_matches.setdefault(pid, []).append(PlayerMatch(
                    event_id, mid, rnd, table, place, size, points, total,
                    tuple(o for o in ids if o != pid), deals, verified, shared[place]))

    # ---- matches and deals

    def match_pages(self, info: EventInfo, match: MatchData, deals: list[DealData],
                    with_replays: bool, key: str = "") -> None:
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
        # the deals' scores and their totals: one decimals for the whole table
        score_decimals = column_decimals(
            [p.total for p in match.places]
            + [s for row in rows for s in row["scores"] if isinstance(s, (int, float))])
        self.page("match.html", self.links.match(info.id, match.id), key=key, info=info,
                  match=match,
                  columns=columns, rows=rows, standing=standing, replays=with_replays,
                  score_decimals=score_decimals,
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
            self.page(f"replay_{view.kind}.html", path, key=key, info=info, match=match,
                      deal=deal, view=view, S=_Seats(seat_links), N=_Seats(seat_names),
                      prev=numbers[index - 1] if index else None,
                      next=numbers[index + 1] if index + 1 < len(numbers) else None)
            self.report.replays += 1

    # ---- players

    def _player_context(self, pools: list[PoolData]) -> dict:
        """What every player's page needs, worked out once."""
        counts = self._match_counts()
        player_event_ids: dict[int, set[int]] = {}
        for event_id, record in self.event_records.items():
            for pid in record["players"]:
                player_event_ids.setdefault(pid, set()).add(int(event_id))
        for pid, rows in self.player_events.items():
            player_event_ids.setdefault(pid, set()).update(r.event_id for r in rows)
        # by id (the players' list sorts them by name in each language when made)
        live = sorted((p for p in self.players.values() if p.merged_into is None),
                      key=lambda p: p.id)
        # the leaderboard entries of the players whose pages' keys are worked out
        # (:meth:`_load_ratings`), by game and player id
        entries: dict[str, dict[int, Any]] = {pool.variant: {} for pool in pools}
        # the players' list counts the matches of complete rounds (as its ratings);
        # the games each is rated in are filled in when it is made (:meth:`_rated_in`)
        summary = [{"player": p, "events": len(self.player_events.get(p.id, ())),
                    "matches": counts.get(p.id, 0)} for p in live]
        # the events and rounds of the matches the rendered pages' histories link to
        # (:meth:`_load_match_refs`)
        return {"match_refs": {}, "entries": entries, "summary": summary,
                "pools": pools, "event_ids": player_event_ids}

    def _keep_unchanged_players(self, changed: set[int] | None, old_files: dict
                                ) -> list[int]:
        """Keep the pages of the players not ``changed`` (None: every one may have)
        with the keys they had, not worked out, where the old site has each in every
        language under one key; the players whose pages' keys are to be worked out.
        Where kept pages need no look (the site untouched since its publish, updated
        in place) the old manifest's keys are compared and taken over in bulk (a set
        and dict operation each, not a call per player of a big league)."""
        ids = sorted(self.players)
        if changed is None or self.previous is None:
            return ids
        unchanged = [pid for pid in ids if pid not in changed]
        paths = [self.links.player(pid) for pid in unchanged]
        had = [old_files.get(path) for path in paths]
        if not (self.live and self.trusted):
            kept = {pid for pid, path, key in zip(unchanged, paths, had)
                    if key and self._reused(path, key)}
            return [pid for pid in ids if pid not in kept]
        same = [bool(key) for key in had]
        rels: list[str] = []
        keys: list[str] = []
        for renderer in self.renderers[1:]:  # the first's paths are those above
            theirs = [old_files.get(renderer.prefix + path) for path in paths]
            same = [s and a == b for s, a, b in zip(same, had, theirs)]
        kept = set()
        for pid, path, key, ok in zip(unchanged, paths, had, same):
            if ok:
                kept.add(pid)
                for renderer in self.renderers:
                    rels.append(renderer.prefix + path)
                    keys.append(key)
        self.files.update(zip(rels, keys))
        self.reused.update(rels)
        self.report.pages += len(rels)
        return [pid for pid in ids if pid not in kept]

    def _load_match_refs(self, pools: list[PoolData], context: dict,
                         player_ids: Collection[int], every: bool) -> None:
        """The events and rounds of the matches the histories of these players' pages
        link to (every match's, when most pages are rendered), not of every match of
        the league after one result."""
        if not player_ids:
            return
        if every or self.previous is None:
            context["match_refs"] = self.reader.match_refs()
            return
        linked = {point.match_id for pool in pools for pid in player_ids
                  for point in pool.history.get(pid, ())}
        context["match_refs"] = self.reader.match_refs(linked) if linked else {}

    def _match_counts(self) -> dict[int, int]:
        """Per player, the matches with a result of the rounds the site-wide lists
        count (:meth:`SiteReader.match_counts` without the rounds being played):
        the old manifest's while the rounds they count are the ones it counted (by
        each event's last complete round and those rounds' stamps and digests),
        else read over every match place."""
        counted = []
        for event_id, record in sorted(self.event_records.items(), key=lambda e: int(e[0])):
            after = record.get("after_round")
            parts = record.get("parts")
            if not isinstance(parts, dict):
                counted = None
                break
            counted.append((event_id, after, sorted(
                (int(n), part.get("stamp"), part.get("standings"))
                for n, part in parts.items()
                if isinstance(part, dict) and (after is None or int(n) <= after))))
        key = content_key(self.site_key, "match counts", counted) if counted is not None else ""
        had = self.previous.manifest.get("match_counts") if self.previous is not None else None
        if key and isinstance(had, dict) and had.get("key") == key \
                and isinstance(had.get("counts"), list):
            flat = had["counts"]  # player id, count, player id, count, ...
            self.match_counts_record = had
            return dict(zip(flat[::2], flat[1::2]))
        counts = self.reader.match_counts(without=self.pending)
        self.match_counts_record = {"key": key, "counts": [
            value for pair in sorted(counts.items()) for value in pair]}
        return counts

    def _ratings(self, player_id: int, context: dict) -> list[dict]:
        entries = context["entries"]
        ratings = []
        for pool in context["pools"]:
            entry = entries[pool.variant].get(player_id)
            history = pool.history.get(player_id, [])
            if entry is None and player_id not in pool.digest:
                continue
            ratings.append({"pool": pool, "entry": entry, "history": history,
                            "chart_id": f"chart-{pool.variant}"})
        return ratings

    def _player_key(self, player_id: int, context: dict) -> str:
        player = self.players[player_id]
        if player.merged_into is not None:
            kept = self._kept(player)
            return content_key(self.site_key, "merged", self._names({player.id, kept.id}))
        return self.player_key(player, self._ratings(player_id, context),
                               context["event_ids"].get(player_id, set()),
                               context["match_refs"])

    def _player_page(self, player_id: int, key: str, context: dict) -> tuple[str, str, str, dict]:
        """A player's page: its template, path, content key and context (the
        player's matches loaded, :meth:`_load_player_matches`)."""
        player = self.players[player_id]
        path = self.links.player(player.id)
        if player.merged_into is not None:
            return "merged.html", path, key, {"player": player, "kept": self._kept(player)}
        ratings = self._ratings(player_id, context)
        match_refs = context["match_refs"]
        match_info = {}
        for r in ratings:
            for h in r["history"]:
                ref = match_refs.get(h.match_id)
                if ref is not None:
                    match_info[h.match_id] = MatchRef(*ref)
        matches = sorted(self.player_matches.get(player.id, []),
                         key=lambda m: (-self.events_by_id[m.event_id].sort_date.toordinal(),
                                        -m.event_id, -m.round))
        events = sorted(self.player_events.get(player.id, []),
                        key=lambda e: (self.events_by_id[e.event_id].sort_date,
                                       e.event_id), reverse=True)
        # the matches table shows byes too, each in its round
        byes = [PlayerBye(e.event_id, number, self.events_by_id[e.event_id].bye_points)
                for e in events for number in e.byes]
        forfeits = [PlayerForfeit(e.event_id, number,
                                  0.0 if absent else self.events_by_id[e.event_id].bye_points,
                                  absent, reason)
                    for e in events
                    for number, absent, reason in zip(e.forfeits, e.forfeit_absent,
                                                      e.forfeit_reasons)]
        rounds = sorted(matches + byes + forfeits, key=lambda m: (
            -self.events_by_id[m.event_id].sort_date.toordinal(), -m.event_id, -m.round))
        return "player.html", path, key, {
            "player": player, "ratings": ratings, "matches": matches, "events": events,
            "rounds": rounds,
            "match_info": match_info, "my_matches": {m.match_id: m for m in matches},
            "ordinal": ordinal}

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
    shared: dict[int, bool] = {}
    for p in places:  # (no Counter: this runs for every match on every publish)
        shared[p.place] = p.place in shared
    return shared


def astuple_entry(entry) -> tuple:
    """A leaderboard entry's fields as a plain tuple (for a content key)."""
    return (entry.player_id, entry.player, entry.variant, entry.mu, entry.sigma,
            entry.matches, entry.provisional)


def _score_value(text: str):
    """A score's text as a number; a text that is none stays text: "inf", "nan" and
    "1e400" too, which float() reads (a phone's invalid result holding one made the
    organizer's page fail on formatting it)."""
    try:
        value = float(text)
    except ValueError:
        return text
    return plain_number(value) if math.isfinite(value) else text


__all__ = [
    "Links",
    "PublishReport",
    "SiteBuilder",
    "choose_languages",
    "publish",
]
