"""`tourney event withdraw`.

- A player who withdraws after the round is seated (a club organizer's findings):
  the seat list marks them and says to reseat, score sheets and table links of that
  seating are refused unless forced, and a player who withdraws before playing any
  round is no longer entered, as when they withdraw before round 1 is seated.
- Without --from-round: the latest seated round while none of its results is in
  (as its help says), else the next round.
- Once the event's last round is played it is refused: there is no round left to
  miss, and the site would say they withdrew though they played all.
"""
from __future__ import annotations

from simulated_rounds import one_deal_event_round_one_played, play_round

NAMES = ["Anna", "Bo", "Cilla", "Dag", "Eva", "Fia", "Gun", "Hans"]
# the players of the one-round events (kr-1, kv-1)
FULL_NAMES = ["Sofia Wik", "Bo Ek", "Cilla", "Dag", "Eva", "Finn", "Gun", "Hans"]


def seated_ev(tourney) -> dict:
    """Setup "S": 8 players in `ev` (spardame, tables of 4, 2 rounds of 2 deals),
    round 1 seated: its seating."""
    tourney("player", "add", *NAMES)
    tourney("event", "create", "ev", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2")
    tourney("event", "enter", "ev", "--all")
    return tourney("round", "seat", "ev", "--json").json


def table_of(seating: dict, name: str) -> dict:
    return next(t for t in seating["tables"] if name in t["seats"])


def test_round_show_marks_a_player_who_withdrew_and_says_to_reseat(tourney):
    seating = seated_ev(tourney)
    bo = table_of(seating, "Bo")
    tourney("event", "withdraw", "ev", "Bo")
    shown = tourney("round", "show", "ev", "1")
    line = next(line for line in shown.stdout.splitlines()
                if line.startswith(f"Table {bo['table']}:"))
    assert f"{bo['seats'].index('Bo') + 1}. Bo (withdrew)" in line
    assert shown.stdout.count("(withdrew)") == 2  # by table and by name
    assert "Bo (withdrew)" not in shown.stderr
    assert (f"round 1 of ev seats Bo (table {bo['table']}), who withdrew: "
            "reseating it seats it again without them (`tourney round reseat ev 1`)") \
        in shown.stderr
    data = tourney("round", "show", "ev", "1", "--json")
    assert data.json["withdrawn"] == [{"name": "Bo", "table": bo["table"]}]
    assert data.json["reseat"] is True
    assert "tourney round reseat ev 1" in data.stderr
    tourney("round", "reseat", "ev", "1")
    after = tourney("round", "show", "ev", "1")
    assert "(withdrew)" not in after.stdout and "withdrew" not in after.stderr
    assert tourney("round", "show", "ev", "1", "--json").json["withdrawn"] == []


def test_sheets_and_links_of_a_seating_with_a_withdrawn_player_are_refused(tourney, tmp_path):
    seated_ev(tourney)
    tourney("event", "withdraw", "ev", "Bo")
    sheet = tmp_path / "r1.csv"
    refused = tourney("round", "sheet", "ev", "1", "--out", str(sheet), exit_code=1)
    assert "seats Bo (table" in refused.stderr and "who withdrew" in refused.stderr
    assert "(`tourney round reseat ev 1`)" in refused.stderr and "--force" in refused.stderr
    assert not sheet.exists()
    links = tourney("round", "links", "ev", "1", "--base-url", "http://x", exit_code=1)
    assert "`tourney round reseat ev 1`" in links.stderr and "--force" in links.stderr
    # forced, as the organizer asked for it
    tourney("round", "sheet", "ev", "1", "--out", str(sheet), "--force")
    assert "Bo" in sheet.read_text(encoding="utf-8-sig")
    assert len(tourney("round", "links", "ev", "1", "--base-url", "http://x", "--force",
                       "--json").json["tables"]) == 2
    tourney("round", "reseat", "ev", "1")
    tourney("round", "sheet", "ev", "1", "--out", str(sheet), "--yes")
    assert "Bo" not in sheet.read_text(encoding="utf-8-sig")


def test_once_a_result_is_in_the_note_says_to_take_the_withdrawal_back(tourney, tmp_path):
    seating = seated_ev(tourney)
    tourney("event", "withdraw", "ev", "Bo")
    other = next(t for t in seating["tables"] if "Bo" not in t["seats"])
    play_round({**seating, "tables": [other]}, "ev", "spardame", {"deals": "2"}, 1,
               tmp_path / "t1.csv")
    tourney("result", "import", str(tmp_path / "t1.csv"))
    shown = tourney("round", "show", "ev", "1", "--json")
    assert shown.json["reseat"] is False and shown.json["withdrawn"][0]["name"] == "Bo"
    assert "cannot be reseated" in shown.stderr
    assert "entering them again takes the withdrawal back (`tourney event enter ev Bo`)" \
        in shown.stderr
    refused = tourney("round", "sheet", "ev", "1", exit_code=1)
    assert "(`tourney event enter ev Bo`)" in refused.stderr and "reseat ev" not in refused.stderr
    tourney("event", "enter", "ev", "Bo")
    assert tourney("round", "show", "ev", "1", "--json").json["withdrawn"] == []


def test_withdrawing_from_a_seated_unplayed_round_one_is_withdrawing_before_playing(
        tourney, tmp_path):
    seating = seated_ev(tourney)
    left = tourney("event", "withdraw", "ev", "Bo", "--json")
    assert left.json["details"]["last_round"] is None
    assert "before playing" in left.json["summary"]
    # until the reseat, a sheet of the old seating with Bo is still refused
    play_round(seating, "ev", "spardame", {"deals": "2"}, 1, tmp_path / "old.csv")
    refused = tourney("result", "import", str(tmp_path / "old.csv"), exit_code=1)
    assert "[withdrawn]" in refused.stderr
    reseat = tourney("round", "reseat", "ev", "1", "--json")
    assert reseat.json["details"]["no_longer_entered"] == ["Bo"]
    assert "no longer entered (withdrew before playing): Bo" in reseat.stderr
    new = tourney("round", "show", "ev", "1", "--json").json
    play_round(new, "ev", "spardame", {"deals": "2"}, 1, tmp_path / "r1.csv")
    tourney("result", "import", str(tmp_path / "r1.csv"))

    shown = tourney("event", "show", "ev")
    assert "Bo" not in shown.stdout and "round 0" not in shown.stdout
    assert "entrants: 7 (7 playing round 2)" in shown.stdout
    assert "Bo" not in {e["name"] for e in tourney("event", "show", "ev", "--json").json[
        "entrants"]}
    standings = tourney("standings", "ev", "--json").json
    assert "Bo" not in str(standings)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--no-replays")
    event_page = (site / "events" / "ev" / "index.html").read_text(encoding="utf-8")
    assert "round 0" not in event_page and ">Bo<" not in event_page
    # the same as withdrawing before round 1 is seated
    tourney("player", "add", "Ida")
    tourney("event", "create", "ev2", "--variant", "spardame")
    tourney("event", "enter", "ev2", "Ida")
    before = tourney("event", "withdraw", "ev2", "Ida")
    assert "withdrew from ev2 before playing; no longer entered" in before.stderr
    assert tourney("event", "show", "ev2", "--json").json["entrants"] == []


def test_event_show_before_the_reseat_says_before_playing(tourney):
    seated_ev(tourney)
    tourney("event", "withdraw", "ev", "Bo")
    shown = tourney("event", "show", "ev").stdout
    assert "round 0" not in shown
    assert "Bo (withdrew before playing; still seated in round 1)" in shown
    assert "entrants: 8 (7 playing round 1)" in shown
    again = tourney("event", "withdraw", "ev", "Bo", exit_code=1)
    assert "already withdrew from ev before playing" in again.stderr


# ---------------------------------------------- the round it starts from

def one_round_event(tourney) -> None:
    tourney("player", "add", *FULL_NAMES)
    tourney("event", "create", "kr-1", "--variant", "spardame", "--rounds", "1",
            "--rule", "deals=1")
    tourney("event", "enter", "kr-1", "--all")
    tourney("round", "seat", "kr-1")


def seated(tourney, number: int) -> set[str]:
    shown = tourney("round", "show", "kr-1", str(number), "--json").json
    return {name for table in shown["tables"] for name in table["seats"]}


def test_withdrawing_from_a_seated_round_without_results(tourney):
    one_round_event(tourney)
    assert "Sofia Wik" in seated(tourney, 1)
    run = tourney("event", "withdraw", "kr-1", "Sofia Wik", "--json")
    # she played nothing: as though never entered, once round 1 is reseated
    assert run.json["details"]["last_round"] is None
    assert run.json["details"]["reseat"] == 1
    assert run.json["summary"] == ("Sofia Wik withdrew from kr-1 before playing; no longer "
                                   "entered once round 1 is reseated")
    assert "tourney round reseat kr-1 1" in run.stderr
    help_text = tourney("event", "withdraw", "--help").stdout
    assert "latest seated round" in help_text and "while none of its" in help_text
    tourney("round", "reseat", "kr-1", "1")
    assert "Sofia Wik" not in seated(tourney, 1)


# ---------------------------------------------- after the last round

def test_withdrawing_after_the_last_round_is_refused(tourney, tmp_path):
    one_deal_event_round_one_played(tourney, tmp_path, "kv-1", FULL_NAMES, rounds=1)
    run = tourney("event", "withdraw", "kv-1", "Bo Ek", exit_code=1)  # refused, as `enter` is
    assert "last round" in run.stderr and "Bo Ek" in run.stderr
    shown = tourney("event", "show", "kv-1", "--json").json
    assert "withdrew" not in str(shown)
    help_text = " ".join(tourney("event", "withdraw", "--help").stdout.split())
    assert "after the event's last round is played is refused" in help_text


def test_round_show_says_a_withdrawn_players_table_plays_only_if_entered_again(tourney):
    """Once a result of the round is in it cannot be reseated: the advice names the
    tables with results and the withdrawn player's, and the command to enter them."""
    seating = seated_ev(tourney)
    bo = table_of(seating, "Bo")["table"]
    other = next(t for t in seating["tables"] if "Bo" not in t["seats"])
    tourney("event", "withdraw", "ev", "Bo")
    tourney("result", "forfeit", "ev", "1", other["table"], "--absent", other["seats"][0])
    shown = tourney("round", "show", "ev", "1").stderr
    assert (f"round 1 of ev seats Bo (table {bo}), who withdrew, and cannot be reseated "
            f"(results are in for table {other['table']}): table {bo} can be played as "
            "seated only if entering them again takes the withdrawal back "
            "(`tourney event enter ev Bo`)\n") in shown
