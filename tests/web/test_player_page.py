"""`tourney serve` /p/TOKEN: a player's own page (table and seat this round, the
table's result link, their results, the standings with their row marked); no
e-mail address on it; a revoked or wrong token is a 404."""
from __future__ import annotations

from serve_helpers import client, match_csv, path_of, seated_event, send_csv


def test_the_player_page_shows_seat_results_and_marked_row(tourney, db_url):
    links = seated_event(tourney)
    tourney("player", "add", "Zed", "--email", "zed@example.org")
    tourney("event", "enter", "club", "Zed", "--from-round", "2")
    shown = tourney("round", "show", "club", "1", "--json").json["tables"]
    seats = {t["table"]: t["seats"] for t in shown}
    web = client(db_url, auto_accept=True)
    send_csv(web, links["1"], match_csv(tourney, "club", 1, "1"))
    own = {r["player"]: r for r in tourney("player", "links", "club", "--json").json}
    anna_table = next(t for t, names in seats.items() if "Anna" in names)
    page = web.get(own["Anna"]["url"])
    assert page.status_code == 200
    html = page.text
    assert f"<strong>{anna_table}</strong>" in html
    seat = seats[anna_table].index("Anna") + 1
    assert f"<strong>{seat}</strong>" in html
    if anna_table == "1":  # its result is stored: said, not asked for
        assert "Ditt bords resultat är sparat." in html
        assert path_of(links[anna_table]["url"]) not in html
    else:
        assert path_of(links[anna_table]["url"]) in html  # the table's result link
    assert 'class="me" aria-current="true"' in html and html.count('class="me"') == 1
    me_row = html.split('class="me"')[1].split("</tr>")[0]
    assert "Anna" in me_row
    if anna_table == "1":
        assert "No results yet" not in html and "Ingen" not in html
    assert "zed@example.org" not in html and "@" not in html.split("<main")[-1]
    assert page.headers["cache-control"] == "no-store"
    assert "Dina resultat" in html  # the event's language (sv)
    for lang, words in (("nb", "Dine resultater"), ("fi", "Omat tuloksesi"),
                        ("en", "Your results")):
        assert words in web.get(own["Anna"]["url"] + f"?lang={lang}").text
    assert "<script" not in html or "src=" in html  # works without JavaScript


def test_a_renewed_or_wrong_token_is_not_found(tourney, db_url):
    seated_event(tourney)
    old = tourney("player", "links", "club", "--json").json[0]
    tourney("player", "links", "club", "--renew", old["player"])
    web = client(db_url)
    assert web.get(old["url"]).status_code == 404
    assert web.get("/p/not-a-token").status_code == 404
    new = tourney("player", "links", "club", "--json").json[0]
    assert web.get(new["url"]).status_code == 200


def _results_rows(html: str) -> dict[str, list[str]]:
    """Round -> the cells of the player's results table (tags stripped)."""
    import re
    section = html.split('id="results"')[1].split("</section>")[0]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", section.split("<tbody>")[1], re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                         row, re.S)]
        rows[cells[0]] = cells
    return rows


def test_a_forfeited_table_is_in_its_players_results_and_asks_for_no_result(tourney, db_url):
    """A forfeit gives points without a match: the player's results show the round
    (so their match points add up to the standings' points), and the seat section
    says no result is needed instead of linking to the table's score sheet."""
    links = seated_event(tourney, lang="en")
    seats = {t["table"]: t["seats"] for t in
             tourney("round", "show", "club", "1", "--json").json["tables"]}
    gone, stayed = seats["2"][0], seats["2"][1]
    tourney("result", "forfeit", "club", "1", "2", "--absent", gone, "--reason", "went home")
    web = client(db_url, auto_accept=True)
    send_csv(web, links["1"], match_csv(tourney, "club", 1, "1"))
    own = {r["player"]: r for r in tourney("player", "links", "club", "--json").json}
    points = {r["player"]: r["points"] for r in
              tourney("standings", "club", "--json").json}
    for name, shown in ((gone, "forfeited"), (stayed, "forfeit")):
        html = web.get(own[name]["url"]).text
        row = _results_rows(html)["1"]
        assert row[1] == "2" and row[2] == shown and row[3] == "–"
        assert float(row[4]) == points[name]  # 0 for the absent player, a bye's worth else
        seat = html.split('id="seat"')[1].split("</section>")[0]
        assert "forfeited: no result is needed" in seat
        assert path_of(links["2"]["url"]) not in seat
    # a player of the table that played has their match, and is told it is stored
    player = seats["1"][0]
    html = web.get(own[player]["url"]).text
    assert _results_rows(html)["1"][2].endswith("/4")
    assert "Your table's result is stored." in html.split('id="seat"')[1]


def test_own_results_show_a_shared_place_and_the_arbiters_adjustments(tourney, db_url):
    """A place shared at the table reads "1=" as everywhere else, and a penalty is
    said beside the results, so the points shown add up to the standings'."""
    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=1))
    seats = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
    tourney("result", "adjust", "club", seats[0], "--points", "-0.5", "--reason",
            "slow play", "--round", "1")
    own = {r["player"]: r for r in tourney("player", "links", "club", "--json").json}
    html = web.get(own[seats[0]]["url"]).text
    assert _results_rows(html)["1"][2] == "1=/4"  # three players share first place
    assert _results_rows(web.get(own[seats[1]]["url"]).text)["1"][2] == "4/4"
    results = html.split('id="results"')[1].split("</section>")[0]
    assert "adjusted by the arbiter: -½ (slow play, round 1)" in results
    assert "adjusted by the arbiter" not in web.get(own[seats[1]]["url"]).text


def test_a_round_seated_by_the_command_links_each_player_to_their_table(tourney, db_url):
    """`round seat` makes the tables' links, as the server's seat button does: a
    player's own page links to their table's score sheet without `round links`
    having been run first, and `round links` lists the same links afterwards."""
    tourney("player", "add", *"Anna Bo Cai Dag Eva Fia Gus Hal".split())
    tourney("event", "create", "club", "--variant", "svarta-maja", "--table-sizes", "4",
            "--rule", "deals=3", "--lang", "en")
    tourney("event", "enter", "club", "--all")
    tourney("round", "seat", "club")
    own = {r["player"]: r for r in tourney("player", "links", "club", "--json").json}
    web = client(db_url)
    seat = web.get(own["Anna"]["url"]).text.split('id="seat"')[1].split("</section>")[0]
    assert "Enter the result of your table" in seat
    listed = tourney("round", "links", "club", "1", "--base-url", "http://testserver",
                     "--json").json["tables"]
    tables = {t["table"]: t["seats"] for t in
              tourney("round", "show", "club", "1", "--json").json["tables"]}
    anna = next(label for label, seats in tables.items() if "Anna" in seats)
    assert path_of(next(t["url"] for t in listed if t["table"] == anna)) in seat


def test_a_player_who_withdrew_is_told_so_and_marked_in_the_standings(tourney, db_url):
    import re

    from tourney.reports.i18n import translations

    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    for table in ("1", "2"):
        send_csv(web, links[table], match_csv(tourney, "club", 1, table))
    tourney("event", "withdraw", "club", "Anna")  # after round 1 (its results are in)
    tourney("player", "add", "Zed")
    tourney("event", "enter", "club", "Zed", "--from-round", "2")
    tourney("round", "seat", "club")  # round 2, without Anna
    own = {r["player"]: r for r in tourney("player", "links", "club", "--json").json}
    said = ("You withdrew from the event after round %(number)s: you are not seated in "
            "the rounds after it.")
    marked = "withdrew after round %(n)s"
    for lang in ("en", "sv", "nb", "fi"):
        words = translations(lang)
        assert lang == "en" or words.gettext(said) != said
        html = web.get(own["Anna"]["url"] + f"?lang={lang}").text
        seat = html.split('id="seat"')[1].split("</section>")[0]
        assert words.gettext(said) % {"number": 1} in seat
        assert words.gettext("You are not seated at a table this round.") not in seat
        # the standings mark her as the venue's screen does, and no one else
        rows = html.split('id="standings"')[1].split("</table>")[0]
        mark = words.gettext(marked) % {"n": 1}
        assert rows.count(mark) == 1
        assert mark in next(r for r in re.findall(r"<tr.*?</tr>", rows, re.S) if "Anna" in r)
        venue = web.get(f"/standings/club?lang={lang}").text
        assert venue.count(mark) == 1
    # a player who did not withdraw is told nothing of the kind
    bo = web.get(own["Bo"]["url"] + "?lang=en").text
    assert 'id="withdrawn"' not in bo and "You withdrew" not in bo


def test_a_player_who_withdrew_is_not_told_they_are_checked_in_nor_shown_an_empty_round(
        tourney, db_url):
    """Found at a club night: the page of a player who had checked in and then withdrew
    said "You are checked in." above "You withdrew ...", and headed "Round 2" with
    nothing under it."""
    tourney("player", "add", *[f"P{i}" for i in range(8)])
    tourney("event", "create", "club", "--variant", "svarta-maja", "--rounds", "3",
            "--table-sizes", "4", "--rule", "deals=3", "--lang", "en")
    tourney("event", "enter", "club", "--all")
    tourney("event", "checkin", "club", "--required", "on")
    tourney("event", "checkin", "club", *[f"P{i}" for i in range(8)])
    tourney("round", "seat", "club")
    played = tourney("simulate", "--event", "club", "--round", "1", "--seed", "3").stdout
    tourney("result", "import", "-", "--event", "club", input=played)
    tourney("event", "withdraw", "club", "P0")
    tourney("round", "seat", "club")  # round 2, without P0
    own = {r["player"]: r["url"] for r in tourney("player", "links", "club", "--json").json}
    web = client(db_url)
    gone = web.get(own["P0"]).text.split("<main", 1)[1]
    assert "You withdrew from the event after round 1" in gone
    assert "You are checked in" not in gone and "I am here" not in gone
    assert "<h2>Round 2</h2>" not in gone
    stays = web.get(own["P1"]).text.split("<main", 1)[1]
    assert "You are checked in." in stays and "<h2>Round 2</h2>" in stays
