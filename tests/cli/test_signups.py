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


def test_approving_a_name_like_a_registered_players_warns_as_player_add_does(db_url, run_cli):
    """A sign-up typed 'ANNA BERG' by the Anna Berg who is registered (and entered)
    registers a second player when approved: the approval says so, with the merge
    that folds them into one, as `player add` does; it never stays silent."""
    run_cli(db_url, "player", "add", "Anna Berg")
    run_cli(db_url, "event", "create", "club-1", "--variant", "kortrad")
    run_cli(db_url, "event", "enter", "club-1", "Anna Berg")
    run_cli(db_url, "event", "set", "club-1", "--signup", "open")
    with transaction(open_engine(db_url)) as session:
        event_id = get_event(session, "club-1").id
        session.add(SignupRequest(event_id=event_id, name="ANNA BERG", email="a@example.org"))
        session.add(SignupRequest(event_id=event_id, name="Cai Dahl", email="c@example.org"))
    first, second = (r["id"] for r in run_cli(db_url, "event", "signups", "club-1",
                                              "--json").json)
    approved = run_cli(db_url, "event", "approve", "club-1", str(first))
    assert ("warning: 'ANNA BERG' looks like 'Anna Berg' (they differ only by case); "
            "if they are one person, merge them: tourney player merge 'Anna Berg' "
            "'ANNA BERG'") in approved.stderr
    as_json = run_cli(db_url, "event", "approve", "club-1", str(second), "--json").json
    assert as_json["details"]["warnings"] == []  # a name like no one's: nothing to say
    with transaction(open_engine(db_url)) as session:
        event_id = get_event(session, "club-1").id
        session.add(SignupRequest(event_id=event_id, name="Anna berg", email="b@example.org"))
    third = run_cli(db_url, "event", "signups", "club-1", "--json").json[-1]["id"]
    warned = run_cli(db_url, "event", "approve", "club-1", str(third), "--json").json
    assert [w["name"] for w in warned["details"]["warnings"]] == ["Anna berg"]
    assert warned["details"]["warnings"][0]["like"] in ("Anna Berg", "ANNA BERG")
