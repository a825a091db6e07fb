"""Natural order of labels: table "2" before "10", "A2" before "A10".

The one home of table order: seat lists, the importer's messages, the export, the
rating order and the site all sort tables with it, so they never disagree.
"""
from __future__ import annotations

import re
from functools import lru_cache

_DIGITS = re.compile(r"(\d+)")


@lru_cache(maxsize=4096)
def natural_key(text: str) -> tuple:
    """Sort key putting "2" before "10" and "A2" before "A10" (then the text itself,
    so "02" and "2" still have an order). Cached: an event has few table names."""
    parts = []
    for chunk in _DIGITS.split(text):
        if not chunk:
            continue
        parts.append((0, int(chunk), "") if chunk.isdigit() else (1, 0, chunk))
    return (tuple(parts), text)


def table_order(label: str | None) -> tuple:
    """Tables in natural order; ``None`` (a bye, no table) last."""
    return (1, ()) if label is None else (0, natural_key(label))
