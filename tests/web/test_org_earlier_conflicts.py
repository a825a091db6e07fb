"""The organizer's event page keeps every conflict of the event in view until it is
decided: an earlier round's, once the next round is seated, grouped by round and
table, newest round first, with the same decisions; on SQLite and PostgreSQL."""
from __future__ import annotations

import re

from serve_helpers import TOKEN, client, csrf_of, match_csv, seated_event, send_csv

BEARER = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}


def _organizer(db_url, **config):
    web = client(db_url, **config)
    page = web.get("/login")
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)})
    return web


def _round_with_conflicts(tourney, web, links, number):
    """Every table of round ``number`` stored, then table 1 sends a different result
    (a conflict) and table 2 an invalid one (kept for review)."""
    for table in links:
        assert send_csv(web, links[table], match_csv(tourney, "club", number, table,
                                                     loser_seat=1)).status_code == 200
    assert send_csv(web, links["1"], match_csv(tourney, "club", number, "1",
                                               loser_seat=2)).status_code == 409
    bad = match_csv(tourney, "club", number, "2", loser_seat=1).replace("0;1;0;0", "0;2;0;0", 1)
    assert send_csv(web, links["2"], bad).status_code == 422


def _next_round(tourney, web, number):
    page = web.get("/org/club")
    for action in ("close", "seat"):  # closed with a table still to decide: when told so
        form = {"csrf": csrf_of(page.text), **({"force": "1"} if action == "close" else {})}
        assert web.post(f"/org/club/{action}", data=form,
                        follow_redirects=False).status_code == 303
    return {row["table"]: row for row in tourney(
        "round", "links", "club", str(number), "--base-url", "http://testserver",
        "--json").json["tables"]}


def test_earlier_rounds_conflicts_stay_on_the_event_page_until_decided(tourney, db_url):
    links = seated_event(tourney, lang="en", rounds=3)
    web = _organizer(db_url, auto_accept=True)
    _round_with_conflicts(tourney, web, links, 1)
    links = _next_round(tourney, web, 2)
    _round_with_conflicts(tourney, web, links, 2)
    _next_round(tourney, web, 3)
    page = web.get("/org/club").text
    assert "<h2>Round 3</h2>" in page and 'href="#earlier"' in page
    earlier = page[page.index('id="earlier"'):]
    # newest round first, each table of it with a conflict, with its decisions
    assert earlier.index('id="round-2"') < earlier.index('id="round-1"')
    for number in (2, 1):
        rnd = earlier[earlier.index(f'id="round-{number}"'):]
        rnd = rnd[:rnd.index(f'id="round-{number - 1}"')] if number == 2 else rnd
        tables = re.findall(r'<h4 id="round-\d-table-\d-h">(Table \d+)[^<]*', rnd)
        assert tables == ["Table 1", "Table 2"], tables
        assert "results differ" in rnd and "invalid result sent later" in rnd
        assert rnd.count('action="/org/club/replace"') == 1
        assert rnd.count('action="/org/club/dismiss"') == 2
    ids = {(past["round"], table["table"]): table["conflicts"] for past in
           web.get("/org/club", headers=BEARER).json()["earlier"] for table in past["tables"]}
    assert sorted(ids) == [(1, "1"), (1, "2"), (2, "1"), (2, "2")]
    assert [past["round"] for past in web.get("/org/club", headers=BEARER).json()["earlier"]] \
        == [2, 1]
    # the decisions work on an earlier round: round 1's differing result stored instead
    csrf = csrf_of(page)
    [differing] = ids[(1, "1")]
    assert differing["valid"] is True
    stored = web.post("/org/club/replace", data={"csrf": csrf,
                                                 "submission": differing["submission"]},
                      follow_redirects=False)
    assert stored.status_code == 303 and "done=replaced" in stored.headers["location"]
    history = tourney("result", "history", "club", "1", "1", "--json").json
    assert len(history["versions"] if isinstance(history, dict) else history) == 2, history
    for key in ((1, "2"), (2, "1"), (2, "2")):
        [conflict] = ids[key]
        dismissed = web.post("/org/club/dismiss", data={"csrf": csrf, "note": "checked",
                                                        "submission": conflict["submission"]},
                             follow_redirects=False)
        assert dismissed.status_code == 303, key
    page = web.get("/org/club").text
    assert 'id="earlier"' not in page and 'href="#earlier"' not in page
    assert web.get("/org/club", headers=BEARER).json()["earlier"] == []
    # a decision taken already is refused, said on a page, nothing changed
    again = web.post("/org/club/dismiss", data={"csrf": csrf,
                                                "submission": ids[(1, "2")][0]["submission"]})
    assert again.status_code == 409
    # said as the organizer sees it: the table and round, not a submission's id
    assert "table 2&#39;s result in round 1 was already decided (dismissed): reload the page" \
        in again.text, again.text
    assert '<a href="/org/club">Back</a>' in again.text
