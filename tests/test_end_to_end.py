"""A whole event through the CLI: players, event, seating, records, import, standings.

The records are played by the simulation's bots for the tables the seating printed
(players in seat order, seat 0 dealing first), so this checks that the seating, the
importer and the standings agree with each other on every backend.
"""
from __future__ import annotations

import csv
from pathlib import Path

import pytest
from conftest import run_cli
from simulated_rounds import play_round

PLAYERS = [
    ("Åsa Öberg", "Dam-klubben Vasa"), ("Björn Ærø", ""), ("Øystein Nå", ""),
    ("Märta Ek", ""), ("Jörgen Lind", ""), ("Kari Nordmann", ""), ("Ola Dahl", ""),
    ("Sirkka Mäkinen", ""), ("Tove Strand", ""), ("Ulf Holm", ""), ("Vera Berg", ""),
    ("Ylva Sand", ""),
]


def write_players(path, players):
    with open(path, "w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["name", "club"])
        writer.writerows(players)
    return path


@pytest.mark.parametrize("variant, sizes, rules, seating_method, players", [
    ("spardame", "4", {"deals": "2"}, "balanced", PLAYERS),
    ("dam-brade", "2", {"games": "2"}, "swiss", PLAYERS[:8]),
])
def test_an_event_from_entry_to_standings(tourney, tmp_path, variant, sizes, rules,
                                          seating_method, players):
    slug = f"e2e-{variant}"
    tourney("player", "import", str(write_players(tmp_path / "players.csv", players)))
    rule_args = [a for key, value in rules.items() for a in ("--rule", f"{key}={value}")]
    tourney("event", "create", slug, "--variant", variant, "--table-sizes", sizes,
            "--rounds", "3", "--seed", "2026", "--seating", seating_method, *rule_args)
    tourney("event", "enter", slug, "--all")

    size = int(sizes)
    expected_points = 0.0
    tables_played = 0
    for number in (1, 2, 3):
        seating = tourney("round", "seat", slug, "--json").json
        assert seating["round"] == number
        seated = [name for table in seating["tables"] for name in table["seats"]]
        assert sorted(seated + seating["byes"]) == sorted(p for p, _ in players)
        assert all(len(t["seats"]) == size for t in seating["tables"])
        path = tmp_path / f"round-{number}.csv"
        play_round(seating, slug, variant, rules, seed=number, path=path)

        report = tourney("result", "import", str(path), "--json").json["details"]
        assert report["added"] == len(seating["tables"]) and report["rejected"] == 0
        again = tourney("result", "import", str(path), "--json").json["details"]
        assert again["added"] == 0 and again["unchanged"] == len(seating["tables"])
        # shares: a table of n hands out n/2 points whatever its places
        expected_points += len(seating["tables"]) * size / 2
        tables_played += len(seating["tables"])

        standings = tourney("standings", slug, "--json").json
        assert sorted(row["player"] for row in standings) == sorted(p for p, _ in players)
        assert sum(row["points"] for row in standings) == pytest.approx(expected_points, abs=0.1)
        places = [row["place"] for row in standings]
        assert places[0] == 1 and places == sorted(places)
        for index, row in enumerate(standings):
            sharing = [other for other in standings if other["place"] == row["place"]]
            assert row["place"] == 1 + standings.index(sharing[0])
            assert row["shared"] is (len(sharing) > 1)
            if index == 0:
                assert row["decided_by"] is None
            elif row is not sharing[0]:  # nothing separates it from the one above
                assert row["decided_by"] == "shared"
            else:
                assert row["decided_by"] in ("points", "opponents", "score", "wins")

    # every round is in; a fourth cannot be seated; the export round-trips and validates
    tourney("round", "seat", slug, exit_code=1)
    exported = tmp_path / "export.csv"
    tourney("result", "export", slug, "--out", str(exported))
    report = tourney("result", "import", str(exported), "--json").json["details"]
    assert (report["added"], report["replaced"], report["rejected"]) == (0, 0, 0)
    assert report["unchanged"] == tables_played
    run_cli(None, "validate", str(exported), *rule_args)
    plain = tourney("standings", slug).stdout
    assert players[0][0] in plain


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_the_example_records_fit_the_seating_the_tool_produces(tourney):
    """examples/round-N.csv were made for the seating of run-example.sh's event; if
    the seating changes, examples/make_records.py must be run again."""
    tourney("player", "import", str(EXAMPLES / "players.csv"))
    tourney("event", "create", "example-cup", "--name", "Example Cup", "--variant",
            "spardame", "--table-sizes", "3-5", "--rounds", "3", "--seed", "2026",
            "--rule", "deals=3")
    tourney("event", "enter", "example-cup", "--all")
    short_seats = {}
    repeats = 0
    for number in (1, 2, 3):
        seating = tourney("round", "seat", "example-cup", "--json").json
        assert sorted(len(t["seats"]) for t in seating["tables"]) == [3, 3, 4, 4]
        repeats += seating["repeated_pairs"]
        for table in seating["tables"]:
            for name in table["seats"]:
                short_seats[name] = short_seats.get(name, 0) + (len(table["seats"]) == 3)
        report = tourney("result", "import", str(EXAMPLES / f"round-{number}.csv"),
                         "--event", "example-cup", "--json").json["details"]
        assert (report["added"], report["rejected"]) == (4, 0)
    # 14 players, 6 seats at tables of 3 a round: no pair meets twice (that comes
    # first), and the short tables are shared out as far as that allows
    assert repeats == 0
    assert len(short_seats) == 14 and max(short_seats.values()) <= 3
    standings = tourney("standings", "example-cup", "--json").json
    assert len(standings) == 14
    # shares: a table of n hands out n/2 points; 2 + 2 + 1.5 + 1.5 a round
    assert sum(row["points"] for row in standings) == pytest.approx(3 * 7, abs=0.1)
    script = (EXAMPLES / "example-event.sh").read_text()  # run-example.sh's event
    assert "--seed 2026" in script and "--rule deals=3" in script
    assert "--table-sizes 3-5" in script
