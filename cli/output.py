"""Writing data: plain tables and JSON on stdout, messages on stderr."""
from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

import click

# Bounded number arguments: a database INTEGER is 32-bit on PostgreSQL, and an
# absurd number must be a usage error, not a driver traceback.
MAX_COUNT = 1_000_000
ROUND_NUMBER = click.IntRange(min=1, max=MAX_COUNT)
COUNT = click.IntRange(min=1, max=MAX_COUNT)
SEED = click.IntRange(min=-(2 ** 31), max=2 ** 31 - 1)

json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print JSON instead of text.")


def rule_option(func):
    return click.option(
        "--rule", "rules", multiple=True, metavar="KEY=VALUE",
        help="A house rule (option) of the variant; repeatable. "
             "`tourney variants` lists them.")(func)


def parse_assignments(items: Iterable[str], flag: str = "--rule") -> dict[str, str]:
    """Repeated ``FLAG KEY=VALUE`` items as a dict (values are parsed later, by the
    variant's options or the rating model)."""
    from tourney.errors import UsageError

    parsed = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UsageError(f"{flag} takes KEY=VALUE, not {item!r}")
        parsed[key.strip()] = value.strip()
    return parsed


def parse_rules(rules: Iterable[str]) -> dict[str, str]:
    return parse_assignments(rules, "--rule")


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def emit_jsonl(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False))


def message(text: str) -> None:
    click.echo(text, err=True)


def emit_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """A plain aligned text table."""
    rows = [["" if v is None else str(v) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in rows:
        for i, v in enumerate(row):
            widths[i] = max(widths[i], len(v))
    click.echo("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    for row in rows:
        click.echo("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())
