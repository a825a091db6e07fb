"""`tourney event checkin` / `paid`: with check-in required, `round seat` seats only
the players checked in; marks are undone with --undo; unknown names are refused."""
from sqlmodel import select

from tourney.storage.db import open_engine, reading
from tourney.storage.models import EntryStatus


def setup(run_cli, db_url):
    run_cli(db_url, "player", "add", "A1", "A2", "A3", "A4", "A5", "A6")
    run_cli(db_url, "event", "create", "club-1", "--variant", "svarta-maja",
            "--table-sizes", "4", "--rounds", "2")
    run_cli(db_url, "event", "enter", "club-1", "--all")


def seated(run_cli, db_url):
    shown = run_cli(db_url, "round", "show", "club-1", "1", "--json").json
    return sorted(name for t in shown["tables"] for name in t["seats"]) + sorted(shown["byes"])


def test_only_players_checked_in_are_seated_when_required(db_url, run_cli):
    setup(run_cli, db_url)
    done = run_cli(db_url, "event", "checkin", "club-1", "--required", "on", "A1", "A2", "A3",
                   "A4", "A5", "--json").json
    assert done["changed"] and done["details"]["players"] == ["A1", "A2", "A3", "A4", "A5"]
    undone = run_cli(db_url, "event", "checkin", "club-1", "A5", "--undo", "--json").json
    assert undone["details"]["players"] == ["A5"]
    again = run_cli(db_url, "event", "checkin", "club-1", "A1", "--json").json
    assert not again["changed"]  # checked in already
    seat_list = run_cli(db_url, "round", "seat", "club-1").stdout
    assert seated(run_cli, db_url) == ["A1", "A2", "A3", "A4"]
    # the seat list says who was left out for not checking in
    assert "Not checked in (not seated):  A5, A6" in seat_list
    run_cli(db_url, "round", "absent", "club-1", "1", "A6")
    shown = run_cli(db_url, "round", "show", "club-1", "1").stdout
    assert "Not checked in (not seated):  A5\n" in shown and "Absent:  A6" in shown
    evening = run_cli(db_url, "event", "show", "club-1", "--json").json["evening"]
    assert evening["checkin_required"] is True
    assert sorted(evening["checked_in"]) == ["A1", "A2", "A3", "A4"] and evening["paid"] == []


def test_without_the_requirement_everyone_is_seated(db_url, run_cli):
    setup(run_cli, db_url)
    run_cli(db_url, "event", "checkin", "club-1", "A1")
    run_cli(db_url, "round", "seat", "club-1")
    assert len(seated(run_cli, db_url)) == 6


def test_paid_and_unknown_names(db_url, run_cli):
    setup(run_cli, db_url)
    run_cli(db_url, "player", "add", "Outsider")
    run_cli(db_url, "event", "paid", "club-1", "A2")
    refused = run_cli(db_url, "event", "paid", "club-1", "Outsider", exit_code=1)
    assert "Outsider" in refused.stderr and "Traceback" not in refused.stderr
    with reading(open_engine(db_url)) as session:
        rows = session.exec(select(EntryStatus)).all()
    assert len(rows) == 1 and rows[0].paid_at is not None and rows[0].checked_in_at is None
    shown = run_cli(db_url, "event", "show", "club-1", "--json").json["evening"]
    assert shown["paid"] == ["A2"] and shown["checkin_required"] is False
    run_cli(db_url, "event", "paid", "club-1", "A2", "--undo")
    with reading(open_engine(db_url)) as session:
        assert session.exec(select(EntryStatus)).one().paid_at is None


def test_fee_and_signup_are_event_settings(db_url, run_cli):
    setup(run_cli, db_url)
    done = run_cli(db_url, "event", "set", "club-1", "--fee", "50", "--signup", "open", "--json")
    assert done.json["changed"] and "fee: 50" in done.stderr
    evening = run_cli(db_url, "event", "show", "club-1", "--json").json["evening"]
    assert (evening["fee"], evening["signup"]) == (50.0, "open")
    again = run_cli(db_url, "event", "set", "club-1", "--fee", "50", "--json")
    assert not again.json["changed"]
    run_cli(db_url, "event", "set", "club-1", "--fee", "-1", exit_code=2)


def test_an_entry_fee_reads_as_the_pages_show_it(db_url, run_cli):
    """An entry fee of 50 reads "50" (as the organizer's page shows it), not "50.0";
    12.5 reads "12.5"; `event show` says the fee and how many paid."""
    setup(run_cli, db_url)
    done = run_cli(db_url, "event", "set", "club-1", "--fee", "50")
    assert "club-1: fee: 50 (was none)" in done.stderr and "50.0" not in done.stderr
    changed = run_cli(db_url, "event", "set", "club-1", "--fee", "12.5")
    assert "fee: 12.5 (was 50)" in changed.stderr
    run_cli(db_url, "event", "paid", "club-1", "A1")
    assert "entry fee: 12.5 (1 of 6 paid)" in run_cli(db_url, "event", "show", "club-1").stdout
