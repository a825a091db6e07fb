"""Sign-ups: listed without e-mail unless --with-email; approving registers and
enters the player; a decided sign-up cannot be decided again."""
from tourney.storage.db import open_engine, transaction
from tourney.storage.models import SignupRequest
from tourney.tournament.events import get_event


def test_approve_and_reject(db_url, run_cli):
    run_cli(db_url, "event", "create", "club-1", "--variant", "kortrad")
    run_cli(db_url, "event", "set", "club-1", "--signup", "open")
    with transaction(open_engine(db_url)) as session:
        event_id = get_event(session, "club-1").id
        session.add(SignupRequest(event_id=event_id, name="Cai Dahl", club="Vasa",
                                  email="cai@example.org"))
        session.add(SignupRequest(event_id=event_id, name="Spam Bot"))
    listed = run_cli(db_url, "event", "signups", "club-1", "--json")
    assert [(r["name"], r["status"]) for r in listed.json] == [("Cai Dahl", "pending"),
                                                               ("Spam Bot", "pending")]
    assert "cai@example.org" not in listed.stdout
    shown = run_cli(db_url, "event", "signups", "club-1", "--with-email", "--json").json
    assert shown[0]["email"] == "cai@example.org"
    first, second = (r["id"] for r in listed.json)
    run_cli(db_url, "event", "approve", "club-1", str(first))
    run_cli(db_url, "event", "reject", "club-1", str(second))
    players = run_cli(db_url, "player", "list", "--json").json
    assert [(p["name"], p["club"]) for p in players] == [("Cai Dahl", "Vasa")]
    entrants = run_cli(db_url, "event", "show", "club-1", "--json").json
    assert "Cai Dahl" in str(entrants) and "Spam Bot" not in str(entrants)
    again = run_cli(db_url, "event", "approve", "club-1", str(second), exit_code=1)
    assert "rejected already" in again.stderr
