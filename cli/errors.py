"""Errors to messages, exit codes and JSON: the one place the command line decides them.

- 0 success;
- 1 the data is invalid, or the operation was refused or failed as things stand
  (invalid records, a name already registered, a round that cannot be seated
  yet, the last round played, a database that needs `tourney db upgrade` or is
  busy): the database is unchanged;
- 2 a usage error, the call cannot work as given: an unknown command, option,
  variant, event, player, round, table or version, a bad option value, a file
  or database that is missing or not of the kind the command takes (not a
  record file, not a database, another program's database, a folder);
- 130 interrupted (Ctrl-C, 128 + SIGINT as shells count it): a writing command
  changed nothing.

The library's errors say what kind they are (:mod:`tourney.errors`); this module
says what that kind means to a shell, and to a script reading ``--json``
(:func:`error_json`: the one shape of every failure on stdout).
"""
from __future__ import annotations

import shlex
from collections.abc import Callable

from tourney.errors import (
    Advice,
    InvalidValue,
    OptionError,
    Remedy,
    SettingWay,
    TourneyError,
    UnknownName,
    error_location,
)
from tourney.storage.writes import WRITES, Writes

OK = 0
INVALID = 1
USAGE = 2
INTERRUPTED = 130  # 128 + SIGINT (2): what a shell reports for a command Ctrl-C stopped


class NotConfirmed(TourneyError):
    """The person at the keyboard answered no to a change: refused, nothing changed."""

    def __init__(self):
        super().__init__("not confirmed; nothing was changed")


def exit_code(err: TourneyError) -> int:
    """The exit status for a library error: its kind (usage or invalid)."""
    return USAGE if err.is_usage else INVALID


# Each kind of remedy (tourney.errors.REMEDIES) as the command that would get past
# the error: its words after `tourney`, from the remedy's data. A field the library
# left out (an event not known yet) is left out of the command too.
COMMANDS: dict[str, Callable[[dict], list]] = {
    "add-player": lambda d: ["player", "add"],
    "add-to-series": lambda d: ["series", "add", d["series"]],
    "create-event": lambda d: ["event", "create"],
    "create-series": lambda d: ["series", "create"],
    "enter-players": lambda d: ["event", "enter", *([d["event"]] if "event" in d else []),
                                *d.get("players", ())],
    "forfeit-absent": lambda d: ["result", "forfeit", d["event"], d["round"], d["table"],
                                 "--absent", d["player"]],
    "import-players": lambda d: ["player", "import"],
    "import-results": lambda d: ["result", "import"],
    "list-house-rules": lambda d: ["variants", d["variant"]],
    "list-teams": lambda d: ["team", "list", d["scope"]],
    "mark-absent": lambda d: ["round", "absent", d["event"], d["round"],
                              *([d["player"]] if "player" in d else [])],
    "reseat-round": lambda d: ["round", "reseat", d["event"], d["round"]],
    # its data is the round's, which a file of another delimiter does not say
    "score-sheet": lambda d: ["round", "sheet", "SLUG", "ROUND", "--out", "FILE.xlsx"],
    "seat-round": lambda d: ["round", "seat", d["event"]],
    "swap-seats": lambda d: ["round", "swap", d["event"], d["round"]],
    "undo-absence": lambda d: ["round", "absent", d["event"], d["round"], d["player"],
                               "--undo"],
    "undo-forfeit": lambda d: ["result", "forfeit", d["event"], d["round"], d["table"],
                               "--undo"],
    "unset-site-setting": lambda d: ["site", "unset", d["key"]],
    "upgrade-database": lambda d: ["db", "upgrade"],
}


def command(remedy: Remedy) -> str:
    """The command a remedy is, as typed in a shell: ``tourney result forfeit cup 2
    3 --absent 'Bo Ek'`` (each word quoted as the shell needs)."""
    words = COMMANDS[remedy.kind](remedy.data)
    return shlex.join(["tourney", *(str(word) for word in words)])


# Each kind of setting's way (tourney.errors.SETTING_WAYS) in the command line's
# words, said after an error's message and before the flag: "or seat round 2 anyway
# (--force)".
SETTING_WAYS: dict[str, Callable[[dict], str]] = {
    "seat-anyway": lambda d: f"seat round {d['round']} anyway",
    "move-anyway": lambda d: "move anyway",
    "add-unknown": lambda d: ("have entering add it" if len(d["players"]) == 1
                              else "have entering add them"),
    "write-sheet-anyway": lambda d: "write the sheet anyway",
    "list-links-anyway": lambda d: "list the links anyway",
}


def setting_way_words(way: SettingWay) -> str:
    """What the setting would do, as the command line says it: ``seat round 2 anyway``."""
    return SETTING_WAYS[way.kind](way.data)


def message(err: TourneyError) -> str:
    """The one-line message for a library error, naming a setting by its flag
    (``rounds`` is ``--rounds``, ``table_sizes`` is ``--table-sizes``), a
    remedy by its command (`tourney result import`) and what the setting would do
    in words beside its flag (", or seat round 2 anyway (--force)")."""
    text = err.describe(flag(err.field)) if isinstance(err, InvalidValue) else str(err)
    if err.setting_way is not None:
        # Two ways past it (tourney.errors.TourneyError): the remedy's first, the
        # setting's after; each named beside its own words.
        way = setting_way_words(err.setting_way)
        if err.remedy is None:
            return with_hints(f"{text}, or {way}", err.setting, None)
        return f"{text} (`{command(err.remedy)}`), or {way} ({flag(err.setting)})"
    return with_hints(text, err.setting, err.remedy)


def advice_message(advice: Advice) -> str:
    """A warning that is no error (:class:`tourney.errors.Advice`), with the command
    of its remedy."""
    return with_hints(advice.text, None, advice.remedy)


def with_hints(text: str, setting: str | None, remedy: Remedy | None) -> str:
    """``text (--flag, `tourney command`)``: what would get past it, after it."""
    hints = ([flag(setting)] if setting is not None else []) + (
        [f"`{command(remedy)}`"] if remedy is not None else [])
    return f"{text} ({', '.join(hints)})" if hints else text


def notice_message(notice: str) -> str:
    """A reader's notice, with the flag of the setting that would change it."""
    return with_hints(str(notice), getattr(notice, "setting", None), None)


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


def error_list(notices, errors, error_count: int, *, rules: bool = True) -> list[str]:
    """The lines of a file's errors as an import lists them: how it was read (its
    notices), each error kept (with its rule id unless ``rules`` is false), then
    how many more were counted but not kept (a file of a million bad rows is
    bounded alike everywhere)."""
    shown = rule_message if rules else message
    lines = [notice_message(notice) for notice in notices]
    lines += [shown(err) for err in errors]
    hidden = error_count - len(errors)
    if hidden > 0:
        from tourney.errors.counts import count_text

        lines.append(f"... and {count_text(hidden, 'more error')}")
    return lines


def flag(field: str) -> str:
    return "--" + field.replace("_", "-")


def interrupted_message(before: Writes, now: Writes = WRITES) -> str:
    """What a command interrupted by Ctrl-C left, in one line: ``before`` is
    :data:`tourney.storage.writes.WRITES` marked when it started, ``now`` as it is.
    A command that writes, writes in one transaction, so one stopped before its
    commit changed nothing; one that began none (a read, or no database opened) was
    just interrupted."""
    begun, committed = before.begun, before.committed
    if now.committing:
        return ("interrupted while its changes were being committed: they may or may "
                "not be stored (`tourney log` lists the stored changes)")
    if now.committed > committed:
        stored, count = now.stored_since(before)
        return "interrupted after its changes were stored" + _what_was_stored(stored, count)
    if now.begun > begun:
        return "interrupted; nothing was changed"
    return "interrupted"


def _what_was_stored(entries: list[tuple[str, str | None]], count: int, shown: int = 3) -> str:
    """The audit entries an interrupted command committed, as `tourney log` names
    them: ``: result.import cup: round-1.csv`` (the first few, then how many more)."""
    if not entries:
        return ""
    words = [f"{action} {subject}" if subject else action
             for action, subject in entries[:shown]]
    more = count - len(words)
    return (": " + "; ".join(words) + (f"; and {more} more" if more > 0 else "")
            + " (`tourney log` lists them)")


def error_json(text: str, code: int, err: BaseException | None = None) -> dict:
    """The one JSON object a failed command prints on stdout under --json: ``error``
    (the message, as stderr has it after "Error: "), ``exit_code``, and what the
    error knows of where and why, each key only when known: ``file``, ``cell`` (a
    workbook's), ``line``, ``column``, ``move``, ``seat`` (from 1), ``player``,
    ``rule`` (a record error's id), ``setting`` (the flag that would change it:
    ``--force``), ``remedy`` (another operation that would help, as data: its
    ``kind`` and its fields, ``{"kind": "undo-forfeit", "event": "cup", "round": 2,
    "table": "3"}``), ``operation`` (that remedy as the command to type:
    ``tourney result forfeit cup 2 3 --undo``), ``option`` (the game's option,
    house rule, a ``--rule`` refused is about: ``deals``), ``setting_way`` (what the
    setting would do, as data, in the shape the server's JSON refusals give it:
    ``{"kind": "seat-anyway", "round": 2}``) and ``unknown`` (a name that names
    nothing, as data: ``{"kind": "event", "names": ["club-2"], "suggestions":
    ["club-1"]}``)."""
    data: dict = {"error": text, "exit_code": code}
    if err is not None:
        data.update(error_location(err))
    data["rule"] = getattr(err, "rule", None)
    if isinstance(err, InvalidValue):
        data["setting"] = flag(err.field)
    if isinstance(err, TourneyError):
        if err.setting is not None:
            data["setting"] = flag(err.setting)
        if err.remedy is not None:
            data["remedy"] = err.remedy.to_json()
            data["operation"] = command(err.remedy)
        if err.setting_way is not None:
            data["setting_way"] = err.setting_way.to_json()
    if isinstance(err, UnknownName) and err.kind is not None:
        data["unknown"] = err.unknown_json()
    if isinstance(err, OptionError) and err.key is not None:
        data["option"] = err.key
    return {key: value for key, value in data.items() if value is not None}
