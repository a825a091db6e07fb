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
