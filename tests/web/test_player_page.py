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
