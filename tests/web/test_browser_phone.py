"""A table's page in headless Chromium (issue 29): at 375 px every score box's
column names its player, visibly, and no heading is cut mid-word; a phone that
loses the Wi-Fi while sending keeps what was typed and sends it again (stored
once); the first box at fault gets the focus. Screenshots go to
TOURNEY_SCREENSHOTS when set."""
from __future__ import annotations

import pytest
from serve_helpers import LiveServer, path_of, seated_event
from test_browser_serve import Phone, cut_words, shots

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

# Each heading of the sheet: its text, whether it is drawn (a box of some size, not
# hidden), its height and its line height (one line: the height is at most one
# line and a half).
HEADINGS = """() => [...document.querySelectorAll('.sheet thead th')].map(th => {
  const box = th.getBoundingClientRect();
  const shown = [...th.querySelectorAll('bdi')].filter(b => b.getClientRects().length
      && getComputedStyle(b).visibility !== 'hidden');
  const text = shown.map(b => b.innerText.replace(/\u00ad/g, "")).join(' ').trim() || th.innerText.trim();
  const range = document.createRange();
  range.selectNodeContents(th);
  const lines = new Set([...range.getClientRects()].filter(r => r.width > 0)
      .map(r => Math.round(r.top)));
  return {text, width: box.width, height: box.height, lines: lines.size,
          name: th.classList.contains('name'), shown: shown.length};
})"""


@pytest.mark.parametrize("backend", ["sqlite"])  # layout: one backend is enough
def test_each_score_box_is_labelled_with_its_player_at_375(tourney, db_url, browser,
                                                          tmp_path, backend):
    links = seated_event(tourney, lang="sv", tables=1)
    players = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
    folder = shots(tmp_path)
    with LiveServer(db_url) as live:
        for lang in ("en", "sv", "nb", "fi"):
            for width in (375, 1280):
                phone = Phone(browser, js=True)
                page = phone.page
                page.set_viewport_size({"width": width, "height": 800})
                page.goto(f"{live.url}{path_of(links['1']['url'])}?lang={lang}")
                headings = page.evaluate(HEADINGS)
                names = [h for h in headings if h["name"]]
                assert [h["text"] for h in names] == players, headings
                for heading in headings:
                    assert heading["width"] > 0 and heading["height"] > 0, heading
                    assert heading["lines"] == 1, heading  # "Dea/l" is two
                assert all(h["shown"] == 1 for h in names), names
                assert cut_words(page, ".sheet thead th") == []
                page.screenshot(path=str(folder / f"phone-sheet-{lang}-{width}.png"),
                                full_page=True)
                phone.close()
