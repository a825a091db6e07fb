"""The organizer's round page follows the round in headless Chromium: the tables'
states, the count of results and each table's review change as the tables send
and the organizer decides elsewhere, without a reload; what the organizer is
typing in a note stays (and its table's review with it, brought up to date once
left), the scroll position too; one small request per interval, the page itself
only when the round changed, none while the tab is hidden; another round seated
is said; without script a refresh link, no meta refresh."""
from __future__ import annotations

import httpx
import pytest
from serve_helpers import TOKEN, LiveServer, match_csv, path_of, seated_event
from test_browser_serve import Phone

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser
BEARER = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}


def log_in(page, url: str) -> None:
    page.goto(f"{url}/login")
    page.fill('input[name="token"]', TOKEN)
    page.click("button[type=submit].primary")
    page.wait_for_url("**/org")


def row_state(page, table: int) -> str:
    return page.inner_text(f"#round-tables tbody tr:nth-child({table}) td:nth-child(3)")


def set_hidden(page, hidden: bool) -> None:
    """The tab hidden or shown, as the browser says it (a headless page never is)."""
    page.evaluate("""hidden => {
        Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
        Object.defineProperty(document, "visibilityState",
                              {value: hidden ? "hidden" : "visible", configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""", hidden)


@pytest.mark.parametrize("backend", ["sqlite"])  # a page's behaviour: one backend is enough
def test_the_round_page_follows_the_tables_without_losing_what_is_typed(
        tourney, db_url, browser, backend):
    links = seated_event(tourney, lang="en", tables=4)
    with LiveServer(db_url, poll_seconds=1) as live:  # review mode
        def send(table: str, loser: int = 1) -> dict:
            return httpx.post(live.url + path_of(links[table]["url"]),
                              content=match_csv(tourney, "club", 1, table, loser_seat=loser),
                              headers={"Content-Type": "text/csv"}).json()

        desk = Phone(browser, js=True)
        page = desk.page
        page.set_viewport_size({"width": 1280, "height": 500})
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url.removeprefix(live.url)))
        log_in(page, live.url)
        page.goto(f"{live.url}/org/club?lang=en")
        assert page.inner_text("#round-live").startswith("Results in: 0 of 4.")
        first = send("1")
        page.wait_for_function("() => document.querySelector('#table-1 form[action$=\"/accept\"]')")
        assert row_state(page, 1) == "submitted" and row_state(page, 2) == "waiting"

        # the organizer types a reason to send table 1's result back, scrolled down
        page.fill("#table-1 input[name='note']", "deal 2 twice")
        page.evaluate("() => window.scrollTo(0, 200)")
        page.focus("#table-1 input[name='note']")
        scrolled = page.evaluate("() => window.scrollY")
        assert scrolled > 0
        send("2")
        page.wait_for_function("() => document.querySelector('#table-2 form[action$=\"/accept\"]')")
        assert row_state(page, 2) == "submitted"
        assert page.input_value("#table-1 input[name='note']") == "deal 2 twice"
        assert page.evaluate("() => document.activeElement.name") == "note"
        assert page.evaluate("() => window.scrollY") == scrolled

        # decided in another tab meanwhile: the table's state and the count follow,
        # the review being typed in stays until it is left
        httpx.post(f"{live.url}/org/club/accept", data={"submission": first["submission"]},
                   headers=BEARER)
        page.wait_for_function("() => document.querySelector("
                               "'#round-tables tbody tr:nth-child(1)').className == 'state-accepted'")
        assert page.inner_text("#round-live").startswith("Results in: 1 of 4.")
        assert page.input_value("#table-1 input[name='note']") == "deal 2 twice"
        assert page.locator("#table-1 form[action$='/accept']").count() == 1
        page.fill("#table-1 input[name='note']", "")
        page.evaluate("() => document.activeElement.blur()")
        page.wait_for_function("() => !document.querySelector('#table-1 form[action$=\"/accept\"]')")
        assert "Stored result" in page.inner_text("#table-1")
        # the close form's count follows too (3 tables still without a result)
        assert "3 tables have no stored result" in page.inner_text("#close-round")

        # nothing changes: the small request each interval, never the page itself
        asked.clear()
        page.wait_for_timeout(3500)  # (events are read while Playwright waits)
        polls = [u for u in asked if u.startswith("/org/club/live")]
        assert 1 <= len(polls) <= 5, asked  # one each second at most (a busy machine: fewer)
        assert not [u for u in asked if u.startswith("/org/club?") or u == "/org/club"], asked
        # a hidden tab asks nothing; shown again, it asks at once
        set_hidden(page, True)
        page.wait_for_timeout(300)
        asked.clear()
        page.wait_for_timeout(2500)
        assert asked == [], asked
        send("3")
        set_hidden(page, False)
        page.wait_for_function("() => document.querySelector('#table-3 form[action$=\"/accept\"]')",
                               timeout=3000)

        # another round seated (here by the command): the page says so
        tourney("round", "seat", "club", "--force")
        page.wait_for_selector("#round-stale:not([hidden])")
        assert "Another round was seated" in page.inner_text("#round-stale")
        desk.close()

        # without script: a refresh link, no meta refresh (it would lose what is typed)
        plain = Phone(browser, js=False)
        log_in(plain.page, live.url)
        plain.page.goto(f"{live.url}/org/club?lang=en")
        assert plain.page.is_visible("#refresh")
        assert plain.page.locator("meta[http-equiv]").count() == 0
        plain.close()
