"""The application layer as a library user meets it (``help(tourney.app)``,
docs/guide/library.md): the package says which modules it has and which use cases
take the engine rather than a session."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import tourney.app as app


def _modules():
    return [importlib.import_module(f"tourney.app.{found.name}")
            for found in pkgutil.iter_modules(app.__path__)]


def test_the_package_docstring_names_every_module():
    for module in _modules():
        short = module.__name__.rsplit(".", 1)[1]
        assert f":mod:`.{short}`" in app.__doc__, short


def test_every_use_case_taking_the_engine_is_named_as_such():
    """The docstring's convention: a session first, but for the use cases it names."""
    for module in _modules():
        for name, function in vars(module).items():
            if not inspect.isfunction(function) or function.__module__ != module.__name__:
                continue
            if list(inspect.signature(function).parameters)[:1] == ["engine"]:
                short = module.__name__.rsplit(".", 1)[1]
                assert f":func:`.{short}.{name}`" in app.__doc__, name
