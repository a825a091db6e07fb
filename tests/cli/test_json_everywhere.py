"""--json on every command (the project standard the guide promises): a walk of
the whole command tree, and what the file-writing commands print with it. The same
walk holds every command's --help to what sqlite-utils gives: a description, help for
each option and an example that is a command line tourney takes."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import click
from conftest import seat_example_cup

from tourney.cli.main import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def every_command(group: click.Group, ctx: click.Context, path=()):
    """(path, command) of every group and command under ``group``."""
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield path + (name,), command
        if isinstance(command, click.Group):
            yield from every_command(command, ctx, path + (name,))


def leaf_commands(group: click.Group, ctx: click.Context):
    """(path, command) of every command that runs (not a group)."""
    return ((path, command) for path, command in every_command(group, ctx)
            if not isinstance(command, click.Group))


def test_every_command_takes_json():
    ctx = click.Context(cli)
    leaves = list(leaf_commands(cli, ctx))
    assert len(leaves) > 30
    missing = [" ".join(path) for path, command in leaves
               if not any("--json" in param.opts for param in command.params)]
    assert missing == []


def test_simulate_json_prints_the_records_as_json_lines(run_cli):
    args = ("simulate", "spardame", "--players", "4", "--deals", "2", "--seed", "7")
    plain = run_cli(None, *args).stdout.splitlines()
    for run in (run_cli(None, *args, "--json"), run_cli(None, "--json", *args)):
        lines = [json.loads(line) for line in run.stdout.splitlines()]
        assert len(lines) == len(plain) - 1 == 2
        header = plain[0].split(",")
        assert list(lines[0]) == header
        # round and deal numbers, the table a label: as `result export --json`
        assert (lines[1]["round"], lines[1]["table"], lines[1]["deal"]) == (1, "1", 2)
        assert lines[0]["players"] == "P1;P2;P3;P4"


def test_round_sheet_json_describes_the_file_or_prints_its_rows(tourney, tmp_path):
    seat_example_cup(tourney)
    out = tmp_path / "sheet.xlsx"
    run = tourney("round", "sheet", "example-cup", "1", "--out", str(out), "--json")
    assert run.json == {"action": "round.sheet", "file": str(out), "format": "xlsx",
                        "event": "example-cup", "round": 1, "tables": 4, "rows": 12}
    assert out.exists()
    rows = [json.loads(line) for line in
            tourney("round", "sheet", "example-cup", "1", "--json").stdout.splitlines()]
    assert len(rows) == 12 and rows[0]["round"] == 1 and rows[0]["scores"] == ""
    assert rows[0]["deal"] == 1  # numbers, as in `round show --json` and the export


def test_result_export_json_describes_the_file_or_prints_the_records(tourney, tmp_path):
    seat_example_cup(tourney)
    tourney("result", "import", str(EXAMPLES / "round-1.csv"))
    out = tmp_path / "export.csv"
    run = tourney("result", "export", "example-cup", "--out", str(out), "--json")
    assert run.json == {"action": "result.export", "file": str(out), "format": "csv",
                        "event": "example-cup", "round": None, "matches": 4, "deals": 12}
    assert len(out.read_text(encoding="utf-8-sig").splitlines()) == 13
    records = [json.loads(line) for line in
               tourney("result", "export", "example-cup", "--json").stdout.splitlines()]
    assert len(records) == 12 and {r["event"] for r in records} == {"example-cup"}
    assert records[0]["round"] == 1 and records[0]["scores"]


def test_serve_json_says_where_it_listens(db_url):
    env = dict(os.environ, TOURNEY_SERVE_PASSWORD="x")
    server = subprocess.Popen(
        [sys.executable, "-m", "tourney.cli.main", "serve", "--port", "0", "--json",
         "--db", db_url],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        answer = json.loads(server.stdout.readline())
        assert answer["port"] != 0 and answer["token"] is None
        assert answer["url"] == f"http://localhost:{answer['port']}/"
        assert answer["organizer_url"] == answer["url"] + "org"
    finally:
        server.kill()
        server.wait(10)


def test_example_headings_agree_with_their_commands():
    """'Example:' over one command line, 'Examples:' over several."""
    ctx = click.Context(cli)
    wrong = []
    for path, command in leaf_commands(cli, ctx):
        lines = (command.help or "").splitlines()
        for i, line in enumerate(lines):
            heading = line.strip()
            if heading not in ("Example:", "Examples:"):
                continue
            shown = 0
            for following in lines[i + 1:]:
                if not following.strip():
                    break
                shown += following.strip().startswith("tourney ")
            if (heading == "Examples:") != (shown > 1):
                wrong.append(f"{' '.join(path)}: {heading} over {shown}")
    assert wrong == []


def example_commands(help_text: str):
    """The tourney command lines of a help text's examples (a line ending in a
    backslash continued; ``&&``, ``|`` and redirections split off), without the
    leading ``tourney``."""
    lines, pending = [], ""
    for line in help_text.splitlines():
        text = line.strip()
        if pending or text.startswith("tourney "):
            pending += text.removesuffix("\\") + " "
            if not text.endswith("\\"):
                lines.append(pending)
                pending = ""
    for line in lines:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = []
        for token in [*lexer, "&&"]:
            if token and set(token) <= set("|&;<>()"):  # '' is an empty argument ("")
                if words[:1] == ["tourney"]:
                    yield words[1:]
                words = []
            else:
                words.append(token)


def parse(words: list[str]) -> None:
    """Parse a command line as tourney would, down to its command, without running
    it: click's usage error (an unknown command or option, a missing or extra
    argument, a bad choice) when it would not be taken."""
    command, ctx = cli, cli.make_context("tourney", list(words))
    while isinstance(command, click.Group):
        # What follows a group's own options (click 8 keeps the subcommand's name apart)
        rest = [*getattr(ctx, "_protected_args", ()), *ctx.args]
        if not rest:
            return
        name, command, rest = command.resolve_command(ctx, rest)
        ctx = command.make_context(name, rest, parent=ctx)


def test_every_command_has_a_description_an_example_and_option_help():
    ctx = click.Context(cli)
    gaps = []
    for path, command in leaf_commands(cli, ctx):
        name = " ".join(path)
        if not (command.help or "").strip():
            gaps.append(f"{name}: no description")
        if not list(example_commands(command.help or "")):
            gaps.append(f"{name}: no example")
        gaps += [f"{name}: {max(param.opts, key=len)} has no help"
                 for param in command.params
                 if isinstance(param, click.Option) and not param.hidden and not param.help]
    assert gaps == []


def test_an_argument_reads_the_same_in_every_usage_line():
    """One parameter, one name in every command's usage: a round is ROUND in `round
    show` as in `round start` and `result show`, players are PLAYER in `event enter`
    as in `event checkin` (optional ones in brackets, several with dots)."""
    ctx = click.Context(cli)
    shown = defaultdict(set)
    for path, command in leaf_commands(cli, ctx):
        for param in command.params:
            if isinstance(param, click.Argument):
                metavar = param.make_metavar(click.Context(command))
                shown[param.name].add((metavar.strip("[].")))
    assert {name: names for name, names in shown.items() if len(names) > 1} == {}
    assert shown["number"] == shown["round_number"] == {"ROUND"}


def test_every_example_in_the_help_is_a_command_line_tourney_takes():
    ctx = click.Context(cli)
    helps = [("", cli.help)] + [(" ".join(path), command.help or "")
                                for path, command in every_command(cli, ctx)]
    examples = [(name, words) for name, text in helps for words in example_commands(text)]
    assert len(examples) > 100
    refused = []
    for name, words in examples:
        try:
            parse(words)
        except click.UsageError as err:
            refused.append(f"{name}: tourney {shlex.join(words)}: {err.format_message()}")
    assert refused == []


def test_an_unknown_record_column_gets_a_did_you_mean(run_cli, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("event,variant,round,table,deal,players,dealer,scorse,play\n",
                   encoding="utf-8")
    run = run_cli(None, "validate", str(bad), "--variant", "spardame", exit_code=2)
    assert "unknown column 'scorse' (column 8; did you mean scores?)" in run.stderr
