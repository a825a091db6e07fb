"""The project's own error types.

Every problem a user can cause (a bad record, an illegal move, an unknown option)
surfaces as a :class:`TourneyError`. The class says what kind of problem it is: a
:class:`UsageError` is a call that cannot work as given (an unknown name: variant,
event, player, round, table, option; a file that is missing or not of the kind
the call takes: :class:`UnreadableFile`), any other :class:`TourneyError` is data
that is invalid or an operation refused on it in the state things are in. Exit
codes are the command line's business: ``tourney.cli.errors`` maps the kinds to
them in one place (and a server to its own answers). Anything else escaping is a
bug.

Beside the types, the words messages are made of: seats as people count them
(:mod:`tourney.errors.seats`) and counts with their noun
(:mod:`tourney.errors.counts`). They live here, the bottom layer, because the
errors word seats and the engines, which import only the engines, cards and
errors, word both.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .seats import seat_number, seat_text

if TYPE_CHECKING:
    from .words import Message

# What would get past an error, when it is another operation: its kind, and the names
# of the data each kind carries (a caller words each kind its own way: the command
# line as the command to type, tourney.cli.errors.COMMANDS). A field may be left
# out where the library does not know it (``enter-players`` without the players).
REMEDIES: dict[str, tuple[str, ...]] = {
    "add-player": (),  # register players
    "add-to-series": ("series",),  # add events to a series
    "create-event": (),
    "create-series": (),
    "enter-players": ("event", "players"),  # enter players (again) in an event
    "forfeit-absent": ("event", "round", "table", "player"),  # a forfeit for an absence
    "import-players": (),
    "import-results": (),
    "list-house-rules": ("variant",),  # the house rules a variant has
    "list-teams": ("scope",),  # the teams of an event or series
    "mark-absent": ("event", "round", "player"),  # leave a player out of a round
    "reseat-round": ("event", "round"),
    "score-sheet": (),  # fill in the score sheet as a workbook
    "seat-round": ("event",),
    "swap-seats": ("event", "round"),
    "undo-absence": ("event", "round", "player"),
    "undo-forfeit": ("event", "round", "table"),
    "unset-site-setting": ("key",),
    "upgrade-database": (),
}


# What the setting of a call (``force``, ``add``) would do, when an error offers it
# beside a remedy or alone: its kind, and the names of the data each kind carries. A
# caller words each kind its own way (the command line as words before the flag,
# tourney.cli.errors.SETTING_WAYS; the organizer's page as a button or what to tick,
# tourney.web.messages), or not at all.
SETTING_WAYS: dict[str, tuple[str, ...]] = {
    "seat-anyway": ("round",),  # seat the next round without every result in
    "move-anyway": (),  # move a player though it breaks the table sizes
    "add-unknown": ("players",),  # have entering register the names not registered
    "write-sheet-anyway": (),  # a score sheet of a round seating a withdrawn player
    "list-links-anyway": (),  # the table links of such a round
}


class _Kinded:
    """A kind (one of the class's ``KINDS``) and its ``data``: what a caller words
    its own way. Data, not words."""

    __slots__ = ("kind", "data")
    KINDS: dict[str, tuple[str, ...]] = {}

    def __init__(self, kind: str, **data):
        fields = self.KINDS.get(kind)
        if fields is None:
            raise ValueError(f"no {type(self).__name__} kind {kind!r}")
        extra = set(data) - set(fields)
        if extra:
            raise TypeError(f"{type(self).__name__} {kind} takes no {', '.join(sorted(extra))}")
        self.kind = kind
        self.data = {key: data[key] for key in fields if data.get(key) is not None}

    def __eq__(self, other) -> bool:
        return (type(other) is type(self) and (self.kind, self.data)
                == (other.kind, other.data))

    def __hash__(self) -> int:
        return hash(self.kind)

    def __repr__(self) -> str:
        data = "".join(f", {key}={value!r}" for key, value in self.data.items())
        return f"{type(self).__name__}({self.kind!r}{data})"

    def to_json(self) -> dict:
        """``{"kind": ..., **data}``, players as a list."""
        return {"kind": self.kind, **{key: list(value) if isinstance(value, tuple) else value
                                      for key, value in self.data.items()}}


class Remedy(_Kinded):
    """Another operation that would get past an error: its ``kind`` (one of
    :data:`REMEDIES`) and its ``data`` (the event, round, table, player... it takes).
    Data, not words: each caller says it its own way, or not at all."""

    __slots__ = ()
    KINDS = REMEDIES


class SettingWay(_Kinded):
    """What the setting an error names (its ``setting``: ``force``, ``add``) would
    do, when the error offers it: its ``kind`` (one of :data:`SETTING_WAYS`) and
    its ``data`` (``seat-anyway``: the round it would seat). Data, not words: the
    command line says "seat round 2 anyway (--force)", a page offers its button."""

    __slots__ = ()
    KINDS = SETTING_WAYS


@dataclass(frozen=True)
class Advice:
    """A warning that is no error (nothing is refused): what the library has to say,
    as words (a :class:`tourney.errors.words.Message`, which the command line says
    in English and a page in its language), and the :class:`Remedy` that would act
    on it, which a caller words its own way
    (:func:`tourney.cli.errors.advice_message`)."""

    words: Message
    remedy: Remedy | None = None

    @property
    def text(self) -> str:
        """The words in English."""
        return str(self.words)


class TourneyError(Exception):
    """Base class for every error reported to a user.

    The message says what is wrong, and what would get past it, in the library's
    words. Where that is a setting of the call, ``setting`` names it as the library
    does (``event``, ``force``); where it is another operation, ``remedy`` says
    which, as data (:class:`Remedy`). A caller shows them its own way: the command
    line as ``--force`` and `tourney result import` (:mod:`tourney.cli.errors`).
    A message offering the setting's way says what is wrong (and the remedy's way:
    "import them first"); what the setting would do is given apart, as data
    (``setting_way``, a :class:`SettingWay`: ``seat-anyway`` round 2), which a
    caller words after the message its own way ("or seat round 2 anyway").
    """

    setting: str | None = None
    remedy: Remedy | None = None
    setting_way: SettingWay | None = None
    # Where in a file the problem is, as data, for an error that is not a
    # :class:`RecordError` but names a place in a file (:func:`in_file`): ``file``,
    # ``cell``, ``line``, ``column``, each only when known. Empty for the others.
    location: dict = {}
    # The message as words a page says in its language (a
    # :class:`tourney.errors.words.Message`, given as the message): None for
    # a message given as text, which a page shows in English.
    words = None

    def __init__(self, *args, setting: str | None = None, remedy: Remedy | None = None,
                 setting_way: SettingWay | None = None):
        if args and hasattr(args[0], "msgid"):
            # words given: the message is their English
            self.words = args[0]
            args = (str(args[0]), *args[1:])
        super().__init__(*args)
        self.setting = setting
        self.remedy = remedy
        self.setting_way = setting_way

    @property
    def is_usage(self) -> bool:
        """Whether the call could not work as given (:class:`UsageError`), as against
        data that is invalid or refused; a caller maps the kinds to its own answers
        (the command line's exit codes, a server's statuses)."""
        return isinstance(self, UsageError)


class UsageError(TourneyError):
    """The command was called wrongly: an unknown name or option, a missing file or
    one that is not of the kind the command takes."""


class InvalidValue(UsageError):
    """A setting given a value it does not take. ``field`` names the setting as the
    library does (``rounds``, ``table_sizes``), ``value`` is what was given,
    ``allowed`` says what it takes: words (a :class:`tourney.errors.words.Message`),
    which a page says in its language, or English text. The message names the
    field; :meth:`describe` names it as a caller does (the CLI: ``--rounds``)."""

    def __init__(self, field: str, value, allowed):
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(self.describe(field))
        if hasattr(allowed, "msgid"):
            self.words = self.described(field)

    def described(self, name: str):
        """The sentence as words, the setting called ``name``."""
        from .words import N_, Message

        return Message(N_("%(name)s takes %(allowed)s, not %(value)s"),
                       {"name": name, "allowed": self.allowed, "value": self.value})

    def describe(self, name: str) -> str:
        return self.described(name).english()


class UnknownName(UsageError):
    """A name the command was given that names nothing: an event, player or
    variant. A usage error (exit 2 on the command line) like any unknown argument,
    worded by :func:`unknown_name`.

    Beside the words, the data a caller needs to act on it without reading them:
    ``kind``, what the name was taken for (``event``, ``player``, ``variant``,
    ``series``, ``team``, ``event-or-series``, ``round``, ``table``, ``version``;
    ``None`` where not known), ``names``, the names given that name nothing (as
    given: a round's number is an int), and ``suggestions``, the known names close
    to the one given, best first (the "did you mean").
    """

    def __init__(self, *args, kind: str | None = None, names=(), suggestions=(), **ways):
        super().__init__(*args, **ways)
        self.kind = kind
        self.names = tuple(names)
        self.suggestions = tuple(suggestions)

    def unknown_json(self) -> dict:
        """``{"kind", "names", "suggestions"}``: the data, for a caller's JSON."""
        return {"kind": self.kind, "names": list(self.names),
                "suggestions": list(self.suggestions)}


def close_names(name: str, known, limit: int = 3, cutoff: float = 0.6) -> list[str]:
    """The known names closest to ``name`` (case-insensitive), best first: first
    those equal apart from case and accents ("asa oberg" finds "Åsa Öberg")."""
    import difflib

    from ..person_names import lookalike_key

    known = list(known)
    folded = {}
    for candidate in known:
        folded.setdefault(candidate.casefold(), candidate)
    key = lookalike_key(name)
    exact = [k for k in known if lookalike_key(k) == key]
    close = difflib.get_close_matches(name.casefold(), list(folded), n=limit, cutoff=cutoff)
    return (exact + [folded[c] for c in close if folded[c] not in exact])[:limit]


def unknown_name(kind: str, name: str, known, *, quote: bool = False, cutoff: float = 0.6,
                 hint=None, otherwise=None, **ways) -> UnknownName:
    """The one wording of an unknown name: ``unknown event 'club-2' (did you mean
    club-1?)``, as words (:func:`tourney.errors.words.unknown_name_words`; ``kind``
    one of its :data:`~tourney.errors.words.UNKNOWN_NAMES`). ``known``: the names
    there are; ``quote`` quotes the suggestions (names with spaces); ``otherwise``
    (words) is said when no known name is close; ``hint`` (words) is added after a
    semicolon; ``ways``: the error's ``setting``, ``remedy`` and ``setting_way``
    (:class:`TourneyError`)."""
    from .words import quoted, then_words, unknown_name_words

    close = close_names(name, known, cutoff=cutoff)
    shown = [quoted(c) if quote else c for c in close]
    # a remedy is said in brackets after the message (cli/errors.py, the web's
    # words): ``otherwise`` is then said after a colon, not in brackets of its own
    words = unknown_name_words(kind, quoted(name), shown, otherwise=otherwise,
                               colon=ways.get("remedy") is not None)
    return UnknownName(words if hint is None else then_words(words, hint), kind=kind,
                       names=(name,), suggestions=close, **ways)


def no_round(event: str, number: int, seated: int) -> UnknownName:
    """The one wording of a round an event does not have (``seated``: its rounds
    seated so far, 1 to ``seated``): ``ev has no round 9: round 1 is seated``. A
    usage error like any unknown name: the call names nothing."""
    from .words import N_, Message

    have = (Message(N_("no round is seated yet")) if seated < 1 else
            Message(N_("round 1 is seated")) if seated == 1 else
            Message(N_("rounds 1-%(last)s are seated"), {"last": seated}))
    return UnknownName(Message(N_("%(event)s has no round %(number)s: %(have)s"),
                               {"event": event, "number": number, "have": have}),
                       kind="round", names=(number,),
                       remedy=None if seated else Remedy("seat-round", event=event))


def no_table(event: str, number: int, table: str, tables) -> UnknownName:
    """The one wording of a table a seated round does not have (``tables``: its
    labels in table order): ``ev round 1 has no table 7: tables 1-2 are seated``."""
    from ..ordering import table_order
    from .words import N_, Message

    labels = sorted(tables, key=table_order)
    numbered = [str(n) for n in range(1, len(labels) + 1)]
    have = (Message(N_("no table is seated")) if not labels else
            Message(N_("table %(table)s is seated"), {"table": labels[0]}) if len(labels) == 1
            else Message(N_("tables 1-%(last)s are seated"), {"last": len(labels)})
            if labels == numbered else
            Message(N_("tables %(tables)s are seated"), {"tables": list(labels)}))
    return UnknownName(Message(N_("%(event)s round %(number)s has no table %(table)s: %(have)s"),
                               {"event": event, "number": number, "table": table,
                                "have": have}), kind="table", names=(table,))


def no_version(event: str, number: int, table: str, version: int, versions) -> UnknownName:
    """The one wording of a version a match does not have (``versions``: those it
    has, oldest first)."""
    from .words import N_, Message

    known = ", ".join(str(v) for v in versions)
    said = {"event": event, "round": number, "table": table, "version": version,
            "known": known}
    return UnknownName(Message(N_("%(event)s round %(round)s, table %(table)s has no version "
                                  "%(version)s (its versions: %(known)s)"), said) if known else
                       Message(N_("%(event)s round %(round)s, table %(table)s has no version "
                                  "%(version)s"), said), kind="version", names=(version,))


class OptionError(UsageError):
    """An unknown option key, or a value the option does not take. ``key`` names the
    game's option (house rule) it is about, as given (``None`` where it is about no
    one option)."""

    def __init__(self, *args, key: str | None = None, **ways):
        super().__init__(*args, **ways)
        self.key = key


class CardError(TourneyError):
    """A card spelling that is not a card."""

    def __init__(self, text: str):
        from .words import not_a_card, quoted

        self.text = text
        super().__init__(not_a_card(quoted(text)))


class IllegalMove(TourneyError):
    """A rule of the game is broken.

    ``rule`` is a short stable id (``follow-suit``, ``qs-not-passed``...) that tests
    and tools can match on; ``message`` says in English what went wrong. Given as words
    (:class:`tourney.errors.words.Message`), they are kept as ``words`` for a
    page to say in its language. Engines raise it without a position; the replay
    and the record reader add the position by re-raising a :class:`RecordError`.
    """

    def __init__(self, rule: str, message, *, seat: int | None = None):
        self.rule = rule
        self.words = None if isinstance(message, str) else message
        self.message = message = str(message)
        # the seat (0-based) when the broken rule is about one seat's entry, such as
        # its score on a score sheet; the record checker names its player
        self.seat = seat
        super().__init__(message)


class RecordError(TourneyError):
    """A problem in a record, with as much of its position as is known.

    Rendered as
    ``line 7, play, move 12 (seat 2, Ingrid Falk, 'KH'): must follow suit: holds 3C, 9C``.
    Layers fill in what they know: the engine the move, seat and token; the record
    checker the player (from the record's players, only once an error is raised);
    the file reader the file name, line and column. ``seat`` is 0-based like every
    seat inside tourney; the text and :meth:`position` count it from 1.

    The message is given as text or as words: a
    :class:`tourney.errors.words.Message`, a catalogue msgid and its typed
    parameters (this bottom layer only keeps it and takes its ``str``, the English).
    Then ``message`` is the English and ``words`` keeps them for a page to say in
    its own language (``None`` for a message given as text).
    """

    # True when the rules in force decided it (the engine's replay or score-sheet
    # check, the claimed scores, the match rules): other house rules might allow
    # it, so ``tourney validate`` hints at them. The record checker sets it.
    by_rules: bool = False

    def __init__(
        self,
        message,
        *,
        rule: str | None = None,
        file: str | None = None,
        line: int | None = None,
        column: str | None = None,
        move: int | None = None,
        seat: int | None = None,
        token: str | None = None,
        cell: str | None = None,
        player: str | None = None,
        setting: str | None = None,
        remedy: Remedy | None = None,
    ):
        self.words = None if isinstance(message, str) else message
        self.message = message = str(message)
        self.rule = rule
        self.file = file
        self.line = line
        self.column = column
        self.move = move
        self.seat = seat
        self.token = token
        self.player = player
        # In a workbook, the sheet and cell (``Round 1!K7``) where a CSV has a line.
        self.cell = cell
        super().__init__(message, setting=setting, remedy=remedy)

    @classmethod
    def from_illegal(cls, err: IllegalMove, **where) -> "RecordError":
        if getattr(err, "seat", None) is not None:
            where.setdefault("seat", err.seat)
        made = cls(err.message, rule=err.rule, **where)
        made.words = err.words  # its English is the message: not said again
        return made

    def where(self) -> str:
        parts = []
        if self.file:
            parts.append(str(self.file))
        if self.cell is not None:
            parts.append(self.cell)
        elif self.line is not None:
            parts.append(f"line {self.line}")
        if self.column:
            parts.append(self.column)
        who = []  # the seat and its player, when the error is about one seat
        if self.seat is not None:
            who.append(seat_text(self.seat))
        if self.player:
            who.append(self.player)
        if self.move is not None:
            from .words import QUOTED, quoted_in

            detail = who + ([quoted_in(self.token, QUOTED)] if self.token is not None else [])
            move = f"move {self.move}"
            if detail:
                move += f" ({', '.join(detail)})"
            parts.append(move)
        elif who:
            if self.column and parts:
                parts[-1] += f" ({', '.join(who)})"
            else:
                parts.append(", ".join(who))
        return ", ".join(parts)

    def position(self) -> dict:
        """Where the error is, as the JSON error objects give it beside ``error``
        and ``rule``: ``line``, ``column``, ``move``, ``seat`` (from 1, or
        ``None``) and ``player``."""
        return {"line": self.line, "column": self.column, "move": self.move,
                "seat": seat_number(self.seat), "player": self.player}

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


class UnreadableFile(RecordError, UsageError):
    """A file that cannot be read as records at all, so reading it stops: not text
    in a known encoding, not a readable workbook, no header or one the format
    does not know, a line, record or workbook beyond the reader's limits. A usage
    error (the file given is not a file of the kind the command takes), located
    like a record error; a problem of one row is a :class:`RecordError`."""


def in_file(error_class: type[TourneyError], file: str | None, message, *,
            line: int | None = None, cell: str | None = None, column: str | None = None,
            **data) -> TourneyError:
    """An error of ``error_class`` (``UsageError``, ``UnknownName``...; ``data`` its other
    arguments) about a place in a file: its words :func:`located`, and the place as
    data in ``location``, under the keys a :class:`RecordError`'s JSON has them."""
    made = error_class(located(file, message, line=line, cell=cell, column=column), **data)
    made.location = {key: value for key, value in (
        ("file", file), ("cell", cell), ("line", line), ("column", column))
        if value is not None}
    return made


def error_location(err: BaseException) -> dict:
    """Where an error is, as data: the keys every JSON answer gives it under (the
    command line's ``--json``, the server's refusals), each only when known:
    ``file``, ``cell`` (a workbook's), ``line``, ``column``, ``move``, ``seat`` (from
    1) and ``player``. A record error's position, an unreadable file's name, an
    error placed in a file (:func:`in_file`), an engine's seat."""
    if isinstance(err, RecordError):
        data = {"file": err.file, "cell": err.cell, **err.position()}
    elif isinstance(err, OSError):
        data = {"file": err.filename}
    elif isinstance(err, TourneyError) and err.location:
        data = dict(err.location)
    elif getattr(err, "seat", None) is not None:  # an engine's IllegalMove: 0-based
        data = {"seat": seat_number(err.seat)}
    else:
        data = {}
    return {key: value for key, value in data.items() if value is not None}


def located(file: str | None, message, *, line: int | None = None,
            cell: str | None = None, column: str | None = None):
    """The one form of a problem in a file, as :class:`RecordError` prints it:
    ``FILE, line N, column: message`` (in a workbook ``FILE, Sheet!A1, column:
    message``), for errors that are not record errors (a player list's). A
    ``message`` given as words (a :class:`tourney.errors.words.Message`) gives
    words, whose English is that text: the line said in a page's language."""
    if not hasattr(message, "msgid"):
        return str(RecordError(message, file=file, line=line, cell=cell, column=column))
    from .words import N_, Message, comma_words

    place = cell if cell is not None else (
        Message(N_("line %(number)s"), {"number": line}) if line is not None else None)
    parts = [part for part in (file, place, column) if part]
    if not parts:
        return message
    return Message(N_("%(subject)s: %(problem)s"), {"subject": comma_words(parts),
                                                     "problem": message})
