"""Packaging: every folder that ships is declared in pyproject.toml, so an install
carries it (and prints no setuptools warnings about undeclared data folders)."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def shipped_folders() -> set[str]:
    """The import name of every source folder below the mapped folders that holds
    a file (code or data), as pyproject's ``package-dir`` maps it."""
    names = set()
    for package, folder in CONFIG["package-dir"].items():
        base = ROOT / folder
        for path in [base, *base.rglob("*")]:
            if not path.is_dir() or path.name == "__pycache__":
                continue
            if not any(f.is_file() for f in path.iterdir()):
                continue
            relative = path.relative_to(base).parts
            names.add(".".join([package, *relative]))
    return names


def test_every_folder_that_ships_is_a_listed_package():
    listed = set(CONFIG["packages"])
    assert sorted(shipped_folders() - listed) == []
    assert sorted(listed - shipped_folders()) == []


def test_no_setup_py_metadata_is_all_in_pyproject():
    assert not (ROOT / "setup.py").exists()
    assert CONFIG["package-dir"]["tourney.cli"] == "cli"
    assert CONFIG["package-dir"]["tourney.reports"] == "reports"
