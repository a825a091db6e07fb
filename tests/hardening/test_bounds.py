"""Numbers have one bound, the same in help, validation and the engines' caps,
checked when given: `--rule deals=99999999999999999999` is refused at `event
create` (it once grew a score sheet at 100 MB/s), `--rounds` says 1 to 1000 in its
help and refuses 5000 with the same words."""
from __future__ import annotations

import pytest

from tourney.engines import get_game, variant_ids
from tourney.engines.base import MAX_DEALS_PER_MATCH, MAX_INT_OPTION
from tourney.records.validation import MAX_DEALS_PER_MATCH as CHECKER_MAX_DEALS
from tourney.tournament.events import MAX_ROUNDS


@pytest.mark.parametrize("rule", ["deals=99999999999999999999", f"deals={MAX_DEALS_PER_MATCH + 1}",
                                  "target=99999999999", "target=-99999999999"])
def test_huge_rules_are_refused_when_given(tourney, rule):
    variant = "spardame" if rule.startswith("deals") else "dam-stick"
    result = tourney("event", "create", "hd", "--variant", variant, "--rule", rule, exit_code=2)
    assert result.stderr.startswith("Error: option ") and "must be at " in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert tourney("event", "list", "--json").json == []


def test_the_deals_bound_is_the_checkers():
    assert MAX_DEALS_PER_MATCH == CHECKER_MAX_DEALS
    game = get_game("spardame")
    assert game.resolve_options({"deals": str(MAX_DEALS_PER_MATCH)})["deals"] == MAX_DEALS_PER_MATCH


def test_every_whole_number_option_is_bounded():
    for variant in variant_ids():
        for spec in get_game(variant).option_specs:
            if spec.kind == "int":
                assert spec.maximum <= MAX_INT_OPTION, (variant, spec.key)
                with pytest.raises(Exception, match="at most"):
                    spec.parse(str(10 ** 20))


def test_rounds_help_and_check_agree(tourney):
    help_text = " ".join(tourney("event", "create", "--help").stdout.split())
    assert f"The number of rounds, 1 to {MAX_ROUNDS}" in help_text
    result = tourney("event", "create", "hd", "--variant", "kortrad", "--rounds",
                     str(MAX_ROUNDS + 1), exit_code=2)
    assert f"1<=x<={MAX_ROUNDS}" in result.stderr
    tourney("event", "create", "hd", "--variant", "kortrad", "--rounds", str(MAX_ROUNDS))


def test_deal_counts_are_bounded(tourney, run_cli):
    too_many = str(MAX_DEALS_PER_MATCH + 1)
    result = run_cli(None, "simulate", "kortrad", "--players", "4", "--deals", too_many,
                     exit_code=2)
    assert f"1<=x<={MAX_DEALS_PER_MATCH}" in result.stderr
    result = tourney("round", "sheet", "hd", "1", "--deals", too_many, exit_code=2)
    assert f"1<=x<={MAX_DEALS_PER_MATCH}" in result.stderr
