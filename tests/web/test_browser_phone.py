"""A table's page in headless Chromium (issue 29): at 375 px every score box's
column names its player, visibly, and no heading is cut mid-word; a phone that
loses the Wi-Fi while sending keeps what was typed and sends it again (stored
once); the first box at fault gets the focus. Screenshots go to
TOURNEY_SCREENSHOTS when set."""
from __future__ import annotations

import pytest
from serve_helpers import LiveServer, path_of, seated_event
from test_browser_serve import Phone, cut_words, enter_sheet, shots

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


def test_the_first_field_at_fault_gets_the_focus(tourney, db_url, browser, tmp_path):
    links = seated_event(tourney, lang="sv", tables=1)
    folder = shots(tmp_path)
    with LiveServer(db_url) as live:
        for js in (True, False):
            phone = Phone(browser, js=js)
            page = phone.page
            page.goto(live.url + path_of(links["1"]["url"]))
            enter_sheet(page, loser_seat=1)
            page.fill('input[name="score-2-2"]', "1")  # two losers in deal 2
            page.click("button[type=submit].primary")
            page.wait_for_selector("#errors")
            marked = page.eval_on_selector_all('#sheet [aria-invalid="true"]',
                                               "fields => fields.map(f => f.name)")
            assert marked == ["score-2-0", "score-2-1", "score-2-2", "score-2-3"]
            focused = page.evaluate("document.activeElement.name || null")
            assert focused == ("score-2-0" if js else None)
            page.screenshot(path=str(folder / f"phone-error-{'js' if js else 'nojs'}-375.png"),
                            full_page=True)
            phone.close()


@pytest.mark.parametrize("answer_lost", [False, True])
def test_a_phone_that_loses_the_wifi_keeps_what_was_typed(tourney, db_url, browser,
                                                           tmp_path, answer_lost):
    """The first send fails (``answer_lost``: the server got it, the answer did
    not come back; else it never left): the values stay, the phone says it was not
    sent, and sending again stores one version."""
    links = seated_event(tourney, lang="sv", tables=1)
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        phone = Phone(browser, js=True)
        page = phone.page
        url = live.url + path_of(links["1"]["url"])
        sends = []

        def flaky(route):
            sends.append(route.request.method)
            if route.request.method == "POST" and len(sends) == 1:
                if answer_lost:
                    route.fetch()  # it reaches the server; its answer is lost
                route.abort("internetdisconnected")
            else:
                route.continue_()

        page.route(url, flaky)
        page.goto(url)
        sends.clear()
        enter_sheet(page, loser_seat=1)
        page.click("button[type=submit].primary")
        page.wait_for_selector("#unsent", state="visible")
        assert "skicka det igen" in page.inner_text("#unsent")
        assert page.evaluate("document.activeElement.id") == "unsent"
        assert page.input_value('input[name="score-1-1"]') == "1"
        assert page.input_value('input[name="score-3-0"]') == "0"
        page.screenshot(path=str(folder / f"phone-unsent-{answer_lost}-375.png"), full_page=True)
        if not answer_lost:  # a reload keeps them too (for this tab)
            page.reload()
            assert page.input_value('input[name="score-1-1"]') == "1"
        page.click("button[type=submit].primary")
        page.wait_for_selector("#stored")
        assert "sparad" in page.inner_text("#stored")
        page.screenshot(path=str(folder / f"phone-sent-again-{answer_lost}-375.png"),
                        full_page=True)
        # the aborted send is the one console error of the page
        phone.errors[:] = [e for e in phone.errors if "ERR_INTERNET_DISCONNECTED" not in e]
        phone.close()
    history = tourney("result", "history", "club", "1", "1", "--json").json
    assert [v["version"] for v in history] == [1]


def test_typed_scores_follow_their_players_when_the_seating_changes(tourney, db_url, browser,
                                                                    tmp_path):
    """A phone typed its sheet; the arbiter then swapped one of the table's players
    with another table's. Reloaded, each box is under the player it was typed for
    (the newcomer's empty); sent as it was, nothing is stored and the page says who
    changed; sent once the newcomer's boxes are filled, the result names who played."""
    links = seated_event(tourney, lang="sv", tables=2)
    seats = {t["table"]: t["seats"] for t in
             tourney("round", "show", "club", "1", "--json").json["tables"]}
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        phone = Phone(browser, js=True)
        page = phone.page
        url = f"{live.url}{path_of(links['1']['url'])}?lang=en"
        page.goto(url)
        for deal in (1, 2, 3):  # each box holds the seat number it was typed in
            for seat in range(4):
                page.fill(f'input[name="score-{deal}-{seat}"]', str(seat))
        leaving, coming = seats["1"][2], seats["2"][1]
        tourney("round", "swap", "club", "1", leaving, coming)
        now = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
        page.reload()  # the page names the players as seated now; the boxes follow
        for seat, name in enumerate(now):
            expected = "" if name == coming else str(seats["1"].index(name))
            assert page.input_value(f'input[name="score-2-{seat}"]') == expected, (seat, name)
        page.screenshot(path=str(folder / "phone-seating-changed-reload-375.png"), full_page=True)
        # a second tab of the page as it was before the swap sends its boxes: refused
        stale = Phone(browser, js=True)
        stale.page.goto(url)
        stale.page.evaluate("""([names]) => names.forEach((n, i) =>
            document.querySelector(`input[name="seat-${i}"]`).value = n)""", [seats["1"]])
        for seat in range(4):
            stale.page.fill(f'input[name="score-1-{seat}"]', str(seat))
        stale.page.click("button[type=submit].primary")
        stale.page.wait_for_selector("#seating-changed")
        assert coming in stale.page.inner_text("#seating-changed")
        assert leaving in stale.page.inner_text("#seating-changed")
        stale.page.screenshot(path=str(folder / "phone-seating-changed-375.png"), full_page=True)
        # the refusal's status is the one console error of that page
        stale.errors[:] = [e for e in stale.errors if "409 (Conflict)" not in e]
        stale.close()
        tourney("result", "history", "club", "1", "1", exit_code=1)
        # filled in as played, the sheet is sent from the reloaded page and stored
        enter_sheet(page, loser_seat=now.index(coming))
        page.click("button[type=submit].primary")
        page.wait_for_selector("#stored")
        phone.close()
    ranking = tourney("result", "history", "club", "1", "1", "--json").json[-1]["ranking"]
    assert {name for name, _ in ranking} == set(now)


def test_a_refused_send_keeps_what_was_typed(tourney, db_url, browser, tmp_path):
    """Refusals that did not look at the result are pages now: a busy server (503)
    leaves the sheet as it was, to send again; an expired form (403) shows its
    page, and the reload it asks for brings back what was typed."""
    links = seated_event(tourney, lang="sv", tables=1)
    folder = shots(tmp_path)
    with LiveServer(db_url, auto_accept=True) as live:
        phone = Phone(browser, js=True)
        page = phone.page
        url = live.url + path_of(links["1"]["url"])
        busy = []

        def once_busy(route):
            if route.request.method == "POST" and not busy:
                busy.append(1)
                route.fulfill(status=503, content_type="text/html; charset=utf-8",
                              body="<!doctype html><main><p>Upptagen</p></main>")
            else:
                route.continue_()

        page.route(url, once_busy)
        page.goto(url)
        enter_sheet(page, loser_seat=2)
        page.click("button[type=submit].primary")
        page.wait_for_selector("#unsent", state="visible")
        assert page.input_value('input[name="score-1-2"]') == "1"
        # the form's token no longer matches: the server refuses it as expired
        page.evaluate("document.querySelector('input[name=csrf]').value = 'stale'")
        page.click("button[type=submit].primary")
        page.wait_for_selector("#sheet", state="detached")
        assert page.locator("main").inner_text().strip()
        page.screenshot(path=str(folder / "phone-form-expired-375.png"), full_page=True)
        page.reload()
        assert page.input_value('input[name="score-1-2"]') == "1"
        assert page.input_value('input[name="score-3-0"]') == "0"
        page.click("button[type=submit].primary")
        page.wait_for_selector("#stored")
        phone.errors[:] = [e for e in phone.errors if "503" not in e and "403" not in e]
        phone.close()
    assert [v["version"] for v in tourney("result", "history", "club", "1", "1", "--json").json] == [1]
