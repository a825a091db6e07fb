"""The venue server's pages in headless Chromium, at a phone's 375 px and a screen's
1920 px, JavaScript on and off: a refusal said as a page of the site in the
browser's language; the organizer's event page with conflicts of earlier rounds
still to decide, decided from there. Screenshots go to TOURNEY_SCREENSHOTS."""
from __future__ import annotations

import httpx
import pytest
from serve_helpers import TOKEN, LiveServer, match_csv, path_of, seated_event
from test_browser_serve import shots

from tourney.web.messages import refusal_text

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

SIZES = ((375, True), (375, False), (1920, True), (1920, False))


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
def test_too_many_attempts_is_a_page_in_the_browsers_language(tourney, db_url, browser,
                                                               tmp_path, backend):
    seated_event(tourney)
    folder = shots(tmp_path)
    text, remedy = refusal_text("too-many-attempts", "fi")
    with LiveServer(db_url, link_failures=1, failure_delay=0) as live:
        for width, js in SIZES:
            context = browser.new_context(viewport={"width": width, "height": 900},
                                          java_script_enabled=js, locale="fi-FI")
            page = context.new_page()
            page.goto(f"{live.url}/t/wrong-link")
            answer = page.goto(f"{live.url}/t/wrong-link")
            assert answer.status == 429 and int(answer.headers["retry-after"]) > 0
            assert page.locator("html").get_attribute("lang") == "fi"
            assert page.get_by_text(text).is_visible() and page.get_by_text(remedy).is_visible()
            assert page.locator("header .langs").is_visible()  # the site's layout
            fits(page, width)
            page.screenshot(path=str(folder / f"refusal-429-fi-{width}{'' if js else '-nojs'}.png"),
                            full_page=True)
            context.close()


def _conflicts_of_round(tourney, live, links, number):
    def send(table, body):
        return httpx.post(live.url + path_of(links[table]["url"]), content=body,
                          headers={"Content-Type": "text/csv"})

    for table in links:
        assert send(table, match_csv(tourney, "club", number, table, loser_seat=1)
                    ).status_code == 200
    assert send("1", match_csv(tourney, "club", number, "1", loser_seat=2)).status_code == 409
    bad = match_csv(tourney, "club", number, "2", loser_seat=1).replace("0;1;0;0", "0;2;0;0", 1)
    assert send("2", bad).status_code == 422


@pytest.mark.parametrize("backend", ["sqlite"])
def test_earlier_rounds_conflicts_on_a_phone_and_a_screen(tourney, db_url, browser, tmp_path,
                                                          backend):
    links = seated_event(tourney, lang="sv")
    folder = shots(tmp_path)
    bearer = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}
    with LiveServer(db_url, auto_accept=True) as live:
        _conflicts_of_round(tourney, live, links, 1)
        for action in ("close", "seat"):  # closed with conflicts waiting: when told so
            assert httpx.post(f"{live.url}/org/club/{action}", headers=bearer,
                              data={"force": "1"} if action == "close" else None
                              ).status_code == 200
        for width, js in SIZES:
            context = browser.new_context(viewport={"width": width, "height": 900},
                                          java_script_enabled=js)
            page = context.new_page()
            page.goto(f"{live.url}/login")
            page.fill('input[name="token"]', TOKEN)
            page.click("button[type=submit].primary")
            page.wait_for_url("**/org")
            page.goto(f"{live.url}/org/club")
            assert page.locator("h2", has_text="Rond 2").first.is_visible()
            page.click('a[href="#earlier"]')
            earlier = page.locator("#earlier")
            assert earlier.is_visible() and earlier.locator("h3", has_text="Rond 1").is_visible()
            assert earlier.locator("section.review").count() == 2
            dismiss = earlier.locator('form[action="/org/club/dismiss"] button')
            assert dismiss.count() == 2 and dismiss.first.is_visible()
            assert earlier.locator('form[action="/org/club/replace"] button').first.is_visible()
            fits(page, width)
            page.screenshot(path=str(folder / f"org-earlier-sv-{width}{'' if js else '-nojs'}.png"),
                            full_page=True)
            earlier.screenshot(path=str(folder / f"org-earlier-part-sv-{width}"
                                                 f"{'' if js else '-nojs'}.png"))
            context.close()
        # decided from the page (no JavaScript, a phone): the conflict leaves it
        context = browser.new_context(viewport={"width": 375, "height": 900},
                                      java_script_enabled=False)
        page = context.new_page()
        page.goto(f"{live.url}/login")
        page.fill('input[name="token"]', TOKEN)
        page.click("button[type=submit].primary")
        page.goto(f"{live.url}/org/club")
        earlier = page.locator("#earlier")
        earlier.locator('form[action="/org/club/dismiss"] input[name="note"]').first.fill("kollat")
        earlier.locator('form[action="/org/club/dismiss"] button').first.click()
        page.wait_for_url("**/org/club?done=dismissed*")
        assert page.locator("p.msg.ok").is_visible()
        assert page.locator("#earlier section.review").count() == 1
        earlier = page.locator("#earlier")
        earlier.locator('form[action="/org/club/dismiss"] button').first.click()
        page.wait_for_url("**/org/club?done=dismissed*")
        assert page.locator("#earlier").count() == 0 and page.locator('a[href="#earlier"]').count() == 0
        page.screenshot(path=str(folder / "org-earlier-decided-sv-375-nojs.png"), full_page=True)
        context.close()
