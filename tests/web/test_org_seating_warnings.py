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


def test_seating_before_every_result_offers_seating_anyway_in_the_events_language(
        tourney, db_url):
    """What --force does on the command line ("or seat round 2 anyway (--force)") is
    data the page offers as its own button, in the event's language (Swedish)."""
    tourney("player", "add", "Anna", "Bo", "Cilla", "Dag")
    tourney("event", "create", "club", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "3", "--rule", "deals=2", "--lang", "sv")
    tourney("event", "enter", "club", "--all")
    page = Page(db_url)
    page.post("seat")
    refused = page.post("seat", 409).text
    text = _main(refused)
    assert "rond 1 i club har inget resultat än för bord 1" in text
    assert "Eller lotta rond 2 innan de resultaten är sparade:" in text
    assert "Lotta rond 2 ändå" in text
    assert "anyway" not in text and "--" not in text and "tourney " not in text
    # the button seats round 2 (force=1), as the command line's --force does
    assert '<form method="post" action="/org/club/seat">' in refused
    assert '<input type="hidden" name="force" value="1">' in refused
    page.post("seat", force="1")
    assert tourney("round", "show", "club", "2", "--json").json["round"] == 2
    # the command line words the same refusal in English, as it always has
    stderr = tourney("round", "seat", "club", exit_code=1).stderr
    assert stderr == ("Error: round 2 of club has no result yet for table 1; import it "
                      "first (`tourney result import`), or seat round 3 anyway (--force)\n")


def test_a_round_seating_a_player_who_withdrew_is_warned_about_in_swedish(tourney, db_url):
    """What `round show` warns about (a withdrawn player still seated) the page says
    in its language, with its own button for the remedy (seat the round again)."""
    tourney("player", "add", *SEVEN[:4])
    tourney("event", "create", "club", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2")
    tourney("event", "enter", "club", "--all")
    page = Page(db_url)
    page.post("seat")
    assert "withdrew" not in _main(page.get())
    tourney("event", "withdraw", "club", "Dag")
    swedish = _main(page.get(lang="sv"))
    assert ("rond 1 i club placerar Dag (bord 1), som har dragit sig ur: lottas den om "
            "placeras den utan dem") in swedish
    assert "Lotta rond 1 igen" in swedish
    assert "who withdrew" not in swedish and "tourney " not in swedish
    english = _main(page.get())
    assert ("round 1 of club seats Dag (table 1), who withdrew: reseating it seats it again "
            "without them") in english
    assert "Seat round 1 again" in english and "--" not in english.replace("<!--", "")
    # the command line: the same warning in English with its command
    assert ("round 1 of club seats Dag (table 1), who withdrew: reseating it seats it "
            "again without them (`tourney round reseat club 1`)") in tourney(
        "round", "show", "club", "1").stderr
