"""--json on every command (the project standard the guide promises): a walk of
the whole command tree, and what the file-writing commands print with it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
from conftest import seat_example_cup

from tourney.cli.main import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def leaf_commands(group: click.Group, ctx: click.Context, path=()):
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from leaf_commands(command, ctx, path + (name,))
        else:
            yield path + (name,), command


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


def test_an_unknown_record_column_gets_a_did_you_mean(run_cli, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("event,variant,round,table,deal,players,dealer,scorse,play\n",
                   encoding="utf-8")
    run = run_cli(None, "validate", str(bad), "--variant", "spardame", exit_code=2)
    assert "unknown column 'scorse' (column 8; did you mean scores?)" in run.stderr
