"""The modules of ``tourney/tournament`` import each other without a circle,
imports inside functions included: what two modules share has one home that
both read (issue 28)."""
from __future__ import annotations

import ast
from pathlib import Path

import tourney.tournament

PACKAGE = "tourney.tournament"
FOLDER = Path(tourney.tournament.__file__).parent


def module_graph() -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports
    (anywhere in its text: at the top or inside a function)."""
    modules = {path.stem for path in FOLDER.glob("*.py") if path.stem != "__init__"}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name in modules:
        tree = ast.parse((FOLDER / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:  # from .x import y, from . import x
                    targets = [node.module] if node.module else [a.name for a in node.names]
                elif node.level == 0 and (node.module or "").startswith(PACKAGE + "."):
                    targets = [node.module[len(PACKAGE) + 1:]]
                elif node.level == 0 and node.module == PACKAGE:
                    targets = [a.name for a in node.names]
                else:
                    continue
            elif isinstance(node, ast.Import):
                targets = [a.name[len(PACKAGE) + 1:] for a in node.names
                           if a.name.startswith(PACKAGE + ".")]
            else:
                continue
            for target in targets:
                target = target.split(".")[0]
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports (its modules in order, the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = walk(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = walk(module)
            if found:
                return found
    return None


def test_the_tournament_modules_import_each_other_without_a_circle():
    graph = module_graph()
    assert len(graph) > 20 and graph["results"] >= {"stored_rounds", "result_writer"}
    assert cycle(graph) is None, " -> ".join(cycle(graph))


def test_a_circle_is_found_when_there_is_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None
