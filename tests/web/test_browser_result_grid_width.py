"""A stored result's grid (the table's page after sending, /t/TOKEN/result, the
organizer's review) at a phone's 375 px with 5 and 6 players, the largest tables
of dam-stick: each name in the header wraps at its spaces and hyphens or is
hyphenated at a syllable, never cut mid-word ("Dagn" / "y"), in every language
(the row headers "Placering", "Plassering", "Sijoitus" take the width they need),
and nothing scrolls sideways. Screenshots go to TOURNEY_SCREENSHOTS when set."""
from __future__ import annotations

import csv
import io

import httpx
import pytest
from serve_helpers import TOKEN, LiveServer, path_of
from test_browser_serve import cut_words, shots

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

# names of a Nordic club night whose words have no syllable break the grid may
# use (Dagny: 2 letters must stay, 3 go on) or one too few (Jo-hanna)
NAMES = ["Rasmus Holm", "Dagny Sørensen", "Gustav Berg", "Olle Persson", "Tor Bakke",
         "Karl-Erik Nyberg", "Viktor Järvinen", "Linnea Dahl", "Johanna Korhonen",
         "Magnus Eklund", "Einar Halvorsen"]


def _table_csv(records: str, table: str) -> str:
    rows = list(csv.reader(io.StringIO(records)))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows([rows[0], *(r for r in rows[1:] if r[3] == table)])
    return out.getvalue()


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
def test_a_stored_result_of_five_and_six_players_fits_a_phone(tourney, db_url, browser,
                                                              tmp_path, backend):
    tourney("player", "add", *NAMES)
    tourney("event", "create", "kvall", "--name", "Klubbkväll", "--variant", "dam-stick",
            "--rounds", "1", "--table-sizes", "5-6", "--rule", "deals=2", "--lang", "sv")
    tourney("event", "enter", "kvall", "--all")
    tourney("round", "seat", "kvall")
    links = {t["table"]: t for t in tourney("round", "links", "kvall", "1", "--base-url",
                                            "http://testserver", "--json").json["tables"]}
    sizes = sorted(len(t["seats"]) for t in
                   tourney("round", "show", "kvall", "1", "--json").json["tables"])
    assert sizes == [5, 6]
    records = tourney("simulate", "--event", "kvall", "--round", "1").stdout
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        for table, link in links.items():
            sent = httpx.post(live.url + path_of(link["url"]),
                              content=_table_csv(records, table).encode(),
                              headers={"Content-Type": "text/csv"})
            assert sent.json()["outcome"] == "stored", sent.text
        context = browser.new_context(viewport={"width": 375, "height": 800})
        page = context.new_page()
        pages = [path_of(link["url"]) + "/result" for link in links.values()]
        for lang in ("sv", "nb", "fi", "en"):
            for address in pages:
                page.goto(f"{live.url}{address}?lang={lang}")
                assert page.locator("table.result").count() == 1
                where = (lang, address)
                assert page.evaluate("() => document.documentElement.scrollWidth") <= 375, where
                assert cut_words(page, "table.result thead th") == [], where
                clipped = page.evaluate("() => [...document.querySelectorAll("
                                        "'table.result th, table.result td')]"
                                        ".filter(c => c.scrollWidth > c.clientWidth).length")
                assert clipped == 0, where
            page.screenshot(path=str(folder / f"stored-result-6-{lang}-375.png"), full_page=True)
        # the organizer's review shows the same grids
        page.goto(f"{live.url}/login")
        page.fill('input[name="token"]', TOKEN)
        page.click("button[type=submit].primary")
        page.wait_for_url("**/org")
        page.goto(f"{live.url}/org/kvall?lang=sv")
        assert page.locator("table.result").count() == 2
        assert cut_words(page, "table.result thead th") == []
        context.close()
