"""The live standings (/standings/SLUG) on a phone and on a venue's screen: at
375 px nothing scrolls sideways and no heading is cut; at 1920 px the table fills
the screen in type large enough to read across a room."""
from __future__ import annotations

import httpx
import pytest
from serve_helpers import LiveServer, match_csv, path_of, seated_event
from test_browser_serve import shots

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
            page.screenshot(path=str(folder / f"live-standings-nb-{width}{'' if js else '-nojs'}.png"),
                            full_page=True)
            context.close()
