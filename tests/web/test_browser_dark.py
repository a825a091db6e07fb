"""The venue's pages in a phone's dark colour scheme (issue 29, "unreadable
contrast"): the pages declare `color-scheme: light dark`, so a phone set to dark
mode draws them light on dark; every colour the server's CSS sets must still read.
axe-core's contrast check on the table page (an error, the stored result), the
player's own page (its own row marked in the standings: white on pale green, before)
the live standings and the organizer's page, at 375 px; the QR codes on a white
ground (black on the dark page, no camera read them)."""
from __future__ import annotations

import httpx
import pytest
from serve_helpers import TOKEN, LiveServer, match_csv, path_of, seated_event
from test_browser_review import AXE, AXE_RUN
from test_browser_serve import enter_sheet, shots

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.mark.parametrize("backend", ["sqlite"])  # colours: one backend is enough
def test_every_page_reads_in_a_phones_dark_mode(tourney, db_url, browser, tmp_path, backend):
    assert AXE.is_file(), f"axe-core is missing: run .ci/setup (expected {AXE})"
    links = seated_event(tourney, lang="sv")
    own = {r["player"]: path_of(r["url"]) for r in tourney(
        "player", "links", "club", "--base-url", "http://testserver", "--json").json}
    seated = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        httpx.post(live.url + path_of(links["1"]["url"]), content=match_csv(tourney, "club", 1, "1"),
                   headers={"Content-Type": "text/csv"})
        context = browser.new_context(bypass_csp=True, color_scheme="dark",
                                      viewport={"width": 375, "height": 800})
        page = context.new_page()

        def check(url: str | None, name: str) -> None:
            if url:
                page.goto(live.url + url)
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
            page.add_script_tag(path=str(AXE))
            assert page.evaluate(AXE_RUN) == [], name
            page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

        check(path_of(links["2"]["url"]), "dark-table-sv-375")
        enter_sheet(page, loser_seat=1)
        page.fill('input[name="score-2-2"]', "1")  # two losers in deal 2
        page.click("button[type=submit].primary")
        page.wait_for_selector("#errors")
        check(None, "dark-table-error-sv-375")
        check(path_of(links["1"]["url"]) + "/result", "dark-stored-result-sv-375")
        check(own[seated[0]], "dark-player-own-sv-375")
        assert page.locator("tr.me").count() == 1
        assert page.inner_text("#seat h2") == "Rond 1"  # a heading, capitalised
        check("/standings/club", "dark-standings-sv-375")
        page.goto(f"{live.url}/login")
        page.fill('input[name="token"]', TOKEN)
        page.click("button[type=submit].primary")
        page.wait_for_url("**/org")
        check("/org/club", "dark-organizer-sv-375")
        # the QR codes to scan from the screen: dark modules on a light ground
        for url in ("/org/club/round/1/links", "/org/club/players/links"):
            page.goto(live.url + url)
            grounds = page.eval_on_selector_all(
                ".card img", "imgs => imgs.map(i => getComputedStyle(i).backgroundColor)")
            assert grounds and set(grounds) == {"rgb(255, 255, 255)"}, (url, grounds)
            page.screenshot(path=str(folder / f"dark-qr-{url.split('/')[-2]}-sv-375.png"),
                            full_page=True)
        context.close()
