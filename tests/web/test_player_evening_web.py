"""The players' evening in `tourney serve`: the player checks in from their own
page, signs up on the event's sign-up page, and sees their rating and its history."""
from __future__ import annotations

from serve_helpers import TOKEN, client, csrf_of, match_csv, path_of, seated_event, send_csv
from sqlmodel import select

from tourney.storage.db import open_engine, reading
from tourney.storage.models import AuditLog


def _own_links(tourney) -> dict:
    return {r["player"]: path_of(r["url"])
            for r in tourney("player", "links", "club", "--base-url", "http://testserver",
                             "--json").json}


def test_a_player_checks_in_from_their_own_page(tourney, db_url):
    seated_event(tourney)
    own = _own_links(tourney)
    web = client(db_url)
    # No check-in asked for: no button.
    assert "I am here" not in web.get(own["Anna"] + "?lang=en").text
    tourney("event", "checkin", "club", "--required", "on")
    page = web.get(own["Anna"] + "?lang=en")
    assert "I am here" in page.text
    # A form from elsewhere (no CSRF token) is refused and changes nothing.
    assert web.post(own["Anna"] + "/checkin", data={}).status_code == 403
    assert tourney("event", "show", "club", "--json").json["evening"]["checked_in"] == []
    done = web.post(own["Anna"] + "/checkin", data={"csrf": csrf_of(page.text)},
                    follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"].endswith("?done=checked-in")
    assert tourney("event", "show", "club", "--json").json["evening"]["checked_in"] == ["Anna"]
    after = web.get(done.headers["location"] + "&lang=en").text
    assert "You are checked in." in after and "I am here" not in after
    # Twice is once; the log says the player did it.
    web.post(own["Anna"] + "/checkin", data={"csrf": csrf_of(page.text)})
    with reading(open_engine(db_url)) as session:
        rows = session.exec(select(AuditLog).where(AuditLog.action == "event.checkin")).all()
    assert [(r.subject, r.actor) for r in rows] == [("Anna", "player (own link)")]
    # A wrong link checks nobody in.
    assert web.post("/p/not-a-token/checkin", data={"csrf": csrf_of(page.text)}).status_code == 404



def test_a_player_with_a_bye_is_told_so_on_their_own_page(tourney, db_url):
    """Five players at tables of four: the one left over has a bye, worth the
    event's bye points, and their page says so rather than that they are not seated
    (which reads like being left out by mistake); a player marked absent is not
    seated, and is not told of a bye."""
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag", "Eva", "Finn")
    tourney("event", "create", "club", "--variant", "svarta-maja", "--table-sizes", "4",
            "--rule", "deals=3", "--lang", "sv", "--bye-points", "0.5")
    tourney("event", "enter", "club", "--all")
    tourney("round", "absent", "club", "1", "Finn")
    seating = tourney("round", "seat", "club", "--json").json
    (bye,) = seating["byes"]
    own = _own_links(tourney)
    web = client(db_url)
    page = web.get(own[bye] + "?lang=en").text
    assert ("You have a bye this round: no table to go to. A bye is worth ½ in match "
            "points.") in page
    assert "You are not seated at a table this round." not in page
    assert ("Du har frirond denna rond: inget bord att gå till. En frirond är värd ½ i "
            "matchpoäng.") in web.get(own[bye] + "?lang=sv").text
    absent = web.get(own["Finn"] + "?lang=en").text
    assert "You are not seated at a table this round." in absent and "a bye" not in absent
    seated = next(name for name in own if name not in (bye, "Finn"))
    assert "a bye" not in web.get(own[seated] + "?lang=en").text


def test_the_player_page_shows_the_rating_and_its_history(tourney, db_url):
    links = seated_event(tourney)
    own = _own_links(tourney)
    web = client(db_url, auto_accept=True)
    before = web.get(own["Anna"] + "?lang=en").text
    assert "No rated match yet." in before and "<svg" not in before
    shown = tourney("round", "show", "club", "1", "--json").json["tables"]
    anna_table = next(t["table"] for t in shown if "Anna" in t["seats"])
    send_csv(web, links[anna_table], match_csv(tourney, "club", 1, anna_table))
    [entry] = tourney("rating", "history", "Anna", "--json").json
    page = web.get(own["Anna"] + "?lang=en").text
    section = page.split('id="rating"')[1]
    assert "1 rated match" in section and "<svg" in section
    shown = f"{entry['ordinal_after']:.1f}"
    assert f"<strong>{shown}</strong>" in section
    change = entry["ordinal_after"] - entry["ordinal_before"]
    assert f"{'+' if change >= 0 else '−'}{abs(change):.1f}" in section


def test_sign_up_page_sends_a_request_the_organizer_approves(tourney, db_url):
    seated_event(tourney)
    web = client(db_url)
    closed = web.get("/signup/club?lang=en")
    assert closed.status_code == 200 and "Sign-up for this event is closed." in closed.text
    assert web.get("/signup/no-such-event").status_code == 404
    tourney("event", "set", "club", "--signup", "open")
    page = web.get("/signup/club?lang=en")
    assert 'name="email"' in page.text
    csrf = csrf_of(page.text)
    # A form without the page's token is refused.
    assert web.post("/signup/club", data={"name": "Pia", "email": "pia@x.se"}).status_code == 403
    # Each field is checked; what was typed stays in the form.
    bad = web.post("/signup/club?lang=en", data={"csrf": csrf, "name": "Pia", "email": "nope"})
    assert bad.status_code == 422 and 'value="Pia"' in bad.text
    assert 'type="email" value="nope" maxlength="320" autocomplete="email" required aria-invalid="true"' in bad.text
    formula = web.post("/signup/club?lang=en", data={"csrf": csrf, "name": "=1+1",
                                                     "email": "pia@x.se"})
    assert formula.status_code == 422 and "Give your name" in formula.text
    entered = web.post("/signup/club?lang=en", data={"csrf": csrf, "name": "Anna",
                                                     "email": "a@x.se"})
    assert entered.status_code == 409 and "entered already" in entered.text
    ok = web.post("/signup/club?lang=en", data={"csrf": csrf, "name": " Pia ", "club": "Vasa",
                                                "email": "pia@x.se"})
    assert ok.status_code == 200 and "Thank you, Pia" in ok.text
    # The same name again is the same request (the address sent last is kept).
    again = web.post("/signup/club", data={"csrf": csrf, "name": "Pia", "club": "Vasa",
                                           "email": "pia@y.se"},
                     headers={"Accept": "application/json"})
    assert again.json() == {"done": "signed-up", "name": "Pia", "updated": True,
                            "earlier": None}
    listed = tourney("event", "signups", "club", "--json", "--with-email").json
    assert [(r["name"], r["club"], r["email"], r["status"]) for r in listed] == [
        ("Pia", "Vasa", "pia@y.se", "pending")]
    assert "pia@" not in tourney("event", "signups", "club", "--json").stdout
    tourney("event", "approve", "club", str(listed[0]["id"]))
    entrants = tourney("event", "show", "club", "--json").json["entrants"]
    assert "Pia" in [p["name"] for p in entrants]
    tourney("event", "set", "club", "--signup", "closed")
    late = web.post("/signup/club?lang=en", data={"csrf": csrf, "name": "Ulf", "email": "u@x.se"})
    assert "Sign-up for this event is closed." in late.text
    assert len(tourney("event", "signups", "club", "--json").json) == 1


def test_a_sign_up_typed_otherwise_updates_the_one_waiting(tourney, db_url):
    """A name sent again apart from case and spaces is the same person's sign-up:
    the one waiting is updated (name, club, address sent last) and the page says
    so; a name that differs by its accents (two people may be called so) is another
    sign-up, as is a new name."""
    seated_event(tourney)
    tourney("event", "set", "club", "--signup", "open")
    visitor = client(db_url)
    csrf = csrf_of(visitor.get("/signup/club").text)

    def sign_up(name, email, lang="en", **headers):
        sent = visitor.post(f"/signup/club?lang={lang}",
                            data={"csrf": csrf, "name": name, "email": email},
                            headers=headers)
        assert sent.status_code == 200, sent.text
        return sent

    first = sign_up("anna  berg", "a@x.se")
    assert "your sign-up is sent" in first.text
    again = sign_up("Anna Berg", "b@x.se")
    assert ("Thank you, Anna Berg: you had signed up already, as anna  berg. Your sign-up "
            "is updated to what you sent now") in again.text
    swedish = sign_up("ANNA BERG", "c@x.se", lang="sv")
    assert "ANNA BERG" in swedish.text and "Anna Berg" in swedish.text
    assert "you had signed up" not in swedish.text and "Thank you" not in swedish.text
    as_json = sign_up("Anna Berg", "d@x.se", Accept="application/json").json()
    assert as_json == {"done": "signed-up", "name": "Anna Berg", "updated": True,
                       "earlier": "ANNA BERG"}
    same = sign_up("Anna Berg", "e@x.se")
    assert "you had signed up already. Your sign-up is updated" in same.text
    sign_up("Ånna Berg", "f@x.se")  # accents: another person's, maybe
    listed = tourney("event", "signups", "club", "--json", "--with-email").json
    assert [(r["name"], r["email"], r["status"]) for r in listed] == [
        ("Anna Berg", "e@x.se", "pending"), ("Ånna Berg", "f@x.se", "pending")]
    with reading(open_engine(db_url)) as session:
        renamed = [(r.before_json, r.after_json) for r in session.exec(
            select(AuditLog).where(AuditLog.action == "event.signup.update")
            .order_by(AuditLog.id))]
    assert len(renamed) == 3 and "anna  berg" in str(renamed[0])


def _organizer(db_url):
    web = client(db_url)
    page = web.get("/login")
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)})
    return web


def test_the_organizer_checks_in_marks_paid_and_enters_sign_ups_from_the_page(tourney, db_url):
    seated_event(tourney)
    tourney("event", "set", "club", "--fee", "50")
    web = _organizer(db_url)
    page = web.get("/org/club?lang=en").text
    evening = page.split('id="evening"')[1]
    assert "Check-in is not required" in evening and "Entry fee: 50." in evening
    assert "0 of 8 paid." in evening and "Sign-up is closed." in evening
    csrf = csrf_of(page)

    def act(action, **form):
        done = web.post(f"/org/club/{action}", data={"csrf": csrf, **form}, follow_redirects=False)
        assert done.status_code == 303 and done.headers["location"].endswith("#evening"), done.text
        return web.get(done.headers["location"].split("#")[0] + "&lang=en").text

    page = act("checkin-required", value="on")
    assert "0 of 8 checked in." in page and "Stop requiring check-in" in page
    page = act("checkin", player="Bo")
    assert "1 of 8 checked in." in page and "Checked in." in page
    page = act("paid", player="Bo")
    assert "1 of 8 paid." in page
    page = act("unpaid", player="Bo")
    assert "0 of 8 paid." in page
    shown = tourney("event", "show", "club", "--json").json["evening"]
    assert (shown["checkin_required"], shown["checked_in"], shown["paid"]) == (True, ["Bo"], [])
    page = act("signup", value="open")
    assert "Sign-up is open at" in page and 'href="/signup/club"' in page
    # A visitor signs up; the organizer enters them from the page.
    visitor = client(db_url)
    form = visitor.get("/signup/club").text
    visitor.post("/signup/club", data={"csrf": csrf_of(form), "name": "Pia", "email": "p@x.se"})
    visitor.post("/signup/club", data={"csrf": csrf_of(form), "name": "Ulf", "email": "u@x.se"})
    page = web.get("/org/club?lang=en").text
    assert "p@x.se" not in page  # names only on the page
    ids = {r["name"]: r["id"] for r in tourney("event", "signups", "club", "--json").json}
    page = act("approve", signup=str(ids["Pia"]))
    assert "Entered in the event." in page
    act("decline", signup=str(ids["Ulf"]))
    assert {r["name"]: r["status"] for r in tourney("event", "signups", "club", "--json").json} == {
        "Pia": "approved", "Ulf": "rejected"}
    assert "Pia" in [p["name"] for p in tourney("event", "show", "club", "--json").json["entrants"]]
    # Deciding twice is refused, and says why.
    again = web.post("/org/club/approve", data={"csrf": csrf, "signup": str(ids["Pia"])})
    assert again.status_code == 409 and "approved already" in again.text
    # Not a player of the event: refused, nothing marked.
    assert web.post("/org/club/checkin", data={"csrf": csrf, "player": "Nobody"}).status_code == 409
    # A visitor cannot do any of it.
    assert visitor.post("/org/club/checkin", data={"csrf": csrf_of(form), "player": "Anna"},
                        follow_redirects=False).status_code in (401, 303)
    assert tourney("event", "show", "club", "--json").json["evening"]["checked_in"] == ["Bo"]



def test_a_sign_up_like_a_registered_name_is_marked_before_it_is_entered(tourney, db_url):
    """'ANNA' signing up while Anna is registered (and entered): the organizer's page
    says so beside the sign-up, in the page's language, before the "Enter" that would
    register a second player; a new name and the same name exactly are not marked."""
    seated_event(tourney)
    tourney("player", "add", "Ulf <b>Ek</b>")
    tourney("event", "set", "club", "--signup", "open")
    visitor = client(db_url)
    csrf = csrf_of(visitor.get("/signup/club").text)
    for name in ("ANNA", "Pia", "ulf <b>ek</b>"):
        sent = visitor.post("/signup/club", data={"csrf": csrf, "name": name,
                                                  "email": "x@example.org"})
        assert sent.status_code == 200, sent.text
    web = _organizer(db_url)
    signups = web.get("/org/club?lang=en").text.split('class="signups"')[1].split("</ul>")[0]
    items = {item.split("</bdi>")[0].split("<bdi>")[-1]: item
             for item in signups.split("<li>")[1:]}
    assert "looks like Anna, who is registered: entering it registers another player" in \
        items["ANNA"]
    assert "looks like" not in items["Pia"]
    # a name is shown as text, never as markup
    assert "looks like Ulf &lt;b&gt;Ek&lt;/b&gt;, who is registered" in \
        items["ulf &lt;b&gt;ek&lt;/b&gt;"]
    swedish = web.get("/org/club?lang=sv").text
    assert "liknar Anna, som redan är registrerad" in swedish


def test_the_players_links_page_has_a_qr_code_per_player(tourney, db_url):
    seated_event(tourney)
    web = _organizer(db_url)
    page = web.get("/org/club/players/links?lang=en")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    own = {r["player"]: r["url"] for r in tourney("player", "links", "club", "--base-url",
                                                   "http://testserver", "--json").json}
    assert page.text.count('<img src="data:image/svg+xml') == len(own) == 8
    for name, url in own.items():
        assert url in page.text and f"<bdi>{name}</bdi>" in page.text
    assert client(db_url).get("/org/club/players/links", follow_redirects=False).status_code == 303


def test_the_audit_log_names_the_organizer_for_what_is_done_in_the_browser(tourney, db_url,
                                                                         tmp_path):
    seated_event(tourney, rounds=3)
    web = client(db_url, site_dir=str(tmp_path / "site"), site_langs=["sv"])
    page = web.get("/login")
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(page.text)})
    csrf = csrf_of(web.get("/org/club").text)
    for action in ("close", "seat", "checkin-required", "publish"):
        data = ({"csrf": csrf, "force": "1"} if action in ("close", "seat")
                else {"csrf": csrf, "value": "on"})
        assert web.post(f"/org/club/{action}", data=data, follow_redirects=False).status_code == 303
    with reading(open_engine(db_url)) as session:
        rows = {r.action: r for r in session.exec(select(AuditLog).order_by(AuditLog.id))}
    for action in ("round.close", "round.seat", "event.checkin.required", "site.publish"):
        assert rows[action].actor == "organizer (tourney serve)", (action, rows)
    assert rows["site.publish"].subject == str(tmp_path / "site")
    assert (tmp_path / "site" / "index.html").exists()


def test_the_seat_button_says_what_seating_now_means(tourney, db_url):
    links = seated_event(tourney, rounds=2)
    web = _organizer(db_url)
    page = web.get("/org/club?lang=en").text
    assert "Seat the next round anyway" in page and "2 tables have no stored result yet." in page
    for table in ("1", "2"):
        send_csv(client(db_url, auto_accept=True), links[table], match_csv(tourney, "club", 1, table))
    page = web.get("/org/club?lang=en").text
    assert "Seat the next round</button>" in page and "anyway" not in page
    web.post("/org/club/seat", data={"csrf": csrf_of(page)})
    page = web.get("/org/club?lang=en").text
    assert "All 2 rounds are seated." in page and "Seat the next round" not in page


def test_the_arbiter_decides_from_the_organizers_page(tourney, db_url):
    links = seated_event(tourney, rounds=3)
    tables = {t["table"]: t["seats"] for t in
              tourney("round", "show", "club", "1", "--json").json["tables"]}
    web = _organizer(db_url)
    page = web.get("/org/club?lang=en").text
    assert "The arbiter&#39;s decisions" in page or "The arbiter's decisions" in page
    csrf = csrf_of(page)

    def act(action, status=303, **form):
        done = web.post(f"/org/club/{action}", data={"csrf": csrf, **form}, follow_redirects=False)
        assert done.status_code == status, done.text
        return done

    first, second = tables["1"][0], tables["2"][0]
    done = act("swap", first=first, second=second, reason="keeps score")
    assert "done=swap&again=" in done.headers["location"]
    after = {t["table"]: t["seats"] for t in
             tourney("round", "show", "club", "1", "--json").json["tables"]}
    assert second in after["1"] and first in after["2"]
    act("clock", minutes="40")
    assert tourney("round", "show", "club", "1", "--json").json["clock"]["ends_at"]
    act("adjust", player="Anna", points="-0,5", reason="slow play")
    [row] = [r for r in tourney("standings", "club", "--json").json if r["player"] == "Anna"]
    assert row["points"] == -0.5
    adjusted = tourney("result", "adjust", "club", "--list", "--json").json
    act("unadjust", adjustment=str(adjusted[0]["id"]))
    act("absent", player="Bo", round="2")
    # a table with a stored result can neither be changed nor forfeited: said, not done
    send_csv(client(db_url, auto_accept=True), links["1"], match_csv(tourney, "club", 1, "1"))
    refused = act("forfeit", status=409, table="1", player=after["1"][0])
    assert "result" in refused.text
    refused = act("swap", status=409, first=after["1"][1], second=after["2"][1])
    act("forfeit", table="2", player=after["2"][0], reason="went home")
    with reading(open_engine(db_url)) as session:
        actors = {r.action: r.actor for r in session.exec(select(AuditLog).order_by(AuditLog.id))}
    for action in ("round.swap", "round.start", "result.adjust", "round.absent", "result.forfeit"):
        assert actors[action] == "organizer (tourney serve)", (action, actors)


def test_the_venue_screen_and_the_table_pages_say_when_the_round_ends(tourney, db_url):
    import datetime as dt

    links = seated_event(tourney)
    web = client(db_url)
    assert "the round ends at" not in web.get("/standings/club?lang=en").text
    tourney("round", "start", "club", "1", "--minutes", "40")
    ends = dt.datetime.fromisoformat(
        tourney("round", "show", "club", "1", "--json").json["clock"]["ends_at"])
    local = (ends if ends.tzinfo else ends.replace(tzinfo=dt.timezone.utc)).astimezone()
    shown = f"the round ends at {local:%H:%M}"
    assert shown in web.get("/standings/club?lang=en").text
    assert shown in web.get(path_of(links["1"]["url"]) + "?lang=en").text
    tourney("round", "start", "club", "1", "--stop")
    assert "the round ends at" not in web.get(path_of(links["1"]["url"]) + "?lang=en").text


def test_a_late_check_in_is_told_it_seats_from_the_next_round(tourney, db_url):
    """Round 1 seated while Finn had not checked in: Finn's own check-in says he is
    checked in and seated from round 2 (not "you will be seated", which read as a
    seat in the round under way), in one box; the organizer's round table and the
    CLI seat list say who the round left out for not checking in, and who has
    the bye."""
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag", "Eva", "Finn")
    tourney("event", "create", "club", "--variant", "svarta-maja", "--table-sizes", "4",
            "--rule", "deals=3", "--rounds", "3", "--lang", "sv")
    tourney("event", "enter", "club", "--all")
    tourney("event", "checkin", "club", "--required", "on")
    tourney("event", "checkin", "club", "Anna", "Bo", "Cai", "Dag", "Eva")
    seating = tourney("round", "seat", "club", "--json").json
    (bye,) = seating["byes"]
    own = _own_links(tourney)
    web = client(db_url)
    page = web.get(own["Finn"] + "?lang=en")
    done = web.post(own["Finn"] + "/checkin", data={"csrf": csrf_of(page.text)},
                    follow_redirects=False)
    after = web.get(done.headers["location"] + "&lang=en").text
    assert ("You are checked in. Round 1 was seated before you checked in: you will be "
            "seated from round 2.") in after
    assert "you will be seated." not in after and after.count("You are checked in") == 1
    # Anna, seated in round 1, is just checked in.
    anna = web.get(own["Anna"] + "?lang=en").text
    assert "You are checked in." in anna and "seated from round" not in anna
    # The seat list says who has the bye and who was left out: Finn, checked in
    # now, only after the round was seated (not "not checked in").
    shown = tourney("round", "show", "club", "1")
    assert f"Bye:  {bye}" in shown.stdout
    assert "Checked in after the seating (not seated):  Finn" in shown.stdout
    assert "Not checked in" not in shown.stdout
    as_json = tourney("round", "show", "club", "1", "--json").json
    assert (as_json["not_checked_in"], as_json["checked_in_late"]) == ([], ["Finn"])
    org = _organizer(db_url).get("/org/club?lang=en").text
    assert 'id="not-checked-in"' not in org
    assert ">Finn</bdi>" in org.split('id="checked-in-late"')[1].split("</p>")[0]
    assert "checked in after the round was seated" in org.split('id="checked-in-late"')[1]
    assert f"<bdi>{bye}</bdi>" in org.split('id="byes"')[1].split("</p>")[0]
    # Marked absent from round 1 too: not told that round 1 was seated before the
    # check-in, which is not why he is not in it; nor listed as not checked in.
    tourney("round", "absent", "club", "1", "Finn")
    finn = web.get(own["Finn"] + "?lang=en").text
    assert "You are checked in." in finn and "seated from round" not in finn
    assert "Not checked in" not in tourney("round", "show", "club", "1").stdout


def test_check_in_times_decide_who_the_round_left_out_for_check_in(tourney, db_url):
    """Against the time the round was seated: a player not checked in is "not
    checked in"; one who checked in after the seating is "checked in late" (and a
    reseat seats them); one checked in before it and not seated for another reason
    (substituted out) is neither, on the CLI, the organizer's page, its JSON and
    the player's own page."""
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag", "Eva", "Finn", "Gus", "Hed")
    tourney("event", "create", "club", "--variant", "svarta-maja", "--table-sizes", "4",
            "--rule", "deals=3", "--rounds", "3", "--lang", "sv")
    tourney("event", "enter", "club", "Anna", "Bo", "Cai", "Dag", "Eva", "Finn", "Hed")
    tourney("event", "checkin", "club", "--required", "on")
    tourney("event", "checkin", "club", "Anna", "Bo", "Cai", "Dag")
    seating = tourney("round", "seat", "club", "--json").json
    assert seating["byes"] == [] and len(seating["tables"]) == 1
    gone = seating["tables"][0]["seats"][0]
    # Eva checks in after the seating; Gus, entered late and checked in, takes the
    # seat of a player who left (checked in before the seating: not a check-in matter)
    tourney("event", "checkin", "club", "Eva")
    tourney("event", "enter", "club", "Gus", "--from-round", "1")
    tourney("event", "checkin", "club", "Gus")
    tourney("round", "substitute", "club", "1", gone, "Gus")
    shown = tourney("round", "show", "club", "1", "--json").json
    assert shown["not_checked_in"] == ["Finn", "Hed"]
    assert shown["checked_in_late"] == ["Eva"]
    text = tourney("round", "show", "club", "1").stdout
    assert "Not checked in (not seated):  Finn, Hed\n" in text
    assert "Checked in after the seating (not seated):  Eva\n" in text
    web = _organizer(db_url)
    org = web.get("/org/club?lang=en").text
    late = org.split('id="checked-in-late"')[1].split("</p>")[0]
    missing = org.split('id="not-checked-in"')[1].split("</p>")[0]
    assert "<bdi>Eva</bdi>" in late and gone not in late and gone not in missing
    assert "<bdi>Finn</bdi>, <bdi>Hed</bdi>" in missing
    as_json = web.get("/org/club", headers={"Accept": "application/json"}).json()
    assert (as_json["not_checked_in"], as_json["checked_in_late"]) == (["Finn", "Hed"], ["Eva"])
    # the player who left was checked in when the round was seated: her page does
    # not say the round was seated before her check-in
    own = _own_links(tourney)
    page = client(db_url)
    left = page.get(own[gone] + "?lang=en").text
    assert "You are checked in." in left and "seated before you checked in" not in left
    eva = page.get(own["Eva"] + "?lang=en").text
    assert "Round 1 was seated before you checked in" in eva
    # seated again, the round seats Eva: no one is late for it any more
    tourney("event", "checkin", "club", "Finn")
    tourney("round", "reseat", "club", "1")
    shown = tourney("round", "show", "club", "1", "--json").json
    assert shown["checked_in_late"] == [] and shown["not_checked_in"] == ["Hed"]
    assert "Eva" in str(shown["tables"]) + str(shown["byes"])


def test_a_check_in_taken_back_and_given_again_after_the_seating_is_not_late(tourney, db_url):
    """Only the latest check-in time was kept: a player checked in when the round
    was seated (and not seated for another reason: substituted out), whose check-in
    was then taken back and given again, read as "checked in after the seating".
    The check-ins taken back are kept, so they are neither; one whose check-in was
    taken back before the seating and given again after it is late."""
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag", "Eva", "Gus")
    tourney("event", "create", "club", "--variant", "svarta-maja", "--table-sizes", "4",
            "--rule", "deals=3", "--rounds", "3", "--lang", "sv")
    tourney("event", "enter", "club", "Anna", "Bo", "Cai", "Dag", "Eva")
    tourney("event", "checkin", "club", "--required", "on")
    tourney("event", "checkin", "club", "Anna", "Bo", "Cai", "Dag", "Eva")
    tourney("event", "checkin", "club", "Eva", "--undo")  # before the seating
    seating = tourney("round", "seat", "club", "--json").json
    gone = seating["tables"][0]["seats"][0]
    tourney("event", "enter", "club", "Gus", "--from-round", "1")
    tourney("event", "checkin", "club", "Gus")
    tourney("round", "substitute", "club", "1", gone, "Gus")
    # after the seating: the one who left is checked out and in again by mistake;
    # Eva checks in again
    tourney("event", "checkin", "club", gone, "--undo")
    tourney("event", "checkin", "club", gone, "Eva")
    shown = tourney("round", "show", "club", "1", "--json").json
    assert (shown["not_checked_in"], shown["checked_in_late"]) == ([], ["Eva"])
    own = _own_links(tourney)
    page = client(db_url)
    left = page.get(own[gone] + "?lang=en").text
    assert "You are checked in." in left and "seated before you checked in" not in left
    assert "Round 1 was seated before you checked in" in page.get(own["Eva"] + "?lang=en").text
