"""Numbers as people read them: 3 rather than 3.0, a column alike in every row.

The one home of number formatting: how many decimals a column of numbers is
shown with (:func:`column_decimals`: none when every value is whole, else the
fewest up to :data:`DECIMALS` that show each value, the same in every row; a
number standing alone is a column of one), for JSON (:func:`plain_number`: raw
numbers), plain text tables (:func:`number_column`, :func:`number_text`), their
CSV and XLSX files and the site, which spells the same digits in each
language's way (babel's symbols), match points in halves where they are
(:func:`halves_text`: "1½", on the pages and in the e-mails alike). A count with its noun ("2 deals") is
:mod:`tourney.errors.counts`; a yes/no value as people write it,
:func:`tourney.engines.base.parse_yes_no`.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction


def plain_number(value: float | int, digits: int | None = None) -> int | float:
    """``value`` as an int when it is whole, else as a float rounded to ``digits``
    decimals (``None``: not rounded)."""
    value = float(value)
    if value.is_integer():
        return int(value)
    return value if digits is None else round(value, digits)


DECIMALS = 2  # the most decimals a number is shown with, wherever it is shown

# A number as a person types it: a sign (ASCII or the minus sign), digits, and a
# decimal point or comma with at most DECIMALS digits; never an exponent ("1e3" is
# a typo for 13 or 1 as often as a thousand), inf or nan.
_TYPED_NUMBER = re.compile(r"[+\-\u2212]?[0-9]{1,9}(?:[.,][0-9]{1,%d})?" % DECIMALS)


def typed_number(text: str) -> float | None:
    """The number ``text`` spells as a person types it (``-1``, ``0,5``, ``−2.25``),
    or None for anything else: more than :data:`DECIMALS` decimals (a number
    shown with fewer would change unseen), an exponent, inf, nan."""
    text = text.strip()
    if not _TYPED_NUMBER.fullmatch(text):
        return None
    return float(text.replace(",", ".").replace("\u2212", "-"))


def _scaled(value: float | int, digits: int) -> int:
    """``value`` in units of 10**-digits, rounded as f-strings round it."""
    return int(f"{float(value):.{digits}f}".replace(".", ""))


def as_shown(value, digits: int = DECIMALS) -> Fraction:
    """``value`` as it reads rounded to ``digits`` decimals, exactly (16/3 -> 533/100):
    what a reader adds up when a sum is made of numbers shown with ``digits``."""
    return Fraction(_scaled(value, digits), 10 ** digits)


def column_decimals(values: Iterable[float | int | None], digits: int = DECIMALS) -> int:
    """The decimals a column of numbers is shown with, the same in every row: the
    fewest (0 to ``digits``) that show each value as it reads rounded to ``digits``.
    Whole numbers only: 0 ("2", "3"); with 2.5: 1 ("2.0", "2.5"); with 2.33: 2
    ("2.00", "2.33"). ``None`` (an empty cell) is left out. The one rule for
    every column of points, scores and tie-breaks: the terminal's tables, their
    CSV and XLSX files and every page of the site (in each language's symbols)."""
    shown = 0
    for value in values:
        if value is None or not math.isfinite(value):
            continue
        scaled = _scaled(value, digits)
        needed = digits
        while needed > shown and scaled % 10 == 0:
            scaled //= 10
            needed -= 1
        shown = max(shown, needed)
        if shown == digits:
            break
    return shown


def shown_decimals(value: float | int, digits: int = DECIMALS) -> int:
    """The decimals one number standing alone is shown with: a column of one
    (:func:`column_decimals`), so 3, 2.5 and 2.33 read "3", "2.5", "2.33"."""
    return column_decimals((value,), digits)


def fixed_text(value: float | int, decimals: int) -> str:
    """``value`` with exactly ``decimals`` decimals ("2.50"), never "-0"."""
    text = f"{float(value):.{decimals}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def signed_text(value: float | int, decimals: int) -> str:
    """A change with its sign: "+1.25", "-0.50", and "0.00" for one that rounds to
    nothing (never "-0.00" or "+0.00")."""
    text = fixed_text(value, decimals)
    return "+" + text if value > 0 and text.strip("0.") else text


def number_column(values: Sequence[float | int | None], digits: int = DECIMALS) -> list[str]:
    """A column of numbers as the terminal shows it: every value with the column's
    decimals (:func:`column_decimals`), an empty cell for ``None``."""
    decimals = column_decimals(values, digits)
    return ["" if v is None else fixed_text(v, decimals) for v in values]


def number_text(value: float | int, digits: int = DECIMALS) -> str:
    """One number standing alone, as the terminal shows it: "3", "2.5", "2.33"."""
    return fixed_text(value, shown_decimals(value, digits))


HALF = "\u00bd"  # ½


def halves_text(value: float | int, whole: Callable[[int], str]) -> str | None:
    """Points written in halves, as every page and e-mail writes match points that
    are wholes and halves (a drawn game): "½", "1½", "2", "-½"; ``whole`` spells a
    whole number in the reader's language (its digits, its minus sign). None for a
    value that is neither a whole nor a half: it is written as any number."""
    twice = float(value) * 2
    if not twice.is_integer():
        return None
    count, half = divmod(abs(int(twice)), 2)
    if not half:
        return whole(int(value))
    # the language's minus sign, as its whole numbers have it
    sign = whole(-1)[:-1] if value < 0 else ""
    return sign + (whole(count) if count else "") + HALF
