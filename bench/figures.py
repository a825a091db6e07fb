"""The machine-readable figures a benchmark leaves for ``bench/run_all.py``.

Each script that measures one of issue 19's targets writes, next to its printed
tables, a small JSON file ``bench/out/<name>.json`` with the numbers those tables
were made from; ``run_all.py`` deletes the file before it runs the script and reads
it afterwards, so the "Issue 19 targets" summary never scrapes markdown and never
shows the figures of an earlier run. ``bench/out/`` is git-ignored.

Usage in a bench script (run as ``python bench/NAME.py``, so ``bench/`` is on
``sys.path``)::

    from figures import write_figures
    write_figures("bench_validate", {"speed": {...}, ...})
"""
from __future__ import annotations

import datetime as dt
import json
import os
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"


def figures_path(name: str) -> Path:
    return OUT / f"{name}.json"


def write_figures(name: str, figures: dict) -> Path:
    """Write ``figures`` (JSON-able) to ``bench/out/<name>.json`` with the script's
    arguments and the time; return the path."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = figures_path(name)
    document = {
        "bench": name,
        "argv": sys.argv[1:],
        "written": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "cpu_count": os.cpu_count(),
        **figures,
    }
    partial = path.with_suffix(".json.part")
    partial.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    partial.replace(path)
    return path
