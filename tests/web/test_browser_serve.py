"""`tourney serve` in headless Chromium at phone width (375 px): a table's score
sheet entered in Swedish and in English, with JavaScript on and off (forms post
normally), an error said in the page's language, the organizer's round page, and
the live standings updating; no script error and no CSP violation on any page.
Screenshots go to TOURNEY_SCREENSHOTS when set."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from serve_helpers import TOKEN, LiveServer, match_csv, path_of, seated_event

pytest.importorskip("playwright.sync_api")  # the module skips without Playwright
pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}
WORDS = {  # what each language says: the sheet's title, the error, the thanks
    "sv": ("Poängprotokoll", "exakt en förlorare", "kontrollerat och sparat"),
    "en": ("Score sheet", "exactly one loser", "checked and stored"),
}


def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("TOURNEY_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# Where a header's text goes on to a new line between two letters: a word cut in
# two. A break after a space, a hyphen or a soft hyphen (drawn as "-") is no cut.
# (The letter after a soft-hyphen break also reports the hyphen's box on the line
# before: its own box is the last one.)
CUT_WORDS = r"""(selector) => [...document.querySelectorAll(selector)].flatMap(cell => {
  const cuts = [], letter = /[\p{L}\p{N}]/u;
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  let top = null, before = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.getClientRects().length) continue;  // not shown
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = [...range.getClientRects()].filter(r => r.width > 0).pop();
      if (box) {
        if (top !== null && box.top > top + 1 && letter.test(before) && letter.test(node.data[i]))
          cuts.push(cell.innerText.replace(/\s+/g, " ") + ": " + before + "|" + node.data[i]);
        top = box.top;
      }
      before = node.data[i];
    }
  }
  return cuts;
})"""


def cut_words(page, selector: str) -> list[str]:
    """The words cut across two lines in the cells ``selector`` names (see CUT_WORDS)."""
    return page.evaluate(CUT_WORDS, selector)


class Phone:
    """A fresh 375 px browser context; script errors and console errors (CSP
    violations among them) are collected."""

    def __init__(self, browser, js: bool):
        self.context = browser.new_context(viewport=PHONE, java_script_enabled=js,
                                           device_scale_factor=2, is_mobile=True)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        # A refused result is answered 422 on purpose: not an error of the page.
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" and "status of 422" not in m.text else None)

    def close(self):
        self.context.close()
        assert self.errors == [], self.errors


def enter_sheet(page, loser_seat: int, deals: int = 3, players: int = 4) -> None:
    for deal in range(1, deals + 1):
        for seat in range(players):
            page.fill(f'input[name="score-{deal}-{seat}"]', "1" if seat == loser_seat else "0")


def test_a_table_enters_its_score_sheet_on_a_phone(tourney, db_url, browser, tmp_path):
    links = seated_event(tourney, lang="sv", tables=4)
    folder = shots(tmp_path)
    cases = [("sv", True, "1"), ("sv", False, "2"), ("en", True, "3"), ("en", False, "4")]
    with LiveServer(db_url, auto_accept=True) as live:
        for lang, js, table in cases:
            title, wrong, thanks = WORDS[lang]
            phone = Phone(browser, js)
            page = phone.page
            tag = f"{lang}-{'js' if js else 'nojs'}"
            page.goto(f"{live.url}{path_of(links[table]['url'])}?lang={lang}")
            assert page.locator("html").get_attribute("lang") == lang
            assert title in page.inner_text("h2")
            # the sheet fits the phone: no sideways scrolling of the page itself
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            page.screenshot(path=str(folder / f"table-{tag}-375.png"), full_page=True)
            if js:  # as-you-type: a score that is not a number is marked at once
                page.fill('input[name="score-1-0"]', "x")
                assert page.get_attribute('input[name="score-1-0"]', "aria-invalid") == "true"
            enter_sheet(page, loser_seat=1)
            page.fill('input[name="score-2-2"]', "1")  # two losers in deal 2
            page.click("button[type=submit].primary")
            page.wait_for_load_state()
            errors = page.inner_text("#errors")
            assert wrong in errors and ("giv 2" if lang == "sv" else "deal 2") in errors
            assert page.input_value('input[name="score-2-2"]') == "1"  # kept to correct
            page.screenshot(path=str(folder / f"table-{tag}-error-375.png"), full_page=True)
            page.fill('input[name="score-2-2"]', "0")
            page.click("button[type=submit].primary")
            page.wait_for_load_state()
            assert thanks in page.inner_text("[role=status]")
            page.screenshot(path=str(folder / f"table-{tag}-stored-375.png"), full_page=True)
            phone.close()
            history = tourney("result", "history", "club", "1", table, "--json").json
            assert [v["version"] for v in history] == [1]


def test_organizer_round_page_and_live_standings(tourney, db_url, browser, tmp_path):
    links = seated_event(tourney, lang="en", tables=2)
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True, poll_seconds=1) as live:
        import httpx

        httpx.post(live.url + path_of(links["1"]["url"]),
                   content=match_csv(tourney, "club", 1, "1"),
                   headers={"Content-Type": "text/csv"})
        for lang in ("sv", "en"):
            phone = Phone(browser, js=False)
            page = phone.page
            page.goto(f"{live.url}/login?lang={lang}")
            page.fill('input[name="token"]', TOKEN)
            page.click("button[type=submit].primary")
            page.wait_for_url("**/org")
            page.goto(f"{live.url}/org/club")
            states = page.inner_text("table.tables")
            assert ("godkänt" if lang == "sv" else "accepted") in states
            page.screenshot(path=str(folder / f"organizer-{lang}-375.png"), full_page=True)
            page.goto(f"{live.url}/org/club/round/1/links")
            assert page.locator("img[src^='data:image/svg+xml']").count() == 2
            page.screenshot(path=str(folder / f"links-{lang}-375.png"), full_page=True)
            phone.close()
        screen = Phone(browser, js=True)
        page = screen.page
        page.goto(f"{live.url}/standings/club?lang=sv")
        before = page.inner_text("#standings tbody")
        httpx.post(live.url + path_of(links["2"]["url"]),
                   content=match_csv(tourney, "club", 1, "2", loser_seat=3),
                   headers={"Content-Type": "text/csv"})
        deadline = time.monotonic() + 20
        while page.inner_text("#standings tbody") == before:
            assert time.monotonic() < deadline, "the standings did not update"
            page.wait_for_timeout(200)
        page.screenshot(path=str(folder / "standings-sv-375.png"), full_page=True)
        screen.close()
