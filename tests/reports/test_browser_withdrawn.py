"""A withdrawal's note in the published standings, "(drog sig ur efter rond 2)": at
1280 px it wrapped onto two or three lines beside the name in the narrow name column;
it reads in one piece on a line of its own under the name, at 1280 px and at a
phone's 375 px, in Swedish, Finnish and English, and the standings are no wider than
their box. Screenshots go to TOURNEY_SCREENSHOTS when set."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from simulated_rounds import play_round

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

NAMES = ["Anna-Karin Bergström", "Bo Ekholm", "Cecilia Holmqvist", "Jörgen Lindqvist",
         "Margareta Öhrnberg", "Nils Moe", "Åsa Öberg", "Daniel O'Brien"]

MEASURE = """() => {
  const note = document.querySelector('table.standings td:nth-child(2) .muted');
  const name = note.parentElement.querySelector('a');
  const box = document.querySelector('table.standings').closest('.scroll');
  return {note: note.getClientRects().length, name: name.getClientRects().length,
          page: [document.documentElement.scrollWidth, innerWidth],
          box: [box.scrollWidth, box.clientWidth]};
}"""


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
def test_a_withdrawal_reads_in_one_piece_under_the_name(tourney, browser, tmp_path, backend):
    tourney("player", "add", *NAMES)
    tourney("event", "create", "cup", "--variant", "kortrad", "--rounds", "4",
            "--table-sizes", "4", "--rule", "deals=2", "--lang", "sv")
    tourney("event", "enter", "cup", "--all")
    for number in (1, 2):
        records = tmp_path / f"r{number}.csv"
        play_round(tourney("round", "seat", "cup", "--json").json, "cup", "kortrad",
                   {"deals": "2"}, number, records)
        tourney("result", "import", str(records))
    tourney("event", "withdraw", "cup", "Margareta Öhrnberg")
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "sv", "--lang", "fi", "--lang", "en",
            "--no-replays")
    shots = Path(os.environ.get("TOURNEY_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    for folder in ("", "fi/", "en/"):
        for width in (1280, 375):
            context = browser.new_context(viewport={"width": width, "height": 900})
            page = context.new_page()
            page.goto((site / f"{folder}events/cup/index.html").as_uri())
            shown = page.evaluate(MEASURE)
            assert shown["note"] == 1 and shown["name"] == 1, (folder, width, shown)
            assert shown["page"][0] <= shown["page"][1], (folder, width, shown)
            assert shown["box"][0] <= shown["box"][1], (folder, width, shown)
            page.screenshot(path=str(shots / f"withdrawn-{folder[:2] or 'sv'}-{width}.png"),
                            full_page=True)
            context.close()
