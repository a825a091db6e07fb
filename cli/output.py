"""Writing data: plain tables and JSON on stdout, messages on stderr."""
from __future__ import annotations

import functools
import json
import re
import sys
from typing import Any, Iterable, Sequence

import click
from click.core import ParameterSource

from tourney.errors.words import quoted
from tourney.terminal import terminal_json, terminal_text  # cli modules import them here

# Bounded number arguments: a database INTEGER is 32-bit on PostgreSQL, and an
# absurd number must be a usage error, not a driver traceback.
MAX_COUNT = 1_000_000
ROUND_NUMBER = click.IntRange(min=1, max=MAX_COUNT)
COUNT = click.IntRange(min=1, max=MAX_COUNT)
SEED = click.IntRange(min=-(2 ** 31), max=2 ** 31 - 1)


class TypedNumberType(click.ParamType):
    """A number as a person types it (``-1``, ``0.5``, ``0,5``): never an exponent,
    inf or nan, at most the decimals a number is shown with
    (:func:`tourney.numbers.typed_number`)."""

    name = "number"

    def convert(self, value, param, ctx):
        from tourney.numbers import DECIMALS, typed_number

        number = value if isinstance(value, float) else typed_number(str(value))
        if number is None:
            self.fail(f"{quoted(value).english()} is not a number like -1 or 0.5 (at most {DECIMALS} "
                      "decimals)", param, ctx)
        return number


TYPED_NUMBER = TypedNumberType()

class CommandGroup(click.Group):
    """A group of commands whose mistyped name gets "did you mean", worded as every
    unknown name is: ``unknown command 'standigns' (did you mean standings?)``."""

    def resolve_command(self, ctx: click.Context, args: list[str]):
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand:
            from tourney.errors import close_names
            from tourney.errors.words import did_you_mean

            name = click.utils.make_str(args[0])
            close = close_names(name, self.list_commands(ctx))
            hint = f" ({did_you_mean(close)})" if close else ""
            raise click.UsageError(f"unknown command {quoted(name).english()}{hint}", ctx) from None


def global_value(ctx: click.Context, name: str):
    """The value of a global option (``tourney --db URL --json COMMAND ...``)."""
    return (ctx.find_root().obj or {}).get(name)


# Set in the context's meta (shared by every context of one call) when the command
# was given --json: a failure then prints its JSON error object (tourney.cli.main).
JSON_REQUESTED = "tourney.json"


def _json_flag(ctx: click.Context, _param, value: bool) -> bool:
    wanted = bool(value or global_value(ctx, "as_json"))
    if wanted:
        ctx.meta[JSON_REQUESTED] = True
    return wanted


def _db_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    # The command's own --db wins, then the global one (`tourney --db URL ...`), then
    # TOURNEY_DB (click has already put it in value), then the default.
    given = global_value(ctx, "db_url")
    if given and ctx.get_parameter_source(param.name) is not ParameterSource.COMMANDLINE:
        return given
    return value


# Here, with the other light options, so that a command that opens a database only
# sometimes (`validate --event`) does not load the storage layer to declare it;
# opening is cli.database's business.
db_option = click.option(
    "--db", "db_url", envvar="TOURNEY_DB", default=None, metavar="URL", callback=_db_url,
    help="Database: a SQLAlchemy URL or a SQLite file path "
         "(default: TOURNEY_DB, else tourney.db in the current folder). A PostgreSQL "
         "URL may end in ?connect_timeout=SECONDS (default 10).")

# An address phones reach `tourney serve` at: http(s), a host, a path at most (no
# space, no query, no fragment: a link's path is put after it)
_HTTP_ADDRESS = re.compile(r"https?://[^\s/?#]+(/[^\s?#]*)?")


def check_base_url(ctx, param, value: str | None) -> str:
    """The one check of every --base-url (the links' commands, notify, serve)."""
    if not value:
        return ""
    if not _HTTP_ADDRESS.fullmatch(value):
        raise click.BadParameter(f"{quoted(value).english()} is not an http:// or https:// address")
    return value.rstrip("/")


def base_url_option(what: str):
    """``--base-url``: where phones reach `tourney serve`, put before each link's
    path (``what``: the links, as the help names them). Optional alike for every
    command that lists links: without it they are paths (/t/..., /p/...), which the
    server's own pages print in full and a script joins to the address it knows."""
    return click.option(
        "--base-url", default="", metavar="URL", callback=check_base_url,
        help=f"The address players reach `tourney serve` at (e.g. "
             f"http://192.168.1.20:8000), put before {what}; without it they are "
             f"paths, to follow the server's address.")


json_option = click.option("--json", "as_json", is_flag=True, callback=_json_flag,
                           help="Print JSON instead of text.")

sheet_option = click.option(
    "--sheet", metavar="NAME", help="The sheet of an XLSX workbook (default: the first).")

encoding_option = click.option(
    "--encoding", metavar="NAME",
    help="Read a CSV in this encoding (utf-8, utf-16, windows-1252, ...). By default "
         "UTF-8 with or without a byte-order mark, UTF-16 with one, else Windows-1252 "
         "(with a notice).")

table_format_option = click.option(
    "--format", "format_", type=click.Choice(("csv", "xlsx"), case_sensitive=False),
    help="Write a table for spreadsheets: csv (UTF-8; a file gets a byte-order mark) "
         "or xlsx. Default: told by --out's extension, else csv.")

# where a table (standings, lists) is written: a file, or - for stdout
table_out_option = click.option("--out", type=click.Path(dir_okay=False, allow_dash=True),
                                help="Write the table here (with --format; - is stdout).")


def deprecated_option(old: str, new: str, name: str, **attrs):
    """An old spelling kept working where users already type it, now that the
    option name ``old`` means one thing across the CLI (and ``new`` is what to
    type here instead): hidden from --help, and a note on stderr when given.
    ``name`` is its parameter; the command takes the new spelling's value, else
    this one's."""

    def note(ctx: click.Context, param: click.Parameter, value):
        if ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE:
            message(f"note: {old} is deprecated here: use {new}")
        return value

    return click.option(old, name, hidden=True, callback=note, **attrs)


def _sorting_language(ctx: click.Context, param: click.Parameter, value):
    from tourney.ordering import terminal_language

    return value or terminal_language()


def name_order_option(func):
    """``--lang``: the language names sort as (ties, lists of players and teams):
    the one option of every command that lists names, its value the language given,
    else the terminal's (LC_ALL, LC_COLLATE or LANG), else None (English)."""
    from tourney.tournament.events import LANGUAGES  # the languages an event can have

    return click.option(
        "--lang", type=click.Choice(LANGUAGES), callback=_sorting_language,
        help="Sort names as this language does (sv and fi: ... Z Å Ä Ö; nb: ... Z Æ Ø Å; "
             "en: Å with A). Default: the terminal's language, else English.")(func)


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
            raise UsageError(f"{flag} takes KEY=VALUE, not {quoted(item).english()}")
        parsed[key.strip()] = value.strip()
    return parsed


def parse_rules(rules: Iterable[str]) -> dict[str, str]:
    return parse_assignments(rules, "--rule")


def emit_json(data: Any) -> None:
    click.echo(_on_stdout(json_text(data)))


def _on_stdout(text: str) -> str:
    """JSON text as standard output takes it: on a terminal, what would act there (C1
    controls, bidirectional overrides) as JSON escapes (:func:`terminal_json`: the
    same data); to a file or a pipe exactly as encoded."""
    return terminal_json(text) if sys.stdout.isatty() else text


def json_text(data: Any) -> str:
    """``data`` as indented JSON, as ``json.dumps(data, ensure_ascii=False,
    indent=2)`` writes it: by orjson, whose output is the same and 25 times
    faster (the standard library indents in Python: 0.7 s for a league's series
    standings), or by the standard library for what orjson does not take (an
    integer past 64 bits, a number that is not finite)."""
    import orjson

    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
                            | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
                            | orjson.OPT_PASSTHROUGH_SUBCLASS,
                            default=_not_orjson).decode()
    except TypeError:
        return json.dumps(data, ensure_ascii=False, indent=2)


def _not_orjson(value: Any) -> Any:
    raise TypeError(type(value).__name__)


def emit_jsonl(data: Any) -> None:
    click.echo(_on_stdout(json.dumps(data, ensure_ascii=False)))


class JsonLinesTable:
    """A table writer (``write(row)``) printing each row as a JSON object on its own
    line, keyed by ``columns``: what a file-writing command prints with --json and
    no file (as sqlite-utils' ``--nl``)."""

    def __init__(self, columns: Sequence[str]):
        self.columns = list(columns)

    def write(self, row: Sequence) -> None:
        emit_jsonl(dict(zip(self.columns, row)))

    def close(self) -> None:
        pass


class CountingTable:
    """A table writer passing rows on to ``table`` and counting them and the
    matches (distinct event, round, table) among them."""

    def __init__(self, table, columns: Sequence[str]):
        self.table, self.rows, self._matches = table, 0, set()
        self._key = [list(columns).index(c) for c in ("event", "round", "table")
                     if c in columns]

    def write(self, row: Sequence) -> None:
        self.table.write(row)
        self.rows += 1
        self._matches.add(tuple(str(row[i]) for i in self._key))

    @property
    def matches(self) -> int:
        return len(self._matches)


def echo(text: Any = "", err: bool = False) -> None:
    """Print a line of text (not JSON, not CSV) with :func:`terminal_text`. Under
    --csv or --tsv standard output holds the table alone: the line goes to stderr."""
    click.echo(terminal_text(str(text)), err=err or bool(delimited_format()))


def message(text: str) -> None:
    echo(text, err=True)


def emit_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """A plain aligned text table (cells printable: :func:`terminal_text`), or the
    same rows as CSV or TSV when the command was given --csv or --tsv
    (:func:`delimited_flags`)."""
    asked = delimited_format()
    if asked:
        emit_delimited(headers, rows, asked)
        return
    rows = [["" if v is None else terminal_text(str(v), keep_newlines=False) for v in row]
            for row in rows]
    widths = [len(h) for h in headers]
    for row in rows:
        for i, v in enumerate(row):
            widths[i] = max(widths[i], len(v))
    click.echo("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    for row in rows:
        click.echo("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())


# ------------------------------------------------------------------ --csv, --tsv

# ctx.meta key (shared by every context of one call): "csv" or "tsv" when the
# command was given --csv or --tsv (checked by delimited_flags before it runs)
DELIMITED = "tourney.delimited"
DELIMITED_FORMATS = ("csv", "tsv")
_ASKED = "tourney.delimited.asked"


def _remember_delimited(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.meta.setdefault(_ASKED, []).append(param.name)
    return value


def delimited_format() -> str | None:
    """"csv" or "tsv" when the running command was given --csv or --tsv, else None."""
    ctx = click.get_current_context(silent=True)
    return None if ctx is None else ctx.meta.get(DELIMITED)


def delimited_flags(func):
    """--csv and --tsv, as sqlite-utils has them, on a command whose output is rows:
    the rows on standard output as CSV or TSV, with a header row, in UTF-8 without a
    byte-order mark, quoted as RFC 4180 has it, a cell that would start a formula
    written with a leading apostrophe (the rule of every file tourney writes for
    spreadsheets: :func:`tourney.records.sources.formula_safe`); every other line
    of the command goes to stderr. The command's tables go through
    :func:`emit_table`, which writes them so. On a command that writes files
    (``--format``, ``--out``), --csv is --format csv and --tsv a tab-separated file.

    Refused (exit 2): --csv with --tsv or --json (the same rows in two shapes), and
    with a --format naming another."""

    @functools.wraps(func)
    def command(*args, **kwargs):
        ctx = click.get_current_context()
        asked = ctx.meta.get(_ASKED, [])
        if len(set(asked)) > 1:
            raise click.BadOptionUsage("--csv", "--csv and --tsv do not go together: "
                                       "choose one")
        if asked:
            chosen = asked[0]
            if kwargs.get("as_json"):
                raise click.BadOptionUsage(f"--{chosen}", f"--json and --{chosen} do not go "
                                           "together: choose one")
            if "format_" in kwargs:
                if kwargs["format_"] not in (None, chosen):
                    raise click.BadOptionUsage(
                        f"--{chosen}", f"--{chosen} and --format {kwargs['format_']} do not "
                        "go together: choose one")
                kwargs["format_"] = chosen
            else:
                ctx.meta[DELIMITED] = chosen
        return func(*args, **kwargs)

    for name, help_text in (
            ("tsv", "Print the rows as TSV: as --csv, tab-separated."),
            ("csv", "Print the rows as CSV with a header row (a cell that would start "
                    "a spreadsheet formula gets a leading apostrophe)."),
    ):
        command = click.option(f"--{name}", name, is_flag=True, expose_value=False,
                               callback=_remember_delimited, help=help_text)(command)
    return command


def refuse_delimited_unless(listing: bool, how: str) -> None:
    """A command that lists rows only sometimes (``--list``, no PLAYER): --csv and
    --tsv otherwise are a usage error (exit 2), not silently ignored; ``how`` says
    how to ask for the list."""
    asked = delimited_format()
    if asked and not listing:
        raise click.BadOptionUsage(f"--{asked}", f"--{asked} prints a list: {how}")


# A cell shown as a plain number ("-3", "0.50"): written as a number, digits kept
_NUMBER_TEXT = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def _delimited_cell(value: Any) -> Any:
    if isinstance(value, str) and _NUMBER_TEXT.fullmatch(value):
        from decimal import Decimal

        digits = value.removeprefix("+")
        number = Decimal(digits)
        if str(number) == digits:  # not "007", a label (its text, which starts no formula)
            return number
    return value


def emit_delimited(headers: Sequence[str], rows: Iterable[Sequence[Any]], kind: str) -> None:
    """Rows on standard output as CSV or TSV (``kind``), by the writer of every
    table tourney writes for spreadsheets
    (:class:`tourney.records.spreadsheets.CsvTable`): on a terminal with each text
    cell's control characters shown as escapes, as :func:`emit_table` shows them;
    to a file or a pipe exact."""
    from tourney.records.spreadsheets import DELIMITERS, CsvTable

    table = CsvTable(sys.stdout, list(headers), bom=False, delimiter=DELIMITERS[kind],
                     terminal=sys.stdout.isatty())
    for row in rows:
        table.write([_delimited_cell(value) for value in row])
    sys.stdout.flush()


# ------------------------------------------------------------------ confirmation

yes_option = click.option(
    "--yes", "-y", "yes", is_flag=True,
    help="Do not ask before the change (scripts: nothing asks when standard input "
         "is not a terminal anyway).")

# For the commands that write a file (--out) and ask nothing else.
replace_option = click.option(
    "--yes", "-y", "yes", is_flag=True,
    help="Replace the output file if it exists (without it an existing file is "
         "refused: tourney never overwrites a file silently).")


def interactive() -> bool:
    """Whether a person is at the keyboard: standard input is a terminal."""
    return sys.stdin is not None and sys.stdin.isatty()


def confirm(question: str, yes: bool) -> None:
    """Ask before a change that is hard to undo; a "no" is refused
    (:class:`~tourney.cli.errors.NotConfirmed`: exit 1, nothing changed).

    Asked only on a terminal and without --yes, so scripts, pipes and the tests
    run as before.
    """
    if yes or not interactive():
        return
    from .errors import NotConfirmed

    try:
        answer = click.confirm(terminal_text(question), default=False, err=True)
    except click.Abort as err:  # click's word for Ctrl-C, and for no input left
        if isinstance(err.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None  # interrupted (tourney.cli.main)
        raise NotConfirmed() from None
    if not answer:
        raise NotConfirmed()


# ------------------------------------------------------------------ what changed

def change_report(action: str, changed: bool, summary: str, **details) -> dict:
    """The one shape of a changing command's --json answer: ``action`` named as in
    the audit log (``player.rename``, ``db.upgrade``...), ``changed`` whether
    anything in the database (or the published site) changed, ``summary`` the line
    the command printed, and the command's own ``details``."""
    return {"action": action, "changed": bool(changed), "summary": summary,
            "details": details}


def report_written(out: str | None, count: int, noun: str, *, as_json: bool, action: str,
                   **details) -> None:
    """The one wording of a table written (``--out``, or standard output with
    ``--format``): "wrote 14 players to standings.xlsx" on stderr; with ``--json``
    and a file, what was written as a JSON object on stdout (the file's rows are
    not on stdout then)."""
    from tourney.errors.counts import count_text

    shown = out if out and out != "-" else None
    message(f"wrote {count_text(count, noun)} to {shown or 'standard output'}")
    if as_json and shown:
        emit_json({"action": action, "file": shown, **details})


def report_change(action: str, changed: bool, summary: str, as_json: bool, **details) -> None:
    """Print what a changing command did: the summary on stderr and, with --json,
    :func:`change_report` on stdout."""
    message(summary)
    if as_json:
        emit_json(change_report(action, changed, summary, **details))
