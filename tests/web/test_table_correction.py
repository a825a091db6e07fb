"""A table that finds its stored result wrong sends the right one from its own
page: the correction form starts from the stored scores, and what it sends is kept
beside the stored result as a conflict for the organizer to decide (the stored
result stands meanwhile)."""
from __future__ import annotations

import re

import pytest
from serve_helpers import LiveServer, client, csrf_of, path_of, seated_event, sheet_form


def test_a_table_corrects_its_stored_result_from_its_page(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    page = path_of(links["1"]["url"])
    wrong = sheet_form(loser_seat=0)  # seat 1 loses every deal: the table typed it wrong
    sent = web.post(page, data={**wrong, "csrf": csrf_of(web.get(page).text),
                                **{f"seat-{i}": n for i, n in enumerate(
                                    tourney("round", "show", "club", "1", "--json")
                                    .json["tables"][0]["seats"])}})
    assert "checked and stored" in sent.text
    html = web.get(page).text
    assert "Is the stored result wrong?" in html
    correction = html.split('id="correct"')[1]
    # the boxes start from the stored scores
    boxes = dict(re.findall(r'name="(score-\d+-\d+)" value="([^"]*)"', correction))
    assert boxes == {k: v for k, v in wrong.items()}
    right = sheet_form(loser_seat=1)
    seats = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
    answer = web.post(page, data={**right, "csrf": csrf_of(html),
                                  **{f"seat-{i}": n for i, n in enumerate(seats)}})
    assert answer.status_code == 409
    assert "the organizer will compare the two" in answer.text
    # the stored result stands; the organizer has the two side by side
    stored = tourney("result", "show", "club", "1", "1", "--json").json
    assert [p["player"] for p in stored["places"] if p["place"] == 4] == [seats[0]]
    after = web.get(page).text
    assert "A different result was sent for this table too" in after
    assert 'id="correct"' not in after  # one correction waits: no second form


@pytest.mark.browser
@pytest.mark.parametrize("backend", ["sqlite"])  # a page's behaviour: one backend is enough
def test_a_phone_sends_the_correction_without_leaving_the_page(tourney, db_url, browser,
                                                               backend):
    pytest.importorskip("playwright.sync_api")
    from test_browser_serve import Phone, enter_sheet

    links = seated_event(tourney, lang="sv")
    with LiveServer(db_url, auto_accept=True) as live:
        phone = Phone(browser, js=True)
        page = phone.page
        page.goto(live.url + path_of(links["1"]["url"]))
        enter_sheet(page, loser_seat=0)
        page.click("#sheet button[type=submit]")
        page.wait_for_selector("#stored-h")
        # the answer drawn in place offers the correction, from the stored scores
        page.click("#correct summary")
        assert page.input_value('#correction input[name="score-1-0"]') == "1"
        for deal in (1, 2, 3):
            page.fill(f'#correction input[name="score-{deal}-0"]', "0")
            page.fill(f'#correction input[name="score-{deal}-1"]', "1")
        page.click("#correction button[type=submit]")
        page.wait_for_selector(".msg.bad[role=alert]")
        assert "arrangören jämför de två" in page.inner_text("main")
        assert page.locator("#correction").count() == 0
        # no script error, no CSP violation (the conflict is answered 409 on purpose)
        assert [e for e in phone.errors if "status of 409" not in e] == []
        phone.errors.clear()
        phone.close()
    seats = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
    stored = tourney("result", "show", "club", "1", "1", "--json").json
    assert [p["player"] for p in stored["places"] if p["place"] == 4] == [seats[0]]


def test_the_correction_starts_from_the_stored_dealers_where_the_dealer_is_chosen(
        tourney, db_url):
    import io
    import random

    from serve_helpers import send_csv

    from tourney.engines import get_game
    from tourney.records.csv_format import write_records
    from tourney.simulation import simulate_match

    tourney("player", "add", "Anna", "Bo", "Cecilia", "Dag")
    tourney("event", "create", "club", "--variant", "dam-stick", "--rounds", 1,
            "--table-sizes", 4, "--rule", "deals=3", "--rule", "dealer=free", "--lang", "en")
    tourney("event", "enter", "club", "--all")
    tourney("round", "seat", "club")
    seats = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
    link = tourney("round", "links", "club", "1", "--base-url", "http://testserver",
                   "--json").json["tables"][0]
    game = get_game("dam-stick")
    records = simulate_match(game, game.resolve_options({"deals": 3, "dealer": "free"}),
                             seats, random.Random(5), event="club", table="1", deals=3)
    out = io.StringIO()
    write_records(out, records, lambda record: game)
    web = client(db_url, auto_accept=True)
    assert send_csv(web, link, out.getvalue()).json()["outcome"] == "stored"
    correction = web.get(path_of(link["url"])).text.split('id="correct"')[1]
    chosen = {}
    for deal, options in re.findall(r'<select name="dealer-(\d+)".*?>(.*?)</select>',
                                    correction, re.S):
        chosen[int(deal)] = re.findall(r"<option selected>([^<]*)</option>", options)
    # deal 1's dealer is known in advance (no box); the dealers chosen after it are
    # the stored ones, each the one chosen
    assert chosen == {2: [records[1].dealer], 3: [records[2].dealer]}
    assert records[1].dealer and records[2].dealer
