"""One option name, one meaning across the CLI (as sqlite-utils' options read alike
in every command): an option used by more than one command (or by `tourney`
itself) is a flag everywhere or takes a value everywhere, and says the same thing
in every --help, unless the allowlist below says why its words differ and which
words every one of its helps holds. An old spelling kept working for the users
who type it is hidden and listed in DEPRECATED, with a note on stderr."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import click
from conftest import seat_example_cup

from tourney.cli.main import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Option name: (words one of which every help of it holds, why it is one meaning
# told in different words)
SAME_MEANING = {
    "--all": (("every",), "every player: entered (event enter), listed with the "
                          "merged duplicates too (player list)"),
    "--base-url": (("reach",), "where players' phones reach `tourney serve`; the server "
                               "itself says so of its own address"),
    "--best": (("best n events",), "create gives the default"),
    "--by": (("who",), "who did it, named after each command's verb"),
    "--bye-points": (("bye",), "create gives the default"),
    "--club": (("club",), "the club of the players added or set"),
    "--db": (("database",), "`tourney --db` gives the command's --db"),
    "--email": (("e-mail",), "the address of the player added or set"),
    "--event": (("event",), "an event's slug, limiting or filling in what the command "
                            "does"),
    "--force": (("even though",), "do it even though tourney would refuse; what is "
                                  "overridden is each command's own"),
    "--from-round": (("first round",), "the first round a change takes effect"),
    "--handicap": (("net",), "rank by net points; create says more"),
    "--jobs": (("processes",), "processes working at once"),
    "--json": (("json",), "`tourney --json` gives the command's --json"),
    "--lang": (("language",), "a language: of published pages (an event's, or the "
                              "site's, repeatable), or the one a listing sorts names in (player "
                              "list, series standings, team list and remove: one option)"),
    "--list": (("list",), "list instead of changing"),
    "--min-events": (("events a player must play",), "create gives the default"),
    "--name": (("title",), "the title of the event or series"),
    "--out": (("write",), "where the command writes: a file (- is stdout), or the "
                          "published site's folder"),
    "--points": (("match points",), "an event's match points: the system counting them "
                                    "(event create, set: share or place) or a number of "
                                    "them (result adjust); a word or a number, never a "
                                    "flag, and both typed by users already"),
    "--provisional": (("provisional",), "the pool's threshold of rated matches: set "
                                        "(rating pool) or used for one listing (rating "
                                        "show)"),
    "--reason": (("why",), "why, kept where each command keeps it"),
    "--round": (("round",), "a round of the event"),
    "--rounds": (("rounds",), "a number of rounds"),
    "--scoring": (("points", "placing"), "set names the choices create explains"),
    "--seating": (("seated",), "set says when it may change"),
    "--seed": (("seed",), "a seed of a random draw"),
    "--table-sizes": (("players per table",), "create gives the default"),
    "--undo": (("back",), "take back what the command did"),
    "--unset": (("default", "every event counts again"),
                "back to the default: event set's list, series set's one setting"),
    "--variant": (("variant", "pool"), "a variant (its rating pool, in the rating "
                                       "commands)"),
    "--with-email": (("e-mail addresses too",), "player list says why not by default"),
    "--deals": (("deals",), "deals per match"),
    "--yes": (("do not ask", "replace the output file"),
              "yes to what tourney would otherwise stop at: the question before a change, "
              "or the refusal to overwrite an output file"),
    "-y": (("do not ask", "replace the output file"), "--yes"),
}

# (command, old spelling): what to type instead (the note on stderr says it)
DEPRECATED = {
    ("notify", "--dry-run"): "--outbox DIR",  # --dry-run: a flag (result import)
    ("series handicap", "--remove"): "--undo",  # as every "take back" flag
    ("result adjust", "--remove"): "--cancel ID",  # --remove was a flag (handicap)
    ("result show", "--version"): "the argument VERSION",  # `tourney --version`
}


def every_command(group: click.Group, ctx: click.Context, path=()):
    """(path, command) of `tourney` itself and every group and command under it."""
    if not path:
        yield (), group
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield path + (name,), command
        if isinstance(command, click.Group):
            yield from every_command(command, ctx, path + (name,))


def options_by_name():
    """{option name: [(command, kind, help)]} of the options --help shows, and the
    hidden ones as (command, option name)."""
    shown, hidden = defaultdict(list), set()
    for path, command in every_command(cli, click.Context(cli)):
        name = " ".join(path) or "tourney"
        for param in command.params:
            if not isinstance(param, click.Option):
                continue
            for opt in param.opts + param.secondary_opts:
                if param.hidden:
                    hidden.add((name, opt))
                else:
                    kind = "flag" if param.is_flag or param.count else "value"
                    shown[opt].append((name, kind, param.help or ""))
    return shown, hidden


def test_an_option_name_is_a_flag_everywhere_or_takes_a_value_everywhere():
    shown, _ = options_by_name()
    mixed = {opt: sorted((name, kind) for name, kind, _ in uses)
             for opt, uses in shown.items() if len({kind for _, kind, _ in uses}) > 1}
    assert mixed == {}


def test_an_option_name_says_one_thing_in_every_help():
    shown, _ = options_by_name()
    shared = {opt: uses for opt, uses in shown.items() if len(uses) > 1}
    differing = {opt for opt, uses in shared.items() if len({h for *_, h in uses}) > 1}
    assert differing - set(SAME_MEANING) == set()  # a new one: same help, or a reason
    assert set(SAME_MEANING) - differing == set()  # no stale reasons
    off = [f"{opt} in {name}: {help_text!r}"
           for opt in sorted(differing)
           for name, _, help_text in shared[opt]
           if not any(word in help_text.lower() for word in SAME_MEANING[opt][0])]
    assert off == []


def test_the_hidden_options_are_the_deprecated_spellings():
    _, hidden = options_by_name()
    assert hidden == set(DEPRECATED)


def test_the_program_version_is_the_only_version_option():
    shown, _ = options_by_name()
    assert [name for name, *_ in shown["--version"]] == ["tourney"]
    assert [name for name, *_ in shown["--dry-run"]] == ["result import"]
    assert "--remove" not in shown


def test_each_deprecated_spelling_still_works_with_a_note(tourney, tmp_path):
    seat_example_cup(tourney)
    tourney("result", "import", str(EXAMPLES / "round-1.csv"))
    # result show --version N: the argument VERSION
    old = tourney("result", "show", "example-cup", "1", "1", "--version", "1", "--json")
    new = tourney("result", "show", "example-cup", "1", "1", "1", "--json")
    assert old.json == new.json and new.json["version"] == 1
    assert old.stderr == ("note: --version is deprecated here: use the argument VERSION "
                          "(result show SLUG ROUND TABLE VERSION)\n")
    assert new.stderr == ""
    # result adjust --remove ID: --cancel ID
    for spelling in ("--remove", "--cancel"):
        tourney("result", "adjust", "example-cup", "Ola Dahl", "--points", "-1",
                "--reason", "late")
        [made] = tourney("result", "adjust", "example-cup", "--list", "--json").json
        run = tourney("result", "adjust", "example-cup", spelling, str(made["id"]), "--json")
        assert run.json["action"] == "result.adjust.remove"
        assert ("deprecated" in run.stderr) == (spelling == "--remove")
        assert tourney("result", "adjust", "example-cup", "--list", "--json").json == []
    # series handicap --remove: --undo
    tourney("series", "create", "season")
    tourney("series", "add", "season", "example-cup")
    for spelling in ("--remove", "--undo"):
        tourney("series", "handicap", "season", "Ola Dahl", "2")
        run = tourney("series", "handicap", "season", "Ola Dahl", spelling, "--json")
        assert run.json["details"]["changes"] == {"Ola Dahl": {"before": 2.0, "after": None}}
        assert ("note: --remove is deprecated here: use --undo" in run.stderr) == (
            spelling == "--remove")
    # notify --dry-run DIR: --outbox DIR
    tourney("player", "set", "Ola Dahl", "--email", "ola@example.org")
    for spelling in ("--dry-run", "--outbox"):
        outbox = tmp_path / spelling.strip("-")
        run = tourney("notify", "example-cup", "--round", "1", spelling, str(outbox),
                      "--resend")
        assert ("note: --dry-run is deprecated here: use --outbox DIR" in run.stderr) == (
            spelling == "--dry-run")
        assert "1 written" in run.stderr and len(list(outbox.glob("*.eml"))) == 1
