"""`event withdraw` once the event's last round is played is refused: there is no
round left to miss, and the site would say they withdrew though they played all."""
from __future__ import annotations

from simulated_rounds import one_deal_event_round_one_played

NAMES = ["Sofia Wik", "Bo Ek", "Cilla", "Dag", "Eva", "Finn", "Gun", "Hans"]


def test_withdrawing_after_the_last_round_is_refused(tourney, tmp_path):
    one_deal_event_round_one_played(tourney, tmp_path, "kv-1", NAMES, rounds=1)
    run = tourney("event", "withdraw", "kv-1", "Bo Ek", exit_code=1)  # refused, as `enter` is
    assert "last round" in run.stderr and "Bo Ek" in run.stderr
    shown = tourney("event", "show", "kv-1", "--json").json
    assert "withdrew" not in str(shown)
    help_text = " ".join(tourney("event", "withdraw", "--help").stdout.split())
    assert "after the event's last round is played is refused" in help_text
