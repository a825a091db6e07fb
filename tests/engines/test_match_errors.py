"""Every independent problem of a match, none that follows from another
(tourney/engines/match.py: match_errors, the careful path behind check_match)."""
from tourney.engines.base import MatchRules
from tourney.engines.match import PlayedDeal, check_match, match_errors

P = ["Ann", "Bo", "Cai", "Dag"]
ZERO = [0, 0, 0, 25]


def deals(count, *, numbers=None, dealers=None, players=None, scores=None):
    """``count`` deals of P, dealt in turn, each line the deal's index + 2."""
    numbers = numbers or list(range(1, count + 1))
    out = []
    for index, number in enumerate(numbers):
        out.append(PlayedDeal(index + 2, number, list((players or {}).get(number, P)),
                              (dealers or {}).get(number, P[(number - 1) % 4]),
                              (scores or {}).get(number, list(ZERO))))
    return out


def rules_of(errors):
    return [(err.rule, err.line) for err in errors]


def test_each_gap_in_the_numbering_is_one_error():
    found = match_errors(MatchRules(), deals(4, numbers=[1, 2, 4, 6]))
    assert rules_of(found) == [("deal-numbering", 4), ("deal-numbering", 5)]
    assert "deal 4 where deal 3 was due" in found[0].message


def test_a_gap_is_not_said_when_a_rows_number_is_unknown():
    # an unreadable row may be the missing deal: its number is not known
    assert match_errors(MatchRules(), deals(3, numbers=[1, 2, 4]), numbered=False) == []


def test_no_dealer_is_judged_across_a_gap():
    # deal 3 is missing: Bo (deal 2) then Dag (deal 4) is two turns, not a wrong one
    assert rules_of(match_errors(MatchRules(), deals(4, numbers=[1, 2, 4, 5]))) == [
        ("deal-numbering", 4)]


def test_a_gap_and_an_independent_dealer_error_are_both_said():
    found = match_errors(MatchRules(), deals(4, numbers=[1, 2, 3, 5], dealers={2: "Cai"}))
    assert rules_of(found) == [("dealer-rotation", 3), ("deal-numbering", 5)]
    assert "Cai deals, but Bo should" in found[0].message


def test_one_dealer_error_a_match_the_next_dealers_may_follow_from_it():
    # deal 2 dealt by the wrong seat and the rotation going on from there: one mistake
    found = match_errors(MatchRules(), deals(4, dealers={2: "Cai", 3: "Dag", 4: "Ann"}))
    assert rules_of(found) == [("dealer-rotation", 3)]


def test_one_players_error_and_no_dealer_judged_at_a_deal_with_other_players():
    found = match_errors(MatchRules(), deals(4, players={2: ["Bo", "Ann", "Cai", "Dag"],
                                                          3: ["Bo", "Ann", "Cai", "Dag"]}))
    assert rules_of(found) == [("same-players", 3)]
    assert "seat order changes" in found[0].message


def test_the_end_rule_and_a_dealer_error_are_both_said():
    rules = MatchRules(deals=2)
    found = match_errors(rules, deals(3, dealers={2: "Dag"}))
    assert rules_of(found) == [("dealer-rotation", 3), ("match-too-long", 4)]
    # the deal past the end has no dealer judged
    assert rules_of(match_errors(rules, deals(3, dealers={3: "Ann"}))) == [("match-too-long", 4)]


def test_a_fixed_length_is_judged_without_the_scores_but_a_target_is_not():
    refused = deals(3)
    refused[1].scores = None  # a deal the engine refused: its scores are not known
    assert rules_of(match_errors(MatchRules(deals=2), refused)) == [("match-too-long", 4)]
    assert match_errors(MatchRules(target=100), refused) == []
    # and with a gap, the length is the gap's follow-on: only the gap is said
    assert rules_of(match_errors(MatchRules(deals=4), deals(3, numbers=[1, 2, 4]))) == [
        ("deal-numbering", 4)]


def test_a_deal_whose_players_or_dealer_were_refused_on_its_row_is_not_compared():
    ds = deals(3)
    ds[1].players = None  # its row was refused for its players
    ds[1].dealer = None
    assert match_errors(MatchRules(), ds) == []


def test_what_check_match_refuses_is_among_what_match_errors_finds():
    cases = [
        (MatchRules(), deals(2, numbers=[1, 3])),
        (MatchRules(), deals(2, dealers={2: "Cai"})),
        (MatchRules(deals=2), deals(3)),
        (MatchRules(deals=3), deals(2)),
        (MatchRules(target=100), deals(2)),
        (MatchRules(), deals(2, players={2: ["Ann", "Bo", "Cai", "Eve"]})),
    ]
    for rules, played in cases:
        try:
            check_match(rules, played)
        except Exception as err:
            assert (err.rule, err.line) in rules_of(match_errors(rules, played)), err
        else:
            raise AssertionError(f"check_match took {played}")
    assert match_errors(MatchRules(deals=2), deals(2)) == []


def test_a_dealer_who_is_not_at_the_table_is_left_to_the_deal_s_own_error():
    # found by the reader's fuzzing: a shifted row put the game's name in the dealer
    # column; the deal reports it, and the next deal's rotation is not judged from it
    found = match_errors(MatchRules(), deals(3, dealers={1: "svarta-maja"}))
    assert found == []
    found = match_errors(MatchRules(), deals(3, dealers={1: "svarta-maja", 3: "Ann"}))
    assert rules_of(found) == [("dealer-rotation", 4)]
