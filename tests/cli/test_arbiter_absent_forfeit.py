"""`tourney round absent` and `tourney result forfeit` (issue 31): an absent player
is not seated that round and is back the next; a forfeit gives the absent 0 and
the table's others a bye's points, and is refused at a table with a result."""
import random

from arbiter_helpers import add_result, setup, table_of, tables

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.simulation import simulate_match


def standings(tourney, *args):
    return {r["player"]: r for r in tourney("standings", "ev", *args, "--json").json}


def test_an_absent_player_sits_out_one_round(tourney, db_url):
    setup(tourney, names=["Ann", "Bo", "Cy", "Di", "Ed", "Fi", "Gu", "Hj", "Ib"])
    done = tourney("round", "absent", "ev", "1", "Ib", "--reason", "late train", "--json")
    assert done.json["changed"] and done.json["details"]["reseat"] is None
    again = tourney("round", "absent", "ev", "1", "Ib", "--json").json
    assert not again["changed"]
    seated = tourney("round", "seat", "ev", "--json").json
    names = [n for t in seated["tables"] for n in t["seats"]] + seated["byes"]
    assert "Ib" not in names and len(names) == 8 and seated["byes"] == []
    shown = tourney("round", "show", "ev", "1", "--json").json
    assert shown["absent"] == ["Ib"]
    assert "Absent:  Ib" in tourney("round", "show", "ev", "1").stdout
    for label in tables(tourney)[0]:
        add_result(db_url, 1, label)
    assert standings(tourney)["Ib"]["points"] == 0 and standings(tourney)["Ib"]["byes"] == 0
    # back the next round
    two = tourney("round", "seat", "ev", "--json").json
    assert "Ib" in [n for t in two["tables"] for n in t["seats"]] + two["byes"]
    log = [c for c in tourney("log", "--json").json if c["action"] == "round.absent"]
    assert log[0]["after"] == {"player": "Ib", "round": 1, "reason": "late train"}


def test_absent_from_the_seated_round_asks_for_a_reseat_or_a_forfeit(tourney, db_url):
    setup(tourney)
    tourney("round", "seat", "ev")
    marked = tourney("round", "absent", "ev", "1", "Ann", "--json")
    assert marked.json["details"]["reseat"] == 1
    assert "tourney round reseat ev 1" in marked.stderr
    tourney("round", "absent", "ev", "1", "Ann", "--undo")
    assert "Ann" in table_of(tourney)
    where = table_of(tourney)
    other = next(label for label in tables(tourney)[0] if label != where["Ann"])
    add_result(db_url, 1, other)
    refused = tourney("round", "absent", "ev", "1", "Ann", "--json", exit_code=1)
    assert refused.json["operation"] == f"tourney result forfeit ev 1 {where['Ann']} --absent Ann"
    played = next(n for n, t in where.items() if t == other)
    at_result = tourney("round", "absent", "ev", "1", played, exit_code=1)
    assert "result is in" in at_result.stderr
    tourney("round", "absent", "ev", "0", "Ann", exit_code=2)
    tourney("round", "absent", "ev", "4", "Ann", exit_code=2)  # 3 rounds
    tourney("round", "absent", "ev", "2", "Nobody", exit_code=2)


def test_a_forfeit_scores_the_table_and_is_refused_where_a_result_is(tourney, db_url, tmp_path):
    setup(tourney)
    tourney("round", "seat", "ev")
    seated, _ = tables(tourney)
    add_result(db_url, 1, "1")
    refused = tourney("result", "forfeit", "ev", "1", "1", "--absent", seated["1"][0],
                      "--json", exit_code=1)
    assert "cannot be forfeited: its result is in" in refused.json["error"]
    absent = seated["2"][2]
    stranger = tourney("result", "forfeit", "ev", "1", "2", "--absent", seated["1"][0],
                       exit_code=1)
    assert "not seated at ev round 1, table 2" in stranger.stderr
    tourney("result", "forfeit", "ev", "1", "2", exit_code=2)  # no one named
    tourney("result", "forfeit", "ev", "1", "7", "--absent", absent, exit_code=2)
    done = tourney("result", "forfeit", "ev", "1", "2", "--absent", absent,
                   "--reason", "left early", "--json").json
    assert done["details"]["absent"] == [absent]
    assert sorted(done["details"]["others"]) == sorted(n for n in seated["2"] if n != absent)
    assert done["details"]["others_points"] == 1
    rows = standings(tourney)
    assert rows[absent]["points"] == 0 and rows[absent]["forfeits"] == 1
    for name in seated["2"]:
        if name != absent:
            assert rows[name]["points"] == 1 and rows[name]["forfeit_wins"] == 1
            assert rows[name]["matches"] == 0  # no match played: no tie-break counts it
    twice = tourney("result", "forfeit", "ev", "1", "2", "--absent", absent, exit_code=1)
    assert "forfeited" in twice.stderr
    # the forfeited table counts as played: round 2 can be seated, a swap is refused
    swap = tourney("round", "swap", "ev", "1", seated["2"][0], seated["2"][1], exit_code=1)
    assert "forfeited" in swap.stderr
    shown = tourney("event", "show", "ev", "--json").json
    assert shown["round_status"][0]["results"] == 2
    # a result for the forfeited table is refused by the import
    game = get_game("svarta-maja")
    records = simulate_match(game, game.resolve_options({}), seated["2"], random.Random(1),
                             event="ev", round_number=1, table="2", deals=1)
    path = tmp_path / "table2.csv"
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda record: game)
    imported = tourney("result", "import", str(path), exit_code=1)
    assert "was forfeited" in imported.stderr
    # taken back: the table is to be played again, its points gone
    undone = tourney("result", "forfeit", "ev", "1", "2", "--undo", "--json").json
    assert undone["action"] == "result.forfeit.undo"
    # the command line's line (cli/results.py forfeit_text)
    assert undone["summary"] == ("ev round 1, table 2: forfeit taken back; the table is to "
                                 "be played (or imported)")
    assert standings(tourney)[absent]["forfeits"] == 0
    tourney("result", "import", str(path))
    actions = [c["action"] for c in tourney("log", "--json").json]
    assert "result.forfeit" in actions and "result.forfeit.undo" in actions


def test_a_round_with_a_forfeit_is_not_reseated(tourney):
    # the forfeit scores the players at its table: a new seating would hand its
    # points to others (it counts as played, as a result does)
    setup(tourney)
    tourney("round", "seat", "ev")
    before = tables(tourney)[0]
    label = sorted(before)[-1]
    tourney("result", "forfeit", "ev", "1", label, "--absent", before[label][0])
    refused = tourney("round", "reseat", "ev", "1", "--seed", "7", "--json", exit_code=1)
    assert "forfeited" in refused.json["error"]
    assert refused.json["operation"] == f"tourney result forfeit ev 1 {label} --undo"
    assert tables(tourney)[0] == before
    tourney("result", "forfeit", "ev", "1", label, "--undo")
    tourney("round", "reseat", "ev", "1", "--seed", "7")


def test_a_forfeits_reason_is_kept_with_it_and_listed(tourney):
    setup(tourney)
    tourney("round", "seat", "ev")
    seated, _ = tables(tourney)
    absent = seated["2"][1]
    reason = "left  at\n21:00 \x1b[31m<b>"  # on one line; what a terminal would obey shown
    done = tourney("result", "forfeit", "ev", "1", "2", "--absent", absent,
                   "--reason", reason, "--json")
    assert done.json["details"]["reason"] == "left at 21:00 \x1b[31m<b>"
    assert "\x1b" not in done.stderr and "(reason: left at 21:00 " in done.stderr
    tourney("result", "forfeit", "ev", "1", "1", "--absent", seated["1"][0])  # no reason
    listed = tourney("result", "forfeit", "ev", "--list", "--json").json
    assert listed == [
        {"round": 1, "table": "1", "absent": [seated["1"][0]], "reason": None},
        {"round": 1, "table": "2", "absent": [absent], "reason": "left at 21:00 \x1b[31m<b>"}]
    assert tourney("result", "forfeit", "ev", "2", "--list", "--json").json == []
    text = tourney("result", "forfeit", "ev", "1", "--list").stdout
    row = next(line for line in text.splitlines() if line.split()[:2] == ["1", "2"])
    assert absent in row and "left at 21:00" in row and "\x1b" not in text
    # taken back, it is gone from the list, and says the reason it had
    undone = tourney("result", "forfeit", "ev", "1", "2", "--undo", "--json").json
    assert undone["details"]["reason"] == "left at 21:00 \x1b[31m<b>"
    assert [f["table"] for f in tourney("result", "forfeit", "ev", "--list",
                                        "--json").json] == ["1"]


def test_a_forfeit_is_refused_a_reason_too_long_and_needs_its_round_and_table(tourney):
    setup(tourney)
    tourney("round", "seat", "ev")
    seated, _ = tables(tourney)
    long = tourney("result", "forfeit", "ev", "1", "2", "--absent", seated["2"][0],
                   "--reason", "x" * 501, "--json", exit_code=2)
    assert "at most 500 characters" in long.json["error"]
    assert tourney("result", "forfeit", "ev", "--list", "--json").json == []
    tourney("result", "forfeit", "ev", "1", "--absent", seated["2"][0], exit_code=2)
    tourney("result", "forfeit", "ev", "1", "2", "--list", exit_code=2)
