"""One message for one mistake: every command names an unknown event alike."""
from __future__ import annotations


def test_every_command_names_an_unknown_event_alike(tourney, tmp_path):
    tourney("event", "create", "club-1", "--variant", "spardame")
    commands = [
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
        stderr = tourney(*command, exit_code=2).stderr
        assert stderr == "Error: unknown event 'club-2' (did you mean club-1?)\n", command
    # `tourney standings` shows an event or a series, as `tourney team` takes either
    for command in (["standings", "club-2"], ["team", "list", "club-2"]):
        stderr = tourney(*command, exit_code=2).stderr
        assert stderr == "Error: unknown event or series 'club-2' (did you mean club-1?)\n"


def test_an_unknown_name_with_none_known_is_said_in_one_bracket(tourney):
    # the remedy's command is the one bracket: no "(...) (...)"
    tourney("db", "init")
    cases = {("series", "show", "x"): "Error: unknown series 'x': there are no series yet "
                                      "(`tourney series create`)\n",
             ("standings", "x"): "Error: unknown event or series 'x': there are no events yet "
                                 "(`tourney event create`)\n"}
    for command, said in cases.items():
        assert tourney(*command, exit_code=2).stderr == said


def test_exit_codes_are_decided_by_the_kind_of_error():
    from tourney.cli.errors import exit_code
    from tourney.errors import OptionError, RecordError, TourneyError, UnreadableFile
    from tourney.records.csv_format import HeaderError
    from tourney.tournament.results import ImportRejected, ImportReport

    assert exit_code(TourneyError("refused")) == 1 and exit_code(RecordError("bad")) == 1
    assert exit_code(OptionError("no such option")) == 2
    assert exit_code(HeaderError("unknown column", line=1)) == 2
    report = ImportReport(file="r.csv", source_sha256="")
    assert exit_code(ImportRejected(report)) == 1
    assert exit_code(ImportRejected(report, HeaderError("unknown column"))) == 2
    # a file that cannot be read at all is not a record file: a usage error
    assert exit_code(ImportRejected(report, UnreadableFile("not UTF-8", rule="encoding"))) == 2
    assert exit_code(ImportRejected(report, RecordError("plays spardame, not kortrad"))) == 1


def test_library_names_the_field_and_the_cli_names_the_flag(tourney, db_url):
    from tourney.errors import InvalidValue
    from tourney.storage.db import open_engine, transaction
    from tourney.tournament.events import create_event

    with transaction(open_engine(db_url)) as session:
        try:
            create_event(session, "cup", "spardame", table_sizes="5-3")
        except InvalidValue as err:
            # the value as given, as data (quoted where it is said, not in the data)
            assert (err.field, err.value) == ("table_sizes", "5-3")
            assert str(err).startswith("table_sizes takes a range with the smaller size first")
            assert str(err).endswith(", not '5-3'")
        else:
            raise AssertionError("5-3 accepted")
    stderr = tourney("event", "create", "cup", "--variant", "spardame", "--table-sizes", "5-3",
                     exit_code=2).stderr
    assert stderr == ("Error: --table-sizes takes a range with the smaller size first (3-5), "
                      "not '5-3'\n")


def test_the_library_names_settings_and_operations_the_cli_spells_them():
    """Library errors say what would help in the library's words and carry the
    setting or operation; only the command line spells them as flags and commands."""
    from tourney.cli.errors import message
    from tourney.errors import InvalidValue, RecordError, Remedy, SettingWay, TourneyError

    refused = TourneyError("round 1 of cup has no result yet for table 2; import it first",
                           setting="force", remedy=Remedy("import-results"),
                           setting_way=SettingWay("seat-anyway", round=2))
    # no flag, no command, no words for the setting's way: data
    assert str(refused) == "round 1 of cup has no result yet for table 2; import it first"
    assert message(refused) == ("round 1 of cup has no result yet for table 2; import it "
                                "first (`tourney result import`), or seat round 2 anyway "
                                "(--force)")
    record = RecordError("no event: add an event column or name the event", line=2,
                         column="event", setting="event")
    assert message(record) == ("line 2, event: no event: add an event column or name the event "
                               "(--event)")
    assert message(InvalidValue("table_sizes", "'x'", "a size (4)")) == \
        "--table-sizes takes a size (4), not 'x'"


def test_hints_on_the_command_line(tourney, run_cli, tmp_path):
    tourney("event", "create", "cup", "--variant", "spardame", "--table-sizes", "4")
    assert tourney("event", "enter", "cup", exit_code=2).stderr == \
        "Error: name the players to enter, or enter them all (--all)\n"
    unknown = tourney("event", "enter", "cup", "Nobody", exit_code=2).stderr
    assert unknown.endswith("; register it first (`tourney player add`), or have "
                            "entering add it (--add)\n")
    assert tourney("round", "seat", "cup", exit_code=1).stderr.endswith(
        "a table needs 4; enter players first (`tourney event enter`)\n")
    empty = tmp_path / "x.txt"
    empty.write_text("")
    bad = run_cli(None, "validate", str(empty), "--encoding", "nope", exit_code=2).stderr
    assert bad == ("Error: --encoding takes an encoding Python knows (try utf-8, utf-16, "
                   "windows-1252, latin-1), not 'nope'\n")


def test_validate_help_gives_an_unknown_event_the_exit_code_it_has(tourney, tmp_path):
    tourney("event", "create", "club-1", "--variant", "spardame")
    empty = tmp_path / "empty.csv"
    empty.write_text("round,table,deal,players,dealer,scores\n", encoding="utf-8")
    stderr = tourney("validate", str(empty), "--event", "club-2", exit_code=2).stderr
    assert "unknown event 'club-2' (did you mean club-1?)" in stderr
    help_text = " ".join(tourney("validate", "--help").stdout.split())
    assert "2 usage error (unknown event," in help_text
    assert "1 some deal or match invalid (or an unknown event)" not in help_text


def test_unknown_names_are_usage_errors_with_suggestions(tourney, run_cli):
    tourney("player", "add", "Anna Berg")
    tourney("event", "create", "cup", "--variant", "spardame")
    assert tourney("event", "show", "cpu", exit_code=2).stderr == (
        "Error: unknown event 'cpu' (did you mean cup?)\n")
    assert tourney("player", "rename", "Ana Berg", "X", exit_code=2).stderr == (
        "Error: unknown player 'Ana Berg' (did you mean 'Anna Berg'?)\n")
    assert tourney("event", "create", "cup-2", "--variant", "spardam", exit_code=2).stderr == (
        "Error: unknown variant 'spardam' (did you mean spardame?)\n")
    assert "did you mean dam-stick?" in tourney("rating", "show", "--variant", "dam-stik",
                                                exit_code=2).stderr
    far = run_cli(None, "variants", "chess", exit_code=2).stderr
    assert "unknown variant 'chess' (variants: " in far and "spardame" in far
