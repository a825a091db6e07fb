"""The organizer's round page in headless Chromium with a table waiting, an
invalid one, a conflict, an invalid result sent after the stored one and a table
with its stored result (long names, English, Swedish, Norwegian): at a phone's
375 px nothing scrolls sideways and each result grid fits, no name in a grid's
header is cut mid-word, at 1280 px the two results of the conflict stand side by
side; axe-core finds no serious or critical violation. Screenshots go to
TOURNEY_SCREENSHOTS when set."""
from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from serve_helpers import TOKEN, LiveServer, match_csv, path_of
from test_browser_serve import cut_words, shots

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / ".cache" / "axe" / "node_modules" / "axe-core" / \
    "axe.min.js"
NAMES = ["Anna-Karin Bergström", "Bo Ekholm", "Cecilia Holmqvist", "Jörgen Lindqvist",
         "Margareta Öhrnberg", "Ulla-Britt Sjöström", "Gunnar Wikström", "Ingrid Falk",
         "Karl-Henrik Åkesson", "Lena Nordqvist", "Maj-Lis Sandberg", "Per-Olof Björk",
         "Sven-Erik Ågren", "Britt-Marie Lundqvist", "Christoffer Wennerström",
         "Ann-Sofie Hedlund", "Gunilla Bäckström", "Rolf Engström", "Solveig Dahlberg",
         "Torbjörn Hellqvist"]
AXE_RUN = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .filter(v => v.impact === "serious" || v.impact === "critical")
  .map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).join(", "))"""


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
def test_the_review_page_fits_a_phone_and_shows_a_conflict_side_by_side(
        tourney, db_url, browser, tmp_path, backend):
    assert AXE.is_file(), f"axe-core is missing: run .ci/setup (expected {AXE})"
    tourney("player", "add", *NAMES)
    tourney("event", "create", "club", "--name", "Klubbkväll <3", "--variant", "svarta-maja",
            "--rounds", "2", "--table-sizes", "4", "--rule", "deals=5", "--lang", "en")
    tourney("event", "enter", "club", "--all")
    tourney("round", "seat", "club")
    links = {row["table"]: row for row in tourney(
        "round", "links", "club", "1", "--base-url", "http://testserver",
        "--json").json["tables"]}
    folder = shots(tmp_path)
    bearer = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}
    with LiveServer(db_url) as live:  # review mode
        def send(table: str, body: str) -> dict:
            return httpx.post(live.url + path_of(links[table]["url"]), content=body,
                              headers={"Content-Type": "text/csv"}).json()

        send("1", match_csv(tourney, "club", 1, "1", loser_seat=2, deals=5))
        bad = match_csv(tourney, "club", 1, "2", deals=5).replace("0;1;0;0", "0;1;1;0", 1)
        assert send("2", bad)["outcome"] == "invalid"
        first = send("3", match_csv(tourney, "club", 1, "3", loser_seat=0, deals=5))
        httpx.post(f"{live.url}/org/club/accept", data={"submission": first["submission"]},
                   headers=bearer)
        assert send("3", match_csv(tourney, "club", 1, "3", loser_seat=3, deals=5)
                    )["outcome"] == "conflict"
        for table in ("4", "5"):  # accepted; table 4 then sends an invalid result
            sent = send(table, match_csv(tourney, "club", 1, table, loser_seat=1, deals=5))
            httpx.post(f"{live.url}/org/club/accept", data={"submission": sent["submission"]},
                       headers=bearer)
        two_losers = match_csv(tourney, "club", 1, "4", deals=5).replace("0;1;0;0", "0;1;1;0", 1)
        late = send("4", two_losers)
        assert late["outcome"] == "invalid" and late["submission"] is not None
        context = browser.new_context(bypass_csp=True, device_scale_factor=1)
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda err: problems.append(str(err)))
        page.goto(f"{live.url}/login")
        page.fill('input[name="token"]', TOKEN)
        page.click("button[type=submit].primary")
        page.wait_for_url("**/org")
        for lang, width in (("en", 375), ("en", 1280), ("sv", 375), ("nb", 375)):
            page.set_viewport_size({"width": width, "height": 800})
            page.goto(f"{live.url}/org/club?lang={lang}")
            sizes = page.evaluate(
                "() => [document.documentElement.scrollWidth, window.innerWidth,"
                " ...[...document.querySelectorAll('table.result')].map("
                "   t => t.getBoundingClientRect().right)]")
            assert sizes[0] <= sizes[1], (lang, width, sizes)
            assert all(right <= width + 0.5 for right in sizes[2:]), (lang, width, sizes)
            assert page.locator("section.review").count() == 5
            conflict = page.locator("section.review").nth(2)
            sides = conflict.locator(".versus .side")
            assert sides.count() == 2 and conflict.locator("mark").count() >= 10
            top = [sides.nth(i).bounding_box()["y"] for i in range(2)]
            assert (top[0] == top[1]) == (width == 1280), top  # side by side when wide
            errors = page.inner_text("section.review >> nth=1")
            assert re.search(r"(deal|giv) 1", errors), errors
            # the row headers (Place: "Plassering" in nb) fit their column
            clipped = page.evaluate("() => [...document.querySelectorAll("
                                    "'table.result tbody th, table.result tfoot th')]"
                                    ".filter(th => th.scrollWidth > th.clientWidth).length")
            assert clipped == 0, (lang, width)
            # the names wrap at spaces and hyphens, or are hyphenated: none is cut
            assert cut_words(page, "table.result thead th") == [], (lang, width)
            # the invalid result sent later: its errors, only a dismiss with its reason
            late = page.locator("section.review").nth(3)
            assert re.search(r"(deal|giv) 1", late.locator("ul.errors").inner_text())
            assert late.locator("form[action$='/replace']").count() == 0
            assert late.locator("form[action$='/dismiss'] label.note + input[name='note']").count() == 1
            stored = page.locator("section.review").nth(4)  # as it is stored
            assert stored.locator("table.result tfoot tr").count() == 2
            page.add_script_tag(path=str(AXE))
            assert page.evaluate(AXE_RUN) == [], (lang, width)
            page.screenshot(path=str(folder / f"organizer-review-{lang}-{width}.png"),
                            full_page=True)
        context.close()
        assert problems == []
