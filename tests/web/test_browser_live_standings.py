"""The live standings (/standings/SLUG) on a phone and on a venue's screen: at
375 px nothing scrolls sideways and no heading is cut; at 1920 px the table fills
the screen in type large enough to read across a room."""
from __future__ import annotations

import httpx
import pytest
from serve_helpers import LiveServer, match_csv, path_of, seated_event
from test_browser_serve import cut_words, shots
from test_live_standings_tiebreaks import two_rounds

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
def test_live_standings_fit_a_phone_and_fill_a_screen(tourney, db_url, browser, tmp_path,
                                                      backend):
    links = seated_event(tourney, lang="nb")
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        httpx.post(live.url + path_of(links["1"]["url"]), content=match_csv(tourney, "club", 1, "1"),
                   headers={"Content-Type": "text/csv"})
        for width, js in ((375, True), (375, False), (1920, True)):
            context = browser.new_context(viewport={"width": width, "height": 1080},
                                          java_script_enabled=js)
            page = context.new_page()
            page.goto(f"{live.url}/standings/club")
            page.screenshot(path=str(folder / f"live-standings-nb-{width}{'' if js else '-nojs'}.png"),
                            full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            cut = page.evaluate("[...document.querySelectorAll('#standings th')]"
                                ".filter(th => th.scrollWidth > th.clientWidth).length")
            assert cut == 0, width
            size = float(page.evaluate("parseFloat(getComputedStyle("
                                       "document.querySelector('#standings')).fontSize)"))
            table = page.locator("#standings").bounding_box()["width"]
            if width == 1920:
                assert size >= 36 and table >= 0.85 * width, (size, table)
            else:
                assert size <= 24
            context.close()


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
@pytest.mark.parametrize("lang", ["fi", "nb"])
def test_the_tie_break_columns_fit_a_phone_and_fill_a_screen(tourney, db_url, browser,
                                                             tmp_path, backend, lang):
    """Two tie-break columns in the language with the longest headings: at 375 px
    shown, no sideways scroll, no heading cut or broken inside a word; at 1920 px
    large type across the screen; with JavaScript on the redrawn table keeps them."""
    standings = two_rounds(tourney, lang=lang)
    rows = standings if isinstance(standings, list) else standings["standings"]
    decided_by_second = sum(row["decided_by"] == "opponents" for row in rows)
    assert decided_by_second
    folder = shots(tmp_path)
    with LiveServer(db_url, poll_seconds=1) as live:
        for width, js in ((375, True), (375, False), (1920, True), (1920, False)):
            context = browser.new_context(viewport={"width": width, "height": 1080},
                                          java_script_enabled=js)
            page = context.new_page()
            page.goto(f"{live.url}/standings/club")
            if js:  # the live part redrawn from the server at least once
                page.wait_for_selector("#live[data-updated]", state="attached", timeout=10000)
            page.screenshot(path=str(folder / f"live-standings-tiebreaks-{lang}-{width}"
                                               f"{'' if js else '-nojs'}.png"), full_page=True)
            headings = page.locator("#standings th.tb")
            assert headings.count() == 2 and headings.first.is_visible()
            # a phone shows the first column; the places the second decided in words
            assert headings.nth(1).is_visible() is (width == 1920)
            assert page.locator("#tiebreak-places").is_visible() is (width == 375)
            if width == 375:
                said = page.locator("#tiebreak-places li")
                assert said.count() == decided_by_second and said.first.is_visible()
            assert page.locator("#standings td.tb strong.decided").count() >= 2
            assert page.locator("#tiebreak-note").is_visible()
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            cut = page.evaluate("[...document.querySelectorAll('#standings th')]"
                                ".filter(th => th.scrollWidth > th.clientWidth).length")
            assert cut == 0, width
            assert cut_words(page, "#standings th") == [], width
            right = page.evaluate("Math.max(...[...document.querySelectorAll('#standings td.tb')]"
                                  ".map(td => td.getBoundingClientRect().right))")
            assert right <= width
            size = float(page.evaluate("parseFloat(getComputedStyle("
                                       "document.querySelector('#standings td.tb')).fontSize)"))
            if width == 1920:
                assert size >= 30, size
            context.close()
