"""The season's rules alone (tourney.tournament.season, no database): best N,
min-events, placing points, handicaps, the tie-break chain and team totals, each
worked out by hand here."""
from __future__ import annotations

import random
from fractions import Fraction

from tourney.tournament.season import (
    EventResult,
    SeriesRules,
    placing_value,
    series_table,
    team_table,
)
from tourney.tournament.tiebreaks import lot_draw

NAMES = {1: "Anna", 2: "Bo", 3: "Cai", 4: "Dag", 5: "Eva"}


def event(*results):
    """(player id, points, place) -> the event's results."""
    return [EventResult(pid, NAMES[pid], points, place) for pid, points, place in results]


# Anna 3, 1, 2.5; Bo 2, 3; Cai 1, 2; Dag 0; Eva 0, 1.5
EVENTS = [event((1, 3, 1), (2, 2, 2), (3, 1, 3), (4, 0, 4)),
          event((2, 3, 1), (3, 2, 2), (1, 1, 3), (5, 0, 4)),
          event((1, 2.5, 1), (5, 1.5, 2))]


def by_player(rows):
    return {row.player: row for row in rows}


def test_every_event_counts_without_best():
    rows = series_table(SeriesRules(), EVENTS)
    assert [(r.player, r.total, r.place) for r in rows] == [
        ("Anna", Fraction(13, 2), 1), ("Bo", 5, 2), ("Cai", 3, 3), ("Eva", Fraction(3, 2), 4),
        ("Dag", 0, 5)]
    assert all(c.counted for r in rows for c in r.cells if c is not None)
    anna = by_player(rows)["Anna"]
    assert [c.gross if c else None for c in anna.cells] == [3, 1, Fraction(5, 2)]
    assert by_player(rows)["Bo"].cells[2] is None  # not played


def test_best_two_drop_the_lowest_result():
    rows = by_player(series_table(SeriesRules(best=2), EVENTS))
    # Anna: 3 + 2.5 (her 1 dropped)
    assert rows["Anna"].total == Fraction(11, 2)
    assert [c.counted for c in rows["Anna"].cells] == [True, False, True]
    assert rows["Anna"].counted == 2 and rows["Anna"].played == 3
    assert rows["Bo"].total == 5 and rows["Bo"].counted == 2


def test_equal_results_the_earlier_event_counts():
    rows = series_table(SeriesRules(best=1), [event((1, 2, 1)), event((1, 2, 1))])
    assert [c.counted for c in rows[0].cells] == [True, False]


def test_min_events_lists_the_unqualified_after_without_a_place():
    rows = series_table(SeriesRules(best=2, min_events=2), EVENTS)
    assert [(r.player, r.place, r.qualified) for r in rows] == [
        ("Anna", 1, True), ("Bo", 2, True), ("Cai", 3, True), ("Eva", 4, True),
        ("Dag", None, False)]
    assert rows[-1].decided_by == "qualified"
    # a qualified player ranks above an unqualified one with more points
    rows = series_table(SeriesRules(min_events=2), [event((1, 9, 1), (2, 1, 2)),
                                                    event((2, 1, 1))])
    assert [(r.player, r.place) for r in rows] == [("Bo", 1), ("Anna", None)]


def test_placing_points_come_from_the_table_by_place():
    rules = SeriesRules(best=2, scoring="placing", placing=(10, 6, 4))
    rows = by_player(series_table(rules, EVENTS))
    # places: ev1 Anna 1, Bo 2, Cai 3, Dag 4; ev2 Bo 1, Cai 2, Anna 3, Eva 4; ev3 Anna 1, Eva 2
    assert rows["Anna"].total == 10 + 10  # 10, 4, 10: the 4 dropped
    assert rows["Bo"].total == 6 + 10
    assert rows["Cai"].total == 4 + 6
    assert rows["Eva"].total == 0 + 6
    assert rows["Dag"].total == 0  # fourth: past the table's end
    assert placing_value(2, (10, 6)) == 6 and placing_value(3, (10, 6)) == 0


def test_shared_places_get_the_same_placing_points():
    rules = SeriesRules(scoring="placing", placing=(25, 18, 15))
    rows = by_player(series_table(rules, [event((1, 2, 1), (2, 2, 1), (3, 0, 3))]))
    assert rows["Anna"].total == rows["Bo"].total == 25 and rows["Cai"].total == 15


def test_handicaps_add_to_each_event_counted_and_net_ranks():
    rules = SeriesRules(best=2, handicap=True)
    rows = series_table(rules, EVENTS, {2: 1, 5: 2.5})
    named = by_player(rows)
    # Bo: (2+1) + (3+1) = 7; Eva: (0+2.5) + (1.5+2.5) = 6.5; Anna 5.5 (no handicap)
    assert named["Bo"].net == 7 and named["Bo"].gross == 5 and named["Bo"].handicap == 1
    assert named["Eva"].net == Fraction(13, 2) and named["Eva"].gross == Fraction(3, 2)
    assert named["Anna"].net == named["Anna"].gross == Fraction(11, 2)
    assert [r.player for r in rows][:3] == ["Bo", "Eva", "Anna"]
    assert named["Bo"].cells[0].net == 3 and named["Bo"].cells[0].gross == 2
    # without handicaps in the rules, they are ignored
    plain = by_player(series_table(SeriesRules(best=2), EVENTS, {2: 1}))
    assert plain["Bo"].total == 5 and plain["Bo"].net is None


def test_a_handicap_changes_which_result_is_dropped_never():
    """The same amount on every result: the best N are the same gross and net."""
    rng = random.Random(3)
    for _ in range(50):
        events = [event(*[(pid, rng.randint(0, 6) / 2, 1) for pid in NAMES]) for _ in range(5)]
        handicaps = {pid: rng.randint(-4, 4) / 2 for pid in NAMES}
        gross = by_player(series_table(SeriesRules(best=3), events))
        net = by_player(series_table(SeriesRules(best=3, handicap=True), events, handicaps))
        for name, row in gross.items():
            assert [c.counted for c in row.cells] == [c.counted for c in net[name].cells]
            assert net[name].net == row.gross + 3 * Fraction(handicaps[row.player_id])


def test_the_tie_break_chain():
    # Anna and Bo 4 each: Bo played three events, Anna two -> Bo first (events)
    rows = series_table(SeriesRules(), [event((1, 2, 1), (2, 1, 2)), event((1, 2, 1), (2, 2, 1)),
                                        event((2, 1, 1))])
    assert [(r.player, r.decided_by) for r in rows] == [("Bo", None), ("Anna", "events")]
    # equal totals and events: the best single result (countback)
    rows = series_table(SeriesRules(), [event((1, 3, 1), (2, 2, 2)), event((2, 2, 1), (1, 1, 2))])
    assert [(r.player, r.decided_by) for r in rows] == [("Anna", None), ("Bo", "countback")]
    # equal on everything: the lot, the same draw every time
    rows = series_table(SeriesRules(seed=7), [event((1, 2, 1), (2, 2, 1))])
    expected = sorted([1, 2], key=lambda pid: lot_draw(7, pid))
    assert [r.player_id for r in rows] == expected and rows[1].decided_by == "lot"
    assert [r.place for r in rows] == [1, 2]


def test_countback_goes_past_the_best_result():
    # totals 6 over 3 events each, best single 3 each: then the second best (2 beats 1.5)
    rows = series_table(SeriesRules(), [event((1, 3, 1), (2, 3, 1)), event((1, 2, 1), (2, 1.5, 2)),
                                        event((1, 1, 1), (2, 1.5, 1))])
    assert [(r.player, r.decided_by) for r in rows] == [("Anna", None), ("Bo", "countback")]


def test_thirds_add_up_exactly_as_shown():
    """A third, as a fraction or a float, counts 0.33 (as shown) for both: equal
    totals of 0.99, never told apart by a rounding error."""
    thirds = [event((1, Fraction(1, 3), 1), (2, 1 / 3, 1)) for _ in range(3)]
    rows = series_table(SeriesRules(), thirds + [event((2, 0, 1))])
    assert {r.total for r in rows} == {Fraction(99, 100)}
    assert rows[0].player == "Bo" and rows[1].decided_by == "events"


def test_a_total_is_the_sum_of_the_results_as_shown():
    """Three events of 7/6 read 1.17 each: the total is 3.51, what a reader adds up
    (not 3.50 from the unrounded values), net and gross alike, and it ranks: level
    with Bo's single 3.51, Anna's three events put her first."""
    sixths = [event((1, 7 / 6, 1)) for _ in range(3)] + [event((2, 3.51, 1))]
    rows = series_table(SeriesRules(handicap=True), sixths, {1: 0.5, 2: 1.5})
    anna, bo = rows
    assert [c.gross for c in anna.cells[:3]] == [Fraction(117, 100)] * 3
    assert anna.gross == Fraction(351, 100) == sum(c.gross for c in anna.cells[:3])
    assert anna.net == Fraction(501, 100) == sum(c.value for c in anna.cells[:3])
    assert bo.net == Fraction(501, 100) and bo.decided_by == "events"
    data = anna.to_json(["e1", "e2", "e3", "e4"])
    assert data["gross"] == 3.51 and data["total"] == 5.01
    assert data["events"]["e1"] == {"place": 1, "points": 1.17, "counted": True, "net": 1.67}


def test_json_has_one_entry_per_event():
    rows = series_table(SeriesRules(best=2), EVENTS)
    data = rows[0].to_json(["e1", "e2", "e3"])
    assert data["player"] == "Anna" and data["total"] == 5.5 and data["events_counted"] == 2
    assert data["events"]["e2"] == {"place": 3, "points": 1, "counted": False}
    assert list(by_player(rows)["Bo"].to_json(["e1", "e2", "e3"])["events"]) == ["e1", "e2"]


def test_an_event_of_another_game_counts_without_the_handicap():
    """The third event (another game's) adds no handicap: Eva (2.5) gets it on her
    0 of the second event only, and her 1.5 there counts as it is, for best N too."""
    rules = SeriesRules(best=2, handicap=True)
    named = by_player(series_table(rules, EVENTS, {2: 1, 5: 2.5}, unhandicapped={2}))
    assert named["Eva"].net == 4 and named["Eva"].gross == Fraction(3, 2)
    third = named["Eva"].cells[2]
    assert (third.handicap, third.net, third.value) == (None, None, Fraction(3, 2))
    # Anna's best two: 3 and 2.5 either way (no handicap of her own)
    assert named["Anna"].net == Fraction(11, 2)
    # a best N among handicapped and not: Bo's 1 lifts his first two (2+1, 3+1) over a third
    rows = by_player(series_table(SeriesRules(best=1, handicap=True),
                                  [event((2, 2, 1)), event((2, 2.5, 1))], {2: 1},
                                  unhandicapped={1}))
    assert rows["Bo"].net == 3 and [c.counted for c in rows["Bo"].cells] == [True, False]


# ----------------------------------------------------------------------- teams

def test_team_totals_count_the_best_n_players():
    teams = {"North": [("Anna", 5.5), ("Cai", 3), ("Gus", 1)], "South": [("Bo", 5), ("Eva", 4)]}
    rows = team_table(teams)
    assert [(r.team, r.total, r.place) for r in rows] == [("North", Fraction(19, 2), 1),
                                                          ("South", 9, 2)]
    rows = team_table(teams, count=2)
    # North 5.5 + 3 = 8.5 < South 5 + 4 = 9
    assert [(r.team, r.total) for r in rows] == [("South", 9), ("North", Fraction(17, 2))]
    north = rows[1]
    assert north.counted == [("Anna", Fraction(11, 2)), ("Cai", 3)]
    assert north.others == [("Gus", 1)] and north.players == 3


def test_a_teams_total_is_the_sum_of_its_members_values_as_shown():
    """Members' values of 16/3, 16/3 and 6.5433 read 5.33, 5.33 and 6.54: the
    team's total is 17.20, what a reader adds up (not 17.21 from the unrounded
    values), and the teams rank by it."""
    rows = team_table({"North": [("Anna", Fraction(16, 3)), ("Bo", Fraction(16, 3)),
                                 ("Cai", 6.5433)],
                       "South": [("Dag", 17.2)]})
    north = next(r for r in rows if r.team == "North")
    assert north.counted == [("Cai", Fraction(654, 100)), ("Anna", Fraction(533, 100)),
                             ("Bo", Fraction(533, 100))]
    assert north.total == Fraction(1720, 100) == sum(v for _, v in north.counted)
    assert north.to_json()["total"] == 17.2
    # 17.20 against South's 17.20: level on total (the unrounded 17.21 would put North
    # ahead), South ahead on countback (its best member's 17.20 over Cai's 6.54)
    assert [(r.team, r.place, r.decided_by) for r in rows] == [("South", 1, None),
                                                             ("North", 2, "countback")]


def test_team_ties_countback_then_shared():
    rows = team_table({"A": [("a1", 3), ("a2", 1)], "B": [("b1", 2), ("b2", 2)]})
    assert [(r.team, r.decided_by) for r in rows] == [("A", None), ("B", "countback")]
    rows = team_table({"B": [("b1", 2)], "A": [("a1", 2)], "C": [("c1", 1)]})
    assert [(r.team, r.place, r.shared) for r in rows] == [("A", 1, True), ("B", 1, True),
                                                          ("C", 3, False)]
    assert rows[1].decided_by == "shared" and rows[2].decided_by == "total"
