"""The library speaks no command line: no string in ``tourney/`` or ``reports/``
(docstrings and the database migrations aside) words a flag or quotes a command
(`tourney ...`), and no error is given an ``operation=`` string. What would get past an error is data (a setting's name,
a :class:`tourney.errors.Remedy`); the command line words it (``cli/errors.py``),
the web pages in their own language."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tourney", "reports")
# a flag as typed on a command line: --force, --out (not a range "1--3", not "---")
FLAG = re.compile(r"(?<![\w-])--[a-z]")
# a command quoted as typed: `tourney round seat`
COMMAND = re.compile(r"`tourney\b")
# (file, the string's first words): why it must stay
ALLOWED = {
    ("reports/i18n.py", "pybabel extract"): "the developers' extraction command, which the "
                                            "translation tests run; no user sees it",
}


def library_files() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                  if "migrations" not in path.relative_to(ROOT).parts)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of a module and its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                             ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                found.add(id(first.value))
    return found


def is_text(node: ast.AST) -> bool:
    """A string, an f-string, or strings joined with ``+``."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.BinOp) and (is_text(node.left) or is_text(node.right))


def command_line_words(source: str, name: str) -> list[str]:
    """Each string of ``source`` (the file ``name``) that words a flag or quotes a
    command, and each ``operation=`` given a string, as ``name:line: what``."""
    tree = ast.parse(source)
    skipped = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in skipped
                and (FLAG.search(node.value) or COMMAND.search(node.value))
                and not any(file == name and node.value.startswith(start)
                            for file, start in ALLOWED)):
            found.append(f"{name}:{node.lineno}: {node.value[:60]!r}")
        if isinstance(node, ast.keyword) and node.arg == "operation" and is_text(node.value):
            found.append(f"{name}:{node.value.lineno}: operation={ast.unparse(node.value)[:60]}")
    return found


def test_no_library_string_words_a_flag_a_command_or_an_operation():
    found = [line for path in library_files()
             for line in command_line_words(path.read_text(encoding="utf-8"),
                                            path.relative_to(ROOT).as_posix())]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("source", [
    'raise TourneyError("give it again", setting="force" if x else "--force")',
    'raise TourneyError(f"round {n} is over; add --force")',
    'raise TourneyError("no clock (`tourney round start` starts one)")',
    'raise TourneyError("refused", operation="result import")',
    'raise TourneyError("refused", operation=f"round seat {slug}")',
    'raise TourneyError("refused", operation="result forfeit " + slug)',
    'def f():\n    """Seat it (--force)."""\n    return "--undo"',
])
def test_the_scan_finds_a_flag_a_command_or_an_operation(source):
    assert len(command_line_words(source, "tourney/x.py")) == 1


@pytest.mark.parametrize("source", [
    'def f():\n    """Seat it anyway (``--force``)."""',  # a docstring: for developers
    'raise TourneyError("refused", setting="force", remedy=Remedy("import-results"))',
    'ROUNDS = "1--3"',  # a range, not a flag
    '# add --force\nx = 1',
])
def test_the_scan_passes_what_is_no_command_line(source):
    assert command_line_words(source, "tourney/x.py") == []


def test_the_allowed_strings_are_still_there():
    """Each allowance names a string that is still in its file (an allowance
    outliving its string would let the next one pass)."""
    for file, start in ALLOWED:
        tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
        assert any(isinstance(node, ast.Constant) and isinstance(node.value, str)
                   and node.value.startswith(start) for node in ast.walk(tree)), (file, start)


# ------------------------------------------------------------ refusals a page shows

# The modules whose refusals the organizer's and the players' pages of `tourney
# serve` show (each action of tourney/web/app.py traced to the library calls it
# makes), and the seating's: each refusal is given as words a page says in its
# language (tourney.errors.words.Message with an N_() msgid), never as English text
# the page can only show marked as English (issue 29).
PAGE_MODULES = tuple(f"tourney/tournament/{name}.py" for name in (
    "seat_changes", "forfeits", "evening", "arbiter", "versions", "rounds", "table_links",
    "stored_rounds")) + tuple(
    path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "tourney/pairing").glob("*.py")))
# (file, error class): why it may be given text
ENGLISH_ALLOWED = {
    ("tourney/tournament/evening.py", "SignupRefused"):
        "its first argument is a reason code (closed, field, entered, full), which the "
        "sign-up page words in its language (signup.html)",
    ("tourney/pairing/schedules.py", "ScheduleDataError"):
        "the package's own schedules file damaged: a broken installation, not a refusal",
}


# The rest of the library (every module of tourney/) is held to the same: each
# refusal, and each error given to a caller to be raised, is words, never English text.
# A message that is a code, not a sentence: a rule or reason (``deal-over``,
# ``closed``), a setting's name (``encoding``), which its caller words.
CODE = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
# Arguments of an error class that are data, not words: an InvalidValue is given the
# setting's name and the value as typed (shown as given), then what it takes (words).
DATA_ARGUMENTS = {"InvalidValue": (0, 1)}


def package_modules() -> list[str]:
    """Every module of the library (``tourney/`` and the site, ``reports/``) the
    whole-package scan reads, as paths from the repository: the migrations (scripts)
    aside. The command line (``cli/``) is where errors are worded in English."""
    return [path.relative_to(ROOT).as_posix() for path in library_files()]


def module_name(path: str) -> str:
    """The name a module (a path from the repository) is imported by: ``reports/``
    installs as ``tourney.reports``."""
    name = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    return f"tourney.{name}" if name.startswith("reports") else name


def refusal_classes(modules=PAGE_MODULES) -> set[str]:
    """The names of the project's error classes (TourneyError and its subclasses),
    ``modules`` (paths from the repository) imported so that theirs are among them."""
    import importlib

    from tourney.errors import TourneyError

    for path in modules:
        importlib.import_module(module_name(path))
    found, todo = set(), [TourneyError]
    while todo:
        cls = todo.pop()
        found.add(cls.__name__)
        todo += cls.__subclasses__()
    return found


def is_code(node: ast.AST) -> bool:
    """A lone code-shaped string: a rule, reason or setting, not a sentence."""
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)
            and CODE.fullmatch(node.value) is not None)


def is_super_init(call: ast.Call) -> bool:
    """``super().__init__(...)``."""
    return (isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"
            and isinstance(call.func.value, ast.Call)
            and isinstance(call.func.value.func, ast.Name) and call.func.value.func.id == "super")


def english_refusals(source: str, name: str, classes: set[str]) -> list[str]:
    """Each error of ``classes`` made in ``source`` (raised, returned, or kept to be
    raised; an error class's own message given to its base) with text among its
    words: a string, an f-string, strings joined, as a positional argument (the
    message, an engine's rule and message, what a setting takes); a lone code
    (``IllegalMove("deal-over", ...)``) is no text."""
    found = []
    tree = ast.parse(source)
    # the module's functions that return text (``_named_twice(...)`` given as the
    # message is text made elsewhere)
    texts = {node.name for node in ast.walk(tree)
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
             for ret in ast.walk(node) if isinstance(ret, ast.Return)
             and ret.value is not None and is_text(ret.value) and not is_code(ret.value)}
    # an error class's own message, given to its base: ``super().__init__(...)``
    own = {id(call): node.name for node in ast.walk(tree)
           if isinstance(node, ast.ClassDef) and node.name in classes
           for call in ast.walk(node) if isinstance(call, ast.Call) and is_super_init(call)}
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        cls = (own.get(id(call)) or
               (call.func.id if isinstance(call.func, ast.Name) else
                call.func.attr if isinstance(call.func, ast.Attribute) else None))
        if cls not in classes or (name, cls) in ENGLISH_ALLOWED:
            continue
        for index, word in enumerate(call.args):
            if index in DATA_ARGUMENTS.get(cls, ()):
                continue
            if (is_text(word) and not is_code(word)) or (
                    isinstance(word, ast.Call) and isinstance(word.func, ast.Name)
                    and word.func.id in texts):
                found.append(f"{name}:{call.lineno}: {cls}({ast.unparse(word)[:60]})")
    return found


def test_no_refusal_a_page_shows_is_given_as_english_text():
    classes = refusal_classes()
    found = [line for path in PAGE_MODULES
             for line in english_refusals((ROOT / path).read_text(encoding="utf-8"), path,
                                          classes)]
    assert found == [], "\n".join(found)


def test_no_refusal_of_the_library_is_given_as_english_text():
    """The whole package: the use cases (events, players, series, teams, imports),
    the records, ratings, storage, engines (their option refusals), files, the
    simulation, the server's socket and the site's publishing."""
    modules = package_modules()
    assert {"tourney/engines/base.py", "tourney/ratings/models.py", "reports/folders.py",
            "tourney/tournament/events.py", "tourney/app/series.py"} <= set(modules)
    classes = refusal_classes(modules)
    found = [line for path in modules
             for line in english_refusals((ROOT / path).read_text(encoding="utf-8"), path,
                                          classes)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("source", [
    'raise TourneyError(f"{name} is not seated in {slug}")',
    'raise UsageError("name the player who did not play")',
    'raise TourneyError("round " + str(n) + " is over", setting="force")',
    'def f():\n    return UnknownName(f"no version {v}")',
    'raise InvalidValue("rounds", rounds, f"1 to {MAX_ROUNDS}")',
    'raise errors.OptionError(f"option {key} takes a number")',
    'error = UsageError(f"{path}: cannot write")',
    'raise IllegalMove("follow-suit", f"must follow {suit}")',
    'raise InvalidValue("encoding", repr(name), "an encoding Python knows")',
    'raise UsageError("nothing was written")',
    'class CardError(TourneyError):\n    def __init__(self, text):\n'
    '        super().__init__(f"not a card: {text!r}")',
    'def twice(name):\n    return f"{name!r} is named twice"\n'
    'def check(name):\n    raise UsageError(twice(name))',
])
def test_the_scan_finds_a_refusal_given_as_text(source):
    assert len(english_refusals(source, "tourney/tournament/x.py", refusal_classes())) == 1


@pytest.mark.parametrize("source", [
    'raise TourneyError(Message(N_("%(name)s is not seated"), {"name": name}))',
    'raise no_table(slug, number, table, tables)',
    'raise ValueError(f"no remedy kind {kind!r}")',  # a bug's, not a user's
    'raise SignupRefused("closed")',
    'raise InvalidValue("bye_points", f"{value:g}", Message(N_("%(least)s to %(most)s"), {}))',
    'raise InvalidValue("rounds", rounds, Message(N_("%(least)s to %(most)s"), {"least": 1, "most": most}))',
    'raise IllegalMove("deal-over", deal_over())',  # a rule's code and its words
    'raise InvalidValue("provisional", n, Message(N_("a number of matches")))',
    'raise OptionError(Message(N_("option %(key)s takes a number"), {"key": key}))',
    'class CardError(TourneyError):\n    def __init__(self, text):\n'
    '        super().__init__(not_a_card(repr(text)))',
    'class PartLost(Exception):\n    def __init__(self, i):\n'
    '        super().__init__(f"part {i} stopped")',  # no refusal: a worker's end
])
def test_the_scan_passes_refusals_given_as_words(source):
    assert english_refusals(source, "tourney/tournament/evening.py", refusal_classes()) == []


def test_the_allowed_refusals_are_still_there():
    classes = refusal_classes()
    for file, cls in ENGLISH_ALLOWED:
        source = (ROOT / file).read_text(encoding="utf-8")
        assert cls in classes and re.search(rf"(\braise |\breturn |= ){cls}\(", source), (file, cls)


# ------------------------------------------------------------- warnings and ways

# A warning is words as a refusal is (issue 29): the library gives a warning
# (tourney.errors.Advice, a look-alike name, a constraint a seating breaks) as a
# Message, or as a code and data a caller words; what a setting would do past a
# refusal (``setting_way``) is a tourney.errors.SettingWay, which the command line
# words before the flag and a page offers as its button; an unknown name's kind has
# its sentence (tourney.errors.words.UNKNOWN_NAMES), its ``hint`` and ``otherwise``
# are words. The site's own counts (a feed's summary) are said in its languages,
# never with the command line's English count_text.
WAY_KEYWORDS = ("setting_way", "hint", "otherwise")
# a warning's class, given its words (tourney.errors.Advice, a file reader's Notice)
WARNING_CLASSES = ("Advice", "Notice")
# functions whose text is a warning's English (a property ``text``)
WARNING_FUNCTIONS = ("text", "message")
ENGLISH_COUNTS = ("count_text", "plural_word")


def has_text(node: ast.AST) -> bool:
    """Text that is no code, or a choice (``x if y else z``) one of whose ways is."""
    if isinstance(node, ast.IfExp):
        return has_text(node.body) or has_text(node.orelse)
    return is_text(node) and not is_code(node)


def text_names(function: ast.AST) -> set[str]:
    """The local names a function assigns text to (``text = f"..."``)."""
    return {target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
            and is_text(node.value) and not is_code(node.value)
            for target in node.targets if isinstance(target, ast.Name)}


def english_warnings(source: str, name: str) -> list[str]:
    """Each warning ``source`` (the file ``name``) builds as English text: an
    :class:`~tourney.errors.Advice` or a reader's ``Notice`` given text, a ``setting_way``, ``hint`` or
    ``otherwise`` given text, an unknown name of a kind with no sentence, a dict's
    ``"message"`` made of text (directly or by a local name), a ``text`` or
    ``message`` function returning text; and in the site (``reports/``) a count
    said with the command line's English (:func:`tourney.errors.counts.count_text`)."""
    from tourney.errors.words import UNKNOWN_NAMES

    tree = ast.parse(source)
    found = []
    functions = [node for node in ast.walk(tree)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for function in functions:
        texts = text_names(function)
        for node in ast.walk(function):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if (isinstance(key, ast.Constant) and key.value == "message"
                            and ((is_text(value) and not is_code(value))
                                 or (isinstance(value, ast.Name) and value.id in texts))):
                        found.append(f"{name}:{value.lineno}: \"message\": "
                                     f"{ast.unparse(value)[:60]}")
        if function.name in WARNING_FUNCTIONS:
            for node in ast.walk(function):
                if (isinstance(node, ast.Return) and node.value is not None
                        and is_text(node.value) and not is_code(node.value)):
                    found.append(f"{name}:{node.lineno}: {function.name}() returns "
                                 f"{ast.unparse(node.value)[:60]}")
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        called = (call.func.id if isinstance(call.func, ast.Name) else
                  call.func.attr if isinstance(call.func, ast.Attribute) else None)
        if called in WARNING_CLASSES:
            found += [f"{name}:{call.lineno}: {called}({ast.unparse(arg)[:60]})"
                      for arg in call.args if is_text(arg) and not is_code(arg)]
        if called == "unknown_name" and call.args and not (
                isinstance(call.args[0], ast.Constant) and call.args[0].value in UNKNOWN_NAMES):
            found.append(f"{name}:{call.lineno}: unknown_name({ast.unparse(call.args[0])}): "
                         "a kind with no sentence")
        if called == "unknown_player_error" and len(call.args) > 2 and has_text(call.args[2]):
            found.append(f"{name}:{call.lineno}: unknown_player_error(hint="
                         f"{ast.unparse(call.args[2])[:60]})")
        if called in ENGLISH_COUNTS and name.startswith("reports/"):
            found.append(f"{name}:{call.lineno}: {ast.unparse(call)[:60]}")
        for keyword in call.keywords:
            if keyword.arg in WAY_KEYWORDS and has_text(keyword.value):
                found.append(f"{name}:{call.lineno}: {keyword.arg}="
                             f"{ast.unparse(keyword.value)[:60]}")
    return found


def package_findings(scan) -> list[str]:
    """What ``scan(source, path)`` finds in every module of the library."""
    return [line for path in package_modules()
            for line in scan((ROOT / path).read_text(encoding="utf-8"), path)]


def test_no_warning_of_the_library_is_built_as_english_text():
    found = package_findings(english_warnings)
    assert found == [], "\n".join(found)


# what the library built as English before its warnings and ways were words
@pytest.mark.parametrize("source", [
    'def note(n, slug, who):\n'
    '    return Advice(f"round {n} of {slug} seats {who}, who withdrew", Remedy("x"))',
    'def seat(n):\n    raise TourneyError(words, setting="force", '
    'setting_way=f"seat round {n} anyway")',
    'def move():\n    raise TourneyError(words, setting="force", setting_way="move anyway")',
    'def get(slug, known):\n    raise unknown_name("event or series", slug, known)',
    'def get(slug, known):\n    raise unknown_name("event", slug, known, '
    'otherwise="there are no events yet")',
    'def team(scope, team, known):\n    raise unknown_name("team", team, known, '
    'otherwise=f"{scope.slug} has no teams")',
    'def player(session, name):\n    raise unknown_player_error(session, name, '
    'hint="; register it first")',
    'def player(session, name):\n    raise unknown_player_error(session, name, '
    '"; register it first", setting="add")',
    'def get(slug, known):\n    raise unknown_name("series", slug, known, '
    'otherwise="" if known else "there are no series yet")',
    'def report(who, label, how):\n    text = f"{who[0]} and {who[1]} share table {label}: {how}"\n'
    '    return [{"kind": "apart", "message": text}]',
    'def report(who):\n    return {"kind": "fixed", "message": f"{who} has a bye"}',
    'class Lookalike:\n    @property\n    def text(self):\n'
    '        return f"{self.name!r} looks like {self.like!r}"',
    'def read(source, number):\n    source.notices.append(Notice(f"{source.name}: not '
    'UTF-8 (line {number})", setting="encoding"))',
])
def test_the_scan_finds_a_warning_built_as_english(source):
    assert len(english_warnings(source, "tourney/tournament/x.py")) == 1


def test_the_scan_finds_the_sites_english_counts():
    source = ('def feed(rnd):\n    return f"{count_text(len(rnd.tables), \'table\')}, "'
              ' + f"{count_text(len(rnd.byes), \'bye\')}"')
    assert len(english_warnings(source, "reports/opendata.py")) == 2
    # the command line's and the library's own summaries are not the site's
    assert english_warnings(source, "tourney/tournament/teams.py") == []


@pytest.mark.parametrize("source", [
    'def note(n, slug):\n    return Advice(Message(N_("round %(round)s of %(event)s"), '
    '{"round": n, "event": slug}), Remedy("reseat-round", event=slug, round=n))',
    'def seat(n):\n    raise TourneyError(words, setting="force", '
    'setting_way=SettingWay("seat-anyway", round=n))',
    'def get(slug, known):\n    raise unknown_name("event-or-series", slug, known, '
    'otherwise=Message(N_("there are no events yet")))',
    'def report(who, words):\n    return [{"kind": "apart", "message": str(words)}]',
    'def report(reason):\n    return {"warning": "byes", "message": reason}',
    'class Lookalike:\n    @property\n    def text(self):\n        return str(self.words)',
    'def summary(self, n):\n    return self.ngettext("%(count)s table", "%(count)s tables", n)',
])
def test_the_scan_passes_warnings_given_as_words(source):
    assert english_warnings(source, "reports/x.py") == []


# ------------------------------------------------------------------ display text

# The library builds no English for a person to read (issue 29): a change's summary
# line, a clock's time left, a rule line of the standings, what an import or a
# forfeit did is worded where it is shown, the command line's in cli/ (one home
# each), a page's in its language from words or data the library hands up. A
# function of the library that returns text made of English (an f-string or strings
# joined, with words among its literal parts), directly, by a local name it builds,
# or as a list of such lines, is display text built in the library.
# (file, function): why it may
DISPLAY_ALLOWED = {
    ("tourney/app/tables.py", "link_actor"):
        "the audit log's actor for a table's link (`table 3 link K7QX`): an identifier "
        "stored with each change it made, the same in every language, not worded per "
        "reader",
    ("tourney/app/tables.py", "_subject"):
        "the audit log's subject of a submission's change (`club round 1 table 3`), "
        "stored as the other changes' subjects are: an identifier, not a sentence",
    ("tourney/errors/seats.py", "seat_text"):
        "the English a Seat parameter of words renders as (a Message's str(), which "
        "the command line prints), and the seat in an engine's DealEvent.text (its "
        "English, which a page replaces with the engine's note() words): a page says "
        "seats with seat_words, in its language",
    ("tourney/errors/seats.py", "seats_text"):
        "as seat_text: the English of several seats, where a page says seats_words",
    # a deal's state at the Python prompt, as python-chess's board shows itself
    # (docs/guide/library.md): field names and cards for a developer, which no
    # command or page shows
    ("tourney/engines/trick_play.py", "__repr__"): "a trick deal's repr(), for developers",
    ("tourney/engines/row_games.py", "__repr__"): "a row deal's repr(), for developers",
    ("tourney/engines/svarta_maja.py", "__repr__"): "a svarta-maja deal's repr(), for developers",
    ("tourney/engines/dam_brade.py", "__repr__"): "a checkers game's repr(), for developers",
}
# a word of English among a text's literal parts: lower-case letters beside a space
# (``f"time left: {m} min"``), not a path, a URL or a setting (``f"round-{n}.html"``,
# ``f"sqlite:///{path}"``, ``f"deals={n}"``) nor a unit (``" UTC"``)
ENGLISH_WORD = re.compile(r"[a-z]{2,}\s|\s[a-z]{2,}")


def literal_parts(node: ast.AST) -> list[str]:
    """The literal pieces of a text: an f-string's constants, strings joined, both
    ways of a choice."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return literal_parts(node.left) + literal_parts(node.right)
    if isinstance(node, ast.IfExp):
        return literal_parts(node.body) + literal_parts(node.orelse)
    return []


def is_built_english(node: ast.AST) -> bool:
    """Text built of parts (an f-string, strings joined, or a choice one of whose
    ways is) with a word of English among its literal parts; a lone string is a
    constant (a code, a msgid's English is N_()'s), not text built."""
    if isinstance(node, ast.IfExp):
        return is_built_english(node.body) or is_built_english(node.orelse)
    if not isinstance(node, (ast.JoinedStr, ast.BinOp)) or not is_text(node):
        return False
    return any(ENGLISH_WORD.search(part) for part in literal_parts(node))


# keywords whose text a page shows as given (a decision's note is the organizer's
# reason, shown at the table as typed): the library gives them no English of its own
SHOWN_AS_GIVEN = ("note",)
# keywords whose text a workbook shows its scorer as given (a cell's check: its
# prompt and its error, openpyxl's DataValidation): words, said in the event's
# language by the caller, never English, built or a lone sentence
SHOWN_IN_A_WORKBOOK = ("prompt", "error")
# methods whose text arguments go into a file's cells as given (a table's row: the
# rejects file's error column): never English built in the library
WRITTEN_AS_GIVEN = ("write",)


def display_texts(source: str, name: str) -> list[str]:
    """Each function of ``source`` (the file ``name``) that returns English built
    as text, as ``name:line: function() returns ...``; and each ``note=`` given
    English built as text."""
    tree = ast.parse(source)
    found = {}
    for call in ast.walk(tree):
        if isinstance(call, ast.Call):
            for keyword in call.keywords:
                if (keyword.arg in SHOWN_AS_GIVEN and is_built_english(keyword.value)) or (
                        keyword.arg in SHOWN_IN_A_WORKBOOK and has_text(keyword.value)
                        and (is_built_english(keyword.value)
                             or ENGLISH_WORD.search(" ".join(literal_parts(keyword.value))))):
                    found[call.lineno] = (f"{name}:{call.lineno}: {keyword.arg}="
                                          f"{ast.unparse(keyword.value)[:60]}")
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                (name, function.name) in DISPLAY_ALLOWED:
            continue
        own = [node for node in ast.walk(function)]
        built = {target.id for node in own if isinstance(node, (ast.Assign, ast.AugAssign))
                 and is_built_english(node.value)
                 for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                 if isinstance(target, ast.Name)}
        built |= {node.func.value.id for node in own if isinstance(node, ast.Call)
                  and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
                  and isinstance(node.func.value, ast.Name)
                  and any(is_built_english(arg) for arg in node.args)}
        for node in own:
            if isinstance(node, ast.Return) and node.value is not None and (
                    is_built_english(node.value)
                    or (isinstance(node.value, ast.Name) and node.value.id in built)):
                found.setdefault(node.lineno, f"{name}:{node.lineno}: {function.name}() "
                                              f"returns {ast.unparse(node.value)[:60]}")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in WRITTEN_AS_GIVEN):
                for arg in node.args:
                    if is_built_english(arg) or (isinstance(arg, ast.Name) and arg.id in built):
                        found.setdefault(node.lineno, f"{name}:{node.lineno}: "
                                                      f"{node.func.attr}({ast.unparse(arg)[:60]})")
    return list(found.values())


def test_no_function_of_the_library_builds_english_display_text():
    found = [line for path in package_modules()
             for line in display_texts((ROOT / path).read_text(encoding="utf-8"), path)]
    assert found == [], "\n".join(found)


def test_the_allowed_display_texts_are_still_there():
    """Each allowance names a function still in its file that still builds text
    (an allowance outliving it would let the next one pass)."""
    for file, function in DISPLAY_ALLOWED:
        source = (ROOT / file).read_text(encoding="utf-8")
        kept = {k: v for k, v in DISPLAY_ALLOWED.items() if k != (file, function)}
        DISPLAY_ALLOWED.clear()
        DISPLAY_ALLOWED.update(kept)
        try:
            assert any(f" {function}() returns" in line
                       for line in display_texts(source, file)), (file, function)
        finally:
            DISPLAY_ALLOWED[(file, function)] = "checked"


# what the library built before its display text moved to the command line
@pytest.mark.parametrize("source", [
    'def clock_text(clock):\n    left = clock.seconds_left()\n'
    '    return f"time left: {left // 60} min"',
    'def change_text(change):\n    done = f"{change.event} round {change.number}: swapped"\n'
    '    done += "; forced"\n    return done',
    'def constraints_text(data):\n    lines = []\n    for a, b in data["keep_apart"]:\n'
    '        lines.append(f"{a} and {b} kept apart")\n    return lines',
    'class Report:\n    def summary(self):\n'
    '        return f"added: {self.added}, " + f"rejected: {self.rejected}" + " (dry run)"',
    'def where(place):\n    return "a bye" if place is None else f"table {place}"',
    'def replace(session, waiting, sub):\n'
    '    decide(session, waiting, "rejected", note=f"replaced by submission {sub.id}")',
    # a rejects file's error column, and a score sheet's checks, before they were words
    'def reject(self, columns, raw, first):\n    where = first.cell or f"line {first.line}"\n'
    '    text = f"another row of this match is invalid ({where}): {first.message}"\n'
    '    self.write(columns, raw, text)',
    'def check(players):\n    return DataValidation(type="custom", promptTitle="scores",\n'
    '                          prompt=f"{len(players)} scores, seat 1 first")',
    'def check(players):\n    return DataValidation(type="list", errorTitle="dealer",\n'
    '                          error="The dealer is one of the table\'s players.")',
])
def test_the_scan_finds_display_text_built_in_the_library(source):
    assert len(display_texts(source, "tourney/tournament/x.py")) == 1


@pytest.mark.parametrize("source", [
    'def path(n):\n    return f"round-{n}.html"',  # a file's name
    'def url(path):\n    return f"sqlite:///{path}"',
    'def rule(rules):\n    return f"deals={rules.deals}"',  # a setting as typed
    'def when(moment):\n    return moment.strftime("%H:%M") + " UTC"',
    'def words(n):\n    return Message(N_("%(count)s tables"), {"count": n})',
    'def code(kind):\n    return "seat anyway"',  # a lone string: no text built
    'def pair(a, b):\n    return f"{a}: {b}"',  # no word of its own
    'def reject(session, row, note):\n    decide(session, row, "rejected", note=note)',
    'def check(say, n):\n    return DataValidation(errorTitle="scores",\n'
    '                          error=say(Message(SCORES_ERROR, {"count": n})))',
    'def reject(self, columns, raw, first):\n'
    '    self.write(columns, raw, str(another_row_invalid(first)))',
    'def note(self, error):\n    return Submission(error="scores-mismatch")',  # a code
])
def test_the_scan_passes_what_is_no_display_text(source):
    assert display_texts(source, "tourney/tournament/x.py") == []


def test_the_codes_the_library_hands_up_have_the_command_lines_words():
    """The points systems are codes in the library; the command line says each
    (its English moved out of tourney/tournament/scoring.py): a new code without
    words would fail `event show`."""
    from tourney.cli.events import POINTS_SYSTEM_WORDS
    from tourney.tournament.scoring import POINTS_SYSTEMS

    assert set(POINTS_SYSTEM_WORDS) == set(POINTS_SYSTEMS)
    assert all(" " not in code for code in POINTS_SYSTEMS)


# ---------------------------------------------------------- parameters are data

def worded_parameters(source: str, name: str) -> list[str]:
    """Each parameter of a :class:`~tourney.errors.words.Message` that ``source`` (the
    file ``name``) words before the message is said: a list joined with commas
    (``", ".join(...)``: pass the list, joined by the catalogue's commas where it is
    said) or a number formatted in an f-string (``f"{n:,}"``: pass the number, which
    a page formats for its locale)."""
    found = []
    for call in ast.walk(ast.parse(source)):
        if not (isinstance(call, ast.Call) and len(call.args) > 1
                and isinstance(call.args[1], ast.Dict)
                and (getattr(call.func, "id", None) or getattr(call.func, "attr", None))
                == "Message"):
            continue
        for value in call.args[1].values:
            joined = (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                      and value.func.attr == "join" and isinstance(value.func.value, ast.Constant)
                      and value.func.value.value.strip() in (",", ""))
            formatted = isinstance(value, ast.JoinedStr) and any(
                isinstance(part, ast.FormattedValue) and part.format_spec is not None
                and not ast.unparse(part.format_spec).strip("f'\"").endswith("X")
                for part in value.values)
            if joined or formatted:
                found.append(f"{name}:{value.lineno}: {ast.unparse(value)[:60]}")
    return found


def test_no_message_parameter_is_worded_before_it_is_said():
    found = package_findings(worded_parameters)
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("source", [
    'Message(N_("no table %(tables)s"), {"tables": ", ".join(absent)})',
    'Message(N_("missing: %(cards)s"), {"cards": " ".join(missing)})',
    'Message(N_("more than %(most)s"), {"most": f"{MOST:,}"})',
])
def test_the_scan_finds_a_parameter_worded_before(source):
    assert len(worded_parameters(source, "tourney/x.py")) == 1


@pytest.mark.parametrize("source", [
    'Message(N_("no table %(tables)s"), {"tables": list(absent)})',
    'Message(N_("more than %(most)s"), {"most": MOST})',
    'Message(N_("%(char)s"), {"char": f"U+{ord(c):04X}"})',  # a code point: no number
    'Message(N_("scores %(cell)s"), {"cell": ";".join(scores)})',  # a cell as written
])
def test_the_scan_passes_parameters_given_as_data(source):
    assert worded_parameters(source, "tourney/x.py") == []


def test_a_list_parameter_is_said_in_the_language_it_is_shown_in():
    """A list given as data is joined where the message is said: in English by the
    library's str(), on a page by the catalogue's comma; numbers in it (and alone)
    formatted for the page's locale."""
    import datetime as dt

    from tourney.errors.words import N_, Message
    from tourney.reports.site import Renderer

    words = Message(N_("no table %(tables)s"), {"tables": ["players", "events", 12345]})
    assert words.params["tables"] == ["players", "events", 12345]  # data, for a caller
    assert str(words) == "no table players, events, 12345"
    swedish = Renderer("sv", "", ("sv",), dt.datetime.now(dt.UTC)).message(words)
    assert swedish == "ingen tabell players, events, 12\xa0345"  # grouped for the locale
