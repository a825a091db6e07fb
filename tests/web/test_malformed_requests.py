"""Issue 29: every malformed request gets a 4xx and a clear message, never a 500 -- a
number too large for the databases' INTEGER in an organizer's action or in a page's
address among them (it reached the database and answered 500 on both); and the page
that answers a refused action offers language links that open a page (they named the
action's own address, which takes no GET: 405)."""
from __future__ import annotations

import re

import pytest
from serve_helpers import TOKEN, client, csrf_of, path_of, seated_event, sheet_form
from starlette.testclient import TestClient

HUGE = "9" * 30
BEARER = {"Authorization": f"Bearer {TOKEN}"}


def answering_500s(db_url) -> TestClient:
    """A client that gets the server's 500 as an answer instead of its exception."""
    return TestClient(client(db_url).app, base_url="http://testserver",
                      raise_server_exceptions=False)


@pytest.mark.parametrize("action, form", [
    ("reseat", {"round": HUGE}),
    ("absent", {"round": HUGE, "player": "Anna"}),
    ("unadjust", {"adjustment": HUGE}),
    ("clock", {"minutes": HUGE}),
    ("accept", {"submission": HUGE}),
    ("dismiss", {"submission": HUGE}),
    ("approve", {"signup": HUGE}),
    ("decline", {"signup": "-" + HUGE}),
])
def test_a_huge_number_in_an_organizers_action_is_a_4xx(tourney, db_url, action, form):
    seated_event(tourney)
    web = answering_500s(db_url)
    answer = web.post(f"/org/club/{action}", data=form, headers=BEARER)
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text[-300:])
    # said in the page's language (every action's: the event's, Swedish), the number
    # quoted
    assert "inte ett heltal" in answer.text and HUGE[:12] in answer.text
    assert web.post(f"/org/club/{action}", data=form,
                    headers={**BEARER, "Accept": "application/json"}).status_code == 409


def test_a_huge_round_in_the_links_pages_address_is_a_404(tourney, db_url):
    seated_event(tourney)
    web = answering_500s(db_url)
    answer = web.get(f"/org/club/round/{HUGE}/links", headers=BEARER)
    assert answer.status_code == 404 and "not a whole number" in answer.text
    assert web.get("/org/club/round/9/links", headers=BEARER).status_code == 404


def test_the_language_links_of_a_refused_action_open_a_page(tourney, db_url):
    seated_event(tourney)
    web = answering_500s(db_url)
    refused = web.post("/org/club/accept?lang=sv", data={"submission": "12345"},
                       headers=BEARER)
    assert refused.status_code == 409
    links = re.findall(r'<a href="([^"]+)" hreflang="(\w+)"', refused.text)
    assert {lang for _, lang in links} == {"en", "nb", "fi"}
    for href, _ in links:
        assert href.startswith("/org/club?lang="), href
        assert web.get(href, headers=BEARER).status_code == 200


@pytest.mark.parametrize("typed", ["inf", "-Infinity", "nan", "1e400"])
def test_a_score_that_is_no_finite_number_keeps_the_organizers_page(tourney, db_url, typed):
    """float() reads these; a phone's invalid result holding one made the organizer's
    event page answer 500 for as long as the result was kept."""
    links = seated_event(tourney, lang="en")
    web = answering_500s(db_url)
    table = path_of(links["1"]["url"])
    form = {"csrf": csrf_of(web.get(table).text), **sheet_form(loser_seat=1)}
    form["score-1-0"] = typed
    assert web.post(table, data=form).status_code == 422
    page = web.get("/org/club", headers=BEARER)
    assert page.status_code == 200, page.text[-300:]
    review = page.text[page.text.index('<section class="review"'):]
    assert f">{typed}</" in review  # what the phone sent, as sent
