"""The series page at a desktop's 1280 px: a season of four club nights with
handicaps (a column per night headed by its name, then gross, handicap and net)
fits its box, so the net total that ranks is in view without scrolling the table
sideways (the nights' names wrap); at 375 px the page does not scroll sideways."""
from __future__ import annotations

import pytest
from season_helpers import make_season, store

pytest.importorskip("playwright.sync_api")  # the module skips without Playwright
pytestmark = pytest.mark.browser

FITS = """() => {
  const box = document.querySelector('#standings-h ~ .scroll, .scroll:has(table.standings)');
  const net = [...box.querySelectorAll('thead th')].at(-2);
  return {scroll: box.scrollWidth, box: box.clientWidth,
          netRight: net.getBoundingClientRect().right, boxRight: box.getBoundingClientRect().right,
          page: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
def test_a_season_with_handicaps_fits_a_desktop(tourney, db_url, browser, tmp_path, backend):
    make_season(tourney, db_url)
    tourney("event", "create", "ev4", "--variant", "spardame", "--points", "place")
    tourney("event", "enter", "ev4", "Anna", "Bo", "Cai", "Eva")
    store(db_url, "ev4", [[("Cai", 1, 3), ("Anna", 2, 2), ("Eva", 3, 1), ("Bo", 4, 0)]])
    tourney("series", "add", "season", "ev4")
    for number in range(1, 5):  # as a club names its nights
        tourney("event", "set", f"ev{number}", "--name", f"Klubbkväll {number}")
    tourney("series", "set", "season", "--handicap")
    tourney("series", "handicap", "season", "Eva", "1.25")
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "sv")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((site / "series" / "season.html").as_uri())
    assert "Netto" in page.inner_text("table.standings thead")
    measured = page.evaluate(FITS)
    assert measured["scroll"] <= measured["box"], measured
    assert measured["netRight"] <= measured["boxRight"], measured
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.close()
