"""Open data beside the pages: JSON for other programs (a club's website showing
its standings) and an Atom feed of each event's rounds.

Every file names its JSON Schema (``"$schema"``, shipped in
``tourney/reports/schemas/``; docs/guide/publishing.md describes them). The files are
language-independent and sit once in the site's root tree:

- ``data/index.json``: the site (title, organisation, when published), every event
  with the paths of its files, the players' and leaderboards' files;
- ``data/players.json``: every player (id, name, club, the kept player of a merged
  duplicate, the page);
- ``data/ratings/<variant>.json``: a variant's leaderboard;
- ``events/<slug>/event.json``: an event: game, rules, table sizes, rounds,
  status, its entrants;
- ``events/<slug>/standings.json``: the standings with the tie-break values (after
  the last complete round while a round is being played, as the event's page);
- ``events/<slug>/rounds.json``: every round's tables (players in seat order, seats
  from 1) and byes;
- ``events/<slug>/matches-<n>.json``: round n's matches with a result: places,
  totals, match points (a file a round: a result changes only its round's); and
  its tables scored by a forfeit: who was absent (0), the others (a bye's points
  each), the reason given;
- ``events/<slug>/feed.atom``: an Atom feed, an entry per seated round;
- ``series/<slug>.json``: a series' standings: its rules and events, every
  player's results and totals, its teams;
- ``series/<slug>.atom``: an Atom feed of a series, an entry per event.

Only ``data/index.json`` holds the publication time; every other file changes only
when what it describes changes (an event's files are reused with its pages).
Text in these files is as stored (a name is a name, not HTML): a page that shows it
must escape it.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import re
import uuid
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple
from xml.etree import ElementTree

from tourney import __version__
from tourney.errors.seats import seat_number
from tourney.times import utc_iso
from tourney.tournament.settings import table_sizes_json

from .data import EventData, EventInfo, MatchData, PlayerInfo, PoolData, RoundData, TableData

SCHEMA_BASE = "https://tourney.invalid/schemas/"  # the schemas' ids; files ship in the package
ATOM_NS = "http://www.w3.org/2005/Atom"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
FEED_NAMESPACE = uuid.UUID("6f1c1a52-3c1e-4a52-9a5e-5d2f1b8f7c11")  # feed and entry ids
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def schema_id(name: str) -> str:
    return f"{SCHEMA_BASE}{name}.schema.json"


def dump(kind: str, body: dict) -> bytes:
    """A file of open data: its schema first, then the data, stable bytes; compact
    (indenting takes json's pure-Python encoder: several times the time of the
    data's own work for a big event's standings)."""
    return (json.dumps({"$schema": schema_id(kind), **body}, ensure_ascii=False,
                       separators=(",", ":"), default=_plain) + "\n").encode("utf-8")


def _plain(value: Any):
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, dt.datetime):
        return utc_iso(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"not JSON: {type(value).__name__}")


def number(value):
    if value is None:
        return None
    if isinstance(value, Fraction):
        value = float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def moment(value: dt.datetime | None) -> str | None:
    return utc_iso(value)  # the one form of a time in tourney's JSON


# ------------------------------------------------------------------------ event files

def event_ref(info: EventInfo) -> dict:
    return {"slug": info.slug, "name": info.name}


def matches_path(event_dir: str, round_number: int) -> str:
    """The file of one round's matches (one a round: a result changes its round's)."""
    return f"{event_dir}/matches-{round_number}.json"


def event_body(info: EventInfo, data: EventData, event_dir: str) -> dict:
    """``event.json``: the event's settings, status and entrants."""
    return {
        "event": {**event_ref(info), "variant": info.variant,
                  "date": info.date.isoformat() if info.date else None,
                  "status": info.status, "rounds_planned": info.rounds_planned,
                  "rounds_seated": info.rounds_seated, "table_sizes": table_sizes_json(
                      info.table_min, info.table_max, info.table_preferred),
                  "seating": info.seating, "rules": dict(info.rules),
                  "options": dict(info.options) if info.options is not None else None,
                  "tiebreaks": list(info.tiebreaks),
                  "page": f"{event_dir}/index.html"},
        "entrants": [{"player": e.player_id, "first_round": e.first_round,
                      "withdrawn_after": e.withdrawn_after}
                     for e in sorted(data.entries, key=lambda e: e.player_id)],
    }


def standings_body(info: EventInfo, data: EventData) -> dict:
    """``standings.json``: the standings the event's page shows, after
    ``after_round`` while a round is being played (:meth:`SiteReader.event_data`)."""
    return {"event": event_ref(info), "tiebreaks": list(info.tiebreaks),
            "after_round": data.after_round, "standings": [
        {"place": row.place, "shared": row.shared, "player": row.player_id, "name": row.player,
         "points": number(row.points), "matches": row.matches, "wins": row.wins,
         "byes": row.byes, "tiebreaks": {k: number(v) for k, v in row.tiebreaks.items()},
         "decided_by": row.decided_by, "withdrawn_after": row.withdrawn_after,
         "forfeits": row.forfeits, "forfeit_wins": row.forfeit_wins,
         "adjustments": [{"id": a["id"], "points": number(a["points"]), "reason": a["reason"],
                          "round": a["round"]} for a in row.adjustments]}
        for row in data.standings]}


def rounds_body(info: EventInfo, data: EventData, event_dir: str) -> dict:
    """``rounds.json``: the seating of every round (it changes when a round is
    seated; the results are in each round's matches file)."""
    return {"event": event_ref(info), "rounds": [
        {"round": rnd.number, "page": f"{event_dir}/round-{rnd.number}.html",
         "tables": [{"table": t.label, "players": list(t.players)} for t in rnd.tables],
         "byes": list(rnd.byes)} for rnd in data.rounds]}


def round_matches_body(info: EventInfo, round_number: int, matches: list[MatchData],
                       event_dir: str, forfeited: Sequence[TableData] = ()) -> dict:
    """``matches-<n>.json``: round ``round_number``'s matches with a result, and its
    tables scored by a forfeit (``forfeited``)."""
    return {"event": event_ref(info), "round": round_number, "forfeits": [
        {"table": t.label, "absent": [p for p in t.players if p in t.forfeit.absent],
         "others": [p for p in t.players if p not in t.forfeit.absent],
         "others_points": number(info.bye_points), "reason": t.forfeit.reason}
        for t in forfeited if t.forfeit is not None], "matches": [
        {"match": m.id, "round": m.round, "table": m.table, "version": m.version,
         "imported_at": moment(m.imported_at), "deals": m.deals,
         "deals_replayed": m.verified_moves, "page": f"{event_dir}/match-{m.id}.html",
         "results": [{"seat": seat_number(p.seat), "player": p.player_id, "place": p.place,
                      "total": number(p.total), "match_points": number(p.match_points)}
                     for p in m.places]}
        for m in matches if m.has_result]}


def _xml_text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


class FeedRound(NamedTuple):
    """What an event's feed shows of a round (:func:`feed_round`)."""
    number: int
    updated: str | None  # its latest result or forfeit, else when it was seated
    tables: int
    results: int
    forfeits: int
    byes: int


def feed_round(rnd: RoundData) -> FeedRound:
    """A round's entry in its event's feed, as the feed shows it: updated when it was
    seated or its latest result came in."""
    # a forfeited table is decided as a result is: counted with the results, and
    # its forfeit updates the round's entry as a result coming in does
    times = [m.imported_at for t in rnd.tables if (m := t.match) is not None
             and m.has_result and m.imported_at is not None]
    times += [t.forfeit.at for t in rnd.tables
              if t.forfeit is not None and t.forfeit.at is not None]
    if rnd.seated_at is not None:
        times.append(rnd.seated_at)
    return FeedRound(rnd.number, max((moment(t) for t in times), default=None),
                     len(rnd.tables), rnd.results_in,
                     sum(1 for t in rnd.tables if t.forfeit is not None), len(rnd.byes))


def atom_feed(info: EventInfo, rounds: Sequence[FeedRound], event_dir: str, *, title: str,
              round_title, round_summary, lang: str, author: str,
              base_url: str | None) -> bytes:
    """The event's rounds (:func:`feed_round` each, by number) as an Atom feed in the
    site's language ``lang``: an entry per seated round (:func:`_atom`);
    ``round_summary(tables, results, forfeits, byes)`` words a round's counts in
    ``lang``."""
    entries = []
    for rnd in rounds:
        updated = rnd.updated or moment(info.created) or "1970-01-01T00:00:00Z"
        path = f"{event_dir}/round-{rnd.number}.html"
        entries.append((round_title(rnd.number), path, updated, path,
                        round_summary(rnd.tables, rnd.results, rnd.forfeits, rnd.byes)))
    entries.reverse()  # newest first
    feed_updated = (max((e[2] for e in entries), default=None) or moment(info.created)
                    or "1970-01-01T00:00:00Z")
    return _atom(f"{event_dir}/feed.atom", title=title, updated=feed_updated, author=author,
                 page=f"{event_dir}/index.html", entries=entries, base_url=base_url, lang=lang)


def _atom(path: str, *, title: str, updated: str, author: str, page: str,
          entries: list[tuple[str, str, str, str, str | None]], base_url: str | None,
          lang: str) -> bytes:
    """An Atom feed (RFC 4287) at ``path`` in the site, in the language ``lang``
    (its ``xml:lang``), its alternate link ``page``;
    ``entries``: (title, id path, updated, page, summary or None), in feed order.
    Links are relative to the feed (``base_url``: absolute); ids are the URLs with a
    base URL, else stable ``urn:uuid`` ids made from the paths."""
    folder = path.rsplit("/", 1)[0]

    def href(target: str) -> str:
        return base_url + target if base_url else os.path.relpath(target, folder)

    def ident(target: str) -> str:
        if base_url:
            return base_url + target
        return "urn:uuid:" + str(uuid.uuid5(FEED_NAMESPACE, target))

    ElementTree.register_namespace("", ATOM_NS)
    q = lambda tag: f"{{{ATOM_NS}}}{tag}"  # noqa: E731
    feed = ElementTree.Element(q("feed"), {XML_LANG: lang})
    ElementTree.SubElement(feed, q("title")).text = _xml_text(title)
    ElementTree.SubElement(feed, q("id")).text = ident(path)
    ElementTree.SubElement(feed, q("updated")).text = updated
    author_el = ElementTree.SubElement(feed, q("author"))
    ElementTree.SubElement(author_el, q("name")).text = _xml_text(author)
    ElementTree.SubElement(feed, q("link"), rel="alternate", type="text/html", href=href(page))
    ElementTree.SubElement(feed, q("link"), rel="self", type="application/atom+xml",
                           href=href(path))
    ElementTree.SubElement(feed, q("generator"), version=__version__).text = "tourney"
    for entry_title, entry_id, entry_updated, entry_page, summary in entries:
        entry = ElementTree.SubElement(feed, q("entry"))
        ElementTree.SubElement(entry, q("title")).text = _xml_text(entry_title)
        ElementTree.SubElement(entry, q("id")).text = ident(entry_id)
        ElementTree.SubElement(entry, q("updated")).text = entry_updated
        ElementTree.SubElement(entry, q("link"), rel="alternate", type="text/html",
                               href=href(entry_page))
        if summary is not None:
            ElementTree.SubElement(entry, q("summary")).text = summary
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(
        feed, encoding="utf-8", xml_declaration=False) + b"\n"


# ----------------------------------------------------------------------- series files

def series_body(standings, teams, team_pages: dict[str, str], ids: dict[str, int],
                page: str, feed: str, event_pages: dict[int, str]) -> dict:
    """A series' standings as open data (``series/<slug>.json``): its rules, its
    events in column order (those that count without a handicap marked), every
    player's results (by event slug, dropped ones marked) and totals, and its teams
    with their pages. Players by id."""
    slugs = [e.slug for e in standings.events]
    unhandicapped = {e.id for e in standings.without_handicap}
    rows = []
    for row in standings.rows:
        data = {"place": row.place, "player": row.player_id, "name": row.player,
                "qualified": row.qualified, "events_played": row.played,
                "events_counted": row.counted, "gross": number(row.gross),
                "handicap": number(row.handicap), "net": number(row.net),
                "total": number(row.total), "decided_by": row.decided_by,
                "results": [{"event": slug, "place": cell.place, "points": number(cell.gross),
                             "net": number(cell.net), "counted": cell.counted}
                            for slug, cell in zip(slugs, row.cells) if cell is not None]}
        rows.append(data)
    return {
        "series": {**standings.series.to_json(), "handicap_game": standings.handicap_game,
                   "page": page, "feed": feed},
        "events": [{"slug": e.slug, "name": e.name, "variant": e.variant,
                    "date": e.date.isoformat() if e.date else None,
                    "page": event_pages[e.id],
                    "standings": event_pages[e.id].rsplit("/", 1)[0] + "/standings.json",
                    "without_handicap": e.id in unhandicapped}
                   for e in standings.events],
        "standings": rows,
        "teams": [{"place": t.place, "shared": t.shared, "team": t.team,
                   "total": number(t.total), "page": team_pages[t.team],
                   "members": [{"player": ids.get(name), "name": name, "points": number(value),
                                "counted": counted}
                               for members, counted in ((t.counted, True), (t.others, False))
                               for name, value in members]}
                  for t in teams],
    }


def series_feed(standings, updated: dict[int, dt.datetime | None], feed_path: str,
                page: str, event_pages: dict[int, str], *, title: str, entry_title,
                lang: str, author: str, base_url: str | None) -> bytes:
    """A series as an Atom feed (``series/<slug>.atom``): an entry per event, newest
    first, updated when its latest result came in, linking the event's page; the
    feed's own link is the series' standings page (:func:`_atom`)."""
    entries = []
    for event in standings.events:
        stamp = (moment(updated.get(event.id)) or moment(event.created_at)
                 or "1970-01-01T00:00:00Z")
        entries.append((entry_title(event), f"{feed_path}#{event.slug}", stamp,
                        event_pages[event.id], None))
    entries.sort(key=lambda entry: entry[2], reverse=True)
    return _atom(feed_path, title=title,
                 updated=entries[0][2] if entries else "1970-01-01T00:00:00Z",
                 author=author, page=page, entries=entries, base_url=base_url, lang=lang)


# ------------------------------------------------------------------------ site files

def players_file(players: dict[int, PlayerInfo]) -> bytes:
    return dump("players", {"players": [
        {"id": p.id, "name": p.name, "club": p.club, "merged_into": p.merged_into,
         "page": f"players/{p.id}.html"} for p in sorted(players.values(), key=lambda p: p.id)]})


def ratings_file(pool: PoolData, slugs: dict[int, str]) -> bytes:
    """A game's leaderboard as the site's lists show it: without the results of the
    rounds being played (``not_counted``, by event slug and round), which count when
    their round is complete."""
    board = pool.board if pool.board is not None else pool.leaderboard
    rows = []
    for rank, entry in enumerate((e for e in board if not e.provisional), 1):
        rows.append({"rank": rank, **_rating(entry)})
    provisional = [_rating(e) for e in board if e.provisional]
    return dump("ratings", {"variant": pool.variant,
                            "provisional_matches": pool.provisional_matches,
                            "leaderboard": rows, "provisional": provisional,
                            "not_counted": [{"event": slugs[e], "round": n}
                                            for e, n in pool.board_pending]})


def _rating(entry) -> dict:
    return {"player": entry.player_id, "name": entry.player, "mu": round(entry.mu, 6),
            "sigma": round(entry.sigma, 6), "ordinal": round(entry.ordinal, 6),
            "matches": entry.matches}


def index_file(events: list[EventInfo], event_dirs: dict[int, str], variants: list[str],
               settings, now: dt.datetime, series=()) -> bytes:
    return dump("index", {
        "site": {"title": settings.title, "organisation": settings.organisation,
                 "url": settings.url},
        "generator": f"tourney {__version__}",
        "published_at": moment(now),
        "players": "data/players.json",
        "ratings": {v: f"data/ratings/{v}.json" for v in variants},
        "events": [{"slug": e.slug, "name": e.name, "variant": e.variant,
                    "date": e.date.isoformat() if e.date else None, "status": e.status,
                    "page": f"{event_dirs[e.id]}/index.html",
                    "files": {**{kind: f"{event_dirs[e.id]}/{kind}.json"
                                 for kind in ("event", "standings", "rounds")},
                              "matches": [matches_path(event_dirs[e.id], n)
                                          for n in range(1, e.rounds_seated + 1)]},
                    "feed": f"{event_dirs[e.id]}/feed.atom"} for e in events],
        "series": [{"slug": s["slug"], "name": s["name"], "page": s["path"],
                    "file": s["data"], "feed": s["feed"]}
                   for s in sorted(series, key=lambda s: s["slug"])],
    })


__all__ = ["FeedRound", "atom_feed", "dump", "event_body", "event_ref", "feed_round",
           "index_file", "matches_path",
           "players_file", "ratings_file", "round_matches_body", "rounds_body", "schema_id",
           "series_body", "series_feed", "standings_body"]
