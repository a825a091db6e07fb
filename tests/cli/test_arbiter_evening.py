"""What an arbiter met on an evening of dam-stick at tables of three and four
(the new-user walk of issue newuser8): each test a finding that was wrong."""
from arbiter_helpers import setup


def test_an_import_and_its_history_name_the_actor_as_the_log_does(tourney, db_url, tmp_path):
    # TOURNEY_ACTOR names the arbiter in the audit log; a result's history said
    # the login name instead, so "who corrected this?" had two answers
    setup(tourney, sizes="4", rounds="1")
    tourney("round", "seat", "ev")
    records = tmp_path / "r1.csv"
    records.write_text(tourney("simulate", "--event", "ev", "--round", "1", "--seed", "1",
                               "--deals", "1").stdout, encoding="utf-8")
    arbiter = {"TOURNEY_ACTOR": "Arbiter Åsa"}
    tourney("result", "import", str(records), env=arbiter)
    history = tourney("result", "history", "ev", "1", "1", "--json").json
    assert [v["imported_by"] for v in history] == ["Arbiter Åsa"]
    logged = [c for c in tourney("log", "--json").json if c["action"] == "result.import"]
    assert [c["actor"] for c in logged] == ["Arbiter Åsa"]
