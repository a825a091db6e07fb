"""`tourney validate`.

- `validate --event SLUG FILE`: a file checked with an event's variant, house rules
  and match rules as `result import` checks them, the database only read; and the
  sentence saying which rules a check used (issue 15).
- Without --event or --rule: when the default rules refused something house rules
  decide, the last line says how to give them.
"""
import json
import os
import random

import pytest

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.simulation import simulate_match
from tourney.storage.db import sqlite_file
from tourney.tournament.settings import other_event, other_variant

PLAYERS = ["Anna", "Bertil", "Cecilia", "David"]


def _file(path, variant="dam-stick", rules=None, event=None, seed=1):
    """A bot-played one-match file of ``variant`` under ``rules``."""
    game = get_game(variant)
    options = game.resolve_options(rules or {})
    records = simulate_match(game, options, PLAYERS, random.Random(seed), event=event)
    with open(path, "w", newline="", encoding="utf-8") as stream:
        write_records(stream, records, game_for=lambda record: game)
    return str(path)


@pytest.fixture
def club(tourney, monkeypatch):
    """club: dam-stick, matches of one deal, PLAYERS entered and round 1 seated at one
    table (PLAYERS become its seats in order: a file of round 1 table 1 is then one
    `result import` stores, as validate --event must say)."""
    tourney("event", "create", "club", "--variant", "dam-stick", "--rule", "deals=1")
    tourney("event", "enter", "club", "--add", *PLAYERS)
    seats = tourney("round", "seat", "club", "--json").json["tables"][0]["seats"]
    monkeypatch.setattr(f"{__name__}.PLAYERS", seats)
    return "club"


def test_the_events_house_and_match_rules_are_used(tourney, club, tmp_path):
    one_deal = _file(tmp_path / "one.csv", rules={"deals": "1"})
    to_100 = _file(tmp_path / "to100.csv")
    ok = tourney("validate", one_deal, "--event", club)
    assert "checked with the rules of event club (dam-stick with deals=1)" in ok.stderr
    # without the event, the default (a match to 100 points) refuses the one-deal file
    alone = tourney("validate", one_deal, exit_code=1)
    assert "checked with dam-stick's default rules" in alone.stderr
    # a match to 100 is too long for the event's one-deal matches
    long = tourney("validate", to_100, "--event", club, "--json", exit_code=1)
    (match,) = [json.loads(line) for line in long.stdout.splitlines()
                if json.loads(line)["kind"] == "match"]
    assert match["valid"] is False and match["rule"]


def test_a_row_of_another_event_or_variant_is_refused_in_the_imports_words(tourney, club,
                                                                          tmp_path):
    other = _file(tmp_path / "other.csv", rules={"deals": "1"}, event="elsewhere")
    run = tourney("validate", other, "--event", club, "--json", exit_code=1)
    deal = json.loads(run.stdout.splitlines()[0])
    expected = other_event("elsewhere", club)
    assert (deal["rule"], deal["column"]) == (expected.rule, "event")
    assert deal["error"].endswith(expected.message)
    spardame = _file(tmp_path / "spardame.csv", variant="spardame", rules={"deals": "1"})
    run = tourney("validate", spardame, "--event", club, "--json", exit_code=1)
    deal = json.loads(run.stdout.splitlines()[0])
    assert deal["error"].endswith(other_variant(club, "dam-stick", "spardame").message)


def test_nothing_is_written_and_an_unknown_event_is_an_error(tourney, club, db_url, tmp_path):
    path = _file(tmp_path / "one.csv", rules={"deals": "1"})
    database = sqlite_file(db_url)
    before = (os.stat(database).st_mtime_ns, open(database, "rb").read()) if database else None
    tourney("validate", path, "--event", club)
    if database:
        assert (os.stat(database).st_mtime_ns, open(database, "rb").read()) == before
    unknown = tourney("validate", path, "--event", "nope", exit_code=None)
    show = tourney("event", "show", "nope", exit_code=None)
    assert unknown.exit_code == show.exit_code != 0
    assert "unknown event 'nope'" in unknown.stderr
    assert "Traceback" not in unknown.stderr + unknown.stdout


def test_a_missing_database_is_an_error_naming_it_and_is_not_created(run_cli, tmp_path):
    path = _file(tmp_path / "one.csv", rules={"deals": "1"})
    missing = tmp_path / "none.db"
    run = run_cli(str(missing), "validate", path, "--event", "club", exit_code=2)
    assert str(missing) in run.stderr
    assert not missing.exists()


def test_event_with_variant_or_rule_is_a_usage_error(tourney, club, tmp_path):
    path = _file(tmp_path / "one.csv", rules={"deals": "1"})
    run = tourney("validate", path, "--event", club, "--rule", "deals=2", exit_code=2)
    assert "--event" in run.stderr


def test_without_an_event_the_rules_used_are_said(run_cli, tmp_path):
    path = _file(tmp_path / "one.csv", rules={"deals": "1"})
    given = run_cli(None, "validate", path, "--rule", "deals=1")
    assert "checked with dam-stick's rules with deals=1" in given.stderr
    spardame = _file(tmp_path / "s.csv", variant="spardame", rules={"deals": "1"})
    both = tmp_path / "both.csv"
    lines = open(spardame, encoding="utf-8").read().splitlines(keepends=True)
    with open(both, "w", encoding="utf-8") as out:
        out.write(open(path, encoding="utf-8").read())
        out.writelines(line.replace(",1,1,", ",2,1,", 1) for line in lines[1:])
    mixed = run_cli(None, "validate", str(both), "--rule", "deals=1")
    assert "checked with each variant's rules (dam-stick, spardame) with deals=1" in mixed.stderr


def _season(path, rules, variants=("dam-stick",), matches=12):
    """Several bot-played matches, each in its own round, ``variants`` in turn."""
    rows = []
    for number in range(matches):
        variant = variants[number % len(variants)]
        game = get_game(variant)
        options = game.resolve_options(rules)
        rows += [(game, r) for r in simulate_match(game, options, PLAYERS, random.Random(number),
                                                   round_number=number + 1)]
    with open(path, "w", newline="", encoding="utf-8") as stream:
        write_records(stream, [r for _, r in rows], game_for=lambda record: get_game(record.variant))
    return str(path)


def test_jobs_say_the_rules_every_part_used(run_cli, tmp_path, monkeypatch):
    from tourney.records import parallel
    monkeypatch.setattr(parallel, "MIN_PART_BYTES", 1000)
    path = _season(tmp_path / "mixed.csv", {"deals": "1"}, ("dam-stick", "spardame"))
    one = run_cli(None, "validate", path, "--rule", "deals=1", "--jobs", "1")
    assert "checked with each variant's rules (dam-stick, spardame) with deals=1" in one.stderr
    two = run_cli(None, "validate", path, "--rule", "deals=1", "--jobs", "3")
    assert (two.stdout, two.stderr) == (one.stdout, one.stderr)


def test_jobs_with_an_event(tourney, club, tmp_path, monkeypatch):
    from tourney.records import parallel
    monkeypatch.setattr(parallel, "MIN_PART_BYTES", 1000)
    path = _season(tmp_path / "season.csv", {"deals": "1"})
    # the season's later rounds are not seated: both refuse it alike
    one = tourney("validate", path, "--event", club, "--jobs", "1", "--json", exit_code=None)
    two = tourney("validate", path, "--event", club, "--jobs", "3", "--json", exit_code=None)
    assert (two.stdout, two.stderr) == (one.stdout, one.stderr)
    assert "checked with the rules of event club" in two.stderr


def test_every_name_must_be_entered_in_the_event_or_an_old_name_of_one(tourney, club,
                                                                       tmp_path):
    path = _file(tmp_path / "one.csv", rules={"deals": "1"})
    # an old name still finds the player: renamed, or merged into one entered
    tourney("player", "rename", "Bertil", "Bertil Ek")
    tourney("player", "add", "Cissi")
    tourney("player", "merge", "Cecilia", "Cissi")
    tourney("validate", path, "--event", club)
    lines = open(path, encoding="utf-8").read()
    cissi = tmp_path / "cissi.csv"
    cissi.write_text(lines.replace("Cecilia", "Cissi"), encoding="utf-8")
    tourney("validate", str(cissi), "--event", club)
    # a name of nobody entered is refused, a look-alike of an entered one offered
    tourney("player", "add", "Åsa Öberg")
    typed = tmp_path / "typed.csv"
    typed.write_text(lines.replace("Anna", "ANNA").replace("David", "Åsa Öberg"),
                     encoding="utf-8")
    run = tourney("validate", str(typed), "--event", club, "--json", exit_code=1)
    deal = json.loads(run.stdout.splitlines()[0])
    assert (deal["rule"], deal["column"]) == ("not-entered", "players")
    assert deal["error"].endswith("ANNA, Åsa Öberg not entered in club (did you mean Anna?)")


# ---------------------------------------------- the hint at house rules

# the players of the files checked with the default rules
DEFAULT_RULES_PLAYERS = ["Anna Berg", "Ingrid Falk", "Cecilia Dahl", "David Ek"]
HINT = ("checked with spardame's default rules; if the file was played with house rules, "
        "give them (--rule NAME=VALUE) or --event SLUG")
CYCLE = {"pass": "cycle", "deals": "4"}


def _cycle_file(path):
    game = get_game("spardame")
    records = simulate_match(game, game.resolve_options(CYCLE), DEFAULT_RULES_PLAYERS, random.Random(3), deals=4)
    with open(path, "w", newline="", encoding="utf-8") as stream:
        write_records(stream, records, game_for=lambda record: game)
    return path


def test_a_file_played_with_house_rules_gets_the_hint(run_cli, tmp_path):
    path = _cycle_file(tmp_path / "cycle.csv")
    run = run_cli(None, "validate", str(path), exit_code=1)
    assert run.stderr.rstrip("\n").splitlines()[-1] == f"{path}: {HINT}", run.stderr
    assert run.stderr.count("if the file was played with house rules") == 1
    given = ["--rule", "pass=cycle", "--rule", "deals=4"]
    ok = run_cli(None, "validate", str(path), *given, exit_code=0)
    assert "house rules" not in ok.stderr
    wrong = run_cli(None, "validate", str(path), "--rule", "deals=4", exit_code=1)
    assert "if the file was played with house rules" not in wrong.stderr  # rules were given


def test_errors_no_house_rule_explains_get_no_hint(run_cli, tmp_path):
    unreadable = tmp_path / "unreadable.csv"
    unreadable.write_text("round,table,deal,players,dealer,scores\n"
                          f"1,A,1,{';'.join(DEFAULT_RULES_PLAYERS)},Anna Berg,x;0;0;0\n", encoding="utf-8")
    run = run_cli(None, "validate", str(unreadable), "--variant", "spardame", exit_code=1)
    assert "is not a score" in run.stdout and "house rules" not in run.stderr
