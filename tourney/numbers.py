"""Numbers as people read them: 3 rather than 3.0, else two decimals.

The one home of number formatting: how many decimals a number is shown with
(:func:`shown_decimals`: none for a whole number, else :data:`DECIMALS`), for
JSON (:func:`plain_number`), plain text tables (:func:`number_text`) and the
site, which spells the same digits in each language's way (babel's symbols).
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


DECIMALS = 2  # the decimals of a number that is not whole, wherever it is shown


def shown_decimals(value: float | int, digits: int = DECIMALS) -> int:
    """How many decimals ``value`` is shown with: 0 when it is whole once rounded
    to ``digits`` (2.999 is shown as 3), else ``digits``, so a column of numbers
    reads "2", "1.33", "0.40" in the terminal and "2", "1,33", "0,40" on a
    Swedish page alike."""
    return 0 if round(float(value), digits).is_integer() else digits


def number_text(value: float | int, digits: int = DECIMALS) -> str:
    """A whole number without decimals ("3"), any other with ``digits`` ("2.50")."""
    value = float(value)
    if shown_decimals(value, digits) == 0:
        return str(int(round(value)))
    return f"{value:.{digits}f}"


def plural_word(count: int, singular: str, plural: str | None = None) -> str:
    """The noun for ``count`` things: "deal" for 1, "deals" otherwise (``plural``
    where more than an s or es is needed: "entry", "entries")."""
    if count == 1:
        return singular
    if plural is None:
        plural = singular + ("es" if singular.endswith(("s", "sh", "ch", "x")) else "s")
    return plural


def count_text(count: int, singular: str, plural: str | None = None) -> str:
    """``count`` with its noun in the right number: "1 deal", "2 deals", "0 matches"
    (the one helper for counts in messages; see :func:`plural_word`)."""
    return f"{count} {plural_word(count, singular, plural)}"
