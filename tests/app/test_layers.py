"""The package layers, checked on the source: who may import whom.

Every import counts, also one inside a function (an import hidden in a function is
still a dependency)."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import tourney

ROOT = Path(tourney.__file__).parent


def imported_modules(package: str) -> dict[str, set[str]]:
    """Module file -> the absolute names it imports (relative imports resolved)."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = ["tourney", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
            base = parts
        else:
            base = parts[:-1]
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    anchor = base[:len(base) - node.level + 1]
                    module = ".".join(anchor + ([node.module] if node.module else []))
                else:
                    module = node.module
                names.add(module)
                names.update(f"{module}.{alias.name}" for alias in node.names)
        found[str(path.relative_to(ROOT))] = names
    return found


def offenders(package: str, forbidden: tuple[str, ...]) -> list[str]:
    return [f"{module} imports {name}"
            for module, names in imported_modules(package).items()
            for name in sorted(names) if name.startswith(forbidden)]


def test_tournament_and_ratings_never_import_each_other():
    assert offenders("tournament", ("tourney.ratings", "tourney.app")) == []
    assert offenders("ratings", ("tourney.tournament", "tourney.app")) == []


def test_pairing_is_pure():
    assert offenders("pairing", ("tourney.storage", "tourney.tournament", "tourney.ratings",
                                 "sqlalchemy", "sqlmodel", "tourney.app")) == []


def test_the_core_never_imports_the_cli_or_the_site():
    for package in ("engines", "records", "storage", "pairing", "tournament", "ratings"):
        assert offenders(package, ("tourney.cli", "tourney.reports", "tourney.app")) == []
    assert offenders("app", ("tourney.cli",)) == []


def test_the_checker_sees_a_hidden_import(tmp_path, monkeypatch):
    """The scan finds an import inside a function, relative or absolute."""
    package = tmp_path / "tourney" / "demo"
    package.mkdir(parents=True)
    (package / "mod.py").write_text("def f():\n    from ..ratings import service\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path / "tourney")
    assert offenders("demo", ("tourney.ratings",)) == [
        "demo/mod.py imports tourney.ratings", "demo/mod.py imports tourney.ratings.service"]
