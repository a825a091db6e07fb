"""One message for one mistake: every command names an unknown event alike."""
from __future__ import annotations


def test_every_command_names_an_unknown_event_alike(tourney, tmp_path):
    tourney("event", "create", "club-1", "--variant", "spardame")
    commands = [
        ["standings", "club-2"],
        ["event", "show", "club-2"],
        ["round", "seat", "club-2"],
        ["result", "history", "club-2", "1", "1"],
        ["result", "show", "club-2", "1", "1"],
        ["result", "revert", "club-2", "1", "1", "1"],
        ["result", "export", "club-2"],
        ["log", "--event", "club-2"],
        ["publish", "--out", str(tmp_path / "site"), "--event", "club-2"],
    ]
    for command in commands:
        stderr = tourney(*command, exit_code=1).stderr
        assert stderr == "Error: unknown event 'club-2' (did you mean club-1?)\n", command
