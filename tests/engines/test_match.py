"""The generic match rules (tourney/engines/match.py)."""
import pytest

from tourney.engines.base import MatchRules
from tourney.engines.match import PlayedDeal, check_match, rank_totals
from tourney.errors import RecordError

P = ["Ann", "Bo", "Cai", "Dag"]


def deals(scores, players=P, dealers=None, numbers=None):
    out = []
    for i, s in enumerate(scores):
        dealer = dealers[i] if dealers else players[i % len(players)]
        out.append(PlayedDeal(line=i + 2, number=(numbers[i] if numbers else i + 1),
                              players=list(players), dealer=dealer, scores=list(s)))
    return out


def test_no_end_rule_takes_the_deals_as_they_come():
    result = check_match(MatchRules(), deals([[0, 10, 20, 30], [5, 0, 0, 0]]))
    assert result.totals == {"Ann": 5, "Bo": 10, "Cai": 20, "Dag": 30}
    assert result.ranking == [("Ann", 1), ("Bo", 2), ("Cai", 3), ("Dag", 4)]


def test_shared_places():
    assert rank_totals({"a": 5, "b": 5, "c": 1}, False) == [("c", 1), ("a", 2), ("b", 2)]
    assert rank_totals({"a": 1, "b": 0.5, "c": 1}, True) == [("a", 1), ("c", 1), ("b", 3)]


def test_deal_numbers_without_gaps():
    with pytest.raises(RecordError) as err:
        check_match(MatchRules(), deals([[0, 0, 0, 25]] * 2, numbers=[1, 3]))
    assert err.value.rule == "deal-numbering" and err.value.line == 3


def test_same_players_and_seat_order():
    ds = deals([[0, 0, 0, 25]] * 2)
    ds[1].players = ["Ann", "Bo", "Cai", "Eve"]
    with pytest.raises(RecordError) as err:
        check_match(MatchRules(), ds)
    assert err.value.rule == "same-players"
    ds[1].players = ["Bo", "Ann", "Cai", "Dag"]
    ds[1].dealer = "Ann"
    with pytest.raises(RecordError, match="seat order"):
        check_match(MatchRules(), ds)


def test_dealer_rotates_clockwise():
    with pytest.raises(RecordError) as err:
        check_match(MatchRules(), deals([[0, 0, 0, 25]] * 2, dealers=["Ann", "Cai"]))
    assert err.value.rule == "dealer-rotation" and "Bo should" in err.value.message
    check_match(MatchRules(dealer="free"), deals([[0, 0, 0, 25]] * 2, dealers=["Ann", "Cai"]))


def test_loser_deals():
    rules = MatchRules(dealer="loser-deals")
    check_match(rules, deals([[0, 0, 1, 0], [1, 0, 0, 0]], dealers=["Ann", "Cai"]))
    with pytest.raises(RecordError, match="loser"):
        check_match(rules, deals([[0, 0, 1, 0], [1, 0, 0, 0]], dealers=["Ann", "Bo"]))


def test_fixed_deals_exactly():
    rules = MatchRules(deals=2)
    check_match(rules, deals([[0, 0, 0, 25]] * 2))
    with pytest.raises(RecordError) as err:
        check_match(rules, deals([[0, 0, 0, 25]] * 3))
    assert err.value.rule == "match-too-long" and err.value.line == 4
    with pytest.raises(RecordError) as err:
        check_match(rules, deals([[0, 0, 0, 25]]))
    assert err.value.rule == "match-incomplete"


def test_target_ends_with_the_deal_that_reaches_it():
    rules = MatchRules(target=100)
    check_match(rules, deals([[0, 0, 50, 0], [0, 0, 50, 0]]))
    with pytest.raises(RecordError, match="target 100"):
        check_match(rules, deals([[0, 0, 50, 0]]))
    with pytest.raises(RecordError) as err:
        check_match(rules, deals([[0, 0, 100, 0], [0, 0, 0, 1]]))
    assert err.value.rule == "match-too-long"


def test_target_with_extra_deals_while_the_lowest_total_is_shared():
    rules = MatchRules(target=100, tie_extra=True)
    tied = [[0, 0, 100, 25], [0, 0, 0, 0]]  # Ann and Bo share 0 after deal 1
    with pytest.raises(RecordError, match="shared"):
        check_match(rules, deals(tied[:1]))
    with pytest.raises(RecordError, match="shared"):
        check_match(rules, deals(tied))
    result = check_match(rules, deals(tied + [[5, 0, 10, 10]]))
    assert result.ranking[0] == ("Bo", 1)


def test_losses():
    rules = MatchRules(losses=2, dealer="loser-deals")
    result = check_match(rules, deals([[0, 1, 0, 0], [0, 1, 0, 0]], dealers=["Ann", "Bo"]))
    assert result.ranking[-1] == ("Bo", 4) and result.ranking[0][1] == 1
    with pytest.raises(RecordError, match="lost 2"):
        check_match(rules, deals([[0, 1, 0, 0]]))


def test_colours_alternate():
    rules = MatchRules(deals=2, dealer=None, higher_is_better=True, alternate_colours=True)
    games = [PlayedDeal(2, 1, ["Ann", "Bo"], None, [1, 0]),
             PlayedDeal(3, 2, ["Bo", "Ann"], None, [0.5, 0.5])]
    assert check_match(rules, games).ranking == [("Ann", 1), ("Bo", 2)]
    games[1].players = ["Ann", "Bo"]
    with pytest.raises(RecordError) as err:
        check_match(rules, games)
    assert err.value.rule == "colours-alternate"
