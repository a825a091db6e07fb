"""A digest of tourney's own code, for results kept across runs (a published
site's pages, an event's standings snapshot): what a newer tourney would compute
differently must not be taken from what an older one kept."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Iterable

from . import __version__

PACKAGE_DIR = Path(__file__).resolve().parent


def code_digest(roots: Iterable[Path], suffixes: Iterable[str] = (".py",)) -> str:
    """A digest of tourney's version and of every file with one of ``suffixes``
    under ``roots`` (names and bytes, in a fixed order)."""
    suffixes = tuple(suffixes)
    digest = hashlib.blake2b(__version__.encode(), digest_size=16)
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in suffixes and path.is_file() and "__pycache__" not in path.parts:
                digest.update(os.fsencode(path.relative_to(root)))
                digest.update(path.read_bytes())
    return digest.hexdigest()
