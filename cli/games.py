"""Commands that need no database: `variants`, `validate`, `simulate`."""
from __future__ import annotations

import sys
import textwrap

import click

from tourney.engines import get_game, variant_ids
from tourney.engines.base import MAX_DEALS_PER_MATCH
from tourney.errors import UsageError
from tourney.records.csv_format import open_records, write_records
from tourney.records.validation import DealCheck, MatchCheck, RecordChecker
from tourney.simulation import simulate_rounds

from .completion import complete_variant
from .errors import INVALID, OK
from .output import (echo, emit_json, emit_jsonl, encoding_option, json_option, message,
                     parse_rules, rule_option, sheet_option)


@click.command()
@click.argument("variant", required=False, metavar="[VARIANT]",
                shell_complete=complete_variant)
@json_option
def variants(variant, as_json):
    """List the variants with their player counts and options (house rules).

    With VARIANT, show that game alone: its rules in a few sentences, then its
    options with their defaults. Set options per event with
    `tourney event create SLUG --variant VARIANT --rule KEY=VALUE`.

    \b
    Examples:
      tourney variants
      tourney variants spardame
    """
    games = [get_game(variant)] if variant else [get_game(v) for v in variant_ids()]
    if as_json:
        emit_json(games[0].describe() if variant else [g.describe() for g in games])
        return
    for game in games:
        echo(f"{game.id}: {game.name} ({game.min_players}-{game.max_players} players)")
        if variant:
            echo(textwrap.fill(game.summary, width=78, initial_indent="  ",
                                     subsequent_indent="  "))
            echo("  options:")
        indent = "    " if variant else "  "
        for spec in game.option_specs:
            choices = f" [{'|'.join(str(c) for c in spec.choices)}]" if spec.choices else ""
            default = "not set" if spec.default is None else spec.default
            echo(f"{indent}{spec.key}{choices} (default: {default}): {spec.doc}")


def _deal_json(check: DealCheck) -> dict:
    if check.valid:
        return {"kind": "deal", "line": check.line, "valid": True,
                "scores": check.outcome.scores, "error": None,
                "verified": check.outcome.verified}
    return {"kind": "deal", **check.error.position(), "line": check.line, "valid": False,
            "scores": None, "error": str(check.error), "rule": check.error.rule,
            "verified": None}


def _match_json(match: MatchCheck) -> dict:
    error = match.error
    return {
        "kind": "match", "event": match.event, "round": match.round, "table": match.table,
        "valid": match.valid,
        "ranking": [[p, place] for p, place in match.result.ranking] if match.result else None,
        "error": None if error is None else str(error),
        "rule": None if error is None else error.rule,
        **(NO_POSITION if error is None else error.position()),
    }


# The position keys of a valid match (an invalid one has its error's).
NO_POSITION = {"line": None, "column": None, "move": None, "seat": None, "player": None}


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--variant", shell_complete=complete_variant, help="The variant of rows without a variant column.")
@sheet_option
@encoding_option
@rule_option
@json_option
def validate(file, variant, sheet, encoding, rules, as_json):
    """Check every deal and every match of a record file (CSV or XLSX; - for
    stdin); touches no database.

    Each deal is replayed move by move by its variant's engine (or, for a
    score-sheet row, its scores are checked for what is possible); each match is
    checked for deal numbering, same players, the dealer rule and its end rule.
    Unfilled score-sheet rows are skipped, their key columns still checked;
    --json reports each as {"kind": "skipped", "line": N, "reason": ...}.

    Exit status: 0 all valid, 1 some deal or match invalid, 2 usage error
    (unknown variant or option, unreadable file, unknown header).

    \b
    Examples:
      tourney validate round3.csv --variant spardame --rule pass=cycle
      tourney validate season.csv --json | jq 'select(.valid|not)'
    """
    checker = RecordChecker(variant=variant, rules=parse_rules(rules))

    def skipped(line: int, reason: str) -> None:
        if as_json:
            emit_jsonl({"kind": "skipped", "line": line, "cell": source.cell(line, None),
                        "reason": reason})

    source, reader = open_records(file, errors="yield", encoding=encoding, sheet=sheet,
                                  on_skipped=skipped)
    name = reader.filename
    deals = bad_deals = 0
    matches: list[MatchCheck] = []
    with source:
        for item in checker.check_stream(reader):
            if item.error is not None:
                source.locate(item.error)
            if isinstance(item, MatchCheck):
                matches.append(item)
                if not item.valid and item.error.rule != "invalid-deals" and not as_json:
                    echo(f"{name}: match round {item.round}, table {item.table}: {item.error}")
                continue
            deals += 1
            if not item.valid:
                bad_deals += 1
            if as_json:
                emit_jsonl(_deal_json(item))
            elif not item.valid:
                echo(f"{name}: {item.error}" if not item.error.file else str(item.error))
    for notice in source.notices:
        message(notice)
    bad_matches = sum(1 for m in matches if not m.valid)
    if as_json:
        for match in matches:
            emit_jsonl(_match_json(match))
    skipped_text = f"; skipped {reader.unfilled} empty score-sheet rows" if reader.unfilled else ""
    message(f"{name}: {deals} deals in {len(matches)} matches: "
            f"{bad_deals} invalid deals, {bad_matches} invalid matches{skipped_text}")
    sys.exit(INVALID if bad_deals or bad_matches else OK)


@click.command()
@click.argument("variant", shell_complete=complete_variant)
@click.option("--players", "nplayers", type=click.IntRange(1, 100), required=True, help="Players per table.")
@click.option("--deals", type=click.IntRange(1, MAX_DEALS_PER_MATCH),
              help=f"Deals per match, 1 to {MAX_DEALS_PER_MATCH} (for variants without "
                   "an end rule).")
@click.option("--tables", type=click.IntRange(1, 100_000), default=1, show_default=True, help="Tables per round.")
@click.option("--rounds", type=click.IntRange(1, 100_000), default=1, show_default=True, help="Rounds.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--skill", type=float, default=1.0, show_default=True,
              help="Bot skill: the chance of a heuristic move rather than a random legal one.")
@click.option("--event", help="Fill the event column.")
@rule_option
def simulate(variant, nplayers, deals, tables, rounds, seed, skill, event, rules):
    """Play matches with bots and write a valid record CSV to stdout.

    Bots play legal moves: with probability --skill a simple heuristic, otherwise
    a random legal move. Matches follow the variant's end rule (e.g. dam-stick to
    100 points); variants without one play --deals deals (default 4).

    \b
    Example:
      tourney simulate spardame --players 4 --deals 3 --seed 7 > sim.csv
      tourney validate sim.csv
    """
    game = get_game(variant)
    if not game.min_players <= nplayers <= game.max_players:
        raise UsageError(f"{variant} is played by {game.min_players}-{game.max_players} players")
    if not 0.0 <= skill <= 1.0:
        raise UsageError("--skill is a probability between 0 and 1")
    options = game.resolve_options(parse_rules(rules))
    records = simulate_rounds(game, options, nplayers, rounds=rounds, tables=tables,
                              seed=seed, deals=deals, skill=skill, event=event)
    write_records(sys.stdout, records, game_for=lambda record: game)


def register(group: click.Group) -> None:
    group.add_command(variants)
    group.add_command(validate)
    group.add_command(simulate)
