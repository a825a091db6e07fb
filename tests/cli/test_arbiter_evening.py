"""What an arbiter met on an evening of dam-stick at tables of three and four
(the new-user walk of issue newuser8): each test a finding that was wrong."""
import csv
import io

from arbiter_helpers import add_result, setup


def test_an_import_and_its_history_name_the_actor_as_the_log_does(tourney, db_url, tmp_path):
    # TOURNEY_ACTOR names the arbiter in the audit log; a result's history said
    # the login name instead, so "who corrected this?" had two answers
    setup(tourney, sizes="4", rounds="1")
    tourney("round", "seat", "ev")
    records = tmp_path / "r1.csv"
    records.write_text(tourney("simulate", "--event", "ev", "--round", "1", "--seed", "1",
                               "--deals", "1").stdout, encoding="utf-8")
    arbiter = {"TOURNEY_ACTOR": "Arbiter Åsa"}
    tourney("result", "import", str(records), env=arbiter)
    history = tourney("result", "history", "ev", "1", "1", "--json").json
    assert [v["imported_by"] for v in history] == ["Arbiter Åsa"]
    logged = [c for c in tourney("log", "--json").json if c["action"] == "result.import"]
    assert [c["actor"] for c in logged] == ["Arbiter Åsa"]


def test_a_kept_apart_pair_put_together_by_hand_is_said_so_with_the_swap_that_parts_them(
        tourney):
    # a swap or move that seats a kept-apart pair together was warned about as "no
    # seating found kept them apart": false (the seating had them apart), and no help
    setup(tourney, sizes="4", rounds="1")
    tourney("event", "set", "ev", "--keep-apart", "Ann,Bo")
    seated = tourney("round", "seat", "ev", "--json").json
    assert seated["unmet"] == []
    where = {name: t["table"] for t in seated["tables"] for name in t["seats"]}
    mate = next(n for n in seated["tables"][int(where["Bo"]) - 1]["seats"] if n != "Bo")
    swapped = tourney("round", "swap", "ev", "1", "Ann", mate)
    assert "no seating found" not in swapped.stderr
    unmet = tourney("round", "show", "ev", "1", "--json").json["unmet"]
    assert [(u["players"], u["reason"]) for u in unmet] == [(["Ann", "Bo"], "partable")]
    swap = unmet[0]["swap"]
    assert swap["player"] in ("Ann", "Bo") and swap["table"] != where["Bo"]
    assert (f"swapping {swap['player']} and {swap['other']} (table {swap['table']}) parts "
            "them") in unmet[0]["message"] and unmet[0]["message"] in swapped.stderr
    # the swap said does part them
    tourney("round", "swap", "ev", "1", swap["player"], swap["other"])
    assert tourney("round", "show", "ev", "1", "--json").json["unmet"] == []


def test_a_correction_after_the_next_round_is_seated_keeps_what_it_was_and_why(
        tourney, tmp_path):
    # the log's row of a replaced result said only an internal version id, and the
    # import took no reason: "who changed table 1, from what, and why?" had no answer
    setup(tourney, sizes="4", rounds="2")
    tourney("round", "seat", "ev")
    first = tmp_path / "r1.csv"
    first.write_text(tourney("simulate", "--event", "ev", "--round", "1", "--seed", "1",
                             "--deals", "1").stdout, encoding="utf-8")
    tourney("result", "import", str(first))
    tourney("round", "seat", "ev")  # round 2 is seated; then table 1's sheet is found wrong
    seats = tourney("round", "show", "ev", "1", "--json").json["tables"][0]["seats"]
    other = tourney("simulate", "svarta-maja", "--players", "4", "--deals", "1", "--seed",
                    "5").stdout
    for i, name in enumerate(seats, 1):
        other = other.replace(f"P{i}", name)
    lines = other.splitlines()
    fixed = tmp_path / "fixed.csv"
    fixed.write_text("\n".join([lines[0]] + ["ev" + line[line.index(","):]
                                             for line in lines[1:]]) + "\n", encoding="utf-8")
    tourney("result", "import", str(fixed), "--replace", "--reason", "scorer's slip",
            env={"TOURNEY_ACTOR": "Arbiter Åsa"})
    history = tourney("result", "history", "ev", "1", "1", "--json").json
    assert [v["version"] for v in history] == [1, 2] and history[1]["current"]
    row = [c for c in tourney("log", "--json").json if c["action"] == "result.replace"][-1]
    assert row["actor"] == "Arbiter Åsa" and row["subject"] == "ev round 1 table 1"
    assert row["before"]["version"] == 1 and row["before"]["file"] == "r1.csv"
    assert row["before"]["ranking"] == history[0]["ranking"]
    assert row["after"]["ranking"] == history[1]["ranking"]
    assert row["after"]["reason"] == "scorer's slip"
    imported = [c for c in tourney("log", "--json").json if c["action"] == "result.import"]
    assert imported[-1]["after"]["reason"] == "scorer's slip"
    too_long = tourney("result", "import", str(first), "--replace", "--reason", "x" * 501,
                       exit_code=2)
    assert "a reason is at most 500 characters" in too_long.stderr
    assert "Traceback" not in too_long.stderr


def test_a_forfeit_naming_the_wrong_table_says_the_players_own(tourney):
    # `result forfeit ev 1 1 --absent X` with X at table 2 (a slip of the table's
    # number) listed table 1's players but not where X sits
    setup(tourney, sizes="4", rounds="1")
    seated = tourney("round", "seat", "ev", "--json").json["tables"]
    stranger = seated[1]["seats"][0]
    refused = tourney("result", "forfeit", "ev", "1", "1", "--absent", stranger, exit_code=1)
    assert (f"{stranger} not seated at ev round 1, table 1, which seats "
            f"{', '.join(seated[0]['seats'])}; {stranger} sits at table 2") in refused.stderr


def test_the_log_in_the_terminal_says_who_moved_and_why(tourney):
    # `tourney log` said "round.swap  ev round 1" with neither the players nor the
    # reason: the arbiter had to read --json to answer "who, and why?"
    setup(tourney, sizes="4", rounds="1")
    seated = tourney("round", "seat", "ev", "--json").json["tables"]
    a, b = seated[0]["seats"][0], seated[1]["seats"][0]
    tourney("round", "swap", "ev", "1", a, b, "--reason", "keeps score")
    lines = tourney("log", "--event", "ev", "--action", "round.swap").stdout.splitlines()
    assert lines[0].split() == ["id", "at", "actor", "action", "event", "subject", "reason"]
    assert f"ev round 1: {a}, {b}" in lines[1] and lines[1].rstrip().endswith("keeps score")
    rows = list(csv.reader(io.StringIO(tourney("log", "--csv").stdout)))
    assert rows[0][-1] == "reason"
    assert [r for r in rows if r[3] == "round.swap"][0][-1] == "keeps score"


def test_scoring_that_rewards_big_tables_is_warned_of_at_mixed_table_sizes(tourney):
    # the guide says place points and Buchholz reward big tables and suit one table
    # size only; an arbiter used to chess's Buchholz got no word of it at 3-4
    made = tourney("event", "create", "mixed", "--variant", "dam-stick", "--table-sizes",
                   "3-4", "--points", "place", "--tiebreaks", "buchholz,wins")
    assert ("warning: tables of 3-4 players: place points reward sitting at the bigger "
            "tables") in made.stderr
    assert "the buchholz tie-break rewards sitting at the bigger tables" in made.stderr
    assert "wins tie-break" not in made.stderr  # a count, not a sum of opponents
    even = tourney("event", "create", "even", "--variant", "dam-stick", "--table-sizes", "4",
                   "--points", "place", "--tiebreaks", "buchholz")
    assert "warning" not in even.stderr
    widened = tourney("event", "set", "even", "--table-sizes", "3-4")
    assert "place points reward sitting at the bigger tables" in widened.stderr
    fair = tourney("event", "set", "mixed", "--points", "share", "--tiebreaks", "opponents")
    assert "warning" not in fair.stderr
    assert "warning" not in tourney("event", "set", "mixed", "--name", "Mixed").stderr


def test_a_round_with_every_result_in_says_no_time_left(tourney, db_url):
    # `round show` of a finished round said "time left: 36 min" beside "results in
    # for 5 of 5 tables"
    setup(tourney, sizes="4", rounds="2")
    tourney("round", "seat", "ev")
    tourney("round", "start", "ev", "1", "--minutes", "40")
    assert "time left" in tourney("round", "show", "ev", "1").stderr
    add_result(db_url, 1, "1")
    assert "time left" in tourney("round", "show", "ev", "1").stderr  # table 2 plays on
    add_result(db_url, 1, "2")
    done = tourney("round", "show", "ev", "1")
    assert "results in for 2 of 2 tables" in done.stderr and "time left" not in done.stderr
    assert tourney("round", "show", "ev", "1", "--json").json["clock"]["minutes"] == 40
