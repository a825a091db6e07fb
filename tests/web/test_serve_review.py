"""`tourney serve`, the organizer's review: what each table sent (players in seat
order, deal scores, totals and places, or what is wrong) and what an accepted table
has stored, shown alike; a second phone's different result kept as a conflict,
shown beside the first and settled by the organizer (stored instead as a new
version, or dismissed, with a reason); an invalid result sent after the stored one
kept beside it with its errors, never stored; on SQLite and PostgreSQL."""
from __future__ import annotations

import html
import json
import re

from serve_helpers import TOKEN, client, csrf_of, match_csv, path_of, seated_event, send_csv
from sqlmodel import select

from tourney.reports.i18n import translations
from tourney.storage.db import open_engine, reading
from tourney.storage.models import AuditLog, Submission

BEARER = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}


def seats_of(tourney, table: str) -> list[str]:
    shown = tourney("round", "show", "club", "1", "--json").json["tables"]
    return next(t["seats"] for t in shown if t["table"] == table)


def section_html(page: str, number: int) -> str:
    """The organizer page's review of the ``number``-th table."""
    found = re.search(rf'<section class="review" id="table-{number}".*?</section>', page,
                      re.S)
    assert found, f"no review of table #{number}"
    return found.group(0)


def section(page: str, number: int) -> str:
    """The text of the organizer page's review of the ``number``-th table, as read
    (without the soft hyphens that mark where a long name may break)."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", section_html(page, number)))
    return text.replace("\u00ad", "")


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
    assert "Total 0 0 3 0" in waiting and "Place 1 = 1 = 4 1 =" in waiting
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
    # a valid result that differs: said so, with both versions, not "valid": false
    assert answer["valid"] is True and answer["errors"] == []
    assert answer["versions"]["against"] == "stored"
    assert [p["total"] for p in answer["versions"]["current"]["players"]] == [0, 3, 0, 0]
    assert [p["total"] for p in answer["versions"]["sent"]["players"]] == [0, 0, 3, 0]
    # each deal's scores are numbers, as the totals are, and add up to them
    for version in (answer["versions"]["current"], answer["versions"]["sent"]):
        deals = [deal["scores"] for deal in version["deals"]]
        assert len(deals) == 3 and all(type(score) is int for row in deals for score in row)
        assert [sum(row[seat] for row in deals) for seat in range(4)] == [
            p["total"] for p in version["players"]]
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
        rows = session.exec(select(Submission).order_by(Submission.id)).all()
        states, notes = [s.state for s in rows], [s.note for s in rows]
    assert states == ["rejected", "accepted"]
    # the waiting one was not sent back with a reason: no English note is made up for
    # it (the audit's submission.replace names it, as data)
    assert notes == [None, None]
    replaced = tourney("log", "--json").json
    assert any(c["action"] == "submission.replace"
               and (c["before"] or {}).get("submission") == first["submission"]
               for c in replaced)
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
    # an invalid one after the stored result: its errors name the player
    seat = seats_of(tourney, "1").index(hostile)
    rows = match_csv(tourney, "club", 1, "1", loser_seat=1).splitlines()
    scores = ["0"] * 4
    scores[seat], scores[(seat + 1) % 4] = "2", "1"
    rows[1] = re.sub(r",[0-9;]+$", "," + ";".join(scores), rows[1])
    invalid = send_csv(web, link, "\n".join(rows) + "\n")
    assert invalid.status_code == 422 and invalid.json()["submission"] is not None
    page = web.get("/org/club", headers={"Authorization": f"Bearer {TOKEN}"}).text
    assert "<img src=x" not in page
    # the list, the stored result, the two sent later, the error naming the player
    assert page.count("&lt;img src=x onerror=alert(1)&gt;") >= 5
    assert f"seat {seat + 1}, &lt;img src=x onerror=alert(1)&gt;" in page


def seat_order(tourney, table: str) -> str:
    """A pattern of the grid's header: the table's players in seat order."""
    return " ".join(f"{i}. {re.escape(n)}" for i, n in enumerate(seats_of(tourney, table), 1))


def test_an_accepted_table_shows_the_result_it_has(tourney, db_url, tmp_path):
    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    assert send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=2)
                    ).json()["outcome"] == "stored"
    # table 2's result comes from a file, as `result import` stores it
    sheet = tmp_path / "table-2.csv"
    sheet.write_text(match_csv(tourney, "club", 1, "2", loser_seat=0), encoding="utf-8")
    tourney("result", "import", str(sheet), "--event", "club")
    page = logged_in(web).get("/org/club").text
    for number, table, deal, total, place in (
            (1, "1", "2 0 0 1 0", "Total 0 0 3 0", "Place 1 = 1 = 4 1 ="),
            (2, "2", "2 1 0 0 0", "Total 3 0 0 0", "Place 4 1 = 1 = 1 =")):  # shared: 1=
        shown = words(section(page, number))
        assert f"Table {table}: accepted Stored result" in shown, shown
        # as a waiting result is shown: the players in seat order, each deal, totals, places
        assert re.search(seat_order(tourney, table), shown), shown
        assert deal in shown and total in shown and place in shown
        assert "Accept" not in shown and "Store this result" not in shown
        assert f'<a href="#table-{number}">accepted</a>' in page  # the state list links it
    # players as they are called now (a rename after the result was stored)
    renamed = seats_of(tourney, "1")[0]
    tourney("player", "rename", renamed, "Sara Q. Renamed")
    shown = words(section(logged_in(web).get("/org/club").text, 1))
    assert re.search(r"1\. Sara Q\. Renamed .*2\. .* 2 0 0 1 0 ", shown), shown
    tables = web.get("/org/club", headers=BEARER).json()["tables"]
    assert tables[0]["stored"]["players"][0]["player"] == "Sara Q. Renamed"
    assert [p["place"] for p in tables[1]["stored"]["players"]] == [4, 1, 1, 1]
    assert tables[0]["stored"]["deals"][0] == {"deal": 1, "scores": [0, 0, 1, 0]}
    assert tables[0]["sent"] is None and tables[0]["conflicts"] == []


def test_dismiss_and_reject_take_a_reason_kept_in_the_log(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = logged_in(client(db_url))  # review mode
    first = send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=1)).json()
    web.post("/org/club/accept", data={"submission": first["submission"]}, headers=BEARER)
    conflict = send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=2))
    waiting = send_csv(web, links["2"], match_csv(tourney, "club", 1, "2")).json()
    labels = {"dismiss": "Reason, kept in the log (optional)",
              "reject": "Reason, shown at the table (optional)"}
    for lang in ("en", "sv", "nb", "fi"):
        page = web.get(f"/org/club?lang={lang}").text
        for action, label in labels.items():
            form = re.search(rf'<form[^>]*action="/org/club/{action}".*?</form>', page, re.S)
            assert form, (lang, action)
            wanted = re.escape(translations(lang).gettext(label))
            assert lang == "en" or translations(lang).gettext(label) != label
            assert re.search(rf'<label class="note" for="(note-{action}-\d+)">{wanted}</label> '
                             r'<input name="note" id="\1" maxlength="300"', form.group(0)), \
                (lang, form.group(0))
    page = web.get("/org/club?lang=en").text
    why = "the <b>first</b> sheet is the one both signed"
    done = web.post("/org/club/dismiss", data={
        "submission": conflict.json()["submission"], "note": f"  {why} ",
        "csrf": csrf_of(page)}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"].endswith("done=dismissed")
    done = web.post("/org/club/reject", data={
        "submission": waiting["submission"], "note": "deal 2: <two> losers",
        "csrf": csrf_of(page)}, follow_redirects=False)
    assert done.status_code == 303
    log = {c["action"]: c for c in tourney("log", "--action", "submission", "--json").json}
    assert log["submission.dismiss"]["after"]["note"] == why
    assert log["submission.dismiss"]["subject"] == "club round 1 table 1"
    assert log["submission.reject"]["after"]["note"] == "deal 2: <two> losers"
    # the reason for sending back is shown at the table, as text
    phone = web.get(path_of(links["2"]["url"])).text
    assert "deal 2: &lt;two&gt; losers" in phone and "<two>" not in phone
    # no reason: none kept
    again = send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=3)).json()
    web.post("/org/club/dismiss", data={"submission": again["submission"], "note": " "},
             headers=BEARER)
    with reading(open_engine(db_url)) as session:
        notes = [s.note for s in session.exec(select(Submission).where(
            Submission.state == "dismissed").order_by(Submission.id))]
    assert notes == [why, None]


def test_an_invalid_result_after_the_stored_one_waits_beside_it(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    stored = match_csv(tourney, "club", 1, "1", loser_seat=1)
    assert send_csv(web, links["1"], stored).json()["outcome"] == "stored"
    # deal 1: seat 4 scores 2, no score this game has
    lines = stored.splitlines()
    lines[1] = re.sub(r",0;1;0;0$", ",0;1;0;2", lines[1])
    bad = "\n".join(lines) + "\n"
    answer = send_csv(web, links["1"], bad)
    assert answer.status_code == 422
    verdict = answer.json()
    assert verdict["outcome"] == "invalid" and verdict["stored"] is False
    assert verdict["submission"] is not None
    assert "stored result stands" in verdict["message"] and "organizer" in verdict["message"]
    assert [e["rule"] for e in verdict["errors"]] == ["score-sheet-value"]
    # the same again is the same submission, kept once
    assert send_csv(web, links["1"], bad).json()["submission"] == verdict["submission"]
    table = web.get("/org/club", headers=BEARER).json()["tables"][0]
    assert table["state"] == "accepted"
    [kept] = table["conflicts"]
    assert kept["submission"] == verdict["submission"] and kept["valid"] is False
    assert kept["against"] == "stored" and kept["sent"]["errors"][0]["seat"] == 4
    assert [p["total"] for p in kept["current"]["players"]] == [0, 3, 0, 0]
    # the organizer sees it beside the stored result, its errors named, and can
    # only dismiss it
    page = logged_in(web).get("/org/club").text
    shown = words(section(page, 1))
    player = seats_of(tourney, "1")[3]
    assert "Table 1: accepted, invalid result sent later" in shown, shown
    assert "does not pass the checks" in shown
    assert re.search(rf"deal 1, scores, seat 4, {player} ?: This score is not possible",
                     shown), shown
    assert "Stored result" in shown and "Sent later" in shown
    assert "Total 0 3 0 0" in shown and "1 0 1 0 2" in shown
    review = section_html(page, 1)
    assert "<td><mark>2</mark></td>" in review  # the score the error is about
    assert "/org/club/dismiss" in review and "/org/club/replace" not in review
    assert "invalid result sent later" in page.split("</table>")[0]  # in the state list
    # storing it instead is refused: it goes through the checks again
    refused = web.post("/org/club/replace", data={"submission": verdict["submission"]},
                       headers=BEARER).json()
    assert refused["done"] == "invalid" and refused["errors"][0]["rule"] == "score-sheet-value"
    assert len(tourney("result", "history", "club", "1", "1", "--json").json) == 1
    # the phone is told, in its language, that the stored result stands
    csrf = csrf_of(web.get("/t").text)
    told = web.post(path_of(links["1"]["url"]) + "?lang=sv",
                    data={"record": bad, "csrf": csrf})
    assert told.status_code == 422
    assert "Bordets resultat är redan sparat" in told.text and "arrangören" in told.text
    assert f"plats 4, {player}" in told.text
    later = web.get(path_of(links["1"]["url"]) + "?lang=en").text
    assert "The result of this table is stored." in later
    assert "A result that does not pass the checks was also sent for this table" in later
    assert "compare the two" not in later  # no valid result differs
    # rows of another table sent through this link after its result: kept the same
    # way, and never stored (the import would take them as table 2's)
    other = send_csv(web, links["1"], match_csv(tourney, "club", 1, "2"))
    assert other.status_code == 422 and other.json()["errors"][0]["rule"] == "other-table"
    refused = web.post("/org/club/replace", data={"submission": other.json()["submission"]},
                       headers=BEARER).json()
    assert refused["done"] == "invalid" and refused["errors"][0]["rule"] == "other-table"
    tables = web.get("/org/club", headers=BEARER).json()["tables"]
    assert tables[1]["state"] == "waiting" and tables[1]["stored"] is None
    assert [c["valid"] for c in tables[0]["conflicts"]] == [False, False]
    # dismissed, the stored result is as it was
    for row in tables[0]["conflicts"]:
        assert web.post("/org/club/dismiss", data={"submission": row["submission"]},
                        headers=BEARER).json() == {"done": "dismissed", "table": "1"}
    assert web.get("/org/club", headers=BEARER).json()["tables"][0]["conflicts"] == []
    assert len(tourney("result", "history", "club", "1", "1", "--json").json) == 1
    with reading(open_engine(db_url)) as session:
        states = [s.state for s in session.exec(select(Submission).order_by(Submission.id))]
        kept = [json.loads(a.after_json)["valid"] for a in session.exec(
            select(AuditLog).where(AuditLog.action == "submission.conflict")
            .order_by(AuditLog.id))]
    assert states == ["accepted", "dismissed", "dismissed"]
    assert kept == [False, False]


def test_a_results_deal_scores_are_numbers_in_json_where_they_are_numbers():
    from tourney.app.tables import SentResult

    sent = SentResult(["Anna", "Bo"], deals=[(1, ["1", "0.5"]), (2, ["", "x7"]),
                                             (3, ["-2", "1_0"]), (4, ["nan", "1e3"])],
                      totals=[1.5, None], places=[1, None])
    assert [deal["scores"] for deal in sent.to_json()["deals"]] == [
        [1, 0.5], [None, "x7"], [-2, "1_0"], ["nan", "1e3"]]


def test_a_note_longer_than_the_box_takes_is_refused_not_cut(tourney, db_url):
    from tourney.app.tables import NOTE_LENGTH

    links = seated_event(tourney, lang="en")
    web = logged_in(client(db_url))  # review mode
    waiting = send_csv(web, links["2"], match_csv(tourney, "club", 1, "2")).json()
    page = web.get("/org/club?lang=sv").text
    assert f'maxlength="{NOTE_LENGTH}"' in page
    too_long = "x" * (NOTE_LENGTH + 1)
    refused = web.post("/org/club/reject", data={
        "submission": waiting["submission"], "note": too_long, "csrf": csrf_of(page)},
        follow_redirects=False)
    assert refused.status_code == 409
    said = translations("sv").gettext("a reason is at most %(most)s characters")
    assert said != "a reason is at most %(most)s characters"
    assert html.escape(said % {"most": NOTE_LENGTH}) in refused.text
    answer = web.post("/org/club/reject", data={"submission": waiting["submission"],
                                               "note": too_long}, headers=BEARER)
    assert answer.status_code == 409 and str(NOTE_LENGTH) in answer.json()["message"]
    with reading(open_engine(db_url)) as session:
        kept = session.get(Submission, waiting["submission"])
        assert (kept.state, kept.note) == ("submitted", None)  # nothing was decided
    longest = "y" * NOTE_LENGTH
    assert web.post("/org/club/reject", data={"submission": waiting["submission"],
                                              "note": longest},
                    headers=BEARER).status_code == 200
    with reading(open_engine(db_url)) as session:
        assert session.get(Submission, waiting["submission"]).note == longest
