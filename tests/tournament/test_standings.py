"""Standings: match points, tie-breaks in the event's order, shared places."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
from results_helpers import (
    create_event,
    make_engine,
    names,
    run,
    seat_round,
    simulate,
    tables_of,
    unique,
    write_csv,
)
from sqlalchemy import select
from sqlmodel import Session

from tourney.storage.models import Event, Match, MatchPlace, MatchVersion, Player
from tourney.tournament.scoring import match_points
from tourney.tournament.standings import (
    DEFAULT_TIEBREAKS,
    check_tiebreaks,
    lot_draw,
    standings_table,
)


class Results:
    """Write match results straight into the tables standings read."""

    def __init__(self, db_url, variant="spardame", tiebreaks=None, seed=1, players=(),
                 points="share", bye_points=0):
        self.engine = make_engine(db_url)
        self.slug = unique("st")
        self.points = points
        create_event(self.engine, self.slug, variant, size=2, tiebreaks=tiebreaks, seed=seed,
                     points=points, bye_points=bye_points)
        # enter everyone through a seated round 1 of byes (standings list entrants;
        # the byes are worth nothing unless a test says otherwise)
        self.players = list(players)
        seat_round(self.engine, self.slug, 1, [], byes=[self.name(p) for p in players])
        self.tables = 0

    def name(self, short: str) -> str:
        return f"{self.slug} {short}"

    def match(self, round_number: int, seats: list[tuple[str, int, float]], *,
              superseded: bool = False) -> None:
        """seats: (player, place, total) in seat order."""
        self.tables += 1
        points = match_points([place for _, place, _ in seats], self.points)
        with Session(self.engine) as session:
            event = session.execute(select(Event).where(Event.slug == self.slug)).scalar_one()
            match = Match(event_id=event.id, round_number=round_number, table=str(self.tables))
            session.add(match)
            session.flush()
            version = MatchVersion(match_id=match.id, version=1, content_sha256="x" * 64,
                                   deals=1)
            session.add(version)
            session.flush()
            for seat, ((who, place, total), pts) in enumerate(zip(seats, points)):
                pid = session.execute(select(Player.id).where(
                    Player.name == self.name(who))).scalar_one()
                session.add(MatchPlace(version_id=version.id, player_id=pid, seat=seat,
                                       place=place, total=total, match_points=pts))
            if not superseded:
                match.current_version_id = version.id
                session.add(match)
            session.commit()

    def table(self, **kw):
        with Session(self.engine) as session:
            event = session.execute(select(Event).where(Event.slug == self.slug)).scalar_one()
            rows = standings_table(session, event, **kw)
        return [(r.place, r.player.rsplit(" ", 1)[1], r.points, r.decided_by) for r in rows], rows


def test_default_tiebreaks_and_shared_places(db_url):
    results = Results(db_url, variant="dam-brade", players="ABCDEF")
    # A and B win alike, C and D lose alike: each pair shares its place
    results.match(2, [("A", 1, 1.0), ("C", 2, 0.0)])
    results.match(2, [("B", 1, 1.0), ("D", 2, 0.0)])
    results.match(2, [("E", 1, 0.5), ("F", 1, 0.5)])
    table, rows = results.table()
    assert table == [
        (1, "A", 1, "shared"), (1, "B", 1, "shared"),
        (3, "E", 0.5, "shared"), (3, "F", 0.5, "shared"),
        (5, "C", 0, "shared"), (5, "D", 0, "shared"),
    ]
    assert list(rows[0].tiebreaks) == list(DEFAULT_TIEBREAKS)
    assert rows[0].tiebreaks["score"] == Fraction(1, 2)
    assert rows[0].wins == 1 and rows[2].wins == 1  # a shared first place is a first place
    assert rows[0].byes == 1  # round 1 was a bye for everyone


def test_score_lower_is_better_in_card_games(db_url):
    results = Results(db_url, variant="spardame", tiebreaks=["score"], players="ABWXYZ")
    results.match(2, [("A", 1, 10), ("W", 2, 50)])   # A: 10 - 30 = -20
    results.match(2, [("B", 1, 30), ("X", 2, 40)])   # B: 30 - 35 = -5
    results.match(2, [("Y", 1, 0), ("Z", 2, 240)])
    table, rows = results.table()
    assert [t[1] for t in table[:3]] == ["Y", "A", "B"]
    assert table[1][3] == "score" and table[2][3] == "score"
    assert rows[1].tiebreaks["score"] == -20 and rows[2].tiebreaks["score"] == -5


def test_score_higher_is_better_in_dam_brade(db_url):
    results = Results(db_url, variant="dam-brade", tiebreaks=["score"], players="ABCD")
    results.match(2, [("A", 1, 2.0), ("C", 2, 1.0)])    # A: +0.5
    results.match(2, [("B", 1, 2.5), ("D", 2, 0.5)])    # B: +1
    table, _ = results.table()
    assert [t[1] for t in table] == ["B", "A", "C", "D"]
    assert [t[3] for t in table] == [None, "score", "points", "score"]


def test_buchholz(db_url):
    results = Results(db_url, tiebreaks=["buchholz"], players="ABCDEF")
    results.match(2, [("A", 1, 0), ("C", 2, 9)])
    results.match(2, [("B", 1, 0), ("D", 2, 9)])
    results.match(3, [("C", 1, 0), ("E", 2, 9)])
    results.match(3, [("F", 1, 0), ("D", 2, 9)])
    table, rows = results.table()
    by_name = {r.player.rsplit(" ", 1)[1]: r for r in rows}
    assert by_name["A"].tiebreaks["buchholz"] == 1  # C won a match
    assert by_name["B"].tiebreaks["buchholz"] == 0  # D won none
    assert by_name["C"].tiebreaks["buchholz"] == 1  # A 1 + E 0
    assert table[:4] == [(1, "A", 1, "shared"), (1, "C", 1, "shared"),
                         (3, "B", 1, "shared"), (3, "F", 1, "shared")]


def test_wins(db_url):
    results = Results(db_url, tiebreaks=["wins"], players="ABXYZ")
    results.match(2, [("A", 1, 0), ("B", 2, 10), ("X", 3, 20)])
    results.match(3, [("A", 3, 30), ("B", 2, 20), ("Y", 1, 10)])
    table, rows = results.table()
    a = next(r for r in rows if r.player.endswith(" A"))
    b = next(r for r in rows if r.player.endswith(" B"))
    assert a.points == b.points == 1  # shares: 1 + 0 and 1/2 + 1/2
    assert a.place < b.place and b.decided_by == "wins"
    assert (a.tiebreaks["wins"], b.tiebreaks["wins"]) == (1, 0)


def test_matches_played(db_url):
    results = Results(db_url, tiebreaks=["matches"], players="ABCDE")
    results.match(2, [("A", 1, 0), ("C", 1, 0)])   # 0.5 each
    results.match(3, [("A", 1, 0), ("D", 1, 0)])   # A: 1 point in 2 matches
    results.match(2, [("B", 1, 0), ("E", 2, 10)])  # B: 1 point in 1 match
    table, rows = results.table()
    assert [t[1] for t in table[:2]] == ["A", "B"]
    assert table[1][3] == "matches"
    assert rows[0].matches == 2 and rows[1].matches == 1


def test_lot_is_reproducible_and_seeded(db_url):
    orders = set()
    for seed in (1, 2, 3, 4):
        results = Results(db_url, tiebreaks=["lot"], seed=seed, players="ABCDEFGH")
        first, rows = results.table()
        again, _ = results.table()
        assert first == again
        assert [t[0] for t in first] == list(range(1, 9))  # a lot separates everyone
        assert [t[3] for t in first] == [None] + ["lot"] * 7
        assert sorted(r.tiebreaks["lot"] for r in rows) == list(range(1, 9))
        expected = sorted(rows, key=lambda r: lot_draw(seed, r.player_id))
        assert [r.player_id for r in rows] == [r.player_id for r in expected]
        orders.add(tuple(t[1] for t in first))
    assert len(orders) > 1


def test_only_current_versions_count_and_up_to_round(db_url):
    results = Results(db_url, tiebreaks=["wins"], players="ABCD")
    results.match(2, [("A", 1, 0), ("B", 2, 9)])
    results.match(2, [("B", 1, 0), ("A", 2, 9)], superseded=True)
    results.match(3, [("C", 1, 0), ("D", 2, 9)])
    table, _ = results.table()
    assert [(t[1], t[2]) for t in table] == [("A", 1), ("C", 1), ("B", 0), ("D", 0)]
    table, _ = results.table(up_to_round=2)
    assert [(t[1], t[2]) for t in table] == [("A", 1), ("B", 0), ("C", 0), ("D", 0)]


def test_unknown_tiebreak_is_refused():
    assert check_tiebreaks(["wins", "lot"]) == ["wins", "lot"]
    with pytest.raises(Exception, match="unknown tie-break"):
        check_tiebreaks(["elo"])
    with pytest.raises(Exception, match="twice"):
        check_tiebreaks(["wins", "wins"])


def test_standings_cli_after_imports(db_url, tmp_path):
    engine = make_engine(db_url)
    slug = unique("cli")
    create_event(engine, slug, "spardame", size=4)
    players = names(slug, 8)
    for number in (1, 2):
        seating = tables_of(players[number - 1:] + players[:number - 1], 4)
        seat_round(engine, slug, number, seating)
        records = simulate("spardame", slug, number, seating, seed=number, deals=2)
        run(db_url, "result", "import", str(write_csv(tmp_path / f"r{number}.csv", records,
                                                      "spardame")), ok=True)
    data = json.loads(run(db_url, "standings", slug, "--json", ok=True).stdout)
    assert len(data) == 8
    assert set(data[0]) >= {"place", "player", "points", "tiebreaks", "decided_by"}
    assert list(data[0]["tiebreaks"]) == ["opponents", "score", "wins"]
    # 2 rounds x 2 tables x (1 + 2/3 + 1/3 + 0) points: shares of the table beaten
    assert sum(row["points"] for row in data) == pytest.approx(8, abs=0.05)
    assert [row["place"] for row in data] == sorted(row["place"] for row in data)
    points = [row["points"] for row in data]
    assert points == sorted(points, reverse=True)
    plain = run(db_url, "standings", slug, ok=True).stdout.splitlines()
    assert plain[0].split() == ["place", "player", "points", "opponents", "score", "wins",
                                "decided", "by"]
    assert len(plain) == 9
    missing = run(db_url, "standings", "no-such-event")
    assert missing.exit_code == 2 and "unknown event" in missing.stderr
    # After a round the event has: that round's table; past its rounds: an error,
    # not the final table.
    first = json.loads(run(db_url, "standings", slug, "--round", "1", "--json",
                           ok=True).stdout)
    assert sum(row["points"] for row in first) == pytest.approx(4, abs=0.05)  # 2 tables x 2
    past = run(db_url, "standings", slug, "--round", "3")
    assert past.exit_code == 2 and past.stdout == ""
    assert f"{slug} has no round 3: it has rounds 1 to 2 seated" in past.stderr


# ----------------------------------------------------------------- fair across table sizes

def test_a_win_is_worth_the_same_at_any_table_size(db_url):
    results = Results(db_url, tiebreaks=["wins"], players="ABCDEFGH")
    results.match(2, [("A", 1, 0), ("B", 2, 5), ("C", 3, 9)])                          # 3
    results.match(2, [("D", 1, 0), ("E", 2, 5), ("F", 3, 7), ("G", 4, 8), ("H", 5, 9)])  # 5
    table, rows = results.table()
    by_name = {r.player.rsplit(" ", 1)[1]: r for r in rows}
    assert by_name["A"].points == by_name["D"].points == 1
    assert by_name["B"].points == by_name["F"].points == 0.5  # the middle of any table
    assert by_name["E"].points == 0.75 and by_name["G"].points == 0.25
    assert by_name["C"].points == by_name["H"].points == 0


def test_shares_add_up_exactly(db_url):
    # 1/3 + 1/2 + 1/6 is 0.9999999999999999 in floats: it must equal 1/2 + 1/2 + 0
    results = Results(db_url, tiebreaks=["lot"], players="ABCDEFGHIJKL")
    results.match(2, [("C", 1, 0), ("D", 2, 1), ("A", 3, 5), ("E", 4, 9)])  # A: 1/3
    results.match(3, [("F", 1, 0), ("A", 2, 5), ("G", 3, 9)])               # A: 1/2
    results.match(4, [("H", 1, 0), ("I", 2, 1), ("A", 3, 5), ("J", 3, 5)])  # A: 1/6
    results.match(2, [("B", 1, 0), ("K", 1, 0)])                            # B: 1/2
    results.match(3, [("B", 1, 0), ("L", 1, 0)])                            # B: 1/2
    results.match(4, [("K", 1, 0), ("B", 2, 9)])                            # B: 0
    table, rows = results.table()
    by_name = {r.player.rsplit(" ", 1)[1]: r for r in rows}
    assert by_name["A"].sort_key[0] == by_name["B"].sort_key[0] == -1
    tied = [r for r in rows if r.points == 1]
    assert {"A", "B"} <= {r.player.rsplit(" ", 1)[1] for r in tied}
    assert all(r.decided_by in ("lot", "points") for r in tied[1:])  # only a lot between


def test_opponents_strength_is_an_average_not_a_sum(db_url):
    """Buchholz grows with the opponents met; the opponents tie-break does not."""
    results = Results(db_url, tiebreaks=["opponents", "buchholz"], players="ABCDEFGHIJ")
    # A wins at a table of 5 against four opponents who then all come last elsewhere
    results.match(2, [("A", 1, 0), ("C", 2, 5), ("D", 3, 6), ("E", 4, 7), ("F", 5, 8)])
    # B wins at a table of 3 against two opponents who then win elsewhere
    results.match(2, [("B", 1, 0), ("G", 2, 5), ("H", 3, 9)])
    results.match(3, [("G", 1, 0), ("C", 2, 9)])
    results.match(3, [("H", 1, 0), ("D", 2, 9)])
    results.match(3, [("E", 1, 0), ("I", 2, 9)])
    results.match(3, [("F", 1, 0), ("J", 2, 9)])
    table, rows = results.table()
    by_name = {r.player.rsplit(" ", 1)[1]: r for r in rows}
    a, b = by_name["A"], by_name["B"]
    assert a.points == b.points == 1
    # A's opponents: C (3/4, 0) D (1/2, 0) E (1/4, 1) F (0, 1): 3/8, 1/4, 5/8, 1/2
    assert a.tiebreaks["opponents"] == Fraction(3 + 2 + 5 + 4, 8 * 4)
    # B's: G (1/2, 1) and H (0, 1): averages 3/4 and 1/2
    assert b.tiebreaks["opponents"] == Fraction(5, 8)
    assert b.place < a.place and a.decided_by == "opponents"
    # the sum over more opponents would have put A ahead
    assert a.tiebreaks["buchholz"] > b.tiebreaks["buchholz"]


@pytest.mark.parametrize("points, bye_points, expected", [
    ("share", None, 1), ("share", 0.5, 0.5), ("place", None, 1), ("place", 0, 0)])
def test_a_bye_is_worth_the_events_bye_points(db_url, points, bye_points, expected):
    # Results seats everyone a bye in round 1 at a two-player table size:
    # a win's worth there is 1 under either system
    results = Results(db_url, tiebreaks=["wins"], players="AB", points=points,
                      bye_points=bye_points)
    results.match(2, [("A", 1, 0), ("B", 2, 9)])
    table, rows = results.table()
    assert [(t[1], t[2]) for t in table] == [("A", 1 + expected), ("B", expected)]
    assert rows[0].byes == 1 and rows[0].matches == 1


def test_bye_points_by_default_and_the_event_settings(db_url):
    from tourney.tournament.scoring import bye_points

    assert bye_points("share", None, 4) == 1
    assert bye_points("place", None, 4) == 3  # a win at the preferred size
    assert bye_points("place", 1.5, 4) == 1.5
    slug = unique("pts")
    created = json.loads(run(db_url, "event", "create", slug, "--variant", "spardame",
                             "--table-sizes", "3-5", "--points", "place", "--bye-points",
                             "2", "--json", ok=True).stdout)["details"]
    assert (created["points"], created["bye_points"]) == ("place", 2)
    shown = json.loads(run(db_url, "event", "show", slug, "--json", ok=True).stdout)
    assert shown["bye_points_in_force"] == 2
    default = unique("pts")
    run(db_url, "event", "create", default, "--variant", "spardame", ok=True)
    shown = json.loads(run(db_url, "event", "show", default, "--json", ok=True).stdout)
    assert (shown["points"], shown["bye_points"], shown["bye_points_in_force"]) == ("share", None, 1)
    text = run(db_url, "event", "show", default, ok=True).stdout
    assert "a bye is worth 1 (a win's worth)" in text
    bad = run(db_url, "event", "create", unique("pts"), "--variant", "spardame",
              "--points", "elo")
    assert bad.exit_code == 2
    bad = run(db_url, "event", "create", unique("pts"), "--variant", "spardame",
              "--bye-points", "-1")
    assert bad.exit_code == 2


def test_standings_explain_the_points_and_every_tiebreak(db_url):
    results = Results(db_url, tiebreaks=["opponents", "score", "wins"], players="AB")
    results.match(2, [("A", 1, 0), ("B", 2, 9)])
    shown = run(db_url, "standings", results.slug, ok=True)
    assert "points: the share of the table's other players finished ahead of" in shown.stderr
    for tiebreak in ("opponents:", "score:", "wins:"):
        assert tiebreak in shown.stderr
