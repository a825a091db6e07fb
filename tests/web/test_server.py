"""`tourney serve`: table links, submissions through the import, the organizer's
pages, CSRF, rate limits, headers; on SQLite and PostgreSQL."""
from __future__ import annotations

from serve_helpers import (
    TOKEN,
    client,
    csrf_of,
    match_csv,
    path_of,
    seated_event,
    send_csv,
    sheet_form,
)
from sqlmodel import select

from tourney.storage.db import open_engine, reading
from tourney.storage.models import AuditLog, MatchVersion, Submission


def test_round_links_are_stable_unguessable_and_per_table(tourney):
    links = seated_event(tourney)
    assert sorted(links) == ["1", "2"]
    answer = tourney("round", "links", "club", "1", "--base-url", "http://testserver",
                     "--json").json
    # the shape of `round show --json`: the event, the round, its tables
    shown = tourney("round", "show", "club", "1", "--json").json
    assert set(answer) == {"event", "round", "open", "tables"} and answer["event"] == "club"
    assert answer["round"] == shown["round"] == 1
    assert [r["table"] for r in answer["tables"]] == [t["table"] for t in shown["tables"]]
    again = answer["tables"]
    assert [r["url"] for r in again] == [links["1"]["url"], links["2"]["url"]]
    tokens = [path_of(r["url"]).rsplit("/", 1)[1] for r in again]
    assert all(len(t) >= 32 for t in tokens) and tokens[0] != tokens[1]
    plain = tourney("round", "links", "club", "1", "--base-url", "http://x.test:8000/").stdout
    assert "table 1" in plain and "http://x.test:8000/t/" in plain
    tourney("round", "links", "club", "1", "--base-url", "ftp://x", exit_code=2)
    tourney("round", "links", "club", "7", "--base-url", "http://x", exit_code=2)  # no round 7


def test_round_links_of_a_closed_round_say_it_is_closed(tourney, db_url, tmp_path):
    from tourney.app.tables import close_round
    from tourney.storage.db import transaction
    from tourney.tournament.events import get_event

    seated_event(tourney)
    listed = tourney("round", "links", "club", "1", "--base-url", "http://x", "--json")
    assert listed.json["open"] is True and "closed" not in listed.stderr
    for table in ("1", "2"):
        path = tmp_path / f"t{table}.csv"
        path.write_text(match_csv(tourney, "club", 1, table), encoding="utf-8")
        tourney("result", "import", str(path))
    tourney("round", "seat", "club")
    later = tourney("round", "links", "club", "1", "--base-url", "http://x")
    assert later.stderr == ("note: round 1 of club is closed (a later round is seated): "
                            "its links take no results\n")
    assert "table 1" in later.stdout
    assert tourney("round", "links", "club", "1", "--base-url", "http://x",
                   "--json").json["open"] is False
    tourney("round", "links", "club", "2", "--base-url", "http://x")  # made, then closed
    with transaction(open_engine(db_url)) as session:
        close_round(session, get_event(session, "club"), 2, force=True)
    closed = tourney("round", "links", "club", "2", "--base-url", "http://x")
    assert "round 2 of club is closed (the organizer closed it)" in closed.stderr


def test_csv_api_stores_once_and_answers_json(tourney, db_url):
    links = seated_event(tourney)
    web = client(db_url, auto_accept=True)
    body = match_csv(tourney, "club", 1, "1")
    answer = send_csv(web, links["1"], body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["outcome"] == "stored" and answer.json()["stored"] is True
    again = send_csv(web, links["1"], body)
    assert again.json()["outcome"] == "unchanged" and again.json()["stored"] is False
    other = match_csv(tourney, "club", 1, "1", loser_seat=2)
    clash = send_csv(web, links["1"], other)
    assert clash.status_code == 409 and clash.json()["outcome"] == "conflict"
    history = tourney("result", "history", "club", "1", "1", "--json").json
    assert len(history) == 1
    # stored through the application layer: the ratings are in step at once
    rated = tourney("rating", "show", "--variant", "svarta-maja", "--json").json
    assert len(rated) == 4
    code = links["1"]["code"]  # as shown everywhere: K7QM-4RXP
    assert "-" in code and history[0]["file"] == f"table-1-round-1-link-{code}.csv"
    assert history[0]["imported_by"] == f"table 1 link {code}"
    with reading(open_engine(db_url)) as session:
        audit = session.exec(select(AuditLog).where(AuditLog.action == "result.import")).all()
    assert any(code in (a.subject or "") and a.actor.startswith("table 1 link")
               for a in audit)


def test_invalid_result_names_the_deal_and_stores_nothing(tourney, db_url):
    links = seated_event(tourney)
    web = client(db_url, auto_accept=True)
    bad = match_csv(tourney, "club", 1, "1").replace("0;1;0;0", "0;1;1;0", 1)
    answer = send_csv(web, links["1"], bad)
    assert answer.status_code == 422
    data = answer.json()
    assert data["stored"] is False and data["outcome"] == "invalid"
    error = data["errors"][0]
    assert error["line"] == 2 and error["rule"].startswith("score-sheet")
    assert set(error) >= {"kind", "line", "valid", "error", "rule"}
    tourney("result", "history", "club", "1", "1", exit_code=1)


def test_a_link_cannot_touch_another_table(tourney, db_url):
    links = seated_event(tourney)
    web = client(db_url, auto_accept=True)
    table2 = match_csv(tourney, "club", 1, "2")
    answer = send_csv(web, links["1"], table2)
    assert answer.status_code == 422
    assert {e["rule"] for e in answer.json()["errors"]} == {"other-table"}
    tourney("result", "history", "club", "1", "2", exit_code=1)


def test_score_sheet_form_with_csrf_in_swedish(tourney, db_url):
    links = seated_event(tourney, lang="sv")
    web = client(db_url, auto_accept=True)
    page = web.get(path_of(links["2"]["url"]))
    assert page.status_code == 200 and 'lang="sv"' in page.text
    assert "Poängprotokoll" in page.text
    form = sheet_form()
    refused = web.post(path_of(links["2"]["url"]), data=form)
    assert refused.status_code == 403  # no CSRF token
    form["csrf"] = csrf_of(page.text)
    form["score-2-2"] = "1"  # two losers in deal 2
    wrong = web.post(path_of(links["2"]["url"]), data=form)
    assert wrong.status_code == 422
    assert "giv 2" in wrong.text and "exakt en förlorare" in wrong.text
    assert 'value="1"' in wrong.text  # what was typed stays in the form
    form["score-2-2"] = "0"
    stored = web.post(path_of(links["2"]["url"]), data=form)
    assert stored.status_code == 200 and "sparat" in stored.text
    assert tourney("result", "history", "club", "1", "2", "--json").json[0]["version"] == 1


def test_review_mode_accept_and_reject(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = client(db_url)  # review mode
    body = match_csv(tourney, "club", 1, "1")
    first = send_csv(web, links["1"], body)
    assert first.json()["outcome"] == "received" and first.json()["stored"] is False
    same = send_csv(web, links["1"], body)
    assert same.json()["outcome"] == "pending"
    other = send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", 3))
    assert other.status_code == 409
    bearer = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}
    assert web.get("/org/club", headers={"Accept": "application/json"}).status_code == 401
    state = web.get("/org/club", headers=bearer).json()
    assert [t["state"] for t in state["tables"]] == ["submitted", "waiting"]
    sub = state["tables"][0]["submission"]
    done = web.post("/org/club/reject", data={"submission": sub, "note": "wrong"},
                    headers=bearer)
    assert done.json()["done"] == "rejected"
    assert "wrong" in web.get(path_of(links["1"]["url"])).text
    resent = send_csv(web, links["1"], body).json()
    assert resent["outcome"] == "received"
    done = web.post("/org/club/accept", data={"submission": resent["submission"]},
                    headers=bearer).json()
    assert done == {"done": "accepted", "table": "1"}
    state = web.get("/org/club", headers=bearer).json()
    assert [t["state"] for t in state["tables"]] == ["accepted", "waiting"]
    with reading(open_engine(db_url)) as session:
        assert len(session.exec(select(MatchVersion)).all()) == 1
        states = [s.state for s in session.exec(select(Submission).order_by(Submission.id))]
    # the different result sent while the first waited is kept for the organizer
    assert states == ["rejected", "conflict", "accepted"]


def test_organizer_login_seats_next_round_and_closes_old_links(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    assert web.get("/org", follow_redirects=False).status_code == 303
    page = web.get("/login")
    wrong = web.post("/login", data={"token": "nope", "csrf": csrf_of(page.text)})
    assert wrong.status_code == 403
    ok = web.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)},
                  follow_redirects=False)
    assert ok.status_code == 303
    org = web.get("/org/club")
    assert org.status_code == 200 and "waiting" in org.text
    for table in ("1", "2"):
        send_csv(web, links[table], match_csv(tourney, "club", 1, table))
    org = web.get("/org/club")
    seat = web.post("/org/club/seat", data={"csrf": csrf_of(org.text)}, follow_redirects=False)
    assert seat.status_code == 303, seat.text
    assert "Round 2" in web.get("/org/club").text
    closed = send_csv(web, links["1"], match_csv(tourney, "club", 1, "1"))
    assert closed.status_code == 410 and closed.json()["outcome"] == "closed"
    qr = web.get("/org/club/round/2/links")
    assert qr.status_code == 200 and qr.text.count("data:image/svg+xml") == 2
    standings = web.get("/api/events/club/standings").json()
    assert len(standings["standings"]) == 8


def test_the_login_page_asks_for_what_the_server_was_started_with(tourney, db_url):
    seated_event(tourney, lang="en")
    for password, label, wrong in ((False, "Token (printed when the server started)",
                                    "Wrong token."),
                                   (True, "Password", "Wrong password.")):
        web = client(db_url, password=password)
        page = web.get("/login?lang=en")
        assert f"<label>{label} <input" in page.text
        refused = web.post("/login", data={"token": "nope", "csrf": csrf_of(page.text)})
        assert refused.status_code == 403 and wrong in refused.text
        assert ("Token (printed" in refused.text) is not password
    sv = client(db_url, password=True).get("/login?lang=sv")
    assert "<label>Lösenord <input" in sv.text


def test_wrong_links_and_logins_are_rate_limited(tourney, db_url):
    seated_event(tourney)
    web = client(db_url, link_failures=3, login_failures=2)
    for _ in range(3):
        assert web.get("/t/not-a-real-token").status_code == 404
    assert web.get("/t/not-a-real-token").status_code == 429
    page = web.get("/login")
    for _ in range(2):
        web.post("/login", data={"token": "x", "csrf": csrf_of(page.text)})
    limited = web.post("/login", data={"token": "y", "csrf": csrf_of(page.text)})
    assert limited.status_code == 429 and "Retry-After" in limited.headers


def test_a_right_credential_works_from_an_address_that_guessed_wrong(tourney, db_url):
    """One Wi-Fi address for the whole venue: wrong links, codes and logins from it
    are slowed and then refused (429), but a table's own link and the organizer's
    right login or token still work; a wrong Bearer token counts as a wrong login."""
    links = seated_event(tourney)
    web = client(db_url, link_failures=2, login_failures=2)
    for _ in range(4):
        web.get("/t/not-a-real-token")
    assert web.get("/t/not-a-real-token").status_code == 429
    assert web.get(path_of(links["1"]["url"])).status_code == 200
    page = web.get("/t")
    assert web.post("/t", data={"code": links["2"]["code"], "csrf": csrf_of(page.text)},
                    follow_redirects=False).status_code == 303
    for _ in range(3):
        web.get("/org", headers={"Authorization": "Bearer wrong"})
    assert web.get("/org", headers={"Authorization": "Bearer wrong"}).status_code == 429
    assert web.get("/org", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    page = web.get("/login")
    logged = web.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)},
                      follow_redirects=False)
    assert logged.status_code == 303


def test_a_form_of_too_many_fields_is_a_400(tourney, db_url):
    links = seated_event(tourney)
    web = client(db_url)
    page = web.get(path_of(links["1"]["url"]))
    fields = "&".join(f"f{i}=1" for i in range(5000)) + f"&csrf={csrf_of(page.text)}"
    answer = web.post(path_of(links["1"]["url"]), content=fields,
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 400 and "more than 4000 fields" in answer.text


def test_security_headers_and_body_limit(tourney, db_url):
    links = seated_event(tourney)
    web = client(db_url)
    page = web.get(path_of(links["1"]["url"]))
    csp = page.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert page.headers["referrer-policy"] == "no-referrer"
    assert page.headers["x-frame-options"] == "DENY"
    assert "httponly" in page.headers["set-cookie"].lower()
    huge = "x" * (3 << 20)
    assert send_csv(web, links["1"], huge).status_code == 413


def test_table_code_opens_the_table(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = client(db_url)
    page = web.get("/t")
    code = links["2"]["code"]
    moved = web.post("/t", data={"code": code.lower(),  # as shown: K7QM-4RXP
                                 "csrf": csrf_of(page.text)}, follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == path_of(links["2"]["url"])
    assert web.post("/t", data={"code": "AAAA-AAAA", "csrf": csrf_of(page.text)}).status_code == 404


def test_organizer_closes_the_round_and_publishes(tourney, db_url, tmp_path):
    links = seated_event(tourney, lang="en")
    site = tmp_path / "site"
    web = client(db_url, auto_accept=True, site_dir=str(site), site_langs=["sv"])
    bearer = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}
    send_csv(web, links["1"], match_csv(tourney, "club", 1, "1"))
    assert web.post("/org/club/publish", headers={"Accept": "application/json"}
                    ).status_code == 401  # not without logging in
    published = web.post("/org/club/publish", headers=bearer).json()
    assert published["done"] == "published" and (site / "index.html").is_file()
    assert 'lang="sv"' in (site / "index.html").read_text(encoding="utf-8")
    # table 2 has no result: the round is closed only when told so
    refused = web.post("/org/club/close", headers=bearer)
    assert refused.status_code == 409
    assert web.get("/org/club", headers=bearer).json()["open"] is True
    closed = web.post("/org/club/close", headers=bearer, data={"force": "1"}).json()
    assert closed == {"done": "closed", "round": 1, "links": 2}
    late = send_csv(web, links["2"], match_csv(tourney, "club", 1, "2"))
    assert late.status_code == 410
    tourney("result", "history", "club", "1", "2", exit_code=1)
    assert web.get("/org/club", headers=bearer).json()["open"] is False


def test_names_are_text_on_every_page(tourney, db_url):
    hostile = '<script>alert(1)</script>"&'
    tourney("player", "add", hostile, "Bo", "Cecilia", "Dag")
    tourney("event", "create", "evil", "--name", hostile, "--variant", "svarta-maja",
            "--table-sizes", "4", "--rule", "deals=3")
    tourney("event", "enter", "evil", "--all")
    tourney("round", "seat", "evil")
    link = tourney("round", "links", "evil", "1", "--base-url", "http://testserver",
                   "--json").json["tables"][0]
    web = client(db_url)
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    for path, headers in ((path_of(link["url"]), {}), ("/standings/evil", {}),
                          ("/org/evil", bearer), ("/org/evil/round/1/links", bearer), ("/", {})):
        page = web.get(path, headers=headers)
        assert page.status_code == 200, path
        assert "<script>alert" not in page.text, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text, path


def test_a_pasted_record_goes_through_the_same_checks(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    page = web.get(path_of(links["1"]["url"]))
    record = match_csv(tourney, "club", 1, "1")
    wrong = web.post(path_of(links["1"]["url"]), data={
        "csrf": csrf_of(page.text), "record": record.replace(",1,1,3,", ",1,1,4,")})
    assert wrong.status_code == 422 and "line 4" in wrong.text
    stored = web.post(path_of(links["1"]["url"]), data={"csrf": csrf_of(page.text),
                                                         "record": record})
    assert stored.status_code == 200 and "checked and stored" in stored.text
    assert tourney("result", "show", "club", "1", "1", "--json").json["deal_count"] == 3


def test_links_use_the_base_url_never_the_host_header(tourney, db_url):
    """The links page and its JSON name the configured address; a forged Host header
    reaches no link (a QR code pointing to another site)."""
    seated_event(tourney)
    web = client(db_url, base_url="https://dam.example.org/")
    bearer = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}
    forged = {**bearer, "Host": "evil.example"}
    tables = web.get("/org/club", headers=forged).json()["tables"]
    assert tables and all(t["url"].startswith("https://dam.example.org/t/") for t in tables)
    page = web.get("/org/club/round/1/links", headers={"Authorization": f"Bearer {TOKEN}",
                                                        "Host": "evil.example"}).text
    assert "https://dam.example.org/t" in page and "evil.example" not in page


def test_serve_on_every_address_prints_a_reachable_url(db_url):
    """--host 0.0.0.0 prints this machine's network address (or its name), never
    0.0.0.0, which no phone can open; --base-url is printed as given."""
    import subprocess
    import sys

    for args, expect in ((["--host", "0.0.0.0"], None),
                         (["--base-url", "https://dam.example.org"], "https://dam.example.org/")):
        server = subprocess.Popen(
            [sys.executable, "-m", "tourney.cli.main", "serve", "--port", "0", *args,
             "--db", db_url], env={**__import__("os").environ, "TOURNEY_SERVE_PASSWORD": "x"},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            first = server.stderr.readline()
        finally:
            server.kill()
            server.wait(10)
        assert first.startswith("tourney serve on "), first
        assert "0.0.0.0" not in first
        if expect:
            assert f"tourney serve on {expect} " in first


def test_a_phone_sending_bad_results_in_a_loop_stores_a_few(tourney, db_url):
    """The same invalid result again is the one kept; different ones are kept up to
    the latest few per table, so a looping phone cannot grow the database."""
    from tourney.app.tables import INVALID_KEPT_PER_TABLE

    links = seated_event(tourney)
    web = client(db_url)
    for _ in range(3):
        assert send_csv(web, links["1"], "event,round,table,deal\nclub,1,1,x\n").status_code == 422
    for n in range(INVALID_KEPT_PER_TABLE + 4):
        send_csv(web, links["1"], f"event,round,table,deal\nclub,1,1,x{n}\n")
    with reading(open_engine(db_url)) as session:
        kept = session.exec(select(Submission).where(Submission.state == "invalid")).all()
    assert len(kept) == INVALID_KEPT_PER_TABLE
    assert {s.content for s in kept} == {f"event,round,table,deal\nclub,1,1,x{n}\n" for n in
                                        range(4, INVALID_KEPT_PER_TABLE + 4)}


def test_results_differing_from_a_stored_one_are_kept_a_few_per_table(tourney, db_url):
    """After a table's result is stored, a phone in a loop sending other results (valid
    or not) leaves the latest few conflicts, each once; the organizer's page lists
    only those."""
    from tourney.app.tables import CONFLICTS_KEPT_PER_TABLE

    links = seated_event(tourney)
    web = client(db_url, auto_accept=True)
    assert send_csv(web, links["1"], match_csv(tourney, "club", 1, "1")).json()["outcome"] == "stored"
    sent = [f"event,round,table,deal\nclub,1,1,x{n}\n" for n in range(CONFLICTS_KEPT_PER_TABLE + 6)]
    sent += [match_csv(tourney, "club", 1, "1", loser_seat=seat) for seat in (0, 2, 3)]
    for body in sent + sent[-2:]:  # the last two again: the same conflict, not a new one
        assert send_csv(web, links["1"], body).json()["outcome"] in {"invalid", "conflict"}
    with reading(open_engine(db_url)) as session:
        kept = session.exec(select(Submission).where(Submission.state == "conflict")).all()
        logged = len(session.exec(select(AuditLog.id).where(
            AuditLog.action == "submission.conflict")).all())
    assert sorted(s.content for s in kept) == sorted(sent[-CONFLICTS_KEPT_PER_TABLE:])
    assert logged == len(sent)
    page = web.get("/org/club", headers={"Authorization": f"Bearer {TOKEN}"})
    assert page.status_code == 200
    assert page.text.count("/dismiss") == CONFLICTS_KEPT_PER_TABLE


def test_requests_without_a_cookie_keep_nothing_on_the_server(tourney, db_url):
    """A flood of plain GETs (or a phone's every first visit) stores no session, so
    it cannot push the organizer's out; a visitor's form still checks its CSRF."""
    links = seated_event(tourney)
    web = client(db_url)
    page = web.get("/login")
    assert web.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)},
                    follow_redirects=False).status_code == 303
    sessions = web.app.state.server.sessions
    assert len(sessions) == 0  # a login is a signed cookie: nothing kept
    from starlette.testclient import TestClient

    flood = TestClient(web.app, base_url="http://testserver")  # the same server
    for _ in range(300):
        flood.cookies.clear()
        assert flood.get("/t").status_code == 200
    assert len(sessions) == 0
    assert web.get("/org").status_code == 200  # still logged in
    # a visitor's form: the CSRF token of its cookie is checked, a forged one refused
    table = flood.get(path_of(links["1"]["url"]))
    good = flood.post("/t", data={"code": links["1"]["code"], "csrf": csrf_of(table.text)},
                      follow_redirects=False)
    assert good.status_code == 303
    assert flood.post("/t", data={"code": links["1"]["code"], "csrf": "forged"}).status_code == 403


def test_a_score_app_sending_another_type_is_answered_as_the_api_answers(tourney, db_url):
    """JSON or any type but CSV and a browser's form: 415 and JSON that says what to
    send (it was the expired-form page, 403 HTML); a wrong link is 404 unknown-link."""
    links = seated_event(tourney)
    web = client(db_url, auto_accept=True)
    body = match_csv(tourney, "club", 1, "1")
    answer = web.post(path_of(links["1"]["url"]), content=body,
                      headers={"Content-Type": "application/json"})
    assert answer.status_code == 415
    assert answer.json()["outcome"] == "unsupported-type"
    assert "text/csv" in answer.json()["message"] and answer.json()["stored"] is False
    assert send_csv(web, links["1"], body).json()["outcome"] == "stored"
    unknown = web.post("/t/not-a-link", content=body, headers={"Content-Type": "text/csv"})
    assert unknown.status_code == 404 and unknown.json()["outcome"] == "unknown-link"
