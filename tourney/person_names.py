"""Person names: the one spelling a name is kept in, and the key that finds look-alikes.

Decisions:

- Every name is NFC-normalised where it enters (command-line arguments, player
  files, the players and dealer columns of record files, the server's forms), with
  :func:`normalize_name`: "Å" typed on a Mac (A + combining ring, NFD) and on
  Windows (one character) are then the same name. Nothing else about a name is
  changed (case, inner spaces and accents stay as typed).
- :func:`lookalike_key` is what ``player add`` and ``player import`` compare to warn
  about a name that is probably someone already registered: case folded, accents
  and inner runs of spaces ignored, and the Nordic letters written without their
  marks ("Åsa Öberg", "asa oberg" and "Asa  Oberg" share a key). It warns, never
  refuses: two people may really be called that.
- How names sort in each language is :func:`tourney.ordering.name_key`.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

# Letters that are not a base letter plus a combining mark, written the way a
# keyboard without them would: "Ødegaard" is typed "Odegaard", "Æsir" "Aesir".
PLAIN_LETTERS = {"ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "ł": "l",
                 "þ": "th", "ı": "i", "ß": "ss"}


def normalize_name(text: str | None) -> str:
    """A name in its one stored spelling: NFC, surrounding whitespace stripped."""
    return unicodedata.normalize("NFC", text or "").strip()


@lru_cache(maxsize=8192)
def lookalike_key(name: str) -> str:
    """Names with the same key look alike: equal apart from case, accents and inner
    spaces (see the module docstring)."""
    out = []
    for char in unicodedata.normalize("NFD", name.casefold()):
        if unicodedata.combining(char):
            continue
        out.append(PLAIN_LETTERS.get(char, char))
    return " ".join("".join(out).split())


def lookalike_kind(a: str, b: str) -> str:
    """How two look-alike names differ, for the warning: ``"case"``, ``"accents"``
    or ``"case and accents"`` (inner spaces count as neither), or ``"spaces"`` when
    they differ in nothing else ("Anna  Berg", a second space typed by mistake)."""
    def spaced(text: str) -> str:
        return " ".join(normalize_name(text).split())

    def unmarked(text: str) -> str:
        return "".join(PLAIN_LETTERS.get(c, c) if c.islower() else
                       PLAIN_LETTERS.get(c.lower(), c).capitalize()
                       for c in unicodedata.normalize("NFD", spaced(text))
                       if not unicodedata.combining(c))

    if spaced(a) == spaced(b) and normalize_name(a) != normalize_name(b):
        return "spaces"
    if spaced(a).casefold() == spaced(b).casefold():
        return "case"
    return "accents" if unmarked(a) == unmarked(b) else "case and accents"


def lookalikes(given, known) -> list[str]:
    """The ``known`` names that look like one of the ``given`` ones
    (:func:`lookalike_key`), sorted."""
    keys = {lookalike_key(name) for name in given}
    return sorted({name for name in known if lookalike_key(name) in keys})


def close_misspellings(strangers, known) -> list[str]:
    """For a misspelling of a ``known`` name (``Ingrid Falck``), the closest known
    name, if close (difflib); sorted."""
    import difflib

    known = list(known)
    guesses = [difflib.get_close_matches(name, known, n=1, cutoff=0.85) for name in strangers]
    return sorted({guess[0] for guess in guesses if guess})


def suggested_names(strangers, known) -> list[str]:
    """The names to suggest for names that find no player among ``known`` ones: the
    look-alikes (:func:`lookalikes`), else close misspellings
    (:func:`close_misspellings`); empty when neither. Said as "did you mean"
    (:func:`tourney.errors.words.did_you_mean`)."""
    known = list(known)
    return lookalikes(strangers, known) or close_misspellings(strangers, known)
