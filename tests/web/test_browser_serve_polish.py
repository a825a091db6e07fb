"""What a new user met on ``tourney serve`` (issue 29), in Chromium: going back
after a stored result shows what is stored, not the form sent; the live standings
of a club night fit a phone (a narrow place column, names on one line) and a
venue's 1920x1080 screen without scrolling."""
from __future__ import annotations

import httpx
import pytest
from serve_helpers import LiveServer, match_csv, path_of, seated_event
from test_browser_serve import enter_sheet, shots

from tourney.reports.i18n import translations

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.mark.parametrize("backend", ["sqlite"])  # the browser's cache: one backend is enough
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_back_after_a_stored_result_shows_it_stored(tourney, db_url, browser, tmp_path,
                                                    backend, js):
    links = seated_event(tourney, lang="sv")
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        context = browser.new_context(viewport={"width": 375, "height": 740},
                                      java_script_enabled=js, is_mobile=True)
        page = context.new_page()
        table = live.url + path_of(links["1"]["url"])
        page.goto(f"{live.url}/t")  # the code page, as a phone comes from a QR code
        page.goto(table)
        assert page.locator("#sheet").count() == 1
        enter_sheet(page, loser_seat=1)
        page.click("button[type=submit].primary")
        page.wait_for_selector("#stored-result, .msg.ok[role=status]")
        if js:  # the answer is drawn in place: the phone then goes on to another page
            page.goto(f"{live.url}/standings/club")
        page.go_back()
        page.wait_for_load_state()
        tag = "js" if js else "nojs"
        page.screenshot(path=str(folder / f"table-back-after-stored-{tag}.png"), full_page=True)
        assert page.url.startswith(table)
        # what is stored, no form to send again
        assert page.locator("#sheet").count() == 0, page.content()
        assert page.locator("#stored").count() == 1
        context.close()


TYPICAL = ["David Öberg", "Anna-Karin Lindqvist", "Mikael Johansson", "Åsa Sundström",
           "Kristoffer Nyberg", "Maria Andersson", "Jukka Virtanen", "Ingrid Halvorsen",
           "Sofia Bergström", "Olli Mäkinen", "Henrik Åkesson", "Eva Lundgren",
           "Lars Eriksson", "Karin Nilsson", "Petri Laine", "Sigrid Haugen",
           "Johan Karlsson", "Elin Persson", "Matti Heikkinen", "Ola Nordmann",
           "Gunilla Svensson", "Tuomas Koskinen", "Birgitta Holm", "Erik Olsen"]


def club_night(tourney, players: list[str], lang: str = "sv") -> dict:
    tourney("player", "add", *players)
    tourney("event", "create", "club", "--variant", "svarta-maja", "--rounds", 3,
            "--table-sizes", "4", "--rule", "deals=3", "--lang", lang)
    tourney("event", "enter", "club", "--all")
    tourney("round", "seat", "club")
    return {row["table"]: row for row in
            tourney("round", "links", "club", "1", "--base-url", "http://testserver",
                    "--json").json["tables"]}


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
@pytest.mark.parametrize("lang, players", [("sv", 12), ("fi", 12), ("sv", 16), ("nb", 24)])
def test_live_standings_of_a_club_night_fit_a_phone_and_a_screen(tourney, db_url, browser,
                                                                 tmp_path, backend, lang,
                                                                 players):
    """At 375 px a narrow place column and every name on one line; at 1920x1080
    every row on the screen (12 in the largest type, 16 and 24 smaller), also while
    the round is under way (its progress line and a tie-break column shown)."""
    links = club_night(tourney, TYPICAL[:players], lang)
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        def send(table):
            httpx.post(live.url + path_of(links[table]["url"]),
                       content=match_csv(tourney, "club", 1, table),
                       headers={"Content-Type": "text/csv"})

        for table in list(links)[:-1]:
            send(table)
        screens = [(1920, 1080, "under-way")]
        for width, height, when in screens:
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.goto(f"{live.url}/standings/club")
            page.screenshot(path=str(folder / f"live-standings-{players}-{lang}-{width}-{when}.png"),
                            full_page=True)
            assert page.locator("#standings tbody tr").count() == players
            assert page.locator("#progress").is_visible() is (when == "under-way")
            # the place column's heading is short, its full name said to a screen reader
            place = page.locator("#standings thead th").first
            assert place.inner_text().strip() == "#"
            assert place.locator("abbr").get_attribute("title") == place.get_attribute(
                "aria-label") == translations(lang).gettext("Place")
            if width == 375:
                # the place column narrow, every name on one line
                assert place.bounding_box()["width"] <= 0.14 * width  # "Placering" took a third
                lines = page.evaluate("""[...document.querySelectorAll('#standings tbody td bdi')]
                    .filter(b => b.getClientRects().length > 1).map(b => b.textContent)""")
                assert lines == [], lines
                assert page.evaluate("document.documentElement.scrollWidth") <= width
            else:
                # the whole page on the screen: no row cut off on a projector, in
                # type still to read across a room
                assert page.evaluate("document.documentElement.scrollHeight") <= height
                size = float(page.evaluate("parseFloat(getComputedStyle("
                                           "document.querySelector('#standings')).fontSize)"))
                assert size >= (36 if players <= 12 else 28 if players <= 16 else 20), size
            context.close()
            if when == "under-way":  # the round's last result in
                send(list(links)[-1])
                screens += [(375, 740, "done"), (1920, 1080, "done")]
