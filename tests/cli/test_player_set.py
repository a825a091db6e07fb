"""`tourney player set`: a registered player's club and e-mail address changed (an
address given at the door, a player who changed clubs); and `player import` of a
file whose club or address differ from what is stored says so rather than leaving
the organizer to believe the file's were kept."""
from __future__ import annotations


def _stored(tourney, name):
    rows = tourney("player", "list", "--with-email", "--json").json
    row = next(r for r in rows if r["name"] == name)
    return row["club"], row["email"]


def test_a_registered_players_club_and_address_are_set_and_cleared(tourney):
    tourney("player", "add", "Jan Berg", "--club", "Göta")
    done = tourney("player", "set", "Jan Berg", "--email", "jan@example.org", "--club",
                   "Vasa", "--json").json
    assert done["action"] == "player.set" and done["changed"] is True
    assert done["details"]["club"] == {"old": "Göta", "new": "Vasa"}
    assert "jan@example.org" not in done["summary"]  # addresses stay out of what is shown
    assert _stored(tourney, "Jan Berg") == ("Vasa", "jan@example.org")
    again = tourney("player", "set", "Jan Berg", "--email", "jan@example.org", "--json").json
    assert again["changed"] is False
    tourney("player", "set", "Jan Berg", "--club", "")
    assert _stored(tourney, "Jan Berg") == (None, "jan@example.org")
    log = tourney("log", "--json").json
    assert [e["action"] for e in log].count("player.set") == 2
    # refused: a bad address (nothing changed), an unknown player (with a suggestion),
    # nothing to set
    bad = tourney("player", "set", "Jan Berg", "--email", "jan at example", exit_code=1)
    assert "not an e-mail address" in bad.stderr
    assert _stored(tourney, "Jan Berg") == (None, "jan@example.org")
    unknown = tourney("player", "set", "Jan Bergh", "--club", "Vasa", exit_code=2)
    assert "did you mean 'Jan Berg'" in unknown.stderr
    tourney("player", "set", "Jan Berg", exit_code=2)


def test_a_merged_name_sets_the_kept_player(tourney):
    tourney("player", "add", "Ana Berg")
    tourney("player", "rename", "Ana Berg", "Anna Berg")
    tourney("player", "set", "Ana Berg", "--club", "Vasa")
    assert _stored(tourney, "Anna Berg") == ("Vasa", None)


def test_importing_a_file_with_another_address_says_it_was_not_stored(tourney, tmp_path):
    tourney("player", "add", "Finn Sand", "--club", "Vasa")
    tourney("player", "add", "Bo Ek", "--club", "Vasa", "--email", "bo@example.org")
    players = tmp_path / "players.csv"
    players.write_text("name,club,email\nFinn Sand,Vasa,finn@example.org\n"
                       "Bo Ek,Vasa,bo@example.org\n", encoding="utf-8")
    done = tourney("player", "import", str(players))
    assert ("already registered: Finn Sand (the file's e-mail address is not the one "
            "stored, which is kept: `tourney player set 'Finn Sand' --email ADDRESS` "
            "changes it)") in done.stderr
    assert "finn@example.org" not in done.stderr
    assert "already registered: Bo Ek\n" in done.stderr  # the same: nothing to say
    assert _stored(tourney, "Finn Sand") == ("Vasa", None)
    as_json = tourney("player", "import", str(players), "--json").json
    assert as_json["details"]["differ"] == [{"name": "Finn Sand", "fields": ["email"]}]
