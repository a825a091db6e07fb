"""Text shown on a terminal: what came from a file or the database made inert.

Here, in the library, because both the command line (its messages and tables,
``tourney.cli.output``) and the tables the library writes to standard output
(:func:`tourney.records.spreadsheets.open_table`: CSV or TSV on a terminal) show it.
"""
from __future__ import annotations

import re
import unicodedata

# Characters that are not what they look like on a terminal: C0/C1 controls (ESC
# starts the sequences that clear a screen, move the cursor, retitle the window),
# bidirectional overrides and isolates, zero-width and other format characters,
# line and paragraph separators. Names and cells from files or the database may
# hold any of them.
_SUSPECT = re.compile("[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f"
                      "\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]")


def _acts(char: str) -> bool:
    """Whether a character is not what it looks like on a terminal (a control, a
    format character)."""
    return _SUSPECT.match(char) is not None or unicodedata.category(char) == "Cf"


def _inert(text: str) -> bool:
    """Whether no character of ``text`` :func:`_acts` (the common case, in C: the
    pattern first, the categories only of text that is not ASCII)."""
    return _SUSPECT.search(text) is None and (text.isascii() or not any(
        unicodedata.category(c) == "Cf" for c in text))


def _visible(char: str, keep_newlines: bool) -> str:
    if char == "\n" and keep_newlines:
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str, keep_newlines: bool = True) -> str:
    """``text`` safe to print on a terminal: control and invisible format
    characters shown as escapes (``\\x1b``, ``\\u202e``), so text that came from a
    file or the database cannot clear the screen, fake output or reorder a line.
    ``keep_newlines`` keeps line breaks (messages); table cells pass False."""
    if _inert(text):
        return text
    return "".join(_visible(c, keep_newlines) if _acts(c) else c for c in text)


def _json_escape(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # past the BMP: JSON's surrogate pair
    return f"\\u{0xd800 + (code >> 10):04x}\\u{0xdc00 + (code & 0x3ff):04x}"


def terminal_json(text: str) -> str:
    """JSON text (``text``, as an encoder wrote it) safe to print on a terminal: the
    characters :func:`terminal_text` shows as escapes written as JSON's ``\\uXXXX``
    (an encoder leaves C1 controls, bidirectional and format characters as they are),
    so the JSON reads back to the very same data. Its line breaks (indentation) stay:
    inside its strings they are escaped already."""
    if _inert(text):
        return text
    return "".join(_json_escape(c) if c != "\n" and _acts(c) else c for c in text)


__all__ = ["terminal_json", "terminal_text"]
