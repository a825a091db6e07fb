"""`tourney serve`, the organizer's review: what each table sent (players in seat
order, deal scores, totals and places, or what is wrong), and a second phone's
different result kept as a conflict, shown beside the first and settled by the
organizer (stored instead as a new version, or dismissed); on SQLite and PostgreSQL."""
from __future__ import annotations

import html
import re

from sqlmodel import select

from tourney.storage.db import open_engine, reading
from tourney.storage.models import AuditLog, Submission

from serve_helpers import TOKEN, client, csrf_of, match_csv, path_of, seated_event, send_csv

BEARER = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}


def seats_of(tourney, table: str) -> list[str]:
    shown = tourney("round", "show", "club", "1", "--json").json["tables"]
    return next(t["seats"] for t in shown if t["table"] == table)


def section(page: str, number: int) -> str:
    """The text of the organizer page's review of the ``number``-th table."""
    found = re.search(rf'<section class="review" id="table-{number}".*?</section>', page,
                      re.S)
    assert found, f"no review of table #{number}"
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(0)))


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def logged_in(web):
    page = web.get("/login")
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)})
    return web


def test_the_organizer_sees_what_each_table_sent(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = logged_in(client(db_url))  # review mode
    send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=2))
    # table 2: seat 4 scores 2 in deal 1, no score this game has
    bad = match_csv(tourney, "club", 1, "2").splitlines()
    bad[1] = re.sub(r",0;1;0;0$", ",0;1;0;2", bad[1])
    assert send_csv(web, links["2"], "\n".join(bad) + "\n").status_code == 422
    page = web.get("/org/club").text
    waiting = words(section(page, 1))
    seats = seats_of(tourney, "1")
    # the players in seat order, each deal's scores, the totals and places
    assert re.search(" ".join(f"{i}. {re.escape(n)}" for i, n in enumerate(seats, 1)), waiting)
    assert "1 0 0 1 0" in waiting and "3 0 0 1 0" in waiting  # deals 1 and 3: seat 3 lost
    assert "Total 0 0 3 0" in waiting and "Place 1 1 4 1" in waiting
    assert "Accept" in waiting and "Reject" in waiting
    invalid = words(section(page, 2))
    player = seats_of(tourney, "2")[3]
    assert f"deal 1, scores, seat 4, {player}" in invalid, invalid
    assert "not possible in this game" in invalid
    # what it sent beside, the score the error is about marked
    assert "Sent by the table" in invalid and "1 0 1 0 2" in invalid
    assert re.search(r'id="table-2".*?<td><mark>2</mark></td>.*?</section>', page, re.S)
    tables = web.get("/org/club", headers=BEARER).json()["tables"]
    assert [p["place"] for p in tables[0]["sent"]["players"]] == [1, 1, 4, 1]
    assert tables[1]["sent"]["errors"][0]["seat"] == 4


def test_a_different_result_is_kept_and_the_organizer_stores_it_instead(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    first = match_csv(tourney, "club", 1, "1", loser_seat=1)
    second = match_csv(tourney, "club", 1, "1", loser_seat=2)
    assert send_csv(web, links["1"], first).json()["outcome"] == "stored"
    clash = send_csv(web, links["1"], second)
    assert clash.status_code == 409
    answer = clash.json()
    assert answer["outcome"] == "conflict" and answer["stored"] is False
    assert answer["submission"] is not None and "organizer" in answer["message"]
    # the same different result again is the same conflict, not a second one
    assert send_csv(web, links["1"], second).json()["submission"] == answer["submission"]
    # the phone's page says so
    assert "organizer will compare the two" in web.get(path_of(links["1"]["url"])).text
    table = web.get("/org/club", headers=BEARER).json()["tables"][0]
    assert table["state"] == "accepted"
    [conflict] = table["conflicts"]
    assert conflict["submission"] == answer["submission"] and conflict["against"] == "stored"
    assert [p["total"] for p in conflict["current"]["players"]] == [0, 3, 0, 0]
    assert [p["total"] for p in conflict["sent"]["players"]] == [0, 0, 3, 0]
    page = logged_in(web).get("/org/club").text
    shown = words(section(page, 1))
    assert "results differ" in shown and "Stored result" in shown and "Sent later" in shown
    assert "Total 0 3 0 0" in shown and "Total 0 0 3 0" in shown  # side by side
    assert page.count("<mark>") >= 8  # seats 2 and 3 of 3 deals, totals, places
    done = web.post("/org/club/replace", data={"submission": answer["submission"]},
                    headers=BEARER)
    assert done.json() == {"done": "replaced", "table": "1"}
    history = tourney("result", "history", "club", "1", "1", "--json").json
    assert [v["version"] for v in history] == [1, 2]
    places = tourney("result", "show", "club", "1", "1", "--json").json["places"]
    assert places[-1]["seat"] == 3 and places[-1]["place"] == 4
    table = web.get("/org/club", headers=BEARER).json()["tables"][0]
    assert table["conflicts"] == [] and table["state"] == "accepted"
    # the first result again is now the one that differs; dismissed, nothing changes
    again = send_csv(web, links["1"], first).json()
    assert again["outcome"] == "conflict"
    assert web.post("/org/club/dismiss", data={"submission": again["submission"]},
                    headers=BEARER).json() == {"done": "dismissed", "table": "1"}
    assert len(tourney("result", "history", "club", "1", "1", "--json").json) == 2
    assert web.get("/org/club", headers=BEARER).json()["tables"][0]["conflicts"] == []
    refused = web.post("/org/club/dismiss", data={"submission": again["submission"]},
                       headers=BEARER)
    assert refused.status_code == 409
    with reading(open_engine(db_url)) as session:
        states = [s.state for s in session.exec(select(Submission).order_by(Submission.id))]
        actions = [a.action for a in session.exec(select(AuditLog).where(
            AuditLog.action.startswith("submission.")).order_by(AuditLog.id))]
    assert states == ["accepted", "accepted", "dismissed"]
    assert actions == ["submission.conflict", "submission.replace", "submission.conflict",
                       "submission.dismiss"]


def test_in_review_mode_a_different_result_waits_beside_the_first(tourney, db_url):
    links = seated_event(tourney, lang="sv")
    web = logged_in(client(db_url))
    first = send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=1)).json()
    assert first["outcome"] == "received"
    form = web.get(path_of(links["1"]["url"]))
    sheet = {f"score-{deal}-{seat}": "1" if seat == 0 else "0"
             for deal in (1, 2, 3) for seat in range(4)}
    clash = web.post(path_of(links["1"]["url"]), data={**sheet, "csrf": csrf_of(form.text)})
    assert clash.status_code == 409
    assert "arrangören jämför" in clash.text  # told in the page's language
    # an invalid one is answered with its errors and not kept
    wrong = send_csv(web, links["1"], match_csv(tourney, "club", 1, "1").replace(
        "0;1;0;0", "0;1;1;0", 1))
    assert wrong.status_code == 422 and wrong.json()["errors"]
    page = web.get("/org/club").text
    shown = words(section(page, 1))
    assert "Skickat först (väntar)" in shown and "Skickat senare" in shown
    assert "Totalt 0 3 0 0" in shown and "Totalt 3 0 0 0" in shown
    table = web.get("/org/club", headers=BEARER).json()["tables"][0]
    assert table["state"] == "submitted" and table["submission"] == first["submission"]
    [conflict] = table["conflicts"]
    assert conflict["against"] == "waiting"
    done = web.post("/org/club/replace", data={"submission": conflict["submission"],
                                                "csrf": csrf_of(page)}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"].endswith("done=replaced")
    places = tourney("result", "show", "club", "1", "1", "--json").json["places"]
    assert places[-1]["seat"] == 1 and places[-1]["place"] == 4
    with reading(open_engine(db_url)) as session:
        states = [s.state for s in session.exec(select(Submission).order_by(Submission.id))]
    assert states == ["rejected", "accepted"]
    assert "Ersatt" not in web.get(path_of(links["1"]["url"])).text  # no note shown to the table


def test_what_the_tables_sent_is_text(tourney, db_url):
    hostile = '<img src=x onerror=alert(1)>'
    tourney("player", "add", hostile, "Bo", "Cecilia", "Dag")
    tourney("event", "create", "club", "--variant", "svarta-maja", "--table-sizes", "4",
            "--rule", "deals=3", "--lang", "en")
    tourney("event", "enter", "club", "--all")
    tourney("round", "seat", "club")
    link = tourney("round", "links", "club", "1", "--base-url", "http://testserver",
                   "--json").json["tables"][0]
    web = client(db_url, auto_accept=True)
    send_csv(web, link, match_csv(tourney, "club", 1, "1", loser_seat=1))
    assert send_csv(web, link, match_csv(tourney, "club", 1, "1", loser_seat=2)
                    ).status_code == 409
    page = web.get("/org/club", headers={"Authorization": f"Bearer {TOKEN}"}).text
    assert "<img src=x" not in page
    assert page.count("&lt;img src=x onerror=alert(1)&gt;") >= 3  # list, stored, sent later
