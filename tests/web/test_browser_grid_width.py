"""The score grid at a phone's 375 px with 4 and 5 players (long names, Swedish,
errors shown): no sideways scroll, every header shown, wrapped at its spaces and
hyphens or hyphenated at a syllable, never cut mid-word; and at 1280 px the full
names, none cut either; axe-core finds no serious or critical violation.
Screenshots go to TOURNEY_SCREENSHOTS when set."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from serve_helpers import LiveServer, path_of
from test_browser_review import AXE, AXE_RUN
from test_browser_serve import Phone, cut_words, shots

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

LONG = ["Anna-Karin Bergström", "Bo Ekholm", "Cecilia Holmqvist", "Jörgen Lindqvist",
        "Margareta Öhrnberg"]


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
@pytest.mark.parametrize("players", [4, 5])
def test_the_grid_fits_a_phone(tourney, db_url, browser, tmp_path, players, backend):
    names = LONG[:players]
    tourney("player", "add", *names)
    tourney("event", "create", "kvall", "--variant", "spardame", "--rounds", "1",
            "--table-sizes", str(players), "--rule", "deals=3", "--lang", "sv")
    tourney("event", "enter", "kvall", "--all")
    tourney("round", "seat", "kvall")
    link = tourney("round", "links", "kvall", "1", "--base-url", "http://testserver",
                   "--json").json["tables"][0]
    names = tourney("round", "show", "kvall", "1", "--json").json["tables"][0]["seats"]
    folder = shots(tmp_path)
    with LiveServer(db_url) as live:
        for width in (375, 1280):
            phone = Phone(browser, js=True)
            page = phone.page
            page.set_viewport_size({"width": width, "height": 800})
            page.goto(live.url + path_of(link["url"]))
            page.fill('input[name="score-1-0"]', "125")
            page.fill('input[name="score-1-1"]', "0;")
            page.click("button.primary")
            page.wait_for_selector("ul.errors")
            # 125, "0;", blanks (waited for: the answer's marks come with the page's update)
            expect(page.locator("input.bad[aria-invalid='true']")).to_have_count(players)
            overflow = page.evaluate(
                "() => [document.documentElement.scrollWidth, window.innerWidth,"
                " document.querySelector('.sheet .scroll').scrollWidth,"
                " document.querySelector('.sheet .scroll').clientWidth]")
            assert overflow[0] <= overflow[1] and overflow[2] <= overflow[3], overflow
            # what is read (the soft hyphens marking the syllables are not)
            headers = [text.replace("\u00ad", "") for text in
                       page.locator(".sheet thead th.name").all_inner_texts()]
            for name, shown in zip(names, headers):
                first, last = name.split()[0], name.split()[-1]
                assert shown.startswith(first), (name, shown)
                if width == 1280:
                    assert re.sub(r"\s+", " ", shown) == name
                else:
                    assert shown.replace("\n", " ").strip() in (name, f"{first} {last[0]}.")
            # each header fits its column
            clipped = page.evaluate(
                "() => [...document.querySelectorAll('.sheet thead th')]"
                ".filter(th => th.scrollWidth > th.clientWidth).length")
            assert clipped == 0
            # and no name is cut mid-word (Margareta: "Mar-" / "gareta Ö.")
            assert cut_words(page, ".sheet thead th") == [], width
            page.screenshot(path=str(folder / f"grid-{players}-{width}.png"), full_page=True)
            phone.close()
            # axe-core, injected past the page's CSP (in a context of its own)
            context = browser.new_context(bypass_csp=True,
                                          viewport={"width": width, "height": 800})
            checked = context.new_page()
            checked.goto(live.url + path_of(link["url"]))
            checked.add_script_tag(path=str(AXE))
            assert checked.evaluate(AXE_RUN) == [], width
            context.close()
