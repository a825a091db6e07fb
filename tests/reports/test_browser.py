"""The published site in a real headless Chromium (Debian's, through Playwright).

The league is made through the CLI on SQLite (the database side is tested on both
backends in test_site.py); the site is published once per module and opened from
disk (``file://``) and over HTTP from a sub-path.

Screenshots are taken at 1280 and 375 pixels wide; set TOURNEY_SCREENSHOTS=DIR to
keep them for looking at.
"""
from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import threading
from pathlib import Path

import pytest
from conftest import run_cli
from site_helpers import HOSTILE_CLUB, HOSTILE_EVENT, HOSTILE_PLAYER, league_site

expect = pytest.importorskip("playwright.sync_api").expect  # the module skips without Playwright

pytestmark = pytest.mark.browser

OWN_SCRIPTS = {"sort.js", "step.js"}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return league_site(run_cli, tmp_path_factory.mktemp("browser-league"))


class Watch:
    """A page whose dialogs (alert, confirm...) and script errors are recorded."""

    def __init__(self, page):
        self.page = page
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on("console", lambda msg: self.errors.append(msg.text)
                if msg.type == "error" else None)

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def clean(self):
        assert self.dialogs == [], f"a script ran: {self.dialogs}"
        assert self.errors == [], self.errors


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    watch = Watch(page)
    yield watch
    watch.clean()
    context.close()


def url_of(path: Path) -> str:
    return path.resolve().as_uri()


def shot_dir(tmp_path) -> Path:
    keep = os.environ.get("TOURNEY_SCREENSHOTS")
    folder = Path(keep) if keep else tmp_path / "shots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# ------------------------------------------------------------------ navigation

def test_from_the_index_to_a_player_and_a_deal_replay_by_clicking(site, page):
    p = page.page
    p.goto(url_of(site / "index.html"))
    assert p.title().endswith("Dam tournaments")
    p.get_by_role("link", name=HOSTILE_EVENT, exact=True).first.click()
    assert p.locator("main h1").inner_text() == HOSTILE_EVENT
    standings = p.locator("table.standings tbody tr")
    assert standings.count() == 8
    # To a player's page: the hostile name is a link, shown as text.
    p.locator("table.standings").get_by_role("link", name=HOSTILE_PLAYER).click()
    assert p.locator("main h1").inner_text() == HOSTILE_PLAYER
    assert p.locator("p.club").inner_text() == HOSTILE_CLUB
    assert p.locator("svg.chart").count() >= 5
    assert p.locator("table.player-matches tbody tr").count() >= 9
    # Back to the event, a round's seat list, a match, a replay.
    p.go_back()
    p.get_by_role("link", name="Round 1", exact=True).click()
    assert "round 1" in p.locator("main h1").inner_text()
    assert p.locator(".table-card").count() == 2
    p.locator(".table-card").first.get_by_role("link", name="Result").click()
    assert "table 1" in p.locator("main h1").inner_text()
    rows = p.locator("table.deals tbody tr")
    assert rows.count() == 2
    assert rows.nth(1).locator("td").last.inner_text() == "score sheet"
    rows.nth(0).get_by_role("link", name="replay").click()
    assert p.locator("main h1").inner_text().endswith("deal 1")
    tricks = p.locator("table.tricks tbody tr")
    assert tricks.count() == 13
    # Each trick row: its number, one card per player, the winner.
    first = tricks.first.locator("td")
    assert first.nth(0).inner_text() == "1"
    cards = [first.nth(i).inner_text().split()[0] for i in range(1, 5)]
    assert all(card[-1] in "♠♥♦♣" for card in cards)
    assert "2♣" in cards  # spardame: the holder of the two of clubs leads it
    # The card's name is in words, from the catalogue.
    assert p.locator("table.tricks abbr[title='two of clubs']").count() == 1


def test_every_replay_kind_reads_without_javascript(site, browser):
    context = browser.new_context(java_script_enabled=False)
    p = context.new_page()
    expected = {"maja-open": "table.exchanges", "row-club": "table.turns",
                "sju-kvall": "table.turns", "dam-night": "table.tricks",
                "brade-cup": "table.board"}
    for slug, selector in expected.items():
        replay = min((site / "events" / slug).glob("match-*-deal-1.html"))
        p.goto(url_of(replay))
        assert p.locator(selector).count() >= 1, slug
        assert p.locator(selector).first.is_visible()
    # Hands after an exchange open without a script (details/summary).
    replay = min((site / "events" / "maja-open").glob("match-*-deal-1.html"))
    p.goto(url_of(replay))
    details = p.locator("table.exchanges details").first
    assert not details.locator("ul").is_visible()
    details.locator("summary").click()
    assert details.locator("ul").is_visible()
    context.close()


# ------------------------------------------------------------------ hostile text

def test_hostile_names_are_text_and_no_script_runs_on_any_page(site, page):
    p = page.page
    for path in sorted(site.rglob("*.html")):
        p.goto(url_of(path))
        assert p.evaluate("document.querySelectorAll('img').length") == 0, path
        sources = p.evaluate("[...document.scripts].map(s => s.getAttribute('src'))")
        # Only the site's own script files (the CSP allows no other), no inline script.
        assert sources and all(s and s.rsplit("/", 1)[-1] in OWN_SCRIPTS for s in sources), path
        body = p.locator("body").inner_text()
        assert "onerror" not in body or HOSTILE_PLAYER in body, path
    for path, text in ((site / "index.html", HOSTILE_EVENT),
                       (site / "events" / "spring-cup" / "index.html", HOSTILE_PLAYER),
                       (site / "events" / "spring-cup" / "index.html", HOSTILE_EVENT)):
        p.goto(url_of(path))
        assert text in p.locator("body").inner_text()
    page.clean()


# ------------------------------------------------------------------ sorting

def test_tables_sort_with_javascript_and_come_sorted_without(site, browser):
    event = url_of(site / "events" / "spring-cup" / "index.html")
    context = browser.new_context()
    p = context.new_page()
    p.goto(event)
    table = p.locator("table.standings")
    server_order = table.locator("tbody tr td:nth-child(2)").all_inner_texts()
    places = [int(t.rstrip("=")) for t in
              table.locator("tbody tr td:nth-child(1)").all_inner_texts()]
    assert places == sorted(places)
    header = table.locator("thead th").nth(1)
    header.get_by_role("button").click()
    assert header.get_attribute("aria-sort") == "ascending"
    by_name = table.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert by_name == sorted(server_order, key=str.casefold)
    header.get_by_role("button").click()
    assert header.get_attribute("aria-sort") == "descending"
    assert table.locator("tbody tr td:nth-child(2)").all_inner_texts() == by_name[::-1]
    points = table.locator("thead th").nth(2)
    points.get_by_role("button").click()
    values = [float(t) for t in table.locator("tbody tr td:nth-child(3)").all_inner_texts()]
    assert values == sorted(values)
    context.close()

    context = browser.new_context(java_script_enabled=False)
    p = context.new_page()
    p.goto(event)
    table = p.locator("table.standings")
    assert table.locator("thead button").count() == 0
    assert table.locator("tbody tr td:nth-child(2)").all_inner_texts() == server_order
    context.close()


# ------------------------------------------------------------------ layout

SHOTS = ["index.html", "events/spring-cup/index.html", "events/spring-cup/round-1.html",
         "players/index.html"]


def test_screenshots_at_desktop_and_phone_width(site, browser, tmp_path):
    folder = shot_dir(tmp_path)
    pages = list(SHOTS)
    for slug in ("spring-cup", "maja-open", "row-club", "brade-cup"):
        pages.append(min((site / "events" / slug).glob("match-*-deal-1.html"))
                     .relative_to(site).as_posix())
    pages.append(next(p for p in sorted((site / "events" / "spring-cup").glob("match-*.html"))
                      if "deal" not in p.name).relative_to(site).as_posix())
    pages.append(next(p for p in sorted((site / "players").glob("*.html"))
                      if p.name != "index.html").relative_to(site).as_posix())
    for width in (1280, 375):
        context = browser.new_context(viewport={"width": width, "height": 800})
        p = context.new_page()
        for path in pages:
            p.goto(url_of(site / path))
            # Nothing makes the page itself scroll sideways: wide tables scroll
            # inside their own box.
            overflow = p.evaluate("document.documentElement.scrollWidth")
            assert overflow <= width, (path, width, overflow)
            name = path.replace("/", "_").replace(".html", "")
            p.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
            # Body text stays readable on a phone.
            size = p.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
            assert size >= 14
        context.close()
    assert len(list(folder.glob("*.png"))) >= 2 * len(pages)


def test_print_stylesheet_keeps_seat_lists_and_standings(site, browser):
    context = browser.new_context()
    p = context.new_page()
    p.goto(url_of(site / "events" / "spring-cup" / "round-1.html"))
    assert p.locator("header.site").is_visible()
    p.emulate_media(media="print")
    assert not p.locator("header.site").is_visible()
    assert not p.locator("footer.site").is_visible()
    assert p.locator(".table-card").first.is_visible()
    assert p.evaluate("getComputedStyle(document.querySelector('.seats-by-name'))"
                      ".breakBefore") == "page"
    assert p.evaluate("getComputedStyle(document.querySelector('.table-card'))"
                      ".breakInside") == "avoid"
    pdf = p.pdf(format="A4")
    assert pdf.startswith(b"%PDF")
    p.goto(url_of(site / "events" / "spring-cup" / "index.html"))
    assert p.locator("table.standings").is_visible()
    assert not p.locator("nav.toc").is_visible()
    context.close()


# ------------------------------------------------------------------ any path

class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_the_folder_works_from_a_sub_path_over_http(site, page, tmp_path):
    root = tmp_path / "www"
    nested = root / "clubs" / "dam" / "2024"
    shutil.copytree(site, nested)
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/clubs/dam/2024/"
        p = page.page
        failed = []
        p.on("requestfailed", lambda request: failed.append(request.url))
        p.on("response", lambda response: failed.append(response.url)
             if response.status >= 400 else None)
        p.goto(base + "index.html")
        p.get_by_role("link", name="Players", exact=True).first.click()
        p.get_by_role("link", name=HOSTILE_PLAYER).click()
        assert p.locator("main h1").inner_text() == HOSTILE_PLAYER
        assert p.url.startswith(base + "players/")
        # The stylesheet and script loaded from the sub-path.
        assert p.evaluate("getComputedStyle(document.querySelector('header.site'))"
                          ".backgroundColor") != "rgba(0, 0, 0, 0)"
        assert p.locator("table.sortable thead button").count() > 0
        assert failed == []
    finally:
        server.shutdown()
        server.server_close()


# ------------------------------------------------------------------ stepping through replays

def _shown(p, selector: str) -> list[str]:
    """The ids of the steps under ``selector`` that are displayed."""
    return p.evaluate("s => [...document.querySelectorAll(s)]"
                      ".filter(e => getComputedStyle(e).display !== 'none').map(e => e.id)",
                      selector)


def test_checkers_replay_is_one_board_stepped_by_links_keys_and_the_move_list(site, page):
    p = page.page
    replay = min((site / "events" / "brade-cup").glob("match-*-deal-1.html"))
    p.goto(url_of(replay))
    ids = p.evaluate("[...document.querySelectorAll('.steps > .step')].map(e => e.id)")
    assert len(ids) > 5 and ids[0] == "ply-0"
    assert _shown(p, ".steps > .step") == ["ply-0"]  # one board: the opening position
    p.locator("#ply-0").get_by_role("link", name="next →").click()
    assert p.url.endswith("#" + ids[1]) and _shown(p, ".steps > .step") == [ids[1]]
    # The arrow keys step (step.js), and the move list marks the current move.
    p.keyboard.press("ArrowRight")
    assert _shown(p, ".steps > .step") == [ids[2]]
    p.keyboard.press("ArrowLeft")
    p.keyboard.press("ArrowLeft")
    assert _shown(p, ".steps > .step") == ["ply-0"]
    p.keyboard.press("ArrowLeft")  # nothing before the opening position
    assert _shown(p, ".steps > .step") == ["ply-0"]
    # A move in the list shows the position after it.
    last = ids[-1]
    p.locator(f"ol.moves a[href='#{last}']").click()
    assert _shown(p, ".steps > .step") == [last]
    # aria-current follows the hashchange event, which fires after the click returns.
    expect(p.locator(f"ol.moves a[href='#{last}']")).to_have_attribute("aria-current", "step")
    assert p.locator(f"#{last} table.board").is_visible()
    # From the keyboard alone: Tab reaches the step links, Enter follows them.
    p.goto(url_of(replay))
    for _ in range(60):
        p.keyboard.press("Tab")
        if p.evaluate("document.activeElement.matches('.step-nav a[rel=next]')"):
            break
    p.keyboard.press("Enter")
    assert _shown(p, ".steps > .step") == [ids[1]]


def test_replays_step_without_javascript(site, browser):
    context = browser.new_context(java_script_enabled=False)
    p = context.new_page()
    board = min((site / "events" / "brade-cup").glob("match-*-deal-1.html"))
    p.goto(url_of(board))
    second = p.evaluate("[...document.querySelectorAll('.steps > .step')][1].id")
    p.locator(f"ol.moves a[href='#{second}']").click()
    assert _shown(p, ".steps > .step") == [second]
    # A link to a position opens the page on it.
    p.goto(url_of(board) + f"#{second}")
    assert _shown(p, ".steps > .step") == [second]
    # A card deal: trick by trick, every seat's card of the shown trick on screen.
    deal = min((site / "events" / "spring-cup").glob("match-*-deal-1.html"))
    p.goto(url_of(deal))
    assert _shown(p, ".steps > .step") == ["trick-1"]
    p.locator("#trick-1").get_by_role("link", name="next →").click()
    assert _shown(p, ".steps > .step") == ["trick-2"]
    assert p.locator("#trick-2 ol.trick-cards li").count() == 4
    p.locator("table.tricks").get_by_role("link", name="Trick 13").click()
    assert _shown(p, ".steps > .step") == ["trick-13"]
    assert p.locator("#trick-13").get_by_role("link", name="next →").count() == 0
    # Before the last trick every player holds one card.
    p.locator("#trick-13 summary").click()
    hands = p.locator("#trick-13 ul.hands-after li").all_inner_texts()
    assert len(hands) == 4 and all(len(re.findall("[♠♥♦♣]", h)) == 1 for h in hands)
    context.close()


# ------------------------------------------------------------------ print and venue

def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_score_sheets_print_a_page_per_table_on_a4(site, browser):
    context = browser.new_context()
    p = context.new_page()
    p.goto(url_of(site / "events" / "spring-cup" / "round-1-sheets.html"))
    tables = p.locator("section.score-sheet").count()
    assert tables == 2
    pdf = p.pdf(format="A4")
    assert _pdf_pages(pdf) == tables
    p.emulate_media(media="print")
    assert not p.locator("header.site").is_visible()
    # The grid fits the paper: A4 less the page margins (186 mm) is 703 CSS pixels.
    p.set_viewport_size({"width": 703, "height": 1000})
    assert p.evaluate("document.documentElement.scrollWidth") <= 703
    right = p.evaluate("Math.max(...[...document.querySelectorAll('table.sheet th')]"
                       ".map(e => e.getBoundingClientRect().right))")
    assert right <= 703
    p.goto(url_of(site / "events" / "spring-cup" / "index.html"))
    assert _pdf_pages(p.pdf(format="A4")) <= 3
    context.close()


def test_venue_screen_is_large_on_a_projector(site, browser):
    sizes = {}
    for width in (375, 1920):
        context = browser.new_context(viewport={"width": width, "height": 1080})
        p = context.new_page()
        p.goto(url_of(site / "events" / "spring-cup" / "screen.html"))
        sizes[width] = p.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        assert p.evaluate("document.documentElement.scrollWidth") <= width
        assert p.locator("table.standings tbody tr").count() == 8
        context.close()
    assert sizes[375] >= 16 and sizes[1920] >= 26
