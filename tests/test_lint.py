"""The code passes `ruff check` with the project's settings ([tool.ruff] in
pyproject.toml: pyflakes, pycodestyle's errors, import order), so the suite (and CI,
which runs it) fails on an unused import or a name that is not defined."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_check_is_clean():
    ruff = Path(sys.executable).parent / "ruff"
    done = subprocess.run([str(ruff), "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
