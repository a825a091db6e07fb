"""`tourney round ...` on every backend: seat, show, reseat."""
import json

from conftest import stored_match
from sqlmodel import Session, select

from tourney.storage.db import open_engine
from tourney.storage.models import AuditLog, Event, MatchPlace, Player, Round, Seat

NAMES = ["Anna", "Bo", "Cai", "Dag", "Eva", "Finn", "Gun", "Hans", "Ida"]


def setup(tourney, variant="spardame", players=NAMES, *args):
    tourney("player", "add", *players)
    tourney("event", "create", "cup", "--variant", variant, *args)
    tourney("event", "enter", "cup", *players)


def seated_names(data):
    return [n for t in data["tables"] for n in t["seats"]] + data["byes"]


def add_results(db_url, slug, number, winners=()):
    """A result for every table of a round, straight in the database: players in
    ``winners`` take place 1 (1 match point), the others place 2 (0 points)."""
    with Session(open_engine(db_url)) as session:
        event = session.exec(select(Event).where(Event.slug == slug)).one()
        round_ = session.exec(select(Round).where(Round.event_id == event.id,
                                                  Round.number == number)).one()
        names = dict(session.exec(select(Player.id, Player.name)).all())
        seats = session.exec(select(Seat).where(Seat.round_id == round_.id,
                                                Seat.table.is_not(None))).all()
        for label in sorted({s.table for s in seats}):
            _, version = stored_match(session, event.id, number, label)
            for seat in (s for s in seats if s.table == label):
                won = names[seat.player_id] in winners
                session.add(MatchPlace(version_id=version.id, player_id=seat.player_id,
                                       seat=seat.seat, place=1 if won else 2,
                                       total=0 if won else 10, match_points=1 if won else 0))
        session.commit()


def test_seat_json_and_text(tourney, db_url):
    setup(tourney)
    result = tourney("round", "seat", "cup", "--json")
    data = result.json
    # the seating (issue 15) and, beside it, what every changing command answers
    assert set(data) == {"round", "tables", "byes", "repeated_pairs", "unmet",
                         "action", "changed", "summary", "details"}
    assert (data["action"], data["changed"]) == ("round.seat", True)
    assert data["round"] == 1 and data["repeated_pairs"] == 0 and data["byes"] == []
    assert sorted(seated_names(data)) == NAMES
    assert [t["table"] for t in data["tables"]] == [str(i + 1) for i in range(len(data["tables"]))]
    assert sorted(len(t["seats"]) for t in data["tables"]) == [4, 5]
    for table in data["tables"]:
        assert set(table) == {"table", "seats", "dealer"}
        assert table["dealer"] == table["seats"][0]
    assert result.stderr.strip().endswith("0 pairs meet again")
    seating = {k: data[k] for k in ("round", "tables", "byes", "repeated_pairs")}
    shown = tourney("round", "show", "cup", "1", "--json").json
    # the same seating, and whom of it withdrew since (no one)
    assert shown == {**seating, "withdrawn": [], "reseat": False, "unmet": [],
                     "absent": [], "not_checked_in": [], "checked_in_late": [], "forfeits": [],
                     "clock": {"started_at": None, "ends_at": None, "minutes": None,
                               "seconds_left": None}}
    plain = tourney("round", "show", "cup", "1").stdout
    by_name = plain.split("By name:")[1].strip().splitlines()
    assert [line.split()[0] for line in by_name[:len(NAMES)]] == NAMES
    for table in data["tables"]:
        assert f"Table {table['table']}:  1. {table['seats'][0]}" in plain
        for seat, name in enumerate(table["seats"]):
            assert any(line.split() == [name, "table", f"{table['table']},", "seat", str(seat + 1)]
                       for line in by_name)
    with Session(open_engine(db_url)) as session:
        [row] = session.exec(select(AuditLog).where(AuditLog.action == "round.seat")).all()
        assert json.loads(row.after_json) == seating


def test_next_round_waits_for_results(tourney, db_url):
    setup(tourney, "spardame", NAMES, "--rounds", "2")
    first = tourney("round", "seat", "cup", "--json").json
    refused = tourney("round", "seat", "cup", exit_code=1).stderr
    assert "round 1 of cup has no result yet for tables 1, 2" in refused and "--force" in refused
    add_results(db_url, "cup", 1)
    second = tourney("round", "seat", "cup", "--json")
    assert second.json["round"] == 2 and sorted(seated_names(second.json)) == NAMES
    assert second.stderr.strip().endswith(f"{second.json['repeated_pairs']} pairs meet again"
                                          if second.json["repeated_pairs"] != 1 else
                                          "1 pair meets again")
    assert second.json["repeated_pairs"] > 0  # 9 players at 4-5: some pairs must meet again
    assert first != second.json
    add_results(db_url, "cup", 2)
    assert "all 2 rounds of cup are seated" in tourney("round", "seat", "cup", exit_code=1).stderr


def test_a_one_round_event_says_its_one_round_is_seated(tourney, db_url):
    setup(tourney, "spardame", NAMES, "--rounds", "1")
    tourney("round", "seat", "cup")
    add_results(db_url, "cup", 1)
    refused = tourney("round", "seat", "cup", exit_code=1).stderr
    assert "the one round of cup is seated" in refused and "1 rounds" not in refused
    late = tourney("event", "enter", "cup", "Zed", "--add", exit_code=1).stderr
    assert "the one round of cup is seated; no one can enter now" in late


def test_force_seats_without_results(tourney, db_url):
    setup(tourney, "kortrad", NAMES[:4], "--table-sizes", "2")
    tourney("round", "seat", "cup")
    forced = tourney("round", "seat", "cup", "--force", "--json").json
    assert forced["round"] == 2
    with Session(open_engine(db_url)) as session:
        row = session.exec(select(AuditLog).where(AuditLog.action == "round.seat")
                           .order_by(AuditLog.id.desc())).first()
        assert json.loads(row.after_json)["forced"] == ["1", "2"]


def test_byes_late_entries_and_withdrawals(tourney, db_url):
    setup(tourney, "dam-brade", NAMES[:5])
    one = tourney("round", "seat", "cup", "--json").json
    assert len(one["tables"]) == 2 and len(one["byes"]) == 1
    assert all(t["dealer"] == t["seats"][0] for t in one["tables"])
    add_results(db_url, "cup", 1)
    tourney("event", "withdraw", "cup", "Anna")
    tourney("event", "enter", "cup", "Zed", "Yngve", "--add")
    two = tourney("round", "seat", "cup", "--json").json
    assert sorted(seated_names(two)) == sorted(NAMES[1:5] + ["Zed", "Yngve"])
    assert two["byes"] == [] and len(two["tables"]) == 3
    assert one["byes"][0] not in two["byes"]


def test_swiss_pairs_by_points_from_the_standings(tourney, db_url):
    setup(tourney, "dam-brade", NAMES[:8], "--seed", "11")
    one = tourney("round", "seat", "cup", "--json").json
    winners = {t["seats"][0] for t in one["tables"]}
    add_results(db_url, "cup", 1, winners=winners)
    two = tourney("round", "seat", "cup", "--json").json
    # Equal points meet: every table is two winners or two losers of round 1.
    assert all(len(winners & set(t["seats"])) in (0, 2) for t in two["tables"])
    assert two["repeated_pairs"] == 0


def test_too_few_players(tourney):
    setup(tourney, "spardame", NAMES[:2])
    refused = tourney("round", "seat", "cup", exit_code=1).stderr
    assert "only 2 players can play in round 1" in refused and "needs 3" in refused
    tourney("event", "create", "empty", "--variant", "kortrad")
    assert "event enter" in tourney("round", "seat", "empty", exit_code=1).stderr
    assert "unknown event" in tourney("round", "seat", "nope", exit_code=2).stderr


def test_show_errors(tourney):
    setup(tourney, "kortrad", NAMES[:4])
    assert tourney("round", "show", "cup", "1", exit_code=2).stderr == (
        "Error: cup has no round 1: no round is seated yet (`tourney round seat cup`)\n")
    tourney("round", "seat", "cup")
    assert "cup has no round 2: round 1 is seated" in tourney(
        "round", "show", "cup", "2", exit_code=2).stderr
    tourney("round", "show", "cup", "0", exit_code=2)


def test_reseat(tourney, db_url):
    setup(tourney, "spardame", NAMES[:8], "--table-sizes", "4", "--seating", "random")
    def seating(answer):
        return {k: answer[k] for k in ("round", "tables", "byes", "repeated_pairs")}

    first = seating(tourney("round", "seat", "cup", "--json").json)
    same = tourney("round", "reseat", "cup", "1", "--json")
    assert seating(same.json) == first and "unchanged" in same.stderr
    assert same.json["changed"] is False
    other = tourney("round", "reseat", "cup", "1", "--seed", "12345", "--json").json
    assert other["changed"] is True
    other = seating(other)
    assert other != first and sorted(seated_names(other)) == sorted(NAMES[:8])
    assert seating(tourney("round", "show", "cup", "1", "--json").json) == other
    with Session(open_engine(db_url)) as session:
        rows = session.exec(select(AuditLog).where(AuditLog.action == "round.reseat")
                            .order_by(AuditLog.id)).all()
        assert len(rows) == 2 and json.loads(rows[1].before_json) == first
        assert json.loads(rows[1].after_json)["seed"] == 12345
        assert len(session.exec(select(Seat)).all()) == 8
    add_results(db_url, "cup", 1)
    refused = tourney("round", "reseat", "cup", "1", exit_code=1).stderr
    assert "results are in for tables 1, 2" in refused
    assert seating(tourney("round", "show", "cup", "1", "--json").json) == other
    tourney("round", "seat", "cup")
    assert "round 2 is seated after it" in tourney("round", "reseat", "cup", "1", exit_code=1).stderr


def test_plain_seat_output_is_a_seat_list(tourney):
    setup(tourney, "svarta-maja", NAMES[:6], "--table-sizes", "3")
    result = tourney("round", "seat", "cup")
    lines = result.stdout.splitlines()
    assert lines[0] == "cup: round 1"
    assert sum(1 for line in lines if line.startswith("Table ")) == 2
    assert "By name:" in lines
    assert "meet again" in result.stderr and "meet again" not in result.stdout
