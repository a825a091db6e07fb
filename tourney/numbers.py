"""Numbers as people read them: 3 rather than 3.0, at most two decimals.

The one home of number formatting for JSON (:func:`plain_number`) and for plain
text tables (:func:`number_text`). The site formats numbers per language (babel).
Also the one reading of a yes/no value as people write it (:func:`parse_yes_no`).
"""
from __future__ import annotations

from typing import Any


def parse_yes_no(raw: Any) -> bool | None:
    """A bool as written: true/yes/1/on or false/no/0/off (any case, spaces around
    ignored), or a bool itself; ``None`` for anything else."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    return None


def plain_number(value: float | int, digits: int | None = None) -> int | float:
    """``value`` as an int when it is whole, else as a float rounded to ``digits``
    decimals (``None``: not rounded)."""
    value = float(value)
    if value.is_integer():
        return int(value)
    return value if digits is None else round(value, digits)


def number_text(value: float | int, digits: int = 2) -> str:
    """A whole number without decimals ("3"), any other with ``digits`` ("2.50")."""
    value = float(value)
    if value.is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def count_text(count: int, singular: str, plural: str | None = None) -> str:
    """``count`` with its noun in the right number: "1 deal", "2 deals", "0 matches".
    ``plural`` for nouns that take more than an s ("match" -> "matches" is known)."""
    if count == 1:
        return f"{count} {singular}"
    if plural is None:
        plural = singular + ("es" if singular.endswith(("s", "sh", "ch", "x")) else "s")
    return f"{count} {plural}"
