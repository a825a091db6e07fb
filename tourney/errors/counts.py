"""Counts as people say them: "1 deal", "2 deals", "0 matches".

The one home of a count with its noun, for every message: the engines' (which
import only the engines, cards and errors, so it lives beside the errors), the
library's and the command line's. English words: a page in another language
translates its own counts (ngettext).
"""
from __future__ import annotations


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
