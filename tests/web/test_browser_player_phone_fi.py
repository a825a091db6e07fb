"""A player's side of a Finnish evening on a 360 px phone: the rating's chart has
its key and its history table shows every column without scrolling sideways, and a
sign-up under a very long name keeps the page within the phone's width."""
from __future__ import annotations

import pytest
from serve_helpers import LiveServer, match_csv, path_of, seated_event

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

from conftest import cli_on_url  # noqa: E402

NARROW = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def evening(tmp_path_factory, browser):
    """One Finnish event on SQLite, round 1 seated and table 1's result stored,
    sign-up open, served live for the module's tests."""
    url = str(tmp_path_factory.mktemp("fi") / "tourney.db")
    run = cli_on_url(url)
    links = seated_event(run, lang="fi", tables=1)
    run("event", "set", "club", "--signup", "open")
    with LiveServer(url, auto_accept=True) as live:
        import httpx

        stored = httpx.post(f"{live.url}{path_of(links['1']['url'])}",
                            content=match_csv(run, "club", 1, "1"),
                            headers={"Content-Type": "text/csv"})
        assert stored.status_code == 200, stored.text
        yield run, live


def phone_page(browser):
    context = browser.new_context(viewport=NARROW, is_mobile=True)
    return context, context.new_page()


def test_the_rating_history_fits_a_360_px_phone_in_finnish(evening, browser):
    run, live = evening
    own = {r["player"]: r for r in run("player", "links", "club", "--json").json}
    context, page = phone_page(browser)
    page.goto(f"{live.url}{own['Anna']['url']}")
    history = page.locator("table.history")
    assert history.count() == 1
    # the last column ("Muutos", the change) is cut off behind a sideways scroll
    # when the headers cannot break
    sizes = history.evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
    assert sizes[0] <= sizes[1], f"the history table is {sizes[0]} px in {sizes[1]} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    # the chart's key says which line is the rating shown above it: the solid line
    # (μ, about 25) read as the rating beside "2,0"
    key = page.locator("#rating figure.chart figcaption")
    assert key.is_visible() and "vahvuusluku (μ − 3σ)" in key.inner_text()
    assert key.locator(".key-ordinal").bounding_box()["width"] > 10
    context.close()


def test_a_very_long_name_keeps_the_sign_up_page_within_the_phone(evening, browser):
    run, live = evening
    context, page = phone_page(browser)
    page.goto(f"{live.url}/signup/club")
    page.fill("input[name=name]", "Äijälä" * 30)
    page.fill("input[name=email]", "aijala@example.org")
    page.click("button[type=submit]")
    notice = page.locator("p.msg.ok")
    assert "Äijälä" in notice.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    assert notice.bounding_box()["width"] <= NARROW["width"]
    context.close()


def test_a_very_long_name_in_the_standings_keeps_every_page_within_the_phone(evening,
                                                                              browser):
    """One entrant typed without a space widened every player's page (2,730 px) and
    the venue's standings: the name breaks in its cell instead."""
    run, live = evening
    long_name = "Äijälä" * 30
    run("event", "enter", "club", "--add", long_name)
    own = {r["player"]: r for r in run("player", "links", "club", "--json").json}
    context, page = phone_page(browser)
    for address in (own["Bo"]["url"], own[long_name]["url"], "/standings/club"):
        page.goto(f"{live.url}{address}")
        assert page.locator("td bdi", has_text="ÄijäläÄijälä").count() == 1
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW["width"], f"{address}: {width} px"
    context.close()
