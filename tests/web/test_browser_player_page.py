"""A player's own page (/p/TOKEN) in headless Chromium at 375 px, with and without
JavaScript: seat, results and the marked standings row fit the phone's width;
no script or CSP error. Screenshots go to TOURNEY_SCREENSHOTS when set."""
from __future__ import annotations

import pytest
from serve_helpers import LiveServer, match_csv, path_of, seated_event

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

from test_browser_serve import Phone, shots  # noqa: E402


def test_the_player_page_on_a_phone(tourney, db_url, browser, tmp_path):
    links = seated_event(tourney, lang="sv")
    own = {r["player"]: r for r in tourney("player", "links", "club", "--json").json}
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        import httpx

        stored = httpx.post(f"{live.url}{path_of(links['1']['url'])}",
                            content=match_csv(tourney, "club", 1, "1"),
                            headers={"Content-Type": "text/csv"})
        assert stored.status_code == 200, stored.text
        tourney("event", "checkin", "club", "--required", "on")
        rated = next(name for name in own if name in
                     tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"])
        for js in (True, False):
            phone = Phone(browser, js)
            page = phone.page
            page.goto(f"{live.url}{own['Anna']['url']}")
            assert page.locator("html").get_attribute("lang") == "sv"
            assert page.locator("#seat strong").first.inner_text() in ("1", "2")
            me = page.locator("tr.me")
            assert me.count() == 1 and "Anna" in me.inner_text()
            weight = me.locator("td").first.evaluate("c => getComputedStyle(c).fontWeight")
            assert int(weight) >= 600  # the player's own row stands out
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 375, f"the page is {width} px wide at 375"
            assert page.get_by_role("button", name="Jag är här").is_visible()
            page.goto(f"{live.url}{own[rated]['url']}")  # a player whose table has a result
            chart = page.locator("#rating svg")
            assert chart.is_visible() and chart.bounding_box()["width"] <= 375
            assert page.evaluate("document.documentElement.scrollWidth") <= 375
            page.screenshot(path=str(folder / f"player-sv-{'js' if js else 'nojs'}-375.png"),
                            full_page=True)
            phone.close()
