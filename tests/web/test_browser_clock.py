"""The round's clock counts down on a table's page in Chromium (serve.js), from the
seconds left the server gave, whatever the phone's clock says."""
from __future__ import annotations

import pytest
from serve_helpers import LiveServer, path_of, seated_event

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.mark.parametrize("backend", ["sqlite"])  # the script: one backend is enough
def test_the_minutes_left_count_down_on_a_table_page(tourney, db_url, browser, backend):
    links = seated_event(tourney, lang="en")
    tourney("round", "start", "club", "1", "--minutes", "10")
    with LiveServer(db_url) as live:
        context = browser.new_context(viewport={"width": 375, "height": 800})
        page = context.new_page()
        page.clock.install()  # the page's timers and Date.now, moved by the test
        page.goto(live.url + path_of(links["1"]["url"]))
        minutes = page.locator(".left .min")
        assert minutes.inner_text() in ("10", "9")
        page.clock.run_for(4 * 60 * 1000)
        assert minutes.inner_text() in ("6", "5")
        page.clock.run_for(20 * 60 * 1000)
        assert minutes.inner_text() == "0"
        context.close()
