"""`rating show --help` says what makes a player provisional: the σ threshold the
service uses (not a count of matches, which the walkthrough found wrong)."""
from __future__ import annotations

from tourney.ratings.models import DEFAULT_SPEC
from tourney.ratings.service import PROVISIONAL_SIGMA_SHARE, provisional_sigma


def test_the_help_names_the_rule_the_service_applies(run_cli):
    text = " ".join(run_cli(None, "rating", "show", "--help").stdout.split())
    threshold = provisional_sigma(DEFAULT_SPEC)
    assert f"above {round(PROVISIONAL_SIGMA_SHARE * 100)}% of the pool's starting sigma" in text
    assert f"above {threshold:.2f} with the default model" in text
    assert f"starts at {DEFAULT_SPEC.params_dict['sigma']:.2f}" in text
    assert "first 2 matches" not in text and "Sigma decides, not a count of matches" in text
