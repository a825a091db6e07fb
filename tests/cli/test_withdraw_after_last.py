"""`event withdraw` once the event's last round is played is refused: there is no
round left to miss, and the site would say they withdrew though they played all."""
from __future__ import annotations

from simulated_rounds import play_round

NAMES = ["Sofia Wik", "Bo Ek", "Cilla", "Dag", "Eva", "Finn", "Gun", "Hans"]


def test_withdrawing_after_the_last_round_is_refused(tourney, tmp_path):
    tourney("player", "add", *NAMES)
    tourney("event", "create", "kv-1", "--variant", "spardame", "--rounds", "1",
            "--table-sizes", "4", "--rule", "deals=1")
    tourney("event", "enter", "kv-1", "--all")
    seating = tourney("round", "seat", "kv-1", "--json").json
    play_round(seating, "kv-1", "spardame", {"deals": "1"}, 1, tmp_path / "r1.csv")
    tourney("result", "import", str(tmp_path / "r1.csv"))
    run = tourney("event", "withdraw", "kv-1", "Bo Ek", exit_code=2)
    assert "last round" in run.stderr and "Bo Ek" in run.stderr
    shown = tourney("event", "show", "kv-1", "--json").json
    assert "withdrew" not in str(shown)
    help_text = " ".join(tourney("event", "withdraw", "--help").stdout.split())
    assert "after the event's last round is played is refused" in help_text
