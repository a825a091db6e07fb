"""A forfeit on the published site in headless Chromium at 375 and 1920 px: the
event's page (its grid and the forfeited tables under it) and the round's page
(the table's card) say it, in the page's width, with no script error. Screenshots
go to TOURNEY_SCREENSHOTS when set."""
from __future__ import annotations

import pytest
from conftest import run_cli
from test_browser import Watch, shot_dir, url_of
from test_site_forfeits import REASON, club_night

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [375, 1920])
def test_a_forfeit_on_the_event_and_round_pages(browser, tmp_path, width):
    url = f"sqlite:///{tmp_path / 'night.db'}"
    seats = club_night(lambda *args, **kw: run_cli(url, *args, **kw), tmp_path)
    run_cli(url, "result", "forfeit", "night", "2", "3", "--absent", seats[0], "--reason",
            REASON)
    run_cli(url, "result", "adjust", "night", seats[1], "--points", "-0.5", "--reason",
            "late")
    site = tmp_path / "site"
    run_cli(url, "publish", "--out", str(site), "--no-replays")
    folder = shot_dir(tmp_path)
    context = browser.new_context(viewport={"width": width, "height": 900})
    watch = Watch(context.new_page())
    page = watch.page

    page.goto(url_of(site / "events" / "night" / "index.html"))
    forfeits = page.locator("ul.forfeits li")
    assert forfeits.count() == 1 and forfeits.first.is_visible()
    said = forfeits.first.inner_text()
    assert f"{seats[0]} did not play (0 points)." in said and REASON in said
    cells = page.locator("table.grid td.cell-forfeit")
    assert cells.count() == 4 and "…" not in page.locator("table.grid").inner_text()
    # the adjustment's half written as the pages write points
    assert page.locator("ul.adjustments li").first.inner_text() == f"{seats[1]}: late: -½"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(folder / f"forfeit-event-{width}.png"), full_page=True)

    page.goto(url_of(site / "events" / "night" / "round-2.html"))
    assert "Results in: 3 of 3." in page.locator("main p.note").first.inner_text()
    card = page.get_by_role("region", name="Table 3")
    text = card.locator("p.forfeit").inner_text()
    assert text.startswith("Forfeit:") and f"Reason: {REASON}" in text
    box = card.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(folder / f"forfeit-round-{width}.png"), full_page=True)
    watch.clean()
    context.close()
