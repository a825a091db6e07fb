"""The `tourney` command: commands grouped by noun, sqlite-utils style.

Data goes to stdout (plain or ``--json``), messages to stderr. Exit codes:
0 success, 1 the data is invalid or the operation was refused or failed (nothing
changed), 2 usage errors (unknown names, options, bad arguments, a file or
database that is missing or not of the kind the command takes), 130 interrupted.
Every failure is handled here, once: one line on stderr and, under --json, one
JSON object on stdout (:mod:`tourney.cli.errors` decides the codes and words).
"""
from __future__ import annotations

import importlib
import logging
import os
import sys
from contextlib import contextmanager

import click

from tourney import __version__
from tourney.errors import TourneyError
from tourney.storage.writes import WRITES

from .errors import INTERRUPTED, INVALID, error_json, exit_code, interrupted_message
from .errors import message as error_message
from .output import JSON_REQUESTED, CommandGroup, emit_jsonl, global_value, message, terminal_text

# Each module registers its commands on the group via `register(group)`; a module
# per noun keeps the CLI's files showing its structure. A module is imported only
# when one of its commands runs, so the commands that need no database
# (`--version`, `variants`, `validate`, `simulate`) never load the database
# libraries, and `tourney --help` lists the commands from the short help kept here
# (the first sentence of each command's help) without importing any of them. A test
# keeps this table and the modules in step.
COMMAND_MODULES = {
    "variants": ("games", "List the variants with their player counts and options "
                          "(house rules)."),
    "validate": ("games", "Check every deal and every match of a record file (CSV or "
                          "XLSX; - for stdin); touches no database, unless --event names "
                          "an event whose rules to use (then the database is only read)."),
    "simulate": ("games", "Play matches with bots and write a valid record CSV to stdout."),
    "player": ("players", "Register and manage players (names are shared by every event)."),
    "event": ("events", "Create events and enter players in them."),
    "round": ("rounds", "Seat an event's rounds at tables."),
    "result": ("results", "Import, export and inspect match results (deal records)."),
    "standings": ("results", "Show an event's standings: place, player, match points, "
                             "tie-breaks."),
    "series": ("series", "A season: events whose standings add up (best N, placing points, "
                         "handicaps)."),
    "team": ("series", "Declared teams of an event or a series (team standings: `tourney "
                       "standings SLUG --teams declared`)."),
    "rating": ("ratings", "OpenSkill ratings: one pool per variant, updated as results "
                          "are imported."),
    "publish": ("site", "Publish standings, seat lists, results, replays and ratings as "
                        "a static site."),
    "site": ("site", "The published site's settings, kept in the database: its title, "
                     "the organisation behind it and its address on the web."),
    "db": ("admin", "The database itself: its schema version, upgrades and backups."),
    "log": ("admin", "Show the audit log: every change to players, events, seating and "
                     "results."),
    "notify": ("notify", "E-mail each seated player with an address their seating or their "
                         "results."),
    "serve": ("serve", "Run the venue's web server: players enter results at their "
                       "tables."),
}


def one_line_failure(err: BaseException) -> str | None:
    """One line for a failure of the machine rather than of the data: the database
    (disk full, connection lost: the driver's own words, never the SQL or its bound
    parameters, which hold player names and hands) or a file (its name and the
    system's reason). ``None`` for anything else (a bug: its traceback is shown)."""
    if isinstance(err, OSError):
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}{err.strerror or err}; nothing was changed"
    if type(err).__module__.startswith("sqlalchemy"):
        from sqlalchemy.exc import DBAPIError

        from tourney.storage.db import busy_message, first_line, is_busy_error

        if is_busy_error(err):
            return busy_message().english()
        if isinstance(err, DBAPIError):
            return (f"the database failed: {first_line(err)}; the command's changes "
                    "were rolled back")
    return None


class TourneyGroup(CommandGroup):
    """Turns the project's errors into one-line messages and exit codes; every
    message is printed terminal-safe (names from files and the database may hold
    control characters)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, name: str):
        if name not in self.commands and name in COMMAND_MODULES:
            module = COMMAND_MODULES[name][0]
            importlib.import_module(f"{__package__}.{module}").register(self)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their short help, as click lists them, from the table
        (no command module imported)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, click.Command(name, help=COMMAND_MODULES[name][1])
                 .get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def make_context(self, info_name, args, parent=None, **extra):
        # What was typed, for a usage error click finds before --json is parsed
        self.typed = list(args)
        try:
            with _safe_click_errors():
                return super().make_context(info_name, args, parent=parent, **extra)
        except click.ClickException as err:
            if _json_typed(self.typed):
                emit_jsonl(click_error_json(err))
            raise

    def invoke(self, ctx: click.Context):
        writes = WRITES.mark()
        try:
            try:
                return self._invoke(ctx)
            finally:
                # What a command committed goes from SQLite's log into the database
                # file, so tourney.db alone holds it (copied, mailed, backed up). Only a
                # command that opened a database has imported the storage module: asking
                # sys.modules spares every other command (--help, validate) its import.
                storage = sys.modules.get("tourney.storage.db")
                if storage is not None:
                    storage.checkpoint_written()
        except KeyboardInterrupt:  # Ctrl-C: what it left, in one line, no traceback
            if sys.stderr.isatty():
                sys.stderr.write("\n")  # past the ^C the terminal echoed
            _fail(ctx, interrupted_message(writes), INTERRUPTED, prefix="")

    def _invoke(self, ctx: click.Context):
        try:
            with _safe_click_errors():
                return super().invoke(ctx)
        except TourneyError as err:
            _fail(ctx, error_message(err), exit_code(err), err)
        except click.ClickException as err:  # click shows it and exits; JSON here
            if _json_wanted(ctx) or _json_typed(getattr(self, "typed", ())):
                emit_jsonl(click_error_json(err))
            raise
        except BrokenPipeError:  # `tourney ... | head` is not an error
            sys.stderr.close()
            ctx.exit(0)
        except Exception as err:
            line = one_line_failure(err)
            if line is None:
                raise
            _fail(ctx, line, INVALID, err)


def _fail(ctx: click.Context, text: str, code: int, err: BaseException | None = None, *,
          prefix: str = "Error: ") -> None:
    """End a failed command: its one line on stderr and, under --json, its JSON
    error object on stdout (:func:`tourney.cli.errors.error_json`); exit ``code``."""
    message(f"{prefix}{text}")
    if _json_wanted(ctx):
        emit_jsonl(error_json(text, code, err))
    ctx.exit(code)


def _json_wanted(ctx: click.Context) -> bool:
    """Whether the command was given --json (its own, or the global one)."""
    return bool(ctx.meta.get(JSON_REQUESTED) or global_value(ctx, "as_json"))


def _json_typed(args) -> bool:
    """Whether --json was typed (before any ``--``): for a usage error click finds
    while parsing, before the option itself is read."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


def click_error_json(err: click.ClickException) -> dict:
    """:func:`~tourney.cli.errors.error_json` of click's own usage errors (an
    unknown option, a missing argument, a bad value), naming the option."""
    data = error_json(terminal_text(err.format_message()), err.exit_code)
    param = getattr(err, "param", None)
    if isinstance(param, click.Option):
        data["setting"] = max(param.opts, key=len)
    elif getattr(err, "option_name", None):  # NoSuchOption, BadOptionUsage
        data["setting"] = err.option_name
    return data


@contextmanager
def _safe_click_errors():
    """Click's own usage errors quote what was typed (an unknown command, a bad
    value): shown terminal-safe too."""
    try:
        yield
    except click.ClickException as err:
        err.message = terminal_text(err.message)
        raise


@click.group(cls=TourneyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tourney")
@click.option("--db", "db_url", metavar="URL",
              help="The database of every command below (as if given to the command; "
                   "a command's own --db wins).")
@click.option("--json", "as_json", is_flag=True,
              help="JSON output of the command (as if given to the command).")
@click.pass_context
def cli(ctx, db_url, as_json):
    """Tournaments, rules engines and ratings for the Nordic games called Dam.

    Organizers register players, create events, seat rounds at tables, import the
    deal records of each round's matches (every record is replayed by the rules
    engines), and publish standings, ratings and replays as a static site.

    \b
    A Saturday in commands:
      tourney player import players.csv
      tourney event create club-1 --variant spardame --rounds 4
      tourney event enter club-1 --all
      tourney round seat club-1
      tourney result import round1.csv --event club-1
      tourney standings club-1
      tourney publish --out site/

    The database is the SQLite file tourney.db in the current folder unless
    --db or TOURNEY_DB names another (any SQLAlchemy URL, e.g.
    postgresql+psycopg://127.0.0.1/league). --db and --json may come before the
    command (tourney --db league.db --json standings club-1) or after it.

    Exit status: 0 success; 1 the data is invalid or the operation was refused
    (nothing was changed); 2 a usage error (an unknown name, option or value, a
    file or database that is missing or not of the kind the command takes); 130
    interrupted (Ctrl-C; stopped before storing its changes, a command changed
    nothing, and says so). With --json a command that fails
    prints one line of JSON on stdout, {"error", "exit_code", ...}, the message
    staying on stderr.
    """
    ctx.ensure_object(dict).update(db_url=db_url, as_json=as_json)


def main() -> None:
    # psycopg logs a rollback it could not send (a Ctrl-C in mid-query) as a warning,
    # which Python's last-resort handler prints over the command's own message; the
    # command says what the interrupt left (nothing: the transaction is rolled back
    # by the server when the connection closes).
    logging.getLogger("psycopg").setLevel(logging.ERROR)
    if "_TOURNEY_COMPLETE" in os.environ:  # completing: the shells' quoting first
        from . import completion  # noqa: F401
    cli(prog_name="tourney")


if __name__ == "__main__":  # python -m tourney.cli.main (used by the completion tests)
    main()
