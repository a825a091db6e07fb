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


# ------------------------------------------------------------------------- names
# How names sort in a language: the one collation key of names, for the player
# list, seat lists, standings ties, the leaderboard and the site's player index.
# Pure Python after the Unicode Collation Algorithm's tailorings for the languages
# an event can have (CLDR): Swedish and Finnish put Å Ä Ö after Z (Æ with Ä, Ø with
# Ö), Norwegian and Danish Æ Ø Å (Ä with Æ, Ö with Ø, "aa" as Å); every language
# sorts Ü with Y there, and elsewhere a letter with a mark sorts with its base
# letter (Ø with O, Æ as AE). Case and accents decide only between names that are
# otherwise equal, then the name itself, so the order is total.

_AFTER_Z = ord("z") + 1
_NORDIC = {
    "sv": {"å": 1, "ä": 2, "æ": 2, "ö": 3, "ø": 3},
    "nb": {"æ": 1, "ä": 1, "ø": 2, "ö": 2, "å": 3},
}
_COLLATIONS = {"sv": "sv", "fi": "sv", "nb": "nb", "nn": "nb", "no": "nb", "da": "nb"}
_AS_Y = {"ü": "y", "ű": "y"}


@lru_cache(maxsize=256)
def collation(lang: str | None) -> str | None:
    """The collation a language code sorts names with (``sv`` for Swedish and
    Finnish, ``nb`` for Norwegian and Danish), None for the default one; takes
    ``sv``, ``sv_FI``, ``nb-NO``, ``fi_FI.UTF-8``..."""
    if not lang:
        return None
    base = re.split(r"[_.@-]", lang.strip().lower(), maxsplit=1)[0]
    return _COLLATIONS.get(base)


def terminal_language(environ=None) -> str | None:
    """The language the terminal sorts by (``LC_ALL``, then ``LC_COLLATE``, then
    ``LANG``, as the C library reads them); None for C or POSIX or when unset."""
    import os
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_COLLATE", "LANG"):
        value = (env.get(variable) or "").strip()
        if value:
            return None if value.split(".")[0] in ("C", "POSIX") else value
    return None


_CHAR_CODES: dict[str | None, dict[str, tuple[int, ...]]] = {}


def _char_codes(char: str, rules: str | None) -> tuple[int, ...]:
    """A case-folded character's primary weights under a collation (cached)."""
    table = _CHAR_CODES.setdefault(rules, {})
    codes = table.get(char)
    if codes is None:
        import unicodedata

        from .person_names import PLAIN_LETTERS

        tail = _NORDIC.get(rules, {})
        if char in tail:
            codes = (_AFTER_Z + tail[char],)
        elif rules and char in _AS_Y:
            codes = (ord("y"),)
        else:
            out = []
            for base in unicodedata.normalize("NFKD", char):
                if unicodedata.combining(base):
                    continue
                for letter in PLAIN_LETTERS.get(base, base):
                    code = ord(letter)
                    out.append(code if code < _AFTER_Z else code + 4)  # room for the three
            codes = tuple(out)
        table[char] = codes
    return codes


@lru_cache(maxsize=65536)
def name_key(name: str, lang: str | None = None) -> tuple:
    """Sort key of a person's name in a language (see above)."""
    import unicodedata

    rules = collation(lang)
    folded = unicodedata.normalize("NFC", name).casefold()
    if rules == "nb":
        folded = folded.replace("aa", "å")
    table = _CHAR_CODES.get(rules) or {}
    primary = []
    for char in folded:
        primary.extend(table.get(char) or _char_codes(char, rules))
    return (tuple(primary), unicodedata.normalize("NFD", folded), name)


def name_order(lang: str | None = None):
    """``key=`` for sorting names in a language: ``sorted(names, key=name_order("sv"))``."""
    return lambda name: name_key(name, lang)
