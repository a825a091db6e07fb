"""`tourney event set --keep-apart/--fix` (issue 31): stored, shown, honoured by
`round seat`/`reseat`, and what cannot be met is said, with why."""
import json


def setup(tourney, clubs=("Vasa", "Vasa", "Vasa", "Norr", "Norr", "Norr", "Syd", "Syd")):
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Fi", "Gu", "Hj"]
    for name, club in zip(names, clubs):
        tourney("player", "add", name, "--club", club)
    tourney("event", "create", "ev", "--variant", "svarta-maja", "--table-sizes", "4",
            "--rounds", "3")
    tourney("event", "enter", "ev", "--all")
    return names


def table_of(seating):
    return {name: t["table"] for t in seating["tables"] for name in t["seats"]}


def test_constraints_are_stored_shown_and_honoured(tourney):
    setup(tourney)
    done = tourney("event", "set", "ev", "--keep-apart", "club", "--keep-apart", "Gu,Hj",
                   "--fix", "Ed=2", "--json")
    assert done.json["changed"]
    assert "Gu and Hj kept apart" in done.stderr and "Ed always at table 2" in done.stderr
    shown = tourney("event", "show", "ev", "--json").json["constraints"]
    assert shown == {"keep_apart_clubs": True, "keep_apart": [["Gu", "Hj"]],
                     "fixed": [{"player": "Ed", "table": 2}]}
    assert "seating constraints: players of one club kept apart" in \
        tourney("event", "show", "ev").stdout
    again = tourney("event", "set", "ev", "--keep-apart", "Hj,Gu", "--json")
    assert not again.json["changed"]  # the pair is kept apart already
    seating = tourney("round", "seat", "ev", "--json").json
    where = table_of(seating)
    assert where["Ed"] == "2"
    assert where["Gu"] != where["Hj"]
    # three of Vasa and three of Norr at two tables: one pair of each must share
    assert seating["unmet"] and {u["reason"] for u in seating["unmet"]} == {"unavoidable"}
    assert {u["club"] for u in seating["unmet"]} == {"Vasa", "Norr"}
    assert len(seating["unmet"]) == 2
    for unmet in seating["unmet"]:
        a, b = unmet["players"]
        assert where[a] == where[b] == unmet["table"]
    shown = tourney("round", "show", "ev", "1", "--json").json
    assert shown["unmet"] == seating["unmet"]
    text = tourney("round", "show", "ev", "1").stdout
    assert "Not met:" in text and "so some share one" in text
    log = tourney("log", "--json").json
    changes = [c for c in log if c["action"] == "event.set"]
    assert changes[-1]["after"]["constraints"]["fixed"] == [{"player": "Ed", "table": 2}]
    assert changes[-1]["actor"]


def test_a_constraint_that_cannot_be_met_is_said(tourney):
    setup(tourney, clubs=[None] * 8)
    tourney("event", "set", "ev", "--fix", "Ann=5", "--fix", "Bo=1")
    seated = tourney("round", "seat", "ev", "--json")
    unmet = seated.json["unmet"]
    assert [(u["kind"], u["players"], u["reason"]) for u in unmet] == [
        ("fixed", ["Ann"], "no-such-table")]
    assert "Ann is fixed to table 5, but the round has 2 tables" in unmet[0]["message"]
    assert "1 seating constraint not met" in seated.stderr
    assert table_of(seated.json)["Bo"] == "1"
    # changing the constraints of a seated round says a reseat would apply them
    changed = tourney("event", "set", "ev", "--unfix", "Ann")
    assert "tourney round reseat ev 1" in changed.stderr
    assert tourney("round", "show", "ev", "1", "--json").json["unmet"] == []


def test_constraints_are_cleared(tourney):
    setup(tourney)
    tourney("event", "set", "ev", "--keep-apart", "club", "--keep-apart", "Ann,Gu,Hj",
            "--fix", "Ann=1")
    shown = tourney("event", "show", "ev", "--json").json["constraints"]
    assert shown["keep_apart"] == [["Ann", "Gu"], ["Ann", "Hj"], ["Gu", "Hj"]]
    tourney("event", "set", "ev", "--no-keep-apart", "--keep-apart", "Bo,Cy", "--unfix", "Ann")
    shown = tourney("event", "show", "ev", "--json").json["constraints"]
    assert shown == {"keep_apart_clubs": False, "keep_apart": [["Bo", "Cy"]], "fixed": []}


def test_bad_constraints_are_refused(tourney):
    setup(tourney)
    tourney("player", "add", "Outsider")
    bad_fix = tourney("event", "set", "ev", "--fix", "Ann", "--json", exit_code=2)
    assert "NAME=TABLE" in bad_fix.json["error"] and bad_fix.json["setting"] == "--fix"
    tourney("event", "set", "ev", "--fix", "Ann=0", exit_code=2)
    alone = tourney("event", "set", "ev", "--keep-apart", "Ann", exit_code=2)
    assert "--keep-apart" in alone.stderr
    unknown = tourney("event", "set", "ev", "--keep-apart", "Ann,Zed", exit_code=2)
    assert "unknown player 'Zed'" in unknown.stderr
    outside = tourney("event", "set", "ev", "--fix", "Outsider=1", exit_code=1)
    assert "Outsider is not entered in ev" in outside.stderr
    unfix = tourney("event", "set", "ev", "--unfix", "Bo", exit_code=1)
    assert "Bo is not fixed" in unfix.stderr and "Traceback" not in unfix.stderr
    assert tourney("event", "show", "ev", "--json").json["constraints"] == {
        "keep_apart_clubs": False, "keep_apart": [], "fixed": []}
    assert not [c for c in tourney("log", "--json").json
                if c["action"] == "event.set" and "constraints" in json.dumps(c)]
