"""Building a seated event with results through the CLI, for the hardening tests.

``run`` is a CLI runner bound to a database: the conftest's ``tourney`` fixture,
or :func:`cli_on` (for module-scoped fixtures, which cannot use it).
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Callable, Sequence

from tourney.engines import get_game
from tourney.records.csv_format import DealRecord, write_records
from tourney.simulation import simulate_match


def cli_on(db_url: str) -> Callable:
    """``run(*args)``: the CLI in-process on ``db_url``, asserting exit 0; the
    result has ``.json`` (stdout parsed) like the conftest's runner."""
    import json

    from click.testing import CliRunner

    from tourney.cli.main import cli

    class Run:
        def __init__(self, result):
            self.exit_code, self.stdout, self.stderr = (result.exit_code, result.stdout,
                                                        result.stderr)

        @property
        def json(self):
            return json.loads(self.stdout)

    def run(*args: str) -> Run:
        result = CliRunner().invoke(cli, [*map(str, args), "--db", db_url],
                                    catch_exceptions=False)
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
        return Run(result)

    return run


def seated_event(run: Callable, slug: str, variant: str, names: Sequence[str], *,
                 table_size: int, rules: dict | None = None) -> list[tuple[str, list[str]]]:
    """Register ``names``, create the event, enter them, seat round 1; the tables
    as ``(label, players in seat order)``."""
    run("player", "add", *names)
    rule_args = [a for key, value in (rules or {}).items() for a in ("--rule", f"{key}={value}")]
    run("event", "create", slug, "--variant", variant, "--rounds", "1",
        "--table-sizes", str(table_size), *rule_args)
    run("event", "enter", slug, *names)
    seating = run("round", "seat", slug, "--json").json
    return [(t["table"], list(t["seats"])) for t in seating["tables"]]


def simulate_tables(variant: str, slug: str, tables: Sequence[tuple[str, list[str]]], *,
                    rules: dict | None = None, seed: int = 1,
                    deals: int | None = None) -> list[DealRecord]:
    """Bot-played records of round 1 for the seated tables (seat 0 deals first)."""
    game = get_game(variant)
    options = game.resolve_options(rules or {})
    rng = random.Random(seed)
    records: list[DealRecord] = []
    for label, seats in tables:
        records += simulate_match(game, options, seats, rng, event=slug, round_number=1,
                                  table=label, deals=deals)
    return records


def seated_round_file(run: Callable, path: Path, slug: str, variant: str,
                      names: Sequence[str], *, deals: int, seed: int = 1) -> Path:
    """An event of ``deals``-deal matches at tables of 4, round 1 seated, and the
    record file of that round's bot-played matches at ``path``."""
    rules = {"deals": str(deals)}
    tables = seated_event(run, slug, variant, names, table_size=4, rules=rules)
    records = simulate_tables(variant, slug, tables, rules=rules, deals=deals, seed=seed)
    return write_file(path, records, variant)


def write_file(path: Path, records: Sequence[DealRecord], variant: str) -> Path:
    game = get_game(variant)
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda record: game)
    return path
