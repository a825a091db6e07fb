"""Errors to messages and exit codes: the one place the command line decides them.

0 success; 1 the data is invalid or the operation was refused (the database is
unchanged); 2 a usage error (the call cannot work: unknown variant, event, player, option, file,
a file that is not a record file). The library's errors say what kind they are
(:mod:`tourney.errors`); this module says what that kind means to a shell.
"""
from __future__ import annotations

import shlex
import sys

from tourney.errors import InvalidValue, TourneyError, UsageError

OK = 0
INVALID = 1
USAGE = 2


def exit_code(err: TourneyError) -> int:
    """The exit status for a library error."""
    # Looked up, not imported: commands without a database never load the
    # importer (and then cannot have raised its error).
    results = sys.modules.get("tourney.tournament.results")
    if results is not None and isinstance(err, results.ImportRejected):
        # the whole file's error when there is one (a bad header is a usage error)
        return exit_code(err.file_error) if err.file_error is not None else INVALID
    if isinstance(err, UsageError):
        return USAGE
    return INVALID


def message(err: TourneyError) -> str:
    """The one-line message for a library error, naming a setting by its flag
    (``rounds`` is ``--rounds``, ``table_sizes`` is ``--table-sizes``) and another
    operation by its command (``event list`` is `tourney event list`)."""
    text = err.describe(flag(err.field)) if isinstance(err, InvalidValue) else str(err)
    if err.setting is not None and err.operation is not None and ", or " in text:
        # Two ways past it: the operation's first, the setting's after ", or "
        # (tourney.errors.TourneyError); each named beside its own words.
        first, other = text.rsplit(", or ", 1)
        return f"{first} (`tourney {err.operation}`), or {other} ({flag(err.setting)})"
    hints = []
    if err.setting is not None:
        hints.append(flag(err.setting))
    if err.operation is not None:
        hints.append(f"`tourney {err.operation}`")
    return f"{text} ({', '.join(hints)})" if hints else text


def notice_message(notice: str) -> str:
    """A reader's notice, with the flag of the setting that would change it."""
    setting = getattr(notice, "setting", None)
    return f"{notice} ({flag(setting)})" if setting else str(notice)


def lookalike_message(warning) -> str:
    """A look-alike name warning (:class:`tourney.tournament.players.Lookalike`, or its
    JSON), with the command that merges the two if they are one person."""
    data = warning if isinstance(warning, dict) else warning.to_json()
    return (f"warning: {data['message']}: tourney player merge "
            f"{shlex.quote(data['like'])} {shlex.quote(data['name'])}")


def rule_message(err: TourneyError) -> str:
    """:func:`message` with the error's rule id, as a list of record errors shows it."""
    rule = getattr(err, "rule", None)
    return f"{message(err)} [{rule}]" if rule else message(err)


def flag(field: str) -> str:
    return "--" + field.replace("_", "-")
