"""FIDE tie-breaks for Swiss events of the two-player game (issue 32): Buchholz,
Buchholz cut-1, median Buchholz, Sonneborn-Berger and progressive score, worked out
here from the stored places by hand and compared with the standings."""
from __future__ import annotations

from fractions import Fraction

from sqlmodel import Session, select

from tourney.storage.db import open_engine
from tourney.storage.models import Match, MatchPlace, Player

TIEBREAKS = "buchholz,buchholz-cut1,median-buchholz,sonneborn-berger,progressive"


def test_fide_tiebreaks_agree_with_a_hand_count(tourney, db_url, tmp_path):
    names = [f"P{i}" for i in range(1, 8)]  # seven: a bye each round
    tourney("player", "add", *names)
    tourney("event", "create", "swiss", "--variant", "dam-brade", "--seating", "swiss",
            "--rounds", "3", "--tiebreaks", TIEBREAKS)
    tourney("event", "enter", "swiss", "--all")
    for number in (1, 2, 3):
        tourney("round", "seat", "swiss")
        records = tmp_path / f"r{number}.csv"
        records.write_text(tourney("simulate", "--event", "swiss", "--round", str(number),
                                   "--seed", str(number)).stdout, encoding="utf-8")
        tourney("result", "import", str(records))
    rows = {r["player"]: r for r in tourney("standings", "swiss", "--json").json}

    with Session(open_engine(db_url)) as session:
        stored = session.exec(
            select(Match.id, Match.round_number, Player.name, MatchPlace.place,
                   MatchPlace.match_points)
            .join(MatchPlace, MatchPlace.version_id == Match.current_version_id)
            .join(Player, Player.id == MatchPlace.player_id)).all()
    games: dict[int, list] = {}
    for match_id, number, name, place, points in stored:
        games.setdefault(match_id, []).append((number, name, place, Fraction(points)))
    total = {name: Fraction(rows[name]["points"]).limit_denominator() for name in names}
    per_round = {name: {} for name in names}
    for number, name, _, points in (g for game in games.values() for g in game):
        per_round[name][number] = points
    bye = Fraction(1)  # a win's worth by default
    for name in names:
        for number in (1, 2, 3):
            per_round[name].setdefault(number, bye)  # no game that round: the bye
    for name in names:
        opponents, sb = [], Fraction(0)
        for game in games.values():
            mine = [g for g in game if g[1] == name]
            if not mine:
                continue
            [(_, _, my_place, _)] = mine
            for _, other, their_place, _ in game:
                if other == name:
                    continue
                opponents.append(total[other])
                sb += total[other] * (1 if my_place < their_place else
                                      Fraction(1, 2) if my_place == their_place else 0)
        opponents.sort()
        running = progressive = Fraction(0)
        for number in (1, 2, 3):
            running += per_round[name][number]
            progressive += running
        got = {k: Fraction(v).limit_denominator() for k, v in rows[name]["tiebreaks"].items()}
        assert got == {"buchholz": sum(opponents), "buchholz-cut1": sum(opponents[1:]),
                       "median-buchholz": sum(opponents[1:-1]), "sonneborn-berger": sb,
                       "progressive": progressive}, name
    # the order follows points, then the tie-breaks in the event's order
    order = [r["player"] for r in tourney("standings", "swiss", "--json").json]
    keys = {n: (-total[n],) + tuple(-Fraction(rows[n]["tiebreaks"][t]).limit_denominator()
                                    for t in TIEBREAKS.split(",")) for n in names}
    assert [keys[n] for n in order] == sorted(keys[n] for n in names)


def test_direct_encounter_separates_players_who_all_met(db_url):
    from tournament.test_standings import Results

    results = Results(db_url, variant="dam-brade", tiebreaks=["direct-encounter", "lot"],
                      players="ABCDEFGH")
    win, loss, draw = 1.0, 0.0, 0.5
    results.match(2, [("A", 1, win), ("B", 2, loss)])   # A beat B
    results.match(3, [("B", 1, win), ("C", 2, loss)])
    results.match(3, [("A", 1, draw), ("D", 1, draw)])
    results.match(4, [("B", 1, draw), ("E", 1, draw)])  # A and B: 1.5 each
    results.match(2, [("F", 1, win), ("G", 2, loss)])   # F, G, H: a circle, 1 each
    results.match(3, [("G", 1, win), ("H", 2, loss)])
    results.match(4, [("H", 1, win), ("F", 2, loss)])
    table, rows = results.table()
    by_name = {r.player.rsplit(" ", 1)[1]: r for r in rows}
    a, b = by_name["A"], by_name["B"]
    assert a.points == b.points == 1.5
    assert a.tiebreaks["direct-encounter"] == 1 and b.tiebreaks["direct-encounter"] == 0
    assert (a.place, b.place, b.decided_by) == (1, 2, "direct-encounter")
    # F, G and H all met, one win each: equal, the lot decides
    circle = sorted((by_name[n] for n in "FGH"), key=lambda r: r.place)
    assert [r.tiebreaks["direct-encounter"] for r in circle] == [1, 1, 1]
    assert [r.decided_by for r in circle[1:]] == ["lot", "lot"]
    # D and E (0.5 each) never met: not applied, 0 each, the lot decides
    d, e = sorted((by_name["D"], by_name["E"]), key=lambda r: r.place)
    assert d.tiebreaks["direct-encounter"] == e.tiebreaks["direct-encounter"] == 0
    assert e.decided_by == "lot"
