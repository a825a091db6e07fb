"""`event withdraw` without --from-round: the latest seated round while none of
its results is in (as its help says), else the next round."""
from __future__ import annotations

NAMES = ["Sofia Wik", "Bo Ek", "Cilla", "Dag", "Eva", "Finn", "Gun", "Hans"]


def one_round_event(tourney) -> None:
    tourney("player", "add", *NAMES)
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
