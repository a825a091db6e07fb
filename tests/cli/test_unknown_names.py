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


def test_exit_codes_are_decided_by_the_kind_of_error():
    from tourney.cli.errors import exit_code
    from tourney.errors import OptionError, RecordError, TourneyError
    from tourney.records.csv_format import HeaderError
    from tourney.tournament.results import ImportRejected, ImportReport

    assert exit_code(TourneyError("refused")) == 1 and exit_code(RecordError("bad")) == 1
    assert exit_code(OptionError("no such option")) == 2
    assert exit_code(HeaderError("unknown column", line=1)) == 2
    report = ImportReport(file="r.csv", source_sha256="")
    assert exit_code(ImportRejected(report)) == 1
    assert exit_code(ImportRejected(report, HeaderError("unknown column"))) == 2
    assert exit_code(ImportRejected(report, RecordError("not UTF-8"))) == 1
