"""`tourney round swap` and `round move` (issue 31): tables without a result only,
the pairs meeting again said, table sizes kept unless --force, in the audit log."""
from arbiter_helpers import add_result, setup, tables


def repeats(round_one, tables_now):
    """The pairs sharing a table now who shared one in round 1."""
    met = {frozenset((a, b)) for t in round_one.values() for a in t for b in t if a != b}
    return {frozenset((a, b)) for t in tables_now.values() for a in t for b in t
            if a != b and frozenset((a, b)) in met}


def test_swap_trades_seats_and_says_the_pairs_meeting_again(tourney, db_url):
    setup(tourney, names=[f"P{i:02}" for i in range(1, 17)])
    tourney("round", "seat", "ev")
    one, _ = tables(tourney, 1)
    for label in one:
        add_result(db_url, 1, label)
    tourney("round", "seat", "ev")
    two, _ = tables(tourney, 2)
    before = repeats(one, two)
    assert tourney("round", "show", "ev", "2", "--json").json["repeated_pairs"] == len(before)
    # a player of round 2's table 1 and one of table 2 trade seats
    a, b = two["1"][0], two["2"][0]
    done = tourney("round", "swap", "ev", "2", a, b, "--reason", "spouses", "--json")
    data = done.json
    assert data["action"] == "round.swap" and data["changed"]
    details = data["details"]
    assert [m["player"] for m in details["moved"]] == [a, b]
    assert details["moved"][0]["to"] == details["moved"][1]["from"] == {"table": "2", "seat": 1}
    after, _ = tables(tourney, 2)
    assert after["1"][0] == b and after["2"][0] == a
    expected = repeats(one, after)
    assert details["repeated_pairs_before"] == len(before)
    assert details["repeated_pairs"] == data["repeated_pairs"] == len(expected) == \
        tourney("round", "show", "ev", "2", "--json").json["repeated_pairs"]
    assert {frozenset(p) for p in details["meet_again"]} == expected - before
    assert f"{len(expected)} pair" in done.stderr and f"(was {len(before)})" in done.stderr
    log = [c for c in tourney("log", "--json").json if c["action"] == "round.swap"]
    assert log[-1]["after"]["reason"] == "spouses" and log[-1]["actor"]
    assert [s["player"] for s in log[-1]["before"]["seats"]] == [a, b]
    # swapping them back makes no pair meet again that did not before
    back = tourney("round", "swap", "ev", "2", a, b, "--json").json["details"]
    assert back["repeated_pairs"] == len(before)
    assert {frozenset(p) for p in back["meet_again"]} == before - expected
    assert tables(tourney, 2)[0] == two


def test_a_swap_or_move_after_a_result_is_refused(tourney, db_url):
    setup(tourney)
    tourney("round", "seat", "ev")
    seated, _ = tables(tourney)
    add_result(db_url, 1, "1")
    before = tables(tourney)
    refused = tourney("round", "swap", "ev", "1", seated["1"][0], seated["2"][0], "--json",
                      exit_code=1)
    assert "table 1" in refused.json["error"] and "result is in" in refused.json["error"]
    moved = tourney("round", "move", "ev", "1", seated["2"][0], "--table", "1", "--force",
                    exit_code=1)
    assert "result is in" in moved.stderr and "Traceback" not in moved.stderr
    assert tables(tourney) == before
    # the table without a result still changes: two of its players trade seats
    tourney("round", "swap", "ev", "1", seated["2"][0], seated["2"][1])
    assert tables(tourney)[0]["2"][:2] == [seated["2"][1], seated["2"][0]]


def test_move_keeps_table_sizes_unless_forced(tourney):
    setup(tourney, names=["Ann", "Bo", "Cy", "Di", "Ed", "Fi", "Gu", "Hj", "Ib"],
          sizes="4-5")
    tourney("round", "seat", "ev")
    seated, _ = tables(tourney)
    big = next(label for label, names in seated.items() if len(names) == 5)
    small = next(label for label, names in seated.items() if len(names) == 4)
    mover = seated[small][1]
    refused = tourney("round", "move", "ev", "1", mover, "--table", big, "--json", exit_code=1)
    assert "breaks the table sizes" in refused.json["error"]
    assert refused.json["setting"] == "--force"
    assert tables(tourney)[0] == seated
    done = tourney("round", "move", "ev", "1", mover, "--table", big, "--force",
                   "--reason", "wheelchair", "--json").json
    assert done["details"]["moved"][0]["to"] == {"table": big, "seat": 6}
    # the sizes forced past are data, worded by the command line (English here)
    assert done["details"]["forced"] == [
        {"size": "over", "table": big, "count": 6, "most": 5},
        {"size": "left", "table": small, "count": 3, "least": 4}]
    assert done["summary"].endswith(
        f"; forced: table {big} seats 6, more than the event's 5; table {small} is left "
        "with 3, fewer than the event's 4")
    # the audit log keeps the data, no English
    logged = tourney("log", "--action", "round.move", "--json").json[-1]
    assert logged["after"]["forced"] == done["details"]["forced"]
    now, _ = tables(tourney)
    assert now[big][-1] == mover and len(now[big]) == 6 and len(now[small]) == 3
    assert now[small] == [n for n in seated[small] if n != mover]  # moved up one seat
    # back: 5 and 4 again, no force needed
    back = tourney("round", "move", "ev", "1", mover, "--table", small, "--json").json
    assert back["details"]["forced"] == []
    # unknown players and tables are usage errors
    tourney("round", "move", "ev", "1", "Nobody", "--table", "1", exit_code=2)
    tourney("round", "move", "ev", "1", mover, "--table", "9", exit_code=2)


def test_a_swap_needs_two_seated_players(tourney):
    setup(tourney)
    tourney("round", "seat", "ev")
    same = tourney("round", "swap", "ev", "1", "Ann", "Ann", exit_code=2)
    assert "twice" in same.stderr
    tourney("round", "swap", "ev", "2", "Ann", "Bo", exit_code=2)  # no round 2


def test_a_substitute_takes_the_seat_of_a_player_who_left(tourney, db_url):
    setup(tourney, names=[f"P{i:02}" for i in range(1, 9)])
    tourney("round", "seat", "ev")
    one, _ = tables(tourney, 1)
    leaving = one["1"][1]
    tourney("player", "add", "Sub")
    # not entered: refused, saying how to enter them
    refused = tourney("round", "substitute", "ev", "1", leaving, "Sub", exit_code=1)
    assert "Sub is not entered in ev" in refused.stderr and "event enter ev" in refused.stderr
    tourney("event", "enter", "ev", "Sub", "--from-round", "1")
    done = tourney("round", "substitute", "ev", "1", leaving, "Sub", "--reason", "left early",
                   "--json")
    assert done.json["action"] == "round.substitute"
    after, _ = tables(tourney, 1)
    assert after["1"][1] == "Sub" and leaving not in after["1"] + after["2"]
    assert f"Sub takes the seat of {leaving} (table 1, seat 2)" in done.stderr
    log = [c for c in tourney("log", "--json").json if c["action"] == "round.substitute"]
    assert log[-1]["after"]["reason"] == "left early"
    # a player already seated in the round is swapped, not substituted
    seated = after["2"][0]
    twice = tourney("round", "substitute", "ev", "1", "Sub", seated, exit_code=1)
    assert f"{seated} sits at table 2" in twice.stderr and "round swap ev 1" in twice.stderr
    # a table whose result is in is not changed
    tourney("player", "add", "Sub2")
    tourney("event", "enter", "ev", "Sub2", "--from-round", "1")
    add_result(db_url, 1, "1")
    late = tourney("round", "substitute", "ev", "1", "Sub", "Sub2", exit_code=1)
    assert "table 1" in late.stderr and "result" in late.stderr
    assert tables(tourney, 1)[0]["1"][1] == "Sub"


def test_a_substitute_for_a_withdrawn_player_plays_the_round_or_is_refused(tourney):
    setup(tourney, names=[f"P{i:02}" for i in range(1, 10)])  # 9: two tables and a bye
    tourney("round", "seat", "ev")
    seated, byes = tables(tourney, 1)
    gone = seated["2"][0]
    tourney("event", "withdraw", "ev", gone)
    tourney("player", "add", "Sub", "Late", "Away")
    tourney("event", "enter", "ev", "Late", "--from-round", "2")
    tourney("event", "enter", "ev", "Sub", "Away", "--from-round", "1")
    # one entered from a later round does not play this one
    late = tourney("round", "substitute", "ev", "1", gone, "Late", exit_code=1)
    assert "Late does not play round 1 of ev (entered from round 2)" in late.stderr
    # nor one marked absent from it
    tourney("round", "absent", "ev", "1", "Away")
    away = tourney("round", "substitute", "ev", "1", gone, "Away", "--json", exit_code=1)
    assert "marked absent" in away.json["error"]
    assert away.json["operation"] == "tourney round absent ev 1 Away --undo"
    # a bye leaves no table waiting
    bye = tourney("round", "substitute", "ev", "1", byes[0], "Sub", exit_code=1)
    assert f"{byes[0]} has a bye" in bye.stderr
    assert tables(tourney, 1) == (seated, byes)
    # the withdrawn player's seat is taken, and the seat list no longer warns of them
    done = tourney("round", "substitute", "ev", "1", gone, "Sub", "--json")
    assert done.json["action"] == "round.substitute"
    assert tables(tourney, 1)[0]["2"][0] == "Sub" and "who withdrew" not in done.stderr
