"""The `tourney` command: commands grouped by noun, sqlite-utils style.

Data goes to stdout (plain or ``--json``), messages to stderr. Exit codes:
0 success, 1 the data is invalid or an operation failed on it, 2 usage errors
(unknown variant, option or file, bad arguments).
"""
from __future__ import annotations

import importlib
import sys

import click

from tourney import __version__
from tourney.errors import TourneyError

from .errors import INVALID, exit_code, message

# Each module registers its commands on the group via `register(group)`; a module
# per noun keeps the CLI's files showing its structure.
COMMAND_MODULES = (
    "games",      # variants, validate, simulate (no database)
    "players",    # player ...
    "events",     # event ...
    "rounds",     # round ...
    "results",    # result ..., standings
    "ratings",    # rating ...
    "site",       # publish
    "admin",      # db upgrade, log
    "serve",      # serve (results entered at the tables)
)


class TourneyGroup(click.Group):
    """Turns the project's errors into one-line messages and exit codes."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except TourneyError as err:
            click.echo(f"Error: {message(err)}", err=True)
            ctx.exit(exit_code(err))
        except BrokenPipeError:  # `tourney ... | head` is not an error
            sys.stderr.close()
            ctx.exit(0)
        except Exception as err:
            # SQLite's "database is locked" wherever it surfaces: another command
            # held the write lock for the whole busy timeout (storage helper).
            from tourney.storage.db import busy_message, is_busy_error

            if not is_busy_error(err):
                raise
            click.echo(f"Error: {busy_message()}", err=True)
            ctx.exit(INVALID)


@click.group(cls=TourneyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tourney")
def cli():
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
    postgresql+psycopg://127.0.0.1/league).
    """


for _name in COMMAND_MODULES:
    importlib.import_module(f"{__package__}.{_name}").register(cli)


def main() -> None:
    cli(prog_name="tourney")


if __name__ == "__main__":  # python -m tourney.cli.main (used by the completion tests)
    main()
