"""The organizer's page shows what seating warns about (issue 29): more than one bye
in a round that can still be seated again, with what would help, in the
organizer's language and never in command-line words."""
from __future__ import annotations

from test_arbiter_web import Page, _main

SEVEN = ["Anna", "Cilla", "Dag", "Eva", "Fia", "Gun", "Hans"]


def test_three_byes_are_warned_about_with_what_helps(tourney, db_url):
    tourney("player", "add", *SEVEN)
    tourney("event", "create", "club", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2")
    tourney("event", "enter", "club", "--all")
    page = Page(db_url)
    page.post("seat")
    byes = tourney("round", "show", "club", "1", "--json").json["byes"]
    english = _main(page.get())
    assert f"3 players get a bye: {', '.join(byes)}. A bye is worth 1 in match points." in english
    assert "Tables of 3-4 would seat everyone" in english
    assert "A bye can be worth less" in english
    assert "--" not in english.replace("<!--", "")  # no command-line words
    swedish = _main(page.get(lang="sv"))
    assert "frirond" in swedish and "Tables of" not in swedish
    # seated again at tables of 3-4: nothing to warn about
    tourney("event", "set", "club", "--table-sizes", "3-4")
    tourney("round", "reseat", "club", "1")
    assert "get a bye" not in _main(page.get())


def test_a_seating_constraint_not_met_is_shown_in_the_organizers_language(tourney, db_url):
    # three players of one club at two tables: two of them must share one
    tourney("player", "add", "Anna", "Cilla", "Dag", "--club", "Vasa")
    tourney("player", "add", "Eva", "Fia", "Gun", "Hans", "Ivar")
    tourney("event", "create", "club", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2")
    tourney("event", "enter", "club", "--all")
    tourney("event", "set", "club", "--keep-apart", "club")
    page = Page(db_url)
    page.post("seat")
    english = _main(page.get())
    assert "This round does not meet every seating constraint:" in english
    assert "(both of club Vasa) share table" in english
    assert "more players in this round than there are tables" in english
    swedish = _main(page.get(lang="sv"))
    assert "placeringsvillkor" in swedish and "(båda från klubben Vasa)" in swedish
    assert "--" not in english.replace("<!--", "")
