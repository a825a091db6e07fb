"""The published site, built from a league made through the CLI, on SQLite and
PostgreSQL: every page valid HTML, links that resolve, user text escaped, and
tables that say what the database says."""
from __future__ import annotations

import csv
import io
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import BACKENDS, run_cli
from site_helpers import (
    HOSTILE_CLUB,
    HOSTILE_EVENT,
    HOSTILE_PLAYER,
    PLAYERS,
    build_league,
    find_table,
    parse_page,
    reset_postgres,
    table_rows,
    text_of,
)

from tourney.reports import i18n
from tourney.reports.folders import MANIFEST, SITE_MARKER


@dataclass
class League:
    url: str
    work: Path
    seatings: dict
    site: Path


@pytest.fixture(scope="module", params=BACKENDS)
def league(request, tmp_path_factory) -> League:
    backend = request.param
    work = tmp_path_factory.mktemp(f"league-{backend}")
    if backend == "sqlite":
        url = f"sqlite:///{work / 'league.db'}"
    else:
        url = request.getfixturevalue("pg_database")
        reset_postgres(url)
    seatings = build_league(run_cli, url, work)
    site = work / "site"
    run_cli(url, "publish", "--out", str(site))
    return League(url, work, seatings, site)


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def page_id(site: Path, player_name: str, league: League | None = None) -> int:
    """A player's id, from the link on the players' index."""
    tree = parse_page(site / "players" / "index.html")
    href = next(a.get("href") for a in tree.iter("a") if text_of(a) == player_name)
    return int(re.search(r"players/(\d+)\.html$", href).group(1))


def wait_for_cleanup(parent: Path, name: str, timeout: float = 30) -> list[str]:
    """The names beside the site left by publishing, once the background cleanup
    has had time to finish."""
    deadline = time.monotonic() + timeout
    while True:
        left = [p.name for p in parent.iterdir() if p.name.startswith(f".{name}.")]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


# ------------------------------------------------------------------ every page

def test_every_page_is_valid_html_with_unique_ids(league):
    files = pages(league.site)
    assert len(files) > 60
    for path in files:
        tree = parse_page(path)  # strict: any parse error raises
        ids = [e.get("id") for e in tree.iter() if e.get("id")]
        assert len(ids) == len(set(ids)), path
        assert tree.find("head/title") is not None and text_of(tree.find("head/title"))
        assert tree.get("lang") == "en"


def test_links_are_relative_and_resolve(league):
    site = league.site
    for path in pages(site):
        tree = parse_page(path)
        ids = {e.get("id") for e in tree.iter() if e.get("id")}
        refs = [(e.tag, e.get("href") or e.get("src")) for e in tree.iter()
                if e.tag in ("a", "link", "script") and (e.get("href") or e.get("src"))]
        for tag, ref in refs:
            if ref == "data:,":  # the empty favicon: no request for /favicon.ico
                continue
            parts = urlsplit(ref)
            assert not parts.scheme and not parts.netloc, (path, ref)
            assert not ref.startswith("/"), (path, ref)
            if not parts.path:
                assert parts.fragment in ids, (path, ref)
                continue
            target = (path.parent / unquote(parts.path)).resolve()
            assert target.is_file(), (path, ref)
            assert site.resolve() in target.parents, (path, ref)


def test_user_text_is_escaped_everywhere(league):
    raw_player = HOSTILE_PLAYER
    raw_event = HOSTILE_EVENT
    seen_player = seen_event = seen_club = 0
    for path in pages(league.site):
        html = path.read_text(encoding="utf-8")
        assert raw_player not in html, path
        assert raw_event not in html, path
        assert "<b>Klubb" not in html, path
        # The only scripts are the site's own files: sort.js, and step.js on replays.
        root = "../" * path.relative_to(league.site).as_posix().count("/")
        own = [f'<script src="{root}static/sort.js" defer>']
        if "-deal-" in path.name:
            own.append(f'<script src="{root}static/step.js" defer>')
        assert re.findall(r"<script\b[^>]*>", html) == own, path
        tree = parse_page(path)
        body_text = text_of(tree.find("body"))
        seen_player += raw_player in body_text
        seen_event += raw_event in body_text
        seen_club += HOSTILE_CLUB in body_text
    # ... and shown as text: on the index, its event, rounds, matches, players.
    assert seen_player > 10 and seen_event > 5 and seen_club >= 1


# ------------------------------------------------------------------ contents

def test_index_lists_events_by_status_and_leaderboards(league):
    tree = parse_page(league.site / "index.html")
    sections = {text_of(h): h for h in tree.iter("h3")}
    assert "Upcoming" in sections and "Finished" in sections
    text = text_of(tree.find("body"))
    assert "Autumn open" in text
    assert text.index("Upcoming") < text.index("Autumn open") < text.index("Finished")
    for variant_name in ("Spardame (Norwegian)", "Svarta Maja (Spader dam)",
                         "Dam, the board game (checkers, Alga rules)"):
        assert variant_name in text
    ratings = run_cli(league.url, "rating", "show", "--json").json
    assert ratings  # every player played: every pool has ratings
    for variant in {r["variant"] for r in ratings}:
        assert (league.site / "ratings" / f"{variant}.html").is_file()
        # Every rated player is on the full leaderboard, in the CLI's order (by
        # rating), provisional ones ranked among them and marked, none left out.
        board = parse_page(league.site / "ratings" / f"{variant}.html")
        rows = [[text_of(td) for td in tr.iter("td")] for tr in board.iter("tr")]
        rows = [r for r in rows if r]
        mine = [r for r in ratings if r["variant"] == variant]
        assert [r[0] for r in rows] == [str(i) for i in range(1, len(mine) + 1)]
        for row, entry in zip(rows, mine):
            assert row[1].startswith(entry["player"])
            assert row[1].endswith("provisional") == entry["provisional"]


def _page_points(text: str) -> float:
    """Match points as a page shows them: "1.67", or "1½" and "½" in a column of halves."""
    return float(text[:-1] or 0) + 0.5 if text.endswith("½") else float(text)


def test_standings_match_the_cli(league):
    for slug in ("spring-cup", "dam-night", "brade-cup"):
        expected = run_cli(league.url, "standings", slug, "--json").json
        tree = parse_page(league.site / "events" / slug / "index.html")
        rows = table_rows(find_table(tree, "standings"))
        assert [r[1].split(" (withdrew")[0] for r in rows] == [e["player"] for e in expected]
        assert [int(r[0].rstrip("=")) for r in rows] == [e["place"] for e in expected]
        shared = [r[0].endswith("=") for r in rows]
        places = [e["place"] for e in expected]
        assert shared == [places.count(p) > 1 for p in places]
        # the page rounds (a half of a column of halves as ½); JSON keeps the value
        assert [_page_points(r[2]) for r in rows] == pytest.approx(
            [e["points"] for e in expected], abs=0.006)
        # The tie-break columns, in the event's order, then matches played.
        headers = [text_of(th) for th in find_table(tree, "standings").find("thead").iter("th")]
        assert headers[:3] == ["Place", "Player", "Points"]
        assert headers[3:7] == ["Opponents' strength", "Relative score", "Wins", "Matches"]
        for row, entry in zip(rows, expected):
            assert float(row[3]) == pytest.approx(entry["tiebreaks"]["opponents"], abs=0.006)
            assert float(row[4]) == pytest.approx(entry["tiebreaks"]["score"], abs=0.006)
            assert int(row[5]) == entry["tiebreaks"]["wins"]


def test_seat_lists_match_the_rounds(league):
    for slug, seatings in league.seatings.items():
        for seating in seatings:
            tree = parse_page(league.site / "events" / slug / f"round-{seating['round']}.html")
            cards = [s for s in tree.iter("section")
                     if "table-card" in (s.get("class") or "")]
            shown = [[text_of(li) for li in card.iter("li")] for card in cards]
            assert shown == [t["seats"] for t in seating["tables"]]
            by_name = table_rows(find_table(tree, "by-name"))
            everyone = sorted((name, t["table"], str(i + 1)) for t in seating["tables"]
                              for i, name in enumerate(t["seats"]))
            assert sorted(tuple(r) for r in by_name) == everyone


def test_match_pages_show_every_deal_and_replays(league):
    export = run_cli(league.url, "result", "export", "spring-cup").stdout
    rows = list(csv.DictReader(io.StringIO(export)))
    by_match: dict[tuple, list[dict]] = {}
    for row in rows:
        by_match.setdefault((row["round"], row["table"]), []).append(row)
    event_dir = league.site / "events" / "spring-cup"
    match_pages = sorted(p for p in event_dir.glob("match-*.html") if "deal" not in p.name)
    assert len(match_pages) == len(by_match) == 4
    score_sheets = 0
    for page in match_pages:
        tree = parse_page(page)
        title = text_of(tree.find("body/main/h1"))
        round_number, table = re.search(r"round (\d+), table (\S+)$", title).groups()
        deals = by_match[(round_number, table)]
        table_el = find_table(tree, "deals")
        shown = table_rows(table_el)
        assert len(shown) == len(deals)
        header = [text_of(th) for th in table_el.find("thead").iter("th")]
        for row, deal in zip(shown, deals):
            assert row[0] == deal["deal"]
            names = deal["players"].split(";")
            scores = dict(zip(names, deal["scores"].split(";")))
            for name, score in scores.items():
                assert row[header.index(name)] == score
            match_id = re.search(r"match-(\d+)", page.name).group(1)
            replay = event_dir / f"match-{match_id}-deal-{deal['deal']}.html"
            if deal["play"]:
                assert row[-1] == "replay" and replay.is_file()
            else:
                assert row[-1] == "score sheet" and not replay.exists()
                score_sheets += 1
    assert score_sheets == 1


def test_replay_pages_show_the_deal(league):
    event_dir = league.site / "events" / "spring-cup"
    replay = min(event_dir.glob("match-*-deal-1.html"))
    tree = parse_page(replay)
    tricks = table_rows(find_table(tree, "tricks"))
    assert [r[0] for r in tricks] == [str(i) for i in range(1, 14)]
    hands = table_rows(find_table(tree, "hands"))
    assert len(hands) == 4 and all(len(r[1].split()) == 13 for r in hands)
    scores = table_rows(find_table(tree, "scores"))
    assert sum(int(r[1]) for r in scores) in (240, 300)  # 240, or a moon: 0 + 3 x 100
    for slug, table in (("maja-open", "exchanges"), ("row-club", "turns"),
                        ("sju-kvall", "turns")):
        page = min((league.site / "events" / slug).glob("match-*-deal-1.html"))
        assert table_rows(find_table(parse_page(page), table))
    board_page = min((league.site / "events" / "brade-cup").glob("match-*-deal-1.html"))
    boards = [t for t in parse_page(board_page).iter("table")
              if "board" in (t.get("class") or "").split()]
    assert boards and all(len(b.find("tbody").findall("tr")) == 8 for b in boards)


def test_every_event_on_every_replay_names_its_player(league):
    """An event of a replay names its player by name, never "?": the step's events
    were once rendered by a macro that could not see the seats' names."""
    unnamed = re.compile(r"(^|[\s★(])\?($|[\s:,.)])")
    named = 0
    for page in sorted((league.site / "events").rglob("match-*-deal-*.html")):
        tree = parse_page(page)
        for item in tree.iter("li"):
            if not any(c.startswith("ev-") for c in (item.get("class") or "").split()):
                continue
            words = text_of(item)
            assert not unnamed.search(words), f"{page.relative_to(league.site)}: {words!r}"
            named += any(name in words for name in PLAYERS)
    assert named > 10  # the spardame and dam-stick events name their players


def test_player_pages(league):
    pid = page_id(league.site, HOSTILE_PLAYER, league)
    tree = parse_page(league.site / "players" / f"{pid}.html")
    assert text_of(tree.find("body/main/h1")) == HOSTILE_PLAYER
    matches = table_rows(find_table(tree, "player-matches"))
    seated = sum(1 for seatings in league.seatings.values() for s in seatings
                 for t in s["tables"] if HOSTILE_PLAYER in t["seats"])
    assert len(matches) == seated
    # A rating chart per variant played, with its table as the text alternative.
    history = run_cli(league.url, "rating", "history", HOSTILE_PLAYER, "--json").json
    entries = history["history"] if isinstance(history, dict) else history
    variants = {e["variant"] for e in entries}
    svgs = [e for e in tree.iter() if isinstance(e.tag, str) and e.tag.endswith("}svg")]
    assert len(svgs) == len(variants) >= 5
    for svg in svgs:
        assert svg.get("role") == "img" and svg.get("aria-labelledby")
    tables = [t for t in tree.iter("table") if "history" in (t.get("class") or "")]
    assert sum(len(table_rows(t)) for t in tables) == len(entries)
    players = table_rows(find_table(parse_page(league.site / "players" / "index.html"),
                                    "players"))
    assert sorted(r[0] for r in players) == sorted(PLAYERS)


def test_rules_in_words(league):
    text = text_of(parse_page(league.site / "events" / "spring-cup" / "index.html")
                   .find("body"))
    assert ("Cards are passed left, right, across and not at all, by deal number; at tables "
            "of 3 or 5, left, right and not at all.") in text
    assert "A match is 2 deals, with no extra deals on a tie." in text
    assert "Tables of 4 players." in text
    brade = text_of(parse_page(league.site / "events" / "brade-cup" / "index.html")
                    .find("body"))
    assert "A match is 2 games; the colours alternate." in brade


# ------------------------------------------------------------------ publishing

def test_event_option_limits_replays(league):
    out = league.work / "one-event"
    run_cli(league.url, "publish", "--out", str(out), "--event", "maja-open")
    replays = {p.parent.name for p in out.rglob("match-*-deal-*.html")}
    assert replays == {"maja-open"}
    page = next(p for p in (out / "events" / "dam-night").glob("match-*.html"))
    assert "not published" in text_of(parse_page(page).find("body"))
    run_cli(league.url, "publish", "--out", str(out), "--event", "nope", exit_code=2)
    run_cli(league.url, "publish", "--out", str(out), "--no-replays")
    assert not list(out.rglob("match-*-deal-*.html"))


def test_languages_each_get_a_tree_with_a_switcher(league):
    out = league.work / "two-languages"
    run_cli(league.url, "publish", "--out", str(out), "--lang", "en", "--lang", "sv")
    english = sorted(p.relative_to(out).as_posix() for p in pages(out)
                     if not p.relative_to(out).as_posix().startswith("sv/"))
    swedish = sorted(p.relative_to(out / "sv").as_posix() for p in pages(out / "sv"))
    assert english == swedish
    page = parse_page(out / "sv" / "events" / "spring-cup" / "index.html")
    switcher = page.find(".//nav[@class='langs']")
    links = {a.get("hreflang"): a.get("href") for a in switcher.iter("a")}
    assert set(links) == {"en"}
    target = (out / "sv" / "events" / "spring-cup" / links["en"]).resolve()
    assert target == (out / "events" / "spring-cup" / "index.html").resolve()
    # Dates in the page's locale.
    assert "11 maj 2024" in text_of(page.find("body"))
    run_cli(league.url, "publish", "--out", str(out), "--lang", "xx-nope", exit_code=2)


def test_worker_processes_build_the_same_site(league):
    out = league.work / "two-jobs"
    single = league.work / "one-job"
    run_cli(league.url, "publish", "--out", str(single))
    run_cli(league.url, "publish", "--out", str(out), "--jobs", "2")
    names = sorted(p.relative_to(single).as_posix() for p in single.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    stamp = re.compile(r"<footer.*?</footer>|\"(built_at|published_at)\": ?\"[^\"]*\"",
                       re.DOTALL)
    for name in names:
        if name == SITE_MARKER:  # publish's record of its folders' times
            continue
        mine = stamp.sub("", (out / name).read_text(encoding="utf-8", errors="replace"))
        theirs = stamp.sub("", (single / name).read_text(encoding="utf-8", errors="replace"))
        assert mine == theirs, name
    run_cli(league.url, "publish", "--out", str(out), "--jobs", "-1", exit_code=2)


def test_refuses_to_replace_a_folder_of_other_files(league):
    precious = league.work / "precious"
    precious.mkdir()
    (precious / "thesis.txt").write_text("do not delete")
    result = run_cli(league.url, "publish", "--out", str(precious), exit_code=2)
    assert "not empty" in result.stderr
    assert [p.name for p in precious.iterdir()] == ["thesis.txt"]
    a_file = league.work / "a-file"
    a_file.write_text("x")
    run_cli(league.url, "publish", "--out", str(a_file), exit_code=2)


def test_republishing_keeps_permalinks_and_swaps_the_whole_site(league):
    out = league.work / "site-again"
    run_cli(league.url, "publish", "--out", str(out))
    marker = json.loads((out / SITE_MARKER).read_text())
    assert marker["languages"] == ["en"]
    pid = page_id(out, "Björn Ek", league)
    page = out / "players" / f"{pid}.html"
    assert "Björn Ek" in text_of(parse_page(page).find("body/main/h1"))
    # A page the last publish wrote and this one does not (an event since deleted).
    stale = out / "events" / "stale-page.html"
    stale.write_text("left from an old site")
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["files"]["events/stale-page.html"] = ""
    (out / MANIFEST).write_text(json.dumps(manifest))
    run_cli(league.url, "player", "rename", "Björn Ek", "Björn Ekström")
    try:
        run_cli(league.url, "publish", "--out", str(out))
        assert text_of(parse_page(page).find("body/main/h1")) == "Björn Ekström"
        assert not stale.exists()  # a new site, not files written over the old one
        assert wait_for_cleanup(out.parent, out.name) == []
        assert sorted(p.name for p in out.parent.iterdir() if p.name.startswith("."))  == []
    finally:
        run_cli(league.url, "player", "rename", "Björn Ekström", "Björn Ek")


def test_every_visible_string_goes_through_the_catalogue(league, monkeypatch, tmp_path):
    """Publish with a pseudo-translation of every message (⟦...⟧) and check that
    each text on every page is either inside one, user text (names), or numbers,
    dates, cards and symbols."""
    from babel.dates import format_date
    from babel.messages.pofile import read_po, write_po

    with open(Path(i18n.__file__).parent / "locale" / "messages.pot", "rb") as stream:
        catalog = read_po(stream, locale="fi")
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            message.string = tuple(f"⟦{s}⟧" for s in message.id)
        else:
            message.string = f"⟦{message.id}⟧"
    folder = tmp_path / "locale" / "fi" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.po", "wb") as stream:
        write_po(stream, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    i18n.translations.cache_clear()
    try:
        out = tmp_path / "pseudo"
        run_cli(league.url, "publish", "--out", str(out), "--lang", "fi")
    finally:
        i18n.translations.cache_clear()

    # --all: the names kept as aliases by renames and merges are user text too
    players = run_cli(league.url, "player", "list", "--all", "--json").json
    events = run_cli(league.url, "event", "list", "--json").json
    user_text = sorted(({p["name"] for p in players} | {p.get("club") or "" for p in players}
                        | {e["name"] for e in events}) - {""}, key=len, reverse=True)
    import datetime as dt

    dates = {format_date(dt.date.fromisoformat(e["date"]), format="medium", locale="fi")
             for e in events if e["date"]}
    allowed = re.compile(r"^[\s\d½.,:;()\[\]/#=+\-–—−±%…›·←→★↕▲▼|\"'“”μσ♠♥♦♣⛀⛁⛂⛃♛&?]*$")
    bracketed = re.compile(r"⟦[^⟦⟧]*⟧")
    checked = 0
    for path in pages(out):
        tree = parse_page(path)
        for element in tree.iter():
            if element.tag in ("script", "style", "title", "desc") or not isinstance(
                    element.tag, str):
                continue
            texts = [element.text, element.tail] + [element.get(a) for a in
                                                    ("title", "aria-label", "alt")]
            for text in texts:
                if not text or not text.strip():
                    continue
                rest, before = text, None
                while rest != before:  # translations nest: ⟦Seating: ⟦balanced⟧.⟧
                    before, rest = rest, bracketed.sub(" ", rest)
                for name in user_text:
                    rest = rest.replace(name, " ")
                for day in dates:
                    rest = rest.replace(day, " ")
                rest = re.sub(r"\b(?:UTC|suomi)\b", " ", rest)
                # Checkers notation is record data: 11-15, 24x15x8, H18.
                rest = re.sub(r"\b(?:\d+(?:[-x]\d+)+|H\d+)\b", " ", rest)
                # Card symbols: rank letters are translated (⟦Q⟧♠) or digits.
                checked += 1
                assert allowed.match(rest), (path.relative_to(out), element.tag, text)
    assert checked > 1000


def test_a_merged_player_keeps_a_page_pointing_to_the_kept_one(league):
    from sqlalchemy import select

    from tourney.storage.db import open_engine, reading
    from tourney.storage.models import Player

    run_cli(league.url, "player", "add", "Anna L.")
    run_cli(league.url, "player", "merge", "Anna Lindqvist", "Anna L.")
    out = league.work / "merged"
    run_cli(league.url, "publish", "--out", str(out))
    with reading(open_engine(league.url)) as session:
        ids = dict(session.execute(select(Player.name, Player.id)).all())
    page = parse_page(out / "players" / f"{ids['Anna L.']}.html")
    refresh = page.find("head/meta[@http-equiv='refresh']")
    assert refresh.get("content") == f"0; url={ids['Anna Lindqvist']}.html"
    link = next(a for a in page.iter("a") if text_of(a) == "Anna Lindqvist")
    assert link.get("href") == f"../players/{ids['Anna Lindqvist']}.html"
    names = [r[0] for r in table_rows(find_table(parse_page(out / "players" / "index.html"),
                                                 "players"))]
    assert "Anna L." not in names and "Anna Lindqvist" in names


# ------------------------------------------------------------------ print and venue

def test_score_sheets_have_a_row_per_deal_and_a_column_per_seat(league):
    from tourney.tournament.sheets import OPEN_ENDED_ROWS

    expected_rows = {"spring-cup": 2, "maja-open": 2, "row-club": 2, "sju-kvall": 1,
                     "brade-cup": 2, "dam-night": OPEN_ENDED_ROWS}  # a target: open-ended
    for slug, seatings in league.seatings.items():
        for seating in seatings:
            path = league.site / "events" / slug / f"round-{seating['round']}-sheets.html"
            tree = parse_page(path)
            sheets = [s for s in tree.iter("section") if "score-sheet" in (s.get("class") or "")]
            assert len(sheets) == len(seating["tables"]), path
            for sheet, table in zip(sheets, seating["tables"]):
                grid = sheet.find(".//table")
                header = [text_of(th) for th in grid.find("thead").iter("th")]
                assert header[2:] == [f"Seat {i} {name}" for i, name in
                                      enumerate(table["seats"], 1)], path
                rows = table_rows(grid)
                assert [r[0] for r in rows] == [str(n) for n in
                                                range(1, expected_rows[slug] + 1)], path
                assert all(cell == "" for r in rows for cell in r[2:])  # left to fill in
                roles = [r[1] for r in rows]
                if slug == "spring-cup":  # the deal passes clockwise from seat 1
                    assert roles == table["seats"][:2]
                if slug == "brade-cup":  # Black alternates: seat 1, then seat 2
                    assert header[1] == "Black" and roles == table["seats"][:2]
    # The round page links to its sheets.
    tree = parse_page(league.site / "events" / "spring-cup" / "round-1.html")
    assert any((a.get("href") or "").endswith("/spring-cup/round-1-sheets.html")
               for a in tree.iter("a"))


def test_venue_screen_shows_the_latest_round_and_the_standings(league):
    path = league.site / "events" / "spring-cup" / "screen.html"
    tree = parse_page(path)
    assert "screen" in tree.find("body").get("class").split()
    latest = league.seatings["spring-cup"][-1]
    cards = [s for s in tree.iter("section") if "table-card" in (s.get("class") or "")]
    assert [[text_of(li) for li in card.iter("li")] for card in cards] == \
        [t["seats"] for t in latest["tables"]]
    standings = table_rows(find_table(tree, "standings"))
    event = parse_page(league.site / "events" / "spring-cup" / "index.html")
    assert [r[:3] for r in standings] == \
        [r[:3] for r in table_rows(find_table(event, "standings"))]
    # A finished event's screen does not reload itself.
    assert not [m for m in tree.iter("meta") if m.get("http-equiv") == "refresh"]
    assert any((a.get("href") or "").endswith("/spring-cup/screen.html") for a in event.iter("a"))


def test_venue_screen_of_a_running_event_reloads_itself(tmp_path):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    run_cli(url, "player", "add", *PLAYERS[:4])
    run_cli(url, "event", "create", "club-night", "--variant", "spardame", "--rounds", "3")
    run_cli(url, "event", "enter", "club-night", *PLAYERS[:4])
    run_cli(url, "round", "seat", "club-night")
    run_cli(url, "publish", "--out", str(tmp_path / "site"))
    tree = parse_page(tmp_path / "site" / "events" / "club-night" / "screen.html")
    refresh = [m.get("content") for m in tree.iter("meta") if m.get("http-equiv") == "refresh"]
    assert refresh == ["60"]
    assert "round 1" in text_of(tree.find(".//h1"))
    assert "reloads itself every minute" in text_of(tree.find("body"))
    by_name = next(ul for ul in tree.iter("ul") if "screen-by-name" in (ul.get("class") or ""))
    where = [text_of(li) for li in by_name.iter("li")]
    assert len(where) == 4 and all(re.search(r"table 1, seat [1-4]$", w) for w in where)
