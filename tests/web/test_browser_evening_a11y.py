"""The players' evening pages in headless Chromium: the sign-up page (empty, and
with a field refused), a player's own page with check-in and a rating, the
organizer's players section with the fee and a waiting sign-up, and the QR
cards: nothing scrolls sideways at 375 px and axe-core finds no serious or
critical violation."""
from __future__ import annotations

import httpx
import pytest
from serve_helpers import TOKEN, LiveServer, match_csv, path_of, seated_event
from test_browser_review import AXE, AXE_RUN
from test_browser_serve import shots

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
def test_the_evening_pages_fit_a_phone_and_pass_axe(tourney, db_url, browser, tmp_path, backend):
    assert AXE.is_file(), f"axe-core is missing: run .ci/setup (expected {AXE})"
    links = seated_event(tourney, lang="fi")
    tourney("event", "set", "club", "--signup", "open", "--fee", "50")
    tourney("event", "checkin", "club", "--required", "on")
    own = {r["player"]: path_of(r["url"]) for r in tourney(
        "player", "links", "club", "--base-url", "http://testserver", "--json").json}
    seated = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        httpx.post(live.url + path_of(links["1"]["url"]), content=match_csv(tourney, "club", 1, "1"),
                   headers={"Content-Type": "text/csv"})
        context = browser.new_context(bypass_csp=True, device_scale_factor=1,
                                      viewport={"width": 375, "height": 800})
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda err: problems.append(str(err)))

        def check(url: str, name: str) -> None:
            if url:
                page.goto(live.url + url)
            assert page.evaluate("document.documentElement.scrollWidth") <= 375, name
            page.add_script_tag(path=str(AXE))
            assert page.evaluate(AXE_RUN) == [], name
            page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

        check("/signup/club", "signup-fi-375")
        page.fill('input[name="name"]', "Pia")
        page.fill('input[name="email"]', "pia@")  # the browser would stop "nope"
        page.evaluate("document.querySelector('form[action=\"/signup/club\"]').noValidate = true")
        page.locator("form[action='/signup/club'] button").click()
        expect(page.locator("[aria-invalid=true]")).to_have_count(1)  # after the reload
        check("", "signup-refused-fi-375")
        page.fill('input[name="email"]', "pia@example.org")
        page.locator("form[action='/signup/club'] button").click()
        expect(page.locator("p.msg.ok")).to_have_count(1)
        check(own[seated[0]], "player-own-fi-375")
        page.goto(f"{live.url}/login")
        page.fill('input[name="token"]', TOKEN)
        page.click("button[type=submit].primary")
        page.wait_for_url("**/org")
        check("/org/club", "organizer-evening-fi-375")
        assert "Pia" in page.inner_text("#evening")
        check("/org/club/players/links", "player-links-fi-375")
        context.close()
    assert problems == []
