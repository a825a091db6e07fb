"""Start-up: commands that need no database load no database library.

The command table in ``tourney.cli.main`` names the module of each command, so a
module is imported only when one of its commands runs; this test keeps the
table and the modules in step, and checks in a fresh interpreter that
`--version`, `variants`, `validate` and `simulate` leave SQLAlchemy, sqlmodel,
alembic and psycopg unloaded (timings: bench/bench_startup.py).
"""
from __future__ import annotations

import importlib
import json
import subprocess
import sys

import click

from tourney.cli import main as cli_main

CHILD = """
import json, sys
from click.testing import CliRunner
from tourney.cli.main import cli
record = sys.argv[1]
runs = {}
for args in (["--version"], ["variants"], ["validate", record],
             ["simulate", "kortrad", "--players", "4", "--deals", "1"]):
    result = CliRunner().invoke(cli, args)
    runs[" ".join(args[:1])] = result.exit_code
heavy = sorted(m for m in sys.modules
               if m.split(".")[0] in ("sqlalchemy", "sqlmodel", "alembic", "psycopg"))
print(json.dumps({"exit": runs, "heavy": heavy}))
"""


def test_the_command_table_matches_the_modules():
    group = click.Group()
    for module in {module for module, _ in cli_main.COMMAND_MODULES.values()}:
        importlib.import_module(f"tourney.cli.{module}").register(group)
    assert set(group.commands) == set(cli_main.COMMAND_MODULES)
    for name, command in group.commands.items():
        module = command.callback.__module__ if command.callback else None
        if isinstance(command, click.Group):  # a group's callback may be elsewhere
            module = type(command).__module__ if module is None else module
        assert module == f"tourney.cli.{cli_main.COMMAND_MODULES[name][0]}", name
        # the short help `tourney --help` shows from the table is the command's own
        kept = cli_main.COMMAND_MODULES[name][1]
        for limit in (30, 45, 200):
            assert (click.Command(name, help=kept).get_short_help_str(limit)
                    == command.get_short_help_str(limit)), name


def test_commands_without_a_database_load_no_database_library(tmp_path):
    record = tmp_path / "sim.csv"
    simulated = subprocess.run(
        [sys.executable, "-m", "tourney.cli.main", "simulate", "kortrad", "--players", "4",
         "--deals", "1"], capture_output=True, text=True, check=True)
    record.write_text(simulated.stdout)
    child = subprocess.run([sys.executable, "-c", CHILD, str(record)], capture_output=True,
                           text=True, check=True)
    report = json.loads(child.stdout)
    assert report["exit"] == {"--version": 0, "variants": 0, "validate": 0, "simulate": 0}
    assert report["heavy"] == []


def test_top_level_help_imports_no_command_module():
    child = subprocess.run(
        [sys.executable, "-c",
         "import json, sys\nfrom click.testing import CliRunner\nfrom tourney.cli.main import cli\n"
         "out = CliRunner().invoke(cli, ['--help']).output\n"
         "assert 'validate' in out and 'Check every deal' in out, out\n"
         "print(json.dumps([m for m in sys.modules if m.startswith('tourney.cli.')]))"],
        capture_output=True, text=True, check=True)
    loaded = set(json.loads(child.stdout))
    commands = {f"tourney.cli.{module}" for module, _ in cli_main.COMMAND_MODULES.values()}
    assert loaded & commands == set()


def seated_event(tmp_path):
    """A database of eight players in one spardame event with round 1 seated, and
    a function running `tourney --db DB ARGS...` that returns its stdout."""
    db = f"sqlite:///{tmp_path / 'l.db'}"
    (tmp_path / "players.csv").write_text(
        "name\n" + "".join(f"Player {i}\n" for i in range(8)))

    def tourney(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "tourney.cli.main", "--db", db, *args],
                              capture_output=True, text=True, check=True)
        return done.stdout

    tourney("player", "import", str(tmp_path / "players.csv"))
    tourney("event", "create", "big", "--variant", "spardame", "--table-sizes", "4",
            "--rule", "deals=2")
    tourney("event", "enter", "big", "--all")
    tourney("round", "seat", "big")
    return db, tourney


PUBLISH_CHILD = """
import json, sys
from click.testing import CliRunner
from tourney.cli.main import cli
result = CliRunner().invoke(cli, ["--db", sys.argv[1], "publish", "--out", sys.argv[2],
                                  "--no-replays"])
loaded = sorted(m for m in sys.modules if m.startswith(("tourney.tournament.events",
                "tourney.tournament.players", "tourney.tournament.rounds",
                "tourney.tournament.series", "tourney.pairing")))
print(json.dumps({"exit": result.exit_code, "output": result.output, "loaded": loaded}))
"""


def test_a_publish_after_one_result_loads_no_seating_or_event_modules(tmp_path):
    """A re-publish after a result (score sheets reused, no series) imports neither the
    events', players' and rounds' modules nor the seating's (issue 34: its start)."""
    db, tourney = seated_event(tmp_path)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--no-replays")
    (tmp_path / "r1.csv").write_text(tourney("simulate", "--event", "big", "--round", "1"))
    tourney("result", "import", str(tmp_path / "r1.csv"))
    child = subprocess.run([sys.executable, "-c", PUBLISH_CHILD, db, str(site)],
                           capture_output=True, text=True, check=True)
    out = json.loads(child.stdout)
    assert out["exit"] == 0, out["output"]
    assert out["loaded"] == []


LOADED_CHILD = """
import json, sys
from click.testing import CliRunner
from tourney.cli.main import cli
result = CliRunner().invoke(cli, sys.argv[1:])
print(json.dumps({"exit": result.exit_code, "output": result.output,
                  "loaded": sorted(sys.modules)}))
"""

# What a command loads only if it uses it: the spreadsheet writer, the server, the
# migrations, the seating search, QR codes, the site's templates and locales, the
# rating model, and the project's parts built on them.
HEAVY = ("openpyxl", "starlette", "uvicorn", "alembic", "rustworkx", "segno", "psycopg",
         "jinja2", "babel", "openskill", "tourney.reports", "tourney.web", "tourney.ratings",
         "tourney.pairing.seating")
# command -> the heavy modules it does use
USES = {
    ("player", "list"): (),
    ("event", "list"): (),
    ("site", "show"): (),
    ("rating", "show", "--variant", "spardame"): ("openskill", "tourney.ratings"),
    ("publish", "--out", "{site}", "--no-replays"): ("jinja2", "babel", "openskill",
                                                     "tourney.reports", "tourney.ratings"),
}


def within(module: str, name: str) -> bool:
    """``module`` is the package or module ``name`` or one of its submodules."""
    return module == name or module.startswith(name + ".")


def loaded_by(db: str, args: tuple[str, ...]) -> list[str]:
    """The modules a command leaves loaded, run alone in a fresh interpreter."""
    child = subprocess.run([sys.executable, "-c", LOADED_CHILD, "--db", db, *args],
                           capture_output=True, text=True, check=True)
    out = json.loads(child.stdout)
    assert out["exit"] == 0, (args, out["output"])
    return out["loaded"]


def test_a_database_command_loads_only_the_libraries_it_uses(tmp_path):
    """Listing players or events, or showing the site's settings, loads neither the
    site's builder, the rating model, the seating search nor the server; the rating
    list loads the model but not the site; a publish loads the site and the ratings it
    shows, never the spreadsheet writer, the server, the migrations or the seating
    search (issue 34: start-up in proportion to the command)."""
    db, _ = seated_event(tmp_path)
    for args, uses in USES.items():
        args = tuple(a.format(site=tmp_path / "site") for a in args)
        loaded = loaded_by(db, args)
        assert [m for m in loaded
                if any(within(m, name) for name in HEAVY if name not in uses)] == [], args
        # what the command does use is loaded: the check above can see a module
        assert all(any(within(m, name) for m in loaded) for name in uses), args
