"""More than one bye in a round (each worth a win by default) is warned about by
`round seat` and `round reseat`, naming the players and only the changes the
event can still take."""
from __future__ import annotations

from simulated_rounds import play_round

SEVEN = ["Anna", "Cilla", "Dag", "Eva", "Fia", "Gun", "Hans"]


def seven_at_four(tourney, *extra) -> None:
    tourney("player", "add", *SEVEN)
    tourney("event", "create", "ev", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2", *extra)
    tourney("event", "enter", "ev", "--all")


def test_seating_three_byes_warns_and_names_what_helps(tourney):
    seven_at_four(tourney)
    seated = tourney("round", "seat", "ev", "--json")
    byes = seated.json["byes"]
    assert len(byes) == 3
    [warning] = seated.json["details"]["warnings"]
    assert warning["warning"] == "byes" and warning["players"] == byes
    assert warning["table_sizes"] == "3-4" and warning["bye_points_can_change"] is True
    text = f"warning: 3 players get a bye, each worth 1 point: {', '.join(byes)}"
    assert text in seated.stderr and warning["message"] in seated.stderr
    assert "(7 players at tables of exactly 4)" in seated.stderr
    assert "`tourney event set ev --table-sizes 3-4`, then `tourney round reseat ev 1`" \
        in seated.stderr
    assert "`tourney event set ev --bye-points X`" in seated.stderr
    assert "warning" not in seated.stdout.replace('"warning"', "").replace('"warnings"', "")
    # what it suggests works, and then there is nothing to warn about
    tourney("event", "set", "ev", "--table-sizes", "3-4")
    reseated = tourney("round", "reseat", "ev", "1", "--json")
    assert reseated.json["byes"] == [] and reseated.json["details"]["warnings"] == []
    assert "warning" not in reseated.stderr


def test_reseat_warns_too(tourney):
    seven_at_four(tourney)
    tourney("round", "seat", "ev")
    again = tourney("round", "reseat", "ev", "1", "--seed", "5")
    assert "warning: 3 players get a bye" in again.stderr


def test_a_bye_worth_less_is_not_offered_once_byes_have_results(tourney, tmp_path):
    seven_at_four(tourney)
    first = tourney("round", "seat", "ev", "--json").json
    play_round(first, "ev", "spardame", {"deals": "2"}, 1, tmp_path / "r1.csv")
    tourney("result", "import", str(tmp_path / "r1.csv"))
    second = tourney("round", "seat", "ev", "--json")
    [warning] = second.json["details"]["warnings"]
    assert warning["bye_points_can_change"] is False
    assert "--bye-points" not in second.stderr and "--table-sizes 3-4" in second.stderr
    refused = tourney("event", "set", "ev", "--bye-points", "0.5", exit_code=1)
    assert "round 1 gave byes and has results in" in refused.stderr


def test_one_bye_or_none_is_no_warning(tourney):
    tourney("player", "add", *SEVEN[:5])
    tourney("event", "create", "ev", "--variant", "spardame", "--table-sizes", "4")
    tourney("event", "enter", "ev", "--all")
    seated = tourney("round", "seat", "ev", "--json")
    assert len(seated.json["byes"]) == 1 and seated.json["details"]["warnings"] == []
    assert "warning" not in seated.stderr


def test_byes_worth_nothing_are_not_offered_a_lower_worth(tourney):
    seven_at_four(tourney, "--bye-points", "0")
    seated = tourney("round", "seat", "ev", "--json")
    [warning] = seated.json["details"]["warnings"]
    assert "each worth 0 points" in warning["message"]
    assert warning["bye_points_can_change"] is False and "--bye-points" not in seated.stderr
    assert warning["table_sizes"] == "3-4"
