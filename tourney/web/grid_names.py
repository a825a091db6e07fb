"""Player names in the narrow columns of a score grid (the table's sheet, the
organizer's review), where a name has to wrap.

Decisions:

- On a phone a column shows the first name and initials ("Jörgen L.", see
  :func:`short_names`); elsewhere the full name.
- A name wraps between its words, each word (each part of a hyphenated one) in a
  box of its own (:func:`grid_name`), so "Anna-Karin" stays whole where it fits
  and breaks at its hyphen where it does not. A word too wide for its column is
  hyphenated, never cut anywhere: :func:`hyphenate` puts soft hyphens (U+00AD,
  shown as "-" only where the line breaks) at the syllable breaks of the Nordic
  languages, and the browser breaks a word there only when it alone does not fit
  ("Mar-" / "gareta Ö."). Chromium hyphenates ``hyphens: auto`` only with a
  dictionary it may not have (and names are in no dictionary), so the server
  marks the breaks itself.
- The breaks are worked out by rule, not a dictionary: between two vowels the
  next syllable takes one consonant ("Ma-ja", "Gun-nar", "Kris-ti-na"), and of three
  or more the longest cluster a Nordic syllable can start with ("Berg-ström",
  "Holm-qvist", "Bjørn-stad", "Lund-gren"); ``ck`` stays with the syllable before
  it, ``ch``/``ph``/``th`` with the one after. At least 2 letters stay before a
  break and 3 go after it. Words of letters other than Latin ones are left whole.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from markupsafe import Markup

SOFT_HYPHEN = "\u00ad"
LEFT_MIN, RIGHT_MIN = 2, 3
_VOWELS = set("aeiouyåäöæøœ")
# Consonant clusters a syllable may start with, after another consonant
# (Bergström, Bjørnstad, Lindqvist, Lundgren, Hedblom).
_ONSETS = {"str", "skr", "spr", "spl", "skv", "sch", "st", "sk", "sp", "sl", "sm", "sn",
           "sv", "tr", "dr", "br", "gr", "kr", "pr", "fr", "bl", "fl", "gl", "kl", "pl",
           "kv", "qv", "tv", "dv", "bj", "fj", "kj", "sj", "tj", "ch", "ph", "th"}
_WORD = re.compile(r"[^\W\d_]{%d,}" % (LEFT_MIN + RIGHT_MIN))
_PARTS = re.compile(r"[^-]*-|[^-]+")  # a word's parts, each with its hyphen


def short_names(players: list[str]) -> list[str]:
    """The score grid's headers on a phone: the first name and initials ("Jörgen
    L."), so 5 columns fit 375 px; the full names where two would read the same."""
    shorts = []
    for name in players:
        parts = name.split()
        shorts.append(name if len(parts) < 2 else
                      parts[0] + " " + " ".join(p[0] + "." for p in parts[1:]))
    return shorts if len(set(shorts)) == len(shorts) else list(players)


def _vowel(char: str) -> bool:
    return unicodedata.normalize("NFD", char.lower())[0] in _VOWELS


def _latin(word: str) -> bool:
    return all(unicodedata.name(c, "").startswith("LATIN") for c in word)


def _breaks(word: str) -> list[int]:
    """Where ``word`` may be hyphenated (the index of the first letter after each break)."""
    if not _latin(word):
        return []
    vowels = [_vowel(c) for c in word]
    out = []
    i = 0
    while i < len(word) and not vowels[i]:
        i += 1
    while i < len(word):
        while i < len(word) and vowels[i]:  # a run of vowels: a diphthong or hiatus
            i += 1
        start = i
        while i < len(word) and not vowels[i]:
            i += 1
        if i == len(word):
            break  # consonants that end the word
        cluster = word[start:i].lower()
        if len(cluster) == 1 or cluster in ("ch", "ph", "th", "sch"):
            at = start
        elif cluster == "ck":
            at = i
        elif len(cluster) == 2:
            at = start + 1
        else:
            onset = next((n for n in (3, 2) if cluster[-n:] in _ONSETS), 1)
            at = i - onset
        if LEFT_MIN <= at <= len(word) - RIGHT_MIN:
            out.append(at)
    return out


@lru_cache(maxsize=4096)
def hyphenate(name: str) -> str:
    """``name`` with a soft hyphen at each syllable break of its longer words
    (see the module's decisions), unseen unless a line breaks there."""
    def mark(match: re.Match) -> str:
        word = match.group(0)
        cuts = _breaks(word)
        return SOFT_HYPHEN.join(word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)]))

    return _WORD.sub(mark, name or "")


def grid_name(name: str) -> Markup:
    """A name as a grid's header shows it (escaped): each word, and each part of a
    hyphenated word ("Anna-" "Karin"), hyphenated (:func:`hyphenate`) in a box of
    its own (``span.word``, an inline block), so a line breaks between words or at
    a hyphen where it can, and inside a part only when it alone is wider than the
    column."""
    box = Markup('<span class="word">%s</span>')
    return Markup(" ").join(
        Markup("").join(box % hyphenate(part) for part in _PARTS.findall(word))
        for word in (name or "").split())
