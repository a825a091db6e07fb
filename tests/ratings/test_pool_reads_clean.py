"""A rating pool without options reads cleanly: no empty "()" or "{}", no Python
spellings (False, 8.333333333333334) in what `rating pool` and `rating predict`
print; what was changed from openskill's defaults is named."""
from __future__ import annotations


def test_a_pool_with_the_defaults_reads_cleanly(tourney):
    tourney("player", "add", "Ana Berg", "Bo Ek")
    shown = tourney("rating", "pool", "dam-brade")
    text = shown.stdout
    assert "model: PlackettLuce (openskill's default parameters)" in text
    assert "  sigma: 8.33333\n" in text and "  limit_sigma: false\n" in text
    assert "  mu: 25\n" in text
    for noise in ("()", "{}", "None", "null", "False", "8.333333333333334", "(changed)"):
        assert noise not in text, (noise, text)
    predicted = tourney("rating", "predict", "--variant", "dam-brade", "Ana Berg", "Bo Ek")
    assert predicted.stderr.strip().endswith("dam-brade, PlackettLuce"), predicted.stderr
    as_json = tourney("rating", "predict", "--variant", "dam-brade", "Ana Berg", "Bo Ek",
                      "--json").json
    assert as_json["model"] == "PlackettLuce"
    # JSON keeps the raw values
    params = tourney("rating", "pool", "dam-brade", "--json").json["params"]
    assert params["limit_sigma"] is False and params["sigma"] == 25 / 3


def test_a_changed_parameter_is_named(tourney):
    tourney("player", "add", "Ana Berg", "Bo Ek")
    tourney("rating", "pool", "dam-brade", "--param", "tau=0", "--param", "limit_sigma=yes",
            "--yes")
    text = tourney("rating", "pool", "dam-brade").stdout
    assert "model: PlackettLuce\n" in text
    assert "  tau: 0 (changed)\n" in text and "  limit_sigma: true (changed)\n" in text
    assert "  sigma: 8.33333\n" in text
    predicted = tourney("rating", "predict", "--variant", "dam-brade", "Ana Berg", "Bo Ek")
    assert "dam-brade, PlackettLuce(tau=0, limit_sigma=true)" in predicted.stderr
